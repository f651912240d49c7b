"""Where a node is written: `Pos` (line and column of its start and end; 0 when not known)
and the `at` field every node has, left out of equality so that `fmt` output, which moves
text around, can be compared with the original tree.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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


def subnodes(root: Any) -> Iterator[Any]:
    """`root` and every syntax node inside it (tuples of nodes looked into; positions not
    nodes)."""
    todo = [root]
    while todo:
        node = todo.pop()
        if isinstance(node, tuple):
            todo.extend(node)
        elif attrs.has(type(node)) and not isinstance(node, Pos):
            yield node
            todo.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
