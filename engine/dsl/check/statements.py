"""Statements: assignments, control flow, moves, emits and the other statements of a body."""
from __future__ import annotations

from collections.abc import Iterable

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.modifiers import ModifierChecker
from engine.dsl.check.scope import Scope
from engine.dsl.pack import KEYWORDS
from engine.dsl.types import Type


class StatementChecker(ModifierChecker):
    """The statements of a rule's body, in their blocks and loops."""

    def _body(self, stmts: Iterable[A.Stmt], sc: Scope) -> None:
        for s in stmts:
            self._stmt(s, sc)

    def _block(self, stmts: Iterable[A.Stmt], sc: Scope, binds: dict[str, Type] | None = None
               ) -> None:
        """Statements in a frame of their own (with `binds` as its first locals)."""
        sc.vars.append(dict(binds or {}))
        self._body(stmts, sc)
        sc.vars.pop()

    def _stmt(self, s: A.Stmt, sc: Scope) -> None:
        """One statement, by its form."""
        match s:
            case A.Let():
                self._let(s, sc)
            case A.Assign():
                self._assign(s, sc)
            case A.AugAssign():
                self._aug_assign(s, sc)
            case A.ExprStmt():
                self._expr_stmt(s, sc)
            case A.ActionStmt():
                self._rhs(s.action, sc)
            case A.Emit():
                self._emit(s, sc)
            case A.Move():
                self._move(s, sc)
            case A.Destroy():
                self._destroy(s, sc)
            case A.Shuffle():
                z = self._expr(s.zone, sc)
                if not (isinstance(z, tuple) and z[0] == "zone"):
                    self.error("E222", f"'shuffle' needs a zone, got {T.show(z)}", sc.path,
                               s.zone.at)
            case A.Reveal():
                self._entityish(self._expr(s.what, sc), sc.path, s.what.at, "reveal")
                if s.to is not None:
                    self._expect(s.to, "side", sc, "'reveal to'")
            case A.Modify():
                self._modify(s, sc)
            case A.SetUntil():
                self._set_until(s, sc)
            case A.Win():
                self._expect(s.side, "side", sc, "'win'")
                self._prompt_args(s.args, sc, s.reason)
            case A.EndGame():
                self._prompt_args(s.args, sc, s.reason)
            case A.Log():
                self._prompt_args(s.args, sc, s.message if s.inline else None)
            case A.Return():
                self._return(s, sc)
            case A.Break() | A.Continue():
                if sc.loops == 0:
                    self.error("E224", f"'{type(s).__name__.lower()}' outside a loop", sc.path,
                               s.at)
            case A.If():
                for cond, body in s.branches:
                    self._expect(cond, "bool", sc, "a condition")
                    self._block(body, sc)
                if s.orelse:
                    self._block(s.orelse, sc)
            case A.For():
                self._for(s, sc)
            case A.While():
                self._expect(s.cond, "bool", sc, "a condition")
                self._loop_body(s.body, sc)
            case A.Repeat():
                self._expect(s.count, "int", sc, "'repeat'")
                self._loop_body(s.body, sc)
            # Pass needs nothing

    def _let(self, s: A.Let, sc: Scope) -> None:
        """`let x = ...` (or `let x: T = ...`) binds a local in the innermost frame."""
        if s.type is not None:
            self._check_type_expr(s.type, sc.path)
            t = T.from_ast(s.type)
            got = self._rhs_as(s.value, t, sc)
            if not T.compatible(t, got):
                self.error("E220", f"local '{s.name}' is {T.show(t)}, but its value is "
                           f"{T.show(got)}", sc.path, s.value.at)
        else:
            t = self._rhs(s.value, sc)
        if s.name in KEYWORDS:
            self.error("E234", f"'{s.name}' is a keyword of the rules language; choose "
                       "another name", sc.path, s.at)
        sc.bind(s.name, t, s)

    def _assign(self, s: A.Assign, sc: Scope) -> None:
        """`target = value`, of the target's type."""
        want = self._target(s.target, sc)
        got = self._rhs_as(s.value, want, sc) if want is not None else self._rhs(s.value, sc)
        if want is not None and not T.compatible(want, got):
            hint = None
            if want == "none" and isinstance(s.target, A.Name):
                hint = (f"a local that starts as none needs its type: "
                        f"let {s.target.id}: {T.show(got)}? = none")
            self.error("E220", f"cannot assign {T.show(got)} to {T.show(want)}", sc.path, s.at,
                       hint)

    def _aug_assign(self, s: A.AugAssign, sc: Scope) -> None:
        """`+=` and `-=`: on ints, and (`+=`) on lists."""
        want = self._target(s.target, sc)
        got = self._expr(s.value, sc)
        if want is not None and want != "any":
            if want == "int" and got not in ("int", "any"):
                self.error("E220", f"'{s.op}' needs an int, got {T.show(got)}", sc.path,
                           s.value.at)
            elif want != "int" and not (isinstance(want, tuple) and want[0] == "list"):
                self.error("E220", f"'{s.op}' works on ints and lists, not {T.show(want)}",
                           sc.path, s.at)

    def _expr_stmt(self, s: A.ExprStmt, sc: Scope) -> None:
        """An expression on its own line: a call, whose value is dropped."""
        e = s.expr
        if not isinstance(e, A.Call):
            self.error("E221", "this expression does nothing; assign it with 'let' or call "
                       "a procedure", sc.path, e.at)
        self._expr(e, sc, statement=True)

    def _move(self, s: A.Move, sc: Scope) -> None:
        """`move records to zone`."""
        what = self._expr(s.what, sc)
        dest = self._expr(s.dest, sc)
        if not (isinstance(dest, tuple) and dest[0] == "zone") and dest != "any":
            self.error("E222", f"'move' needs a zone to move to, got {T.show(dest)}", sc.path,
                       s.dest.at)
        self._entityish(what, sc.path, s.what.at, "move")

    def _return(self, s: A.Return, sc: Scope) -> None:
        """`return x` in a procedure declaring `-> type`, of that type."""
        if s.value is None:
            return
        t = self._rhs_as(s.value, sc.returns, sc) if sc.returns else self._expr(s.value, sc)
        if sc.returns is None:
            self.error("E223", "this procedure declares no return type ('-> type')", sc.path,
                       s.at)
        elif not T.compatible(sc.returns, t):
            self.error("E220", f"returns {T.show(t)}, declared {T.show(sc.returns)}", sc.path,
                       s.value.at)

    def _for(self, s: A.For, sc: Scope) -> None:
        """`for x in source where cond:` binds x, in the loop's own frame, to each item."""
        sc.vars.append({s.var: self._loop_elem(s.source, sc)})
        if s.where is not None:
            self._expect(s.where, "bool", sc, "a filter")
        sc.loops += 1
        self._body(s.body, sc)
        sc.loops -= 1
        sc.vars.pop()

    def _loop_body(self, stmts: Iterable[A.Stmt], sc: Scope) -> None:
        """The body of a `while` or `repeat`, where `break` and `continue` belong."""
        sc.loops += 1
        self._block(stmts, sc)
        sc.loops -= 1

    def _entityish(self, t: Type, path: str, at: A.Pos, verb: str) -> None:
        """What `verb` acts on is records, not plain values (E222)."""
        if t in ("int", "bool", "text"):
            self.error("E222", f"'{verb}' needs cards or other records, got {T.show(t)}", path, at)

    def _emit(self, s: A.Emit, sc: Scope) -> None:
        """`emit EVENT(args)` (or `enqueue`): its arguments bound to the event's parameters."""
        ev = self.model.events.get(s.event)
        if ev is None:
            self._unknown("E203", "event", s.event, self.model.events, sc.path, s.at)
            for a in (*s.args, *(k.value for k in s.kwargs)):
                self._expr(a, sc)
            return
        self._bind(s, s.args, s.kwargs, ev.params, f"event '{s.event}'", sc, s.at)
        self.emits[sc.fn].add(("enqueue:" if s.queued else "") + s.event)
        if ev.state:  # its state's defaults are computed where it is set off
            self.uses.setdefault(sc.fn, set()).add(f"xstate:{s.event}")

    def _destroy(self, s: A.Destroy, sc: Scope) -> None:
        """`destroy x`: records of a created type only (E271)."""
        t = self._expr(s.what, sc)
        et = T.elem(t) if isinstance(t, tuple) else t
        if et in ("any", "none"):
            return
        info = self.model.types.get(et) if isinstance(et, str) else None
        if info is None or not info.created:
            what = f"'{et}' records come from the pack's record files" if info else \
                f"got {T.show(t)}"
            self.error("E271", f"'destroy' takes records of a created type ('type T created'); "
                       f"{what}", sc.path, s.what.at)
