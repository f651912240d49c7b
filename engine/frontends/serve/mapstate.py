"""What the web page draws on its map for one side's screen: the state of each place (what
stands there, by side; who controls it; its marks), the markers (board `map: markers:`) and
the recent moves. The map's geometry (positions, links, groups) is the pack's, the same in every
game (`CompiledPack.board_map`, served once by `GET /api/packs/{pack}/map`); this is the part
that changes with every decision, read from the side's view only, so the map shows no more
than the side may see.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.dsl.boardspec import marker_kind
from engine.frontends.terminal.board_map import board_map
from engine.i18n import ntr

if TYPE_CHECKING:
    from engine.i18n.translations import Catalog


def map_state(view: dict[str, Any], cat: Catalog, spec: dict[str, Any]) -> dict[str, Any]:
    """The map of `view` (board `map:` spec `spec`): {"places": {id: {"text", "owner",
    "stacks", "marks"}}, "tokens": [...], "paths": [...]}, in the catalogue's language."""
    the_map = board_map(view, cat, spec)
    model = cat.pack.model
    place_type: str = spec["places"]
    summary: str | None = spec.get("summary")
    side_of = _side_of(cat, spec)
    flags: dict[str, list[str]] = {}
    tokens: list[dict[str, Any]] = []
    for name in spec.get("markers") or []:
        _marker(view, cat, model.vars[name], marker_kind(model.vars[name], place_type),
                tokens, flags)
    places: dict[str, Any] = {}
    for pid in model.by_type.get(place_type, []):
        entry: dict[str, Any] = {"text": the_map.place_text(pid, True)}
        owner = the_map.record(pid).get(summary) if summary else None
        if owner is not None:
            entry["owner"] = side_of(owner)
            entry["owner_name"] = cat.value(owner)
        stacks = [_stack(s, cat, side_of) for s in the_map.stacks(pid)]
        if stacks:
            entry["stacks"] = stacks
        marks = the_map.marks(pid) + flags.get(pid, [])
        if marks:
            entry["marks"] = marks
        places[pid] = entry
    boxes: dict[str, str] = {}  # an off-map box that is a zone: what lies in it
    for item in spec.get("boxes") or []:
        box = item if isinstance(item, str) else item["box"]
        inside = the_map.zone_text(box) if box in model.zones else ""
        if inside:
            boxes[box] = inside
    return {"places": places, "tokens": tokens, "boxes": boxes,
            "paths": recent_paths(view, cat, spec, set(places))}


def _side_of(cat: Catalog, spec: dict[str, Any]) -> Callable[[Any], str | None]:
    """The side whose colour an owner or a stack's `count_by` value is drawn in: the value
    itself when it is a side, else the side its record names in the `side_of` field (a power
    that a side plays), else None."""
    sides = set(cat.pack.model.sides)
    records = cat.pack.records
    field: str | None = spec.get("side_of")

    def side(value: Any) -> str | None:
        if value in sides:
            return str(value)
        if field is None or not isinstance(value, str) or value not in records:
            return None
        named = records[value].get(field)
        return named if named in sides else None
    return side


def _stack(stack: dict[str, Any], cat: Catalog,
           side_of: Callable[[Any], str | None]) -> dict[str, Any]:
    """A stack as drawn: its side (whose colour it has), a short label ("Aulus 10", "3",
    "garrison 2") and, for its tooltip, who and what (the power it counts by, named)."""
    count = stack["count"]
    names = stack["pieces"]
    if stack["hidden"]:
        # i18n: pieces on the map the player may not see, counted
        label = ntr(cat.lang, "{n} hidden", "{n} hidden", count)
    else:
        # a map's chip is small: the first piece by the last word of its name ("Aulus"),
        # how many others are with it, the count; the tooltip has the whole names
        first = names[0].split()[-1] if names and names[0].split() else ""
        label = " ".join(part for part in (
            first + (f"+{len(names) - 1}" if len(names) > 1 else ""),
            str(count) if count else "") if part)
    if stack["zone"]:
        label = f"{stack['zone']} {label}"
    side = stack["side"]
    title = ", ".join(names)
    if side is not None:
        title = f"{cat.value(side)}: {title}" if title else cat.value(side)
    if count and not stack["hidden"]:
        title = f"{title} ({count})" if title else str(count)
    return {"side": side_of(side), "label": label, "title": title,
            "inner": bool(stack["zone"])}


