"""Canonical text of a rules file (`engine fmt`): the syntax tree printed back, comments kept.

Style: 4-space indentation, spaces around binary operators, the fewest parentheses the
precedence allows, `choose` options in a fixed order (by, where, require, optional, prompt).

Blank lines: a block declaration (type, procedure, trigger) always has one blank line
before and after it; between one-line declarations, between statements and between
comments, one blank line is kept where the source had at least one; never at the start of
a block, nor right before `elif`/`else:` unless comments stand there.

Comments (`Module.comments`, placed by line number):
  - a comment on a line of a statement or one-line declaration (its first line, or a
    continuation line in brackets) is printed after it on its line, two spaces away;
    the same for the header line of a block (`if c:  # note`);
  - a comment on a line of its own is printed before the next statement or declaration,
    at its indentation; after the last statement of a block it stays at the end of that
    block if it was indented at least as deep as the block, else it moves outwards;
  - comments after the last declaration stay at the end of the file.

The tree does not record the line of an `else:`; `format_source` finds it in the text.
Without the text (`format_module(m)`), comments between the last statement of the branch
before and the first of the else block go before `else:` (or, indented as deep as that
branch, to its end).

A name that is a keyword (the contextual lexer allows `(order).x`) keeps its parentheses
where the keyword could stand. `parse_module(format_module(m)) == m` for every module the
parser can produce, and `format_source` is idempotent.
"""
from __future__ import annotations

import bisect
import re
from collections import deque
from pathlib import Path
from typing import Iterable

import attrs

from dsl import ast as A
from dsl.parser import parse_module

INDENT = "    "
EVENT_LINE_MAX = 99  # a longer event declaration lists its state as a block (`with:`)

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

_ACTIONS = (A.Choose, A.Ask, A.Order, A.Draw, A.Open, A.Create)

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
    return _fmt(e, min_prec, True)


def _fmt(e: A.Expr, min_prec: int, lead: bool) -> str:
    if _prec(e) < min_prec and not isinstance(e, A.Lambda):
        return f"({_expr(e, False)})"
    return _expr(e, lead)


def _expr(e: A.Expr, lead: bool = False) -> str:
    """lead: the text starts a slot that is not inside brackets or after an operator."""
    if isinstance(e, A.Int):
        return str(e.value)
    if isinstance(e, A.Str):
        return quote(e.value)
    if isinstance(e, A.Bool):
        return "true" if e.value else "false"
    if isinstance(e, A.NoneLit):
        return "none"
    if isinstance(e, A.Name):
        return f"({e.id})" if lead and e.id in KEYWORDS else e.id
    if isinstance(e, A.Call):
        text = f"{e.func}({_call_args(e.args, e.kwargs)})"
        return f"({text})" if lead and e.func in KEYWORDS else text
    if isinstance(e, A.Attr):
        return f"{_fmt(e.obj, P_POSTFIX, lead)}.{e.name}"
    if isinstance(e, A.Index):
        return f"{_fmt(e.obj, P_POSTFIX, lead)}[{_args(e.args)}]"
    if isinstance(e, A.BinOp):
        p = _BINOP_PREC[e.op]  # left-associative: only the right operand needs p + 1
        return f"{_fmt(e.left, p, lead)} {e.op} {_fmt(e.right, p + 1, False)}"
    if isinstance(e, A.Compare):  # not associative: both operands are sums
        return f"{_fmt(e.left, P_SUM, lead)} {e.op} {_fmt(e.right, P_SUM, False)}"
    if isinstance(e, A.BoolOp):
        inner = P_AND if e.op == "or" else P_NOT
        return f" {e.op} ".join(_fmt(item, inner, lead and i == 0)
                                for i, item in enumerate(e.items))
    if isinstance(e, A.Not):
        return f"not {_fmt(e.expr, P_NOT, False)}"
    if isinstance(e, A.Neg):
        return f"-{_fmt(e.expr, P_UNARY, False)}"
    if isinstance(e, A.ListLit):
        return f"[{_args(e.items)}]"
    if isinstance(e, A.Comprehension):
        return f"[{_comprehension(e)}]"
    if isinstance(e, A.Lambda):
        return _lambda(e)
    if isinstance(e, A.IfExp):
        return (f"{_fmt(e.then, P_OR, lead)} if {_fmt(e.cond, P_OR, False)} "
                f"else {_fmt(e.orelse, P_IF, False)}")
    raise TypeError(f"not an expression: {e!r}")


