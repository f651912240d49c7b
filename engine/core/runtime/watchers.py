"""The zones, vars and record fields as rules see them while a decision may be undone
(engine.core.runtime.undo.Undo.watch): reading what the side that may undo cannot see ends
its chance to undo (`barrier`), since that read may let it show (a question asked or not,
an option offered). Each is made per state and side, and reads the state's own data."""
from __future__ import annotations

from typing import Any, Protocol


class Watched(Protocol):
    """What a watcher reads of the runtime (held through a weak proxy: see Undo.watch)."""

    pack: Any
    loc: dict[str, str]
    revealed: dict[str, list[str]]

    def barrier(self) -> None: ...


class SeenZones(dict[str, list[str]]):
    """The zones as seen by rules while a decision may be undone (see Undo.watch):
    reading one `side` cannot see ends its chance to undo. Which zones a side sees never
    changes, so this keeps the zones found seen (the state's own lists), read at C speed
    after the first time; the others come to `__missing__` at every read. Made per state
    (Runtime.attach), and told of a zone that goes (Records.destroy)."""

    __slots__ = ("real", "runtime", "side", "visible")

    def __init__(self, real: dict[str, list[str]], runtime: Watched, side: str):
        super().__init__()
        self.real, self.runtime, self.side = real, runtime, side
        self.visible: frozenset[str] = \
            runtime.pack.visible_zones.get(side, frozenset())  # the zones known at load

    def __missing__(self, key: str) -> list[str]:
        if not frozenset.__contains__(self.visible, key) \
                and not self.runtime.pack.can_see_zone(self.side, key):
            self.runtime.barrier()
            return self.real[key]
        items = self.real[key]
        dict.__setitem__(self, key, items)
        return items

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self.real else default

    def __contains__(self, key: object) -> bool:
        return key in self.real

    def __setitem__(self, key: str, value: list[str]) -> None:
        self.real[key] = value
        dict.pop(self, key, None)  # read (and looked at) again

    def items(self) -> Any:
        return self.real.items()


class WatchedVars:
    """The vars as seen by rules while a decision may be undone: a public var is the
    state's own table, any other a WatchedKeys over it."""

    __slots__ = ("real", "runtime", "side", "public", "keyed")

    def __init__(self, real: dict[str, dict[str, Any]], runtime: Watched, side: str):
        self.real, self.runtime, self.side = real, runtime, side
        self.public = public_vars(runtime.pack)
        self.keyed: dict[str, WatchedKeys] = {}  # made once per var (the tables stay)

    def __getitem__(self, name: str) -> Any:
        inner = self.real[name]
        if name in self.public:
            return inner
        got = self.keyed.get(name)
        if got is None or got.real is not inner:
            got = self.keyed[name] = WatchedKeys(inner, name, self.runtime, self.side)
        return got

    def __setitem__(self, name: str, value: dict[str, Any]) -> None:
        self.real[name] = value

    def __contains__(self, name: object) -> bool:
        return name in self.real

    def items(self) -> Any:
        return self.real.items()


_PUBLIC: dict[int, tuple[Any, frozenset[str]]] = {}


def public_vars(pack: Any) -> frozenset[str]:
    """The names of `pack`'s public vars (anyone may read them), kept per pack."""
    got = _PUBLIC.get(id(pack))
    if got is None or got[0] is not pack:
        got = _PUBLIC[id(pack)] = (pack, frozenset(
            name for name, decl in pack.model.vars.items() if decl.visibility == "public"))
    return got[1]


class WatchedKeys:
    """A var that is not public, as seen by rules while a decision may be undone: reading
    a key `side` cannot see (any key of a hidden var, another side's of a private one: see
    CompiledPack.var_visible) ends its chance to undo."""

    __slots__ = ("real", "runtime", "side", "private")

    def __init__(self, real: dict[str, Any], name: str, runtime: Watched, side: str):
        self.real, self.runtime, self.side = real, runtime, side
        self.private: bool = runtime.pack.model.vars[name].visibility == "private"

    def __getitem__(self, key: str) -> Any:
        if not self.private or key.split("|")[0] != self.side:
            self.runtime.barrier()
        return self.real[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.real[key] = value


class SeenFields(dict[str, dict[str, Any]]):
    """Record fields as seen by rules while a decision may be undone: reading the fields
    of a record `side` cannot see (in a zone hidden from it) ends its chance to undo.

    Rules read fields often (tens of reads per decision in a big pack), and a Python call
    for each was most of the cost of undo there, so this is a dict of the records found
    seen by the side, each with its fields (the state's own dict, not a copy): reading
    those is a dict's, at C speed. The first read of any other record comes to
    `__missing__`, which looks where it lies now, ends undo if it is hidden, and keeps it
    here if it is seen. What a side sees changes only as records move (a move takes back
    what was revealed too) or go: `Zones.move` and `Records.destroy` drop the record from
    each side's dict, which lasts as long as the state (`Runtime.attach` makes new ones), so
    a record is looked at again after each of its moves. Hence a host that arranges a
    position by hand, putting records into zones or replacing their fields' dicts, does
    so before the first `apply` with undo on, or calls `attach` again after."""

    __slots__ = ("real", "runtime", "side", "visible", "loc", "revealed")

    def __init__(self, real: dict[str, dict[str, Any]], runtime: Watched, side: str):
        super().__init__()
        self.real, self.runtime, self.side = real, runtime, side
        self.visible: frozenset[str] = runtime.pack.visible_zones.get(side, frozenset())
        self.loc, self.revealed = runtime.loc, runtime.revealed  # (the state's: made per state)

    def __missing__(self, rid: str) -> dict[str, Any]:
        where = self.loc.get(rid)
        if where is not None and not frozenset.__contains__(self.visible, where) \
                and not self.runtime.pack.can_see_zone(self.side, where) \
                and self.side not in self.revealed.get(rid, ()):
            self.runtime.barrier()
            return self.real[rid]
        fields = self[rid] = self.real[rid]  # seen: read at C speed until it moves
        return fields

    def __contains__(self, rid: object) -> bool:
        return rid in self.real

    def get(self, rid: str, default: Any = None) -> Any:
        return self[rid] if rid in self.real else default
