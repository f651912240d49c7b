"""`engine serve` against a client that resends, a database that fails, an anonymous flood and
hostile requests (issue 29): every answer is made once and acknowledged only once stored; a
failed write leaves no move behind; idle games leave memory; limits answer 429 with
Retry-After; bad input is a 4xx with a message, never a 500; pages of other sites are
refused."""
from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="engine serve needs the serve extra")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from serve_client import PACK, bearer, two_people  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from engine.frontends.serve.app import create_app  # noqa: E402
from engine.frontends.serve.limits import Rate, RateLimit  # noqa: E402
from engine.frontends.serve.signing import sign  # noqa: E402
from engine.frontends.serve.store import GameRow, StorageError  # noqa: E402
from engine.frontends.serve.table import signed_fields  # noqa: E402
from engine.frontends.serve.tables import ServerLimits  # noqa: E402


def make_client(tmp_path: Path, **kw: Any) -> TestClient:
    return TestClient(create_app(tmp_path / "games.sqlite3", **kw))


@pytest.fixture
def client(tmp_path: Path):
    with make_client(tmp_path) as c:
        yield c



def asked(client: TestClient, game: str, tokens: dict[str, str]) -> tuple[str, dict[str, Any]]:
    """The side that decides now and its decision (as the page is shown it)."""
    side = client.get(f"/api/games/{game}").json()["view"]["decision"]["side"]
    d = client.get(f"/api/games/{game}", headers=bearer(tokens[side])).json()["screen"]["decision"]
    return side, d


def stored(client: TestClient, game: str) -> tuple[Any, ...]:
    tables = client.app.state.tables
    row = tables.store.read(game)
    return row.save, row.moves, [m.action for m in tables.store.moves(game)]


# ---- 1. an answer sent again is made once -------------------------------------------------------
def test_an_action_without_its_decision_id_is_refused_and_applies_nothing(client):
    game, tokens = two_people(client)
    side, d = asked(client, game, tokens)
    before = stored(client, game)
    for body in ({"decision": None, "action": d["options"][0]["action"]},
                 {"action": d["options"][0]["action"]}):
        for _ in range(2):  # sent twice: refused twice, nothing applied
            r = client.post(f"/api/games/{game}/act", headers=bearer(tokens[side]), json=body)
            assert r.status_code == 400, r.text
            assert "the id of the decision you answer" in r.json()["error"]
    assert stored(client, game) == before


def test_the_same_answer_sent_again_is_acknowledged_and_made_once(client):
    game, tokens = two_people(client)
    side, d = asked(client, game, tokens)
    body = {"decision": d["id"], "action": d["options"][0]["action"]}
    first = client.post(f"/api/games/{game}/act", headers=bearer(tokens[side]), json=body)
    assert first.status_code == 200 and "repeated" not in first.json()
    moves = stored(client, game)[1]
    again = client.post(f"/api/games/{game}/act", headers=bearer(tokens[side]), json=body)
    assert again.status_code == 200 and again.json()["repeated"] is True
    assert again.json()["view"] == first.json()["view"]
    assert stored(client, game)[1] == moves == 1
    # another answer to the decision answered: stale, refused
    if len(d["options"]) > 1:
        other = {"decision": d["id"], "action": d["options"][1]["action"]}
        r = client.post(f"/api/games/{game}/act", headers=bearer(tokens[side]), json=other)
        assert r.status_code == 409 and "answered already" in r.json()["error"]
    # the same answer from the other side's seat is not the same request
    other_side = next(s for s in tokens if s != side)
    r = client.post(f"/api/games/{game}/act", headers=bearer(tokens[other_side]), json=body)
    assert r.status_code == 409
    assert stored(client, game)[1] == 1


# ---- 2. a failed write keeps no move ------------------------------------------------------------
def failing(monkeypatch: pytest.MonkeyPatch, store: Any, method: str) -> list[int]:
    """Make `store.method` fail like a full disk while the returned list is non-empty."""
    real = getattr(store, method)
    fail = [1]

    def write(*args: Any, **kw: Any) -> Any:
        if fail:
            raise StorageError("database or disk is full")
        return real(*args, **kw)

    monkeypatch.setattr(store, method, write)
    return fail


