"""A save's state checked against its pack: every name in it (vars, zones, records,
events, rules) is the pack's, and the state holds together (zones and `loc` agree, the
decision is the one the waiting rule asked, the counters add up). SaveError says where not."""
from __future__ import annotations

import functools
import itertools
import operator
import re
from typing import Any

from engine.core.saves.order import key_order
from engine.core.saves.schema import (
    RNG_LIMIT,
    SavedEventFrame,
    SavedPick,
    SavedProcFrame,
    SavedState,
    SavedTempSet,
    SaveFile,
)
from engine.core.saves.shown import fail, key_step, listing, show
from engine.dsl.model import BUILTIN_EVENTS


def _is_int(value: Any) -> bool:
    return type(value) is int  # bool is not an int here, nor 1.0 an int


def frames_hold(pack: Any, file: SaveFile) -> bool:
    """Are the save's waiting rules (the state's stack, the rule that asked the decision)
    places in `pack`'s code as this engine writes and runs it? Not when another version of
    the engine wrote the save (or one before saves named their code): the same pack and
    the same game, but a rule's resume points and locals may lie elsewhere, or be read
    otherwise. Such a save is replayed from its seed and actions, which mean the same to
    any version (`replayed`)."""
    return bool(file.code == pack.code_hash)


def check_against_pack(pack: Any, file: SaveFile) -> None:
    """Every name in the state exists in the pack, and the state holds together (the
    waiting rules only when they are places in the pack's code: see `frames_hold`)."""
    st = file.state
    frames = frames_hold(pack, file)
    _check_made(pack, st)
    _check_fields(pack, st)
    _check_vars(pack, st)
    _check_zones(pack, st)
    _check_revealed(pack, st)
    _check_mods(pack, st)
    for i, frame in enumerate(st.stack):
        if frames or isinstance(frame, SavedEventFrame):
            _check_frame(pack, frame, f"state.stack[{i}]")
    _check_decision(pack, st, frames)
    _check_counters(file)


def _same_keys(found: dict[str, Any], expected: Any) -> bool:
    kind = type(expected)
    return found.keys() == (expected.keys() if kind is dict else expected
                            if kind is set or kind is frozenset else set(expected))


def _check_same_keys(path: str, what: str, found: Any, expected: Any) -> None:
    if _same_keys(found, expected):
        return  # the same keys (most often): nothing to say
    found, expected = set(found), set(expected)
    unknown, missing = sorted(found - expected), sorted(expected - found)
    if unknown:
        known = f" (it has {listing(expected)})" if expected else ""
        raise fail(f"{path}{key_step(unknown[0])}",
                    f"the pack has no {what} {unknown[0]!r}{known}")
    if missing:
        raise fail(path, f"{what} {missing[0]!r} is missing")


def _check_present(path: str, value: Any, wanted: bool, why: str) -> None:
    if wanted and value is None:
        raise fail(path, f"missing: the pack has {why}")
    if not wanted and value is not None:
        raise fail(path, f"the pack has no {why}")


def _check_made(pack: Any, st: SavedState) -> None:
    """Records made in play: ids '<type>#<n>' of the pack's created types, each once, none
    numbered past the type's count."""
    why = "types whose records are made in play ('type T created')"
    _check_present("state.made", st.made, bool(pack.created), why)
    _check_present("state.serial", st.serial, bool(pack.created), why)
    if st.made is None or st.serial is None:
        return
    _check_same_keys("state.made", "created type", st.made, pack.created)
    _check_same_keys("state.serial", "created type", st.serial, pack.created)
    seen: set[str] = set()
    for tname, ids in st.made.items():
        count = st.serial[tname]
        if count <= 4 * len(ids) + 256 and len(set(ids)) == len(ids) \
                and _made_ids(tname, count).issuperset(ids):
            continue  # (most often) each id once, each of a record made so far
        for i, rid in enumerate(ids):
            path = f"state.made.{tname}[{i}]"
            head, _, number = rid.partition("#")
            if head != tname or not number.isdigit() or not 0 < int(number) <= count \
                    or number != str(int(number)):
                raise fail(path, f"{rid!r} is not the id of a {tname} made in play "
                            f"({tname}#1 to {tname}#{count})")
            if rid in seen:
                raise fail(path, f"{rid!r} is listed twice")
            seen.add(rid)


