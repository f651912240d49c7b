"""The server's database: its hosted games, each game's move history, and the schema version.

Two backends run the same schema and the same statements: **SQLite** (the standard
library's `sqlite3`), the embedded default, and **PostgreSQL** (psycopg, the `postgres`
extra) for a deployment that outgrows one machine. `open_store(url)` picks one by the URL:
`postgresql://…` (or `postgres://…`) is PostgreSQL, anything else a SQLite file's path.

A game is stored as a **snapshot and the moves since**: its row holds a save (`Game.save`)
taken after `snapshot` moves, and `moves` holds one row per action (who, which decision,
what, when), so a game loads as its snapshot with the later moves played again, and every
game can be replayed whole from its seed and audited. A move writes one small row whatever
the game's size; the snapshot is taken anew every few moves and at the game's end
(engine.frontends.serve.tables).

Every change is one transaction, which either stores whole or not at all:
- a move inserts its row in `moves` and updates its game's row (move count, whether it is
  over, and at times a new snapshot) where the game's row still has the move count the move
  was made on. Two servers (or a table read twice) that both make move n therefore cannot
  both store it: the second gets `Conflict`, and the game in its memory is stale;
- a game's creation inserts its row; a seat taken updates the row's tokens.

SQLite runs in WAL mode with `synchronous=FULL`: a server acknowledges a move only once it
is stored, and WAL with NORMAL can lose the last commits when the machine (not the process)
goes down; FULL syncs the log at every commit, which costs one fsync per move
(`bench/serve_soak.py` reports the figures).

The rows carry a signature made with the server's key (engine.frontends.serve.signing); this module
only keeps the text. A failure of the database itself is `StorageError`, with the driver's
message: the change did not happen.
"""
from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

from engine.frontends.serve.connections import (
    Conflict,
    Connection,
    PostgresConnection,
    SqliteConnection,
    StorageError,
    Transaction,
)

# what the store's users import from it: the store, its rows, and its errors (raised by the
# connections, engine.frontends.serve.connections)
__all__ = ["GAME_COLUMNS", "MIGRATIONS", "MOVE_COLUMNS", "SCHEMA_VERSION", "Conflict", "GameRow",
           "Move", "StorageError", "Store", "encode", "is_postgres", "now", "open_store"]

SCHEMA_VERSION = 1

# Each entry takes the schema from the version before it to its own (1: from nothing).
# Types are those both backends read alike: SQLite's INTEGER is 64-bit, PostgreSQL's is not.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE games (
            id TEXT PRIMARY KEY,
            pack TEXT NOT NULL,
            seed BIGINT NOT NULL,
            lang TEXT NOT NULL,
            seats TEXT NOT NULL,
            tokens TEXT NOT NULL,
            moves BIGINT NOT NULL,
            finished BIGINT NOT NULL,
            snapshot BIGINT NOT NULL,
            save TEXT NOT NULL,
            signature TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE moves (
            game TEXT NOT NULL REFERENCES games (id),
            n BIGINT NOT NULL,
            side TEXT NOT NULL,
            decision BIGINT NOT NULL,
            action TEXT NOT NULL,
            played_by TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            signature TEXT NOT NULL,
            PRIMARY KEY (game, n))""",
        "CREATE INDEX games_open ON games (finished)",
    ],
}

GAME_COLUMNS = ("id", "pack", "seed", "lang", "seats", "tokens", "moves", "finished",
                "snapshot", "save", "signature", "created", "updated")
MOVE_COLUMNS = ("n", "side", "decision", "action", "played_by", "at", "signature")


@attrs.define
class GameRow:
    """One hosted game as stored. `seats` and `tokens` are JSON text as stored (the table
    checks them when it reads the row); `moves`: how many rows of `moves` it has;
    `save`: the game after its first `snapshot` moves."""

    id: str
    pack: str
    seed: int
    lang: str
    seats: str
    tokens: str
    moves: int
    finished: int
    snapshot: int
    save: str
    signature: str
    created: float
    updated: float

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, c) for c in GAME_COLUMNS)


@attrs.frozen
class Move:
    """One action of a game: the `number`-th (from 0), by `side`, answering decision `decision`;
    `action` as JSON text; `played_by`: "person", the bot's kind, or "imported";
    `signature`: the server's (engine.frontends.serve.signing)."""

    number: int
    side: str
    decision: int
    action: str
    played_by: str
    at: float
    signature: str = ""


def is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def open_store(url: str | Path) -> Store:
    """The store at `url`: a PostgreSQL URL, or the path of a SQLite file (made, with its
    folder, when missing). StorageError when it cannot be opened."""
    text = str(url)
    if is_postgres(text):
        return Store(PostgresConnection(text), text)
    return Store(SqliteConnection(Path(text)), text)


