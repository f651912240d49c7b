"""The server's database (engine.frontends.serve.store), on SQLite and on PostgreSQL alike (the
`database` fixture, tests/conftest.py): its schema and version, one transaction per move,
the move history that replays every stored game, the import of an older server's folder of
JSON files, and an acknowledged move kept through a SIGKILL of the server."""
from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="engine serve needs the serve extra")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from serve_client import PACK, bearer  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

import engine.frontends.serve.tables  # noqa: E402
from engine.core.game import replay  # noqa: E402
from engine.core.loader import load_pack  # noqa: E402
from engine.frontends.serve.app import create_app  # noqa: E402
from engine.frontends.serve.migrate import import_dir  # noqa: E402
from engine.frontends.serve.store import SCHEMA_VERSION, Conflict, Move, StorageError, open_store  # noqa: E402,E501

REPO = Path(__file__).resolve().parent.parent



def server(database: str, tmp_path: Path) -> TestClient:
    return TestClient(create_app(database, key=tmp_path / "server.key"))


def play_bots(client: TestClient, seed: int) -> str:
    """A whole game between two random bots, played by the server: its id."""
    r = client.post("/api/games", json={"pack": PACK, "seed": seed,
                                        "bots": {"carthage": "random", "rome": "random"}})
    game = r.json()["game"]
    deadline = time.monotonic() + 60
    while client.get(f"/api/games/{game}").json()["view"]["result"] is None:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.01)
    return game


def test_the_schema_is_versioned_and_a_newer_one_is_refused(database, tmp_path):
    store = open_store(database)
    assert store.schema_version() == SCHEMA_VERSION
    store.close()
    again = open_store(database)  # opening again migrates nothing and keeps the games
    assert again.schema_version() == SCHEMA_VERSION and again.game_ids() == []
    with again._conn.transaction() as tx:
        tx.run("UPDATE meta SET value = ? WHERE key = ?", (str(SCHEMA_VERSION + 1),
                                                           "schema_version"))
    again.close()
    with pytest.raises(StorageError, match="newer than this engine's"):
        open_store(database)


def test_sqlite_keeps_a_write_ahead_log_synced_at_every_commit(tmp_path):
    store = open_store(tmp_path / "g.sqlite3")
    db = store._conn._db
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    store.close()


def test_every_stored_game_is_a_replay_of_its_move_history(database, tmp_path):
    with server(database, tmp_path) as client:
        games = [play_bots(client, seed) for seed in (1, 2, 3)]
        store = client.app.state.tables.store
        pack = load_pack(PACK)
        for game in games:
            row, moves = store.read(game), store.moves(game)
            assert row.finished == 1 and row.moves == len(moves) > 0
            assert [m.number for m in moves] == list(range(len(moves)))
            assert {m.played_by for m in moves} == {"random"}
            decisions = [m.decision for m in moves]
            assert decisions == sorted(set(decisions))  # each decision answered once
            again = replay(pack, row.seed, [json.loads(m.action) for m in moves])
            assert again.save() == row.save
        assert store.count_open() == 0


def test_a_move_and_its_game_are_stored_together_or_not_at_all(database, tmp_path):
    with server(database, tmp_path) as client:
        r = client.post("/api/games", json={"pack": PACK, "seed": 4, "join": "carthage"})
        game = r.json()["game"]
        store = client.app.state.tables.store
        before = store.read(game)
        first = Move(0, "carthage", 1, '"card_01"', "person", 1.0)
        store.record_move(game, first, False)
        assert store.read(game).moves == 1 and store.moves(game) == [first]
        # the same move again (another server's copy): refused whole, the row unchanged
        with pytest.raises(Conflict):
            store.record_move(game, Move(0, "carthage", 1, '"x"', "person", 2.0), False)
        assert store.read(game).moves == 1 and store.moves(game) == [first]
        # a game row whose move row cannot be written (a row n=1 is there already) is not
        # updated either: the update, made first, is rolled back
        with store._conn.transaction() as tx:
            tx.run("INSERT INTO moves (game, n, side, decision, action, played_by, at, "
                   "signature) VALUES (?, 1, 'rome', 9, '\"y\"', 'person', 0, '')", (game,))
        snapshot = store.read(game)
        snapshot.moves, snapshot.snapshot, snapshot.save = 2, 2, "changed"
        with pytest.raises(Conflict):
            store.record_move(game, Move(1, "carthage", 2, '"x"', "person", 3.0), True,
                              snapshot)
        after = store.read(game)
        assert (after.moves, after.finished, after.save) == (1, 0, before.save)


def test_a_long_game_is_a_snapshot_and_the_moves_since(database, tmp_path, monkeypatch):
    """Each move writes one row; the snapshot is taken every SNAPSHOT_EVERY moves (8 here)
    and at the end; a game read back between snapshots plays its later moves again."""
    monkeypatch.setattr(engine.frontends.serve.tables, "SNAPSHOT_EVERY", 8)
    every = 8
    with server(database, tmp_path) as client:
        r = client.post("/api/games", json={"pack": PACK, "seed": 6, "join": "carthage"})
        game = r.json()["game"]
        tokens = {"carthage": r.json()["token"]}
        tokens["rome"] = client.post(f"/api/games/{game}/join",
                                     json={"side": "rome"}).json()["token"]
        tables = client.app.state.tables
        snapshots = set()
        for _ in range(2 * every + 3):
            view = client.get(f"/api/games/{game}").json()["view"]
            if view["result"] is not None:
                break
            d = client.get(f"/api/games/{game}",
                           headers=bearer(tokens[view["decision"]["side"]])).json()["screen"]
            d = d["decision"]
            r = client.post(f"/api/games/{game}/act", headers=bearer(tokens[view["decision"][
                "side"]]), json={"decision": d["id"], "action": d["options"][0]["action"]})
            assert r.status_code == 200
            snapshots.add(tables.store.read(game).snapshot)
        row = tables.store.read(game)
        assert snapshots == {0, every, 2 * every} and row.moves == 2 * every + 3
        assert not row.finished
        played = tables.get(game).game.save()
        tables.forget(game)
        assert tables.get(game).game.save() == played  # the snapshot and the moves since


