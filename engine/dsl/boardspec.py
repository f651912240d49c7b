"""pack.yaml `board:`: what a terminal shows of a game, and its check at pack load (E340).

Two forms. The short one lists the vars shown, in order: `board: [round, active]`. The long
one is a mapping of sections, each optional:

    board:
      vars: [active]                 # vars shown, in order
      turn: {var: round, of: season, by: number}
                                     # the turn track: the var's value "of" the number of
                                     # records of type `of`, and the name of the one whose
                                     # field `by` equals it ("Spring 2 - 2 of 6")
      map:
        places: town                 # the record type of the map's places
        group: region                # a field of a place naming the group it is listed in
        zones: [field, walls]        # zones keyed by a place: the pieces in it, counted
        count_by: side               # ... per value of this field of the pieces
        flags: [veteran]             # ... and, of those, how many have these bool fields
        pieces:                      # records standing in a place by a field of their own
          general: {at: at, under: superior, zones: [escort], show: [rank, hidden]}
        fields: [kind, owner, damage]  # fields of a place shown with it when set
        summary: owner               # a field of a place counted per group
        side_of: side                # a field of the records `summary` and `count_by` name
                                     # (a power), naming the side whose colour they are drawn in
        links: {type: road, kind: surface}
                                     # records that join two places (the type's two fields
                                     # that name a place), and the field saying what kind of
                                     # connection each is ("a pass"), for `s PLACE`
        position: at                 # a field of a place (list of int) holding [x, y] on a
                                     # 0..1000 x 0..1000 canvas, for front-ends that draw
        boxes: [camp, {box: pool, at: [80, 900]}]
                                     # off-map places drawn as labelled rectangles: a place
                                     # (at its position) or a zone (at `at`, else laid out)
        markers: [army, target, named]  # vars drawn on the map: a token on the place a var
                                     # names (`var army: city`, maybe per side), or a mark on
                                     # each place where a `var named[c: city]: bool` is true
        moves: {since: turn, count: 2}  # the moves drawn: since the 2nd latest start of the
                                     # event `turn` (default: since the side last waited)
      cards: [hand, discard]         # the zones shown as cards (default: those not on the map)
      show:                          # a record of these types, as an option or a card, is
        unit: [strength, veteran]    # its name and these fields ("Spearmen (strength 3)");
        card: [number, front.cost]   # `a.b`: field b of the record field a names
      log: sentences                 # the log shows the pack's `log` sentences and the result,
                                     # not every change of state (default: all)

Nothing here knows any game: names are checked against the pack's declarations.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.dsl.errors import did_you_mean
from engine.dsl.speccheck import SpecCheck

BOARD_KEYS = ("vars", "turn", "map", "cards", "show", "log")
LOG_STYLES = ("all", "sentences")  # what the log shows: every change, or the pack's sentences
TURN_KEYS = ("var", "of", "by")
MAP_KEYS = ("places", "group", "zones", "count_by", "flags", "pieces", "fields", "summary",
            "side_of", "links", "position", "boxes", "markers", "moves")
MOVES_KEYS = ("since", "count")
BOX_KEYS = ("box", "at")
CANVAS = 1000  # board `map: position:` values lie in 0..CANVAS on both axes
LINK_KEYS = ("type", "kind")
PIECE_KEYS = ("at", "under", "zones", "show")


def board_spec(raw: Any) -> dict[str, Any]:
    """pack.yaml `board:` as a mapping of sections (the short list form is `vars`)."""
    if raw is None:
        return {}
    if isinstance(raw, list):
        return {"vars": list(raw)}
    return dict(raw) if isinstance(raw, dict) else {}


class BoardCheck(SpecCheck):
    """Checks `board:` (a YMap or YList from pack.yaml) against a pack model (how a problem
    is reported: SpecCheck)."""

    def check(self, node: Any, key: Any, board: Any) -> None:
        if isinstance(board, list):
            self._vars(board)
            return
        if not isinstance(board, dict):
            self.error("'board' is a list of vars, or a mapping of sections ("
                       + ", ".join(BOARD_KEYS) + ")", node, key)
            return
        if not self._keys(board, BOARD_KEYS, "board"):
            return
        if "vars" in board:
            self._list(board, "vars", self._vars)
        if "cards" in board:
            self._list(board, "cards",
                       lambda v: self._each(v, self._zone_name, "a zone", self.model.zones))
        if "turn" in board:
            self._turn(board, board["turn"])
        if "map" in board:
            self._map(board, board["map"])
        if "show" in board:
            self._show(board, board["show"])
        if "log" in board and board["log"] not in LOG_STYLES:
            self.error("board: 'log' is one of " + ", ".join(LOG_STYLES), board, "log")

    # ---- helpers --------------------------------------------------------------------------
    def _list(self, m: Any, key: str, fn: Callable[[Any], None]) -> None:
        if not isinstance(m[key], list):
            self.error(f"board: '{key}' is a list of names", m, key)
        else:
            fn(m[key])

    def _each(self, items: Any, ok: Callable[[Any], bool], what: str,
              names: Any = ()) -> None:
        """Each of `items` must be `ok`; else E340, with the closest of `names` suggested."""
        for i, name in enumerate(items):
            if not ok(name):
                self.error(f"board: {name!r} is not {what} of the pack", items, i, False,
                           did_you_mean(name, names) if isinstance(name, str) else None)

    def _vars(self, items: list[Any]) -> None:
        self._each(items, lambda n: isinstance(n, str) and n in self.model.vars, "a var",
                   self.model.vars)

    def _zone_name(self, n: Any) -> bool:
        return isinstance(n, str) and n in self.model.zones

    def _type(self, n: Any) -> Any:
        return self.model.types.get(n) if isinstance(n, str) and n != "table" else None

    def _field(self, m: Any, key: str, tinfo: Any, refers: str | None = None) -> Any:
        """The field m[key] of the type `tinfo` (E340 if it has none, or it does not refer
        to a record of type `refers` when given)."""
        name = m[key]
        f = tinfo.fields.get(name) if isinstance(name, str) else None
        if f is None:
            self.error(f"board: {tinfo.name} has no field {name!r}", m, key)
        elif refers is not None and f.type != refers:
            self.error(f"board: field '{name}' of {tinfo.name} does not name a {refers}", m, key)
            return None
        return f

    def _fields(self, m: Any, key: str, tinfo: Any) -> None:
        items = m[key]
        if not isinstance(items, list):
            self.error(f"board: '{key}' is a list of fields of {tinfo.name}", m, key)
            return
        self._each(items, lambda n: isinstance(n, str) and n in tinfo.fields,
                   f"a field of {tinfo.name}", tinfo.fields)

    def _zones_of(self, m: Any, key: str, tname: str) -> list[str]:
        """m[key]: zones keyed by a record of type `tname` (their first index)."""
        items = m[key]
        if not isinstance(items, list):
            self.error(f"board: '{key}' is a list of zones", m, key)
            return []
        out = []
        for i, z in enumerate(items):
            decl = self.model.zones.get(z) if isinstance(z, str) else None
            if decl is None:
                self.error(f"board: {z!r} is not a zone of the pack", items, i)
            elif not decl.params or getattr(decl.params[0].type, "name", None) != tname:
                self.error(f"board: zone '{z}' is not kept per {tname} (zone {z}[x: {tname}])",
                           items, i)
            else:
                out.append(z)
        return out

    # ---- sections -------------------------------------------------------------------------
    def _turn(self, board: Any, turn: Any) -> None:
        if not isinstance(turn, dict) or "var" not in turn:
            self.error("board: 'turn' is {var: VAR} or {var: VAR, of: TYPE, by: FIELD}",
                       board, "turn")
            return
        if not self._keys(turn, TURN_KEYS, "board: turn"):
            return
        if turn["var"] not in self.model.vars:
            self.error(f"board: {turn['var']!r} is not a var of the pack", turn, "var")
        if ("of" in turn) != ("by" in turn):
            self.error("board: 'turn' gives 'of' (a record type) and 'by' (its number field) "
                       "together", turn, "of" if "of" in turn else "by")
        elif "of" in turn:
            tinfo = self._type(turn["of"])
            if tinfo is None:
                self.error(f"board: unknown record type {turn['of']!r}", turn, "of")
            else:
                self._field(turn, "by", tinfo)

    def _map(self, board: Any, m: Any) -> None:
        if not isinstance(m, dict) or "places" not in m:
            self.error("board: 'map' is a mapping with at least 'places: TYPE'", board, "map")
            return
        if not self._keys(m, MAP_KEYS, "board: map"):
            return
        places = self._type(m["places"])
        if places is None:
            self.error(f"board: unknown record type {m['places']!r}", m, "places")
            return
        if "group" in m:
            f = self._field(m, "group", places)
            if f is not None and self._type(f.type) is None:
                self.error(f"board: field '{m['group']}' of {places.name} does not name a "
                           "record", m, "group")
        zones = self._zones_of(m, "zones", places.name) if "zones" in m else []
        for key in ("fields", "summary"):
            if key == "fields" and key in m:
                self._fields(m, key, places)
            elif key in m:
                self._field(m, key, places)
        items = {self.model.zones[z].of for z in zones}
        for key in ("count_by", "flags"):
            if key not in m:
                continue
            for tname in items:
                tinfo = self._type(tname)
                if tinfo is None:
                    continue
                if key == "flags":
                    self._fields(m, key, tinfo)
                else:
                    self._field(m, key, tinfo)
        if "side_of" in m:
            self._side_of(m, places, items)
        if "pieces" in m:
            self._pieces(m, m["pieces"], places.name)
        if "links" in m:
            self._links(m, m["links"], places.name)
        if "position" in m:
            self._position(m, places)
        if "boxes" in m:
            self._boxes(m, m["boxes"], places.name)
        if "markers" in m:
            self._list(m, "markers", lambda items: self._markers(items, places.name))
        if "moves" in m:
            self._moves(m, m["moves"])

    def _side_of(self, m: Any, places: Any, items: set[str]) -> None:
        """`side_of: FIELD`: a field, naming a side, of each record type that `summary` (a
        field of the places) or `count_by` (a field of the pieces) refers to."""
        owners = []
        for key, tnames in (("summary", [places.name]), ("count_by", sorted(items))):
            for tname in tnames:
                tinfo = self._type(tname)
                f = tinfo.fields.get(m.get(key)) if tinfo is not None else None
                owner = self._type(f.type) if f is not None else None
                if owner is not None and owner not in owners:
                    owners.append(owner)
        if not owners:
            self.error("board: 'side_of' is a field of the records that 'summary' or "
                       "'count_by' name, and neither names a record", m, "side_of")
        for owner in owners:
            f = self._field(m, "side_of", owner)
            if f is not None and f.type != "side":
                self.error(f"board: field '{m['side_of']}' of {owner.name} does not name a "
                           "side", m, "side_of")

    def _position(self, m: Any, places: Any) -> None:
        """`position: FIELD`: a field of the place type of type `list of int` ([x, y])."""
        name = m["position"]
        f = places.fields.get(name) if isinstance(name, str) else None
        if f is None:
            self.error(f"board: {places.name} has no field {name!r}", m, "position", False,
                       did_you_mean(name, places.fields) if isinstance(name, str) else None)
        elif f.type != ("list", "int"):
            self.error(f"board: field '{name}' of {places.name} does not hold a position: its "
                       "type is list of int ([x, y])", m, "position")
        else:
            for rid in self.model.by_type.get(places.name, []):
                rec = self.model.records[rid]
                if not is_point(rec.data.get(name)):
                    self.error(f"board: {places.name} '{rid}': {name} {rec.data.get(name)!r} "
                               f"is not [X, Y], two whole numbers in 0..{CANVAS}",
                               rec.field_sites.get(name, rec.site), None)

    def _boxes(self, m: Any, boxes: Any, places: str) -> None:
        """`boxes: [NAME, {box: NAME, at: [X, Y]}]`: each a zone of the pack or a place."""
        if not isinstance(boxes, list):
            self.error("board: 'boxes' is a list of zones or places (NAME, or {box: NAME, "
                       "at: [X, Y]})", m, "boxes")
            return
        names = [*self.model.zones, *self.model.by_type.get(places, [])]
        for i, item in enumerate(boxes):
            node: Any = boxes
            key: Any = i
            if isinstance(item, dict):
                if "box" not in item:
                    self.error("board: a box is NAME, or {box: NAME, at: [X, Y]}", boxes, i)
                    continue
                if not self._keys(item, BOX_KEYS, "board: boxes"):
                    continue
                if "at" in item and not is_point(item["at"]):
                    self.error(f"board: 'at' is [X, Y], two whole numbers in 0..{CANVAS}",
                               item, "at")
                node, key, item = item, "box", item["box"]
            if not isinstance(item, str) or item not in names:
                self.error(f"board: box {item!r} is no zone of the pack nor a {places}", node,
                           key, False, did_you_mean(item, names) if isinstance(item, str)
                           else None)

    def _moves(self, m: Any, moves: Any) -> None:
        """`moves: {since: EVENT, count: N}`: the moves drawn are those since the N-th latest
        start of EVENT (the one going on counts)."""
        if not isinstance(moves, dict) or "since" not in moves:
            self.error("board: 'moves' is {since: EVENT, count: N}", m, "moves")
            return
        if not self._keys(moves, MOVES_KEYS, "board: moves"):
            return
        event = moves["since"]
        if not isinstance(event, str) or event not in self.model.events:
            self.error(f"board: {event!r} is not an event of the pack", moves, "since", False,
                       did_you_mean(event, self.model.events) if isinstance(event, str)
                       else None)
        count = moves.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            self.error("board: 'count' is a whole number, 1 or more", moves, "count")

    def _markers(self, items: list[Any], places: str) -> None:
        """`markers: [VAR]`: vars drawn on the map, each a token on the place it names (its
        type: `places` or `places?`, maybe kept per side) or a mark on each place where it is
        true (`var v[p: places]: bool`)."""
        for i, name in enumerate(items):
            decl = self.model.vars.get(name) if isinstance(name, str) else None
            if decl is None:
                self.error(f"board: {name!r} is not a var of the pack", items, i, False,
                           did_you_mean(name, self.model.vars) if isinstance(name, str)
                           else None)
            elif marker_kind(decl, places) is None:
                self.error(f"board: marker '{name}' neither names a {places} (var {name}: "
                           f"{places}?) nor is true or false per {places} (var {name}[x: "
                           f"{places}]: bool)", items, i)

    def _links(self, m: Any, links: Any, places: str) -> None:
        """`links: {type: T, kind: F}`: records of type T join two places (T has two fields
        naming a place), and their field F says the connection's kind."""
        if not isinstance(links, dict) or "type" not in links:
            self.error("board: 'links' is a mapping {type: TYPE, kind: FIELD}", m, "links")
            return
        if not self._keys(links, LINK_KEYS, "board: links"):
            return
        tinfo = self._type(links["type"])
        if tinfo is None:
            self.error(f"board: unknown record type {links['type']!r}", links, "type",
                       suggestion=did_you_mean(links["type"], self.model.types)
                       if isinstance(links["type"], str) else None)
            return
        if len(link_ends(tinfo, places)) != 2:
            self.error(f"board: {tinfo.name} does not join two places: it needs two fields "
                       f"naming a {places}", links, "type")
        if "kind" in links:
            self._field(links, "kind", tinfo)

    def _show(self, board: Any, show: Any) -> None:
        if not isinstance(show, dict):
            self.error("board: 'show' maps a record type to a list of its fields "
                       "({TYPE: [FIELD, ...]})", board, "show")
            return
        types = [t for t in self.model.types if t != "table"]
        for tname, paths in show.items():
            tinfo = self._type(tname)
            if tinfo is None:
                self.error(f"board: unknown record type {tname!r}", show, tname, True,
                           did_you_mean(str(tname), types))
            elif not isinstance(paths, list):
                self.error(f"board: 'show' of {tname} is a list of its fields", show, tname)
            else:
                for i in range(len(paths)):
                    self._path(paths, i, tinfo)

    def _path(self, items: Any, i: int, tinfo: Any) -> None:
        """items[i]: a field of the type `tinfo`, or `a.b`: the field b of the record that
        the field a names (and so on)."""
        path = items[i]
        if not isinstance(path, str):
            self.error(f"board: {path!r} is not a field of {tinfo.name}", items, i)
            return
        steps = path.split(".")
        for n, step in enumerate(steps):
            f = tinfo.fields.get(step)
            if f is None:
                self.error(f"board: {tinfo.name} has no field {step!r}", items, i, False,
                           did_you_mean(step, tinfo.fields))
                return
            if n < len(steps) - 1:
                tinfo = self._type(f.type) if isinstance(f.type, str) else None
                if tinfo is None:
                    self.error(f"board: field '{step}' names no record: nothing after it in "
                               f"'{path}'", items, i)
                    return

    def _pieces(self, m: Any, pieces: Any, places: str) -> None:
        if not isinstance(pieces, dict):
            self.error("board: 'pieces' maps a record type to {at: FIELD, ...}", m, "pieces")
            return
        for tname, spec in pieces.items():
            tinfo = self._type(tname)
            if tinfo is None:
                self.error(f"board: unknown record type {tname!r}", pieces, tname)
                continue
            if isinstance(spec, str):
                spec_map: Any = {"at": spec}
                self._field(pieces, tname, tinfo, refers=places)
                continue
            if not isinstance(spec, dict) or "at" not in spec:
                self.error(f"board: piece '{tname}' is a field naming its {places}, or "
                           "{at: FIELD, under: FIELD, zones: [ZONE], show: [FIELD]}", pieces,
                           tname)
                continue
            spec_map = spec
            if not self._keys(spec_map, PIECE_KEYS, f"board: piece '{tname}'"):
                continue
            self._field(spec_map, "at", tinfo, refers=places)
            if "under" in spec_map:
                self._field(spec_map, "under", tinfo, refers=tname)
            if "zones" in spec_map:
                self._zones_of(spec_map, "zones", tname)
            if "show" in spec_map:
                self._fields(spec_map, "show", tinfo)


def marker_kind(decl: Any, places: str) -> str | None:
    """How a var of board `map: markers:` is drawn: "token" (its value names a place; kept per
    side at most), "flag" (true or false per place), or None (neither)."""
    typ = getattr(decl.type, "name", None)
    params = [getattr(p.type, "name", None) for p in decl.params]
    if typ == places and params in ([], ["side"]):
        return "token"
    if typ == "bool" and params == [places]:
        return "flag"
    return None


def link_ends(tinfo: Any, places: str) -> list[str]:
    """The fields of a link type (board `map: links:`) that name a place of type `places`."""
    return [name for name, f in tinfo.fields.items() if f.type == places]


def is_point(v: Any) -> bool:
    """Is `v` a position [x, y] on the board canvas (board `map: position:`)?"""
    return (isinstance(v, list) and len(v) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= CANVAS
                    for n in v))


def log_sentences(raw: Any) -> bool:
    """Whether pack.yaml `board:` asks the log to show only the pack's sentences."""
    return board_spec(raw).get("log") == "sentences"
