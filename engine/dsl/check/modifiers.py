"""Lasting changes: `modify VALUE(...) by/to/at least/at most ...`, `set ... until`, and
their durations.
"""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.scope import Scope
from engine.dsl.check.targets import TargetChecker
from engine.dsl.formatter import format_type


class ModifierChecker(TargetChecker):
    """Modifiers of values, temporary settings of vars, and durations."""

    def _modify(self, s: A.Modify, sc: Scope) -> None:
        """`modify VALUE(args) by|to|at least|at most amount [until ...]`."""
        v = self.model.values.get(s.key)
        if v is None:
            self._unknown("E204", "value", s.key, self.model.values, sc.path, s.at,
                          extra="; modifiers apply to values declared with 'value'")
            self._expr(s.amount, sc)
        else:
            self.modified.add(s.key)
            self._bind(s, s.args, s.kwargs, v.params, f"value '{s.key}'", sc, s.at)
            self._modifier_fits(s, v, sc)
        if s.duration is not None:
            self._duration(s.duration, sc)

    def _modifier_fits(self, s: A.Modify, v: A.ValueDecl, sc: Scope) -> None:
        """`by`, `at least` and `at most` do arithmetic, so only on an int value (an `int?`
        may be none); `to` gives any value a new value of its own type."""
        vt = T.from_ast(v.type)
        if s.op == "to":
            got = self._coerce(s.amount, vt, sc) or self._expr(s.amount, sc)
            if not T.compatible(vt, got):
                self.error("E241", f"value '{s.key}' is {format_type(v.type)}, so 'to' needs "
                           f"{T.show(vt)}, got {T.show(got)}", sc.path, s.amount.at)
            return
        word = {"by": "'by'", "least": "'at least'", "most": "'at most'"}[s.op]
        if not (isinstance(v.type, A.TName) and v.type.name == "int"):
            self.error("E240", f"{word} works on int values, but value '{s.key}' is "
                       f"{format_type(v.type)}; give it a new value with 'modify {s.key}(...) to "
                       f"...'", sc.path, s.at)
            self._expr(s.amount, sc)
            return
        self._expect(s.amount, "int", sc, "a modifier")

    def _duration(self, d: A.Duration, sc: Scope) -> None:
        """`until ...` (events and how many times) or `while condition`."""
        if d.kind == "while":
            assert d.cond is not None  # the parser gives a `while` its condition
            outer, sc.no_evstate = sc.no_evstate, (
                "a 'while' duration is read as long as the modifier lasts, after the event "
                "may have ended: copy the state into a local first (let r = EV.FIELD)")
            self._expect(d.cond, "bool", sc, "a 'while' duration")
            sc.no_evstate = outer
            return
        for item in d.items if d.kind == "any" else (d,):
            assert item.event is not None  # `until [start|end] of EVENT`
            if item.event not in self.model.events and item.event != "setup":
                self._unknown("E203", "event", item.event, self.model.events, sc.path, item.at)
            if item.count < 1:
                self.error("E242", f"'{item.count} times' never comes: count 1 time or more",
                           sc.path, item.at)

    def _set_until(self, s: A.SetUntil, sc: Scope) -> None:
        """`set VAR = value until ...`: a var for a while, until events."""
        want = self._target(s.target, sc)
        got = (self._coerce(s.value, want, sc) if want is not None else None) or \
            self._expr(s.value, sc)
        if want is not None and not T.compatible(want, got):
            self.error("E220", f"cannot assign {T.show(got)} to {T.show(want)}", sc.path, s.at)
        if want is not None and self.res.get(id(s.target), ("",))[0] != "var":
            self.error("E243", "'set ... until' gives a var a value for a while; a local or "
                       "an item of a list cannot be set for a while", sc.path, s.target.at)
        if s.duration.kind == "while":
            self.error("E243", "'set ... until' ends at events ('until end of turn', "
                       "'until reshuffle'), not 'while'", sc.path, s.duration.at)
        self._duration(s.duration, sc)
