"""The Sword of Rome, 5-player module: the western theatre's map as data (issue 33, first
piece). Sicily, southern Italy and Africa in content/sword_of_rome/map.yaml (regions, spaces,
the Garrison Box) and connections.yaml (land, rough, strait and sea lines), drawn through
pack.yaml `board: map:` (content/sword_of_rome/MAP.md says how each fact was set and how the
positions were projected).
"""
from __future__ import annotations

import math
import re
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
import yaml

from engine import load_pack
from engine.core import api

ROOT = Path(__file__).resolve().parent.parent
DIR = ROOT / "content" / "sword_of_rome"
PACK = load_pack(DIR)
R = PACK.records
SPACES = PACK.model.by_type["space"]
LINKS = PACK.model.by_type["connection"]
ON_MAP = [s for s in SPACES if R[s].get("box") is None]

# MAP.md "Positions": the projection
LON0, LAT0, K, PHI = 8.5, 42.3, 85.0, 38.8


def project(lat: float, lon: float) -> tuple[float, float]:
    return 30 + (lon - LON0) * K, 30 + (LAT0 - lat) * K / math.cos(math.radians(PHI))


def ends(lid: str) -> tuple[str, str]:
    return R[lid]["a"], R[lid]["b"]


def kind(lid: str) -> str:
    return R[lid].get("kind") or "land"


def test_a_playable_pack_with_provenance_required():
    meta = yaml.safe_load((DIR / "pack.yaml").read_text(encoding="utf-8"))
    assert meta["playable"] is True
    assert meta["provenance"] == "required"


def test_the_theatre_has_its_spaces():
    """Issue 33: 25-40 spaces of Sicily, southern Italy and Africa, the places it names among
    them; every space on the map lies in a region, the Garrison Box in none."""
    assert 25 <= len(ON_MAP) <= 40
    for sid in ("syracusae", "messana", "lilybaeum", "panormus", "akragas", "carthago",
                "kerkouane", "tarentum", "neapolis", "rhegium", "capua", "roma", "antium"):
        assert sid in SPACES, sid
    regions = Counter(R[s]["region"] for s in ON_MAP)
    assert set(regions) == set(PACK.model.by_type["region"])
    assert regions["sicilia"] >= 10 and regions["africa"] >= 5
    assert R["garrison_box_space"].get("region") is None


def test_every_space_lies_on_the_canvas_apart():
    """MAP.md "Positions": every space (the Garrison Box too) has [x, y] in 0..1000, and no two
    are closer than 20 units."""
    the_map = PACK.board_map()
    api.structure(the_map, api.BoardMap)
    pts = {s["id"]: (s["x"], s["y"]) for s in the_map["spaces"]}
    assert sorted(pts) == sorted(SPACES)
    for sid, (x, y) in pts.items():
        assert isinstance(x, int) and isinstance(y, int) and 0 <= x <= 1000 >= y >= 0, sid
    for a, b in combinations(pts, 2):
        assert math.dist(pts[a], pts[b]) >= 20, (a, b, math.dist(pts[a], pts[b]))


def test_positions_are_the_projected_places():
    """Each space's line in map.yaml gives the latitude and longitude it was projected from
    and how far it was moved off a neighbour; the position is that projection, within the
    move (and rounding)."""
    said = {}
    for line in (DIR / "map.yaml").read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*- \{id: (\w+),.*# reconstructed: position from ([\d.]+)°N "
                     r"([\d.]+)°E projected \(MAP\.md\)(?:, moved (\d+) off a neighbour)?$", line)
        if m:
            said[m[1]] = (float(m[2]), float(m[3]), int(m[4] or 0))
    assert sorted(said) == sorted(ON_MAP)
    moved = []
    for sid, (lat, lon, by) in said.items():
        x, y = project(lat, lon)
        assert math.dist((x, y), R[sid]["position"]) <= by + 1, sid
        if by:
            moved.append(sid)
    assert sorted(moved) == ["carthago", "cumae", "messana", "neapolis", "rhegium", "tunes"]


def test_every_connection_joins_two_spaces_once():
    pairs = Counter()
    for lid in LINKS:
        a, b = ends(lid)
        assert a in SPACES and b in SPACES and a != b, lid
        assert kind(lid) in ("land", "rough", "strait", "sea"), lid
        pairs[(frozenset((a, b)), kind(lid) == "sea")] += 1
    assert max(pairs.values()) == 1


def test_the_strait_of_messina():
    straits = [ends(lid) for lid in LINKS if kind(lid) == "strait"]
    assert [set(p) for p in straits] == [{"messana", "rhegium"}]


def test_sea_lanes_join_ports_and_every_port_has_one():
    """A naval move goes port to port (research §10): each sea lane joins two ports (or
    Carthago and the Garrison Box, seed 001 §19), and every port has at least one lane."""
    ports = {s for s in SPACES if R[s].get("port")}
    lanes = [ends(lid) for lid in LINKS if kind(lid) == "sea"]
    for a, b in lanes:
        assert {a, b} <= ports | {"garrison_box_space"}, (a, b)
    laned = {s for pair in lanes for s in pair}
    assert ports <= laned, sorted(ports - laned)
    # land lines never touch the off-map box
    for lid in LINKS:
        if kind(lid) != "sea":
            assert "garrison_box_space" not in ends(lid), lid


