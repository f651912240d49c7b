"""`engine serve` over HTTP and WebSockets (Starlette's TestClient): a whole game against
the bot, bad requests refused with a 4xx and a message and the game unchanged, each socket
shown only its side's view, games kept in the database across a restart, many games at once.
(The database, its transactions and its signatures: test_serve_store.py; exactly-once
answers, limits and hostile requests: test_serve_requests.py.)"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette", reason="engine serve needs the serve extra")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from serve_client import PACK, bearer, two_people  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from engine.core.loader import load_pack  # noqa: E402
from engine.frontends.serve.app import create_app  # noqa: E402
from engine.frontends.serve.signing import load_or_make_key  # noqa: E402
from engine.frontends.serve.store import open_store  # noqa: E402
from engine.frontends.serve.tables import Tables  # noqa: E402
from engine.i18n.translations import catalog  # noqa: E402

REPO = Path(__file__).resolve().parent.parent



@pytest.fixture
def client(tmp_path: Path):
    with TestClient(create_app(tmp_path / "games.sqlite3")) as c:
        yield c



def wait_for_turn(client: TestClient, game: str, token: str, seconds: float = 60
                  ) -> dict[str, Any]:
    """The screen once the bots have moved: the token's side decides, or the game is over."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        got = client.get(f"/api/games/{game}", headers=bearer(token)).json()
        d = got["screen"]["decision"]
        if got["screen"]["result"] or (d and d["mine"]):
            return got
        time.sleep(0.02)
    raise AssertionError("the bot did not move")


def test_a_person_plays_a_whole_game_against_the_greedy_bot(client, tmp_path):
    r = client.post("/api/games", json={"pack": PACK, "seed": 3, "bots": {"rome": "greedy"},
                                        "join": "carthage"})
    assert r.status_code == 201
    game, token = r.json()["game"], r.json()["token"]
    assert r.json()["seats"] == {"carthage": "person", "rome": "greedy"}
    moves = 0
    while True:
        got = wait_for_turn(client, game, token)
        screen = got["screen"]
        if screen["result"]:
            break
        d = screen["decision"]
        assert d["prompt"].startswith("Carthage")
        r = client.post(f"/api/games/{game}/act", headers=bearer(token),
                        json={"decision": d["id"], "action": d["options"][-1]["action"]})
        assert r.status_code == 200, r.json()
        moves += 1
    assert moves > 5
    assert screen["result"].startswith("result: ") and got["view"]["result"]["winner"]
    assert screen["log"][-1].startswith("game over")
    tables = client.app.state.tables
    row = tables.store.read(game)
    assert json.loads(row.save)["actions"] == tables.get(game).game.actions
    moved = [json.loads(m.action) for m in tables.store.moves(game)]
    assert moved == tables.get(game).game.actions
    assert token not in json.dumps(attrs.asdict(row))  # only the token's hash is kept


def test_the_screen_is_names_in_the_language_asked(client):
    game, tokens = two_people(client)
    en = client.get(f"/api/games/{game}", headers=bearer(tokens["carthage"])).json()["screen"]
    hu = client.get(f"/api/games/{game}?lang=hu",
                    headers=bearer(tokens["carthage"])).json()["screen"]
    hand = client.app.state.tables.get(game).game.zone("hand", "carthage")
    text = json.dumps([en["board"], en["decision"]["prompt"],
                       [o["label"] for o in en["decision"]["options"]]])
    assert not any(card in text for card in hand)  # names, never ids
    assert en["board"][0]["head"] == "board:" and hu["board"][0]["head"] == "tábla:"
    assert hu["decision"]["prompt"].startswith("Karthágó")
    assert hu["words"]["log"] != en["words"]["log"]
    # the options carry the cards' values (the board's `show:` fields)
    assert "march" in en["decision"]["options"][0]["label"]


def snapshot(client: TestClient, tmp_path: Path, game: str) -> tuple[Any, ...]:
    """The game in memory and as stored (its row and its moves)."""
    tables = client.app.state.tables
    row = tables.store.read(game)
    return (tables.get(game).game.save(), row.save, row.tokens, row.moves,
            tables.store.moves(game))


