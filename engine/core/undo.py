"""Undo: the run of decisions the deciding side may take back (`Game.undo`), and the
checkpoint the state before each of them is rebuilt from (also for `Game.apply`, which puts
a game back as it was when an answer fails).

One entry per decision the side may take back: (side, number of actions, log length). The
state before an entry is rebuilt from the checkpoint by answering the actions since it
again, which is exact (all randomness is in the state). The checkpoint (the state without
its log, as engine.core.copies.snapshot keeps it, number of actions, log length) is taken
by `Game.apply` when a run (the decisions one side takes in a row with nothing hidden or
random between them) starts engine.core.game.CHECKPOINT_EVERY actions or more after the
last one: a snapshot at every run's start was most of the cost of undo in random play, and
undo itself is rare. The log only grows, so both keep its length, not a copy.

A new game's first checkpoint is its start, with no state (None): a new game of the same
seed rebuilds it, so a game that ends before its next checkpoint (most small games) copies
no state at all."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from engine.core.copies import thaw

if TYPE_CHECKING:
    from engine.core.packdata import PackData
    from engine.core.runtime import Runtime

# (the side, the number of actions before its decision, the log's length then)
UndoEntry = tuple[str, int, int]
# (the state then, as `snapshot` keeps it, or None for the game's start, the number of
# actions, the log's length)
Checkpoint = tuple[bytes | dict[str, Any] | None, int, int]


class UndoRun:
    """The decisions a side may take back (`entries`) and their checkpoint (see the
    module's docstring)."""

    __slots__ = ("entries", "checkpoint")

    def __init__(self, entries: list[UndoEntry] | None = None,
                 checkpoint: Checkpoint | None = None) -> None:
        self.entries: list[UndoEntry] = [] if entries is None else entries
        self.checkpoint = checkpoint

    def copy(self) -> UndoRun:
        """An independent run of the same entries (the checkpoint, never changed, shared)."""
        return UndoRun(list(self.entries), self.checkpoint)

    def can_undo(self, side: str) -> bool:
        """Is `side` the one whose decisions the run holds (any)?"""
        entries = self.entries
        return bool(entries) and entries[-1][0] == side

    def stop(self) -> None:
        """No undo before now: neither the run nor its checkpoint can answer again past
        what just happened (dice loaded, chance taken over by the host)."""
        self.entries.clear()
        self.checkpoint = None

    def rewind(self, k: int, rt: Runtime, actions: list[Any], pack: PackData,
               start: Callable[[], dict[str, Any]]) -> None:
        """Put `rt` back at the state before entry k: the checkpoint (taken at or before
        the run's start; `start()` builds the game's start, for a checkpoint without a
        state), then the `actions` answered since, again (all randomness is in the state,
        so they come out the same, log included)."""
        assert self.checkpoint is not None
        state, n0, log0 = self.checkpoint
        n_k = self.entries[k][1]
        state = start() if state is None else thaw(state, pack)
        waiting = rt.chance  # host-supplied chance: the answers again draw what they drew
        if waiting is not None:
            drawn = rt.s["chance"][len(state.get("chance", ())):]
        restore(rt, state, log0)
        if waiting is not None:
            rt.chance = drawn[::-1]
        for a in actions[n0:n_k]:
            rt.answer(a)
        if waiting is not None:
            rt.chance = waiting  # the outcomes the host gave for later (none after ChanceNeeded)


def restore(rt: Runtime, state: dict[str, Any], log_length: int) -> None:
    """Put `rt` back at `state` (a snapshot without the log), cutting the log back to the
    length it had then."""
    log = rt.s["log"]
    del log[log_length:]
    state["log"] = log
    rt.attach(state)
