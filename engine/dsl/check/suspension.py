"""Which code may suspend for a player's decision, so that the compiler can turn everything
else into plain Python calls; and what must not suspend (E233, E345).
"""
from __future__ import annotations

from engine.dsl import types as T
from engine.dsl.check.state import CheckerState, show_params


class SuspensionChecker(CheckerState):
    """The suspension analysis over the call graph gathered while checking."""

    def _suspension(self) -> tuple[set[str], set[str]]:
        """(the functions that may suspend, the events whose handling may): those that ask
        a player, and, to a fixed point, what calls, emits, enqueues or runs one of them."""
        m = self.model
        handlers: dict[str, list[str]] = {}
        for tr in m.triggers:
            handlers.setdefault(tr.decl.event, []).append(tr.fn)
        effects: dict[str, list[str]] = {}
        for eff in m.effects:
            effects.setdefault(eff.field, []).append(eff.fn)
        fns = set(self.direct_suspend)
        evs: set[str] = set()
        changed = True
        while changed:
            changed = False
            for ev, hs in handlers.items():
                if ev not in evs and any(h in fns for h in hs):
                    evs.add(ev)
                    changed = True
            for fn in self.calls:
                if fn in fns:
                    continue
                emits = self.emits.get(fn, set())
                if (any(c in fns for c in self.calls[fn])
                        or any(e.removeprefix("enqueue:") in evs for e in emits)
                        or any(x in fns for f in self.runs_effect.get(fn, ())
                               for x in effects.get(f, ()))):
                    fns.add(fn)
                    changed = True
        return fns, evs

    def _check_determinize(self, suspending: set[str]) -> None:
        """pack.yaml `determinize: NAME` (engine.core.determinize): a procedure of the pack taking
        the imagining side alone, `procedure NAME(s: side)`, that never asks a player: it
        runs on a bot's copy of the game, outside any turn (E345)."""
        if self.model.determinize is None:
            return
        name, site = self.model.determinize
        proc = self.model.procs.get(name)
        if proc is None:
            self._unknown("E345", "procedure", name, self.model.procs, site.path, site,
                          " in 'determinize'")
            return
        params = proc.params
        if len(params) != 1 or T.from_ast(params[0].type) != "side":
            self.error("E345", f"determinize: procedure '{name}({show_params(params)})' must "
                       f"take the imagining side alone: procedure {name}(s: side)", site.path,
                       site)
        elif f"p_{name}" in suspending:
            self.error("E345", f"determinize: procedure '{name}' may ask a player; it runs on a "
                       "bot's imagined copy, outside any turn, so it may only set and move "
                       "(random_pick for a choice)", site.path, site)

    def _check_suspending_calls(self, suspending: set[str]) -> None:
        """A procedure that may ask a player is called on its own (E233): the compiler
        resumes it as a statement or a `let`, never inside an expression."""
        for call, path, statement in self.proc_calls:
            if not statement and f"p_{call.func}" in suspending:
                self.error("E233", f"procedure '{call.func}' may ask a player, so it must be "
                           f"called on its own: 'let x = {call.func}(...)' or a statement", path,
                           call.at)
