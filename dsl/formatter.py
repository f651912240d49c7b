"""Canonical text of a rules file (`engine fmt`): the syntax tree printed back, comments kept.

Style: 4-space indentation, spaces around binary operators, the fewest parentheses the
precedence allows, `choose` options in a fixed order (by, where, require, optional, prompt).

Blank lines: a block declaration (type, procedure, trigger) always has one blank line
before and after it; between one-line declarations, between statements and between
comments, one blank line is kept where the source had at least one; never at the start of
a block.

Comments (`Module.comments`, placed by line number):
  - a comment on a line of a statement or one-line declaration (its first line, or a
    continuation line in brackets) is printed after it on its line, two spaces away;
    the same for the header line of a block (`if c:  # note`);
  - a comment on a line of its own is printed before the next statement or declaration,
    at its indentation; after the last statement of a block it stays at the end of that
    block if it was indented at least as deep as the block, else it moves outwards;
  - comments after the last declaration stay at the end of the file.

`parse_module(format_module(m)) == m` for every module the parser can produce, and
`format_source` is idempotent.
"""
from __future__ import annotations

import bisect
from collections import deque
from typing import Iterable

import attrs

from dsl import ast as A
from dsl.parser import parse_module

INDENT = "    "

# ---- expressions ------------------------------------------------------------------------
# Precedence levels, loosest first; an operand printed below its slot's level gets parens.
P_LAMBDA = 0
P_OR = 1
P_AND = 2
P_NOT = 3
P_CMP = 4
P_SUM = 5
P_TERM = 6
P_UNARY = 7
P_POSTFIX = 8
P_ATOM = 9

_BINOP_PREC = {"+": P_SUM, "-": P_SUM, "*": P_TERM, "/": P_TERM, "%": P_TERM}

_ACTIONS = (A.Choose, A.Ask, A.Order, A.Draw)


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
    return P_ATOM


def format_expr(e: A.Expr, min_prec: int = P_OR) -> str:
    """`e` as text fit for a slot of precedence `min_prec` (parenthesized if it binds looser)."""
    text = _expr(e)
    if _prec(e) < min_prec and not isinstance(e, A.Lambda):
        return f"({text})"
    return text


def _expr(e: A.Expr) -> str:
    if isinstance(e, A.Int):
        return str(e.value)
    if isinstance(e, A.Str):
        return quote(e.value)
    if isinstance(e, A.Bool):
        return "true" if e.value else "false"
    if isinstance(e, A.NoneLit):
        return "none"
    if isinstance(e, A.Name):
        return e.id
    if isinstance(e, A.Call):
        return f"{e.func}({_call_args(e.args)})"
    if isinstance(e, A.Attr):
        return f"{format_expr(e.obj, P_POSTFIX)}.{e.name}"
    if isinstance(e, A.Index):
        return f"{format_expr(e.obj, P_POSTFIX)}[{_args(e.args)}]"
    if isinstance(e, A.BinOp):
        p = _BINOP_PREC[e.op]  # left-associative: only the right operand needs p + 1
        return f"{format_expr(e.left, p)} {e.op} {format_expr(e.right, p + 1)}"
    if isinstance(e, A.Compare):  # not associative: both operands are sums
        return f"{format_expr(e.left, P_SUM)} {e.op} {format_expr(e.right, P_SUM)}"
    if isinstance(e, A.BoolOp):
        inner = P_AND if e.op == "or" else P_NOT
        return f" {e.op} ".join(format_expr(i, inner) for i in e.items)
    if isinstance(e, A.Not):
        return f"not {format_expr(e.expr, P_NOT)}"
    if isinstance(e, A.Neg):
        return f"-{format_expr(e.expr, P_UNARY)}"
    if isinstance(e, A.ListLit):
        return f"[{_args(e.items)}]"
    if isinstance(e, A.Comprehension):
        return f"[{_comprehension(e)}]"
    if isinstance(e, A.Lambda):
        return f"{e.param} => {format_expr(e.body, P_OR)}"
    raise TypeError(f"not an expression: {e!r}")


def _comprehension(c: A.Comprehension) -> str:
    """The inside of `[...]`: `x in src where cond` (a filter) or `e for x in src where c`."""
    src = format_expr(c.source, P_SUM)
    if c.cond is not None and isinstance(c.expr, A.Name) and c.expr.id == c.var:
        return f"{c.var} in {src} where {format_expr(c.cond, P_OR)}"
    text = f"{format_expr(c.expr, P_OR)} for {c.var} in {src}"
    if c.cond is not None:
        text += f" where {format_expr(c.cond, P_OR)}"
    return text


def _args(items: Iterable[A.Expr]) -> str:
    return ", ".join(format_expr(i, P_OR) for i in items)


def _call_args(args: tuple[A.Expr, ...]) -> str:
    if len(args) == 1 and isinstance(args[0], A.Comprehension):
        return _comprehension(args[0])  # count(c in hand where ...), sum(x.v for x in t)
    return ", ".join(_expr(a) if isinstance(a, A.Lambda) else format_expr(a, P_OR)
                     for a in args)


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
    return ", ".join(f"{p.name}: {format_type(p.type)}" for p in params)


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
    if d.kind == "end_of":
        return f"until end of {d.event}"
    if d.kind == "start_of":
        return f"until {d.event}"
    if d.kind == "while":
        assert d.cond is not None
        return f"while {format_expr(d.cond)}"
    raise ValueError(f"unknown duration kind {d.kind!r}")