def _lambda(e: A.Lambda) -> str:
    head = e.param if e.type is None else f"({e.param}: {format_type(e.type)})"
    return f"{head} => {_fmt(e.body, P_IF, False)}"


def _comprehension(c: A.Comprehension) -> str:
    """The inside of `[...]`: `x in src where cond` (a filter) or `e for x in src where c`."""
    src = _fmt(c.source, P_SUM, False)
    if c.cond is not None and isinstance(c.expr, A.Name) and c.expr.id == c.var:
        return f"{c.var} in {src} where {_fmt(c.cond, P_IF, False)}"
    text = f"{_fmt(c.expr, P_IF, False)} for {c.var} in {src}"
    if c.cond is not None:
        text += f" where {_fmt(c.cond, P_IF, False)}"
    return text


def _args(items: Iterable[A.Expr]) -> str:
    return ", ".join(_fmt(i, P_IF, False) for i in items)


def _call_args(args: tuple[A.Expr, ...], kwargs: tuple[A.KwArg, ...] = ()) -> str:
    if len(args) == 1 and not kwargs and isinstance(args[0], A.Comprehension):
        return _comprehension(args[0])  # count(c in hand where ...), sum(x.v for x in t)
    return ", ".join([*(_fmt(a, P_IF, False) for a in args),
                      *(f"{k.name} = {_fmt(k.value, P_IF, False)}" for k in kwargs)])


# ---- types, actions, simple statements ---------------------------------------------------
def format_type(t: A.TypeExpr) -> str:
    if isinstance(t, A.TName):
        return t.name
    if isinstance(t, A.TOptional):
        return f"{t.name}?"
    if isinstance(t, A.TList):
        return f"list of {format_type(t.elem)}"
    raise TypeError(f"not a type: {t!r}")


def _params(params: Iterable[A.Param]) -> str:
    return ", ".join(f"{p.name}: {format_type(p.type)}" + (
        f" = {format_expr(p.default)}" if p.default is not None else "") for p in params)


def _action(a: A.Action) -> str:
    if isinstance(a, A.Choose):
        parts = ["choose"]
        if a.count is not None:
            parts.append(_count(a.count))
        parts += [a.var, "from", format_expr(a.source)]
        if a.by is not None:
            parts += ["by", format_expr(a.by)]
        if a.where is not None:
            parts += ["where", format_expr(a.where)]
        if a.require is not None:
            parts += ["require", format_expr(a.require)]
        if a.optional:
            parts.append("optional")
        if a.each:
            parts.append("one at a time")
        if a.prompt is not None:
            parts += ["prompt", quote(a.prompt)]
        return " ".join(parts)
    if isinstance(a, A.Ask):
        return f"ask {format_expr(a.side)} {quote(a.prompt)}"
    if isinstance(a, A.Order):
        return f"order {format_expr(a.items)} by {format_expr(a.by)}"
    if isinstance(a, A.Draw):
        return (f"draw {format_expr(a.count)} from {format_expr(a.source)} "
                f"to {format_expr(a.dest)}")
    if isinstance(a, A.Open):
        return f"open {a.window}({_args(a.args)})"
    if isinstance(a, A.Create):
        text = f"create {a.type}"
        if a.fields:
            text += " with " + ", ".join(f"{f.name} = {format_expr(f.value)}" for f in a.fields)
        if a.dest is not None:
            place = f"{a.place} of " if a.place else ""
            text += f" to {place}{format_expr(a.dest)}"
        return text
    raise TypeError(f"not an action: {a!r}")


def _count(c: A.Count) -> str:
    high = format_expr(c.high, P_SUM)
    if c.kind == "exact":
        return high
    if c.kind == "up_to":
        return f"up to {high}"
    if c.kind == "range":
        assert c.low is not None
        return f"{format_expr(c.low, P_SUM)} to {high}"
    raise ValueError(f"unknown count kind {c.kind!r}")


