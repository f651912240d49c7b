"""The games a server hosts: each at a table (engine.frontends.serve.table) with its seats,
its lock and its row in the database (engine.frontends.serve.store).

A table is one game and who sits at it: per side a bot (its kind) or a person, who joins
with a secret seat token. Only the token's hash is kept, in memory and in the database, so
a copy of the database lets nobody act for a player.

A move is made and stored as one: `Tables.play` applies it, then stores the move (and,
every SNAPSHOT_EVERY moves and at the game's end, a new snapshot of the game) in one
transaction, and when the database fails the game in memory is put back as it was, so what
a client was told (an error, never an acknowledgement) is what the database holds. Tables
are read from the database the first time they are asked for (the snapshot, its signature
and each later move's checked, the later moves played again), and unloaded again, least
recently used first, when more than `max_loaded` are in memory and nobody watches them.
"""
from __future__ import annotations

import gc
import json
import re
import secrets
import threading
from collections import OrderedDict
from typing import Any

import attrs

from engine.core.errors import IllegalAction, SaveError
from engine.core.game import Game, replay
from engine.core.loader import load_pack
from engine.dsl.places import shipped_packs
from engine.frontends.bots import BOT_KINDS, split_spec
from engine.frontends.serve.limits import Rate
from engine.frontends.serve.signing import verify
from engine.frontends.serve.store import Conflict, GameRow, Move, StorageError, Store, encode, now
from engine.frontends.serve.table import (
    PERSON,
    Refused,
    Table,
    check_seat,
    check_seats,
    move_fields,
    save_digest,
    seat,
    signed_fields,
    signed_move,
)

# a new snapshot every this many moves: a table is read back with at most as many moves
# played again, and a move's write stays one small row (a save is tens to hundreds of kB)
SNAPSHOT_EVERY = 32
GAME_ID = re.compile(r"[0-9a-f]{16}")
MAX_SEED = (1 << 63) - 1


@attrs.define
class ServerLimits:
    """What one server allows: tables kept in memory, games not over in the database, and
    games made per client (by its address)."""

    max_loaded: int = 256
    max_open_games: int = 10_000
    create_rate: Rate = Rate(20, 60)


