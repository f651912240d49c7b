"""The two databases a server's store may use, SQLite and PostgreSQL, behind one connection
that runs statements in transactions (with `?` placeholders for both); and what their
failures are to the store: StorageError (the database failed) and Conflict (a row exists
already)."""
from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


class StorageError(Exception):
    """The database failed (full disk, lost connection, locked too long…): what was asked
    was not stored."""


class Conflict(Exception):
    """The game's row moved on since it was read (another server, or an older copy of the
    table, stored a change first): nothing was stored."""


class Transaction:
    """Statements inside one transaction, written with `?` placeholders for both backends."""

    def __init__(self, cursor: Any, placeholder: str,
                 has_table: Callable[[str], bool]) -> None:
        self._cursor = cursor  # sqlite3's or psycopg's: untyped here
        self._placeholder = placeholder
        self.has_table = has_table

    def _sql(self, sql: str) -> str:
        return sql if self._placeholder == "?" else sql.replace("?", self._placeholder)

    def run(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """Run a statement; the number of rows it changed."""
        self._cursor.execute(self._sql(sql), params)
        changed: int = self._cursor.rowcount
        return changed

    def one(self, sql: str, params: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """The first row a query answers, or None."""
        self._cursor.execute(self._sql(sql), params)
        row: tuple[Any, ...] | None = self._cursor.fetchone()
        return row

    def all(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Every row a query answers."""
        self._cursor.execute(self._sql(sql), params)
        rows: list[tuple[Any, ...]] = self._cursor.fetchall()
        return rows


class Connection:
    """One connection of a backend, used by one transaction at a time. A backend says how
    a transaction begins, commits and rolls back, and which of its errors mean a row that
    exists already (`integrity`) or any failure (`failure`)."""

    name = ""
    placeholder = "?"
    integrity: Any = ()  # the backend's exception classes (none here)
    failure: Any = ()

    def __init__(self) -> None:
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Transaction]:
        """Statements that are stored together or not at all: Conflict when a row exists
        already, StorageError when the database fails."""
        with self._lock:
            try:
                cur = self._begin()
            except self.failure as err:
                raise StorageError(f"the database is not available: {err}") from None
            try:
                yield Transaction(cur, self.placeholder, self._has_table)
            except BaseException as err:
                self._rollback(cur)
                if isinstance(err, self.integrity):
                    raise Conflict(f"the database refused it: {err}") from None
                if isinstance(err, self.failure):
                    raise StorageError(f"the database failed: {err}") from None
                raise
            else:
                try:
                    self._commit(cur)
                except self.failure as err:
                    self._rollback(cur)
                    raise StorageError(f"the database did not store it: {err}") from None
            finally:
                cur.close()

    def _begin(self) -> Any:
        raise NotImplementedError

    def _commit(self, cur: Any) -> None:
        raise NotImplementedError

    def _rollback(self, cur: Any) -> None:
        raise NotImplementedError

    def _has_table(self, name: str) -> bool:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class SqliteConnection(Connection):
    name = "sqlite"
    integrity = sqlite3.IntegrityError
    failure = sqlite3.Error

    def __init__(self, path: Path):
        super().__init__()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # autocommit (isolation_level None): each transaction is opened by hand below
            self._db = sqlite3.connect(path, timeout=10, isolation_level=None,
                                       check_same_thread=False)
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise StorageError(f"{path}: SQLite would not use WAL mode (it said {mode})")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
        except (sqlite3.Error, OSError) as err:
            raise StorageError(f"cannot open the database {path}: {err}") from None

    def _begin(self) -> Any:
        cur = self._db.cursor()
        cur.execute("BEGIN IMMEDIATE")  # the write lock now, not at the first write
        return cur

    def _commit(self, cur: Any) -> None:
        cur.execute("COMMIT")

    def _rollback(self, cur: Any) -> None:
        try:
            cur.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # no transaction is open any more: nothing to undo

    def _has_table(self, name: str) -> bool:
        return self._db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                                "name = ?", (name,)).fetchone() is not None

    def close(self) -> None:
        with self._lock:
            self._db.close()


class PostgresConnection(Connection):
    """One connection to PostgreSQL, made again when it was lost (a restarted database)."""

    name = "postgresql"
    placeholder = "%s"

    def __init__(self, url: str):
        super().__init__()
        try:
            import psycopg
        except ImportError as err:
            raise StorageError("a PostgreSQL database needs psycopg: pip install "
                               f"'engine-dsl[postgres]' ({err})") from None
        self._psycopg = psycopg
        self.integrity = psycopg.errors.IntegrityError
        self.failure = psycopg.Error
        self._url = url
        self._db: Any = None
        with self._lock:
            self._connected()

    def _connected(self) -> Any:
        if self._db is None or self._db.closed or self._db.broken:
            try:
                self._db = self._psycopg.connect(self._url, autocommit=False,
                                                 connect_timeout=10)
            except self._psycopg.Error as err:
                self._db = None
                raise StorageError(f"cannot reach the database: {err}") from None
        return self._db

    def _begin(self) -> Any:
        return self._connected().cursor()

    def _commit(self, cur: Any) -> None:
        self._db.commit()

    def _rollback(self, cur: Any) -> None:
        try:
            self._db.rollback()
        except self._psycopg.Error:
            pass  # a lost connection: it is made again at the next transaction

    def _has_table(self, name: str) -> bool:
        with self._db.cursor() as cur:
            cur.execute("SELECT to_regclass(%s)", (name,))
            return cur.fetchone()[0] is not None

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
