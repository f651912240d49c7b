"""Canonical text of a rules file (`engine fmt`): the syntax tree printed back, comments kept.

Style: 4-space indentation, spaces around binary operators, the fewest parentheses the
precedence allows, `choose` options in a fixed order (by, where, require, optional, prompt).

Width: no line passes WIDTH (99) columns where a break can help. Statements and declarations
are documents (`Doc`: `Text`, `Seq`, `Brackets`, `Chain`) built by a plain dispatch on the
node type (`simple_stmt_doc`, `_one_line_decl`, `_header`, `expr_doc`); `_Layout` breaks any
of them, inside brackets only (where the parser joins lines): items on one line of their
own or one per line, one operand of a chain per line in parentheses of its own if it has
no bracket, a comprehension's clauses, `if`/`else` branches. A new statement plugs in as a
branch of `simple_stmt_doc` returning `S("keyword ", expr, " to ", expr)` (expressions
break where they can) or a plain string (never broken). The layout depends on the tree
only, never on positions or comments; so printing is idempotent.

Blank lines: a block declaration (type, procedure, trigger) always has one blank line
before and after it; between one-line declarations, between statements and between
comments, one blank line is kept where the source had at least one; never at the start of
a block, nor right before `elif`/`else:` unless comments stand there.

Comments (`Module.comments`, placed by line number):
  - a comment on a line of a statement or declaration is printed at the end of the printed
    line where the code before it went (two spaces away; a statement printed on one line
    takes all of them); a comment on a line of its own inside a statement broken over
    several lines stays on a line of its own, before the code that followed it;
  - a comment on a line of its own between statements is printed before the next statement
    or declaration, at its indentation; after the last statement of a block it stays at the
    end of that block if it was indented at least as deep as the block, else it moves
    outwards;
  - comments after the last declaration stay at the end of the file.

The tree does not record the line of an `else:` or `elif`, nor the closing brackets of
parentheses it drops; `format_source` finds them in the text. Without the text
(`format_module(m)`), comments between the last statement of the branch before and the first
of the else block go before `else:` (or, indented as deep as that branch, to its end).

A name that is a keyword (the contextual lexer allows `(order).x`) keeps its parentheses
where the keyword could stand. `parse_module(format_module(m)) == m` for every module the
parser can produce, and `format_source` is idempotent.
"""
from __future__ import annotations

import bisect
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import attrs

from engine.dsl import ast as A
from engine.dsl.parser import parse_module

INDENT = "    "
EVENT_LINE_MAX = 99  # a longer event declaration lists its state as a block (`with:`)
MAX_ENUM_LINE = 99  # a longer `enum` is printed one value a line

# ---- expressions ------------------------------------------------------------------------
# Precedence levels, loosest first; an operand printed below its slot's level gets parens.
P_LAMBDA = 0
P_IF = 1  # a full expression: `a if c else b` and everything tighter
P_OR = 2
P_AND = 3
P_NOT = 4
P_CMP = 5
P_SUM = 6
P_TERM = 7
P_UNARY = 8
P_POSTFIX = 9
P_ATOM = 10

_BINOP_PREC = {"+": P_SUM, "-": P_SUM, "*": P_TERM, "/": P_TERM, "%": P_TERM}

# The grammar's keywords. The contextual lexer reads most of them as names where the keyword
# cannot stand, e.g. `(order).x`; the formatter must keep such names in the same context.
KEYWORDS = frozenset(re.findall(
    r'"([A-Za-z_][A-Za-z0-9_]*)"', (Path(__file__).parent / "grammar.lark").read_text()))


def quote(s: str) -> str:
    """A string literal the lexer reads back as `s`."""
    body = (s.replace("\\", "\\\\").replace('"', '\\"')
            .replace("\n", "\\n").replace("\t", "\\t"))
    return f'"{body}"'


def _prec(e: A.Expr) -> int:
    if isinstance(e, A.Int):
        return P_UNARY if e.value < 0 else P_ATOM
    if isinstance(e, A.BinOp):
        return _BINOP_PREC[e.op]
    if isinstance(e, A.Compare):
        return P_CMP
    if isinstance(e, A.BoolOp):
        return P_OR if e.op == "or" else P_AND
    if isinstance(e, A.Not):
        return P_NOT
    if isinstance(e, A.Neg):
        return P_UNARY
    if isinstance(e, (A.Attr, A.Index)):
        return P_POSTFIX
    if isinstance(e, A.Lambda):
        return P_LAMBDA
    if isinstance(e, A.IfExp):
        return P_IF
    return P_ATOM


def format_expr(e: A.Expr, min_prec: int = P_IF) -> str:
    """`e` as text fit for a slot of precedence `min_prec` (parenthesized if it binds looser).

    The slot may come after a keyword or start a statement, where the lexer takes a name such
    as `order` for the keyword: such a name, possible only in parentheses, keeps them."""
    return expr_doc(e, min_prec).flat


# ---- documents: text that may break inside brackets --------------------------------------
# What the printer lays out is a tree of documents, each with its text on one line (`flat`).
# Where a line would pass WIDTH, `_Layout` breaks it inside brackets only (the parser joins
# lines there, and nowhere else): a call's arguments, a list, a comprehension's clauses, one
# operand of an operator chain per line; a chain that stands in no bracket of its own gets
# a pair of parentheses, which the parser drops again (`if (` ... `):`).
WIDTH = 99  # the longest line printed, unless one piece that cannot break is longer
_STEP = 4  # what a bracket's contents are indented by, in columns


class Doc:
    """Printable text. line: the source line where it starts (0: unknown); lo: the first
    source line of anything in it; wrap: may be put in parentheses (an expression)."""
    __slots__ = ("flat", "line", "lo", "wrap")

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


def S(*parts: str | Doc | A.Expr) -> Doc:
    """One line of a statement or declaration: text, documents and expressions (each in a
    full expression slot). Expressions may break inside their brackets; the rest never."""
    docs: list[Doc] = []
    for p in parts:
        d = Text(p) if isinstance(p, str) else p if isinstance(p, Doc) else expr_doc(p)
        if _plain(d) and docs and _plain(docs[-1]):
            docs[-1] = Text(docs[-1].flat + d.flat)
        elif d.flat or not isinstance(d, Text):
            docs.append(d)
    return docs[0] if len(docs) == 1 and not docs[0].wrap else Seq(docs)


def _plain(d: Doc) -> bool:
    """Text of a statement's own (keywords, punctuation): it joins the text next to it."""
    return isinstance(d, Text) and not d.wrap and not d.line


