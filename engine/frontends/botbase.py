"""The base of every computer player (engine.frontends.bots re-exports it): kept apart so
the bots of other modules (engine.frontends.search) derive from it without importing the
module that makes them all."""
from __future__ import annotations

import random
from typing import Any


class Bot:
    """The base of every computer player: `bot.choose(game, side)` returns the action `side`
    answers its decision with, for `game.apply`; `bot.sees_hidden` says whether it decides
    with information its side does not have (no shipped bot does)."""

    name = "bot"
    sees_hidden = False  # True: decides with information its side does not have
    interactive = False

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rnd = random.Random(seed)

    def choose(self, game: Any, side: str) -> Any:  # pragma: no cover - interface
        raise NotImplementedError

    def choose_index(self, game: Any, side: str) -> int | None:
        """The index of the answer `choose` would give (`game.action_at(index)`: the fast
        path of a simulation, which answers with `game.apply_index`), drawn as `choose`
        draws; None, having drawn nothing, when the bot answers this decision by `choose`
        only (the default)."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"
