"""Per-player views: the state and log with everything that player may not see removed.

A card is shown to a side when it lies in a zone that side may see, or has been revealed
to it. Choices are shown to the side that made them only; a move out of and into zones a
side cannot see shows that side no card. Rule traces (which trigger ran) are not shown to
players at all.

A log line shows a card as the side saw it when the line was written, as a player at the
table remembers it: a card revealed to the side then (face up on the table) stays named in
that line after it moves back into a hidden zone; a card revealed only later, after it
moved, is not named in the older lines. A card revealed to the side now names it in the
lines written since its last move (a reveal that left no log entry, such as a card shown
to a decider with its options, counts from then on only).

Records made in play (`type T created`) and var fields follow the same rule: a side sees a
record's fields, and the zone and var keys that name it, when it sees the record (in a zone
it may see, revealed to it, or in no zone).
"""
from __future__ import annotations

import marshal
from typing import TYPE_CHECKING, Any

import attrs
import cattrs

from engine.core.saves import FORMAT_VERSION
from engine.core.sight import (
    Host,
    Parts,
    kept_lines,
    key_visible,
    revealed_to,
    sees,
    sight,
    tables,
)

if TYPE_CHECKING:
    from engine.core.decisions import Decision, Result

# cattrs converts between the engine's attrs classes (`Game.decision`, `Game.result`) and
# the JSON shapes of engine.core.api, both ways (api.decision_of reads one back).
json_converter = cattrs.Converter()


def decision_data(decision: Decision) -> dict[str, Any]:
    """`Game.decision` (an attrs class) as the JSON `Decision` a view carries: what
    `json_converter.unstructure` gives, written out (a view carries one at every decision,
    and the converter's walk of each option was most of a view of a choice among many)."""
    return _decision_json(attrs.asdict(decision, recurse=False))


def _decision_json(d: dict[str, Any]) -> dict[str, Any]:
    """The JSON `Decision` of the state's decision `d` (or of a `Decision`'s fields),
    made from it directly: no Decision made for a view."""
    args, each = d.get("args"), d.get("each")  # (most decisions have neither)
    return {"side": d["side"], "kind": d["kind"], "options": _data(d["options"]),
            "min": d["min"], "max": d["max"], "optional": d["optional"], "prompt": d["prompt"],
            "id": d["id"], "window": d.get("window"),
            "args": None if args is None else _data(args),
            "each": None if each is None else _data(each),
            "idle": _data(d["idle"]) if "idle" in d else []}


def _data(x: Any) -> Any:
    """A fresh copy of plain data `x` (lists and dicts copied all the way down)."""
    t = type(x)
    if t is list:
        return [v if type(v) in _ATOMS else _data(v) for v in x]
    if t is dict:
        return {k: v if type(v) in _ATOMS else _data(v) for k, v in x.items()}
    return x


_ATOMS = frozenset((str, int, bool, float, type(None)))


def result_data(result: Result | None) -> dict[str, Any] | None:
    """`Game.result` (an attrs class, or None) as the JSON `Result` a view carries."""
    if result is None:
        return None
    data: dict[str, Any] = json_converter.unstructure(result)
    return data