def _rhs(v: A.Rhs) -> str:
    return _action(v) if isinstance(v, _ACTIONS) else format_expr(v)


def _duration(d: A.Duration) -> str:
    if d.kind == "while":
        assert d.cond is not None
        return f"while {format_expr(d.cond)}"
    items = d.items if d.kind == "any" else (d,)
    return "until " + " or ".join(_until_item(i) for i in items)


def _until_item(d: A.Duration) -> str:
    times = "" if d.count == 1 else f" {d.count} times"
    if d.kind == "end_of":
        return f"end of {'outermost ' if d.outermost else ''}{d.event}{times}"
    if d.kind == "start_of":
        return f"{d.event}{times}"
    raise ValueError(f"unknown duration kind {d.kind!r}")


_MODIFY_OPS = {"by": "by", "to": "to", "least": "at least", "most": "at most"}


def format_simple_stmt(s: A.Stmt) -> str:
    """One line of a statement that has no block."""
    if isinstance(s, A.Let):
        typed = f": {format_type(s.type)}" if s.type is not None else ""
        return f"let {s.name}{typed} = {_rhs(s.value)}"
    if isinstance(s, A.Assign):
        return f"{format_expr(s.target, P_POSTFIX)} = {_rhs(s.value)}"
    if isinstance(s, A.AugAssign):
        return f"{format_expr(s.target, P_POSTFIX)} {s.op} {format_expr(s.value)}"
    if isinstance(s, A.ExprStmt):
        return format_expr(s.expr)
    if isinstance(s, A.ActionStmt):
        return _action(s.action)
    if isinstance(s, A.Emit):
        return f"{'enqueue' if s.queued else 'emit'} {s.event}({_call_args(s.args, s.kwargs)})"
    if isinstance(s, A.Move):
        place = f"{s.place} of " if s.place else ""
        return f"move {format_expr(s.what)} to {place}{format_expr(s.dest)}"
    if isinstance(s, A.Shuffle):
        return f"shuffle {format_expr(s.zone)}"
    if isinstance(s, A.Destroy):
        return f"destroy {format_expr(s.what)}"
    if isinstance(s, A.Reveal):
        to = f" to {format_expr(s.to)}" if s.to is not None else ""
        return f"reveal {format_expr(s.what)}{to}"
    if isinstance(s, A.Modify):
        text = (f"modify {s.key}({_call_args(s.args, s.kwargs)}) {_MODIFY_OPS[s.op]} "
                f"{format_expr(s.amount)}")
        return text + (f" {_duration(s.duration)}" if s.duration is not None else "")
    if isinstance(s, A.SetUntil):
        return (f"set {format_expr(s.target, P_POSTFIX)} = {format_expr(s.value)} "
                f"{_duration(s.duration)}")
    if isinstance(s, A.Win):
        return f"win {format_expr(s.side)}"
    if isinstance(s, A.EndGame):
        return "end game"
    if isinstance(s, A.Return):
        return "return" if s.value is None else f"return {format_expr(s.value)}"
    if isinstance(s, A.Log):
        return ", ".join([f"log {quote(s.message)}"] + [format_expr(a) for a in s.args])
    if isinstance(s, A.Pass):
        return "pass"
    if isinstance(s, A.Break):
        return "break"
    if isinstance(s, A.Continue):
        return "continue"
    raise TypeError(f"not a simple statement: {s!r}")


