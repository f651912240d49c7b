"""What a value's compiled formula (Python text) calls, provided it uses nothing else of
the runtime than it is allowed: the reading that the value analyses (static values, values
that only read) are made of, so that whatever construct reads the game state, now or later,
is caught by what it compiles to."""
from __future__ import annotations

import ast as pyast

# The runtime's methods (of G) a static value's formula may use: those that read only the
# pack (its records, types, tables, graphs, sides) or charge the step budget; and the other
# names besides its parameters (l_*), consts (K_*), the pack's records (R, and the tables of
# their fields and zone keys: RF_*, ZK_*) and the calls of other values (v_*)
STATIC_RUNTIME = frozenset({"tick", "walk", "loop", "count", "lookup", "graphs", "all",
                            "sides", "other", "name_of", "numbers", "cat"})
STATIC_NAMES = frozenset({"R", "None", "True", "False", "sum", "len", "any", "all", "min",
                          "max", "abs", "sorted", "list", "bool", "first", "last", "replaced",
                          "imul"})


def called_values(body: str, runtime: frozenset[str] = STATIC_RUNTIME,
                  names: frozenset[str] = STATIC_NAMES) -> set[str] | None:
    """The values `body` calls, or None if it uses anything of the runtime (G) or any
    name besides its arguments, consts, values and `runtime` / `names` (by default:
    static data only, see engine.dsl.compile.static)."""
    tree = pyast.parse(body, mode="eval")
    callees: set[str] = set()
    allowed_g: set[int] = set()  # the Name nodes `G` used in an allowed way
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) \
                and node.value.id == "G":
            if node.attr not in runtime:
                return None
            allowed_g.add(id(node.value))
        elif isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) \
                and node.func.id.startswith("v_"):
            callees.add(node.func.id[2:])
            if node.args and isinstance(node.args[0], pyast.Name) and node.args[0].id == "G":
                allowed_g.add(id(node.args[0]))
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Name):
            name = node.id
            if name == "G":
                if id(node) not in allowed_g:
                    return None
            elif not (name.startswith(("l_", "K_", "v_", "RF_", "ZK_")) or name in names):
                return None
    return callees


def closed_under_calls(calls: dict[str, set[str]]) -> set[str]:
    """The values of `calls` (value -> the values it calls) that call only values kept:
    the greatest fixed point, so that values calling each other in a cycle are kept
    together when nothing else stops them."""
    kept = set(calls)
    changed = True
    while changed:
        changed = False
        for name in list(kept):
            if not calls[name] <= kept:
                kept.discard(name)
                changed = True
    return kept
