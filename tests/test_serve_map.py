"""`GET /api/packs/{pack}/map`: the map a web page draws (issue 31, item 1), the pack's
`board_map(lang)` (engine.core.api.BoardMap), served once per pack rather than in every
view; 404 for a pack not played here or one without a map."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="engine serve needs the serve extra")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from starlette.testclient import TestClient  # noqa: E402

from engine.core import api  # noqa: E402
from engine.core.loader import load_pack  # noqa: E402
from engine.frontends.serve.app import create_app  # noqa: E402

PACKS = Path(__file__).resolve().parent / "packs"


def test_the_map_of_a_pack_in_the_language_asked(tmp_path):
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        r = client.get("/api/packs/hannibal/map?lang=ru")
        assert r.status_code == 200
        the_map = api.structure(r.json(), api.BoardMap)
        assert len(the_map["spaces"]) == 98
        roma = next(s for s in the_map["spaces"] if s["id"] == "roma")
        assert roma["name"] == "Рим" and 0 <= roma["x"] <= 1000 and 0 <= roma["y"] <= 1000
        r = client.get("/api/packs/ante_portas/map")
        cities = {s["id"] for s in r.json()["spaces"]}
        assert len(cities) == 21
        assert all(link["a"] in cities and link["b"] in cities for link in r.json()["links"])


def test_no_map_is_a_404_that_says_why(tmp_path):
    pack = load_pack(PACKS / "choicegame")
    with TestClient(create_app(tmp_path / "games.sqlite3", [pack])) as client:
        r = client.get("/api/packs/choicegame/map")
        assert r.status_code == 404
        assert f"{pack.name} has no map" in r.text
        r = client.get("/api/packs/nothing_here/map")
        assert r.status_code == 404 and "no pack 'nothing_here' to play here" in r.text


# ---- what the page draws with every screen (engine.frontends.serve.mapstate) -------------
from engine.dsl.boardspec import board_spec  # noqa: E402
from engine.frontends.serve.mapstate import (  # noqa: E402
    map_state,
    recent_paths,
    since_event,
    window_start,
)
from engine.i18n.translations import catalog  # noqa: E402


def drawn(game, side: str | None, lang: str = "en") -> dict:
    spec = board_spec(game.pack.meta["board"])["map"]
    return map_state(game.view(side), catalog(game.pack, lang), spec)


def test_each_place_shows_what_stands_there_by_side_and_who_holds_it():
    # seed 002 (Hannibal rules) §3, the set-up: each side's CUs and leaders where printed
    game = load_pack("hannibal").new_game(seed=1)
    shown = drawn(game, "rome")["places"]
    assert len(shown) == 98
    for pid, place in shown.items():
        fields = game.state["f"][pid]
        assert place.get("owner") == fields["pc"]
        on_map = sum(len(game.zone(z, pid)) for z in ("troops", "garrison"))
        leaders = [r for r, f in game.state["f"].items()
                   if f.get("at") == pid and f.get("where") == "map" and "chief" in f]
        on_map += sum(len(game.zone("column", leader)) for leader in leaders)
        labels = [s["label"] for s in place.get("stacks", [])]
        counted = sum(int(label.split()[-1]) for label in labels if label.split()[-1].isdigit())
        assert counted == on_map, (pid, labels)
        assert all(s["side"] in ("rome", "carthage") for s in place.get("stacks", []))
    assert any(s["label"].startswith("Hannibal+") for p in shown.values()
               for s in p.get("stacks", []))
    assert "Rome" in shown["roma"]["text"]


def test_a_place_held_by_a_power_is_drawn_in_its_sides_colour():
    # pack.yaml board `side_of: side`: The Sword of Rome's places are held by powers (research
    # /sword_of_rome.md §8: PC markers are a power's), each played by a side (§2) or by none
    game = load_pack("sword_of_rome").new_game(seed=1)
    shown = drawn(game, "roman")["places"]
    roma = shown["roma"]
    assert roma["owner"] == "roman" and roma["owner_name"] == "Romans"
    assert {s["side"] for s in roma["stacks"]} == {"roman"}
    assert "Romans" in roma["stacks"][0]["title"]  # the tooltip names the power
    assert shown["bovianum"]["owner"] == "etruscan_samnite"  # a power of a shared player
    antium = shown["antium"]  # the Volsci: a non-player power, named but in no side's colour
    assert antium["owner"] is None and antium["owner_name"] == "Volsci"
    assert {s["side"] for s in antium["stacks"]} == {None}


def test_siege_points_are_marks_on_their_place():
    # seed 002 §16.4: siege markers lie on the besieged city
    game = load_pack("hannibal").new_game(seed=1)
    game.state["f"]["capua"].update(siege=2, besieger="carthage")
    assert drawn(game, "rome")["places"]["capua"]["marks"] == [
        "Siege marker 2", "besieged by Carthage"]
    assert "marks" not in drawn(game, "rome")["places"]["neapolis"]


def test_a_secret_target_is_a_token_on_its_owners_map_only():
    # seed 000 (Ante Portas) §5: Carthage's target is secret until revealed
    game = load_pack("ante_portas").new_game(seed=2)
    while game.var("target", "carthage") is None:
        game.apply(game.legal_actions()[0], game.decider)
    mine = {t["var"]: t for t in drawn(game, "carthage")["tokens"]}
    theirs = {t["var"] for t in drawn(game, "rome")["tokens"]}
    assert mine["target"]["at"] == game.var("target", "carthage")
    term = catalog(game.pack, "en").term("target")
    assert mine["target"]["label"] == f"{term} (Carthage)" and mine["target"]["side"] == "carthage"
    assert "hannibal" in mine and "hannibal" in theirs and "target" not in theirs
    assert drawn(game, "carthage", "hu")["tokens"][0]["label"] != "hannibal"  # a name, not an id


def test_the_moves_drawn_are_those_since_the_event_the_pack_names():
    # board `moves: {since: card_play, count: 3}` (content/hannibal/pack.yaml)
    game = load_pack("hannibal").new_game(seed=1)
    spec = board_spec(game.pack.meta["board"])["map"]
    cat = catalog(game.pack, "en")
    log = [{"t": "setf", "e": "hannibal", "f": "at", "v": "new_carthage"},
           {"t": "event", "n": "card_play", "a": ["carthage", None]},
           {"t": "setf", "e": "hannibal", "f": "at", "v": "saguntum"},
           {"t": "event", "n": "card_play", "a": ["rome", None]},
           {"t": "setf", "e": "fabius", "f": "at", "v": "roma"},
           {"t": "event", "n": "card_play", "a": ["carthage", None]},
           {"t": "setf", "e": "hannibal", "f": "at", "v": "dertosa"},
           {"t": "setf", "e": "hannibal", "f": "inside", "v": True},
           {"t": "event", "n": "card_play", "a": ["rome", None]}]
    assert since_event(log, "card_play", 3) == 3 and since_event(log, "card_play", 9) == 0
    places = set(game.pack.model.by_type["space"])
    paths = recent_paths({"log": log, "side": "rome"}, cat, spec, places)
    # Hannibal from where he stood when the window opened; Fabius's first place is not a move
    assert paths == [{"places": ["saguntum", "dertosa"], "side": "carthage",
                      "label": "Hannibal"}]


def test_without_moves_the_window_opens_where_the_side_last_waited():
    # a pack without `moves:`: the side's own answers since another side's, and that side's
    choice = [{"t": "choice", "side": s} for s in ("red", "red", "blue", "blue", "red")]
    log = [choice[0], {"t": "say"}, choice[1], choice[2], {"t": "say"}, choice[3], choice[4]]
    assert window_start(log, "red") == 3  # after red's last answer before blue's
    assert window_start(log, "blue") == 6  # blue: after its own last, red answered since
    assert window_start(log, None) == 3  # a spectator: as red, who answered last
    assert window_start(log[:2], "red") == 0  # nobody else answered yet: the whole log