def _one_line_decl(d: A.Decl) -> str:
    if isinstance(d, A.VarDecl):
        text = f"var {d.name}"
        if d.params:
            text += f"[{_params(d.params)}]"
        text += f": {format_type(d.type)}"
        if d.bounds is not None:
            text += f" in {format_expr(d.bounds[0], P_SUM)}..{format_expr(d.bounds[1], P_SUM)}"
        if d.default is not None:
            text += f" = {format_expr(d.default)}"
        if d.visibility != "public":
            text += f" {d.visibility}"
        return text
    if isinstance(d, A.ZoneDecl):
        text = f"zone {d.name}"
        if d.params:
            text += f"[{_params(d.params)}]"
        if d.of is not None:
            text += f" of {d.of}"
        return " ".join([text, *d.flags])
    if isinstance(d, A.EventDecl):
        text = f"event {d.name}({_params(d.params)})"
        return text + (" with " + ", ".join(map(_field, d.state)) if d.state else "")
    if isinstance(d, A.ValueDecl):
        return (f"value {d.name}({_params(d.params)}): {format_type(d.type)} = "
                f"{format_expr(d.expr)}")
    if isinstance(d, A.CheckDecl):
        return f"{'invariant' if d.invariant else 'check'} {quote(d.message)}: {format_expr(d.expr)}"
    if isinstance(d, A.GraphDecl):
        text = f"graph {d.name} of {d.node_type} via {d.edge_type}"
        return text + (f" where {_lambda(d.where)}" if d.where is not None else "")
    if isinstance(d, A.ConstDecl):
        typed = f": {format_type(d.type)}" if d.type is not None else ""
        return f"const {d.name}{typed} = {format_expr(d.expr)}"
    if isinstance(d, A.EnumDecl):
        return f"enum {d.name}: {', '.join(v.name for v in d.values)}"
    raise TypeError(f"not a one-line declaration: {d!r}")


def _window_clauses(d: A.WindowDecl) -> list[tuple[str, int, int]]:
    """The clause lines of a window declaration: (text, first and last source line), in
    the order they were written; without positions, in the order by, from, to, effect,
    prompt, openings."""
    src = f"{d.var} in {format_expr(d.source)}"
    if d.where is not None:
        src += f" where {format_expr(d.where)}"
    out = [(f"by {format_expr(d.by)}", _line(d.by), _last_line(d.by)),
           (f"from {src}", _line(d.source), _last_line(d.source, d.where)),
           (f"to {format_expr(d.to)}", _line(d.to), _last_line(d.to))]
    if d.effect is not None:
        out.append((f"effect {d.effect.id}", _line(d.effect), _line(d.effect)))
    if d.prompt is not None:
        out.append((f"prompt {quote(d.prompt.value)}", _line(d.prompt), _line(d.prompt)))
    out += [(f"{o.kind} {o.event}", _line(o), _line(o)) for o in d.opens]
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


def _field(f: A.FieldDecl) -> str:
    text = f"{'var ' if f.var else ''}{f.name}: {format_type(f.type)}"
    if f.bounds is not None:
        text += f" in {format_expr(f.bounds[0], P_SUM)}..{format_expr(f.bounds[1], P_SUM)}"
    return text + (f" = {format_expr(f.default)}" if f.default is not None else "")


_BLOCK_DECLS = (A.TypeDecl, A.ProcDecl, A.TriggerDecl, A.WindowDecl)
_COMPOUND = (A.If, A.For, A.While, A.Repeat)
# Nodes whose parsed `at` runs on over the line break (and blank lines) after them.
_LOOSE_END = (A.TypeDecl, A.VarDecl, A.ZoneDecl, A.EventDecl, A.ProcDecl, A.ValueDecl,
              A.CheckDecl, A.GraphDecl, A.TriggerDecl, A.FieldDecl, A.WindowDecl,
              A.WindowOpening, A.EnumDecl, A.ConstDecl) + _COMPOUND
MAX_ENUM_LINE = 99  # a longer `enum` is printed one value a line


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


