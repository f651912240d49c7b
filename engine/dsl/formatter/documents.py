"""Documents: what the formatter prints, a tree of text that may break inside brackets
(`Text`, `Seq`, `Brackets`, `Chain`), each with its text on one line (`flat`) and the
first source line of what it holds; `JOINT`, where a statement may go on on the next line
after a backslash; and the measures of the page (WIDTH, INDENT).
`engine.dsl.formatter.layout` breaks them to fit.
"""
from __future__ import annotations

from collections.abc import Iterable

INDENT = "    "
# What the printer lays out is a tree of documents, each with its text on one line (`flat`).
# Where a line would pass WIDTH, `_Layout` breaks it inside brackets only (the parser joins
# lines there, and nowhere else): a call's arguments, a list, a comprehension's clauses, one
# operand of an operator chain per line; a chain that stands in no bracket of its own gets
# a pair of parentheses, which the parser drops again (`if (` ... `):`). Outside brackets a
# statement breaks only at its joints (`JOINT`: before a `choose`'s `by`, `where`, `prompt`
# ...), the line ending in a backslash, which the lexer skips with the line break.
WIDTH = 99  # the longest line printed, unless one piece that cannot break is longer


class Doc:
    """Printable text. line: the source line where it starts (0: unknown); lo: the first
    source line of anything in it; wrap: may be put in parentheses (an expression); atom: a
    word of an expression (a name, a number, `f(x)`, `a[i].b`, `not a`), never broken
    inside: breaking it would leave one name on a line of its own."""
    __slots__ = ("flat", "line", "lo", "wrap", "atom")
    flat: str
    line: int
    lo: int
    wrap: bool
    atom: bool

    def _init(self, flat: str, line: int, children: Iterable[Doc], wrap: bool,
              atom: bool = False) -> None:
        self.flat, self.line, self.wrap, self.atom = flat, line, wrap, atom
        self.lo = min([c.lo for c in children if c.lo] + ([line] if line else []), default=0)


class Text(Doc):
    """Text that never breaks."""
    __slots__ = ()

    def __init__(self, text: str, line: int = 0, wrap: bool = False):
        self._init(text, line, (), wrap, True)


class Seq(Doc):
    """Parts printed one after the other; the breakable ones may break, the last first.
    joints: the parts before which the line may end in a backslash, what follows going on
    one step deeper (each such part is text starting with a space: ` prompt "..."`)."""
    __slots__ = ("parts", "joints")

    def __init__(self, parts: Iterable[Doc], line: int = 0, wrap: bool = False,
                 joints: Iterable[int] = ()):
        self.parts, self.joints = tuple(parts), frozenset(joints)
        self._init("".join(p.flat for p in self.parts), line, self.parts, wrap,
                   wrap and all(p.atom for p in self.parts))


class Brackets(Doc):
    """`open` items `close`, the items separated by ", ". Broken: the items on one line of
    their own, or one per line, indented; `close` back at the opening line's indentation."""
    __slots__ = ("open", "items", "close")

    def __init__(self, open: str, items: Iterable[Doc], close: str, line: int = 0,
                 wrap: bool = True):
        self.open, self.items, self.close = open, tuple(items), close
        self._init(f"{open}{', '.join(i.flat for i in self.items)}{close}", line, self.items,
                   wrap, len(self.items) <= 1 and all(i.atom for i in self.items))


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



class Joint:
    """The marker of a joint among the parts given to `S`."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "JOINT"


JOINT = Joint()
