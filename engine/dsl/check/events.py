"""Event state (`battle.rounds`): where it is read or written, and whether an instance of
its event can be running there (E261, E262, E263).
"""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.scope import Scope
from engine.dsl.check.state import CheckerState
from engine.dsl.errors import did_you_mean
from engine.dsl.types import Type


class EventStateChecker(CheckerState):
    """Reads and writes of an event's state, and the rules that may run inside an event."""

    def _event_ref(self, e: A.Attr, sc: Scope) -> str | None:
        """The event whose state `e` (`battle.rounds`) reads, or None. A local of the same
        name wins; no other global name can equal an event's (the pack refuses that)."""
        obj = e.obj
        if isinstance(obj, A.Name) and obj.id in self.model.events and sc.lookup(obj.id) is None:
            return obj.id
        return None

    def _shadow_note(self, e: A.Attr, sc: Scope) -> str:
        """Why a field of a local named like an event is not found, when it may be that."""
        obj, events = e.obj, self.model.events
        if isinstance(obj, A.Name) and obj.id in events and events[obj.id].state:
            return (f" (the local '{obj.id}' hides the state of event '{obj.id}': a local wins; "
                    "rename it)")
        return ""

    def _ev_field(self, e: A.Attr, ev: str, sc: Scope, write: bool) -> Type:
        """`battle.rounds` (`ev` is battle, from _event_ref): a field of the innermost running
        instance of the event."""
        state = self.model.events[ev].state
        f = next((f for f in state if f.name == e.name), None)
        if f is None:
            if state:
                self.error("E262", f"event '{ev}' has no state field '{e.name}'", sc.path, e.at,
                           did_you_mean(e.name, [x.name for x in state]))
            else:
                self.error("E262", f"event '{ev}' has no state; declare it as 'event {ev}(...) "
                           f"with {e.name}: type = default'", sc.path, e.at)
            return "any"
        if sc.no_evstate is not None:
            why = sc.no_evstate.replace("EV.FIELD", f"{ev}.{f.name}")
            self.error("E263", f"{ev}.{f.name} cannot be used here: {why}", sc.path, e.at)
        else:
            self.ev_uses.append((sc.fn, ev, f.name, write, sc.path, e.at))
        self.res[id(e)] = ("evstate", ev, f.name)
        return T.from_ast(f.type)

    def _check_ev_uses(self) -> None:
        """Event state used where no instance of its event can be running is surely wrong:
        the function using it is not among those that may run inside the event (its
        triggers, and what they emit, enqueue, call or run, transitively)."""
        inside: dict[str, set[str]] = {}
        for fn, ev, field, write, path, at in self.ev_uses:
            if ev not in inside:
                inside[ev] = self._runs_inside(ev)
            if fn not in inside[ev]:
                self.error("E261", f"{ev}.{field} is {'written' if write else 'read'} where no "
                           f"{ev} can be running: {self._describe_fn(fn)} never runs inside "
                           f"'{ev}' (no rule of '{ev}' emits, enqueues, calls or runs it)",
                           path, at)

    def _runs_inside(self, ev: str) -> set[str]:
        """Every function that may run while an instance of `ev` runs. Values count from
        the start: a host may read one at any decision (a bot's heuristic), mid-event."""
        handlers: dict[str, list[str]] = {}
        for tr in self.model.triggers:
            handlers.setdefault(tr.decl.event, []).append(tr.fn)
        effects: dict[str, list[str]] = {}
        for eff in self.model.effects:
            effects.setdefault(eff.field, []).append(eff.fn)
        todo = list(handlers.get(ev, ())) + [f"value:{name}" for name in self.model.values]
        seen = set(todo)
        while todo:
            fn = todo.pop()
            nxt = set(self.calls.get(fn, ())) | self.uses.get(fn, set())
            for emitted in self.emits.get(fn, ()):
                nxt.update(handlers.get(emitted.removeprefix("enqueue:"), ()))
            for field in self.runs_effect.get(fn, ()):
                nxt.update(effects.get(field, ()))
            todo.extend(nxt - seen)
            seen |= nxt
        return seen

    def _describe_fn(self, fn: str) -> str:
        """The rule compiled to function `fn`, as a message names it."""
        for tr in self.model.triggers:
            if tr.fn == fn:
                d = tr.decl
                return f"trigger '{'instead of' if d.kind == 'instead' else d.kind} {d.event}'"
        for eff in self.model.effects:
            if eff.fn == fn:
                return f"the {eff.field} of {eff.record}"
        if fn.startswith("p_"):
            return f"procedure '{fn[2:]}'"
        kind, _, name = fn.partition(":")
        return {"value": f"value '{name}'", "var": f"the default of var '{name}'",
                "check": "a check"}.get(kind, fn)