def test_bad_requests_get_a_4xx_with_a_clear_message_and_change_nothing(client, tmp_path):
    game, tokens = two_people(client)
    d = client.get(f"/api/games/{game}", headers=bearer(tokens["carthage"])).json()["screen"][
        "decision"]
    good = {"decision": d["id"], "action": d["options"][0]["action"]}
    before = snapshot(client, tmp_path, game)
    act = f"/api/games/{game}/act"
    cases = [
        ("unknown game", "post", "/api/games/0123456789abcdef/act", good,
         tokens["carthage"], 404, "no game"),
        ("an id that is a path", "get", "/api/games/..%2F..%2Fetc", None, None, 404,
         "Not Found"),
        ("an id that is no id", "get", "/api/games/..etc", None, None, 404, "no game"),
        ("wrong token", "post", act, good, "not-a-token", 403, "belongs to no side"),
        ("no token", "post", act, good, None, 401, "seat token"),
        ("stale decision", "post", act, {**good, "decision": d["id"] - 1},
         tokens["carthage"], 409, "answered already"),
        ("future decision", "post", act, {**good, "decision": d["id"] + 5},
         tokens["carthage"], 409, "has not been asked"),
        ("the other side's turn", "post", act, good, tokens["rome"], 409,
         "it is carthage's decision, not rome's"),
        ("illegal action", "post", act, {**good, "action": "card_99"}, tokens["carthage"],
         422, "'card_99' is not one of"),
        ("decision not a number", "post", act, {**good, "decision": "one"},
         tokens["carthage"], 400, "the id of the decision you answer"),
        ("decision null", "post", act, {**good, "decision": None},
         tokens["carthage"], 400, "the id of the decision you answer"),
        ("decision missing", "post", act, {"action": good["action"]},
         tokens["carthage"], 400, "the id of the decision you answer"),
        ("missing action", "post", act, {"decision": d["id"]}, tokens["carthage"], 400,
         "\"action\""),
        ("body not an object", "post", act, [1, 2], tokens["carthage"], 400, "JSON object"),
        ("join a taken seat", "post", f"/api/games/{game}/join", {"side": "rome"}, None, 409,
         "rome's seat is taken"),
        ("join no side", "post", f"/api/games/{game}/join", {"side": "gaul"}, None, 400,
         "not a side"),
        ("bad language", "get", f"/api/games/{game}?lang=../x", None, None, 400,
         "language code"),
        ("unknown route", "get", "/api/nothing", None, None, 404, "Not Found"),
    ]
    for what, method, url, body, token, status, words in cases:
        kwargs: dict[str, Any] = {"headers": bearer(token) if token else {}}
        if body is not None:
            kwargs["json"] = body
        r = getattr(client, method)(url, **kwargs)
        assert r.status_code == status, (what, r.status_code, r.text)
        assert words in r.json()["error"], (what, r.json())
        assert snapshot(client, tmp_path, game) == before, what
    r = client.post(act, headers={**bearer(tokens["carthage"]),
                                  "Content-Type": "application/json"}, content=b"{not json")
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    r = client.post(act, headers={"Authorization": "Basic abc"}, json=good)
    assert r.status_code == 401 and "Bearer" in r.json()["error"]
    # a refusal in the language asked (IllegalAction.text)
    r = client.post(f"{act}?lang=hu", headers=bearer(tokens["rome"]), json=good)
    assert r.status_code == 409 and r.json()["error"] != "it is carthage's decision, not rome's"
    assert r.json()["rule"] == "side"
    assert snapshot(client, tmp_path, game) == before
    # and the good request still works afterwards
    assert client.post(act, headers=bearer(tokens["carthage"]), json=good).status_code == 200


def test_creating_a_game_refuses_what_is_not_a_game(client, tmp_path):
    for body, status, words in [
        ({"pack": "../content/ante_portas"}, 404, "no pack"),
        ({"pack": PACK, "seed": -1}, 400, "seed"),
        ({"pack": PACK, "seed": "7"}, 400, "seed"),
        ({"pack": PACK, "bots": {"rome": "clever"}}, 400, "not a bot"),
        ({"pack": PACK, "bots": {"gaul": "greedy"}}, 400, "not a side"),
        ({"pack": PACK, "bots": ["rome"]}, 400, "bots maps sides"),
        ({"pack": PACK, "bots": {"rome": "greedy"}, "join": "rome"}, 409, "bot"),
        ({"pack": PACK, "join": "gaul"}, 400, "not a side"),
    ]:
        r = client.post("/api/games", json=body)
        assert r.status_code == status and words in r.json()["error"], (body, r.json())
    assert client.app.state.tables.store.game_ids() == []  # no game was made


