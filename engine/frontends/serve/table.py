"""One hosted game at its table: who sits at each side (a bot or a person with a seat token,
kept as its hash only), the table's lock, sockets and bots, what each side was last sent,
and its row and moves as they are stored and signed (engine.frontends.serve.store)."""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import re
import secrets
from typing import Any

import attrs

from engine.core.game import Game
from engine.frontends.bots import bot_seed, is_bot_spec, make_bot
from engine.frontends.serve.signing import sign
from engine.frontends.serve.store import GameRow, Move, encode, now

PERSON = "person"
TOKEN_HASH = re.compile(r"[0-9a-f]{64}")


class Refused(Exception):
    """A request the server does not carry out: `status` is its HTTP status (4xx, or 503
    when the database failed), the message says why for the person who sent it, `headers`
    go with the answer (Retry-After). Nothing was changed."""

    def __init__(self, status: int, message: str, rule: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule
        self.headers = headers or {}


def token_hash(token: str) -> str:
    """What is kept of a seat token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@attrs.define(eq=False)
class Table:
    """One hosted game. `seats`: side -> a bot kind or "person"; `tokens`: side -> the hash
    of the token of the person who joined it. Everything that reads or changes `game` holds
    `lock`. `screens` keeps what each (side, language) was last sent, as JSON text, until
    the game or its seats change (engine.frontends.serve.app)."""

    id: str
    pack_ref: str
    game: Game
    seats: dict[str, str]
    lang: str
    created: float
    tokens: dict[str, str] = attrs.Factory(dict)
    lock: asyncio.Lock = attrs.Factory(asyncio.Lock)
    sockets: set[Any] = attrs.Factory(set)  # the open WebSockets (engine.frontends.serve.app)
    bots: dict[str, Any] = attrs.Factory(dict)
    bot_task: asyncio.Task[None] | None = None
    # what a side is sent, by side and language (None: the view alone, engine.frontends.serve.app)
    screens: dict[tuple[str | None, str | None], str] = attrs.Factory(dict)
    # the log entries said so far in each language (engine.frontends.terminal.log_lines)
    said: dict[str, dict[int, tuple[Any, str]]] = attrs.Factory(dict)
    # the stored snapshot: how many moves it holds and its save's SHA-256 (for signatures)
    snapshot: tuple[int, str] = (0, "")

    def side_of(self, token: str | None) -> str | None:
        """The side whose token this is; None for no token; Refused for a wrong one."""
        if token is None:
            return None
        digest = token_hash(token)
        for side, known in self.tokens.items():
            if hmac.compare_digest(digest, known):
                return side
        raise Refused(403, "this seat token belongs to no side of this game: join the game "
                      "to get one", "token")

    def bot(self, side: str) -> Any:
        """The bot in `side`'s seat. Seeded from the game's seed, its seat and the number of
        actions when it is made, so a table read back after a restart plays on alike."""
        bot = self.bots.get(side)
        if bot is None:
            index = self.game.pack.sides.index(side)
            seed = bot_seed(self.game.seed, index) ^ len(self.game.actions)
            bot = self.bots[side] = make_bot(self.seats[side], seed)
        return bot

    @property
    def bot_to_move(self) -> str | None:
        """The side whose bot the game waits for, or None."""
        side = self.game.decider
        return side if side is not None and self.seats[side] != PERSON else None

    @property
    def idle(self) -> bool:
        """Nobody watches it, no bot plays in it and no request holds it: it may be
        unloaded."""
        return not self.sockets and not self.lock.locked() and \
            (self.bot_task is None or self.bot_task.done())

    def row(self, key: bytes) -> GameRow:
        """The table as stored with a snapshot of now, signed with `key` (and the snapshot
        kept as the table's)."""
        game = self.game
        save = game.save()
        self.snapshot = (len(game.actions), save_digest(save))
        return GameRow(self.id, self.pack_ref, game.seed, self.lang, encode(self.seats),
                       encode(self.tokens), len(game.actions), int(game.over),
                       len(game.actions), save, self.signature(key), self.created, now())

    def signature(self, key: bytes) -> str:
        """The signature of the table's row, as its seats, tokens and snapshot are now."""
        return sign(key, (self.id, self.pack_ref, self.game.seed, self.lang,
                          encode(self.seats), encode(self.tokens), *self.snapshot))


def save_digest(save: str) -> str:
    """The SHA-256 of a save, which a row's signature covers instead of the save itself."""
    return hashlib.sha256(save.encode("utf-8")).hexdigest()


def signed_fields(row: GameRow) -> tuple[Any, ...]:
    """What a row's signature covers: everything that loads the game, not its times nor
    the move count (the moves are signed each)."""
    return (row.id, row.pack, row.seed, row.lang, row.seats, row.tokens, row.snapshot,
            save_digest(row.save))


def move_fields(game_id: str, move: Move) -> tuple[Any, ...]:
    """What a move's signature covers."""
    return ("move", game_id, move.number, move.side, move.decision, move.action, move.played_by)


def signed_move(key: bytes, game_id: str, move: Move) -> Move:
    """`move` with its signature."""
    return attrs.evolve(move, signature=sign(key, move_fields(game_id, move)))


def check_seats(pack: Any, seats: Any, tokens: Any) -> None:
    """ValueError unless `seats` maps each of the pack's sides to a seat kind and `tokens`
    maps people's sides to token hashes."""
    if not isinstance(seats, dict) or list(seats) != list(pack.sides):
        raise ValueError("its seats are not a map of the pack's sides")
    for side, kind in seats.items():
        if kind != PERSON and not is_bot_spec(kind):
            raise ValueError(f"{side}'s seat is {kind!r}, no seat kind")
    if not isinstance(tokens, dict):
        raise ValueError(f"its tokens are not a map of sides to token hashes, but "
                         f"{type(tokens).__name__}")
    for side, digest in tokens.items():
        if seats.get(side) != PERSON:
            raise ValueError(f"it has a token for {side!r}, which no person plays")
        if not isinstance(digest, str) or not TOKEN_HASH.fullmatch(digest):
            raise ValueError(f"{side}'s token is not a token hash")


def check_seat(seats: dict[str, str], side: Any, tokens: dict[str, str]) -> None:
    """Refused unless `side` is a person's seat nobody has taken."""
    if not isinstance(side, str) or side not in seats:
        raise Refused(400, f"{side!r} is not a side of this game (sides: "
                      f"{', '.join(seats)})", "side")
    if seats[side] != PERSON:
        raise Refused(409, f"{side}'s seat is played by a bot", "seat")
    if side in tokens:
        raise Refused(409, f"{side}'s seat is taken (its player's page keeps the token "
                      "and resumes on reload)", "seat")


def seat(table: Table, side: str) -> str:
    """Seat a person at `side`: a new token, its hash kept at the table."""
    token = secrets.token_urlsafe(24)
    table.tokens[side] = token_hash(token)
    return token