def test_a_move_whose_write_fails_is_not_made_and_can_be_sent_again(client, monkeypatch,
                                                                     tmp_path):
    game, tokens = two_people(client)
    side, d = asked(client, game, tokens)
    tables = client.app.state.tables
    in_memory, in_db = tables.get(game).game.save(), stored(client, game)
    fail = failing(monkeypatch, tables.store, "record_move")
    body = {"decision": d["id"], "action": d["options"][0]["action"]}
    r = client.post(f"/api/games/{game}/act", headers=bearer(tokens[side]), json=body)
    assert r.status_code == 503 and r.headers["retry-after"] == "1"
    assert "nothing changed, send it again" in r.json()["error"] and r.json()["rule"] == "storage"
    assert tables.get(game).game.save() == in_memory and stored(client, game) == in_db
    shown = client.get(f"/api/games/{game}", headers=bearer(tokens[side])).json()
    assert shown["screen"]["decision"]["id"] == d["id"]  # still asked, not a move ahead
    fail.clear()  # the disk has room again: the retry is made
    r = client.post(f"/api/games/{game}/act", headers=bearer(tokens[side]), json=body)
    assert r.status_code == 200 and "repeated" not in r.json()
    assert stored(client, game)[1] == 1
    # and it is there after a restart
    client.app.state.tables.store.close()
    with make_client(tmp_path) as again:
        assert again.app.state.tables.get(game).game.actions == [body["action"]]


def test_a_bot_move_whose_write_fails_is_not_kept(tmp_path, monkeypatch):
    with make_client(tmp_path) as client:
        tables = client.app.state.tables
        fail = failing(monkeypatch, tables.store, "record_move")
        r = client.post("/api/games", json={"pack": PACK, "seed": 2, "join": "rome",
                                            "bots": {"carthage": "random"}})
        game = r.json()["game"]
        deadline = time.monotonic() + 30
        while tables.get(game).bot_task is None or not tables.get(game).bot_task.done():
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert tables.get(game).game.actions == [] and stored(client, game)[1] == 0
        fail.clear()
        # the next request wakes the bot, which plays on and stores its moves
        while client.get(f"/api/games/{game}").json()["view"]["decision"]["side"] != "rome":
            assert time.monotonic() < deadline
            time.sleep(0.01)
        game_now = tables.get(game).game
        assert stored(client, game)[1] == len(game_now.actions) > 0


def test_two_servers_on_one_database_never_both_store_a_move(tmp_path):
    """A second copy of a game (another server, or a table read again) that is behind gets
    409 and nothing is stored twice; read again, it plays on."""
    with make_client(tmp_path) as a, make_client(tmp_path) as b:
        game, tokens = two_people(a)
        side, d = asked(b, game, tokens)  # b reads the game too
        body = {"decision": d["id"], "action": d["options"][0]["action"]}
        assert a.post(f"/api/games/{game}/act", headers=bearer(tokens[side]),
                      json=body).status_code == 200
        other = {"decision": d["id"], "action": d["options"][-1]["action"]}
        r = b.post(f"/api/games/{game}/act", headers=bearer(tokens[side]), json=other)
        assert r.status_code == 409 and r.json()["rule"] == "conflict"
        assert stored(a, game)[1] == 1
        # b reads the game again and is in step
        side2, d2 = asked(b, game, tokens)
        assert d2["id"] > d["id"]
        r = b.post(f"/api/games/{game}/act", headers=bearer(tokens[side2]),
                   json={"decision": d2["id"], "action": d2["options"][0]["action"]})
        assert r.status_code == 200 and stored(a, game)[1] == 2


# ---- 4. no unbounded growth ---------------------------------------------------------------------
def test_idle_games_are_unloaded_and_read_back_when_asked_for(tmp_path):
    limits = ServerLimits(max_loaded=3, max_open_games=100, create_rate=Rate(100, 1))
    with make_client(tmp_path, limits=limits) as client:
        tables = client.app.state.tables
        games = [two_people(client, seed=i) for i in range(8)]
        assert tables.in_memory <= 3
        watched, watched_tokens = games[0]
        with client.websocket_connect(f"/api/games/{watched}/ws") as ws:
            ws.receive_json()
            for i in range(8, 12):
                two_people(client, seed=i)
            assert tables.loaded(watched) is not None  # watched: kept
        assert tables.in_memory <= 4
        # an unloaded game is read back and plays on
        game, tokens = games[1]
        assert tables.loaded(game) is None
        side, d = asked(client, game, tokens)
        r = client.post(f"/api/games/{game}/act", headers=bearer(tokens[side]),
                        json={"decision": d["id"], "action": d["options"][0]["action"]})
        assert r.status_code == 200


def test_a_client_making_games_too_fast_gets_429_with_retry_after(tmp_path):
    limits = ServerLimits(create_rate=Rate(3, 60))
    with make_client(tmp_path, limits=limits) as client:
        for _ in range(3):
            assert client.post("/api/games", json={"pack": PACK}).status_code == 201
        r = client.post("/api/games", json={"pack": PACK})
        assert r.status_code == 429 and "too many new games" in r.json()["error"]
        assert 1 <= int(r.headers["retry-after"]) <= 20
        assert len(client.app.state.tables.store.game_ids()) == 3