def test_each_socket_is_shown_only_its_sides_view(client):
    game, tokens = two_people(client)
    hosted = client.app.state.tables.get(game).game
    hand, pack = hosted.zone("hand", "carthage"), hosted.pack
    base = f"/api/games/{game}/ws"
    with client.websocket_connect(f"{base}?token={tokens['carthage']}") as carthage, \
            client.websocket_connect(f"{base}?token={tokens['rome']}&lang=hu") as rome, \
            client.websocket_connect(base) as spectator:
        first = {"carthage": carthage.receive_json(), "rome": rome.receive_json(),
                 None: spectator.receive_json()}
        for side, got in first.items():
            assert got["view"]["side"] == side and got["screen"]["side"] == side
        assert first["rome"]["screen"]["decision"]["mine"] is False
        for seen, lang in ((first["rome"], "hu"), (first[None], "en")):
            assert isinstance(seen["view"]["zones"]["hand|carthage"], dict)  # counted only
            text = json.dumps(seen["screen"], ensure_ascii=False)
            assert not any(catalog(pack, lang).name(card) in text for card in hand)
        d = first["carthage"]["screen"]["decision"]
        r = client.post(f"/api/games/{game}/act", headers=bearer(tokens["carthage"]),
                        json={"decision": d["id"], "action": d["options"][0]["action"]})
        assert r.status_code == 200
        for sock, side in ((carthage, "carthage"), (rome, "rome"), (spectator, None)):
            pushed = sock.receive_json()
            assert pushed["view"]["side"] == side
            assert pushed["screen"]["decisions"] == first[side]["screen"]["decisions"] + 1
    with client.websocket_connect(f"{base}?token=wrong") as refused:
        assert "belongs to no side" in refused.receive_json()["error"]


def test_games_survive_a_restart_and_many_games_share_a_server(tmp_path):
    games = tmp_path / "games.sqlite3"
    with TestClient(create_app(games)) as client:
        first, tokens = two_people(client, seed=1)
        other, other_tokens = two_people(client, seed=2)
        for _ in range(3):  # a few moves in the first game only
            for side in ("carthage", "rome"):
                s = client.get(f"/api/games/{first}", headers=bearer(tokens[side])).json()
                d = s["screen"]["decision"]
                if d["mine"]:
                    answer = {"decision": d["id"], "action": d["options"][0]["action"]}
                    r = client.post(f"/api/games/{first}/act", headers=bearer(tokens[side]),
                                    json=answer)
                    assert r.status_code == 200
        views = {side: client.get(f"/api/games/{first}", headers=bearer(t)).json()
                 for side, t in tokens.items()}
        untouched = client.get(f"/api/games/{other}",
                               headers=bearer(other_tokens["carthage"])).json()
    assert views["carthage"]["view"]["decisions"] > 0
    assert untouched["view"]["decisions"] == 0
    with TestClient(create_app(games)) as client:  # a new server on the same directory
        for side, t in tokens.items():
            assert client.get(f"/api/games/{first}", headers=bearer(t)).json() == views[side]
        again = client.get(f"/api/games/{other}", headers=bearer(other_tokens["carthage"]))
        assert again.json() == untouched
        decider = views["carthage"]["view"]["decision"]["side"]
        d = views[decider]["screen"]["decision"]
        r = client.post(f"/api/games/{first}/act", headers=bearer(tokens[decider]),
                        json={"decision": d["id"], "action": d["options"][0]["action"]})
        assert r.status_code == 200


def test_a_bot_whose_turn_it_was_plays_on_after_a_restart(tmp_path):
    games = tmp_path / "games.sqlite3"
    with TestClient(create_app(games)) as client:
        game, tokens = two_people(client, seed=9)
        screen = client.get(f"/api/games/{game}", headers=bearer(tokens["carthage"])).json()
        while screen["view"]["decision"]["side"] == "carthage":  # up to Rome's first decision
            d = screen["screen"]["decision"]
            r = client.post(f"/api/games/{game}/act", headers=bearer(tokens["carthage"]),
                            json={"decision": d["id"], "action": d["options"][0]["action"]})
            screen = r.json()
        waiting = screen["view"]["decisions"]
    # the server stopped with Rome to move; Rome's seat is given to the bot meanwhile, by
    # the server's own code (a row changed otherwise would fail its signature)
    tables = Tables(open_store(games), load_or_make_key(f"{games}.key"))
    table = tables.get(game)
    table.seats["rome"] = "greedy"
    del table.tokens["rome"]
    tables.store.update(table.row(tables.key))
    tables.store.close()
    with TestClient(create_app(games)) as client:
        got = wait_for_turn(client, game, tokens["carthage"])
        assert got["view"]["decisions"] > waiting
        assert got["screen"]["seats"][1]["seat_name"] == "the greedy bot"