def listing(open: str, items: Iterable[str | Doc | A.Expr], close: str) -> Brackets:
    """`open a, b, c close`, breakable like a call's arguments (a statement's own brackets:
    an event's arguments, a procedure's parameters)."""
    return Brackets(open, [Text(i) if isinstance(i, str) else i if isinstance(i, Doc)
                           else expr_doc(i) for i in items], close, wrap=False)


def expr_doc(e: A.Expr, min_prec: int = P_IF, lead: bool = True) -> Doc:
    """The document of `e` in a slot of precedence `min_prec` (see `format_expr`)."""
    if _prec(e) < min_prec and not isinstance(e, A.Lambda):
        return Brackets("(", [_edoc(e, False)], ")")
    return _edoc(e, lead)


def _edoc(e: A.Expr, lead: bool = False) -> Doc:
    """lead: the text starts a slot that is not inside brackets or after an operator."""
    line = _line(e)
    if isinstance(e, A.Int):
        return Text(str(e.value), line, True)
    if isinstance(e, A.Str):
        return Text(quote(e.value), line, True)
    if isinstance(e, A.Bool):
        return Text("true" if e.value else "false", line, True)
    if isinstance(e, A.NoneLit):
        return Text("none", line, True)
    if isinstance(e, A.Name):
        return Text(f"({e.id})" if lead and e.id in KEYWORDS else e.id, line, True)
    if isinstance(e, A.Call):
        call = Brackets(f"{e.func}(", _call_args(e.args, e.kwargs), ")", line)
        return Brackets("(", [call], ")") if lead and e.func in KEYWORDS else call
    if isinstance(e, A.Attr):
        return Seq([expr_doc(e.obj, P_POSTFIX, lead), Text(f".{e.name}")], line, True)
    if isinstance(e, A.Index):
        obj = expr_doc(e.obj, P_POSTFIX, lead)
        items = [expr_doc(i, P_IF, False) for i in e.args]
        if isinstance(obj, Text):
            return Brackets(f"{obj.flat}[", items, "]", line)
        return Seq([obj, Brackets("[", items, "]")], line, True)
    if isinstance(e, A.BinOp):
        return _arith(e, lead)
    if isinstance(e, A.Compare):  # not associative: both operands are sums
        return Chain("compare", expr_doc(e.left, P_SUM, lead),
                     [(e.op, expr_doc(e.right, P_SUM, False))], line)
    if isinstance(e, A.BoolOp):
        inner = P_AND if e.op == "or" else P_NOT
        items = [expr_doc(item, inner, lead and i == 0) for i, item in enumerate(e.items)]
        return Chain(e.op, items[0], [(e.op, x) for x in items[1:]], line)
    if isinstance(e, A.Not):
        return Seq([Text("not "), expr_doc(e.expr, P_NOT, False)], line, True)
    if isinstance(e, A.Neg):
        return Seq([Text("-"), expr_doc(e.expr, P_UNARY, False)], line, True)
    if isinstance(e, A.ListLit):
        return Brackets("[", [expr_doc(i, P_IF, False) for i in e.items], "]", line)
    if isinstance(e, A.Comprehension):
        return Brackets("[", [_query(e)], "]", line)
    if isinstance(e, A.Lambda):  # only a call's argument: never in parentheses of its own
        return _lambda(e)
    if isinstance(e, A.IfExp):
        return _ifexp(e, lead)
    raise TypeError(f"not an expression: {e!r}")


def _lambda(e: A.Lambda) -> Doc:
    head = e.param if e.type is None else f"({e.param}: {format_type(e.type)})"
    return Seq([Text(f"{head} => "), expr_doc(e.body, P_IF, False)], _line(e))


def _arith(e: A.BinOp, lead: bool) -> Chain:
    """`a + b - c` as one chain: left operands of the same precedence need no parentheses
    (operators are left-associative), so they join the chain; walked without recursion."""
    p = _BINOP_PREC[e.op]
    rights: list[tuple[str, A.Expr]] = []
    left: A.Expr = e
    while isinstance(left, A.BinOp) and _BINOP_PREC[left.op] == p and (
            left is e or _prec(left) >= p):
        rights.append((left.op, left.right))
        left = left.left
    rest = [(op, expr_doc(r, p + 1, False)) for op, r in reversed(rights)]
    return Chain("arith", expr_doc(left, p, lead), rest, _line(e))


def _ifexp(e: A.IfExp, lead: bool) -> Chain:
    """`a if c else b if d else e` as one chain (the `else` branch binds loosest)."""
    rest: list[tuple[str, Doc]] = []
    first = expr_doc(e.then, P_OR, lead)
    node = e
    while True:
        rest.append(("if", expr_doc(node.cond, P_OR, False)))
        nxt = node.orelse
        if not (isinstance(nxt, A.IfExp) and _prec(nxt) >= P_IF):
            rest.append(("else", expr_doc(nxt, P_IF, False)))
            break
        rest.append(("else", expr_doc(nxt.then, P_OR, False)))
        node = nxt
    return Chain("if", first, rest, _line(e))


def _query(c: A.Comprehension) -> Chain:
    """The inside of `[...]`: `x in src where cond` (a filter) or `e for x in src where c`."""
    src = expr_doc(c.source, P_SUM, False)
    if c.cond is not None and isinstance(c.expr, A.Name) and c.expr.id == c.var:
        head = Seq([Text(f"{c.var} in "), src], _line(c.expr))
        return Chain("query", head, [("where", expr_doc(c.cond, P_IF, False))], wrap=False)
    rest = [("for", Seq([Text(f"{c.var} in "), src]))]
    if c.cond is not None:
        rest.append(("where", expr_doc(c.cond, P_IF, False)))
    return Chain("query", expr_doc(c.expr, P_IF, False), rest, wrap=False)


def _args(items: Iterable[A.Expr]) -> list[Doc]:
    return [expr_doc(i, P_IF, False) for i in items]


def _call_args(args: tuple[A.Expr, ...], kwargs: tuple[A.KwArg, ...] = ()) -> list[Doc]:
    if len(args) == 1 and not kwargs and isinstance(args[0], A.Comprehension):
        return [_query(args[0])]  # count(c in hand where ...), sum(x.v for x in t)
    return _args(args) + [Seq([Text(f"{k.name} = "), expr_doc(k.value, P_IF, False)])
                          for k in kwargs]


# ---- laying documents out in WIDTH columns -----------------------------------------------
class _Out:
    """A document laid out: its lines (the first continues the line it starts on, the others
    carry their indentation), for each line the first source line of what starts on it
    (0: nothing known), and the columns past WIDTH, summed over the lines."""
    __slots__ = ("lines", "marks", "cost")

    def __init__(self, lines: list[str], marks: list[int], cost: int):
        self.lines, self.marks, self.cost = lines, marks, cost


