"""Optimisation pass: values kept while the game state is unchanged. The runtime empties
G.memo at every change of the state and keeps it only while rules run (engine.core.runtime
Runtime.memo); a hit charges the steps the working out took, so the game's step count does
not depend on what was kept (engine.dsl.compile.module writes the look-up)."""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl.compile.syntax import shape
from engine.dsl.model import PackModel

# What makes a value worth keeping: walking all the records of a type, searching a graph
COSTLY = ("G.all(", "G.graphs[", "G.pieces(")


def run_memo_values(bodies: dict[str, str], pure: set[str], static: set[str],
                    wanted: set[str]) -> set[str]:
    """The values worth keeping while the game state is unchanged. Such a value only reads
    (engine.dsl.compile.purity); it walks all the records of a type
    or searches a graph itself (a shorter walk costs less than the keeping); and it has no
    parameters or some rule reads it twice with the same arguments (`repeated_calls`): the
    values read again before anything changes (`wanted`). While rules run, the state changes only
    through the runtime's methods, which empty the kept results (engine.core.runtime
    Runtime.memo). Static values have their own cache."""
    return {name for name in (pure & wanted) - static
            if any(costly in bodies[name] for costly in COSTLY)}


def repeated_calls(model: PackModel) -> set[str]:
    """The values some rule (a value's formula, a procedure, trigger, effect or window)
    calls twice with the same argument expressions."""
    def walk(node: Any, seen: dict[Any, int]) -> None:
        if isinstance(node, A.Call) and node.func in model.values:
            key = (node.func, shape(node.args), shape(node.kwargs))
            seen[key] = seen.get(key, 0) + 1
        if isinstance(node, tuple):
            for item in node:
                walk(item, seen)
        elif hasattr(node, "__attrs_attrs__"):
            for field in node.__attrs_attrs__:
                walk(getattr(node, field.name), seen)

    rules: list[Any] = [v.expr for v in model.values.values()]
    rules += [p.body for p in model.procs.values()]
    rules += [(tr.decl.body, tr.decl.cond) for tr in model.triggers]
    rules += [eff.body for eff in model.effects] + [w.body for w in model.windows.values()]
    found: set[str] = set()
    for rule in rules:
        seen: dict[Any, int] = {}
        walk(rule, seen)
        found |= {key[0] for key, count in seen.items() if count > 1}
    return found
