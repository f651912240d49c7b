"""What a side sees of a game's zones, vars and record fields, as its views show them.

`sight` works out once per pack and side what the side sees of the pack's fixed parts.
`Parts` keeps a side's parts between its views: a view at every decision (a front-end, a
PettingZoo agent) copied every zone and record it shows, most of them unchanged since the
last. Every change of a zone, var or field in play writes a line of the log (a move, a
shuffle, a set, a setf, a creation, a destruction, each naming what it changed), so the
next view makes again only the parts the lines written since name, and those of the
records whose reveal to the side changed (a reveal may leave no line: a card shown to a
decider with its options), and shares the others with the last view. A view's zones,
vars and fields are therefore shared with the side's other views: read-only for callers.
"""
from __future__ import annotations

from typing import Any

import attrs

from engine.core.saves import key_order, made_in_turn

_SKIP = object()  # a part the side is not shown at all (not even counted)
# the lines but `set` that change a zone or a record (Parts._update)
_CHANGING = frozenset(("move", "setf", "shuffle", "create", "destroy"))


@attrs.frozen
class Sight:
    """What one side sees of a pack's fixed parts, worked out once per pack and side: a
    view asks it of every zone, var and record field."""

    zones: frozenset[str]  # the zone keys of the pack's (none of a record made in play) it sees
    static: frozenset[str]  # every zone key of the pack's: the others are judged when asked
    vars: dict[str, str]  # var -> its visibility (public, private or hidden)
    own_keys: dict[str, list[str]]  # private var -> the keys of the side's own, in order
    public: frozenset[str]  # the public vars


# (pack id, side) -> (pack, its Sight for the side)
_SIGHTS: dict[tuple[int, str | None], tuple[Any, Sight]] = {}


def sight(pack: Any, side: str | None) -> Sight:
    got = _SIGHTS.get((id(pack), side))
    if got is None or got[0] is not pack:
        static = frozenset(pack.zone_keys)
        kinds = {name: var.visibility for name, var in pack.model.vars.items()}
        own = {name: [key for key, _args in pack.var_keys.get(name, ())
                      if side is not None and key.split("|")[0] == side]
               for name, kind in kinds.items() if kind == "private"}
        seen = Sight(frozenset(k for k in static if pack.can_see_zone(side, k)), static,
                     kinds, own, frozenset(n for n, kind in kinds.items() if kind == "public"))
        got = _SIGHTS[(id(pack), side)] = (pack, seen)
    return got[1]


def sees(game: Any, side: str | None, ent: Any, zone: str | None) -> bool:
    """Does `side` see `ent` lying in `zone` now?"""
    if zone is None or not isinstance(ent, str):
        return True
    if game.pack.can_see_zone(side, zone):
        return True
    return side is not None and side in game.rt.revealed.get(ent, ())


def key_visible(game: Any, side: str | None, key: str) -> bool:
    """Does `side` see every record made in play that a zone or var key names? (Such a
    key names a record by its id; one in a zone hidden from the side stays unnamed.)"""
    if "#" not in key:
        return True
    loc = game.rt.loc
    return all(sees(game, side, part, loc.get(part)) for part in key.split("|")
               if "#" in part)


def revealed_to(rt: Any, side: str | None) -> set[str]:
    """The records revealed to `side` now (a spectator is shown none)."""
    return {e for e, sides in rt.revealed.items() if side in sides} \
        if side is not None and rt.revealed else set()


def tables(game: Any) -> tuple[Any, Any, Any]:
    """The state's zones, vars and fields in play, each as (key, value) pairs, in the order
    the game made them: the state's own, but for a pack that may make records of two
    created types in turn, whose state loaded from a save cannot have it
    (engine.core.saves.key_order): those are read in `key_order`, whatever the state's order."""
    s = game.rt.s
    if not made_in_turn(game.pack):
        return s["z"].items(), s["v"].items(), (s.get("f") or {}).items()
    order = key_order(game.pack, s["made"])
    z, v, f = s["z"], s["v"], s["f"]
    return ([(key, z[key]) for key in order.zones],
            [(name, {key: v[name][key] for key in keys}) for name, keys in order.vars.items()],
            [(rid, f[rid]) for rid in order.fields])


@attrs.frozen
class Host:
    """What a view reads of a game, its pack and runtime (`sees` and `key_visible` take
    it as a game): held by the parts of its views a game keeps (engine.core.views.Kept) in
    place of the game, which holds them. A reference back to the game would make a cycle,
    and every game a view was made of would then wait for the garbage collector (a tenth of
    the views' time in short games)."""

    pack: Any
    rt: Any


