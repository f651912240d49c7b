"""Optimisation pass: static values. A value whose result depends only on its arguments and
the pack's static data is worked out once per arguments and kept in the pack's module
(M_<value>: arguments -> (result, steps)), never in the game state (engine.dsl.compile
.module writes the cache; the runtime's G.kept charges a hit the steps it took)."""
from __future__ import annotations

from engine.dsl.compile.formula_calls import called_values, closed_under_calls


def static_values(bodies: dict[str, str], modified: set[str]) -> set[str]:
    """The values whose result depends only on their arguments and the pack's static data:
    records' fields that are not `var`, consts, tables, the graphs, the sides. The analysis
    reads the compiled formula (Python): a value is static when its code touches no var
    (V), zone (Z), record field in play (GF, G.field, G.attribute), event state (G.evget),
    modifier, die or random pick, nor any runtime method outside `STATIC_RUNTIME`, calls only
    static values, and no `modify` changes it. Anything unknown makes a value not static.
    Values that call each other in a cycle are static together when nothing else stops them
    (the greatest fixed point)."""
    calls: dict[str, set[str]] = {}
    for name, body in bodies.items():
        if name in modified:
            continue
        callees = called_values(body)
        if callees is not None:
            calls[name] = callees
    return closed_under_calls(calls)