def test_choices_with_too_many_answers_to_list_are_ticked_and_ordered(tmp_path):
    pack = load_pack(REPO / "tests" / "packs" / "choicegame")
    with TestClient(create_app(tmp_path / "games.sqlite3", [pack])) as client:
        assert "choicegame" in [p["pack"] for p in client.get("/api/packs").json()["packs"]]
        r = client.post("/api/games", json={"pack": "choicegame", "seed": 1, "join": "red"})
        game, token = r.json()["game"], r.json()["token"]
        d = client.get(f"/api/games/{game}", headers=bearer(token)).json()["screen"][
            "decision"]
        assert (d["mode"], d["min"], d["max"], len(d["options"])) == ("many", 2, 5, 10)
        assert d["options"][2] == {"label": "Coin", "action": "t3"}
        r = client.post(f"/api/games/{game}/act", headers=bearer(token),
                        json={"decision": d["id"], "action": ["t9", "t10"]})
        d = r.json()["screen"]["decision"]
        assert d["mode"] == "order" and [o["label"] for o in d["options"]][:2] == [
            "Acorn", "Bell"]
        r = client.post(f"/api/games/{game}/act", headers=bearer(token),
                        json={"decision": d["id"], "action": ["t1"]})
        assert r.status_code == 422 and "order all of" in r.json()["error"]
        order = [o["action"] for o in reversed(d["options"])]
        r = client.post(f"/api/games/{game}/act", headers=bearer(token),
                        json={"decision": d["id"], "action": order})
        assert r.json()["view"]["result"]["winner"] == "red"
        assert r.json()["screen"]["result"].startswith("result: red wins")


def test_engine_help_does_not_import_the_server():
    code = ("import sys; from engine.frontends.cli import main; main(['--help']); "
            "assert not any(m.split('.')[0] in ('starlette', 'uvicorn') for m in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                         text=True, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert "serve" in out.stdout


def test_a_shipped_data_pack_is_no_game_to_create(tmp_path, monkeypatch):
    """A data pack (`playable: false`) among the shipped packs: nothing to play."""
    from test_data_packs import data_pack
    monkeypatch.setenv("ENGINE_CONTENT", str(tmp_path / "content"))
    data_pack(tmp_path / "content" / "atlas")
    with TestClient(create_app(tmp_path / "games.sqlite3")) as c:
        r = c.post("/api/games", json={"pack": "atlas"})
        assert r.status_code == 404 and "no pack" in r.json()["error"], r.json()
        assert c.app.state.tables.store.game_ids() == []


def test_engine_serve_refuses_a_pack_it_cannot_offer(tmp_path, capsys):
    from test_data_packs import data_pack

    from engine.frontends.cli import main
    db = str(tmp_path / "games.sqlite3")
    assert main(["serve", "--pack", str(tmp_path / "nowhere"), "--db", db]) == 2
    assert main(["serve", "--pack", str(data_pack(tmp_path / "atlas")), "--db", db]) == 2
    err = capsys.readouterr().err
    assert "engine serve: error:" in err and "data pack" in err


def test_a_program_may_ask_for_the_view_alone(client):
    game, tokens = two_people(client)
    got = client.get(f"/api/games/{game}?screen=0", headers=bearer(tokens["carthage"])).json()
    assert list(got) == ["view"] and got["view"]["side"] == "carthage"
    d = got["view"]["decision"]
    r = client.post(f"/api/games/{game}/act?screen=0", headers=bearer(tokens["carthage"]),
                    json={"decision": d["id"], "action": got["view"]["legal_actions"][0]})
    assert r.status_code == 200 and list(r.json()) == ["view"]
    assert r.json()["view"]["decisions"] == 1
    full = client.get(f"/api/games/{game}", headers=bearer(tokens["carthage"])).json()
    assert full["view"] == r.json()["view"] and "screen" in full


def test_engine_serve_refuses_limits_that_are_no_limits(tmp_path, capsys):
    from engine.frontends.cli import main
    db = str(tmp_path / "games.sqlite3")
    assert main(["serve", "--db", db, "--create-rate", "fast"]) == 2
    assert main(["serve", "--db", db, "--max-loaded", "0"]) == 2
    err = capsys.readouterr().err
    assert "'fast' is not a rate like 20/60" in err and "--max-loaded is at least 1" in err


def test_a_screen_said_from_the_kept_sentences_is_the_one_said_afresh():
    """Table.said keeps each log entry's text (engine.frontends.terminal.log_lines): the screens
    of a whole game, both sides', equal those made with nothing kept."""
    import random

    from engine.frontends.serve.present import screen
    from engine.frontends.serve.table import Table
    pack = load_pack(PACK)
    game = pack.new_game(4, undo=False)
    table = Table("0" * 16, PACK, game, dict.fromkeys(pack.sides, "person"), "hu", 0.0)
    rnd = random.Random(4)
    while not game.over:
        for side in pack.sides:
            kept = screen(table, side, "hu")
            afresh = screen(attrs.evolve(table, said={}), side, "hu")
            assert kept == afresh
        game.apply(game.random_action(rnd))
    assert table.said["hu"]
