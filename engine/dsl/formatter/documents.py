"""Documents: what the formatter prints, a tree of text that may break inside brackets
(`Text`, `Seq`, `Brackets`, `Chain`), each with its text on one line (`flat`) and the
first source line of what it holds; and the measures of the page (WIDTH, INDENT).
`engine.dsl.formatter.layout` breaks them to fit.
"""
from __future__ import annotations

from collections.abc import Iterable

INDENT = "    "
# What the printer lays out is a tree of documents, each with its text on one line (`flat`).
# Where a line would pass WIDTH, `_Layout` breaks it inside brackets only (the parser joins
# lines there, and nowhere else): a call's arguments, a list, a comprehension's clauses, one
# operand of an operator chain per line; a chain that stands in no bracket of its own gets
# a pair of parentheses, which the parser drops again (`if (` ... `):`).
WIDTH = 99  # the longest line printed, unless one piece that cannot break is longer


class Doc:
    """Printable text. line: the source line where it starts (0: unknown); lo: the first
    source line of anything in it; wrap: may be put in parentheses (an expression)."""
    __slots__ = ("flat", "line", "lo", "wrap")
    flat: str
    line: int
    lo: int
    wrap: bool

    def _init(self, flat: str, line: int, children: Iterable[Doc], wrap: bool) -> None:
        self.flat, self.line, self.wrap = flat, line, wrap
        self.lo = min([c.lo for c in children if c.lo] + ([line] if line else []), default=0)


class Text(Doc):
    """Text that never breaks."""
    __slots__ = ()

    def __init__(self, text: str, line: int = 0, wrap: bool = False):
        self._init(text, line, (), wrap)


class Seq(Doc):
    """Parts printed one after the other; the breakable ones may break, the last first."""
    __slots__ = ("parts",)

    def __init__(self, parts: Iterable[Doc], line: int = 0, wrap: bool = False):
        self.parts = tuple(parts)
        self._init("".join(p.flat for p in self.parts), line, self.parts, wrap)


class Brackets(Doc):
    """`open` items `close`, the items separated by ", ". Broken: the items on one line of
    their own, or one per line, indented; `close` back at the opening line's indentation."""
    __slots__ = ("open", "items", "close")

    def __init__(self, open: str, items: Iterable[Doc], close: str, line: int = 0,
                 wrap: bool = True):
        self.open, self.items, self.close = open, tuple(items), close
        self._init(f"{open}{', '.join(i.flat for i in self.items)}{close}", line, self.items,
                   wrap)


class Chain(Doc):
    """`first op1 x1 op2 x2 ...`: operands joined by operators (or by a comprehension's
    `for` and `where`). Broken: one operand per line, each after its operator.
    kind: "and"/"or", "arith", "compare", "if" (`a if c else b if d else e`), "query"."""
    __slots__ = ("first", "rest", "kind")

    def __init__(self, kind: str, first: Doc, rest: Iterable[tuple[str, Doc]], line: int = 0,
                 wrap: bool = True):
        self.kind, self.first, self.rest = kind, first, tuple(rest)
        flat = first.flat + "".join(f" {op} {x.flat}" for op, x in self.rest)
        self._init(flat, line, [first, *(x for _, x in self.rest)], wrap)

