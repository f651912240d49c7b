"""Optimisation pass: what a walk reads again for every item is read once per walk. A call
of a value that only reads, whose arguments read nothing the walk binds, is read when the
walk first needs it and kept for the rest of the walk; the table of a var the walk reads
is read into a temporary before its loop. Nothing changes the state while an expression is
read, so the reads give the same values. engine.dsl.compile.loops calls these around the
loop it writes, and forgets what they return after it."""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl.compile.syntax import bound_names, mentions, nodes, resolved_kind, shape
from engine.dsl.compile.unit import CompileUnit


def hoist_value_calls(unit: CompileUnit, comp: A.Comprehension, lines: list[str],
                      pad: str) -> list[int]:
    """Calls of values that only read, in the comprehension's condition or item, whose
    arguments read nothing the walk binds: each is read when the walk first needs it and
    kept for the rest of the walk (nothing changes while an expression is read), in a
    temporary set to `...` before the loop (see ExpressionCompiler.call). Not inside a
    lambda: that is a function of its own. Returns the nodes, for the caller to forget after
    the walk."""
    bound = {comp.var} | bound_names((comp.cond, comp.expr))
    found: list[A.Call] = []

    def walk(node: Any) -> None:
        if isinstance(node, A.Lambda):
            return
        if isinstance(node, A.Call) and node.func in unit.pure_values \
                and resolved_kind(unit.checked, node) == "value" \
                and id(node) not in unit.hoisted \
                and not any(mentions(arg, name) for arg in unit.args_of(node) for name in bound):
            found.append(node)
            return  # its arguments are read with it
        if isinstance(node, tuple):
            for item in node:
                walk(item)
        elif hasattr(node, "__attrs_attrs__"):
            for field in node.__attrs_attrs__:
                walk(getattr(node, field.name))
    walk((comp.cond, comp.expr))
    same: dict[Any, str] = {}  # the same call written twice shares its temporary
    for call in found:
        key = (call.func, shape(unit.args_of(call)))
        if key not in same:
            same[key] = unit.temp()
            lines.append(f"{pad}{same[key]} = ...")
        unit.hoisted[id(call)] = same[key]
    return [id(call) for call in found]


def hoist_var_tables(unit: CompileUnit, node: Any, lines: list[str], pad: str) -> list[str]:
    """The vars a walk's condition or item (`node`) reads outside a lambda, each table
    read into a temporary before the loop: nothing sets a var while an expression is
    read, and reading a table reads none of its values (the undo watchers see the value
    read). Returns the vars, for the caller to forget after the walk."""
    found: list[str] = []
    for part in nodes(node, prune=A.Lambda):
        if isinstance(part, (A.Name, A.Index)):
            res = unit.checked.res.get(id(part))
            if res is not None and res[0] == "var" and res[1] not in unit.var_tables \
                    and res[1] not in found:
                found.append(res[1])
    for name in found:
        temporary = unit.temp()
        lines.append(f"{pad}{temporary} = {unit.var_table(name)}")
        unit.var_tables[name] = temporary
    return found


def forget(unit: CompileUnit, calls: list[int], tables: list[str]) -> None:
    """After the walk: its kept calls and var tables are no longer in scope."""
    for node in calls:
        del unit.hoisted[node]
    for name in tables:
        del unit.var_tables[name]
