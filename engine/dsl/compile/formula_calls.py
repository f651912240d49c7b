"""What a value's compiled formula (Python text) calls, provided it uses nothing else of
the runtime than it is allowed: the reading that the value analyses (static values, values
that only read) are made of, so that whatever construct reads the game state, now or later,
is caught by what it compiles to."""
from __future__ import annotations

import ast as pyast
import functools

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
    g_attrs, callees, stray_g, others = _uses(body)
    if stray_g or not g_attrs <= runtime:
        return None
    if any(not (name.startswith(("l_", "K_", "v_", "RF_", "ZK_")) or name in names)
           for name in others):
        return None
    return set(callees)


@functools.lru_cache(maxsize=4096)
def _uses(body: str) -> tuple[frozenset[str], frozenset[str], bool, frozenset[str]]:
    """What `body` uses, once per text (the purity and the static analyses both ask):
    the runtime's attributes it reads (`G.x`), the values it calls (`v_x(...)`), whether
    it uses `G` otherwise (than as `G.x` or a value's first argument), and the other names
    it reads."""
    tree = pyast.parse(body, mode="eval")
    g_attrs: set[str] = set()
    callees: set[str] = set()
    allowed_g: set[int] = set()  # the Name nodes `G` used in an allowed way
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) \
                and node.value.id == "G":
            g_attrs.add(node.attr)
            allowed_g.add(id(node.value))
        elif isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) \
                and node.func.id.startswith("v_"):
            callees.add(node.func.id[2:])
            if node.args and isinstance(node.args[0], pyast.Name) and node.args[0].id == "G":
                allowed_g.add(id(node.args[0]))
    stray_g = False
    others: set[str] = set()
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Name):
            if node.id == "G":
                stray_g = stray_g or id(node) not in allowed_g
            else:
                others.add(node.id)
    return frozenset(g_attrs), frozenset(callees), stray_g, frozenset(others)


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