class _Then:
    """What a side saw of the cards when each log line was written (see the module's
    docstring): the log's reveals, each in force until its card next moves, replayed line by
    line (`step`), and the reveals in force now for the lines since a card's last move.

    While a line is read, `now` collects the records whose answers read the game as it is
    now (the reveals in force now, where records made in play lie), and `hits` those the
    replayed reveals showed: ShownLog reads such a line again when the game changes."""

    STEPS = frozenset(("reveal", "move", "destroy"))  # the lines `step` reads

    def __init__(self, game: Any, side: str | None):
        self.game, self.side = Host(game.pack, game.rt), side  # (no cycle: see Host)
        seen = sight(game.pack, side)
        self.seen, self.static, self.var_kinds = seen.zones, seen.static, seen.vars
        self.public = seen.public
        self.at = -1  # the index of the line being read
        self.revealed: set[str] = set()  # cards revealed to the side (replayed so far)
        # each card's last move (or destroy) line in the whole log, read ahead of `at`
        self.last_move: dict[str, int] = {}
        self.now: list[Any] = []
        self.hits: list[Any] = []
        # the lines being read (and the index of the first) whose moves `last_move` does not
        # hold yet: read ahead only when a line needs it (`saw`), else as they are read
        self.ahead: tuple[list[Any], int] | None = None

    def step(self, e: dict[str, Any]) -> None:
        """Read the current line (after its own visibility was worked out)."""
        if e["t"] == "reveal":
            if e["to"] in (None, self.side) and self.side is not None:
                self.revealed.add(e["e"])
        else:  # moved (or gone): hidden again unless its zone shows it
            self.revealed.discard(e["e"])

    def saw(self, ent: Any) -> bool:
        """Had the side `ent` revealed to it when the current line was written?"""
        if ent in self.revealed:
            self.hits.append(ent)
            return True
        if self.side is None:  # (shown nothing to a spectator: no answer to note)
            return False
        self.now.append(ent)
        if self.side not in self.game.rt.revealed.get(ent, ()):
            return False
        self.read_ahead()
        return self.last_move.get(ent, -1) < self.at

    def read_ahead(self) -> None:
        """Note each card's last move in the lines being read (`ahead`), if not yet."""
        if self.ahead is None:
            return
        new, n = self.ahead
        self.ahead = None
        last_move = self.last_move
        for i, e in enumerate(new, n):
            t = e["t"]
            if t == "move" or t == "destroy":
                last_move[e["e"]] = i

    def sees(self, ent: Any, zone: str | None) -> bool:
        if zone is None or not isinstance(ent, str):
            return True
        return self.zone_seen(zone) or self.saw(ent)

    def zone_seen(self, zone: str) -> bool:
        """`PackData.can_see_zone` for the side, its answers for the pack's zones kept."""
        return zone in self.seen or zone not in self.static \
            and self.game.pack.can_see_zone(self.side, zone)

    def key_visible(self, key: str) -> bool:
        """`key_visible` now, noting the records it read."""
        if "#" not in key:
            return True
        parts = [part for part in key.split("|") if "#" in part]
        self.now.extend(parts)
        game, loc = self.game, self.game.rt.loc
        return all(sees(game, self.side, part, loc.get(part)) for part in parts)


# the lines every side is shown as they are written (`_entry`: no zone or record in them)
_AS_WRITTEN = frozenset(("done", "roll", "end"))
# the lines that name a record whose place, existence or reveals they change
_NAMING = frozenset(("move", "destroy", "create", "reveal"))
# the lines that name a record whose place or existence they change
_PLACING = frozenset(("move", "destroy", "create"))


