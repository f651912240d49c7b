"""Code generation: the Python module of a checked pack. One function per procedure,
trigger (and its condition), effect, window, value, const, check, graph filter, var default
and bounds, event state and record type in play; code that may wait for a player as a
resumable state machine (engine.dsl.compile.machine), any other as a plain function with
Python locals; then the tables the loader reads (PROCS, FUNCS, TRIGGERS, VALUES, SITES, ...).

Nothing a pack contains reaches the generated source as code or comment text: names are
identifiers the grammar and the record-id rule allow, every string is a `repr` literal,
and where a rule was written is a table (`SITES`, `FILES`), not a comment. Loops, `repeat`
and comprehensions charge the runtime's step budget (`G.loop`, `G.walk` or its inline form,
`G.having`, `G.count`, the calls of procedures and of values that may recurse), so a runaway
rule ends as a located fault instead of running forever.

For speed (the same reads, results and faults; fewer steps at most, checked by
tests/test_lang_speed.py against `optimize=False`), the optimisation passes of the modules
beside this one decide what is written: loops, hoist, inline, static, memo, recursion,
index, tables, uncharged, visibility and compare."""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl.check import CheckResult
from engine.dsl.compile.context import Context
from engine.dsl.compile.inline import inlined_and_unfolded
from engine.dsl.compile.machine import ResumableFunction
from engine.dsl.compile.memo import repeated_calls, run_memo_values
from engine.dsl.compile.purity import pure_values
from engine.dsl.compile.python_text import PRELUDE, TICK, prelude, state_key
from engine.dsl.compile.recursion import recursive_values
from engine.dsl.compile.registry import registry, trigger_params
from engine.dsl.compile.statements import StatementCompiler
from engine.dsl.compile.static import static_values
from engine.dsl.compile.syntax import (
    declared_locals,
    every_comprehension,
    has_defaults,
    is_filter,
    tested_field,
)
from engine.dsl.model import PackModel, Trigger


