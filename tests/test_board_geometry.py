"""The map's geometry for front-ends that draw it (issue 31, item 1): pack.yaml `board: map:`
`position:` (a place's [x, y] on the 1000 x 1000 canvas) and `boxes:` (off-map places), each
mistake a located E340 with a did-you-mean; `CompiledPack.board_map(lang)` returns the places,
groups, links and boxes, typed by engine.core.api.BoardMap; Hannibal's 98 spaces and Ante
Portas' cities have positions from their places' geography (content/hannibal/MAP.md
"Positions", content/ante_portas/RULINGS.md "Map positions")."""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from engine.core import api
from engine.core.errors import PackError
from engine.core.loader import load_pack

STACKGAME = Path(__file__).resolve().parent / "packs" / "stackgame"
POSITIONS = {"west": [100, 500], "hill": [500, 200], "ford": [500, 800], "east": [900, 500]}


@pytest.fixture(scope="module")
def hannibal():
    return load_pack("content/hannibal")


def drawn(tmp_path: Path, board: str, positions: dict[str, object] | None = None,
          field: str = "at: list of int") -> Path:
    """The stack test game with a field of space holding its position and `board`."""
    root = tmp_path / "stackgame"
    shutil.copytree(STACKGAME, root)
    rules = (root / "rules.rules").read_text(encoding="utf-8")
    (root / "rules.rules").write_text(rules.replace(
        "type space:\n", f"type space:\n    {field}\n", 1), encoding="utf-8")
    text = (root / "map.yaml").read_text(encoding="utf-8")
    for sid, at in (positions or POSITIONS).items():
        text = text.replace(f"{{id: {sid}}}", f"{{id: {sid}, at: {at}}}")
    (root / "map.yaml").write_text(text, encoding="utf-8")
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write(board)
    return root


def errors(root: Path) -> list[tuple[str, str, int, str, str | None]]:
    with pytest.raises(PackError) as err:
        load_pack(root)
    return [(d.code, Path(d.path).name, d.line, d.message, d.suggestion)
            for d in err.value.diagnostics]


def test_hannibal_spaces_lie_on_the_canvas_apart(hannibal):
    """MAP.md "Positions": every one of the 98 spaces has a position inside the canvas, no
    two closer than 20 (rounded: 19.5), and every link joins two spaces of the map."""
    the_map = hannibal.board_map()
    api.structure(the_map, api.BoardMap)
    spaces = {s["id"]: s for s in the_map["spaces"]}
    assert len(spaces) == 98 == len(hannibal.model.by_type["space"])
    assert all(0 <= s["x"] <= 1000 and 0 <= s["y"] <= 1000 for s in spaces.values())
    ids = sorted(spaces)
    near = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:]
            if math.dist((spaces[a]["x"], spaces[a]["y"]),
                         (spaces[b]["x"], spaces[b]["y"])) < 19.5]
    assert near == []
    assert len(the_map["links"]) == 136
    assert all(link["a"] in spaces and link["b"] in spaces for link in the_map["links"])
    # the kinds a front-end draws apart (seed 002 §8.3: passes, the Alps, straits)
    kinds = {link["kind"] for link in the_map["links"]}
    assert kinds == {"normal", "pass", "alpine_pass", "strait"}
    strait = next(link for link in the_map["links"] if {link["a"], link["b"]}
                  == {"messana", "rhegium"})
    assert strait["kind"] == "strait" and strait["kind_name"] == "Strait"
    # groups are the provinces, in the pack's order, each space in one
    assert [g["id"] for g in the_map["groups"]] == hannibal.model.by_type["province"]
    assert spaces["capua"]["group"] == "campania"
    assert the_map["boxes"] == []


def test_hannibal_positions_keep_the_geography(hannibal):
    """The projection is linear in longitude and latitude: west is left, north is up."""
    at = {s["id"]: (s["x"], s["y"]) for s in hannibal.board_map()["spaces"]}
    assert at["gades"][0] < at["new_carthage"][0] < at["massilia"][0] < at["roma"][0] \
        < at["brundisium"][0]
    assert at["insubres"][1] < at["roma"][1] < at["syracuse"][1] < at["theveste"][1]
    assert at["carthago"][1] > at["lilybaeum"][1]  # Africa lies south of Sicily


def test_names_come_in_the_language_asked(hannibal):
    """A front-end shows people names, never ids: Russian from seed 003's terms."""
    en = {s["id"]: s["name"] for s in hannibal.board_map()["spaces"]}
    ru = {s["id"]: s["name"] for s in hannibal.board_map("ru")["spaces"]}
    assert en["roma"] == "Rome" and ru["roma"] == "Рим"
    groups = {g["id"]: g["name"] for g in hannibal.board_map()["groups"]}
    assert groups["gallia_cisalpina"] == "Gallia Cisalpina"


def test_ante_portas_cities_have_a_map():
    """Ante Portas' 21 cities (seed 000 "A térkép": cities, roads, sea routes) with positions
    from their places (RULINGS.md "Map positions") and its roads by kind."""
    pack = load_pack("content/ante_portas")
    the_map = pack.board_map("hu")
    api.structure(the_map, api.BoardMap)
    at = {s["id"]: (s["x"], s["y"]) for s in the_map["spaces"]}
    assert len(at) == 21 and all(0 <= x <= 1000 and 0 <= y <= 1000 for x, y in at.values())
    assert min(math.dist(at[a], at[b]) for a in at for b in at if a < b) >= 20
    assert at["illiberis"][0] < at["taurini"][0] < at["roma"][0] < at["tarentum"][0]
    assert {link["kind"] for link in the_map["links"]} == {"land", "sea"}
    assert all(link["a"] in at and link["b"] in at for link in the_map["links"])
    assert [g["id"] for g in the_map["groups"]] == ["gallia", "cisalpina", "italia"]