class _Buf:
    """Lines being built, starting at column `col`."""

    def __init__(self, col: int, line: int = 0):
        self.col, self.lines, self.marks = col, [""], [line]

    def text(self, s: str, line: int = 0) -> None:
        self.lines[-1] += s
        self.mark(line)

    def mark(self, line: int) -> None:
        if line and (not self.marks[-1] or line < self.marks[-1]):
            self.marks[-1] = line

    def newline(self, indent: int) -> None:
        self.lines.append(" " * indent)
        self.marks.append(0)

    def put(self, out: _Out) -> None:
        self.lines[-1] += out.lines[0]
        self.mark(out.marks[0])
        self.lines.extend(out.lines[1:])
        self.marks.extend(out.marks[1:])

    def at(self) -> int:
        """The column where the next text goes."""
        return len(self.lines[-1]) + (self.col if len(self.lines) == 1 else 0)

    def done(self, tail: int) -> _Out:
        widths = [len(ln) for ln in self.lines]
        widths[0] += self.col
        widths[-1] += tail
        return _Out(self.lines, self.marks, sum(max(0, w - WIDTH) for w in widths))


# Documents searched per statement; past that, what is left breaks wherever it can. A bound
# for absurd input (dozens of nested brackets, nothing fitting), where the search would grow
# exponentially; real rules need a few dozen.
_BUDGET = 20_000