class ShownLog:
    """One side's log as its views show it, kept between views: a view reads only the lines
    written since the last one (PettingZoo asks for a view at every step, and reading the
    whole log each time was most of a long game's time).

    A line shows what the side saw when it was written, which the lines before it decide
    (`_Then`), except where it reads the game as it is now (a card revealed to the side now,
    where a record made in play lies): such a line is noted under each record it read, and
    read again when one of them changes. A record changes only by a line of the log (a move,
    a creation, a destruction: the records they name) or by a reveal to the side (the
    records revealed to it now, compared with those at the last view). The lines read stay
    valid while the log is the one they were read from, not cut back (undo cuts it, and
    grows it again with other entries: its last line read is then another object), and the
    state is the same object (undo and a failed action restore another)."""

    def __init__(self, game: Any, side: str | None):
        self.side = side
        self._start(game)

    def _start(self, game: Any) -> None:
        """Nothing read yet, of the game's log now."""
        side = self.side
        self.state = game.rt.s  # the state whose log was read
        self.log = self.state["log"]
        self.lines_read = 0
        self.last: Any = None  # the last line read (the very entry)
        self.read: list[Any] = []  # the lines read (the very entries)
        self.steps_of: dict[Any, list[int]] = {}  # record -> its lines `_Then.step` read
        self.then = _Then(game, side)
        self.shown: list[Any] = []  # per line read, what the side is shown (None: nothing)
        self.out: list[Any] = []  # the lines shown, in order
        self.watch: dict[Any, list[int]] = {}  # record -> lines that read the game about it
        self.hits: dict[int, tuple[Any, ...]] = {}  # such a line -> `_Then.hits` when read
        self.place: dict[int, int] = {}  # such a line, when shown -> its index in `out`
        self.known: set[Any] = set()  # the records revealed to the side at the last view

    def lines(self, game: Any, known: set[Any]) -> list[dict[str, Any]]:
        """The side's log now (a new list; the entries are shared, never changed), `known`
        the records revealed to the side now (engine.core.sight.revealed_to)."""
        rt = game.rt
        log = rt.s["log"]
        changed = known ^ self.known
        if rt.s is not self.state or log is not self.log or self.lines_read > len(log) \
                or (self.lines_read and log[self.lines_read - 1] is not self.last):
            if log is self.log:  # undo, a failed action: the log cut back, the state another
                changed |= self._cut_back(game)
            else:
                self._start(game)  # another log: read again from the start
        n, side, then = self.lines_read, self.side, self.then
        self.known = known
        new = log[n:]
        last_move = then.last_move
        if new:  # (most views) the moves noted as read, or ahead when a line needs them
            then.ahead = (new, n)
        if self.watch:  # lines read again when a record they read changes: which changed
            then.read_ahead()  # (they read each card's last move in the whole log)
            changed.update(e["e"] for e in new if e["t"] in _PLACING)
            if changed:
                self._read_again(game, changed)
        steps, shown, out = _Then.STEPS, self.shown, self.out
        now, hits, public = then.now, then.hits, then.public
        entry = _log_entry if game.pack.keyed else _entry
        for i, e in enumerate(new, n):
            t = e["t"]
            # the commonest lines, shown as `_entry` shows them but without its call: a
            # public var set (by a key that names no record made in play), a rule's end, a
            # roll, the game's end; a rule trace
            if t == "set" and e["n"] in public and "at" not in e or t in _AS_WRITTEN:
                shown.append(e)
                out.append(e)
                continue
            if t == "trigger":
                shown.append(None)
                continue
            # the next commonest, as `_entry` shows them: a choice, a sentence or event of no
            # card (none of them names a zone, so a keyed pack's `_keys_shown` keeps them)
            if t == "choice":
                line = e if e["side"] == side else {"t": "choice", "side": e["side"]}
                shown.append(line)
                out.append(line)
                continue
            if (t == "say" or t == "event") and e["at"].count(None) == len(e["at"]):
                line = e.copy()
                del line["at"]
                shown.append(line)
                out.append(line)
                continue
            then.at = i
            line = entry(game, side, e, then)
            if now:  # it read the game now: noted, to read again when that changes
                for ent in now:
                    self.watch.setdefault(ent, []).append(i)
                self.hits[i] = tuple(hits)
                if line is not None:
                    self.place[i] = len(out)
                now.clear()
            if hits:
                hits.clear()
            if t in steps:
                then.step(e)
                self.steps_of.setdefault(e["e"], []).append(i)
                if t != "reveal" and then.ahead is not None:
                    last_move[e["e"]] = i
            shown.append(line)
            if line is not None:
                out.append(line)
        then.ahead = None
        if new:
            self.lines_read, self.last = len(log), log[-1]
            self.read.extend(new)
        return out[:]

    def _cut_back(self, game: Any) -> set[Any]:
        """Forget the lines read that the log no longer holds (undo and a failed action cut
        it back in place, then may write other lines after), keeping those before, and what
        the side saw as they were written put back as it was after the last kept (`_Then`);
        the records the lines forgotten name (what the lines kept read of them now may
        differ: the state is another)."""
        log, read, side = game.rt.s["log"], self.read, self.side
        kept = kept_lines(log, read)
        touched = {e["e"] for e in read[kept:] if e["t"] in _NAMING}
        dropped = sum(line is not None for line in self.shown[kept:])
        if dropped:
            del self.out[len(self.out) - dropped:]
        for i in range(kept, len(read)):
            self.hits.pop(i, None)
            self.place.pop(i, None)
        del read[kept:], self.shown[kept:]
        for lines in self.watch.values():
            while lines and lines[-1] >= kept:
                lines.pop()
        then = self.then
        for ent in touched:
            steps = self.steps_of.get(ent, [])
            while steps and steps[-1] >= kept:
                steps.pop()
            seen, moved = False, None
            for i in steps:  # (as `_Then.step` read them)
                e = read[i]
                if e["t"] == "reveal":
                    seen = seen or e["to"] in (None, side) and side is not None
                else:
                    seen, moved = False, i
            if seen:
                then.revealed.add(ent)
            else:
                then.revealed.discard(ent)
            if moved is None:
                then.last_move.pop(ent, None)
            else:
                then.last_move[ent] = moved
        self.state = game.rt.s
        self.lines_read, self.last = kept, log[kept - 1] if kept else None
        return touched

    def _read_again(self, game: Any, changed: set[Any]) -> None:
        """Read again the lines read before that read the game about a `changed` record."""
        lines = sorted({i for ent in changed for i in self.watch.get(ent, ())})
        again = _Then(game, self.side)
        again.last_move = self.then.last_move
        moved = False  # a line now shown that was not, or the other way round
        for i in lines:
            again.at, again.revealed = i, set(self.hits[i])
            line = _log_entry(game, self.side, self.log[i], again)
            again.now.clear()
            again.hits.clear()
            if (line is None) != (self.shown[i] is None):
                moved = True
            elif line is not None:
                self.out[self.place[i]] = line
            self.shown[i] = line
        if moved:
            self.out = [line for line in self.shown if line is not None]
            self.place = {}
            at = 0
            for i, line in enumerate(self.shown):
                if line is not None:
                    if i in self.hits:
                        self.place[i] = at
                    at += 1