def _marker(view: dict[str, Any], cat: Catalog, decl: Any, kind: str | None,
            tokens: list[dict[str, Any]], flags: dict[str, list[str]]) -> None:
    """A var of `markers:` as the side sees it: tokens on the places it names, or a mark on
    each place where it is true. A var the side may not see is not in its view: not drawn."""
    name = decl.name
    if name not in view["vars"]:
        return
    value = view["vars"][name]
    term = cat.term(name)
    if kind == "flag":
        for pid, on in (value or {}).items():
            if on is True:
                flags.setdefault(pid, []).append(term)
        return
    values = value.items() if isinstance(value, dict) else [(None, value)]
    for side, pid in values:
        if isinstance(pid, str):
            label = f"{term} ({cat.value(side)})" if side else term
            tokens.append({"var": name, "at": pid, "label": label, "side": side})


def recent_paths(view: dict[str, Any], cat: Catalog, spec: dict[str, Any], places: set[str]
                 ) -> list[dict[str, Any]]:
    """The recent moves: for each piece (board `pieces:`, by its `at` field) or token marker
    that moved, the places it passed, in order, starting where it stood before. Recent: since
    the `moves: {since: EVENT, count: N}` N-th latest start of EVENT, else since the side last
    waited for another (a spectator: since the decider before the last changed)."""
    log = view.get("log") or []
    at_fields = {tname: (piece if isinstance(piece, str) else piece["at"])
                 for tname, piece in (spec.get("pieces") or {}).items()}
    tokens = set(spec.get("markers") or [])
    records = cat.pack.records
    side_of = _side_of(cat, spec)
    moves = spec.get("moves")
    start = since_event(log, moves["since"], moves.get("count", 1)) if moves \
        else window_start(log, view.get("side"))
    before: dict[str, Any] = {}  # a mover's key -> where it stood when the window opened
    paths: dict[str, list[str]] = {}
    for i, entry in enumerate(log):
        moved = _moved(entry, at_fields, tokens, cat.pack.model)
        if moved is None:
            continue
        key, pid = moved
        if not isinstance(pid, str) or pid not in places:
            continue
        if i < start:
            before[key] = pid
            continue
        path = paths.setdefault(key, [])
        if not path and before.get(key) not in (None, pid):
            path.append(before[key])  # where it stood when the window opened
        if not path or path[-1] != pid:
            path.append(pid)
    out = []
    for key, path in paths.items():
        if len(path) < 2:
            continue
        if key in records:  # a piece
            side, label = side_of(records[key].get(spec.get("count_by") or "")), cat.name(key)
        else:  # a token: its var, kept per side or not
            var, _, kept_for = key.partition("|")
            side, label = kept_for or None, cat.term(var)
        out.append({"places": path, "side": side, "label": label})
    return out


def _moved(entry: dict[str, Any], at_fields: dict[str, str], tokens: set[str],
           model: Any) -> tuple[str, Any] | None:
    """A log entry that moves a piece or a token: (the mover's key: a piece's id, or a
    token's var and the key it is kept under, "var|side"; the place), else None."""
    t = entry.get("t")
    if t == "setf":
        rid = str(entry["e"])
        record = model.records.get(rid)
        tname = record.type if record is not None else rid.partition("#")[0]
        if at_fields.get(tname) == entry["f"]:
            return rid, entry["v"]
        return None
    if t == "set" and entry["n"] in tokens:
        k = entry.get("k") or ""
        return f"{entry['n']}|{k}", entry["v"]
    return None


def window_start(log: list[dict[str, Any]], side: str | None) -> int:
    """Where the moves worth drawing begin: after `side`'s last answer before the latest
    answer of another side (so its own moves since, and the others' in between). For a
    spectator, `side` is whoever answered last."""
    if side is None:
        side = next((e.get("side") for e in reversed(log) if e.get("t") == "choice"), None)
    other_seen = False
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e.get("t") != "choice":
            continue
        if e.get("side") != side:
            other_seen = True
        elif other_seen:
            return i + 1
    return 0


def since_event(log: list[dict[str, Any]], event: str, count: int) -> int:
    """Where the `count`-th latest start of `event` lies in the log (0: fewer starts)."""
    seen = 0
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e.get("t") == "event" and e.get("n") == event:
            seen += 1
            if seen == count:
                return i
    return 0