class Store:
    """The games of one server in one database. Safe to call from several threads: each
    transaction holds the connection alone."""

    def __init__(self, conn: Connection, url: str):
        self.url = url
        self._conn = conn
        self._migrate()

    @property
    def backend(self) -> str:
        return self._conn.name

    # ---- schema ------------------------------------------------------------------------------
    def _migrate(self) -> None:
        with self._conn.transaction() as tx:
            version = self._version(tx)
            if version > SCHEMA_VERSION:
                raise StorageError(f"the database {self.url} has schema version {version}, "
                                   f"newer than this engine's {SCHEMA_VERSION}: upgrade the "
                                   "engine to serve it")
            for step in range(version + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[step]:
                    tx.run(statement)
            if version == 0:
                tx.run("INSERT INTO meta (key, value) VALUES (?, ?)",
                       ("schema_version", str(SCHEMA_VERSION)))
            elif version < SCHEMA_VERSION:
                tx.run("UPDATE meta SET value = ? WHERE key = ?",
                       (str(SCHEMA_VERSION), "schema_version"))

    def _version(self, tx: Transaction) -> int:
        if not tx.has_table("meta"):
            return 0
        row = tx.one("SELECT value FROM meta WHERE key = ?", ("schema_version",))
        return int(row[0]) if row else 0

    def schema_version(self) -> int:
        with self._conn.transaction() as tx:
            return self._version(tx)

    # ---- writes -------------------------------------------------------------------------------
    def create(self, row: GameRow, moves: Sequence[Move] = ()) -> None:
        """A new game (with the moves it already has: an imported one). Conflict when a
        game of that id exists."""
        with self._conn.transaction() as tx:
            if tx.one("SELECT 1 FROM games WHERE id = ?", (row.id,)):
                raise Conflict(f"a game {row.id} is stored already")
            tx.run(f"INSERT INTO games ({', '.join(GAME_COLUMNS)}) VALUES "
                   f"({', '.join('?' * len(GAME_COLUMNS))})", row.values())
            for move in moves:
                self._insert_move(tx, row.id, move)

    def record_move(self, game_id: str, move: Move, finished: bool,
                    snapshot: GameRow | None = None) -> None:
        """Move `move` (the game's `move.number`-th) and the game's row after it, together: its
        move count and whether it is over, or the whole row `snapshot` (a new snapshot).
        The row stored must still be at move `move.number`, else Conflict and nothing changes."""
        with self._conn.transaction() as tx:
            if snapshot is not None:
                assert snapshot.moves == move.number + 1 and snapshot.id == game_id
                self._update(tx, snapshot, expect_moves=move.number)
            else:
                changed = tx.run("UPDATE games SET moves = ?, finished = ?, updated = ? "
                                 "WHERE id = ? AND moves = ?",
                                 (move.number + 1, int(finished), move.at, game_id, move.number))
                if changed != 1:
                    raise Conflict(f"game {game_id} was changed by another server since it "
                                   "was read")
            self._insert_move(tx, game_id, move)

    def set_tokens(self, game_id: str, tokens: str, signature: str, moves: int) -> None:
        """A seat taken: the row's tokens and signature, where the stored row is still at
        `moves` moves (else Conflict)."""
        with self._conn.transaction() as tx:
            changed = tx.run("UPDATE games SET tokens = ?, signature = ?, updated = ? "
                             "WHERE id = ? AND moves = ?",
                             (tokens, signature, now(), game_id, moves))
            if changed != 1:
                raise Conflict(f"game {game_id} was changed by another server since it was "
                               "read")

    def update(self, row: GameRow) -> None:
        """The whole game row, written as it is (where the stored row has its move count)."""
        with self._conn.transaction() as tx:
            self._update(tx, row, expect_moves=row.moves)

    def _update(self, tx: Transaction, row: GameRow, expect_moves: int) -> None:
        sets = ", ".join(f"{c} = ?" for c in GAME_COLUMNS[1:])
        changed = tx.run(f"UPDATE games SET {sets} WHERE id = ? AND moves = ?",
                         (*row.values()[1:], row.id, expect_moves))
        if changed != 1:
            raise Conflict(f"game {row.id} was changed by another server since it was read")

    @staticmethod
    def _insert_move(tx: Transaction, game: str, move: Move) -> None:
        tx.run(f"INSERT INTO moves (game, {', '.join(MOVE_COLUMNS)}) "
               f"VALUES (?, {', '.join('?' * len(MOVE_COLUMNS))})",
               (game, move.number, move.side, move.decision, move.action, move.played_by, move.at,
                move.signature))

    # ---- reads --------------------------------------------------------------------------------
    def read(self, game_id: str) -> GameRow | None:
        with self._conn.transaction() as tx:
            row = tx.one(f"SELECT {', '.join(GAME_COLUMNS)} FROM games WHERE id = ?",
                         (game_id,))
        return None if row is None else GameRow(*row)

    def moves(self, game_id: str) -> list[Move]:
        """The game's moves in order."""
        with self._conn.transaction() as tx:
            rows = tx.all(f"SELECT {', '.join(MOVE_COLUMNS)} FROM moves "
                          "WHERE game = ? ORDER BY n", (game_id,))
        return [Move(*r) for r in rows]

    def move_answering(self, game_id: str, decision: int) -> Move | None:
        """The move that answered decision `decision` of the game, if one did."""
        with self._conn.transaction() as tx:
            row = tx.one(f"SELECT {', '.join(MOVE_COLUMNS)} FROM moves "
                         "WHERE game = ? AND decision = ?", (game_id, decision))
        return None if row is None else Move(*row)

    def game_ids(self) -> list[str]:
        with self._conn.transaction() as tx:
            return [r[0] for r in tx.all("SELECT id FROM games ORDER BY created, id", ())]

    def count_open(self) -> int:
        """How many stored games are not over."""
        with self._conn.transaction() as tx:
            row = tx.one("SELECT COUNT(*) FROM games WHERE finished = 0", ())
        assert row is not None  # COUNT(*) answers one row, whatever the table holds
        return int(row[0])

    def close(self) -> None:
        self._conn.close()


def encode(value: Any) -> str:
    """JSON text of a stored value (canonical: the same value, the same text)."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def now() -> float:
    return time.time()