class _Printer:
    def __init__(self, module: A.Module, source: str | None = None):
        self.lines: list[str] = []
        self.comments = deque(sorted(c for c in module.comments if c[0] > 0))
        self.else_lines: dict[int, int] = {}  # id(If) -> line of its `else:`
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
                if isinstance(n, A.If) and n.orelse:
                    after = _last_line(n.branches[-1][1])
                    before = _line(n.orelse[0])
                    for no in range(after + 1, before) if after else ():
                        if no <= len(text) and _ELSE.match(text[no - 1]):
                            self.else_lines[id(n)] = no
                            break
                stack.extend(getattr(n, f.name) for f in attrs.fields(type(n))
                             if f.name != "at")

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
                for i, (cond, body) in enumerate(n.branches):
                    if i and _line(cond):
                        yield _line(cond)
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

    def put(self, depth: int, text: str, start: int, end: int) -> None:
        """A printed line for source lines start..end, with the comments found on them."""
        tail = []
        while start and self.comments and self.comments[0][0] <= max(start, end):
            tail.append(self.comments.popleft()[2].rstrip())
        self.lines.append(INDENT * depth + text + "".join("  " + t for t in tail))
        self.last = max(self.last, start, end)

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
            if isinstance(prev, _BLOCK_DECLS):
                self._blank()
            elif self._gap(self.comments[0][0]):
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
            self.put(0, f"{'extend type' if d.extend else 'type'} {d.name}{created}:", start, start)
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
        elif isinstance(d, A.ProcDecl):
            ret = f" -> {format_type(d.returns)}" if d.returns is not None else ""
            self.put(0, f"procedure {d.name}({_params(d.params)}){ret}:", start,
                     _last_line(d.params, d.returns))
            self.body(d.body, 1)
        elif isinstance(d, A.EventDecl) and self._event_block(d):
            self.put(0, f"event {d.name}({_params(d.params)}) with:", start,
                     _last_line(d.params))
            for i, f in enumerate(d.state):
                self.leading(_line(f), 1, False if i == 0 else None)
                self.put(1, _field(f), _line(f), _last_line(f))
            self.block_end(1, _line(d.state[0]) and d.state[0].at.col)
        elif isinstance(d, A.WindowDecl):
            self.put(0, f"window {d.name}({_params(d.params)}):", start, _last_line(d.params))
            for i, (text, first, last) in enumerate(_window_clauses(d)):
                self.leading(first, 1, False if i == 0 else None)
                self.put(1, text, first, last)
            self.block_end(1, min((at.col for _key, at in d.clauses), default=0))
        elif isinstance(d, A.TriggerDecl):
            head = "instead of" if d.kind == "instead" else d.kind
            text = f"{head} {d.event}"
            if d.names is not None:
                text += f"({', '.join(d.names)})"
            if d.cond is not None:
                text += f" if {format_expr(d.cond)}"
            self.put(0, text + ":", start, _last_line(d.cond))
            self.body(d.body, 1)
        else:
            self.put(0, _one_line_decl(d), start, _last_line(d))

    def _event_block(self, d: A.EventDecl) -> bool:
        """Print an event's state as a block: when one line would be too long, or when
        comments sit among its fields."""
        if not d.state:
            return False
        start, end = _line(d), _last_line(d)
        return (len(_one_line_decl(d)) > EVENT_LINE_MAX
                or any(start < c[0] <= end for c in self.comments))

    @staticmethod
    def _enum_block(d: A.EnumDecl) -> bool:
        """Print the enum one value a line? When it is long, or when its values were
        written on lines of their own."""
        start, last = _line(d), max((_line(v) for v in d.values), default=0)
        return len(_one_line_decl(d)) > MAX_ENUM_LINE or bool(start) and last > start

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
                    self.put(depth, f"if {format_expr(cond)}:", start, _last_line(cond))
                else:
                    self.leading(_line(cond), depth, None, header=True)
                    self.put(depth, f"elif {format_expr(cond)}:", _line(cond), _last_line(cond))
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
            text = f"for {s.var} in {format_expr(s.source)}"
            if s.where is not None:
                text += f" where {format_expr(s.where)}"
            self.put(depth, text + ":", start, _last_line(s.source, s.where))
            self.body(s.body, depth + 1)
        elif isinstance(s, A.While):
            self.put(depth, f"while {format_expr(s.cond)}:", start, _last_line(s.cond))
            self.body(s.body, depth + 1)
        elif isinstance(s, A.Repeat):
            self.put(depth, f"repeat {format_expr(s.count)}:", start, _last_line(s.count))
            self.body(s.body, depth + 1)
        else:
            self.put(depth, format_simple_stmt(s), start, _last_line(s))


def format_module(module: A.Module, source: str | None = None) -> str:
    """The canonical text of a parsed module, its comments kept. `source`, the text the
    module was parsed from, places comments around `else:` exactly."""
    return _Printer(module, source).module(module.decls)


def format_source(text: str, path: str = "<rules>") -> str:
    """Parse `text` and return its canonical text; DslError on syntax errors."""
    return format_module(parse_module(text, path), text)
