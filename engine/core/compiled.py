"""`CompiledPack`: a pack as engine.core.loader.load_pack gives it. Its parts are a
`PackData` (engine.core.packdata); what it adds runs the pack: a new game, its values and
checks evaluated on the state before setup (`static_runtime`), with the checks of a value's
arguments."""
from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from engine.core.errors import EngineFault
from engine.core.packdata import PackData
from engine.core.values import value_call

if TYPE_CHECKING:  # (imported where used: finding and building packs runs no game)
    from engine.core.api import BoardMap
    from engine.core.game import Game
    from engine.core.limits import Limits
    from engine.core.runtime import Runtime


class CompiledPack(PackData):
    """A compiled pack that starts games and runs its values and checks (see the module's
    docstring); annotate with PackData what only reads a pack."""

    __slots__ = ()

    # ---- the board ------------------------------------------------------------------------------
    def board_map(self, lang: str | None = None) -> BoardMap | None:
        """The map's geometry for a front-end to draw (`BoardMap`): every place with its name
        in `lang`, its position [x, y] on the 1000 x 1000 canvas and its group, the
        connections with their kinds, the off-map boxes (pack.yaml `board: map:`); the
        same in every game of the pack. None for a pack without a map."""
        from engine.core.boardmap import board_map
        return board_map(self, lang)

    # ---- games ------------------------------------------------------------------------------
    def new_game(self, seed: int = 0, *, log: bool = True, undo: bool = True,
                 limits: Limits | None = None) -> Game:
        """A new game, run up to its first decision; `NotPlayable` for a data pack.
        `limits` overrides the pack's step budget and size caps for this game."""
        return _game_class().new(self, seed, log=log, undo=undo, limits=limits)

    # ---- the pre-setup state: checks and values --------------------------------------------
    def static_runtime(self) -> Runtime:
        """A runtime on the state before `setup` runs: every zone empty, every var at its
        default, no modifiers. Checks and `call_value` evaluate against it."""
        from engine.core.runtime import Runtime
        rt = Runtime(self, Runtime.initial_state(self, 0), log=False)
        for key in self.zone_keys:
            rt.z[key] = []
        for name, combos in self.var_keys.items():
            fn = self.ns["DEFAULTS"][name]
            rt.v[name] = {key: fn(rt, *args) for key, args in combos}
        rt.init_fields()
        return rt

    def call_value(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """Evaluate the pack's `value` declaration `name` with `args` on the pre-setup state
        (see `static_runtime`): tables and formulas of a data pack, worked examples in tests.
        Records and sides are passed by id; arguments may be given by name, and parameters
        with a default may be left out. An unknown name raises KeyError, a wrong number
        of arguments or an argument of the wrong kind TypeError, a rule that fails
        EngineFault."""
        rt = self.static_runtime()
        fn, args = value_call(self, rt, name, args, kwargs)
        try:
            return fn(rt, *args)
        except Exception as err:
            from engine.core.runtime import broke
            raise EngineFault(f"value {name}({', '.join(map(repr, args))}) failed: "
                              f"{broke(err)}", self.id, self.hash) from err

    def run_checks(self) -> list[tuple[str, Any, str, int]]:
        """Evaluate the pack's `check` declarations; returns the failing ones."""
        from engine.core.runtime import broke
        rt = self.static_runtime()
        failed: list[tuple[str, Any, str, int]] = []
        for (decl, path), fn in zip(self.model.checks, self.ns["CHECKS"]):
            if decl.invariant:
                continue  # invariants hold during play; tests and simulate check them
            rt.left = self.limits.steps  # each check has the whole budget
            try:
                ok = fn(rt)
            except Exception as err:  # a check that crashes is a failed check, located
                ok = broke(err)
            if ok is not True and not (ok and not isinstance(ok, str)):
                failed.append((decl.message, ok, path, decl.at.line))
        return failed

    def failing_records(self, check_index: int) -> list[tuple[str, str | None]]:
        """For a failed check of the form `every(test for x in records)`: (record id, the
        field the test reads) of each record that fails it, so validate can point at the
        record's own line; [] for other checks."""
        entry = self.ns["CHECK_ITEMS"].get(check_index)
        if entry is None:
            return []
        fn, field = entry
        try:
            items = self.static_runtime().call_rule(fn)
        except Exception:  # the check itself already reports the failure
            return []
        return [(x, field) for x in items if isinstance(x, str) and x in self.records]


@functools.cache
def _game_class() -> type[Game]:
    """engine.core.game.Game, imported when first asked for (building a pack needs none of
    the game's modules), and then without the cost of an import statement at each
    `new_game` call."""
    from engine.core.game import Game
    return Game
