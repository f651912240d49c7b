"""Copies of a game's state: for a clone, an undo checkpoint and a determinized world.

The state is plain data (engine.core.runtime), copied for every clone, undo run and
determinized world: a bot's look-ahead copies it thousands of times a game, and pickling
the whole state was most of the greedy bot's time. Most of it has a known shape: zones
hold record ids, locations name zones, vars and var fields hold plain values (a list only
when declared so), so most of the copy is a dict or list copy at C speed; the frames (and
the log, when it is copied) go through marshal. Aliases inside the state are not kept: the
state never relies on them (a save written as JSON and loaded has none either)."""
from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.core.packdata import PackData

_ATOMS = frozenset((str, int, float, bool, type(None)))


def _deep(x: Any) -> Any:
    """A copy of plain data: every list, dict and tuple in it new."""
    t = type(x)
    if t is dict:
        return {k: v if type(v) in _ATOMS else _deep(v) for k, v in x.items()}
    if t is list:
        return [v if type(v) in _ATOMS else _deep(v) for v in x]
    if t is tuple:
        return tuple(v if type(v) in _ATOMS else _deep(v) for v in x)
    return x


_SHAPES: dict[int, tuple[PackData, frozenset[str], frozenset[str]]] = {}


def _shape(pack: PackData) -> tuple[frozenset[str], frozenset[str]]:
    """The vars and the fields in play of `pack` whose values may be lists (declared a list
    or `any`): only those need more than a copy of their table. Kept per pack."""
    got = _SHAPES.get(id(pack))
    if got is None or got[0] is not pack:
        from engine.dsl import ast as A
        model = pack.model
        listy = frozenset(name for name, decl in model.vars.items()
                          if isinstance(decl.type, A.TList) or decl.type.name == "any")
        # in the state: var fields, and every field of a record made in play
        fields = frozenset(f.name for t in model.types.values() for f in t.fields.values()
                           if (f.var or t.created)
                           and (isinstance(f.type, tuple) or f.type == "any"))
        got = _SHAPES[id(pack)] = (pack, listy, fields)
    return got[1], got[2]


def copy_state(state: dict[str, Any], pack: PackData, *, log: bool = True) -> dict[str, Any]:
    """A deep copy of a state of a game of `pack` (without its "log" when `log` is
    False)."""
    listy, list_fields = _shape(pack)
    out: dict[str, Any] = {}
    for key, value in state.items():
        if key == "z" or key == "revealed" or key == "made":  # key -> list of ids or sides
            out[key] = {k: v[:] for k, v in value.items()}
        elif key == "loc" or key == "serial":  # id -> zone key, type -> count
            out[key] = value.copy()
        elif key == "v":
            v = out[key] = {k: table.copy() for k, table in value.items()}
            for name in listy:
                if name in v:
                    v[name] = _deep(v[name])
        elif key == "f":
            f = out[key] = {k: rec.copy() for k, rec in value.items()}
            if list_fields:
                for rec in f.values():
                    for name in list_fields.intersection(rec):
                        rec[name] = _deep(rec[name])
        elif type(value) in _ATOMS:
            out[key] = value
        elif key == "stack" or key == "log":  # deep and long: at C speed
            if log or key != "log":
                out[key] = marshal.loads(marshal.dumps(value))
        else:
            out[key] = _deep(value)
    return out


def snapshot(state: dict[str, Any], pack: PackData) -> bytes | dict[str, Any]:
    """A state without its log, kept for an undo checkpoint: marshalled, which is one
    object made at C speed and leaves the cyclic garbage collector nothing to walk (the
    deep copy's containers made it walk the log: a checkpoint cost more than the copy),
    or, for a state marshal cannot write, a copy (`thaw` reads either)."""
    try:
        return marshal.dumps({k: v for k, v in state.items() if k != "log"})
    except ValueError:
        return copy_state(state, pack, log=False)


def thaw(kept: bytes | dict[str, Any], pack: PackData) -> dict[str, Any]:
    """A new state from a `snapshot` (which stays as it is, for another undo)."""
    return marshal.loads(kept) if isinstance(kept, bytes) else copy_state(kept, pack)