def old_server_folder(folder: Path, tmp_path: Path) -> dict[str, Any]:
    """Games written as the server before the database wrote them (one engine-table/1 JSON
    file each): their ids and actions."""
    folder.mkdir()
    pack = load_pack(PACK)
    made = {}
    for i, seed in enumerate((11, 12)):
        game = pack.new_game(seed, undo=False)
        for _ in range(5 + i):
            game.apply(game.legal_actions()[0])
        game_id = f"{i:016x}"
        data = {"format": "engine-table/1", "pack": PACK, "lang": "hu",
                "seats": {"carthage": "person", "rome": "greedy"},
                "tokens": {"carthage": "a" * 64}, "save": game.save()}
        (folder / f"{game_id}.json").write_text(json.dumps(data), encoding="utf-8")
        made[game_id] = game.actions
    (folder / "00000000000000ff.json").write_text('{"format": "engine-table/1", "pack": '
                                                  f'"{PACK}", "seats": {{}}, "save": "{{}}"}}')
    (folder / "notes.json").write_text("{}")
    return made


def test_a_folder_of_an_older_server_is_imported_replayed_and_once(database, tmp_path):
    made = old_server_folder(tmp_path / "old", tmp_path)
    with server(database, tmp_path) as client:
        tables = client.app.state.tables
        done = import_dir(tables, tmp_path / "old")
        assert sorted(done.imported) == sorted(made)
        assert [name for name, _ in done.damaged] == ["00000000000000ff.json", "notes.json"]
        text = done.summary(tmp_path / "old")
        assert text.startswith("imported 2 games") and "seats" in text
        for game_id, actions in made.items():
            moves = tables.store.moves(game_id)
            assert [json.loads(m.action) for m in moves] == actions
            assert {m.played_by for m in moves} == {"imported"}
            got = client.get(f"/api/games/{game_id}").json()
            assert got["view"]["decisions"] == len(actions)
            assert got["screen"]["lang"] == "hu"
        again = import_dir(tables, tmp_path / "old")
        assert again.imported == [] and sorted(again.present) == sorted(made)


def test_engine_serve_imports_a_folder_from_the_command_line(tmp_path):
    made = old_server_folder(tmp_path / "old", tmp_path)
    db = tmp_path / "games.sqlite3"
    with ServerProcess(db, ["--import-dir", str(tmp_path / "old")]) as proc:
        assert "imported 2 games" in proc.stderr_until("imported")
    rows = sqlite3.connect(db).execute("SELECT id FROM games").fetchall()
    assert sorted(r[0] for r in rows) == sorted(made)


class ServerProcess:
    """`engine serve` in a process of its own on a free loopback port."""

    def __init__(self, db: Path, extra: list[str] | None = None):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.args = [sys.executable, "-m", "engine", "serve", "--db", str(db), "--port",
                     str(self.port), *(extra or [])]
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = subprocess.Popen(self.args, cwd=REPO, env=env, stderr=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL, text=True)
        deadline = time.monotonic() + 60
        while True:
            assert self.proc.poll() is None, self.proc.stderr.read()
            assert time.monotonic() < deadline, "the server did not start"
            try:
                urllib.request.urlopen(self.url + "/api/packs", timeout=5)
                return self
            except OSError:
                time.sleep(0.05)

    def stderr_until(self, word: str) -> str:
        seen = ""
        while word not in seen:
            line = self.proc.stderr.readline()
            assert line, seen
            seen += line
        return seen

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, headers=headers,
                                     method=method)
        with urllib.request.urlopen(req, timeout=30) as res:
            return json.load(res)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def __exit__(self, *exc: Any) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc.stderr.close()


def test_an_acknowledged_move_survives_a_sigkill_of_the_server(tmp_path):
    db = tmp_path / "games.sqlite3"
    acked = []
    with ServerProcess(db) as proc:
        made = proc.call("POST", "/api/games", {"pack": PACK, "seed": 8, "join": "carthage"})
        game, token = made["game"], made["token"]
        rome = proc.call("POST", f"/api/games/{game}/join", {"side": "rome"})["token"]
        tokens = {"carthage": token, "rome": rome}
        for _ in range(6):
            side = proc.call("GET", f"/api/games/{game}")["view"]["decision"]["side"]
            d = proc.call("GET", f"/api/games/{game}", token=tokens[side])["screen"]["decision"]
            action = d["options"][0]["action"]
            proc.call("POST", f"/api/games/{game}/act", {"decision": d["id"], "action": action},
                      tokens[side])
            acked.append(action)
        proc.kill()  # at once after the last acknowledgement: no clean shutdown
    rows = sqlite3.connect(db).execute("SELECT action FROM moves WHERE game = ? ORDER BY n",
                                       (game,)).fetchall()
    assert [json.loads(r[0]) for r in rows] == acked
    with ServerProcess(db) as proc:
        view = proc.call("GET", f"/api/games/{game}", token=token)["view"]
        assert view["decisions"] == len(acked)


def test_a_lost_postgresql_connection_is_made_again(postgres_database):
    import psycopg
    store = open_store(postgres_database)
    pid = store._conn._db.info.backend_pid
    with psycopg.connect(postgres_database, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    try:
        store.game_ids()  # the first use may find the connection gone: StorageError
    except StorageError as err:
        assert "database" in str(err)
    assert store.game_ids() == []  # made again
    store.close()