class _Layout:
    """Chooses, for each document, the layout that fits in WIDTH columns (the first, in the
    order of preference, that does; else the one that passes WIDTH least)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, int, int, int, bool], _Out] = {}
        self.budget = _BUDGET

    def lay(self, d: Doc, ind: int, col: int, tail: int, bare: bool) -> _Out:
        """`d` starting at column `col` of a line indented `ind`, with `tail` columns of text
        after it. bare: no bracket of its own around it (a chain breaks in parentheses)."""
        whole = isinstance(d, Text) or (isinstance(d, Brackets) and not d.items)
        if col + len(d.flat) + tail <= WIDTH or (whole and not (bare and d.wrap)):
            return self._flat(d, col, tail)
        key = (id(d), ind, col, tail, bare)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._best(d, ind, col, tail, bare)
        return got

    def _flat(self, d: Doc, col: int, tail: int) -> _Out:
        return _Out([d.flat], [d.lo], max(0, col + len(d.flat) + tail - WIDTH))

    def _best(self, d: Doc, ind: int, col: int, tail: int, bare: bool) -> _Out:
        best = self._flat(d, col, tail)
        self.budget -= 1
        if self.budget < 0:  # no more search: break everything that can break
            return min(best, self._broken(d, ind, col, tail, bare), key=lambda o: o.cost)
        for out in self._options(d, ind, col, tail, bare):
            if out.cost < best.cost:
                best = out
                if not best.cost:
                    break
        return best

    def _options(self, d: Doc, ind: int, col: int, tail: int, bare: bool) -> Iterator[_Out]:
        if isinstance(d, Chain):
            yield from self._chain(d, ind, col, tail, bare and d.wrap)
            return  # a chain breaks in parentheses of its own already
        if isinstance(d, Brackets):
            yield from self._brackets(d, ind, col, tail)
        elif isinstance(d, Seq):
            yield from self._seq(d, ind, col, tail)
        # `(`, on a line of its own, `)`: where that starts it further left, or moves what
        # follows it (an `until` list) onto the short line of `)`
        if bare and d.wrap and (col > ind + _STEP or tail > len(d.flat)):
            wrapped = self._wrapped(d, ind, col, tail, lambda b: self._put(b, d, ind + _STEP))
            if wrapped.cost == 0 or not _word(d):  # a word: only if it then fits
                yield wrapped
        if isinstance(d, Seq) and not d.wrap:  # last: a statement's word in parentheses
            words = [i for i, p in enumerate(d.parts) if _word(p)]
            for k in reversed(words):
                yield self._seq_with(d, ind, col, tail, {k})
            # and with the rest broken too: `set (` .. `) = (` .. `) until ...` puts what
            # follows the word (an `until` list) on the short line of `)`
            rest = {i for i, p in enumerate(d.parts) if not isinstance(p, Text)}
            if rest:
                for k in reversed(words):
                    yield self._seq_with(d, ind, col, tail, rest | {k})

    def _broken(self, d: Doc, ind: int, col: int, tail: int, bare: bool) -> _Out:
        """The layout that breaks `d` wherever it can, chosen without a search."""
        if isinstance(d, Chain):
            if bare and d.wrap:
                return self._wrapped(d, ind, col, tail,
                                     lambda b: self._operands(b, d, ind + _STEP, 0))
            b = _Buf(col, d.line)
            self._operands(b, d, ind, tail)
            return b.done(tail)
        if isinstance(d, Brackets) and d.items:
            return self._each_item(d, ind, col, tail)
        if isinstance(d, Seq):
            return self._seq_with(d, ind, col, tail, {
                i for i, p in enumerate(d.parts) if not isinstance(p, Text)})
        return self._flat(d, col, tail)

    def _put(self, b: _Buf, d: Doc, ind: int, tail: int = 0, bare: bool = False) -> None:
        b.put(self.lay(d, ind, b.at(), tail, bare))

    def _wrapped(self, d: Doc, ind: int, col: int, tail: int,
                 body: Callable[[_Buf], None]) -> _Out:
        """`(`, the body on lines indented one step deeper, `)`."""
        b = _Buf(col)
        b.text("(")
        b.newline(ind + _STEP)
        body(b)
        b.newline(ind)
        b.text(")")
        return b.done(tail)

    def _seq(self, d: Seq, ind: int, col: int, tail: int) -> Iterator[_Out]:
        breakable = [i for i, p in enumerate(d.parts) if not isinstance(p, Text)]
        for k in reversed(breakable):  # one part broken, the last one first
            yield self._seq_with(d, ind, col, tail, {k})
        if len(breakable) > 1:  # each part broken where what follows it does not fit
            yield self._seq_with(d, ind, col, tail, set(breakable))

    def _seq_with(self, d: Seq, ind: int, col: int, tail: int, broken: set[int]) -> _Out:
        b = _Buf(col, d.line)
        after = sum(len(p.flat) for p in d.parts) + tail
        for i, p in enumerate(d.parts):
            after -= len(p.flat)
            if i in broken:
                self._put(b, p, ind, after, True)
            else:
                b.text(p.flat, p.lo)
        return b.done(tail)

    def _brackets(self, d: Brackets, ind: int, col: int, tail: int) -> Iterator[_Out]:
        if not d.items:
            return
        inner = ind + _STEP
        b = _Buf(col, d.line)  # the items on one line of their own
        b.text(d.open)
        b.newline(inner)
        for i, item in enumerate(d.items):
            b.text((", " if i else "") + item.flat, item.lo)
        b.newline(ind)
        b.text(d.close)
        yield b.done(tail)
        yield self._each_item(d, ind, col, tail)

    def _each_item(self, d: Brackets, ind: int, col: int, tail: int) -> _Out:
        """One item per line."""
        inner = ind + _STEP
        b = _Buf(col, d.line)
        b.text(d.open)
        last = len(d.items) - 1
        for i, item in enumerate(d.items):
            b.newline(inner)
            self._put(b, item, inner, 0 if i == last else 1, last > 0)
            if i < last:
                b.text(",")
        b.newline(ind)
        b.text(d.close)
        return b.done(tail)

    def _chain(self, d: Chain, ind: int, col: int, tail: int, wrap: bool) -> Iterator[_Out]:
        hug = len(d.rest) == 1 and d.kind in ("arith", "compare")
        if hug:
            yield from self._hug_last(d, ind, col, tail)
        arms = _arms(d) if d.kind == "if" else None
        if wrap:
            inner = ind + _STEP
            if inner + len(d.flat) <= WIDTH:  # `(`, the whole chain on one line, `)`
                yield self._wrapped(d, ind, col, tail, lambda b: b.text(d.flat, d.lo))
            if hug:
                yield from self._hug_first(d, ind, col, tail)
            if arms and max(inner + len(a) for a, _ in arms) <= WIDTH:
                yield self._wrapped(d, ind, col, tail, lambda b: _put_arms(b, arms, inner))
            yield self._wrapped(d, ind, col, tail, lambda b: self._operands(b, d, inner, 0))
            return
        if hug:
            yield from self._hug_first(d, ind, col, tail)
        if arms and max([col + len(arms[0][0])] + [ind + len(a) for a, _ in arms[1:]]) \
                + tail <= WIDTH:
            b = _Buf(col, d.line)
            _put_arms(b, arms, ind)
            yield b.done(tail)
        b = _Buf(col, d.line)
        self._operands(b, d, ind, tail)
        yield b.done(tail)

    def _hug_last(self, d: Chain, ind: int, col: int, tail: int) -> Iterator[_Out]:
        """`a op b(` ... `)`: broken inside the brackets of the last operand."""
        (op, last), first = d.rest[0], d.first
        if _bracketed(last) and _light(first):
            b = _Buf(col, d.line)
            b.text(f"{first.flat} {op} ", first.lo)
            self._put(b, last, ind, tail, True)
            yield b.done(tail)

    def _hug_first(self, d: Chain, ind: int, col: int, tail: int) -> Iterator[_Out]:
        """`a(` ... `) op b`: broken inside the brackets of the first operand."""
        (op, last), first = d.rest[0], d.first
        if _bracketed(first) and _light(last):
            b = _Buf(col, d.line)
            self._put(b, first, ind, len(f" {op} {last.flat}") + tail, True)
            b.text(f" {op} {last.flat}", last.lo)
            yield b.done(tail)

    def _operands(self, b: _Buf, d: Chain, ind: int, tail: int) -> None:
        """One operand per line, each after its operator."""
        self._put(b, d.first, ind, 0, True)
        for i, (op, x) in enumerate(d.rest):
            b.newline(ind)
            b.text(f"{op} ")
            self._put(b, x, ind, tail if i == len(d.rest) - 1 else 0, True)


def _arms(d: Chain) -> list[tuple[str, int]]:
    """The branches of `a if c else b if d else e`, one per line: `a if c`, `else b if d`,
    `else e`; each with the first source line in it."""
    ops = [(None, d.first), *d.rest]
    arms = []
    for i in range(0, len(ops), 2):
        pair = ops[i:i + 2]
        arms.append((" ".join(x.flat if op is None else f"{op} {x.flat}" for op, x in pair),
                     min([x.lo for _, x in pair if x.lo], default=0)))
    return arms


def _put_arms(b: _Buf, arms: list[tuple[str, int]], ind: int) -> None:
    for i, (arm, mark) in enumerate(arms):
        if i:
            b.newline(ind)
        b.text(arm, mark)


def _bracketed(d: Doc) -> bool:
    """Does `d` break inside brackets of its own (a call, a list, an index)?"""
    return isinstance(d, Brackets) or (
        isinstance(d, Seq) and any(isinstance(p, Brackets) for p in d.parts))


def _word(d: Doc) -> bool:
    """A word of an expression (a name, a number, a string, `f()`): breaks only in
    parentheses."""
    return d.wrap and (isinstance(d, Text) or (isinstance(d, Brackets) and not d.items))


def _light(d: Doc) -> bool:
    """Is `d` free of calls, lists and indexes (text that reads at a glance)?"""
    if isinstance(d, Seq):
        return all(_light(p) for p in d.parts)
    if isinstance(d, Chain):
        return _light(d.first) and all(_light(x) for _, x in d.rest)
    if isinstance(d, Brackets):
        return d.open == "(" and all(_light(i) for i in d.items)
    return True


def layout(d: Doc | str, indent: int = 0) -> list[str]:
    """The lines of `d` (a statement's document, or any expression's: `expr_doc(e)`) printed
    at `indent` columns, broken to fit in WIDTH columns where it can."""
    lines = _lay_out(Text(d) if isinstance(d, str) else d, indent).lines
    return [" " * indent + lines[0], *lines[1:]]


def _lay_out(d: Doc, indent: int) -> _Out:
    return _Layout().lay(d, indent, indent, 0, True)


# ---- types, actions, simple statements ---------------------------------------------------
def format_type(t: A.TypeExpr) -> str:
    if isinstance(t, A.TName):
        return t.name
    if isinstance(t, A.TOptional):
        return f"{t.name}?"
    if isinstance(t, A.TList):
        return f"list of {format_type(t.elem)}"
    raise TypeError(f"not a type: {t!r}")


def _params(params: Iterable[A.Param]) -> list[str | Doc]:
    """A declaration's parameters; a default value may break inside its brackets."""
    return [S(f"{p.name}: {format_type(p.type)} = ", p.default) if p.default is not None
            else f"{p.name}: {format_type(p.type)}" for p in params]


