"""Where a node is written: `Pos` (line and column of its start and end; 0 when not known)
and the `at` field every node has, left out of equality so that `fmt` output, which moves
text around, can be compared with the original tree.
"""
from __future__ import annotations

import attrs


@attrs.frozen
class Pos:
    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0


NOPOS = Pos()


def at_field() -> Pos:
    """The `at` field of a node: its position, not part of its value."""
    return attrs.field(default=NOPOS, eq=False, repr=False, kw_only=True)
