"""The width of the terminal's lines and how a longer line is wrapped."""
from __future__ import annotations

WIDTH = 100  # the board's lines are wrapped to this many columns


def wrap(line: str, width: int, indent: str = "      ") -> list[str]:
    """`line` as lines of at most `width` columns, those after the first indented."""
    import textwrap
    if len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False)
