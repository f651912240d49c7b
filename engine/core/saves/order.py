"""The order of a state's tables. A save is canonical JSON, whose objects have their keys
sorted. A game keeps its tables in the order it made them, and what it shows reads them in
that order (a view's zones and vars, `Game.position`'s bytes): a state read from a save gets
that order back (`in_game_order`), the keys a game of the pack makes listed by `key_order`
(which the checks against the pack compare a save's tables with)."""
from __future__ import annotations

import collections
import itertools
from typing import Any

import attrs

from engine.core.keys import keys_naming

# the state's keys, its decision's and a one-at-a-time pick's, as engine.core.runtime makes them
_STATE_KEYS = ("v", "z", "loc", "mods", "revealed", "stack", "decision", "log", "result", "rng",
               "steps", "decisions", "asked", "f", "made", "serial", "chance")
_DECISION_KEYS = ("id", "kind", "side", "options", "min", "max", "optional", "prompt",
                  "require", "fn", "args", "each", "idle", "always", "window")
_PICK_KEYS = dict.fromkeys(("picked", "min", "max"))
_RESULT_KEYS = dict.fromkeys(("winner", "reason"))


@attrs.frozen
class KeyOrder:
    """The keys of a state's tables in the order a game makes them, each table's as a dict
    of its keys (to None: a copy updated with a table is the table in this order)."""
    zones: dict[str, None]
    vars: dict[str, dict[str, None]]  # var -> its keys
    fields: dict[str, dict[str, None]]  # record with fields in play -> its fields


@attrs.frozen
class _PackOrder:
    keys: KeyOrder  # the pack's own keys
    fields: dict[str, dict[str, None]]  # created type -> its fields


_PACK_ORDER: dict[int, tuple[Any, _PackOrder]] = {}


def _pack_order(pack: Any) -> _PackOrder:
    """The pack's own keys in the order a new game makes them (engine.core.runtime's setup: the
    zones and vars in declaration order, then the records with var fields), and each type's
    fields in play in declaration order (its `init_T`'s). Worked out once per pack."""
    got = _PACK_ORDER.get(id(pack))
    if got is None or got[0] is not pack:
        types = pack.model.types
        fields = {t: dict.fromkeys(n for n, f in info.fields.items()
                                   if f.var or t in pack.created)
                  for t, info in types.items()}
        keys = KeyOrder(dict.fromkeys(pack.zone_keys),
                        {name: dict.fromkeys(key for key, _args in combos)
                         for name, combos in pack.var_keys.items()},
                        {rid: fields[t] for t in pack.var_field_types
                         for rid in pack.by_type[t]})
        got = _PACK_ORDER[id(pack)] = (pack, _PackOrder(keys, fields))
    return got[1]


def key_order(pack: Any, made: dict[str, list[str]] | None) -> KeyOrder:
    """The keys of a state of `pack` whose live records made in play are `made` (created
    type -> ids, oldest first), in the order a game makes them: the pack's own first, then
    those of each record made in play, as it was made (engine.core.runtime's `create`). A state
    does not say in which order records of two created types were made: those are taken
    type by type (Game.position and views read such a pack's tables in this order, not in
    the game's; see `made_in_turn`). Not to be changed: it may be the pack's own."""
    own = _pack_order(pack)
    static = own.keys
    if not made or not any(made.values()):
        return static
    made_now = tuple(map(tuple, made.values()))
    last = _LAST_ORDER.get("last")
    if last is not None and last[0] is pack and last[1] == made_now:
        return last[2]  # (the checks of a save and its load ask for the same)
    fields = static.fields.copy()
    if not any(t in pack.keyed for t in made):  # keys of the pack's own only
        for tname, ids in made.items():
            fields.update(zip(ids, itertools.repeat(own.fields[tname])))
        order = KeyOrder(static.zones, static.vars, fields)
    else:
        order = _made_keys(pack, made, fields)
    _LAST_ORDER["last"] = (pack, made_now, order)
    return order


_LAST_ORDER: dict[str, tuple[Any, tuple[tuple[str, ...], ...], KeyOrder]] = {}


def _made_keys(pack: Any, made: dict[str, list[str]], fields: dict[str, Any]) -> KeyOrder:
    """`key_order` of a pack whose zones or vars are indexed by records made in play: the
    keys of each record made, as engine.core.runtime's `create` adds them."""
    own = _pack_order(pack)
    zones = own.keys.zones.copy()
    var_keys = {name: keys.copy() for name, keys in own.keys.vars.items()}
    so_far: dict[str, list[str]] = {t: [] for t in made}
    sides = list(pack.sides)

    def domain(t: str) -> list[str]:  # engine.core.runtime's, when the record was made
        return sides if t == "side" else so_far[t] if t in so_far else pack.by_type.get(t, [])
    for tname, ids in made.items():
        entries, names = pack.keyed.get(tname, ()), own.fields[tname]
        for rid in ids:
            so_far[tname].append(rid)
            for kind, name, types in entries:
                for combo in keys_naming(types, tname, rid, domain):
                    if kind == "z":
                        zones["|".join((name, *combo))] = None
                    else:
                        var_keys[name]["|".join(combo)] = None
            fields[rid] = names
    return KeyOrder(zones, var_keys, fields)


def made_in_turn(pack: Any) -> bool:
    """May a game of `pack` make records of two created types in turn? Then the order of
    its tables is not in its state, and what reads them in order reads them in `key_order`."""
    return len(pack.created) > 1


def _ordered(table: dict[str, Any], keys: dict[str, None]) -> dict[str, Any]:
    """`table` (holding `keys`, no other) in the order of `keys`, made at C speed."""
    out = keys.copy()
    out.update(table)
    return out


def in_game_order(pack: Any, state: dict[str, Any]) -> dict[str, Any]:
    """`state`, read from a save and checked against `pack` (its tables hold the keys
    `key_order` lists), with its tables in the order the game that was saved had them
    (`key_order`): so a view shows its zones and vars in the same order, and
    `Game.position` gives the same bytes. The frames' locals, `loc` and `revealed` keep the
    save's order: nothing reads them in order."""
    order = key_order(pack, state.get("made"))
    out = {key: state[key] for key in _STATE_KEYS if key in state}
    if len(out) < len(state):  # (none in a game today) kept, after those
        out.update((key, value) for key, value in state.items() if key not in out)
    out["z"] = _ordered(state["z"], order.zones)
    v = state["v"]
    out["v"] = {name: _ordered(v[name], keys) for name, keys in order.vars.items()}
    f = state.get("f")
    if f is not None:  # (each record's fields put in order at C speed: most of the work)
        records = list(map(dict.copy, order.fields.values()))
        collections.deque(map(dict.update, records, map(f.__getitem__, order.fields)), 0)
        out["f"] = dict(zip(order.fields, records))
    d = state["decision"]
    if d is not None:
        d = out["decision"] = {key: d[key] for key in _DECISION_KEYS if key in d}
        if d.get("each") is not None:
            d["each"] = _ordered(d["each"], _PICK_KEYS)
    if state["result"] is not None:
        out["result"] = _ordered(state["result"], _RESULT_KEYS)
    return out
