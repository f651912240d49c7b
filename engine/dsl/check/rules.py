"""Rules with a body: procedures, triggers, effects (record fields holding statements),
windows, and the locals they leave unread (W280)."""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.constants import ConstantChecker
from engine.dsl.check.scope import Scope
from engine.dsl.check.state import show_params
from engine.dsl.check.statements import StatementChecker
from engine.dsl.model import Effect, Trigger, Window
from engine.dsl.pack import KEYWORDS


class RuleChecker(StatementChecker, ConstantChecker):
    """Procedures, triggers, effects and windows, each checked in its own scope."""

    def _procedure(self, name: str, proc: A.ProcDecl) -> None:
        """A procedure: its body, returning its declared type, and its defaults."""
        path = self.model.decl_paths[name]
        sc = self._scope(f"p_{name}", path, proc.params)
        sc.returns = T.from_ast(proc.returns) if proc.returns else None
        self._body(proc.body, sc)
        self._unused_lets(sc)
        self._param_defaults(proc.params, path, f"procedure '{name}'")

    def _window(self, w: Window) -> None:
        """A window's clauses, checked as the rule they make (engine.dsl.pack.window_body): `by`
        as a choice's decider, `from` as its source, `to` as a move's zone, `effect` as
        `run(x.field)`."""
        d = w.decl
        sc = self._scope(w.fn, w.path, d.params)
        sc.returns = "any"
        self._body(w.body, sc)
        et = T.elem(self.types.get(id(d.source), "any"))
        if et is None or et in ("int", "bool", "text"):  # reported: cannot choose / move
            et = "any"
        elif et != "any" and et not in self.model.types:
            self.error("E266", f"window '{d.name}' offers {T.show(et)} values; a window offers "
                       "records (cards), which are moved when played", w.path, d.source.at)
            et = "any"
        self.window_types[d.name] = et

    def _opening_fits(self, tr: Trigger, window_name: str) -> bool:
        """A window's `after e` clause: the event's parameters are the window's, in order."""
        d, m = tr.decl, self.model
        ev = m.events.get(d.event)
        if ev is None:
            self._unknown("E203", "event", d.event, m.events, tr.path, d.at)
            return False
        window = m.windows[window_name].decl
        want = [T.from_ast(p.type) for p in window.params]
        got = [T.from_ast(p.type) for p in ev.params]
        if want != got:
            self.error("E268", f"window '{window.name}' cannot open {d.kind} '{d.event}' by "
                       f"itself: the event has parameters ({show_params(ev.params)}), the "
                       f"window ({show_params(window.params)}); they must be the same, in order "
                       f"(or open it with 'open {window.name}(...)' in a trigger)", tr.path,
                       d.at)
            return False
        return True

    def _trigger(self, tr: Trigger) -> None:
        """A trigger: it names its event's parameters (or keeps their names); its condition
        and body."""
        d, path = tr.decl, tr.path
        if tr.window is not None and not self._opening_fits(tr, tr.window):
            return
        ev = self.model.events.get(d.event)
        params: list[A.Param] = []
        if d.event == "setup":
            ev_params: tuple[A.Param, ...] = ()
        elif ev is None:
            self._unknown("E203", "event", d.event, self.model.events, path, d.at)
            return
        else:
            ev_params = ev.params
        names = d.names or ()
        if d.names is not None and len(names) != len(ev_params):
            self.error("E210", f"event '{d.event}' has {len(ev_params)} parameter(s) "
                       f"({', '.join(p.name for p in ev_params)}), the trigger names {len(names)}",
                       path, d.at)
        for i, p in enumerate(ev_params):
            params.append(A.Param(names[i] if i < len(names) else p.name, p.type))
        sc = self._scope(tr.fn, path, params)
        sc.self_record = tr.record
        sc.self_type = tr.record_type
        if d.cond is not None:
            self._expect(d.cond, "bool", sc, "a trigger condition")
        self._body(d.body, sc)
        self._unused_lets(sc)

    def _effect(self, eff: Effect) -> None:
        """The statements of an effect field of a record, with `self` the record."""
        sc = self._scope(eff.fn, eff.site.path, ())
        sc.bind("self", eff.type)
        self._body(eff.body, sc)
        self._unused_lets(sc)

    def _unused_lets(self, sc: Scope) -> None:
        """W280 for each `let` whose local is never read (a name starting with '_' is meant
        to be unused)."""
        for let in sc.all_lets:
            name = let.name
            if id(let) in sc.read or name.startswith("_") or name in KEYWORDS:
                continue
            if isinstance(let.value, A.ACTIONS):
                hint = (f"write the {type(let.value).__name__.lower()} as a statement without "
                        f"'let', or name the local _{name}")
            else:
                hint = f"remove it, or name it _{name} if the value is not needed"
            self.warn("W280", f"local '{name}' is never read", sc.path,
                      self._let_name_at(sc, let), hint)

    def _let_name_at(self, sc: Scope, let: A.Let) -> A.Pos:
        """Where the name of a `let` is written."""
        at = let.at
        lines = self._lines(sc.path)
        text = lines[at.line - 1] if 0 < at.line <= len(lines) else ""
        i = text.find(let.name, max(at.col - 1, 0) + 3)
        if i < 0:
            return at
        return A.Pos(at.line, i + 1, at.line, i + 1 + len(let.name))