@functools.lru_cache(maxsize=64)
def _made_ids(tname: str, count: int) -> frozenset[str]:
    """The ids of the first `count` records of created type `tname` (`count` is bounded
    by the caller: a save's own number)."""
    return frozenset(f"{tname}#{n}" for n in range(1, count + 1))


def _live(st: SavedState) -> set[str]:
    return set(itertools.chain.from_iterable(st.made.values())) if st.made else set()


def _check_fields(pack: Any, st: SavedState) -> None:
    """The fields in play: every live record made in play with its type's fields, and
    every pack record with var fields with those."""
    _check_present("state.f", st.fields, pack.record_state, "record fields that change in play")
    if st.fields is None:
        return
    want = key_order(pack, st.made).fields  # record -> its fields (made: checked before)
    _check_same_keys("state.f", "record with fields in play", st.fields, want)
    if not any(map(operator.ne, map(dict.keys, st.fields.values()),
                   map(dict.keys, map(want.__getitem__, st.fields)))):
        return  # (most often) every record with its fields: compared at C speed
    for rid in [rid for rid, rec in st.fields.items() if rec.keys() != want[rid].keys()]:
        _check_same_keys(f"state.f{key_step(rid)}", f"field of {rid!r}", st.fields[rid], want[rid])


def _check_vars(pack: Any, st: SavedState) -> None:
    var_keys = key_order(pack, st.made).vars
    _check_same_keys("state.v", "var", st.vars, var_keys)
    for name, table in st.vars.items():
        if not _same_keys(table, var_keys[name]):
            _check_same_keys(f"state.v.{name}", f"key of var {name!r}", table, var_keys[name])


def _check_record(pack: Any, path: str, rid: str, live: set[str] | None = None) -> None:
    if rid not in pack.records and (live is None or rid not in live):
        raise fail(path, f"{rid!r} is not a record of pack {pack.id!r}")


def _check_zones(pack: Any, st: SavedState) -> None:
    zone_keys = key_order(pack, st.made).zones
    live = _live(st)
    _check_same_keys("state.z", "zone", st.zones, zone_keys)
    placed = _placed_as_loc_says(st.zones, st.loc)
    if placed is not None and placed.difference(pack.records) <= live:
        return  # (most often) every record once, where loc says, each a record or live
    where: dict[str, str] = {}
    records, loc = pack.records, st.loc
    for key, items in st.zones.items():
        for i, rid in enumerate(items):
            if (rid in records or rid in live) and rid not in where and loc.get(rid) == key:
                where[rid] = key  # (most often) a record, once, where loc says it lies
                continue
            path = f"state.z{key_step(key)}[{i}]"
            _check_record(pack, path, rid, live)
            if rid in where:
                raise fail(path, f"{rid!r} lies in two zones ({where[rid]!r} too)")
            where[rid] = key
            if st.loc.get(rid) != key:
                raise fail(f"state.loc{key_step(rid)}", f"says {rid!r} lies in "
                            f"{show(st.loc.get(rid))}, but it lies in zone {key!r}")
    for rid, key in st.loc.items():
        if where.get(rid) != key:
            raise fail(f"state.loc{key_step(rid)}", f"says {rid!r} lies in {key!r}, which "
                        "does not hold it")


def _placed_as_loc_says(zones: dict[str, list[str]], loc: dict[str, str]) -> set[str] | None:
    """The records in `zones` if each lies in one zone, once, where `loc` says it lies,
    and `loc` says where no other lies; else None. A zone's records are looked up in
    `loc` at C speed, the empty zones (most) skipped at C speed (a dict of all records
    placed, built at C speed, took five times as long)."""
    placed: set[str] = set()
    count = 0
    where = loc.get
    for key, items in itertools.compress(zones.items(), zones.values()):  # not empty
        if operator.countOf(map(where, items), key) != len(items):
            return None
        placed.update(items)
        count += len(items)
    return placed if len(placed) == count == len(loc) else None


def _check_sides(pack: Any, path: str, sides: list[str]) -> None:
    for i, side in enumerate(sides):
        if side not in pack.side_set:
            raise fail(f"{path}[{i}]", f"{side!r} is not a side (sides: "
                        f"{', '.join(pack.sides)})")
        if side in sides[:i]:
            raise fail(f"{path}[{i}]", f"side {side!r} is listed twice")


def _check_revealed(pack: Any, st: SavedState) -> None:
    live = _live(st)
    for rid, sides in st.revealed.items():
        path = f"state.revealed{key_step(rid)}"
        _check_record(pack, path, rid, live)
        _check_sides(pack, path, sides)