def format_simple_stmt(s: A.Stmt) -> str:
    """One line of a statement that has no block."""
    if isinstance(s, A.Let):
        return f"let {s.name} = {_rhs(s.value)}"
    if isinstance(s, A.Assign):
        return f"{format_expr(s.target, P_POSTFIX)} = {_rhs(s.value)}"
    if isinstance(s, A.AugAssign):
        return f"{format_expr(s.target, P_POSTFIX)} {s.op} {format_expr(s.value)}"
    if isinstance(s, A.ExprStmt):
        return format_expr(s.expr)
    if isinstance(s, A.ActionStmt):
        return _action(s.action)
    if isinstance(s, A.Emit):
        return f"{'enqueue' if s.queued else 'emit'} {s.event}({_args(s.args)})"
    if isinstance(s, A.Move):
        place = f"{s.place} of " if s.place else ""
        return f"move {format_expr(s.what)} to {place}{format_expr(s.dest)}"
    if isinstance(s, A.Shuffle):
        return f"shuffle {format_expr(s.zone)}"
    if isinstance(s, A.Reveal):
        to = f" to {format_expr(s.to)}" if s.to is not None else ""
        return f"reveal {format_expr(s.what)}{to}"
    if isinstance(s, A.Modify):
        text = f"modify {s.key}({_args(s.args)}) by {format_expr(s.amount)}"
        return text + (f" {_duration(s.duration)}" if s.duration is not None else "")
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
        return f"event {d.name}({_params(d.params)})"
    if isinstance(d, A.ValueDecl):
        return (f"value {d.name}({_params(d.params)}): {format_type(d.type)} = "
                f"{format_expr(d.expr)}")
    if isinstance(d, A.CheckDecl):
        return f"{'invariant' if d.invariant else 'check'} {quote(d.message)}: {format_expr(d.expr)}"
    if isinstance(d, A.GraphDecl):
        return f"graph {d.name} of {d.node_type} via {d.edge_type}"
    raise TypeError(f"not a one-line declaration: {d!r}")


def _field(f: A.FieldDecl) -> str:
    text = f"{f.name}: {format_type(f.type)}"
    return text + (f" = {format_expr(f.default)}" if f.default is not None else "")


_BLOCK_DECLS = (A.TypeDecl, A.ProcDecl, A.TriggerDecl)
_COMPOUND = (A.If, A.For, A.While, A.Repeat)
# Nodes whose parsed `at` runs on over the line break (and blank lines) after them.
_LOOSE_END = (A.TypeDecl, A.VarDecl, A.ZoneDecl, A.EventDecl, A.ProcDecl, A.ValueDecl,
              A.CheckDecl, A.GraphDecl, A.TriggerDecl, A.FieldDecl) + _COMPOUND


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
class _Printer:
    def __init__(self, module: A.Module):
        self.lines: list[str] = []
        self.comments = deque(sorted(c for c in module.comments if c[0] > 0))
        self.anchors = sorted(set(self._anchor_lines(module.decls)))
        self.last = 0  # last source line printed so far

    # anchors: source lines where a printed line starts
    def _anchor_lines(self, nodes: Iterable[object]) -> Iterable[int]:
        for n in nodes:
            if _line(n):
                yield _line(n)
            if isinstance(n, A.TypeDecl):
                yield from self._anchor_lines(n.fields)
            elif isinstance(n, (A.ProcDecl, A.TriggerDecl, A.For, A.While, A.Repeat)):
                yield from self._anchor_lines(n.body)
            elif isinstance(n, A.If):
                for i, (cond, body) in enumerate(n.branches):
                    if i and _line(cond):
                        yield _line(cond)
                    yield from self._anchor_lines(body)
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

    def leading(self, line: int, depth: int, blank: bool | None) -> None:
        """Comments before the item at `line`, and the blank line before them.

        blank: True = always one blank line before, False = never, None = as in the source."""
        if blank:
            self._blank()
        first = True
        while line and self.comments and self.comments[0][0] < line:
            self._comment(depth, self.comments.popleft(), blank is None or not first)
            first = False
        if (blank is None or not first) and self._gap(line):
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
            if prev is None:
                blank: bool | None = None if self.lines else False
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
        if isinstance(d, A.TypeDecl):
            self.put(0, f"type {d.name}:", start, start)
            for i, f in enumerate(d.fields):
                self.leading(_line(f), 1, False if i == 0 else None)
                self.put(1, _field(f), _line(f), _last_line(f))
            self.block_end(1, _line(d.fields[0]) and d.fields[0].at.col if d.fields else 0)
        elif isinstance(d, A.ProcDecl):
            ret = f" -> {format_type(d.returns)}" if d.returns is not None else ""
            self.put(0, f"procedure {d.name}({_params(d.params)}){ret}:", start,
                     _last_line(d.params, d.returns))
            self.body(d.body, 1)
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
                    self.leading(_line(cond), depth, False)
                    self.put(depth, f"elif {format_expr(cond)}:", _line(cond), _last_line(cond))
                self.body(body, depth + 1)
            if s.orelse is not None:
                # `else:` has no position: comments before it at the `if`'s column go first
                limit = _line(s.orelse[0]) if s.orelse else 0
                col = s.at.col if start else 0
                while (limit and col and self.comments and self.comments[0][0] < limit
                       and self.comments[0][1] <= col):
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


def format_module(module: A.Module) -> str:
    """The canonical text of a parsed module, its comments kept."""
    return _Printer(module).module(module.decls)


def format_source(text: str, path: str = "<rules>") -> str:
    """Parse `text` and return its canonical text; DslError on syntax errors."""
    return format_module(parse_module(text, path))