class Tables:
    """The tables of one server, kept in `store`, signed with `key`."""

    def __init__(self, store: Store, key: bytes, packs: list[Any] | None = None,
                 limits: ServerLimits | None = None):
        """`packs`: loaded packs to offer besides the shipped ones (a designer's own, given
        by path to `engine serve --pack`), by their ids."""
        self.store = store
        self.key = key
        self.limits = limits or ServerLimits()
        self._tables: OrderedDict[str, Table] = OrderedDict()  # least recently used first
        self._packs: dict[str, Any] = {p.id: p for p in packs or []}
        # the packs to play, listed once (reading every pack.yaml per new game was a tenth
        # of the server's time under load)
        self._playable = list(dict.fromkeys([*shipped_packs()[0], *self._packs]))
        # tables and packs are read in worker threads: each once, never twice at a time;
        # `_index` guards the map of tables alone, for the event loop never to wait on a read
        self._reading = threading.Lock()
        self._loading = threading.Lock()
        self._index = threading.Lock()
        self._open = store.count_open()  # games not over, kept up to date as games end

    # ---- packs ---------------------------------------------------------------------------
    def playable(self) -> list[str]:
        """The packs a game can be made of: the shipped ones and those given (a request
        names one of these, never a path on the server's disk)."""
        return self._playable

    def has_pack(self, ref: Any) -> bool:
        """Whether pack `ref` is built already (else `pack` builds it: seconds)."""
        return isinstance(ref, str) and ref in self._packs

    def pack(self, ref: Any) -> Any:
        if not isinstance(ref, str) or ref not in self._playable:
            raise Refused(404, f"no pack {ref!r} to play here (packs: "
                          f"{', '.join(self.playable())})", "pack")
        with self._loading:
            pack = self._packs.get(ref)
            if pack is None:
                pack = self._packs[ref] = load_pack(ref)
                # A pack lives as long as the server: kept out of the collector's sight, a
                # full collection no longer walks its compiled rules and tables (they were
                # most of what it walked, and its pauses the slowest 1% of answers).
                gc.collect()
                gc.freeze()
            return pack

    # ---- tables --------------------------------------------------------------------------
    def create(self, pack_ref: Any, seed: Any, bots: Any, lang: str, join: Any = None
               ) -> tuple[Table, str | None]:
        """A new game of `pack_ref`; `bots`: side -> bot kind, for the sides played by bots
        (the others wait for people to join). With `join`, that side's seat is taken at
        once: the table and the seat's token (else None). Nothing is made when refused."""
        pack = self.pack(pack_ref)
        if seed is None:
            seed = secrets.randbelow(1 << 31)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise Refused(400, f"seed is a whole number from 0 to {MAX_SEED}, not {seed!r}",
                          "seed")
        if bots is None:
            bots = {}
        if not isinstance(bots, dict):
            raise Refused(400, "bots maps sides to bot kinds, e.g. {\"rome\": \"greedy\"}",
                          "bots")
        for side, kind in bots.items():
            if side not in pack.sides:
                raise Refused(400, f"{side!r} is not a side of {pack.id} (sides: "
                              f"{', '.join(pack.sides)})", "bots")
            refused = served_bot(kind)
            if refused:
                raise Refused(400, refused, "bots")
        seats = {side: bots.get(side, PERSON) for side in pack.sides}
        if join is not None:
            check_seat(seats, join, {})
        if self._open >= self.limits.max_open_games:
            raise Refused(429, f"this server hosts {self.limits.max_open_games} games that "
                          "are not over, as many as it may: try again later", "limit",
                          {"Retry-After": "60"})
        # no undo: the server offers none, and its snapshots cost time and memory
        table = Table(secrets.token_hex(8), pack_ref, pack.new_game(seed, undo=False), seats,
                      lang, now())
        token = None if join is None else seat(table, join)
        try:
            self.store.create(table.row(self.key))
        except StorageError as err:
            raise _not_stored("the game was not made", err) from None
        with self._index:
            self._tables[table.id] = table
            if not table.game.over:
                self._open += 1
            self._unload_idle()
        return table, token

    def loaded(self, game_id: str) -> Table | None:
        """The table of `game_id` if it is in memory (no reading: for the event loop)."""
        with self._index:
            table = self._tables.get(game_id)
            if table is not None:
                self._tables.move_to_end(game_id)
            return table

    def get(self, game_id: str) -> Table:
        """The table of `game_id`, read from the database the first time; Refused (404)
        if none, (409) if its row cannot be trusted or read."""
        table = self.loaded(game_id)
        if table is not None:
            return table
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise Refused(404, f"no game {game_id!r} here", "game")
        with self._reading:
            table = self.loaded(game_id)  # read meanwhile by another thread
            if table is not None:
                return table
            try:
                row = self.store.read(game_id)
            except StorageError as err:
                raise _not_stored("the game cannot be read now", err) from None
            if row is None:
                raise Refused(404, f"no game {game_id!r} here", "game")
            table = self._table_of(row)
            with self._index:
                self._tables[game_id] = table
                self._unload_idle()
            return table

    def forget(self, game_id: str) -> None:
        """Drop the table from memory (its row is read again when next asked for)."""
        with self._index:
            self._tables.pop(game_id, None)

    @property
    def in_memory(self) -> int:
        return len(self._tables)

    def _unload_idle(self) -> None:
        """Unload the least recently used idle tables while more than `max_loaded` are
        in memory (with the index lock held)."""
        excess = len(self._tables) - self.limits.max_loaded
        if excess <= 0:
            return
        for game_id in [i for i, t in self._tables.items() if t.idle][:excess]:
            del self._tables[game_id]

    def join(self, table: Table, side: Any) -> str:
        """A new secret token for the person who takes `side`'s seat (once per seat)."""
        check_seat(table.seats, side, table.tokens)
        token = seat(table, side)
        try:
            self.store.set_tokens(table.id, encode(table.tokens), table.signature(self.key),
                                  len(table.game.actions))
        except (StorageError, Conflict) as err:
            del table.tokens[side]
            raise self._unstored(table, "the seat was not taken", err) from None
        table.screens.clear()
        return token

    def play(self, table: Table, action: Any, side: str, decision: Any, by: str) -> bool:
        """`side` answers decision `decision` with `action` (the caller holds the table's
        lock), stored with the game after it in one transaction: False when that very
        answer was made and stored already (a request sent again), True when it is made
        now. IllegalAction, or Refused when the database failed, and then nothing changed,
        in memory or stored."""
        game = table.game
        if isinstance(decision, bool) or not isinstance(decision, int):
            raise Refused(400, "send {\"decision\": the id of the decision you answer (a "
                          "whole number), \"action\": your answer}: the decision id makes "
                          f"sure an answer sent twice is made once (not {decision!r})",
                          "decision")
        n = len(game.actions)
        try:
            game.apply(action, side=side, decision=decision)
        except IllegalAction as err:
            if err.rule == "stale" and self._answered(table, side, decision, action):
                return False
            raise
        snapshot_before = table.snapshot
        try:
            move = signed_move(self.key, table.id,
                               Move(n, side, decision, encode(game.actions[-1]), by, now()))
            snapshot = table.row(self.key) if game.over or \
                n + 1 - table.snapshot[0] >= SNAPSHOT_EVERY else None
            self.store.record_move(table.id, move, game.over, snapshot)
        except BaseException as err:
            # not stored: not made. The game before the move is its actions but the last
            # played again (exact; only when the database fails, where a copy before every
            # move cost a twentieth of the server's time)
            table.game = replay(game.pack, game.seed, game.actions[:-1], log=game.rt.logging)
            table.snapshot = snapshot_before
            if not isinstance(err, (StorageError, Conflict)):
                raise
            raise self._unstored(table, "the move was not made", err) from None
        finally:
            table.screens.clear()
        if game.over:
            with self._index:
                self._open -= 1
        return True

    def _unstored(self, table: Table, what: str, err: StorageError | Conflict) -> Refused:
        """The refusal of a change the database did not store: the database failed (503),
        or another server changed the game first (409; the table is read again when next
        asked for)."""
        if isinstance(err, Conflict):
            self.forget(table.id)
            return Refused(409, f"game {table.id} moved on in another server meanwhile: "
                           "nothing changed; read the game again", "conflict")
        return _not_stored(what, err)

    def _answered(self, table: Table, side: str, decision: int, action: Any) -> bool:
        """Whether `side` answered decision `decision` with `action` already."""
        try:
            move = self.store.move_answering(table.id, decision)
            given = encode(action)
        except (StorageError, TypeError, ValueError):
            return False
        return move is not None and move.side == side and move.action == given

    # ---- reading a row ---------------------------------------------------------------------
    def _table_of(self, row: GameRow) -> Table:
        """The table a row stores: Refused (409) saying what is wrong if it is not one the
        server wrote, or if it is damaged."""
        game_id = row.id
        if not verify(self.key, signed_fields(row), row.signature or ""):
            raise Refused(409, f"game {game_id} was changed outside the server (its "
                          "signature does not match this server's key): it is not loaded",
                          "signature")
        try:
            pack = self.pack(row.pack)
            seats = json.loads(row.seats)
            tokens = json.loads(row.tokens)
            check_seats(pack, seats, tokens)
            # signed by this server: the save's digest is checked, without a replay
            game = Game.load(pack, row.save, verify="digest", undo=False)
            if game.seed != row.seed or len(game.actions) != row.snapshot:
                raise ValueError("its save and its row disagree on the seed or the moves")
            moves = self.store.moves(game_id)
            self._play_history(game_id, game, moves)
            if len(moves) != row.moves:
                raise ValueError(f"its row counts {row.moves} moves, its history "
                                 f"{len(moves)}")
        except IllegalAction as err:
            raise Refused(409, f"game {game_id}'s move history does not play: {err}",
                          "save") from None
        except SaveError as err:
            raise Refused(409, f"game {game_id} cannot be resumed: {err}", "save") from None
        except StorageError as err:
            raise _not_stored("the game cannot be read now", err) from None
        except (ValueError, KeyError, TypeError, AttributeError) as err:
            raise Refused(409, f"game {game_id}'s stored record is damaged: {err}",
                          "save") from None
        table = Table(game_id, row.pack, game, seats, row.lang, row.created, tokens)
        table.snapshot = (row.snapshot, save_digest(row.save))
        return table

    def _play_history(self, game_id: str, game: Game, moves: list[Move]) -> None:
        """Check a game's move history against its snapshot `game` and play the moves made
        after it: ValueError (or IllegalAction) when a move is not the server's."""
        snapshot = len(game.actions)
        if [m.number for m in moves] != list(range(len(moves))) or len(moves) < snapshot:
            raise ValueError(f"its move history ({len(moves)} moves) is not the moves of "
                             f"its save ({snapshot})")
        for m in moves:
            if not verify(self.key, move_fields(game_id, m), m.signature):
                raise ValueError(f"its move history was changed outside the server (move "
                                 f"{m.number}'s signature does not match)")
        if [m.action for m in moves[:snapshot]] != [encode(a) for a in game.actions]:
            raise ValueError(f"its move history ({len(moves)} moves) is not the moves of "
                             f"its save ({snapshot})")
        for m in moves[snapshot:]:
            game.apply(json.loads(m.action), side=m.side, decision=m.decision)