class Compiler(StatementCompiler):
    """A checked pack into the source of its Python module."""

    def compile(self) -> str:
        model, out = self.model, self.out
        out.append(f"# generated from pack {model.id!r}; do not edit")
        out.append("from engine.core.rt import *  # noqa: F401,F403")
        out.append("")
        for name in self.checked.const_order:
            self.path = model.decl_paths[name]
            self._const(name, model.consts[name])
        bodies = {}  # each value's formula, compiled once: the purity analysis reads it
        for name, v in model.values.items():
            bodies[name] = self.expr(v.expr, Context(False, [p.name for p in v.params]))
        self._plan_values(bodies)
        for name, v in model.values.items():
            self.path = model.decl_paths[name]
            self._value(name, v)
        for name, var in model.vars.items():
            self._var_helpers(name, var)
        for name, graph in model.graphs.items():
            if graph.where is not None:
                self.path = model.decl_paths[name]
                self._graph_filter(name, graph.where)
        for name, ev in model.events.items():
            if ev.state:
                self.path = model.decl_paths[name]
                self._event_state(name, ev)
        for name in model.types:
            if name in self.state_types:
                self._field_helpers(name)
        for name, proc in model.procs.items():
            self.path = model.decl_paths[name]
            self._function(f"p_{name}", [x.name for x in proc.params], proc.body)
        for window in model.windows.values():
            self.path = window.path
            self._function(window.fn, [x.name for x in window.decl.params], window.body)
        for trigger in model.triggers:
            self._trigger(trigger)
        for eff in model.effects:
            self.path = eff.site.path
            self._function(eff.fn, ["self"], eff.body)
        for i, (decl, path) in enumerate(model.checks):
            self.path = path
            self.site(f"check_{i}", decl.at.line)
            out.append(f"def check_{i}(G):")
            out.append(PRELUDE)
            out.append(f"    return {self.expr(decl.expr, Context(False))}  # @L{decl.at.line}")
            out.append("")
            self._check_items(i, decl)
        out.extend(self.extra)
        out.extend(registry(self))
        return "\n".join(out) + "\n"

    def _plan_values(self, bodies: dict[str, str]) -> None:
        """What the value passes decide, from each value's compiled formula (`bodies`)."""
        model = self.model
        self.static_values = static_values(bodies, self.checked.modified)
        self.pure_values = pure_values(bodies)
        self.recursive_values = recursive_values(bodies) if self.optimize else set(bodies)
        wanted = repeated_calls(model) | {n for n, v in model.values.items() if not v.params}
        self.run_memo_values = run_memo_values(
            bodies, self.pure_values, self.static_values,
            wanted if self.optimize else set()) - {
            name for name, v in model.values.items()
            if any(isinstance(p.type, A.TList) for p in v.params)}
        self.inlined_values, self.unfolded_values = inlined_and_unfolded(
            model, self.checked, bodies, self.optimize, self.pure_values,
            self.recursive_values, self.run_memo_values, self.static_values)

    def _trigger(self, trigger: Trigger) -> None:
        decl = trigger.decl
        params = trigger_params(self.model, trigger)
        self.path = trigger.path
        self._function(trigger.fn, params, decl.body)
        if decl.cond is not None:
            ctx = Context(False, params)
            self.site(f"c_{trigger.fn}", decl.at.line)
            self.out.append(f"def c_{trigger.fn}(G, {', '.join('l_' + p for p in params)}):")
            self.out.append(PRELUDE)
            self.out.append(f"    return {self.expr(decl.cond, ctx)}  # @L{decl.at.line}")
            self.out.append("")

    def _check_items(self, i: int, decl: A.CheckDecl) -> None:
        """For a check of the form `every(<test> for x in <records>)`, a function listing
        the x that fail the test, so validate can point at those records' own lines."""
        comp = every_comprehension(decl.expr)
        if comp is None or decl.invariant:  # invariants are checked in play, not validate
            return
        # as `every` compiles it: the filter form tests its condition, the other its value
        # for the items its condition lets through
        test = comp.cond if is_filter(comp) and comp.cond is not None else comp.expr
        inner = Context(False, [comp.var])
        failing = f"not ({self.expr(test, inner)})"
        if not is_filter(comp) and comp.cond is not None:
            failing = f"({self.expr(comp.cond, inner)}) and {failing}"
        fn = f"check_{i}_failing"
        self.site(fn, decl.at.line)
        self.out += [f"def {fn}(G):", PRELUDE,
                     f"    return [l_{comp.var} for l_{comp.var} in "
                     f"G.loop({self.expr(comp.source, Context(False))}) "
                     f"if {failing}]  # @L{decl.at.line}", ""]
        self.check_items.append((i, fn, tested_field(test, comp.var)))

    def _const(self, name: str, decl: A.ConstDecl) -> None:
        self.site(f"k_{name}", decl.at.line)
        self.out += [f"def k_{name}(G):", PRELUDE,
                     f"    return {self.value(decl.expr, Context(False))}  # @L{decl.at.line}",
                     ""]

    def _value(self, name: str, v: A.ValueDecl) -> None:
        if has_defaults(v.params):  # for engine.core.loader.call_value: the defaults by name
            self.site(f"dv_{name}", v.at.line)
            given = ", ".join(f"{p.name!r}: {self.expr(p.default, Context(False))}"
                              for p in v.params if p.default is not None)
            self.out += [f"def dv_{name}(G):", PRELUDE,
                         f"    return {{{given}}}", ""]
        params = [p.name for p in v.params]
        key = state_key([f"str(l_{p})" for p in params])
        self.site(f"v_{name}", v.at.line)
        self.out.append(f"def v_{name}(G{''.join(', l_' + p for p in params)}):")
        # the formula, its walks written as loops (`lowered`): the same reads and steps
        lines: list[str] = []
        self.temps = 0  # (see `_function`)
        body = self.lowered(v.expr, Context(False, params), lines, "    ")
        if name in self.static_values and not any(isinstance(p.type, A.TList)
                                                  for p in v.params):
            # A static value (engine.dsl.compile.static): worked out once per arguments and
            # kept in the pack's module (M_<name>: arguments -> (result, steps)), never in
            # the game state. A hit charges the steps the working out took, so the step count
            # a game keeps (state "steps", checked when a save is replayed) is the same
            # whether the cache was warm or cold. A list argument is no key (unhashable):
            # such a value is worked out every time.
            memo = f"M_{name}"
            memo_key = (f"l_{params[0]}" if len(params) == 1
                        else "(" + "".join(f"l_{p}, " for p in params) + ")")
            self.memos.append(memo)
            self.out += [
                f"    got = {memo}.get({memo_key})",
                "    if got is not None: return G.kept(got)",
                *prelude(lines, body),
                "    left = G.left",
                *self._value_tick(name),
                *lines,
                f"    got = {body}  # @L{v.at.line}",
                f"    {memo}[{memo_key}] = (got, left - G.left)",
                "    return got",
                "",
            ]
            return
        kept = name in self.run_memo_values
        if kept:
            # A value kept while the game state is unchanged (engine.dsl.compile.memo)
            memo_key = "(" + ", ".join([repr(name)] + [f"l_{p}" for p in params]) + \
                ("," if not params else "") + ")"
            self.out += [
                "    memo = G.memo",
                "    if memo is not None:",
                f"        got = memo.get({memo_key})",
                "        if got is not None: return G.kept(got)",
                "        left = G.left",
            ]
        self.out += [*prelude(lines, body), *self._value_tick(name), *lines]
        if name not in self.checked.modified:  # no rule modifies it: nothing to look up
            result = body
        else:
            # an int adds, clamps and overrides; any other type can only be overridden (`to`)
            is_int = isinstance(v.type, A.TName) and v.type.name == "int"
            self.out.append(f"    base = {body}  # @L{v.at.line}")
            result = (f"G.{'modint' if is_int else 'modto'}({name!r}, {key}, base) "
                      "if G.mods else base")
        if not kept:
            self.out += [f"    return {result}  # @L{v.at.line}", ""]
            return
        self.out += [f"    got = {result}  # @L{v.at.line}",
                     "    if memo is not None:",
                     f"        memo[{memo_key}] = (got, left - G.left)",
                     "    return got", ""]

    def _value_tick(self, name: str) -> tuple[str, ...]:
        """The step a value's call is charged (engine.dsl.compile.recursion)."""
        return TICK if name in self.recursive_values else ()

    def _graph_filter(self, name: str, lam: A.Lambda) -> None:
        """`gf_<graph>(G, edge)`: does the filtered graph keep this edge? (run at load)"""
        self.site(f"gf_{name}", lam.at.line)
        self.out += [f"def gf_{name}(G, l_{lam.param}):", PRELUDE,
                     f"    return {self.expr(lam.body, Context(False, [lam.param]))}  "
                     f"# @L{lam.at.line}", ""]

    def _var_helpers(self, name: str, v: A.VarDecl) -> None:
        params = [p.name for p in v.params]
        ctx = Context(False, params)
        default = self.expr(v.default, ctx) if v.default is not None else "None"
        if v.default is None and isinstance(v.type, A.TList):
            default = "[]"
        if v.default is None and isinstance(v.type, A.TName) and v.type.name == "int":
            default = "0"
        if v.default is None and isinstance(v.type, A.TName) and v.type.name == "bool":
            default = "False"
        self.out += [f"def default_{name}(G{''.join(', l_' + p for p in params)}):",
                     PRELUDE, f"    return {default}", ""]
        if v.bounds:
            low, high = (self.expr(b, Context(False)) for b in v.bounds)
            self.out += [f"def bounds_{name}(G):", PRELUDE,
                         f"    return ({low}, {high})", ""]

    def _event_state(self, name: str, ev: A.EventDecl) -> None:
        """The state a new instance of `ev` starts with, from its arguments: plain data."""
        params = [p.name for p in ev.params]
        ctx = Context(False, params)
        items = []
        for field in ev.state:
            if field.default is not None:
                default = self.value(field.default, ctx)
            elif isinstance(field.type, A.TList):
                default = "[]"
            elif isinstance(field.type, A.TName) and field.type.name in ("int", "bool"):
                default = "0" if field.type.name == "int" else "False"  # as a var's
            else:
                default = "None"
            items.append(f"{field.name!r}: {default}")
        self.site(f"xstate_{name}", ev.at.line)
        self.out += [f"def xstate_{name}(G{''.join(', l_' + p for p in params)}):",
                     PRELUDE,
                     f"    return {{{', '.join(items)}}}  # @L{ev.at.line}", ""]

    def _field_helpers(self, type_name: str) -> None:
        """`init_T(G, self, given)` fills the state fields of a new record of type T in
        declaration order: a created record's fields from `given` (the `create ... with`
        values) or their defaults; a pack record's var fields from its YAML (`given` is its
        data) or their defaults. Bounded fields get `fbounds_T_f(G, self)`."""
        info = self.model.types[type_name]
        self.path = info.site.path
        fn = f"init_{type_name}"
        self.site(fn, info.site.line)
        ctx = Context(False, ["self"])
        lines = [f"def {fn}(G, l_self, given):", PRELUDE,
                 "    F = G.s['f'][l_self]"]
        for field in info.fields.values():
            if not (field.var or info.created):
                continue
            decl = field.decl
            if field.var and decl is not None and decl.default is not None:
                default = self.expr(decl.default, ctx)
            elif not field.var and field.default is not None:
                default = repr(field.default)
            else:
                default = {"int": "0", "bool": "False"}.get(field.type, "None") \
                    if isinstance(field.type, str) else "[]"
            given = f"given[{field.name!r}]"
            if isinstance(field.type, tuple):  # a list from YAML is the pack's: copied
                given = f"list({given} or ())"
            value = f"{given} if {field.name!r} in given else {default}"
            if decl is not None and decl.bounds is not None:
                bounds_fn = self.field_bounds(type_name, field.name, decl.bounds)
                value = f"G.bound({bounds_fn}(G, l_self), {value})"
            line = decl.at.line if decl is not None else info.site.line
            lines.append(f"    F[{field.name!r}] = {value}  # @L{line}")
        self.out += lines + [""]

    def _function(self, fn: str, params: list[str], body: tuple[A.Stmt, ...]) -> None:
        # temporaries are the function's own locals: numbered afresh, so that copies of one
        # rule (an effect that several records share) compile to the same text
        self.temps = 0
        if fn in self.checked.suspending_fns:
            ResumableFunction(self, fn, params).build(body)
        else:
            # every local of the function: a walk written as a loop must not overwrite one
            ctx = Context(False, [*params, *declared_locals(body)])
            self.site(fn, body[0].at.line if body else 0)
            self.out.append(f"def {fn}(G{''.join(', l_' + p for p in params)}):")
            lines: list[str] = []
            self.stmts(body, ctx, lines, 1, loops=0)
            self.out += [*prelude(lines, ""), *TICK, *lines, ""]


def compile_pack(model: PackModel, check: CheckResult, optimize: bool = True) -> str:
    """The Python source of a checked pack (`optimize=False`: the plain reading that the
    optimisation passes must agree with)."""
    return Compiler(model, check, optimize).compile()