def test_the_server_hosts_at_most_its_cap_of_open_games(tmp_path):
    limits = ServerLimits(max_open_games=2, create_rate=Rate(100, 1))
    with make_client(tmp_path, limits=limits) as client:
        assert client.post("/api/games", json={"pack": PACK}).status_code == 201
        assert client.post("/api/games", json={"pack": PACK}).status_code == 201
        r = client.post("/api/games", json={"pack": PACK})
        assert r.status_code == 429 and "not over" in r.json()["error"]
        assert r.headers["retry-after"] == "60"
    with make_client(tmp_path, limits=limits) as client:  # counted from the database
        assert client.post("/api/games", json={"pack": PACK}).status_code == 429


# ---- 5. bad input is a 4xx, never a 500 ---------------------------------------------------------
def test_json_nested_deep_is_a_400(client):
    game, tokens = two_people(client)
    side, d = asked(client, game, tokens)
    for depth in (5000, 40):
        body = f'{{"decision": {d["id"]:d}, "action": {"[" * depth}1{"]" * depth}}}'
        r = client.post(f"/api/games/{game}/act", content=body.encode(),
                        headers={**bearer(tokens[side]), "Content-Type": "application/json"})
        assert r.status_code == 400 and "nested more than 32 deep" in r.json()["error"]
    assert stored(client, game)[1] == 0


def test_a_body_over_the_limit_is_refused_on_its_declared_length(client):
    game, tokens = two_people(client)
    headers = {**bearer(tokens["carthage"]), "Content-Type": "application/json"}
    r = client.post(f"/api/games/{game}/act", content=b" " * (65 * 1024), headers=headers)
    assert r.status_code == 413 and "larger than 65536 bytes" in r.json()["error"]


def test_a_body_of_no_declared_length_is_refused_once_it_passes_the_limit(tmp_path):
    """50 MB sent in chunks to a real server (uvicorn, loopback): the answer comes after the
    first 64 KiB, long before the end (the kernel's socket buffers hold a few MB)."""
    uvicorn = pytest.importorskip("uvicorn")
    app = create_app(tmp_path / "games.sqlite3")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
            conn.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            chunk = b"400\r\n" + b" " * 1024 + b"\r\n"
            sent, answer = 0, b""
            conn.setblocking(False)
            while sent < 50 * 1024 and not answer:
                try:
                    conn.send(chunk)
                    sent += 1
                except BlockingIOError:
                    time.sleep(0.001)
                except OSError:
                    break  # the server closed the connection: it stopped reading
                try:
                    answer = conn.recv(65536)
                except BlockingIOError:
                    pass
            conn.setblocking(True)
            while b"\r\n\r\n" not in answer:
                more = conn.recv(65536)
                if not more:
                    break
                answer += more
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
        assert sent < 10 * 1024, sent  # KiB sent when the answer came
    finally:
        server.should_exit = True
        thread.join(10)
        listener.close()


def test_a_long_language_code_is_a_400(client):
    r = client.get("/api/packs?lang=hu-" + "x" * 40)
    assert r.status_code == 400 and "language code" in r.json()["error"]
    assert client.get("/api/packs?lang=hu-HU").status_code == 200


def resign(client: TestClient, game: str, **changes: Any) -> None:
    """Change a stored row as a server bug would: changed and signed with the server key."""
    tables = client.app.state.tables
    row = tables.store.read(game)
    for name, value in changes.items():
        setattr(row, name, value)
    row.signature = sign(tables.key, signed_fields(row))
    tables.store.update(row)
    tables.forget(game)


@pytest.mark.parametrize("tokens", ["[]", '"abc"', '{"rome": 7}', '{"gaul": "' + "0" * 64 + '"}'])
def test_a_stored_game_whose_tokens_are_no_map_is_a_409(client, tokens):
    game, _ = two_people(client)
    resign(client, game, tokens=tokens)
    r = client.get(f"/api/games/{game}")
    assert r.status_code == 409, r.text
    assert f"game {game}'s stored record is damaged" in r.json()["error"]


