"""`Checker`, the whole check of a pack in its order, and `check`, its entry point."""
from __future__ import annotations

from engine.dsl.check.declarations import DeclarationChecker
from engine.dsl.check.result import CheckResult
from engine.dsl.check.rules import RuleChecker
from engine.dsl.check.suspension import SuspensionChecker
from engine.dsl.errors import Diagnostic
from engine.dsl.model import PackModel
from engine.dsl.parser import BROKEN_SETUP


class Checker(RuleChecker, DeclarationChecker, SuspensionChecker):
    """Name resolution, types and arity of every rule before anything runs: the concepts'
    checkers composed, run over the pack in a fixed order (diagnostics come in it)."""

    def run(self) -> CheckResult:
        """Every check, in the order the diagnostics come in; the annotations."""
        model = self.model
        for name, enum in model.enums.items():
            self._check_enum(enum, model.decl_paths[name])
        for name in model.consts:
            self._const_type(name)
        for name, var in model.vars.items():
            self._check_var(name, var)
        for info in model.types.values():
            self._check_fields(info)
        for name, zone in model.zones.items():
            self._check_zone(name, zone)
        for name, event in model.events.items():
            self._check_event(name, event)
        for name, graph in model.graphs.items():
            self._check_graph(graph, model.decl_paths[name])
        for window in model.windows.values():  # before any rule that opens one reads its type
            self._window(window)
        for name, value in model.values.items():
            self._check_value(name, value)
        for name, proc in model.procs.items():
            self._procedure(name, proc)
        for trigger in model.triggers:
            self._trigger(trigger)
        for effect in model.effects:
            self._effect(effect)
        for decl, path in model.checks:
            self._pack_check(decl, path)
        self._check_setup_handler()
        self._check_constants()
        const_order = self._const_order()
        fns, evs = self._suspension()
        self._check_suspending_calls(fns)
        self._check_determinize(fns)
        self._check_ev_uses()
        return CheckResult(self.types, self.res, fns, evs, self.diags, modified=self.modified,
                           bound=self.bound, const_order=const_order,
                           not_read=self.not_read)

    def _check_setup_handler(self) -> None:
        """A playable pack starts its games with an `on setup:` trigger (E250)."""
        model = self.model
        if (model.playable and BROKEN_SETUP not in model.poisoned
                and "setup" not in {t.decl.event for t in model.triggers if t.decl.kind == "on"}):
            self.diags.append(Diagnostic("E250", "the pack has no 'on setup:' handler, so a game "
                                         "cannot start", self._any_rules_path(), 1, 1))

    def _any_rules_path(self) -> str:
        return next(iter(self.model.decl_paths.values()), f"{self.model.id}/pack.yaml")


def check(model: PackModel, sources: dict[str, str]) -> CheckResult:
    """Check the pack `model` (its rules files' text in `sources`, by path)."""
    return Checker(model, sources).run()
