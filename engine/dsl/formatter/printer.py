"""The printer: a module's declarations and statements laid out line by line, with the
comments of the source placed around them and blank lines kept where the source had
them (see the rules in `engine.dsl.formatter`); `format_module`, `format_source`.
"""
from __future__ import annotations

import bisect
import re
from collections import deque
from collections.abc import Iterable
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl.formatter.declarations import (
    EVENT_LINE_MAX,
    MAX_ENUM_LINE,
    enum_lines,
    one_line_decl_doc,
    window_clauses,
)
from engine.dsl.formatter.documents import INDENT, Doc, Text
from engine.dsl.formatter.expressions import S, listing
from engine.dsl.formatter.layout import lay_out
from engine.dsl.formatter.source_lines import first_line, last_line
from engine.dsl.formatter.statements import field_doc, header_doc, params_docs, simple_stmt_doc
from engine.dsl.parser import parse_module

_BLOCK_DECLS = (A.TypeDecl, A.ProcDecl, A.TriggerDecl, A.WindowDecl)
_ELSE = re.compile(r"[ \t\f]*else[ \t\f]*:")
_ELIF = re.compile(r"[ \t\f]*elif\b")
_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#.*|[()\[\]]')


class _Printer:
    """The lines of one module being printed, and the comments not yet placed."""

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
        stack: list[Any] = list(decls)
        while stack:
            n = stack.pop()
            if isinstance(n, (list, tuple)):
                stack.extend(n)
            elif attrs.has(type(n)):
                if isinstance(n, A.If):
                    self._find_elif_lines(n, text)
                if isinstance(n, A.If) and n.orelse:
                    after = last_line(n.branches[-1][1])
                    before = first_line(n.orelse[0])
                    for no in range(after + 1, before) if after else ():
                        if no <= len(text) and _ELSE.match(text[no - 1]):
                            self.else_lines[id(n)] = no
                            break
                stack.extend(getattr(n, f.name) for f in attrs.fields(type(n))
                             if f.name != "at")

    def _find_elif_lines(self, n: A.If, text: list[str]) -> None:
        """The line of each `elif`: its condition may start on a line after it, `elif (`."""
        for i in range(1, len(n.branches)):
            after, at = last_line(n.branches[i - 1][1]), first_line(n.branches[i][0])
            for no in range(at, after, -1) if after else ():
                if no <= len(text) and _ELIF.match(text[no - 1]):
                    self.elif_lines[id(n), i] = no
                    break

    def _elif_line(self, n: A.If, i: int) -> int:
        return self.elif_lines.get((id(n), i), first_line(n.branches[i][0]))

    # anchors: source lines where a printed line starts
    def _anchor_lines(self, nodes: Iterable[object]) -> Iterable[int]:
        for n in nodes:
            if first_line(n):
                yield first_line(n)
            if isinstance(n, A.TypeDecl):
                yield from self._anchor_lines(n.fields)
            elif isinstance(n, A.EventDecl):
                yield from self._anchor_lines(n.state)
            elif isinstance(n, A.WindowDecl):
                yield from (first for _text, first, _last in window_clauses(n) if first)
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
        on a line of its own before the code after it; but never after a backslash (the
        lexer joins only a line break to it): such comments go after the joined lines."""
        end = max(start, end, self._end_line(start))
        ind = len(INDENT) * depth
        out = lay_out(Text(doc) if isinstance(doc, str) else doc, ind)
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
            at = max(at, _past_backslashes(lines, pos))
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
            self.leading(first_line(d), 0, blank)
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
        start = first_line(d)
        created = " created" if isinstance(d, A.TypeDecl) and d.created else ""
        if isinstance(d, A.TypeDecl) and not d.fields:
            self.put(0, f"type {d.name}{created}", start, start)
        elif isinstance(d, A.TypeDecl):
            self.put(0, f"{'extend type' if d.extend else 'type'} {d.name}{created}:", start,
                     start)
            for i, f in enumerate(d.fields):
                self.leading(first_line(f), 1, False if i == 0 else None)
                self.put(1, field_doc(f), first_line(f), last_line(f))
            self.block_end(1, first_line(d.fields[0]) and d.fields[0].at.col if d.fields else 0)
        elif isinstance(d, A.EnumDecl) and self._enum_block(d):
            self.put(0, f"enum {d.name}:", start, start)
            for i, line in enumerate(enum_lines(d)):
                self.leading(first_line(line[0]), 1, False if i == 0 else None)
                self.put(1, ", ".join(v.name for v in line), first_line(line[0]),
                         first_line(line[-1]))
            self.block_end(1, d.values[0].at.col if first_line(d.values[0]) else 0)
        elif isinstance(d, A.EventDecl) and self._event_block(d):
            self.put(0, S("event ", listing(f"{d.name}(", params_docs(d.params), ")"), " with:"),
                     start, last_line(d.params))
            for i, f in enumerate(d.state):
                self.leading(first_line(f), 1, False if i == 0 else None)
                self.put(1, field_doc(f), first_line(f), last_line(f))
            self.block_end(1, first_line(d.state[0]) and d.state[0].at.col)
        elif isinstance(d, A.WindowDecl):
            self.put(0, S("window ", listing(f"{d.name}(", params_docs(d.params), ")"), ":"),
                     start, last_line(d.params))
            for i, (text, first, last) in enumerate(window_clauses(d)):
                self.leading(first, 1, False if i == 0 else None)
                self.put(1, text, first, last)
            self.block_end(1, min((at.col for _key, at in d.clauses), default=0))
        elif isinstance(d, A.ProcDecl):
            self.put(0, header_doc(d), start, last_line(d.params, d.returns))
            self.body(d.body, 1)
        elif isinstance(d, A.TriggerDecl):
            self.put(0, header_doc(d), start, last_line(d.cond))
            self.body(d.body, 1)
        else:
            self.put(0, one_line_decl_doc(d), start, last_line(d))

    def _event_block(self, d: A.EventDecl) -> bool:
        """Print an event's state as a block: when one line would be too long, or when
        comments sit among its fields."""
        if not d.state:
            return False
        start, end = first_line(d), last_line(d)
        one = one_line_decl_doc(d)
        return (len(one if isinstance(one, str) else one.flat) > EVENT_LINE_MAX
                or any(start < c[0] <= end for c in self.comments))

    @staticmethod
    def _enum_block(d: A.EnumDecl) -> bool:
        """Print the enum one value a line? When it is long, or when its values were
        written on lines of their own."""
        start, last = first_line(d), max((first_line(v) for v in d.values), default=0)
        one = one_line_decl_doc(d)
        return len(one if isinstance(one, str) else one.flat) > MAX_ENUM_LINE \
            or bool(start) and last > start

    def body(self, stmts: tuple[A.Stmt, ...], depth: int) -> None:
        if not stmts:  # not produced by the parser; keep the output parseable
            self.lines.append(INDENT * depth + "pass")
            return
        for i, s in enumerate(stmts):
            self.leading(first_line(s), depth, False if i == 0 else None)
            self.stmt(s, depth)
        first = stmts[0].at
        self.block_end(depth, first.col if first.line else 0)

    def stmt(self, s: A.Stmt, depth: int) -> None:
        start = first_line(s)
        if isinstance(s, A.If):
            for i, (cond, body) in enumerate(s.branches):
                if i == 0:
                    self.put(depth, S("if ", cond, ":"), start, last_line(cond))
                else:
                    line = self._elif_line(s, i)
                    self.leading(line, depth, None, header=True)
                    self.put(depth, S("elif ", cond, ":"), line, last_line(cond))
                self.body(body, depth + 1)
            if s.orelse is not None:
                line = self.else_lines.get(id(s), 0)
                if line:
                    self.leading(line, depth, None, header=True)
                    self.put(depth, "else:", line, line)
                else:  # line unknown: the comments left before the block go first
                    limit = first_line(s.orelse[0]) if s.orelse else 0
                    while limit and self.comments and self.comments[0][0] < limit:
                        self._comment(depth, self.comments.popleft(), True)
                    self.lines.append(INDENT * depth + "else:")
                self.body(s.orelse, depth + 1)
        elif isinstance(s, A.For):
            self.put(depth, header_doc(s), start, last_line(s.source, s.where))
            self.body(s.body, depth + 1)
        elif isinstance(s, A.While):
            self.put(depth, header_doc(s), start, last_line(s.cond))
            self.body(s.body, depth + 1)
        elif isinstance(s, A.Repeat):
            self.put(depth, header_doc(s), start, last_line(s.count))
            self.body(s.body, depth + 1)
        else:
            self.put(depth, simple_stmt_doc(s), start, last_line(s))


def _past_backslashes(lines: list[str], pos: int) -> int:
    """A comment's place among `lines` (2i: before line i, 2i + 1: after it) moved past the
    lines that end in a backslash, to after the last line they join."""
    i = pos // 2
    if pos % 2 == 0 and i and lines[i - 1].endswith("\\"):
        i -= 1
    elif pos % 2 == 0:
        return pos
    while i + 1 < len(lines) and lines[i].endswith("\\"):
        i += 1
    return 2 * i + 1


def format_module(module: A.Module, source: str | None = None) -> str:
    """The canonical text of a parsed module, its comments kept. `source`, the text the
    module was parsed from, places comments around `else:` exactly."""
    return _Printer(module, source).module(module.decls)


def format_source(text: str, path: str = "<rules>") -> str:
    """Parse `text` and return its canonical text; DslError on syntax errors."""
    return format_module(parse_module(text, path), text)

