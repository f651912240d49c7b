"""The map on a side's screen (board `map:`): the places by group, the pieces standing in them
counted per side, the pieces under a piece, and the places' fields."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.frontends.terminal.lines import wrap
from engine.i18n import ntr, tr

if TYPE_CHECKING:
    from engine.i18n.translations import Catalog


def _unset(tinfo: Any, field: str, value: Any) -> bool:
    """Not worth showing: none, false, 0, empty, or the field's declared default."""
    if value is None or value is False or value == 0 or value in ("", []):
        return True
    declared = tinfo.fields.get(field) if tinfo is not None else None
    return declared is not None and declared.default is not None and value == declared.default


def _field_text(cat: Catalog, field: str, value: Any, named: bool = False) -> str:
    """A field's value as said on the board: a bool by the field's term, a number after it,
    a name (a record, side or enum value) by itself, or after the term when `named`."""
    if value is True:
        return cat.term(field)
    if named or isinstance(value, (int, float)):
        return f"{cat.term(field)} {cat.value(value)}"
    return cat.value(value)


def _pieces_text(items: Any, cat: Catalog, fields: dict[str, Any], records: dict[str, Any],
                 count_by: str | None, flags: list[str]) -> str:
    """The pieces of one zone, counted per value of `count_by`: "red 8 unit (veteran 2)"."""
    if isinstance(items, dict):  # a zone the side may not see: its count only
        # i18n: pieces on the map the player may not see, counted
        return ntr(cat.lang, "{n} hidden", "{n} hidden", items.get("count", 0))
    groups: dict[Any, list[str]] = {}
    for rid in items:
        record = {**records.get(rid, {}), **fields.get(rid, {})}
        groups.setdefault(record.get(count_by) if count_by else None, []).append(rid)
    parts = []
    for key, group in groups.items():
        group_records = [{**records.get(rid, {}), **fields.get(rid, {})} for rid in group]
        kinds = sorted({cat.value(rid) for rid in group})
        text = f"{len(group)} {'/'.join(kinds)}"
        if key is not None:
            text = f"{cat.value(key)} {text}"
        marks = [f"{cat.term(flag)} {flagged}" for flag in flags
                 if (flagged := sum(1 for record in group_records if record.get(flag) is True))]
        parts.append(text + (f" ({', '.join(marks)})" if marks else ""))
    return ", ".join(parts)


def map_lines(view: dict[str, Any], cat: Catalog, spec: dict[str, Any], width: int
              ) -> tuple[list[str], set[str]]:
    """The map section (board `map:`, its `spec`): one line per group holding a place worth
    showing in detail (pieces standing in it, a var field set), that place on its own line
    below; the quiet groups in a paragraph, each with its `summary` counts. Also the zones it
    shows."""
    board_map = _Map(view, cat, spec)
    return board_map.lines(width), board_map.zones_shown


def board_map(view: dict[str, Any], cat: Catalog, spec: dict[str, Any]) -> _Map:
    """The map of a side's view read through the board's `map:` spec (its commands: the
    whole map, one place, a place's contents)."""
    return _Map(view, cat, spec)