def _action(a: A.Action) -> Doc:
    if isinstance(a, A.Choose):
        parts: list[str | Doc | A.Expr] = ["choose "]
        if a.count is not None:
            parts += [_count(a.count), " "]
        parts += [f"{a.var} from ", a.source]
        for word, opt in (("by", a.by), ("where", a.where), ("require", a.require)):
            if opt is not None:
                parts += [f" {word} ", opt]
        if a.optional:
            parts.append(" optional")
        if a.each:
            parts.append(" one at a time")
        if a.prompt is not None:
            parts.append(f" prompt {quote(a.prompt)}")
        return S(*parts)
    if isinstance(a, A.Ask):
        return S("ask ", a.side, f" {quote(a.prompt)}")
    if isinstance(a, A.Order):
        return S("order ", a.items, " by ", a.by)
    if isinstance(a, A.Draw):
        return S("draw ", a.count, " from ", a.source, " to ", a.dest)
    if isinstance(a, A.Open):
        return S("open ", listing(f"{a.window}(", a.args, ")"))
    if isinstance(a, A.Create):
        parts = [f"create {a.type}"]
        for i, f in enumerate(a.fields):
            parts += [" with " if i == 0 else ", ", f"{f.name} = ", f.value]
        if a.dest is not None:
            parts += [f" to {a.place} of " if a.place else " to ", a.dest]
        return S(*parts)
    raise TypeError(f"not an action: {a!r}")


def _count(c: A.Count) -> Doc:
    high = expr_doc(c.high, P_SUM)
    if c.kind == "exact":
        return high
    if c.kind == "up_to":
        return S("up to ", high)
    if c.kind == "range":
        assert c.low is not None
        return S(expr_doc(c.low, P_SUM), " to ", high)
    raise ValueError(f"unknown count kind {c.kind!r}")


def _rhs(v: A.Rhs) -> Doc:
    return _action(v) if isinstance(v, A.ACTIONS) else expr_doc(v)


def _duration(d: A.Duration) -> Doc:
    """A duration with its leading space: ` until end of turn or reshuffle`, ` while c`."""
    if d.kind == "while":
        assert d.cond is not None
        return S(" while ", d.cond)
    items = [Text(_until_item(i)) for i in (d.items if d.kind == "any" else (d,))]
    if len(items) == 1:
        return Text(" until " + items[0].flat)
    # a list too long for its line breaks in parentheses, one item a line: `until (` .. `)`
    return S(" until ", Chain("or", items[0], [("or", x) for x in items[1:]]))


def _until_item(d: A.Duration) -> str:
    times = "" if d.count == 1 else f" {d.count} times"
    if d.kind == "end_of":
        return f"end of {'outermost ' if d.outermost else ''}{d.event}{times}"
    if d.kind == "start_of":
        return f"{d.event}{times}"
    raise ValueError(f"unknown duration kind {d.kind!r}")


_MODIFY_OPS = {"by": "by", "to": "to", "least": "at least", "most": "at most"}


def simple_stmt_doc(s: A.Stmt) -> Doc | str:
    """A statement that has no block: `S(...)` of its text and expressions (a plain string
    prints as it is, never broken)."""
    if isinstance(s, A.Let):
        typed = f": {format_type(s.type)}" if s.type is not None else ""
        return S(f"let {s.name}{typed} = ", _rhs(s.value))
    if isinstance(s, A.Assign):
        return S(expr_doc(s.target, P_POSTFIX), " = ", _rhs(s.value))
    if isinstance(s, A.AugAssign):
        return S(expr_doc(s.target, P_POSTFIX), f" {s.op} ", s.value)
    if isinstance(s, A.ExprStmt):
        return S(s.expr)
    if isinstance(s, A.ActionStmt):
        return _action(s.action)
    if isinstance(s, A.Emit):
        return S(f"{'enqueue' if s.queued else 'emit'} ",
                 Brackets(f"{s.event}(", _call_args(s.args, s.kwargs), ")", wrap=False))
    if isinstance(s, A.Move):
        place = f"{s.place} of " if s.place else ""
        return S("move ", s.what, f" to {place}", s.dest)
    if isinstance(s, A.Shuffle):
        return S("shuffle ", s.zone)
    if isinstance(s, A.Destroy):
        return S("destroy ", s.what)
    if isinstance(s, A.Reveal):
        return S("reveal ", s.what, *((" to ", s.to) if s.to is not None else ()))
    if isinstance(s, A.Modify):
        return S("modify ", Brackets(f"{s.key}(", _call_args(s.args, s.kwargs), ")", wrap=False),
                 f" {_MODIFY_OPS[s.op]} ", s.amount,
                 *((_duration(s.duration),) if s.duration is not None else ()))
    if isinstance(s, A.SetUntil):
        return S("set ", expr_doc(s.target, P_POSTFIX), " = ", s.value, _duration(s.duration))
    if isinstance(s, A.Win):
        if s.reason is not None:
            return S("win ", s.side, f", {quote(s.reason)}")
        return S("win ", s.side)
    if isinstance(s, A.EndGame):
        return "end game" if s.reason is None else f"end game, {quote(s.reason)}"
    if isinstance(s, A.Return):
        return "return" if s.value is None else S("return ", s.value)
    if isinstance(s, A.Log) and s.inline:
        return f"log {quote(s.message)}"
    if isinstance(s, A.Log):
        return S(f"log {quote(s.message)}", *(x for a in s.args for x in (", ", a)))
    if isinstance(s, A.Pass):
        return "pass"
    if isinstance(s, A.Break):
        return "break"
    if isinstance(s, A.Continue):
        return "continue"
    raise TypeError(f"not a simple statement: {s!r}")


def format_simple_stmt(s: A.Stmt) -> str:
    """One line of a statement that has no block (unbroken)."""
    d = simple_stmt_doc(s)
    return d if isinstance(d, str) else d.flat


