"""The layout engine: a document laid out in WIDTH columns, broken inside brackets (where
the parser joins lines) and at a statement's joints (after a backslash), choosing for each
document the first layout, in the order of preference, that fits, else the one that passes
WIDTH least. A word of an expression (`Doc.atom`) never breaks unless it is longer than a
line, and goes in parentheses of
its own only where nothing else fits; a word among operands or items shares its line with
what follows it, so that no line holds one name alone where another layout fits.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator

from engine.dsl.formatter.documents import WIDTH, Brackets, Chain, Doc, Seq, Text

_STEP = 4  # what a bracket's contents are indented by, in columns


class LaidOut:
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

    def put(self, out: LaidOut) -> None:
        self.lines[-1] += out.lines[0]
        self.mark(out.marks[0])
        self.lines.extend(out.lines[1:])
        self.marks.extend(out.marks[1:])

    def at(self) -> int:
        """The column where the next text goes."""
        return len(self.lines[-1]) + (self.col if len(self.lines) == 1 else 0)

    def done(self, tail: int) -> LaidOut:
        widths = [len(ln) for ln in self.lines]
        widths[0] += self.col
        widths[-1] += tail
        return LaidOut(self.lines, self.marks, sum(max(0, w - WIDTH) for w in widths))


# Documents searched per statement; past that, what is left breaks wherever it can. A bound
# for absurd input (dozens of nested brackets, nothing fitting), where the search would grow
# exponentially; real rules need a few dozen.
_BUDGET = 20_000


class _Layout:
    """Chooses, for each document, the layout that fits in WIDTH columns (the first, in the
    order of preference, that does; else the one that passes WIDTH least)."""

    def __init__(self) -> None:
        self.memo: dict[tuple[int, int, int, int, bool], LaidOut] = {}
        self.budget = _BUDGET

    def lay(self, d: Doc, ind: int, col: int, tail: int, bare: bool) -> LaidOut:
        """`d` starting at column `col` of a line indented `ind`, with `tail` columns of text
        after it. bare: no bracket of its own around it (a chain breaks in parentheses)."""
        if col + len(d.flat) + tail <= WIDTH or (_whole(d, ind) and not (bare and d.wrap)):
            return self._flat(d, col, tail)
        key = (id(d), ind, col, tail, bare)
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self._best(d, ind, col, tail, bare)
        return got

    def _flat(self, d: Doc, col: int, tail: int) -> LaidOut:
        return LaidOut([d.flat], [d.lo], max(0, col + len(d.flat) + tail - WIDTH))

    def _best(self, d: Doc, ind: int, col: int, tail: int, bare: bool) -> LaidOut:
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

    def _options(self, d: Doc, ind: int, col: int, tail: int, bare: bool) -> Iterator[LaidOut]:
        if _whole(d, ind):  # in parentheses, `(`, the word, `)`: only where that makes it fit
            if bare and d.wrap and (col > ind + _STEP or tail > len(d.flat)):
                wrapped = self._wrapped(d, ind, col, tail, lambda b: b.text(d.flat, d.lo))
                if wrapped.cost == 0:
                    yield wrapped
            return
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
            yield self._wrapped(d, ind, col, tail, lambda b: self._put(b, d, ind + _STEP))
        if isinstance(d, Seq) and not d.wrap:  # last: a statement's word in parentheses
            words = [i for i, p in enumerate(d.parts) if _word(p)]
            for k in reversed(words):
                yield self._seq_with(d, ind, col, tail, {k})
            # and with the rest broken too: `set (` .. `) = (` .. `) until ...` puts what
            # follows the word (an `until` list) on the short line of `)`
            rest = set(_breakable(d, ind))
            if rest:
                for k in reversed(words):
                    yield self._seq_with(d, ind, col, tail, rest | {k})

    def _broken(self, d: Doc, ind: int, col: int, tail: int, bare: bool) -> LaidOut:
        """The layout that breaks `d` wherever it can, chosen without a search."""
        if isinstance(d, Chain):
            if bare and d.wrap:
                return self._wrapped(d, ind, col, tail,
                                     lambda b: self._operands(b, d, ind + _STEP, 0))
            b = _Buf(col, d.line)
            self._operands(b, d, ind, tail)
            return b.done(tail)
        if _whole(d, ind):
            return self._flat(d, col, tail)
        if isinstance(d, Brackets):
            return self._each_item(d, ind, col, tail)
        if isinstance(d, Seq):
            return self._seq_with(d, ind, col, tail, set(_breakable(d, ind)), bool(d.joints))
        return self._flat(d, col, tail)

    def _put(self, b: _Buf, d: Doc, ind: int, tail: int = 0, bare: bool = False) -> None:
        b.put(self.lay(d, ind, b.at(), tail, bare))

    def _wrapped(self, d: Doc, ind: int, col: int, tail: int,
                 body: Callable[[_Buf], None]) -> LaidOut:
        """`(`, the body on lines indented one step deeper, `)`."""
        b = _Buf(col)
        b.text("(")
        b.newline(ind + _STEP)
        body(b)
        b.newline(ind)
        b.text(")")
        return b.done(tail)

    def _seq(self, d: Seq, ind: int, col: int, tail: int) -> Iterator[LaidOut]:
        breakable = _breakable(d, ind)
        if d.joints:  # at the joints first, if what is between them then fits whole
            yield self._seq_with(d, ind, col, tail, set(), True)
        for cut in (False, True) if d.joints else (False,):
            for k in reversed(breakable):  # one part broken, the last one first
                yield self._seq_with(d, ind, col, tail, {k}, cut)
            if len(breakable) > 1:  # each part broken where what follows it does not fit
                yield self._seq_with(d, ind, col, tail, set(breakable), cut)

    def _seq_with(self, d: Seq, ind: int, col: int, tail: int, broken: set[int],
                  cut: bool = False) -> LaidOut:
        """The parts of `d`, those in `broken` laid out to fit; cut: a backslash and a new
        line, one step deeper, at each joint where what follows up to the next joint does
        not fit on the line (the line keeps two columns for its own backslash)."""
        b = _Buf(col, d.line)
        after = sum(len(p.flat) for p in d.parts) + tail
        deeper = False  # the lines after the first cut are one step deeper, all of them
        for i, p in enumerate(d.parts):
            after -= len(p.flat)
            if cut:  # what follows on this line: the text up to the next joint
                nxt = min((j for j in d.joints if j > i), default=len(d.parts))
                on = sum(len(q.flat) for q in d.parts[i + 1:nxt])
                on += tail if nxt == len(d.parts) else 2
                if i in d.joints and b.at() + len(p.flat) + on > WIDTH:
                    b.text(" \\")
                    ind += 0 if deeper else _STEP
                    deeper = True
                    b.newline(ind)
                    b.text(p.flat[1:], p.lo)
                    continue
                after = on
            if i in broken:
                self._put(b, p, ind, after, True)
            else:
                b.text(p.flat, p.lo)
        return b.done(tail)

    def _brackets(self, d: Brackets, ind: int, col: int, tail: int) -> Iterator[LaidOut]:
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

    def _each_item(self, d: Brackets, ind: int, col: int, tail: int) -> LaidOut:
        """One item per line; but names fill lines: a name goes on the line before when
        it fits there after an item laid out whole (names after it keep together on the
        next line instead), and a line of names takes the item after them too, whole or
        broken; the last name never stands alone after a full line of several items: the
        item before it goes down with it."""
        inner = ind + _STEP
        b = _Buf(col, d.line)
        b.text(d.open)
        last = len(d.items) - 1
        names = False  # the line so far holds names only
        whole = False  # the line so far ends with an item laid out whole
        row = 0  # the items on the line so far
        for i, item in enumerate(d.items):
            t = 0 if i == last else 1
            # a name after an item, unless names follow it (they keep together)
            after = whole and _name(item) and not (i < last and _name(d.items[i + 1]))
            if (names or after) and b.at() + 1 + len(item.flat) + t <= WIDTH:
                b.text(" " + item.flat, item.lo)
                names, row = names and _name(item), row + 1
            elif names and not _whole(item, inner) and self._hang(b, item, inner, t, last > 0):
                # broken after the names: `0, (` .. `)`, its last line its own
                names, whole, row = False, False, 1
            elif i == last and row > 1 and _name(item) and \
                    inner + len(d.items[i - 1].flat) + 2 + len(item.flat) <= WIDTH:
                # the last name would be alone on its line: the item before it (laid out
                # flat: the line holds others before it) goes along
                prev = d.items[i - 1].flat
                b.lines[-1] = b.lines[-1][:-len(prev) - 2]
                b.newline(inner)
                b.text(f"{prev}, {item.flat}", d.items[i - 1].lo)
                b.mark(item.lo)
            else:
                b.newline(inner)
                lines = len(b.lines)
                self._put(b, item, inner, t, last > 0)
                names, whole, row = _name(item), len(b.lines) == lines, 1
            if i < last:
                b.text(",")
        b.newline(ind)
        b.text(d.close)
        return b.done(tail)

    def _chain(self, d: Chain, ind: int, col: int, tail: int, wrap: bool) -> Iterator[LaidOut]:
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

    def _hang(self, b: _Buf, d: Doc, ind: int, tail: int, bare: bool, op: str = "") -> bool:
        """Put `d`, broken, on the line of `b` after `op` and a space, if it then fits."""
        join = _Buf(b.at())
        join.text(f"{op} ")
        self._put(join, d, ind, tail, bare)
        out = join.done(tail)
        if out.cost or len(out.lines) == 1:
            return False
        b.put(out)
        return True

    def _hug_last(self, d: Chain, ind: int, col: int, tail: int) -> Iterator[LaidOut]:
        """`a op b(` ... `)`: broken inside the brackets of the last operand."""
        (op, last), first = d.rest[0], d.first
        if _bracketed(last) and _light(first):
            b = _Buf(col, d.line)
            b.text(f"{first.flat} {op} ", first.lo)
            self._put(b, last, ind, tail, True)
            yield b.done(tail)

    def _hug_first(self, d: Chain, ind: int, col: int, tail: int) -> Iterator[LaidOut]:
        """`a(` ... `) op b`: broken inside the brackets of the first operand."""
        (op, last), first = d.rest[0], d.first
        if _bracketed(first, True) and _light(last):
            b = _Buf(col, d.line)
            self._put(b, first, ind, len(f" {op} {last.flat}") + tail, True)
            b.text(f" {op} {last.flat}", last.lo)
            yield b.done(tail)

    def _operands(self, b: _Buf, d: Chain, ind: int, tail: int) -> None:
        """One operand per line, each after its operator; but a first operand that is a
        name shares its line with the names after it, as many as fit, or with the operand
        after it, whole or broken (`rating + cus + allies`, `x.port and (` ... `)`)."""
        self._put(b, d.first, ind, 0, True)
        names = _name(d.first)  # the line so far holds names only
        for i, (op, x) in enumerate(d.rest):
            t = tail if i == len(d.rest) - 1 else 0
            if names and (not i or _name(x)):
                if b.at() + len(op) + 2 + len(x.flat) + t <= WIDTH:
                    b.text(f" {op} {x.flat}", x.lo)
                    names = _name(x)
                    continue
                if not i and not _whole(x, ind) and self._hang(b, x, ind, t, True, f" {op}"):
                    names = False
                    continue
            names = False
            b.newline(ind)
            b.text(f"{op} ")
            self._put(b, x, ind, t, True)


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


def _bracketed(d: Doc, chain: bool = False) -> bool:
    """Does `d` break inside brackets of its own (a call, a list, an index; chain: or the
    parentheses an operator chain gets)?"""
    return isinstance(d, Brackets) or (chain and isinstance(d, Chain) and d.wrap) or (
        isinstance(d, Seq) and any(isinstance(p, Brackets) for p in d.parts))


def _word(d: Doc) -> bool:
    """A word of an expression (a name, a number, a string, `f(x)`, `a.b`): breaks only in
    parentheses."""
    return d.wrap and d.atom


def _name(d: Doc) -> bool:
    """A name, a number or a string, `a.b`, `not a`, `-a`: what would be a line of one name
    (or word) if it stood on a line of its own."""
    return d.wrap and _text_only(d)


def _text_only(d: Doc) -> bool:
    return isinstance(d, Text) or (
        d.atom and isinstance(d, Seq) and all(_text_only(p) for p in d.parts))


def _whole(d: Doc, ind: int) -> bool:
    """Does `d` never break, laid out in a line indented `ind`? Text, and a word that fits
    on the next line (one longer breaks where it can, as nothing else fits)."""
    return isinstance(d, Text) or d.atom and ind + _STEP + len(d.flat) <= WIDTH


def _breakable(d: Seq, ind: int) -> list[int]:
    """The parts of `d` that may break inside."""
    return [i for i, p in enumerate(d.parts) if not _whole(p, ind)]


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
    lines = lay_out(Text(d) if isinstance(d, str) else d, indent).lines
    return [" " * indent + lines[0], *lines[1:]]


def lay_out(d: Doc, indent: int) -> LaidOut:
    """`d` laid out at `indent` columns, with the source line of each of its lines."""
    return _Layout().lay(d, indent, indent, 0, True)