class _Map:
    """The map of a side's view, read through the board's `map:` spec: the places of type
    `places` by `group`, the `pieces` standing in them (or under another piece), and the
    zones of each place and piece."""

    def __init__(self, view: dict[str, Any], cat: Catalog, spec: dict[str, Any]) -> None:
        self.cat = cat
        self.pack = cat.pack
        self.model = self.pack.model
        self.fields: dict[str, dict[str, Any]] = view.get("fields") or {}
        self.zones: dict[str, Any] = view.get("zones", {})
        self.place_type: str = spec["places"]
        self.place_info = self.model.types.get(self.place_type)
        self.group_by: str | None = spec.get("group")
        self.place_zones = list(spec.get("zones") or [])
        self.count_by: str | None = spec.get("count_by")
        self.flags = list(spec.get("flags") or [])
        self.shown_fields = list(spec.get("fields") or [])
        self.summary: str | None = spec.get("summary")
        self.links_spec: dict[str, Any] | None = spec.get("links")
        self.pieces: dict[str, dict[str, Any]] = {
            tname: ({"at": piece} if isinstance(piece, str) else dict(piece))
            for tname, piece in (spec.get("pieces") or {}).items()}
        self.zones_shown = set(self.place_zones) | {
            zone for piece in self.pieces.values() for zone in piece.get("zones") or []}
        # pieces standing in places, and those under another piece (`under`: its subordinates)
        self.standing: dict[str, list[tuple[str, str]]] = {}
        self.under: dict[str, list[str]] = {}
        self._place_pieces()

    def record(self, rid: str) -> dict[str, Any]:
        """A record's fields: the pack's, with those in play that the side sees."""
        return {**self.pack.records.get(rid, {}), **self.fields.get(rid, {})}

    def _of_type(self, tname: str) -> list[str]:
        """The records of a type; of one made in play, those the side sees."""
        return self.model.by_type.get(tname) or [
            rid for rid in self.fields if rid.partition("#")[0] == tname]

    def _place_pieces(self) -> None:
        for tname, piece in self.pieces.items():
            for rid in self._of_type(tname):
                record = self.record(rid)
                if rid not in self.fields and any(
                        field.var for field in self.model.types[tname].fields.values()):
                    continue  # its place is not in the view: not shown
                above = record.get(piece["under"]) if piece.get("under") else None
                if above:
                    self.under.setdefault(above, []).append(rid)
                elif record.get(piece["at"]):
                    self.standing.setdefault(record[piece["at"]], []).append((tname, rid))

    def _units(self, zone: str, key: str, label: bool) -> str | None:
        """The pieces in the zone `zone` of the place or piece `key`, after the zone's term
        when `label`; None when it holds none."""
        text = self.zone_text(f"{zone}|{key}")
        if not text:
            return None
        return f"{self.cat.term(zone)} {text}" if label else text

    def _piece_text(self, rid: str, tname: str) -> str:
        """A piece by its name, with its `show` fields, the pieces under it and its zones."""
        cat = self.cat
        piece = self.pieces[tname]
        tinfo = self.model.types[tname]
        record = self.record(rid)
        notes = [_field_text(cat, field, record.get(field)) for field in piece.get("show") or []
                 if not _unset(tinfo, field, record.get(field))]
        subordinates = self.under.get(rid, [])
        if subordinates:  # i18n: the pieces under a piece on the map (a leader's units)
            notes.append(tr(cat.lang, "with {pieces}", pieces=", ".join(
                self._piece_text(sub, tname) for sub in subordinates)))
        for zone in piece.get("zones") or []:
            units = self._units(zone, rid, True)
            if units:
                notes.append(units)
        return cat.value(rid) + (f" ({'; '.join(notes)})" if notes else "")

    def _group_head(self, gid: Any, pids: list[str]) -> str:
        """A group's name, with the count of its places per value of the `summary` field."""
        cat = self.cat
        summary = self.summary
        counts: dict[Any, int] = {}
        for pid in pids:
            if summary and (summary in self.record(pid) or pid in self.fields):
                value = self.record(pid).get(summary)
                counts[value] = counts.get(value, 0) + 1
        ordered = sorted(counts.items(), key=lambda kv: (kv[0] is None, -kv[1]))
        # i18n: a place's field that is not set, in a group's count ("control: none 3")
        summed = ", ".join(f"{tr(cat.lang, 'none') if value is None else cat.value(value)} "
                           f"{count}" for value, count in ordered)
        head = cat.name(gid) if gid is not None else cat.term(self.place_type)
        if summary and summed:  # (counted only with a summary)
            head += f" ({cat.term(summary)}: {summed})"
        return head

    def _parts(self, pid: str) -> list[str]:
        """What is in a place: the pieces of its zones, and those standing in it."""
        parts = [units for i, zone in enumerate(self.place_zones)
                 if (units := self._units(zone, pid, i > 0))]
        return parts + [self._piece_text(rid, tname) for tname, rid in self.standing.get(pid, [])]

    def _notes(self, pid: str, marked: list[str]) -> list[str]:
        """A place's `fields` that are set, a var field among `marked` after its term."""
        info = self.place_info
        record = self.record(pid)
        return [_field_text(self.cat, field, record.get(field), field in marked)
                for field in self.shown_fields if not _unset(info, field, record.get(field))]

    def _marked(self, pid: str) -> list[str]:
        info = self.place_info
        record = self.record(pid)
        return [field for field in self.shown_fields if field != self.summary
                and info.fields[field].var and not _unset(info, field, record.get(field))]

    def place_text(self, pid: str, always: bool = False) -> str:
        """A place on one line: its name, its fields, what is in it ("" for a quiet place
        unless `always`)."""
        parts = self._parts(pid)
        marked = self._marked(pid)
        if not parts and not marked and not always:
            return ""
        notes = self._notes(pid, marked)
        line = self.cat.name(pid) + (f" ({', '.join(notes)})" if notes else "")
        return line + (": " + ", ".join(parts) if parts else "")

    def stacks(self, pid: str) -> list[dict[str, Any]]:
        """What stands in a place, for a map to draw: one stack per side (`count_by`) and
        zone, each {"side": its value or None, "count": pieces in zones, "pieces": names of
        the pieces standing there with those under them, "zone": the zone's term, or None
        for the place's first zone and the pieces standing in it, "hidden": true for pieces
        the side may not see}."""
        out: dict[tuple[Any, Any, bool], dict[str, Any]] = {}

        def stack(side: Any, zone: str | None, hidden: bool = False) -> dict[str, Any]:
            key = (side, zone, hidden)
            if key not in out:
                out[key] = {"side": side, "count": 0, "pieces": [], "zone": zone,
                            "hidden": hidden}
            return out[key]

        def count(zone: str, key: str, into: str | None, side: Any = None) -> None:
            items = self.zones.get(f"{zone}|{key}")
            if isinstance(items, dict):  # a zone the side may not see: its count only
                if items.get("count"):
                    stack(side, into, True)["count"] += items["count"]
                return
            for rid in items or []:
                owner = self.record(rid).get(self.count_by) if self.count_by else side
                stack(owner, into)["count"] += 1

        for i, zone in enumerate(self.place_zones):
            count(zone, pid, self.cat.term(zone) if i else None)
        for tname, rid in self.standing.get(pid, []):
            side = self.record(rid).get(self.count_by) if self.count_by else None
            here = stack(side, None)
            for piece_id in [rid, *self.under.get(rid, [])]:
                here["pieces"].append(self.cat.name(piece_id))
                for zone in self.pieces[tname].get("zones") or []:
                    count(zone, piece_id, None, side)
        return list(out.values())

    def zone_text(self, zone: str) -> str:
        """What lies in a zone (its key in the view: "troops|ford", or an off-map box's
        zone), counted per side; "" when it holds nothing."""
        items = self.zones.get(zone)
        if not items or isinstance(items, dict) and not items.get("count"):
            return ""
        return _pieces_text(items, self.cat, self.fields, self.pack.records, self.count_by,
                            self.flags)

    def marks(self, pid: str) -> list[str]:
        """A place's var fields that are set, as said on the board ("siege 2")."""
        record = self.record(pid)
        return [_field_text(self.cat, field, record.get(field), True)
                for field in self._marked(pid)]

    def is_place(self, rid: str) -> bool:
        """Is `rid` a place of the map?"""
        record = self.model.records.get(rid)
        return record is not None and record.type == self.place_type

    def what_is_there(self, pid: str) -> str:
        """What a place holds and its fields set, in a few words ("" when nothing)."""
        return "; ".join(self._notes(pid, self._marked(pid)) + self._parts(pid))

    def _place_lines(self, pid: str, width: int, always: bool = False) -> list[str]:
        """A place worth showing in detail (pieces in it, a var field set) on its lines:
        its name, its fields, what stands in it; none for a quiet place unless `always`."""
        text = self.place_text(pid, always)
        return wrap(f"    {text}", width) if text else []

    def groups(self) -> dict[Any, list[str]]:
        """The places by group, in the pack's order."""
        groups: dict[Any, list[str]] = {}
        for pid in self.model.by_type.get(self.place_type, []):
            group = self.record(pid).get(self.group_by) if self.group_by else None
            groups.setdefault(group, []).append(pid)
        return groups

    def whole(self, width: int) -> list[str]:
        """Every group, each with every place in it and what is there (the `m` command)."""
        out: list[str] = []
        for gid, pids in self.groups().items():
            out.append(f"  {self._group_head(gid, pids)}")
            out.extend(line for pid in pids for line in self._place_lines(pid, width, True))
        return out

    def links(self, pid: str) -> list[tuple[str, str | None]]:
        """The places joined to `pid` (board `map: links:`), each with its connection's kind
        as the pack names it (None for the kind field's default, or without one)."""
        from engine.dsl.boardspec import link_ends
        spec = self.links_spec
        if not spec:
            return []
        tinfo = self.model.types[spec["type"]]
        ends = link_ends(tinfo, self.place_type)
        kind_field = spec.get("kind")
        out: list[tuple[str, str | None]] = []
        for rid in self._of_type(spec["type"]):
            record = self.record(rid)
            joined: list[str] = [str(record.get(end)) for end in ends]
            if pid not in joined:
                continue
            other: str = joined[1] if joined[0] == pid else joined[0]
            kind = record.get(kind_field) if kind_field else None
            shown = None if kind_field is None or _unset(tinfo, kind_field, kind) \
                else self.cat.value(kind)
            out.append((other, shown))
        return out

    def space_lines(self, pid: str, width: int) -> list[str]:
        """One place (the `s PLACE` command): its line, its group, and its connections."""
        cat = self.cat
        lines = wrap(f"  {self.place_text(pid, True)}", width, "    ")
        group = self.record(pid).get(self.group_by) if self.group_by else None
        if group is not None:
            # i18n: the group (e.g. province) a place on the map lies in
            lines.append(f"    {tr(cat.lang, 'in {group}', group=cat.name(group))}")
        links = self.links(pid)
        if links:
            said = []
            for other, kind in links:
                there = self.what_is_there(other)
                text = cat.name(other) + (f" ({kind})" if kind else "")
                said.append(f"{text}: {there}" if there else text)
            # i18n: the places joined to a place on the map, counted
            lines.append("    " + ntr(cat.lang, "{n} connection:", "{n} connections:",
                                      len(links)))
            lines.extend(row for text in said for row in wrap(f"      {text}", width, "        "))
        return lines

    def find(self, text: str) -> tuple[str | None, list[str]]:
        """The place named `text` as shown (case-insensitive), or None and the names of the
        closest ones."""
        import difflib
        names = {self.cat.name(pid).casefold(): pid
                 for pid in self.model.by_type.get(self.place_type, [])}
        key = " ".join(text.split()).casefold()
        if key in names:
            return names[key], []
        starts = [pid for name, pid in names.items() if name.startswith(key)]
        if len(starts) == 1:
            return starts[0], []
        close = difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)
        return None, [self.cat.name(names[name]) for name in close] or \
            [self.cat.name(pid) for pid in starts[:3]]

    def lines(self, width: int) -> list[str]:
        """The busy groups, each with its places in detail, then the quiet ones."""
        groups = self.groups()
        busy: list[str] = []
        quiet: list[str] = []
        for gid, pids in groups.items():
            head = self._group_head(gid, pids)
            detail = [line for pid in pids for line in self._place_lines(pid, width)]
            if detail:
                busy.append(f"  {head}")
                busy.extend(detail)
            else:
                quiet.append(head)
        return busy + _paragraph(quiet, width)


def _paragraph(heads: list[str], width: int) -> list[str]:
    """The quiet groups' heads, separated by semicolons, whole entries to a line."""
    out = []
    line = ""
    for i, head in enumerate(heads):
        item = head + (";" if i < len(heads) - 1 else "")
        if line and len(line) + 1 + len(item) > width:
            out.append(line)
            line = ""
        line = f"{line} {item}" if line else f"  {item}"
    if line:
        out.append(line)
    return out
