"""`CheckerState`: what one run of the checker knows and collects, and how it reports.

The checker is a stack of classes, one concept each, every one building on those below it
(engine.dsl.check.checker composes the top ones): this one holds the pack, the annotations
handed to the compiler (types, what names refer to, bound arguments), the facts the
whole-pack analyses read (who calls, emits or runs what), and the diagnostics.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.result import BoundArgs, Resolution
from engine.dsl.check.scope import Scope
from engine.dsl.errors import Diagnostic, did_you_mean
from engine.dsl.model import PackModel, Site
from engine.dsl.types import Type


class CheckerState:
    """The pack being checked, the annotations and facts gathered so far, the diagnostics."""

    def __init__(self, model: PackModel, sources: dict[str, str]) -> None:
        self.model = model
        self.sources = sources  # the rules files' text, by path, for the lines diagnostics show
        self._source_lines: dict[str, list[str]] = {}
        self.diags: list[Diagnostic] = []
        # the annotations the compiler reads (CheckResult), by syntax-tree node identity
        self.types: dict[int, Type] = {}
        self.res: dict[int, Resolution] = {}
        self.bound: dict[int, BoundArgs] = {}
        self.modified: set[str] = set()  # values some `modify` changes
        # nodes whose resolution is no read of what they name: assignment targets, the type of
        # `type.id` (engine.dsl.check.unread)
        self.not_read: set[int] = set()
        self.window_types: dict[str, Type] = {}  # window -> the type of what `open` returns
        # for the suspension analysis: function -> what it calls / emits / enqueues
        self.calls: dict[str, set[str]] = {}
        self.emits: dict[str, set[str]] = {}
        self.direct_suspend: set[str] = set()
        self.runs_effect: dict[str, set[str]] = {}
        self.proc_calls: list[tuple[A.Call, str, bool]] = []  # (call, path, as a statement)
        # for where event state may be used: function -> values it reads and event state
        # defaults it computes (besides `calls`, `emits` and `runs_effect`)
        self.uses: dict[str, set[str]] = {}
        # each use of event state: (function, event, field, written, path, position)
        self.ev_uses: list[tuple[str, str, str, bool, str, A.Pos]] = []
        # consts: the type of each checked, those being checked (a cycle is E282)
        self.const_types: dict[str, Type] = {}
        self._const_busy: list[str] = []
        # expressions that must be constant (consts, parameter defaults): (expr, path, what,
        # the code to report)
        self.constant_exprs: list[tuple[A.Expr, str, str, str]] = []

    def error(self, code: str, message: str, path: str, at: A.Pos | Site,
              suggestion: str | None = None, severity: str = "error") -> None:
        """Report `message` at `at` in file `path` (a one-line position underlines its span)."""
        line, col = at.line, at.col
        end = at.end_col if isinstance(at, A.Pos) and at.end_line == at.line else None
        if isinstance(at, Site):
            end = at.end_col
        lines = self._lines(path)
        line_text = lines[line - 1] if 0 < line <= len(lines) else ""
        self.diags.append(Diagnostic(code, message, path, line, col, line_text, end, suggestion,
                                     severity))

    def warn(self, code: str, message: str, path: str, at: A.Pos | Site,
             suggestion: str | None = None) -> None:
        """Report a warning."""
        self.error(code, message, path, at, suggestion, "warning")

    def _unknown(self, code: str, what: str, name: str, candidates: Iterable[str], path: str,
                 at: A.Pos | Site, extra: str = "") -> None:
        """Report an unknown name, with the nearest candidate as a suggestion."""
        if name in self.model.poisoned:
            return  # declared in a part of the pack already reported as broken
        self.error(code, f"unknown {what} '{name}'{extra}", path, at,
                   did_you_mean(name, list(candidates)))

    def _lines(self, path: str) -> list[str]:
        """The lines of the source file `path`."""
        if path not in self._source_lines:  # split once: a broken pack has hundreds of errors
            self._source_lines[path] = self.sources.get(path, "").splitlines()
        return self._source_lines[path]

    def _scope(self, fn: str, path: str, params: Iterable[A.Param]) -> Scope:
        """A new scope for the rule compiled to function `fn`, its parameters as locals."""
        self.calls.setdefault(fn, set())
        self.emits.setdefault(fn, set())
        frame: dict[str, Type] = {}
        for p in params:
            self._check_type_expr(p.type, path)
            frame[p.name] = T.from_ast(p.type)
        return Scope(fn, path, [frame])

    def _check_type_expr(self, t: A.TypeExpr, path: str) -> None:
        """A type written in the rules names a base type, a record type or an enum (E202)."""
        if isinstance(t, A.TList):
            self._check_type_expr(t.elem, path)
            return
        model = self.model
        if t.name not in T.BASE and t.name not in model.types and t.name not in model.enums:
            self._unknown("E202", "type", t.name, [*T.BASE, *model.types, *model.enums], path,
                          t.at)

    def _set(self, e: Any, t: Type) -> Type:
        """Annotate node `e` with its type `t`."""
        self.types[id(e)] = t
        return t

    def _enum(self, t: Type | None) -> str | None:
        """The enum `t` is, or None."""
        return t if isinstance(t, str) and t in self.model.enums else None


def show_params(params: Iterable[A.Param]) -> str:
    """Parameters as a message shows them: `name: type, ...`."""
    return ", ".join(f"{p.name}: {T.show(T.from_ast(p.type))}" for p in params)