def _check_event(pack: Any, path: str, name: str, args: list[Any] | None = None) -> None:
    if name not in pack.model.events and name not in BUILTIN_EVENTS:
        raise fail(path, f"{name!r} is not an event of pack {pack.id!r}")
    decl = pack.model.events.get(name)
    wanted = len(decl.params) if decl is not None else 0
    if args is not None and len(args) != wanted:
        raise fail(path, f"event {name!r} takes {wanted} argument{'s' * (wanted != 1)}, "
                    f"got {len(args)}")


def _check_function(pack: Any, path: str, fname: Any, stem: str, what: str) -> None:
    """A function of the generated pack code named in the state (a condition kept as data)."""
    if not (isinstance(fname, str) and fname.startswith(stem) and callable(pack.ns.get(fname))):
        raise fail(path, f"{show(fname)} is not {what} of pack {pack.id!r}")


def _check_mods(pack: Any, st: SavedState) -> None:
    for i, m in enumerate(st.mods):
        path = f"state.mods[{i}]"
        if isinstance(m, SavedTempSet):
            if m.var not in pack.var_keys:
                raise fail(f"{path}.var", f"{m.var!r} is not a var of pack {pack.id!r}")
            if m.key not in {key for key, _args in pack.var_keys[m.var]}:
                raise fail(f"{path}.key", f"var {m.var!r} has no key {m.key!r}")
            if isinstance(m.dur, list) and m.dur[:1] == ["while"]:
                raise fail(f"{path}.dur", "a temporary set ends at events, not 'while'")
        else:
            if m.value not in pack.model.values:
                raise fail(f"{path}.value", f"{m.value!r} is not a value of pack {pack.id!r}")
            if m.op != "to" and not _is_int(m.amount):
                raise fail(f"{path}.amount", f"expected a whole number, got {show(m.amount)}")
        _check_duration(pack, f"{path}.dur", m.dur)


_DURATION_SHAPES = ("null, [\"start\", event, count?], [\"end\", event, depth or null, count?], "
                    "[\"any\", [start or end durations]] or [\"while\", condition, {locals}]")


def _check_duration(pack: Any, path: str, dur: Any, inside_any: bool = False) -> None:
    if dur is None and not inside_any:
        return
    kinds = ("start", "end") if inside_any else ("start", "end", "while", "any")
    if not isinstance(dur, list) or not dur or dur[0] not in kinds:
        raise fail(path, f"expected {_DURATION_SHAPES}, got {show(dur)}")
    kind = dur[0]
    if kind == "any" and len(dur) == 2 and isinstance(dur[1], list) and dur[1]:
        for j, d in enumerate(dur[1]):
            _check_duration(pack, f"{path}[1][{j}]", d, inside_any=True)
        return
    if kind in ("start", "end") and len(dur) >= 2 and isinstance(dur[1], str):
        count_at = 2 if kind == "start" else 3
        ok = len(dur) in (count_at, count_at + 1) and (
            len(dur) == count_at or _is_int(dur[count_at]) and dur[count_at] >= 1)
        if kind == "end" and len(dur) > 2:
            ok = ok and (dur[2] is None or _is_int(dur[2]) and dur[2] >= 0)
        if ok:
            _check_event(pack, f"{path}[1]", dur[1])
            return
    elif kind == "while" and len(dur) == 3 and isinstance(dur[2], dict):
        _check_function(pack, f"{path}[1]", dur[1], "while_", "a 'while' condition")
        return
    raise fail(path, f"expected {_DURATION_SHAPES}, got {show(dur)}")


def _check_frame(pack: Any, frame: Any, path: str) -> None:
    if isinstance(frame, SavedEventFrame):
        _check_event(pack, f"{path}.n", frame.event, frame.args)
        if not 0 <= frame.stage <= 3:
            raise fail(f"{path}.st", f"an event's stage is 0 to 3, got {frame.stage}")
        if frame.next_trigger < 0:
            raise fail(f"{path}.i", "expected a trigger's place (0 or more), got "
                       f"{frame.next_trigger}")
        insteads = pack.plans.get(frame.event, ([], [], [], []))[1]
        if isinstance(frame.instead, int) and not -1 <= frame.instead < len(insteads):
            raise fail(f"{path}.m", f"event {frame.event!r} has {len(insteads)} 'instead of' "
                        f"trigger{'s' * (len(insteads) != 1)}, got {frame.instead}")
        for j, (name, args) in enumerate(frame.queued):
            _check_event(pack, f"{path}.q[{j}]", name, args)
        _check_event_state(pack, frame, path)
        return
    waiting = pack.ns.get("SUSPENDING", pack.ns["FUNCS"])
    if frame.function not in pack.ns["FUNCS"] or frame.function not in waiting:
        raise fail(f"{path}.f", f"{frame.function!r} is not a rule of pack {pack.id!r} that can "
                    "wait for a decision")
    if frame.resume_at < 0:
        raise fail(f"{path}.pc", f"expected a resume point (0 or more), got {frame.resume_at}")


