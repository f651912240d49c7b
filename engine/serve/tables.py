"""The games a server hosts: each at a table with its seats, its lock and its file on disk.

A table is one game and who sits at it: per side a bot (its kind) or a person, who joins
with a secret seat token. Only the token's hash is kept, in memory and on disk, so a copy of
the games directory lets nobody act for a player. Every change is written to
`<dir>/<game id>.json` at once (the game's own save, `Game.save`, inside), so the games
survive a restart of the server; a table is read back the first time it is asked for.
"""
from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import re
import secrets
import threading
from pathlib import Path
from typing import Any

import attrs

from engine.bots import BOT_KINDS, bot_seed, make_bot
from engine.errors import SaveError
from engine.game import Game
from engine.loader import load_pack, shipped_packs

TABLE_FORMAT = "engine-table/1"
PERSON = "person"
GAME_ID = re.compile(r"[0-9a-f]{16}")
MAX_SEED = (1 << 63) - 1


class Refused(Exception):
    """A request the server does not carry out: `status` is its HTTP status (4xx), the
    message says why for the person who sent it. Nothing was changed."""

    def __init__(self, status: int, message: str, rule: str | None = None):
        super().__init__(message)
        self.status = status
        self.message = message
        self.rule = rule


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@attrs.define(eq=False)
class Table:
    """One hosted game. `seats`: side -> a bot kind or "person"; `tokens`: side -> the hash
    of the token of the person who joined it. Everything that reads or changes `game` holds
    `lock`."""

    id: str
    pack_ref: str
    game: Game
    seats: dict[str, str]
    lang: str
    tokens: dict[str, str] = attrs.Factory(dict)
    lock: asyncio.Lock = attrs.Factory(asyncio.Lock)
    sockets: set[Any] = attrs.Factory(set)  # the open WebSockets (engine.serve.app)
    bots: dict[str, Any] = attrs.Factory(dict)
    bot_task: asyncio.Task | None = None

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

    def to_data(self) -> dict[str, Any]:
        return {"format": TABLE_FORMAT, "pack": self.pack_ref, "seats": self.seats,
                "lang": self.lang, "tokens": self.tokens, "save": self.game.save()}


class Tables:
    """The tables of one server, kept in `directory` (created when missing)."""

    def __init__(self, directory: str | os.PathLike[str], packs: list[Any] | None = None):
        """`packs`: loaded packs to offer besides the shipped ones (a designer's own, given
        by path to `engine serve --pack`), by their ids."""
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self._tables: dict[str, Table] = {}
        self._packs: dict[str, Any] = {p.id: p for p in packs or []}
        # tables and packs are read in worker threads: each once, never twice at a time
        self._reading = threading.Lock()
        self._loading = threading.Lock()

    # ---- packs ---------------------------------------------------------------------------
    def playable(self) -> list[str]:
        """The packs a game can be made of: the shipped ones and those given (a request
        names one of these, never a path on the server's disk)."""
        return list(dict.fromkeys([*shipped_packs()[0], *self._packs]))

    def pack(self, ref: Any) -> Any:
        if not isinstance(ref, str) or ref not in self.playable():
            raise Refused(404, f"no pack {ref!r} to play here (packs: "
                          f"{', '.join(self.playable())})", "pack")
        with self._loading:
            pack = self._packs.get(ref)
            if pack is None:
                pack = self._packs[ref] = load_pack(ref)
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
            if kind not in BOT_KINDS:
                raise Refused(400, f"{kind!r} is not a bot (bots: {', '.join(BOT_KINDS)})",
                              "bots")
        seats = {side: bots.get(side, PERSON) for side in pack.sides}
        if join is not None:
            self._check_seat(seats, join, {})
        # no undo: the server offers none, and its snapshots cost time and memory
        table = Table(secrets.token_hex(8), pack_ref, pack.new_game(seed, undo=False), seats,
                      lang)
        token = None if join is None else self._seat(table, join)
        self._tables[table.id] = table
        self.store(table)
        return table, token

    def get(self, game_id: str) -> Table:
        """The table of `game_id`, read from disk the first time; Refused (404) if none."""
        with self._reading:
            table = self._tables.get(game_id)
            if table is not None:
                return table
            path = self._path(game_id)
            if path is None or not path.is_file():
                raise Refused(404, f"no game {game_id!r} here", "game")
            table = self._tables[game_id] = self._read(game_id, path)
            return table

    def join(self, table: Table, side: Any) -> str:
        """A new secret token for the person who takes `side`'s seat (once per seat)."""
        self._check_seat(table.seats, side, table.tokens)
        token = self._seat(table, side)
        self.store(table)
        return token

    @staticmethod
    def _check_seat(seats: dict[str, str], side: Any, tokens: dict[str, str]) -> None:
        if not isinstance(side, str) or side not in seats:
            raise Refused(400, f"{side!r} is not a side of this game (sides: "
                          f"{', '.join(seats)})", "side")
        if seats[side] != PERSON:
            raise Refused(409, f"{side}'s seat is played by a bot", "seat")
        if side in tokens:
            raise Refused(409, f"{side}'s seat is taken (its player's page keeps the token "
                          "and resumes on reload)", "seat")

    @staticmethod
    def _seat(table: Table, side: str) -> str:
        token = secrets.token_urlsafe(24)
        table.tokens[side] = token_hash(token)
        return token

    def store(self, table: Table) -> None:
        """Write the table to its file: to a temporary file first, then renamed over the
        old one, so a crash never leaves half a file."""
        path = self.directory / f"{table.id}.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(table.to_data(), ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)

    def _path(self, game_id: str) -> Path | None:
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            return None  # an id is hex digits only: it never names another file
        return self.directory / f"{game_id}.json"

    def _read(self, game_id: str, path: Path) -> Table:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("format") != TABLE_FORMAT:
                raise ValueError(f"not a {TABLE_FORMAT} file")
            pack = self.pack(data["pack"])
            # the server wrote it: the save's digest is checked, without a replay
            game = Game.load(pack, data["save"], verify="digest", undo=False)
            seats = dict(data["seats"])
            if list(seats) != pack.sides:
                raise ValueError("its seats are not the pack's sides")
        except SaveError as err:
            raise Refused(409, f"game {game_id} cannot be resumed: {err}", "save") from None
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise Refused(409, f"game {game_id}'s file is damaged: {err}", "save") from None
        return Table(game_id, data["pack"], game, seats, data.get("lang", "en"),
                     dict(data.get("tokens", {})))