def _one_line_decl(d: A.Decl) -> Doc | str:
    if isinstance(d, A.VarDecl):
        parts: list[str | Doc | A.Expr] = [
            listing(f"var {d.name}[", _params(d.params), "]") if d.params else f"var {d.name}",
            f": {format_type(d.type)}"]
        if d.bounds is not None:
            parts += [" in ", expr_doc(d.bounds[0], P_SUM), "..", expr_doc(d.bounds[1], P_SUM)]
        if d.default is not None:
            parts += [" = ", d.default]
        if d.visibility != "public":
            parts.append(f" {d.visibility}")
        return S(*parts)
    if isinstance(d, A.ZoneDecl):
        head = listing(f"zone {d.name}[", _params(d.params), "]") if d.params \
            else f"zone {d.name}"
        return S(head, f" of {d.of}" if d.of is not None else "",
                 "".join(f" {f}" for f in d.flags))
    if isinstance(d, A.EventDecl):
        parts: list[str | Doc | A.Expr] = ["event ", listing(f"{d.name}(", _params(d.params),
                                                             ")")]
        for i, f in enumerate(d.state):
            parts += [" with " if i == 0 else ", ", _field(f)]
        return S(*parts)
    if isinstance(d, A.ValueDecl):
        return S("value ", listing(f"{d.name}(", _params(d.params), ")"),
                 f": {format_type(d.type)} = ", d.expr)
    if isinstance(d, A.CheckDecl):
        return S(f"{'invariant' if d.invariant else 'check'} {quote(d.message)}: ", d.expr)
    if isinstance(d, A.GraphDecl):
        text = f"graph {d.name} of {d.node_type} via {d.edge_type}"
        return S(text, " where ", _lambda(d.where)) if d.where is not None else text
    if isinstance(d, A.ConstDecl):
        typed = f": {format_type(d.type)}" if d.type is not None else ""
        return S(f"const {d.name}{typed} = ", d.expr)
    if isinstance(d, A.EnumDecl):
        return f"enum {d.name}: {', '.join(v.name for v in d.values)}"
    raise TypeError(f"not a one-line declaration: {d!r}")


def _window_clauses(d: A.WindowDecl) -> list[tuple[Doc | str, int, int]]:
    """The clause lines of a window declaration: (text, first and last source line), in
    the order they were written; without positions, in the order by, from, to, effect,
    prompt, openings. A clause starts on its keyword's line (its expression may start on
    the next, after a bracket the formatter opened)."""
    where: dict[str, list[int]] = {}
    for key, at in d.clauses:
        where.setdefault(key, []).append(at.line)

    def first(key: str, node: object, i: int = 0) -> int:
        lines = where.get(key, [])
        return lines[i] if i < len(lines) and lines[i] else _line(node)

    src: list[str | Doc | A.Expr] = [f"from {d.var} in ", expr_doc(d.source, P_SUM)]
    if d.where is not None:
        src += [" where ", d.where]
    out: list[tuple[Doc | str, int, int]] = [
        (S("by ", d.by), first("by", d.by), _last_line(d.by)),
        (S(*src), first("from", d.source), _last_line(d.source, d.where)),
        (S("to ", d.to), first("to", d.to), _last_line(d.to))]
    if d.effect is not None:
        out.append((f"effect {d.effect.id}", first("effect", d.effect), _line(d.effect)))
    if d.prompt is not None:
        out.append((f"prompt {quote(d.prompt.value)}", first("prompt", d.prompt),
                    _line(d.prompt)))
    out += [(f"{o.kind} {o.event}", first("opens", o, i), _line(o))
            for i, o in enumerate(d.opens)]
    return sorted(out, key=lambda c: c[1]) if all(c[1] for c in out) else out


def _enum_lines(d: A.EnumDecl) -> list[list[A.EnumValue]]:
    """The lines of an enum printed as a block: the values written on one line stay
    together (their comments with them), split where a line would pass MAX_ENUM_LINE."""
    lines: list[list[A.EnumValue]] = []
    for v in d.values:
        last = lines[-1] if lines else None
        same_line = last is not None and _line(last[-1]) == _line(v) != _line(d)
        fits = last is not None and len(INDENT) + sum(len(x.name) + 2 for x in last) \
            + len(v.name) <= MAX_ENUM_LINE
        if last is not None and fits and (same_line or _line(v) == _line(d)):
            last.append(v)
        else:
            lines.append([v])
    return lines


def _field(f: A.FieldDecl) -> Doc:
    parts: list[str | Doc | A.Expr] = [f"{'var ' if f.var else ''}{f.name}: {format_type(f.type)}"]
    if f.bounds is not None:
        parts += [" in ", expr_doc(f.bounds[0], P_SUM), "..", expr_doc(f.bounds[1], P_SUM)]
    if f.default is not None:
        parts += [" = ", f.default]
    return S(*parts)


def _header(s: A.Stmt | A.Decl) -> Doc:
    """The first line of a block statement or declaration, up to its colon."""
    if isinstance(s, A.For):
        return S(f"for {s.var} in ", s.source,
                 *((" where ", s.where) if s.where is not None else ()), ":")
    if isinstance(s, A.While):
        return S("while ", s.cond, ":")
    if isinstance(s, A.Repeat):
        return S("repeat ", s.count, ":")
    if isinstance(s, A.ProcDecl):
        ret = f" -> {format_type(s.returns)}" if s.returns is not None else ""
        return S("procedure ", listing(f"{s.name}(", _params(s.params), ")"), f"{ret}:")
    if isinstance(s, A.TriggerDecl):
        head = "instead of" if s.kind == "instead" else s.kind
        event = listing(f"{s.event}(", s.names, ")") if s.names is not None else s.event
        return S(f"{head} ", event, *((" if ", s.cond) if s.cond is not None else ()), ":")
    raise TypeError(f"no block header: {s!r}")


_BLOCK_DECLS = (A.TypeDecl, A.ProcDecl, A.TriggerDecl, A.WindowDecl)
_COMPOUND = (A.If, A.For, A.While, A.Repeat)
# Nodes whose parsed `at` runs on over the line break (and blank lines) after them.
_LOOSE_END = (A.TypeDecl, A.VarDecl, A.ZoneDecl, A.EventDecl, A.ProcDecl, A.ValueDecl,
              A.CheckDecl, A.GraphDecl, A.TriggerDecl, A.FieldDecl, A.WindowDecl,
              A.WindowOpening, A.EnumDecl, A.ConstDecl) + _COMPOUND


def _line(node: object) -> int:
    at = getattr(node, "at", None)
    return at.line if isinstance(at, A.Pos) else 0


def _last_line(*nodes: object) -> int:
    """The last source line holding a token of the nodes (0 when positions are unknown)."""
    best = 0
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not attrs.has(type(n)):
            continue
        at = getattr(n, "at", None)
        if isinstance(at, A.Pos):
            best = max(best, at.line if isinstance(n, _LOOSE_END) else at.end_line)
        stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)) if f.name != "at")
    return best


# ---- layout with comments ---------------------------------------------------------------
_ELSE = re.compile(r"[ \t\f]*else[ \t\f]*:")
_ELIF = re.compile(r"[ \t\f]*elif\b")
_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#.*|[()\[\]]')