def _not_stored(what: str, err: Exception) -> Refused:
    return Refused(503, f"{what}: the server could not store it ({err}); nothing changed, "
                   "send it again", "storage", {"Retry-After": "1"})


# the most a bot of the server may search a decision: its thread holds a core meanwhile
MAX_PLAYOUTS = 1000
MAX_SECONDS = 2.0


def served_bot(kind: Any) -> str | None:
    """Why the server will not seat bot `kind` ('greedy', 'mcts:200' ...), or None."""
    if not isinstance(kind, str):
        return f"{kind!r} is not a bot (bots: {', '.join(BOT_KINDS)})"
    try:
        name, level = split_spec(kind)
    except ValueError as err:  # a bot's bad level says what is wrong with it
        known = kind.strip().lower().partition(":")[0].strip() in BOT_KINDS
        return str(err) if known else f"{kind!r} is not a bot (bots: {', '.join(BOT_KINDS)})"
    if level is not None:
        from engine.frontends.search import parse_level
        got = parse_level(name, level)
        if got.get("playouts", 0) > MAX_PLAYOUTS or got.get("seconds", 0.0) > MAX_SECONDS:
            return (f"{kind!r} searches longer than this server allows (at most "
                    f"{name}:{MAX_PLAYOUTS} or {name}:{MAX_SECONDS:g}s)")
    return None