def _shown(then: _Then, value: Any, where: Any) -> Any:
    """A logged value as the side saw it: hidden cards become None, also inside lists."""
    if isinstance(value, list) and isinstance(where, list):
        return [_shown(then, v, w) for v, w in zip(value, where)]
    return value if then.sees(value, where) else None


def _log_entry(game: Any, side: str | None, e: dict[str, Any], then: _Then
               ) -> dict[str, Any] | None:
    shown = _entry(game, side, e, then)
    if shown is not None and game.pack.keyed:  # (only then may a zone key name a record)
        return _keys_shown(shown, then)
    return shown


def _keys_shown(shown: dict[str, Any], then: _Then) -> dict[str, Any]:
    """A shown line without the zone keys that name records made in play the side cannot
    see."""
    for k in ("from", "to", "z"):
        key = shown.get(k)
        if isinstance(key, str) and "#" in key and not then.key_visible(key.partition("|")[2]):
            shown = {**shown, k: None}
    return shown


def _entry(game: Any, side: str | None, e: dict[str, Any], then: _Then
           ) -> dict[str, Any] | None:
    t = e["t"]
    if t == "set":
        kind = then.var_kinds[e["n"]]  # (PackData.var_visible)
        if kind == "hidden" or kind == "private" and (
                side is None or e["k"].split("|")[0] != side):
            return None
        if "at" in e:  # a key naming records made in play: shown if the side saw them
            parts = e["k"].split("|")
            # every part read (no short cut): ShownLog reads the line again with the same
            if not all(then.sees(p, z) for p, z in zip(parts, e["at"]) if "#" in p):
                return None
            return {k: v for k, v in e.items() if k != "at"}
        return e
    if t == "say" or t == "event":
        out = e.copy()
        del out["at"]
        at = e["at"]
        if at.count(None) != len(at):  # an argument that is a card somewhere: seen?
            out["a"] = [_shown(then, a, z) for a, z in zip(e["a"], at)]
        return out
    if t == "move":
        # A card face up before it moved was seen going: only a reveal in force when the
        # line was written shows it. One made now names a card in the lines since its last
        # move, never in that move's own line, whatever happens later; so ShownLog never
        # reads a move line again (re-reading each move line of a card at every later move
        # of it was most of a long game's views)
        to, was, seen = e["to"], e["from"], then.seen
        visible = (to in seen or was in seen or e["e"] in then.revealed
                   or then.zone_seen(to) or was is not None and then.zone_seen(was))
        return e if visible else {**e, "e": None}
    if t == "choice":
        return e if e["side"] == side else {"t": "choice", "side": e["side"]}
    if t == "create":
        return e if e["to"] is None or then.zone_seen(e["to"]) else {**e, "e": None}
    if t == "destroy":
        return e if then.sees(e["e"], e["from"]) else {**e, "e": None}
    if t == "setf":  # a field of a record the side cannot see: nothing shown
        return {k: v for k, v in e.items() if k != "at"} if then.sees(e["e"], e["at"]) \
            else None
    if t == "reveal":
        return e if e["to"] in (None, side) else {**e, "e": None}
    if t == "trigger":
        # Rule traces are for hosts and designers (`game.log`), never for players: a trace
        # shows that a trigger's condition held, and a condition may read a hidden hand
        # (`after turn(s) if self in hand[s]` on a card names the card outright).
        return None
    return e