class _Printer:
    def __init__(self, module: A.Module, source: str | None = None):
        self.lines: list[str] = []
        self.comments = deque(sorted(c for c in module.comments if c[0] > 0))
        self.else_lines: dict[int, int] = {}  # id(If) -> line of its `else:`
        self.elif_lines: dict[tuple[int, int], int] = {}  # (id(If), branch) -> its line
        self.text = source.split("\n") if source is not None else None
        if source is not None:
            self._find_else_lines(module.decls, source.split("\n"))
        self.anchors = sorted(set(self._anchor_lines(module.decls)))
        self.last = 0  # last source line printed so far

    def _find_else_lines(self, decls: tuple[A.Decl, ...], text: list[str]) -> None:
        stack: list[object] = list(decls)
        while stack:
            n = stack.pop()
            if isinstance(n, (list, tuple)):
                stack.extend(n)
            elif attrs.has(type(n)):
                if isinstance(n, A.If):
                    self._find_elif_lines(n, text)
                if isinstance(n, A.If) and n.orelse:
                    after = _last_line(n.branches[-1][1])
                    before = _line(n.orelse[0])
                    for no in range(after + 1, before) if after else ():
                        if no <= len(text) and _ELSE.match(text[no - 1]):
                            self.else_lines[id(n)] = no
                            break
                stack.extend(getattr(n, f.name) for f in attrs.fields(type(n))
                             if f.name != "at")

    def _find_elif_lines(self, n: A.If, text: list[str]) -> None:
        """The line of each `elif`: its condition may start on a line after it, `elif (`."""
        for i in range(1, len(n.branches)):
            after, at = _last_line(n.branches[i - 1][1]), _line(n.branches[i][0])
            for no in range(at, after, -1) if after else ():
                if no <= len(text) and _ELIF.match(text[no - 1]):
                    self.elif_lines[id(n), i] = no
                    break

    def _elif_line(self, n: A.If, i: int) -> int:
        return self.elif_lines.get((id(n), i), _line(n.branches[i][0]))

    # anchors: source lines where a printed line starts
    def _anchor_lines(self, nodes: Iterable[object]) -> Iterable[int]:
        for n in nodes:
            if _line(n):
                yield _line(n)
            if isinstance(n, A.TypeDecl):
                yield from self._anchor_lines(n.fields)
            elif isinstance(n, A.EventDecl):
                yield from self._anchor_lines(n.state)
            elif isinstance(n, A.WindowDecl):
                yield from (first for _text, first, _last in _window_clauses(n) if first)
            elif isinstance(n, A.EnumDecl):
                yield from self._anchor_lines(n.values)
            elif isinstance(n, (A.ProcDecl, A.TriggerDecl, A.For, A.While, A.Repeat)):
                yield from self._anchor_lines(n.body)
            elif isinstance(n, A.If):
                for i, (_cond, body) in enumerate(n.branches):
                    if i and self._elif_line(n, i):
                        yield self._elif_line(n, i)
                    yield from self._anchor_lines(body)
                if id(n) in self.else_lines:
                    yield self.else_lines[id(n)]
                if n.orelse:
                    yield from self._anchor_lines(n.orelse)

    def _next_anchor(self) -> float:
        i = bisect.bisect_right(self.anchors, self.last)
        return self.anchors[i] if i < len(self.anchors) else float("inf")

    def _gap(self, line: int) -> bool:
        """Was there a blank line in the source between what was printed last and `line`?"""
        return bool(self.last and line and line - self.last > 1)

    def _blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")

    def _comment(self, depth: int, c: tuple[int, int, str], blank_ok: bool) -> None:
        if blank_ok and self._gap(c[0]):
            self._blank()
        self.lines.append(INDENT * depth + c[2].rstrip())
        self.last = max(self.last, c[0])

    def leading(self, line: int, depth: int, blank: bool | None, header: bool = False
                ) -> None:
        """Comments before the item at `line`, and the blank line before them.

        blank: True = always one blank line before, False = never, None = as in the source.
        header: the item is `elif`/`else`, with a blank line before it only after comments."""
        if blank:
            self._blank()
        first = True
        while line and self.comments and self.comments[0][0] < line:
            self._comment(depth, self.comments.popleft(), blank is None or not first)
            first = False
        if (blank is None or not first) and not (header and first) and self._gap(line):
            self._blank()

    def put(self, depth: int, doc: Doc | str, start: int, end: int) -> None:
        """A statement or declaration line (`doc`, broken to fit) for source lines
        start..end, with the comments found on them: each after the printed line where the
        code before it went, or, standing on a line of its own inside a broken statement,
        on a line of its own before the code after it."""
        end = max(start, end, self._end_line(start))
        ind = len(INDENT) * depth
        out = _lay_out(Text(doc) if isinstance(doc, str) else doc, ind)
        lines = [" " * ind + out.lines[0], *out.lines[1:]]
        before: dict[int, list[str]] = {}
        after: dict[int, list[str]] = {}
        at = 0  # comments keep their order: 2i = before line i, 2i + 1 = after it
        while start and self.comments and self.comments[0][0] <= end:
            line, col, text = self.comments.popleft()
            i = None
            if len(lines) > 1 and self._standalone(line, col):
                i = next((i for i, m in enumerate(out.marks) if m > line), None)
            if i:
                pos = 2 * i
            elif line == end:
                pos = 2 * len(lines) - 1
            else:
                pos = 2 * max((i for i, m in enumerate(out.marks) if 0 < m <= line),
                              default=0) + 1
            at = max(at, pos)
            (after if at % 2 else before).setdefault(at // 2, []).append(text.rstrip())
        for i, ln in enumerate(lines):
            pad = " " * (len(ln) - len(ln.lstrip(" ")))
            self.lines.extend(pad + c for c in before.get(i, ()))
            self.lines.append(ln + "".join("  " + t for t in after.get(i, ())))
        self.last = max(self.last, start, end)

    def _end_line(self, start: int) -> int:
        """The last source line of the statement or block header that starts on line
        `start`: the first line that ends outside brackets and without a backslash (what
        the tree cannot say: a closing bracket of parentheses it does not keep)."""
        if self.text is None or not start:
            return 0
        depth = 0
        for no in range(start, len(self.text) + 1):
            code = self.text[no - 1]
            for m in _TOKENS.finditer(code):
                tok = m.group()
                if tok[0] == "#":
                    code = code[:m.start()]
                elif tok in ("(", "["):
                    depth += 1
                elif tok in (")", "]"):
                    depth = max(depth - 1, 0)
            if not depth and not code.rstrip(" \t\f\r").endswith("\\"):
                return no
        return len(self.text)

    def _standalone(self, line: int, col: int) -> bool:
        """Does the comment at (line, col) stand on a line of its own in the source?"""
        return (self.text is not None and line <= len(self.text)
                and not self.text[line - 1][:col - 1].strip())

    def block_end(self, depth: int, col: int) -> None:
        """Comments after a block's last statement, indented at least as deep as the block."""
        if not col:
            return
        limit = self._next_anchor()
        while self.comments and self.comments[0][0] < limit and self.comments[0][1] >= col:
            self._comment(depth, self.comments.popleft(), True)

    # declarations and statements
    def module(self, decls: tuple[A.Decl, ...]) -> str:
        prev: A.Decl | None = None
        for d in decls:
            blank: bool | None
            if prev is None:
                blank = False  # nothing above the first declaration but its comments
            elif isinstance(d, _BLOCK_DECLS) or isinstance(prev, _BLOCK_DECLS):
                blank = True
            else:
                blank = None
            self.leading(_line(d), 0, blank)
            self.decl(d)
            prev = d
        if self.comments:
            if isinstance(prev, _BLOCK_DECLS) or self._gap(self.comments[0][0]):
                self._blank()
            while self.comments:
                self._comment(0, self.comments.popleft(), True)
        while self.lines and self.lines[-1] == "":
            self.lines.pop()
        return "".join(ln + "\n" for ln in self.lines)

    def decl(self, d: A.Decl) -> None:
        start = _line(d)
        created = " created" if isinstance(d, A.TypeDecl) and d.created else ""
        if isinstance(d, A.TypeDecl) and not d.fields:
            self.put(0, f"type {d.name}{created}", start, start)
        elif isinstance(d, A.TypeDecl):
            self.put(0, f"{'extend type' if d.extend else 'type'} {d.name}{created}:", start,
                     start)
            for i, f in enumerate(d.fields):
                self.leading(_line(f), 1, False if i == 0 else None)
                self.put(1, _field(f), _line(f), _last_line(f))
            self.block_end(1, _line(d.fields[0]) and d.fields[0].at.col if d.fields else 0)
        elif isinstance(d, A.EnumDecl) and self._enum_block(d):
            self.put(0, f"enum {d.name}:", start, start)
            for i, line in enumerate(_enum_lines(d)):
                self.leading(_line(line[0]), 1, False if i == 0 else None)
                self.put(1, ", ".join(v.name for v in line), _line(line[0]), _line(line[-1]))
            self.block_end(1, d.values[0].at.col if _line(d.values[0]) else 0)
        elif isinstance(d, A.EventDecl) and self._event_block(d):
            self.put(0, S("event ", listing(f"{d.name}(", _params(d.params), ")"), " with:"),
                     start, _last_line(d.params))
            for i, f in enumerate(d.state):
                self.leading(_line(f), 1, False if i == 0 else None)
                self.put(1, _field(f), _line(f), _last_line(f))
            self.block_end(1, _line(d.state[0]) and d.state[0].at.col)
        elif isinstance(d, A.WindowDecl):
            self.put(0, S("window ", listing(f"{d.name}(", _params(d.params), ")"), ":"), start,
                     _last_line(d.params))
            for i, (text, first, last) in enumerate(_window_clauses(d)):
                self.leading(first, 1, False if i == 0 else None)
                self.put(1, text, first, last)
            self.block_end(1, min((at.col for _key, at in d.clauses), default=0))
        elif isinstance(d, A.ProcDecl):
            self.put(0, _header(d), start, _last_line(d.params, d.returns))
            self.body(d.body, 1)
        elif isinstance(d, A.TriggerDecl):
            self.put(0, _header(d), start, _last_line(d.cond))
            self.body(d.body, 1)
        else:
            self.put(0, _one_line_decl(d), start, _last_line(d))

    def _event_block(self, d: A.EventDecl) -> bool:
        """Print an event's state as a block: when one line would be too long, or when
        comments sit among its fields."""
        if not d.state:
            return False
        start, end = _line(d), _last_line(d)
        one = _one_line_decl(d)
        return (len(one if isinstance(one, str) else one.flat) > EVENT_LINE_MAX
                or any(start < c[0] <= end for c in self.comments))

    @staticmethod
    def _enum_block(d: A.EnumDecl) -> bool:
        """Print the enum one value a line? When it is long, or when its values were
        written on lines of their own."""
        start, last = _line(d), max((_line(v) for v in d.values), default=0)
        one = _one_line_decl(d)
        return len(one if isinstance(one, str) else one.flat) > MAX_ENUM_LINE \
            or bool(start) and last > start

    def body(self, stmts: tuple[A.Stmt, ...], depth: int) -> None:
        if not stmts:  # not produced by the parser; keep the output parseable
            self.lines.append(INDENT * depth + "pass")
            return
        for i, s in enumerate(stmts):
            self.leading(_line(s), depth, False if i == 0 else None)
            self.stmt(s, depth)
        first = stmts[0].at
        self.block_end(depth, first.col if first.line else 0)

    def stmt(self, s: A.Stmt, depth: int) -> None:
        start = _line(s)
        if isinstance(s, A.If):
            for i, (cond, body) in enumerate(s.branches):
                if i == 0:
                    self.put(depth, S("if ", cond, ":"), start, _last_line(cond))
                else:
                    line = self._elif_line(s, i)
                    self.leading(line, depth, None, header=True)
                    self.put(depth, S("elif ", cond, ":"), line, _last_line(cond))
                self.body(body, depth + 1)
            if s.orelse is not None:
                line = self.else_lines.get(id(s), 0)
                if line:
                    self.leading(line, depth, None, header=True)
                    self.put(depth, "else:", line, line)
                else:  # line unknown: the comments left before the block go first
                    limit = _line(s.orelse[0]) if s.orelse else 0
                    while limit and self.comments and self.comments[0][0] < limit:
                        self._comment(depth, self.comments.popleft(), True)
                    self.lines.append(INDENT * depth + "else:")
                self.body(s.orelse, depth + 1)
        elif isinstance(s, A.For):
            self.put(depth, _header(s), start, _last_line(s.source, s.where))
            self.body(s.body, depth + 1)
        elif isinstance(s, A.While):
            self.put(depth, _header(s), start, _last_line(s.cond))
            self.body(s.body, depth + 1)
        elif isinstance(s, A.Repeat):
            self.put(depth, _header(s), start, _last_line(s.count))
            self.body(s.body, depth + 1)
        else:
            self.put(depth, simple_stmt_doc(s), start, _last_line(s))


def format_module(module: A.Module, source: str | None = None) -> str:
    """The canonical text of a parsed module, its comments kept. `source`, the text the
    module was parsed from, places comments around `else:` exactly."""
    return _Printer(module, source).module(module.decls)


def format_source(text: str, path: str = "<rules>") -> str:
    """Parse `text` and return its canonical text; DslError on syntax errors."""
    return format_module(parse_module(text, path), text)