class _Seen:
    """How one view shows each zone, var and record to a side (the rules of
    engine.core.views' module docstring), the records revealed to it worked out."""

    def __init__(self, game: Any, side: str | None, known: set[str]):
        self.game, self.side, self.known = Host(game.pack, game.rt), side, known
        self.sight = sight(game.pack, side)
        self.created = game.pack.created

    def hidden_zone(self, key: str, items: list[str]) -> Any:
        """A zone none of the pack's the side sees: a zone of a record made in play it
        may see, else how many it holds and which of them were shown to the side (_SKIP:
        the zone of a record made in play the side cannot see)."""
        game, side = self.game, self.side
        if key not in self.sight.static:  # a zone of a record made in play
            if self.created and not key_visible(game, side, key.partition("|")[2]):
                return _SKIP  # of one the side cannot see
            if game.pack.can_see_zone(side, key):
                return items.copy()
        known = self.known
        return {"count": len(items), "revealed": [
            e for e in items if e in known] if known and not known.isdisjoint(items) else []}

    def zone(self, key: str, items: list[str]) -> Any:
        return items.copy() if key in self.sight.zones else self.hidden_zone(key, items)

    def var(self, name: str, table: dict[str, Any]) -> Any:
        """What the side is shown of var `name` (_SKIP: nothing)."""
        side, created, sight_ = self.side, self.created, self.sight
        vis = sight_.vars[name]
        if vis == "public":
            if "" in table:  # a var of no index: its one value
                return table[""]
            shown = table.copy()
        elif vis == "hidden" or side is None:
            return _SKIP
        elif not created:  # private: the keys of the side's own, known at load
            shown = {k: table[k] for k in sight_.own_keys[name] if k in table}
        else:  # (PackData.var_visible)
            shown = {k: v for k, v in table.items() if k.split("|")[0] == side}
        if created:
            shown = {k: v for k, v in shown.items() if "#" not in k
                     or key_visible(self.game, side, k)}
        if not shown:
            return _SKIP
        return shown[""] if len(shown) == 1 and "" in shown else shown

    def record_seen(self, rid: str) -> bool:
        """Does the side see record `rid`'s fields (as `sees`, the side's zones worked out
        once)?"""
        zone = self.game.rt.loc.get(rid)
        return zone is None or zone in self.sight.zones or rid in self.known or (
            zone not in self.sight.static and self.game.pack.can_see_zone(self.side, zone))


def made_parts(game: Any, seen: _Seen) -> tuple[dict[str, Any], dict[str, Any],
                                                  dict[str, Any] | None]:
    """The side's zones, vars and fields (None: the pack has no fields in play), made
    from the whole state."""
    zone_items, var_items, field_items = tables(game)
    visible, hidden = seen.sight.zones, seen.hidden_zone
    zones: dict[str, Any] = {}
    for key, items in zone_items:
        if key in visible:  # (most zones: one of the pack's the side sees)
            zones[key] = items.copy()
        else:
            shown = hidden(key, items)
            if shown is not _SKIP:
                zones[key] = shown
    variables = _vars(seen, var_items)
    fields = None
    if game.rt.s.get("f") is not None:  # record fields in play, of the records the side sees
        record_seen = seen.record_seen
        fields = {rid: rec.copy() for rid, rec in field_items if record_seen(rid)}
    return zones, variables, fields


def _vars(seen: _Seen, var_items: Any) -> dict[str, Any]:
    out = {}
    for name, table in var_items:
        shown = seen.var(name, table)
        if shown is not _SKIP:
            out[name] = shown
    return out


def kept_lines(log: list[Any], read: list[Any]) -> int:
    """How many of the lines `read` the log still holds: undo and a failed action cut it
    back in place and write other entries after, so the lines kept are a prefix, the very
    entries read."""
    lo, hi = 0, min(len(log), len(read))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if log[mid - 1] is read[mid - 1]:
            lo = mid
        else:
            hi = mid - 1
    return lo


