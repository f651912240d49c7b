"""Questions about the checked syntax tree that code generation and the optimisation passes
ask: its nodes in order, the names a part binds or reads, the shape of an expression without
its positions, a call's arguments in parameter order, and whether a statement may wait."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.dsl import ast as A
from engine.dsl.check import CheckResult


def nodes(node: Any, prune: type | tuple[type, ...] = ()) -> Iterator[Any]:
    """Every syntax node of a tree (an attrs node; not the tuples that hold them, their
    names, numbers and positions), parents before their children, in source order; the
    nodes of type `prune` and what lies inside them are left out."""
    # a stack, not recursive generators: the compiler walks ~600k values of a big pack, and
    # each level of `yield from` costs every value below it once more
    todo = [node]
    fields = _FIELDS
    while todo:
        node = todo.pop()
        if isinstance(node, tuple):
            todo.extend(reversed(node))
            continue
        names = fields.get(type(node))
        if names is None:
            names = fields[type(node)] = _field_names(type(node))
        if names is _LEAF or prune and isinstance(node, prune):
            continue
        yield node
        todo.extend([getattr(node, name) for name in names])


_LEAF: tuple[str, ...] = ("(leaf)",)  # not a syntax node: a name, a number, a position
_FIELDS: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type) -> tuple[str, ...]:
    """The attrs fields of syntax node class `cls`, last first (_LEAF: no syntax node)."""
    if cls is A.Pos or not hasattr(cls, "__attrs_attrs__"):
        return _LEAF
    return tuple(f.name for f in reversed(cls.__attrs_attrs__))


def names_in(node: Any, name_of: Callable[[Any], str | None]) -> set[str]:
    """The names `name_of` gives the nodes of a syntax tree (None: the node names none)."""
    return {name for n in nodes(node) if (name := name_of(n)) is not None}


def declared_locals(body: Any) -> set[str]:
    """The names `let` and `for` statements declare in a function's body."""
    return names_in(body, lambda n: n.name if isinstance(n, A.Let)
                    else n.var if isinstance(n, A.For) else None)


def bound_names(expr: Any) -> set[str]:
    """The names comprehensions and lambdas inside the expression bind."""
    return names_in(expr, lambda n: n.var if isinstance(n, A.Comprehension)
                    else n.param if isinstance(n, A.Lambda) else None)


def mentions(expr: Any, name: str) -> bool:
    """Does the expression read the name `name`?"""
    if isinstance(expr, A.Name):
        return expr.id == name
    if isinstance(expr, tuple):
        return any(mentions(item, name) for item in expr)
    if hasattr(expr, "__attrs_attrs__"):
        return any(mentions(getattr(expr, field.name), name)
                   for field in expr.__attrs_attrs__ if field.name != "at")
    return False


def shape(node: Any) -> Any:
    """A syntax tree without its positions: equal for the same text written twice."""
    if isinstance(node, tuple):
        return tuple(shape(item) for item in node)
    if hasattr(node, "__attrs_attrs__"):
        return (type(node).__name__, *(shape(getattr(node, field.name))
                                       for field in node.__attrs_attrs__ if field.name != "at"))
    return node


def is_literal(expr: A.Expr) -> bool:
    return isinstance(expr, (A.Int, A.Str, A.Bool, A.NoneLit))


def is_filter(comp: A.Comprehension) -> bool:
    """`x in xs where cond` (also written `x for x in xs where cond`): its items are the x
    themselves, and `every`/`exists` read its condition as the test."""
    return comp.cond is not None and isinstance(comp.expr, A.Name) and comp.expr.id == comp.var


def every_comprehension(expr: A.Expr) -> A.Comprehension | None:
    """The comprehension of `every(... for x in ...)`, or None for any other check."""
    if isinstance(expr, A.Call) and expr.func == "every" and len(expr.args) == 1 \
            and isinstance(expr.args[0], A.Comprehension):
        return expr.args[0]
    return None


def tested_field(test: A.Expr, var: str) -> str | None:
    """The first field of `var` the test reads (`x.target` -> 'target'): the line to show."""
    return next((n.name for n in nodes(test) if isinstance(n, A.Attr)
                 and isinstance(n.obj, A.Name) and n.obj.id == var), None)


def has_defaults(params: tuple[A.Param, ...]) -> bool:
    return any(param.default is not None for param in params)


def call_arguments(checked: CheckResult, node: A.Call | A.Emit | A.Modify) -> tuple[Any, ...]:
    """A call's arguments in parameter order, keyword ones and defaults included."""
    return checked.bound.get(id(node), node.args)


def resolved_kind(checked: CheckResult, node: Any) -> Any:
    """What the checker resolved `node` to ('local', 'var', 'value', ...), or ''."""
    return checked.res.get(id(node), ("",))[0]


def free_locals(checked: CheckResult, expr: Any) -> set[str]:
    """The rule's locals `expr` reads (not those its comprehensions and lambdas bind)."""
    found: set[str] = set()

    def walk(node: Any, bound: frozenset[str] = frozenset()) -> None:
        if (isinstance(node, A.Name) and node.id not in bound
                and resolved_kind(checked, node) == "local"):
            found.add(node.id)
        if isinstance(node, A.Comprehension):  # its variable is bound inside, not captured
            walk(node.source, bound)
            inner = bound | {node.var}
            walk(node.expr, inner)
            walk(node.cond, inner)
        elif isinstance(node, A.Lambda):
            walk(node.body, bound | {node.param})
        elif hasattr(node, "__attrs_attrs__"):
            for field in node.__attrs_attrs__:
                walk(getattr(node, field.name), bound)
        elif isinstance(node, tuple):
            for item in node:
                walk(item, bound)
    walk(expr)
    return found


def may_suspend(node: Any, checked: CheckResult) -> bool:
    """Does this statement (or anything inside it) possibly wait for a player?"""
    if isinstance(node, (A.Choose, A.Ask, A.Order, A.Open)):
        return True
    if isinstance(node, A.Call):
        res = checked.res.get(id(node), ("",))
        if res[0] == "proc" and f"p_{node.func}" in checked.suspending_fns:
            return True
        if res[0] == "builtin" and res[1] == "run":
            return True  # an effect may suspend; decided per record at run time
    if isinstance(node, A.Emit) and not node.queued and node.event in checked.suspending_events:
        return True
    if isinstance(node, tuple):
        return any(may_suspend(item, checked) for item in node)
    if hasattr(node, "__attrs_attrs__"):
        return any(may_suspend(getattr(node, field.name), checked)
                   for field in node.__attrs_attrs__ if field.name != "at")
    return False