def test_a_pack_without_a_map_has_none():
    assert load_pack(STACKGAME).board_map() is None


def test_positions_and_boxes_of_the_test_pack(tmp_path):
    root = drawn(tmp_path, "board:\n  map:\n    places: space\n    position: at\n"
                 "    links: {type: road}\n"
                 "    boxes: [east, reserve, {box: troops, at: [50, 950]}]\n")
    pack = load_pack(root)
    the_map = pack.board_map()
    api.structure(the_map, api.BoardMap)
    assert [(s["id"], s["x"], s["y"], s["group"]) for s in the_map["spaces"]] == [
        ("west", 100, 500, None), ("hill", 500, 200, None), ("ford", 500, 800, None),
        ("east", 900, 500, None)]
    assert the_map["groups"] == []
    assert {(link["a"], link["b"]) for link in the_map["links"]} >= {("west", "hill")}
    assert the_map["boxes"] == [
        {"id": "east", "name": "east", "kind": "place", "x": 900, "y": 500},
        {"id": "reserve", "name": "reserve", "kind": "zone", "x": None, "y": None},
        {"id": "troops", "name": "troops", "kind": "zone", "x": 50, "y": 950}]


MAP = "board:\n  map:\n    places: space\n"


@pytest.mark.parametrize("lines, message, suggestion", [
    ("    position: att\n", "board: space has no field 'att'", "did you mean 'at'?"),
    ("    position: fights\n", "board: field 'fights' of space does not hold a position: "
     "its type is list of int ([x, y])", None),
    ("    boxes: reserve\n", "board: 'boxes' is a list of zones or places (NAME, or "
     "{box: NAME, at: [X, Y]})", None),
    ("    boxes: [reserv]\n", "board: box 'reserv' is no zone of the pack nor a space",
     "did you mean 'reserve'?"),
    ("    boxes: [{box: troop}]\n", "board: box 'troop' is no zone of the pack nor a space",
     "did you mean 'troops'?"),
    ("    boxes: [{box: troops, pos: [1, 2]}]\n",
     "board: boxes: unknown key 'pos' (keys: box, at)", None),
    ("    boxes: [{at: [1, 2]}]\n", "board: a box is NAME, or {box: NAME, at: [X, Y]}", None),
    ("    boxes: [{box: troops, at: [1, 2000]}]\n",
     "board: 'at' is [X, Y], two whole numbers in 0..1000", None),
    ("    positions: at\n", "board: map: unknown key 'positions' (keys: places, group, zones, "
     "count_by, flags, pieces, fields, summary, side_of, links, position, boxes, markers, "
     "moves)", "did you mean 'position'?"),
    # side_of: the side of the records the places' owners (summary) or pieces (count_by) are
    ("    side_of: side\n", "board: 'side_of' is a field of the records that 'summary' or "
     "'count_by' name, and neither names a record", None),
    # markers (vars drawn on the map) and moves (which moves are drawn as arrows)
    ("    markers: [hom]\n", "board: 'hom' is not a var of the pack", "did you mean 'home'?"),
    ("    markers: [turn]\n", "board: marker 'turn' neither names a space (var turn: space?) "
     "nor is true or false per space (var turn[x: space]: bool)", None),
    ("    markers: home\n", "board: 'markers' is a list of names", None),
    ("    moves: turn_of\n", "board: 'moves' is {since: EVENT, count: N}", None),
    ("    moves: {since: turn_off}\n", "board: 'turn_off' is not an event of the pack",
     "did you mean 'turn_of'?"),
    ("    moves: {since: turn_of, count: 0}\n", "board: 'count' is a whole number, 1 or more",
     None),
    ("    moves: {since: turn_of, last: 2}\n", "board: moves: unknown key 'last' (keys: since, "
     "count)", None),
])
def test_a_bad_position_or_box_is_located(tmp_path, lines, message, suggestion):
    found = errors(drawn(tmp_path, MAP + lines))
    assert ("E340", "pack.yaml", 17, message, suggestion) in found, found


def test_markers_and_moves_of_the_test_pack(tmp_path):
    # `home[s: side]: space` is a token per side; the pack checks clean with both keys
    root = drawn(tmp_path, MAP + "    position: at\n    markers: [home]\n"
                 "    moves: {since: turn_of, count: 2}\n")
    assert load_pack(root).board_map() is not None


def test_a_position_off_the_canvas_is_located_at_the_space(tmp_path):
    root = drawn(tmp_path, MAP + "    position: at\n",
                 {**POSITIONS, "hill": [500, 1200], "ford": [7]})
    found = errors(root)
    assert ("E340", "map.yaml", 3, "board: space 'hill': at [500, 1200] is not [X, Y], two "
            "whole numbers in 0..1000", None) in found, found
    assert ("E340", "map.yaml", 4, "board: space 'ford': at [7] is not [X, Y], two whole "
            "numbers in 0..1000", None) in found, found
