"""What the compile of one pack knows and has made so far: the pack and its check, the
decisions of the optimisation passes, the generated lines, where each generated function's
rule was written, and the names generated code reads the state's tables by."""
from __future__ import annotations

import os
from typing import Any

from engine.dsl import ast as A
from engine.dsl.check import CheckResult
from engine.dsl.compile.syntax import call_arguments
from engine.dsl.model import PackModel


class CompileUnit:
    """The state of one pack's compile, which the compilers below build on."""

    def __init__(self, model: PackModel, checked: CheckResult, optimize: bool = True):
        self.model = model
        self.checked = checked
        # False: every expression as one Python expression, every value call a call that
        # costs a step, no kept values, no index: the plain reading the optimizations must
        # agree with (tests/test_lang_speed.py plays games both ways)
        self.optimize = optimize
        self.out: list[str] = []
        self.uid = 0
        self.temps = 0  # temporaries of `lowered` (their own count: `uid` names saved data)
        self.pure_values: set[str] = set()  # values that only read (engine.dsl.compile.purity)
        self.hoisted: dict[int, str] = {}  # value calls read once per walk: node -> temporary
        # vars whose table a walk read into a temporary before its loop: var -> temporary
        self.var_tables: dict[str, str] = {}
        self.recursive_values: set[str] = set()  # values that may call themselves again
        self.inlined_values: set[str] = set()  # values whose formula replaces their calls
        self.unfolded_values: set[str] = set()  # values written out in place, as statements
        self.extra: list[str] = []  # helper functions made while compiling (require, while)
        # Where each generated function's rule was written: SITES maps the function to an
        # index into FILES (paths relative to the pack, as repr literals), and statements
        # carry `# @L<line>` comments (digits only), so a run-time fault can name the rule:
        # see engine.core.runtime.rule_location. Comments cost nothing at run time.
        self.path = ""
        self.files: list[str] = []
        self.sites: list[tuple[str, int, int]] = []  # (function, file index, line)
        self.check_items: list[tuple[int, str, str | None]] = []  # (check, function, field)
        self.field_bound_fns: set[str] = set()  # `fbounds_...` functions made so far
        self.static_values: set[str] = set()  # values worked out once per arguments
        self.run_memo_values: set[str] = set()  # values kept while the state is unchanged
        self.memos: list[str] = []  # their caches: module globals M_<value>
        # Static fields read through a table of their own, RF_<field>: record -> value (one
        # lookup, not two), and zones of one parameter keyed through ZK_<zone>: value -> the
        # zone's key (made once, not joined at each read); the loader fills both
        # (RECORD_FIELDS, ZONE_KEYS); see engine.dsl.compile.tables
        self.field_tables: set[str] = set()
        self.zone_key_tables: set[str] = set()
        # Records whose fields live in the game state (`G.f`): var fields, created types.
        # A pack without them compiles exactly as before.
        self.state_types = {t for t, info in model.types.items() if info.in_state}
        self.created = {t for t, info in model.types.items() if info.created}
        self.state_fields = {f.name for t in self.state_types
                             for f in model.types[t].fields.values()
                             if f.var or t in self.created}

    def site(self, fn: str, line: int = 0) -> None:
        """Record that generated function `fn` comes from the current rule file."""
        # relative: the generated code is cached by content, wherever the pack lies
        model = self.model
        rel = os.path.relpath(self.path, model.root) if model.root and self.path else self.path
        if rel not in self.files:
            self.files.append(rel)
        self.sites.append((fn, self.files.index(rel), line))

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def fresh(self, stem: str) -> str:
        self.uid += 1
        return f"{stem}{self.uid}"

    def args_of(self, node: A.Call | A.Emit | A.Modify) -> tuple[Any, ...]:
        """A call's arguments in parameter order, keyword ones and defaults included."""
        return call_arguments(self.checked, node)

    def has_state(self, event: str) -> bool:
        ev = self.model.events.get(event)
        return ev is not None and bool(ev.state)

    def vars_table(self, name: str) -> str:
        """Where generated code reads var `name`: a public var without the undo watchers
        (PV), any other through them (V)."""
        return "PV" if self.model.vars[name].visibility == "public" else "V"

    def var_table(self, name: str) -> str:
        """Code for var `name`'s table of values: the temporary a walk read it into before
        its loop (engine.dsl.compile.hoist), else read where it is used."""
        return self.var_tables.get(name) or f"{self.vars_table(name)}[{name!r}]"

    def zones_table(self, name: str) -> str:
        """Where generated code reads zone `name`: a public one without the undo watchers
        (PZ), a hidden or private one through them (Z)."""
        flags = self.model.zones[name].flags
        return "Z" if "hidden" in flags or "private" in flags else "PZ"
