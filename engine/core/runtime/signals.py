"""What the run loop and the rules tell each other: the codes a waiting rule's function
returns (engine.dsl.compile.machine writes the same numbers), STOP, and GameOver."""
from __future__ import annotations

from typing import Final

# What a waiting rule's function returns to the run loop (see engine.dsl.compile.machine).
DONE: Final = 0
SUSPEND: Final = 1
PUSHED: Final = 2
STOP: Final = object()  # what a run's `choose` returns to leave the decision waiting


class GameOver(Exception):
    """Unwinds the Python stack when a rule ends the game."""