def _check_event_state(pack: Any, frame: SavedEventFrame, path: str) -> None:
    decl = pack.model.events.get(frame.event)
    fields = [f.name for f in decl.state] if decl is not None else []
    if not isinstance(frame.event_state, dict):  # (null or absent)
        if fields:
            raise fail(f"{path}.x", f"missing: event {frame.event!r} keeps state "
                        f"({', '.join(fields)})")
    elif not fields:
        raise fail(f"{path}.x", f"event {frame.event!r} keeps no state")
    else:
        _check_same_keys(f"{path}.x", f"state field of event {frame.event!r}",
                         frame.event_state, fields)


def _check_decision(pack: Any, st: SavedState, frames: bool = True) -> None:
    d = st.decision
    if st.result is not None:
        if st.result.winner is not None and st.result.winner not in pack.side_set:
            raise fail("state.result.winner", f"{st.result.winner!r} is not a side")
        if d is not None or st.stack:
            raise fail("state.result", "the game is over, yet rules are still waiting "
                        "(decision or stack not empty)")
        return
    if d is None:
        raise fail("state.decision", "the game is neither over nor waiting for a decision")
    path = "state.decision"
    if d.side not in pack.side_set:
        raise fail(f"{path}.side", f"{d.side!r} is not a side (sides: {', '.join(pack.sides)})")
    if not 0 <= d.min <= d.max:
        raise fail(f"{path}.min", f"expected 0 <= min <= max, got min {d.min}, max {d.max}")
    top = st.stack[-1] if st.stack else None
    if not isinstance(top, SavedProcFrame) or top.function != d.fn:
        raise fail(f"{path}.fn", f"the decision was asked by {d.fn!r}, but the rule waiting "
                    f"on top of the stack is {show(getattr(top, 'function', None))}")
    if d.require is not None and frames:
        _check_function(pack, f"{path}.require[0]", d.require[0], "require_",
                        "a choice's condition")
    if isinstance(d.window, str) and (d.window not in pack.model.windows or d.kind != "one"
                                 or frames and d.fn != pack.model.windows[d.window].fn):
        raise fail(f"{path}.window", f"{show(d.window)} is not a response window of pack "
                    f"{pack.id!r} asked by {d.fn!r}")
    if isinstance(d.idle, list) and any(o not in d.options for o in d.idle):
        raise fail(f"{path}.idle", "an option marked as doing nothing is not one of the "
                    "decision's options")
    each = d.each if isinstance(d.each, SavedPick) else None
    if each is not None and (not 0 <= each.min <= each.max or len(each.picked) >= each.max):
        raise fail(f"{path}.each", f"expected 0 <= min <= max and fewer picks than max, got "
                    f"{len(each.picked)} picked, min {each.min}, max {each.max}")
    if d.id != st.asked - 1:
        raise fail(f"{path}.id", f"the game has asked {st.asked} decisions, so the one "
                    f"waiting is number {st.asked - 1}, got {d.id}")


def _check_counters(file: SaveFile) -> None:
    st = file.state
    if not 0 <= st.rng < RNG_LIMIT:
        raise fail("state.rng", f"expected a 64-bit random state (0 to 2**64 - 1), got {st.rng}")
    for name in ("steps", "decisions", "asked"):
        if getattr(st, name) < 0:
            raise fail(f"state.{name}", f"expected a count (0 or more), got {getattr(st, name)}")
    if st.decisions > st.asked:
        raise fail("state.decisions", f"{st.decisions} decisions answered, but only "
                    f"{st.asked} asked")
    if len(file.actions) != st.decisions:
        raise fail("actions", f"{len(file.actions)} actions, but the state counts "
                    f"{st.decisions} decisions answered")
    if not re.fullmatch(r"[0-9a-f]{64}", file.digest):
        raise fail("digest", f"expected 64 hexadecimal digits (sha256), got {show(file.digest)}")