class Kept:
    """What a game keeps of one side's views between them: its log as they show it
    (ShownLog) and its zones, vars and fields (engine.core.sight.Parts)."""

    __slots__ = ("log", "parts")

    def __init__(self, game: Any, side: str | None):
        self.log = ShownLog(game, side)
        self.parts = Parts(side)


def player_view(game: Any, side: str | None, lang: str | None = None,
                kept: dict[str | None, Kept] | None = None) -> dict[str, Any]:
    """`Game.view(side, lang)`: the format is engine.core.api.View (docs/api.md). `kept`:
    what the game keeps of each side's views between them (Kept), else the view is made
    from the whole state and log."""
    rt, pack = game.rt, game.pack
    if side is not None and side not in pack.side_set:
        raise ValueError(f"unknown side {side!r}; sides are {', '.join(pack.sides)}")
    known = revealed_to(rt, side)
    mine = None if kept is None else kept.get(side)
    if mine is None:
        mine = Kept(game, side)
        if kept is not None:
            kept[side] = mine
    zones, variables, fields = mine.parts.get(game, known)
    d = rt.s["decision"]  # (what `game.decision` is made of: no Decision made for a view)
    decision = None
    legal: list[Any] = []
    if d is not None:
        if d["side"] == side:
            decision = _decision_json(d)
            legal = game.legal_actions()
        elif "window" in d:  # the same whatever the decider holds: no options
            decision = {"side": d["side"], "kind": d["kind"], "window": d["window"],
                        "prompt": d["prompt"]}
        else:
            decision = {"side": d["side"], "kind": d["kind"]}
    result = game.result
    view = {
        "format_version": FORMAT_VERSION, "pack": pack.id, "side": side, "vars": variables,
        "zones": zones,
        "decision": decision, "legal_actions": legal, "log": mine.log.lines(game, known),
        "result": result_data(result),
        "decisions": rt.s["decisions"],
    }
    if fields is not None:
        view["fields"] = fields
    if lang is not None:
        view["lang"] = lang
        view["names"] = pack.names_in(view, lang)
        view["texts"] = pack.texts_of(view["names"], lang)
    return view


def failed_invariants(game: Any) -> list[str]:
    rt = game.rt
    out = []
    for (decl, _path), fn in zip(game.pack.model.checks, game.pack.ns["CHECKS"]):
        if decl.invariant and not rt.call_rule(fn):
            out.append(decl.message)
    return out


def position_key(game: Any, side: str) -> bytes:
    """What `side` sees of the game now, without the log, the counters and the decision's
    id, as bytes: two positions with the same key look the same to `side`. Much cheaper
    than `player_view` (no log, no legal actions), for bots that remember positions."""
    rt, pack = game.rt, game.pack
    s = rt.s
    revealed, created = s["revealed"], pack.created
    visible = pack.visible_zones[side]
    known = {e for e, seen in revealed.items() if side in seen}
    parts: list[Any] = []
    zone_items, var_items, field_items = tables(game)
    for key, items in zone_items:
        if created and not key_visible(game, side, key.partition("|")[2]):
            continue
        if key in visible:
            parts.append(items)
        else:  # how many, and which of them were shown to the side
            parts.append((len(items), [e for e in items if e in known] if known else ()))
    model_vars = pack.model.vars
    for name, table in var_items:
        vis = model_vars[name].visibility
        if vis == "hidden":
            continue
        if created:
            table = {k: v for k, v in table.items() if pack.var_visible(side, name, k)
                     and key_visible(game, side, k)}
        elif vis == "private":  # the keys of its own side (Pack.var_visible)
            table = {k: v for k, v in table.items() if k.partition("|")[0] == side}
        parts.append(table)
    if s.get("f") is not None:
        loc = s["loc"]
        parts.append({rid: rec for rid, rec in field_items
                      if sees(game, side, rid, loc.get(rid))})
    d = s["decision"]
    if d is not None:
        if d["side"] == side:
            parts.append((side, d["kind"], d["prompt"], d.get("args"), d["options"],
                          d["optional"], d["min"], d["max"], d.get("each")))
        else:
            parts.append((d["side"], d["kind"], d.get("window") and d["prompt"]))
    # marshal's version 0 writes equal data as equal bytes (no shared references, no
    # interned strings), several times faster than repr
    return marshal.dumps(parts, 0)
