"""The values that only read the game state (no die, random pick or effect): the analysis
that the hoisting of value calls, the values kept while the state is unchanged and the
inlining of values rely on."""
from __future__ import annotations

from engine.dsl.compile.formula_calls import (
    STATIC_NAMES,
    STATIC_RUNTIME,
    called_values,
    closed_under_calls,
)

# What a value that only reads may use besides what a static value may: reads of the game
# state (vars, zones, fields in play, event state, modifiers, where records lie, what is
# revealed), none of which changes while an expression is read.
READ_RUNTIME = STATIC_RUNTIME | {"v", "z", "f", "field", "attribute", "evget", "pieces", "loc",
                                 "revealed", "mods", "modint", "modto", "having"}
READ_NAMES = STATIC_NAMES | {"V", "Z", "PV", "PZ", "GF"}


def pure_values(bodies: dict[str, str]) -> set[str]:
    """The values that only read: their formula, compiled, touches the state only through
    reads (no die, random pick or effect, see `READ_RUNTIME`) and calls only such values."""
    calls: dict[str, set[str]] = {}
    for name, body in bodies.items():
        callees = called_values(body, READ_RUNTIME, READ_NAMES)
        if callees is not None:
            calls[name] = callees
    return closed_under_calls(calls)
