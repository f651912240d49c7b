"""Chance: every die, shuffle and random pick draws through `_below`, from the seeded
generator (engine.core.rng) or from the outcomes a host supplies (`Game.new(...,
chance=...)`); dice a host or test loaded (`Game.load_dice`)."""
from __future__ import annotations

from typing import Any

from engine.core import rng as _rng
from engine.core.errors import ChanceNeeded
from engine.core.rt import RuleError
from engine.core.runtime.undo import Undo


class Chance(Undo):
    def _below(self, n: int) -> int:
        """A uniform number in 0..n-1: every die, shuffle and random pick draws through here.
        From the seeded generator, or, when the host supplies chance (`self.chance` is a
        list: `Game.new(..., chance=...)`), the next supplied outcome; none left is
        ChanceNeeded(n), and the host rolls back and calls again with one more."""
        if self.chance is not None:
            return self._supplied(n)
        self.s["rng"], value = _rng.below(self.s["rng"], n)
        return value

    def _supplied(self, n: int) -> int:
        if not self.chance:
            raise ChanceNeeded(n)
        value = self.chance.pop()  # kept in reverse: the next outcome is last
        if not (type(value) is int and 0 <= value < n):
            raise RuleError(f"a chance outcome {value!r} was supplied where one of {n} "
                            f"(0 to {n - 1}) is drawn")
        self.s["chance"].append(value)  # the record a save replays (engine.core.saves)
        return value

    def roll(self, n: int, faces: int) -> int:
        loaded = self.s.get("dice")
        if loaded:  # dice a host or test loaded (Game.load_dice): a worked example's rolls
            dice = [self._loaded(loaded, faces) for _ in range(n)]
        else:
            dice = [self._below(faces) + 1 for _ in range(n)]
        self.barrier()
        if self.logging:
            self._log({"t": "roll", "dice": dice})
        return sum(dice)

    def _loaded(self, loaded: list[int], faces: int) -> int:
        if not loaded:
            return self._below(faces) + 1
        value = loaded.pop(0)
        if not 1 <= value <= faces:
            raise RuleError(f"a loaded die shows {value}, but this roll is of a die of "
                            f"{faces} faces")
        return value

    def pick(self, items: list[Any]) -> Any:
        if not items:
            return None
        self.barrier()
        return items[self._below(len(items))]