# ---- 6. pages of other sites --------------------------------------------------------------------
def test_posts_from_other_sites_and_not_json_are_refused(tmp_path):
    with make_client(tmp_path, allow_origins=("https://games.example.org",)) as client:
        game, tokens = two_people(client)
        side, d = asked(client, game, tokens)
        body = {"decision": d["id"], "action": d["options"][0]["action"]}
        url = f"/api/games/{game}/act"
        # a form or fetch of another site's page, sent as text/plain (no CORS preflight)
        r = client.post(url, content=json.dumps(body), headers={
            **bearer(tokens[side]), "Content-Type": "text/plain", "Origin": "https://evil.test"})
        assert r.status_code in (403, 415)
        r = client.post(url, content=json.dumps(body), headers={
            **bearer(tokens[side]), "Content-Type": "text/plain"})
        assert r.status_code == 415 and "application/json" in r.json()["error"]
        r = client.post(url, json=body, headers={**bearer(tokens[side]),
                                                 "Origin": "https://evil.test"})
        assert r.status_code == 403 and "evil.test" in r.json()["error"]
        r = client.post("/api/games", json={"pack": PACK}, headers={"Origin": "null"})
        assert r.status_code == 403
        assert stored(client, game)[1] == 0
        # the server's own page, and the origin allowed
        r = client.post(url, json=body, headers={**bearer(tokens[side]),
                                                 "Origin": "http://testserver"})
        assert r.status_code == 200
        r = client.post("/api/games", json={"pack": PACK},
                        headers={"Origin": "https://games.example.org"})
        assert r.status_code == 201


def test_websockets_from_other_sites_are_refused(client):
    game, tokens = two_people(client)
    url = f"/api/games/{game}/ws?token={tokens['carthage']}"
    with (pytest.raises(WebSocketDisconnect) as refused,
          client.websocket_connect(url, headers={"Origin": "https://evil.test"}) as ws):
        ws.receive_json()
    assert refused.value.code == 1008
    with client.websocket_connect(url, headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["view"]["side"] == "carthage"


# ---- 7. stored games are trusted by their signature ---------------------------------------------
@pytest.mark.parametrize("column,value", [("seats", '{"carthage":"person","rome":"random"}'),
                                          ("tokens", "{}"), ("seed", 99), ("snapshot", 1)])
def test_a_row_edited_outside_the_server_fails_to_load(client, column, value):
    game, tokens = two_people(client)
    tables = client.app.state.tables
    row: GameRow = tables.store.read(game)
    setattr(row, column, value)
    tables.store.update(row)  # written with the old signature, as a hand edit would be
    tables.forget(game)
    r = client.get(f"/api/games/{game}", headers=bearer(tokens["carthage"]))
    assert r.status_code == 409 and r.json()["rule"] == "signature"
    assert "changed outside the server" in r.json()["error"]


def test_an_edited_move_history_fails_to_load(client):
    game, tokens = two_people(client)
    side, d = asked(client, game, tokens)
    client.post(f"/api/games/{game}/act", headers=bearer(tokens[side]),
                json={"decision": d["id"], "action": d["options"][0]["action"]})
    tables = client.app.state.tables
    with tables.store._conn.transaction() as tx:
        tx.run("UPDATE moves SET action = ? WHERE game = ?", ('"forged"', game))
    tables.forget(game)
    r = client.get(f"/api/games/{game}")
    assert r.status_code == 409 and "move history was changed outside the server" in \
        r.json()["error"]
    with tables.store._conn.transaction() as tx:  # a move taken away: counted
        tx.run("DELETE FROM moves WHERE game = ?", (game,))
    r = client.get(f"/api/games/{game}")
    assert r.status_code == 409 and "counts 1 moves, its history 0" in r.json()["error"]


def test_the_key_is_made_once_readable_by_its_owner_only(tmp_path):
    with make_client(tmp_path) as client:
        game, _ = two_people(client)
    key = tmp_path / "games.sqlite3.key"
    assert key.stat().st_mode & 0o777 == 0o600
    first = key.read_text()
    with make_client(tmp_path) as client:
        assert key.read_text() == first
        assert client.get(f"/api/games/{game}").status_code == 200
    with TestClient(create_app(tmp_path / "games.sqlite3", key=tmp_path / "other.key")) as c:
        r = c.get(f"/api/games/{game}")  # another server's key: not trusted
        assert r.status_code == 409 and r.json()["rule"] == "signature"



def test_a_creation_rate_refills_over_its_period():
    now = [0.0]
    limit = RateLimit(Rate.parse("2/10"), clock=lambda: now[0])
    assert limit.take("a") is None and limit.take("a") is None
    assert limit.take("a") == pytest.approx(5.0)  # one comes back every 5 s
    assert limit.take("b") is None  # each client its own
    now[0] = 5.0
    assert limit.take("a") is None and limit.take("a") == pytest.approx(5.0)
    assert str(Rate.parse("20/60s")) == "20/60s"
    for bad in ("20", "0/60", "20/0", "x/y"):
        with pytest.raises(ValueError, match="is not a rate"):
            Rate.parse(bad)
