"""Exceptions a front-end may see. None of them means the game state was changed."""
from __future__ import annotations

from typing import Any

from engine.dsl.errors import DslError

__all__ = ["EngineError", "IllegalAction", "EngineFault", "PackError", "SaveError", "NotPlayable",
           "ChanceNeeded", "DslError"]


class EngineError(Exception):
    """Base of the engine's own errors."""


class IllegalAction(EngineError):
    """A front-end offered an action the current decision does not allow.

    The game is left exactly as it was. `rule` names what forbids the action. `str()` is the
    message in English; `text(lang)` in a language of the engine's catalogue (engine.i18n)."""

    def __init__(self, message: Any, rule: str = "decision"):
        super().__init__(str(message))
        self.rule = rule
        self._message = message  # an engine.i18n.Message, or plain text

    def text(self, lang: str = "en") -> str:
        """The message in `lang` (English where the catalogue has none)."""
        text = getattr(self._message, "text", None)
        return text(lang) if callable(text) else str(self._message)


class EngineFault(EngineError):
    """A rule failed while running: a bug in a pack or in the engine.

    Carries what is needed to replay the fault: pack hash, seed and actions."""

    def __init__(self, message: str, pack: str | None = None, pack_hash: str | None = None,
                 seed: int | None = None, actions: list[Any] | None = None):
        super().__init__(message)
        self.message = message
        self.pack, self.pack_hash, self.seed = pack, pack_hash, seed
        self.actions = actions

    def replay_info(self) -> dict[str, Any]:
        return {"message": self.message, "pack": self.pack, "pack_hash": self.pack_hash,
                "seed": self.seed, "actions": self.actions}

    def __str__(self) -> str:
        if self.seed is None:
            return self.message
        return (f"{self.message} (pack {self.pack} {self.pack_hash}, seed {self.seed}, "
                f"after {len(self.actions or [])} actions)")


class ChanceNeeded(EngineError):
    """A game whose chance the host supplies (`Game.new(..., chance=[...])`) drew a random
    number and no supplied outcome was left: `n` equally likely outcomes 0..n-1 are asked
    for. Raised out of `Game.new` (no game) or `Game.apply` (the game is unchanged): supply
    one more outcome and call again."""

    def __init__(self, n: int):
        super().__init__(f"a chance outcome of {n} equally likely ones (0 to {n - 1}) is needed")
        self.n = n


class PackError(DslError, EngineError):
    """A pack could not be loaded; `.diagnostics` lists every problem."""


class SaveError(EngineError):
    """A saved game cannot be loaded: another pack, a bad format, a damaged save, or a state
    that does not match its own actions. The message says what is wrong and where."""


class NotPlayable(EngineError):
    """The pack is a data pack (`playable: false` in pack.yaml): it has records, tables and
    checks but no rules to play yet, so no game can be made from it."""

    def __init__(self, pack: str, ref: str | None = None):
        self.pack = pack
        super().__init__(data_pack_message(pack, ref))


def data_pack_message(pack: str, ref: str | None = None) -> str:
    """One line saying why `pack` cannot be played; `ref` is how the user named it."""
    return (f"{pack} is a data pack (playable: false): it has records, tables and checks but "
            f"no rules to play yet; see `engine cards {ref or pack}`")
