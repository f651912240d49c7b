"""Optimisation pass: walks of a type's records filtered by a var field use an index. A
comprehension over all the records of a type whose condition keeps only those whose var
field equals a value it reads once (`x.f == v`, after tests that read only x's fields,
locals and literals) walks just those records (G.having: charged the same, kept in an
index while rules run, engine.core.runtime Runtime.having). The condition is still read for
each record walked, so the result is the same."""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl.check import CheckResult
from engine.dsl.compile.syntax import is_literal, mentions, resolved_kind
from engine.dsl.model import PackModel, TypeInfo


def indexed_walk(model: PackModel, checked: CheckResult, created: set[str],
                 comp: A.Comprehension) -> tuple[str, str, A.Expr] | None:
    """(type, var field, value) when the walk of `comp` can use the index, else None."""
    res = checked.res.get(id(comp.source)) if isinstance(comp.source, A.Name) else None
    if res is None or res[0] != "all" or res[1] in created or comp.cond is None:
        return None
    info = model.types.get(res[1])
    if info is None:
        return None
    tests = comp.cond.items if isinstance(comp.cond, A.BoolOp) and comp.cond.op == "and" \
        else (comp.cond,)
    found = None
    for test in tests:
        equality = field_equality(checked, test, comp.var, info)
        if equality is not None and (found is None or is_literal(found[1])
                                     and not is_literal(equality[1])):
            found = equality  # a value that is no literal: the more telling of two
        if not plain_test(checked, test, comp.var, info):
            break  # the tests after one that may call or fail are read only for some
    return None if found is None else (res[1], found[0], found[1])


def field_equality(checked: CheckResult, test: A.Expr, var: str,
                   info: TypeInfo) -> tuple[str, A.Expr] | None:
    """(field, value) when `test` is `var.field == value` (either way round), with a var
    field of one value (no list) and a value that is a local, const or literal."""
    if not isinstance(test, A.Compare) or test.op != "==":
        return None
    for mine, other in ((test.left, test.right), (test.right, test.left)):
        field = own_field(checked, mine, var, info)
        if field is not None and info.fields[field].var \
                and not isinstance(info.fields[field].type, tuple) \
                and plain_operand(checked, other, var, info) and not mentions(other, var):
            return field, other
    return None


def own_field(checked: CheckResult, expr: A.Expr, var: str, info: TypeInfo) -> str | None:
    """The field name when `expr` is `var.field`, a declared field of the type."""
    if isinstance(expr, A.Attr) and isinstance(expr.obj, A.Name) and expr.obj.id == var \
            and resolved_kind(checked, expr.obj) == "local" and expr.name in info.fields:
        return expr.name
    return None


def plain_operand(checked: CheckResult, expr: A.Expr, var: str, info: TypeInfo) -> bool:
    """A literal, a local or const, or a field of var: read without a call or a fault."""
    if isinstance(expr, (A.Int, A.Str, A.Bool, A.NoneLit)):
        return True
    if isinstance(expr, A.Name):
        return resolved_kind(checked, expr) in ("local", "const", "kconst")
    return own_field(checked, expr, var, info) is not None


def plain_test(checked: CheckResult, test: A.Expr, var: str, info: TypeInfo) -> bool:
    """A test that reads only plain operands: leaving it unread for some items changes
    neither a step count nor whether a fault happens."""
    if isinstance(test, A.Not):
        return plain_test(checked, test.expr, var, info)
    if isinstance(test, A.Compare) and test.op in ("==", "!="):
        return plain_operand(checked, test.left, var, info) \
            and plain_operand(checked, test.right, var, info)
    return own_field(checked, test, var, info) is not None