def test_the_map_is_connected():
    """Every space can be reached from Roma along the lines (land and sea); Sicily, Italy
    and Africa are each connected by land alone."""
    def reach(start: str, kinds: set[str]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            s = todo.pop()
            for lid in LINKS:
                a, b = ends(lid)
                if kind(lid) in kinds and s in (a, b):
                    o = b if s == a else a
                    if o not in seen:
                        seen.add(o)
                        todo.append(o)
        return seen
    assert reach("roma", {"land", "rough", "strait", "sea"}) == set(SPACES)
    land = {"land", "rough"}
    assert reach("syracusae", land) == {s for s in ON_MAP if R[s]["region"] == "sicilia"}
    italy = {s for s in ON_MAP if R[R[s]["region"]]["italy"]}
    assert reach("roma", land) == italy
    assert reach("carthago", land) == {s for s in ON_MAP if R[s]["region"] == "africa"}


def test_the_garrison_box_is_an_off_map_box():
    """Seed 001 §19: the Garrison Box is off the map, reached only by sea (from Carthago in
    the examples); pack.yaml draws it as a box, a place of the map."""
    box = R["garrison_box_space"]
    assert box["box"] == "carthaginian_garrison_box"
    assert R["carthaginian_garrison_box"]["naval_only"] is True
    assert box["position"][1] > max(R[s]["position"][1] for s in ON_MAP) + 50
    boxes = PACK.board_map("en")["boxes"]
    assert boxes == [{"id": "garrison_box_space", "name": "Garrison Box", "kind": "place",
                      "x": box["position"][0], "y": box["position"][1]}]
    assert [set(ends(lid)) for lid in LINKS if "garrison_box_space" in ends(lid)] == [
        {"carthago", "garrison_box_space"}]


def test_facts_from_the_sources():
    """What seed 001 and research/sword_of_rome.md say of the places: Neapolis is a Greek home
    space (seed 001 glossary "Домашний"); the reinforcement cities (research §11) are homes of
    their powers; Carthago, Kerkouane, Syracusae and Lilybaeum are ports (research §3, §9,
    §10); Roma and Capua are joined through Antium (seed 001 §21.2 #12)."""
    assert R["neapolis"]["home"] == "greeks"
    for sid, power in (("syracusae", "greeks"), ("messana", "greeks"), ("tarentum", "greeks"),
                       ("neapolis", "greeks"), ("roma", "romans"), ("antium", "volsci"),
                       ("bovianum", "samnites"), ("carthago", "carthaginians")):
        assert R[sid]["home"] == power and R[sid]["walled"], sid
    for sid in ("carthago", "kerkouane", "syracusae", "lilybaeum"):
        assert R[sid]["port"], sid
    land = {frozenset(ends(lid)) for lid in LINKS if kind(lid) != "sea"}
    assert {frozenset(("roma", "antium")), frozenset(("antium", "capua"))} <= land
    assert frozenset(("roma", "capua")) not in land
    # Carthage's hand grows with its Sicilian ports (seed 001 §20.2): it holds some at home
    assert [s for s in ON_MAP if R[s]["region"] == "sicilia" and R[s].get("port")
            and R[s].get("home") == "carthaginians"]


def test_loyalty_belongs_to_walled_cities():
    """Research §8: a walled city's loyalty is 1-3, an independent city's always 1; only
    walled cities have one."""
    for sid in SPACES:
        rec = R[sid]
        if rec.get("walled"):
            assert rec.get("loyalty") in (1, 2, 3), sid
            if rec.get("home") is None:
                assert rec["loyalty"] == 1, sid
        else:
            assert rec.get("loyalty") is None, sid
    assert {s for s in SPACES if R[s].get("home") is not None} >= {"roma", "carthago"}
    # the five sides' homes in the theatre: no Gallic or Etruscan space lies this far south
    homes = {R[R[s]["home"]]["side"] for s in SPACES if R[s].get("home")
             if R[R[s]["home"]].get("side")}
    assert homes == {"roman", "greek", "carthaginian", "etruscan_samnite"}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_board_map_names_everything(lang):
    """`pack.board_map(lang)` names every space, region, box and connection kind in English
    and Russian (content/translations/sword_of_rome.{en,ru}.yaml), none by its id."""
    the_map = PACK.board_map(lang)
    api.structure(the_map, api.BoardMap)
    named = [*the_map["spaces"], *the_map["groups"], *the_map["boxes"]]
    assert len(the_map["spaces"]) == len(SPACES) and len(the_map["links"]) == len(LINKS)
    for item in named:
        assert item["name"] and item["name"] != item["id"], item
        if lang == "ru":
            assert re.search("[а-яА-Я]", item["name"]), item
    for link in the_map["links"]:
        assert link["kind_name"] and link["kind_name"] != link["kind"], link
        a, b = PACK.name_of(link["a"], lang), PACK.name_of(link["b"], lang)
        assert PACK.name_of(link["id"], lang) == f"{a} – {b}"
    names = {s["id"]: s["name"] for s in the_map["spaces"]}
    if lang == "ru":
        assert names["neapolis"] == "Неаполь"  # seed 001 glossary "Домашний"
        assert names["garrison_box_space"] == "Поле Гарнизона"  # seed 001 §19
        assert names["carthago"] == "Карфаген"
    else:
        assert names["syracusae"] == "Syracusae" and names["carthago"] == "Carthago"


def test_every_map_record_has_provenance():
    """`provenance: required`: every region, space and connection cites a source or says how
    it was reconstructed; those the sources do not name say so (reconstructed)."""
    for rid in [*PACK.model.by_type["region"], *SPACES, *LINKS]:
        rec = R[rid]
        assert rec.get("source") or rec.get("reconstructed"), rid
    sourced = {s for s in SPACES if R[s].get("source")}
    assert {"syracusae", "messana", "lilybaeum", "tarentum", "neapolis", "carthago",
            "kerkouane", "roma", "antium", "capua", "bovianum", "garrison_box_space"} == sourced
    # the VP spaces of the 5-player map are not named by any source: every vp is reconstructed
    for sid in SPACES:
        if R[sid].get("vp"):
            assert "VP" in R[sid]["reconstructed"], sid