class Parts:
    """One side's zones, vars and fields as its last view showed them, kept by the game
    between views and brought up to date from the log lines written since (see the
    module's docstring). They are made again from the whole state when the log tells
    nothing (a game without a log), when the log is not the one read (a load, or undo and a
    failed action, which restore another state and cut the log back), and in a pack whose
    zone or var keys name records made in play (a move changes what such keys show)."""

    def __init__(self, side: str | None):
        self.side = side
        self.state: Any = None  # the state the parts were made of (None: none made yet)
        self.log: Any = None
        self.lines_read = 0
        self.last: Any = None  # the last line read (the very entry)
        self.read: list[Any] = []  # the lines read (the very entries)
        self.known: set[str] = set()  # the records revealed to the side then
        self.zones: dict[str, Any] = {}
        self.vars: dict[str, Any] = {}
        self.fields: dict[str, Any] | None = None
        self.seen: _Seen | None = None  # how the last view showed the parts (its game's)

    def get(self, game: Any, known: set[str]) -> tuple[dict[str, Any], dict[str, Any],
                                                       dict[str, Any] | None]:
        """The side's zones, vars and fields now (`known`: the records revealed to it now),
        each a new dict whose values may be shared with other views."""
        rt, pack = game.rt, game.pack
        s, log = rt.s, rt.s["log"]
        n = self.lines_read
        seen = self.seen
        if seen is None or seen.game.rt is not rt:
            seen = self.seen = _Seen(game, self.side, known)
        else:
            seen.known = known
        read = self.read
        stale = s is not self.state or log is not self.log or n > len(log) \
            or (n and log[n - 1] is not self.last)
        if stale and log is self.log:
            # undo, a failed action: the log cut back in place (then maybe written on), the
            # state another; what differs is named by the lines cut or the lines since
            kept = kept_lines(log, read)
            self._update(game, seen, read[kept:] + log[kept:])
            del read[kept:]
            read.extend(log[kept:])
            self.state = s
        elif stale:
            self.zones, self.vars, self.fields = made_parts(game, seen)
            # kept for the next view only where the log names every change
            keep = rt.logging and not pack.keyed and not made_in_turn(pack)
            self.state, self.log = (s, log) if keep else (None, None)
            self.read = list(log) if keep else []
        elif n < len(log) or known != self.known:
            new = log[n:]
            self._update(game, seen, new)
            read.extend(new)
        self.lines_read, self.last, self.known = len(log), log[-1] if log else None, known
        fields = self.fields
        return dict(self.zones), dict(self.vars), None if fields is None else dict(fields)

    def _update(self, game: Any, seen: _Seen, new: list[dict[str, Any]]) -> None:
        """Make again the parts the lines `new` name and those of the records whose
        reveal to the side changed."""
        zones: set[str] = set()
        names: set[str] = set()
        own: dict[str, list[str]] = {}  # a private var -> the keys of the side's own set
        revealed = seen.known ^ self.known  # shown to the side since, or hidden again
        records = set(revealed)
        side, public, kinds = self.side, seen.sight.public, seen.sight.vars
        for e in new:
            t = e["t"]
            if t == "set":  # (the commonest)
                # a hidden var, or another side's own value of a private one: never shown
                # to this side, so its view of the var is as it was
                name = e["n"]
                if name in public:
                    names.add(name)
                elif kinds[name] == "private" and e["k"].partition("|")[0] == side:
                    own.setdefault(name, []).append(e["k"])
            elif t not in _CHANGING:  # (one test for the many other lines)
                continue
            elif t == "move":
                records.add(e["e"])
                zones.add(e["to"])
                if e["from"] is not None:
                    zones.add(e["from"])
            elif t == "setf":
                records.add(e["e"])
            elif t == "shuffle":
                zones.add(e["z"])
            elif t == "create" or t == "destroy":
                records.add(e["e"])
                at = e["to"] if t == "create" else e["from"]
                if at is not None:
                    zones.add(at)
        s, loc = game.rt.s, game.rt.loc
        for ent in revealed:  # (the zone of such a record shows it, or no longer)
            at = loc.get(ent)
            if at is not None:
                zones.add(at)
        z = s["z"]
        kept = self.zones
        for key in zones:
            kept[key] = seen.zone(key, z[key])
        if own:
            names.update(self._own_again(seen, s["v"], own))
        if names:
            self._vars_again(seen, s["v"], names)
        if records and self.fields is not None:
            self._fields_again(seen, s["f"], records)

    def _own_again(self, seen: _Seen, state_vars: dict[str, Any],
                   own: dict[str, list[str]]) -> list[str]:
        """Bring the side's private vars up to date where only values of keys it was shown
        changed (a copy of the var as shown, those keys set: a private var may have a key
        for each card); the names of those to make again (`_vars_again`)."""
        kept, again, created = self.vars, [], seen.created
        for name, keys in own.items():
            shown, table = kept.get(name), state_vars[name]
            if type(shown) is dict and not created:
                shown = shown.copy()  # (a view made before holds the one it was shown)
                for k in keys:
                    if k not in shown or k not in table:  # a key new to the side: in order
                        break
                    shown[k] = table[k]
                else:
                    kept[name] = shown
                    continue
            again.append(name)
        return again

    def _vars_again(self, seen: _Seen, state_vars: dict[str, Any], names: set[str]) -> None:
        kept, public = self.vars, seen.sight.public
        for name in names:
            table = state_vars[name]
            if "" in table and name in public:  # (most: a public var of no index, always shown)
                kept[name] = table[""]
                continue
            shown = seen.var(name, table)
            if shown is _SKIP:
                kept.pop(name, None)
            elif name in kept:
                kept[name] = shown
            else:  # shown now, not before: in the state's order
                self.vars = _vars(seen, state_vars.items())
                return

    def _fields_again(self, seen: _Seen, state_fields: dict[str, Any],
                      records: set[str]) -> None:
        kept = self.fields
        assert kept is not None
        record_seen = seen.record_seen
        inserted = False
        for rid in records:
            rec = state_fields.get(rid)
            if rec is None or not record_seen(rid):  # (gone, no fields, or hidden now)
                kept.pop(rid, None)
            elif rid in kept:
                kept[rid] = rec.copy()
            else:
                inserted = True
        if inserted:  # shown now, not before: in the state's order, the others kept
            self.fields = {rid: kept[rid] if rid in kept else rec.copy()
                           for rid, rec in state_fields.items()
                           if rid in kept or rid in records and record_seen(rid)}
