"""Checked rules into Python source: one function per procedure, trigger, effect and value.

Code that can never wait for a player compiles to a plain function with Python locals.
Code that may wait (a choice, or a call of something that chooses) compiles to a resumable
state machine, the way compilers lower async functions: its locals live in the frame's `L`
dict and its resume point in `F["pc"]`, so a suspended game is plain data. Such a function
returns DONE (0), SUSPEND (1) or PUSHED (2) to the engine's run loop.

Nothing a pack contains reaches the generated source as code or comment text: names are
identifiers the grammar and the record-id rule allow, every string is a `repr` literal,
and where a rule was written is a table (`SITES`, `FILES`), not a comment. Loops, `repeat`
and comprehensions charge the runtime's step budget (`G.loop`, `G.walk` or its inline form,
`G.having`, `G.count`, the calls of procedures and of values that may recurse), so a runaway
rule ends as a located fault instead of running forever.

For speed (the same reads, results and faults; fewer steps at most, checked by
tests/test_lang_speed.py against `optimize=False`): walks in formulas and statements are
written as loops (`lowered`), and so are the options of `choose ... where`; small values
are written in place of their calls (`inlined_values`, `unfolded_values`), a value call
that does not depend on a walk is read once per walk (`_hoist`), and so is the table of
a var it reads (`_hoist_var_tables`); some values are kept while the state is unchanged
(`run_memo_values`, engine.core.runtime Runtime.memo); walks of a type's records filtered by
a var field use an index (`_walk_code`, Runtime.having); a walk of the pack's own data
is not copied, nor charged when short with no walk inside (`_static_length`); and a field
of the pack's records, and the key of a zone of one parameter whose values are known at
load, are read through a table made when the pack loads (`field_tables`: RF_<field>,
ZK_<zone>), one dict lookup instead of two or of joining text.
"""
from __future__ import annotations

import ast as pyast
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine.dsl import ast as A
from engine.dsl.checker import CheckResult, graph_slots
from engine.dsl.model import PackModel
from engine.dsl.parser import numbered_template, split_template
from engine.dsl.types import elem, from_ast

DONE, SUSPEND, PUSHED = 0, 1, 2


def _q(v: Any) -> str:
    return repr(v)


class _Ctx:
    """What the expression compiler needs to know about where it is."""

    def __init__(self, susp: bool, pylocals: Iterable[str] = (),
                 names: dict[str, str] | None = None):
        self.susp = susp
        self.pylocals = set(pylocals)
        self.names = names or {}  # an inlined value's parameters -> the code of its arguments

    def inner(self, name: str) -> _Ctx:
        """The context inside a comprehension or lambda that binds `name`."""
        names = {k: v for k, v in self.names.items() if k != name}
        return _Ctx(self.susp, self.pylocals | {name}, names)

    def local(self, name: str) -> str:
        if name in self.names:
            return self.names[name]
        if not self.susp or name in self.pylocals:
            return f"l_{name}"
        return f"L[{name!r}]"


class Compiler:
    def __init__(self, model: PackModel, check: CheckResult, optimize: bool = True):
        self.m = model
        self.c = check
        # False: every expression as one Python expression, every value call a call that
        # costs a step, no kept values, no index: the plain reading the optimizations must
        # agree with (tests/test_lang_speed.py plays games both ways)
        self.optimize = optimize
        self.out: list[str] = []
        self.uid = 0
        self.temps = 0  # temporaries of `lowered` (their own count: `uid` names saved data)
        self.pure_values: set[str] = set()  # values that only read (see `pure_values`)
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
        # (RECORD_FIELDS, ZONE_KEYS)
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
        rel = os.path.relpath(self.path, self.m.root) if self.m.root and self.path else self.path
        if rel not in self.files:
            self.files.append(rel)
        self.sites.append((fn, self.files.index(rel), line))

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    def fresh(self, stem: str) -> str:
        self.uid += 1
        return f"{stem}{self.uid}"

    # ---- module -------------------------------------------------------------------------
    def compile(self) -> str:
        m, out = self.m, self.out
        out.append(f"# generated from pack {m.id!r}; do not edit")
        out.append("from engine.core.rt import *  # noqa: F401,F403")
        out.append("")
        for name in self.c.const_order:
            self.path = m.decl_paths[name]
            self._const(name, m.consts[name])
        bodies = {}  # each value's formula, compiled once: the purity analysis reads it
        for name, v in m.values.items():
            bodies[name] = self.expr(v.expr, _Ctx(False, [p.name for p in v.params]))
        self.static_values = static_values(bodies, self.c.modified)
        self.pure_values = pure_values(bodies)
        self.recursive_values = recursive_values(bodies) if self.optimize else set(bodies)
        wanted = repeated_calls(m) | {n for n, v in m.values.items() if not v.params}
        self.run_memo_values = run_memo_values(bodies, self.pure_values, self.static_values,
                                               wanted if self.optimize else set()) - {
            name for name, v in m.values.items() if any(isinstance(p.type, A.TList)
                                                        for p in v.params)}
        candidates = {name for name, v in m.values.items()
                      if self.optimize and name in self.pure_values
                      and name not in self.recursive_values and name not in self.c.modified
                      and name not in self.run_memo_values
                      and len(bodies[name]) <= _MAX_INLINED}
        changed = True
        while changed:  # a formula calling only inlined values (with plain arguments) too
            changed = False
            for name in sorted(candidates - self.inlined_values):
                if self._inlinable(m.values[name].expr):
                    self.inlined_values.add(name)
                    changed = True
        # small values that walk: written out where a value's formula calls them
        self.unfolded_values = {
            name for name in candidates - self.inlined_values
            if name not in self.static_values and len(bodies[name]) <= _MAX_UNFOLDED}
        for name, v in m.values.items():
            self.path = m.decl_paths[name]
            self._value(name, v, bodies[name])
        for name, v in m.vars.items():
            self._var_helpers(name, v)
        for name, g in m.graphs.items():
            if g.where is not None:
                self.path = m.decl_paths[name]
                self._graph_filter(name, g.where)
        for name, ev in m.events.items():
            if ev.state:
                self.path = m.decl_paths[name]
                self._event_state(name, ev)
        for name in m.types:
            if name in self.state_types:
                self._field_helpers(name)
        for name, p in m.procs.items():
            self.path = m.decl_paths[name]
            self._function(f"p_{name}", [x.name for x in p.params], p.body)
        for w in m.windows.values():
            self.path = w.path
            self._function(w.fn, [x.name for x in w.decl.params], w.body)
        for tr in m.triggers:
            d = tr.decl
            params = self._trigger_params(tr)
            self.path = tr.path
            self._function(tr.fn, params, d.body)
            if d.cond is not None:
                ctx = _Ctx(False, params)
                self.site(f"c_{tr.fn}", d.at.line)
                out.append(f"def c_{tr.fn}(G, {', '.join('l_' + p for p in params)}):")
                out.append(_PRE)
                out.append(f"    return {self.expr(d.cond, ctx)}  # @L{d.at.line}")
                out.append("")
        for eff in m.effects:
            self.path = eff.site.path
            self._function(eff.fn, ["self"], eff.body)
        for i, (decl, path) in enumerate(m.checks):
            self.path = path
            self.site(f"check_{i}", decl.at.line)
            out.append(f"def check_{i}(G):")
            out.append(_PRE)
            out.append(f"    return {self.expr(decl.expr, _Ctx(False))}  # @L{decl.at.line}")
            out.append("")
            self._check_items(i, decl)
        out.extend(self.extra)
        self._registry()
        return "\n".join(out) + "\n"

    def _check_items(self, i: int, decl: A.CheckDecl) -> None:
        """For a check of the form `every(<test> for x in <records>)`, a function listing
        the x that fail the test, so validate can point at those records' own lines."""
        comp = _every_comprehension(decl.expr)
        if comp is None or decl.invariant:  # invariants are checked in play, not validate
            return
        # as `every` compiles it: the filter form tests its condition, the other its value
        # for the items its condition lets through
        test = comp.cond if _is_filter(comp) else comp.expr
        inner = _Ctx(False, [comp.var])
        failing = f"not ({self.expr(test, inner)})"
        if not _is_filter(comp) and comp.cond is not None:
            failing = f"({self.expr(comp.cond, inner)}) and {failing}"
        fn = f"check_{i}_failing"
        self.site(fn, decl.at.line)
        self.out += [f"def {fn}(G):", _PRE,
                     f"    return [l_{comp.var} for l_{comp.var} in "
                     f"G.loop({self.expr(comp.source, _Ctx(False))}) "
                     f"if {failing}]  # @L{decl.at.line}", ""]
        self.check_items.append((i, fn, _tested_field(test, comp.var)))

    def _has_state(self, event: str) -> bool:
        ev = self.m.events.get(event)
        return ev is not None and bool(ev.state)

    def _trigger_params(self, tr) -> list[str]:
        d = tr.decl
        ev = self.m.events.get(d.event)
        names = list(d.names or ())
        params = [p.name for p in ev.params] if ev else []
        return [names[i] if i < len(names) else p for i, p in enumerate(params)]

    def _registry(self) -> None:
        m, c, out = self.m, self.c, self.out
        susp = c.suspending_fns
        out.append(f"FILES = {self.files!r}")
        out.append("SITES = {")
        for fn, file, line in self.sites:
            out.append(f"    {fn!r}: ({file}, {line}),")
        out.append("}")
        out.append("PROCS = {")
        for name in m.procs:
            out.append(f"    {name!r}: p_{name},")
        out.append("}")
        out.append("SUSPENDING = frozenset({" + ", ".join(repr(f) for f in sorted(susp)) + "})")
        out.append("SUSPENDING_EVENTS = frozenset({" +
                   ", ".join(repr(e) for e in sorted(c.suspending_events)) + "})")
        out.append("PARAMS = {")
        for name, p in m.procs.items():
            out.append(f"    'p_{name}': {[x.name for x in p.params]!r},")
        for tr in m.triggers:
            out.append(f"    {tr.fn!r}: {self._trigger_params(tr)!r},")
        for eff in m.effects:
            out.append(f"    {eff.fn!r}: ['self'],")
        for w in m.windows.values():
            out.append(f"    {w.fn!r}: {[x.name for x in w.decl.params]!r},")
        out.append("}")
        out.append("FUNCS = {name: globals()[name] for name in PARAMS}")
        out.append("TRIGGERS = {}")
        for tr in m.triggers:
            d = tr.decl
            cond = f"c_{tr.fn}" if d.cond is not None else "None"
            out.append(f"TRIGGERS.setdefault({d.event!r}, {{}}).setdefault({d.kind!r}, [])"
                       f".append(({tr.fn!r}, {tr.fn}, {cond}, {tr.fn in susp!r}))")
        out.append("EFFECTS = {")
        for eff in m.effects:
            out.append(f"    ({eff.record!r}, {eff.field!r}): ({eff.fn!r}, {eff.fn}, "
                       f"{eff.fn in susp!r}),")
        out.append("}")
        out.append("CHECKS = [" + ", ".join(f"check_{i}" for i in range(len(m.checks))) + "]")
        out.append("CHECK_ITEMS = {" + ", ".join(f"{i}: ({fn}, {field!r})"
                                                 for i, fn, field in self.check_items) + "}")
        out.append("VALUES = {" + ", ".join(f"{n!r}: v_{n}" for n in m.values) + "}")
        # static values and their caches, which live with the loaded pack (this module)
        out.append("STATIC_VALUES = frozenset({" + ", ".join(
            repr(n) for n in sorted(self.static_values)) + "})")
        for n in self.memos:
            out.append(f"{n} = {{}}")
        out.append("MEMOS = {" + ", ".join(f"{n[2:]!r}: {n}" for n in self.memos) + "}")
        out.append("GRAPH_FILTERS = {" + ", ".join(f"{n!r}: gf_{n}" for n, g in m.graphs.items()
                                                   if g.where is not None) + "}")
        # static tables the loader makes (see field_tables): RF_<field>, ZK_<zone>
        out.append(f"RECORD_FIELDS = {sorted(self.field_tables)!r}")
        out.append(f"ZONE_KEYS = {sorted(self.zone_key_tables)!r}")
        # evaluated in this order when the pack loads (engine.core.loader), each into K_<name>
        out.append("CONSTS = [" + ", ".join(f"({n!r}, k_{n})" for n in c.const_order) + "]")
        out.append("VALUE_DEFAULTS = {" + ", ".join(
            f"{n!r}: dv_{n}" for n, v in m.values.items() if _has_defaults(v.params)) + "}")
        out.append("BOUNDS = {" + ", ".join(f"{n!r}: bounds_{n}" for n, v in m.vars.items()
                                            if v.bounds) + "}")
        out.append("DEFAULTS = {" + ", ".join(f"{n!r}: default_{n}" for n in m.vars) + "}")
        out.append("EVSTATE = {" + ", ".join(f"{n!r}: xstate_{n}" for n, ev in m.events.items()
                                             if ev.state) + "}")
        out.append("INITS = {" + ", ".join(f"{t!r}: init_{t}" for t in m.types
                                           if t in self.state_types) + "}")

    def _const(self, name: str, d: A.ConstDecl) -> None:
        self.site(f"k_{name}", d.at.line)
        self.out += [f"def k_{name}(G):", _PRE,
                     f"    return {self.value(d.expr, _Ctx(False))}  # @L{d.at.line}", ""]

    def _value(self, name: str, v: A.ValueDecl, body: str) -> None:
        if _has_defaults(v.params):  # for engine.core.loader.call_value: the defaults by name
            self.site(f"dv_{name}", v.at.line)
            given = ", ".join(f"{p.name!r}: {self.expr(p.default, _Ctx(False))}"
                              for p in v.params if p.default is not None)
            self.out += [f"def dv_{name}(G):", _PRE,
                         f"    return {{{given}}}", ""]
        params = [p.name for p in v.params]
        key = self._key([f"str(l_{p})" for p in params])
        self.site(f"v_{name}", v.at.line)
        self.out.append(f"def v_{name}(G{''.join(', l_' + p for p in params)}):")
        # the formula, its walks written as loops (`lowered`): the same reads and steps
        lines: list[str] = []
        self.temps = 0  # (see `_function`)
        body = self.lowered(v.expr, _Ctx(False, params), lines, "    ")
        if name in self.static_values and not any(isinstance(p.type, A.TList)
                                                  for p in v.params):
            # A static value (see `static_values`): worked out once per arguments and kept
            # in the pack's module (M_<name>: arguments -> (result, steps)), never in the game
            # state. A hit charges the steps the working out took, so the step count a game
            # keeps (state "steps", checked when a save is replayed) is the same whether the
            # cache was warm or cold. A list argument is no key (unhashable): such a value is
            # worked out every time.
            memo = f"M_{name}"
            mkey = (f"l_{params[0]}" if len(params) == 1
                    else "(" + "".join(f"l_{p}, " for p in params) + ")")
            self.memos.append(memo)
            self.out += [
                f"    got = {memo}.get({mkey})",
                "    if got is not None: return G.kept(got)",
                *_prelude(lines, body),
                "    left = G.left",
                *self._value_tick(name),
                *lines,
                f"    got = {body}  # @L{v.at.line}",
                f"    {memo}[{mkey}] = (got, left - G.left)",
                "    return got",
                "",
            ]
            return
        memo = name in self.run_memo_values
        if memo:
            # A value kept while the game state is unchanged (see `run_memo_values`): the
            # runtime empties G.memo at every change of the state and keeps it only while
            # rules run (None otherwise). A hit charges the steps the working out took, so
            # the game's step count does not depend on what was kept.
            mkey = "(" + ", ".join([repr(name)] + [f"l_{p}" for p in params]) + \
                ("," if not params else "") + ")"
            self.out += [
                "    memo = G.memo",
                "    if memo is not None:",
                f"        got = memo.get({mkey})",
                "        if got is not None: return G.kept(got)",
                "        left = G.left",
            ]
        self.out += [*_prelude(lines, body), *self._value_tick(name), *lines]
        if name not in self.c.modified:  # no rule modifies it: nothing to look up
            result = body
        else:
            # an int adds, clamps and overrides; any other type can only be overridden (`to`)
            is_int = isinstance(v.type, A.TName) and v.type.name == "int"
            self.out.append(f"    base = {body}  # @L{v.at.line}")
            result = (f"G.{'modint' if is_int else 'modto'}({name!r}, {key}, base) "
                      "if G.mods else base")
        if not memo:
            self.out += [f"    return {result}  # @L{v.at.line}", ""]
            return
        self.out += [f"    got = {result}  # @L{v.at.line}",
                     "    if memo is not None:",
                     f"        memo[{mkey}] = (got, left - G.left)",
                     "    return got", ""]

    def _value_tick(self, name: str) -> tuple[str, ...]:
        """The step a value's call is charged: only a value that may call itself again
        (directly or through others) needs one, so that its recursion cannot run unbounded;
        any other call does bounded work, charged by the walks and calls inside it."""
        return _TICK if name in self.recursive_values else ()

    def _graph_filter(self, name: str, lam: A.Lambda) -> None:
        """`gf_<graph>(G, edge)`: does the filtered graph keep this edge? (run at load)"""
        self.site(f"gf_{name}", lam.at.line)
        self.out += [f"def gf_{name}(G, l_{lam.param}):", _PRE,
                     f"    return {self.expr(lam.body, _Ctx(False, [lam.param]))}  "
                     f"# @L{lam.at.line}", ""]

    def _var_helpers(self, name: str, v: A.VarDecl) -> None:
        params = [p.name for p in v.params]
        ctx = _Ctx(False, params)
        default = self.expr(v.default, ctx) if v.default is not None else "None"
        if v.default is None and isinstance(v.type, A.TList):
            default = "[]"
        if v.default is None and isinstance(v.type, A.TName) and v.type.name == "int":
            default = "0"
        if v.default is None and isinstance(v.type, A.TName) and v.type.name == "bool":
            default = "False"
        self.out += [f"def default_{name}(G{''.join(', l_' + p for p in params)}):",
                     _PRE, f"    return {default}", ""]
        if v.bounds:
            lo, hi = (self.expr(b, _Ctx(False)) for b in v.bounds)
            self.out += [f"def bounds_{name}(G):", _PRE,
                         f"    return ({lo}, {hi})", ""]

    def _event_state(self, name: str, ev: A.EventDecl) -> None:
        """The state a new instance of `ev` starts with, from its arguments: plain data."""
        params = [p.name for p in ev.params]
        ctx = _Ctx(False, params)
        items = []
        for f in ev.state:
            if f.default is not None:
                default = self.value(f.default, ctx)
            elif isinstance(f.type, A.TList):
                default = "[]"
            elif isinstance(f.type, A.TName) and f.type.name in ("int", "bool"):
                default = "0" if f.type.name == "int" else "False"  # as a var's
            else:
                default = "None"
            items.append(f"{f.name!r}: {default}")
        self.site(f"xstate_{name}", ev.at.line)
        self.out += [f"def xstate_{name}(G{''.join(', l_' + p for p in params)}):",
                     _PRE,
                     f"    return {{{', '.join(items)}}}  # @L{ev.at.line}", ""]

    def _field_helpers(self, tname: str) -> None:
        """`init_T(G, self, given)` fills the state fields of a new record of type T in
        declaration order: a created record's fields from `given` (the `create ... with`
        values) or their defaults; a pack record's var fields from its YAML (`given` is its
        data) or their defaults. Bounded fields get `fbounds_T_f(G, self)`."""
        info = self.m.types[tname]
        self.path = info.site.path
        fn = f"init_{tname}"
        self.site(fn, info.site.line)
        ctx = _Ctx(False, ["self"])
        lines = [f"def {fn}(G, l_self, given):", _PRE,
                 "    F = G.s['f'][l_self]"]
        for f in info.fields.values():
            if not (f.var or info.created):
                continue
            decl = f.decl
            if f.var and decl is not None and decl.default is not None:
                default = self.expr(decl.default, ctx)
            elif not f.var and f.default is not None:
                default = repr(f.default)
            else:
                default = {"int": "0", "bool": "False"}.get(f.type, "None")
                if isinstance(f.type, tuple):
                    default = "[]"
            given = f"given[{f.name!r}]"
            if isinstance(f.type, tuple):  # a list from YAML is the pack's: the state copies it
                given = f"list({given} or ())"
            value = f"{given} if {f.name!r} in given else {default}"
            if decl is not None and decl.bounds is not None:
                bfn = self._field_bounds(tname, f.name, decl.bounds)
                value = f"G.bound({bfn}(G, l_self), {value})"
            line = decl.at.line if decl is not None else info.site.line
            lines.append(f"    F[{f.name!r}] = {value}  # @L{line}")
        self.out += lines + [""]

    def _field_bounds(self, tname: str, field: str, bounds: tuple[A.Expr, A.Expr]) -> str:
        fn = f"fbounds_{len(tname)}_{tname}_{field}"  # the length keeps a_b/c and a/b_c apart
        if fn not in self.field_bound_fns:
            self.field_bound_fns.add(fn)
            lo, hi = (self.expr(b, _Ctx(False, ["self"])) for b in bounds)
            self.site(fn, bounds[0].at.line)
            self.extra += [f"def {fn}(G, l_self):", _PRE,
                           f"    return ({lo}, {hi})  # @L{bounds[0].at.line}", ""]
        return fn

    def _field_home(self, t: Any, name: str) -> str:
        """Where `x.name` is read, for x of checker type t: 'R' (the pack's records), 'F'
        (the game state) or 'any' (unknown type: looked up at run time)."""
        info = self.m.types.get(t) if isinstance(t, str) else None
        if info is None:
            return "any" if name in self.state_fields else "R"
        f = info.fields.get(name)
        return "F" if info.created or (f is not None and f.var) else "R"

    def _static_field(self, t: Any, name: str) -> bool:
        """Is `x.name`, for x of checker type t, a field every record of the type has in the
        pack's records (not `var`, not of a type made in play)? Then RF_<name> holds it."""
        info = self.m.types.get(t) if isinstance(t, str) else None
        if info is None or info.created:
            return False
        f = info.fields.get(name)
        return f is not None and not f.var

    def _keyed_by_table(self, zone: str, args: list[A.Expr]) -> bool:
        """Is `zone[arg]` read through ZK_<zone>? For a zone of one parameter whose values
        are known when the pack loads (sides, enum values, records not made in play), with an
        argument the checker gives exactly that type."""
        params = self.m.zones[zone].params
        if len(params) != 1 or len(args) != 1:
            return False
        t = from_ast(params[0].type)
        if self.c.types.get(id(args[0])) != t:
            return False
        info = self.m.types.get(t) if isinstance(t, str) else None
        return t == "side" or t in self.m.enums or (info is not None and not info.created)

    @staticmethod
    def _key(parts: list[str]) -> str:
        """Code for the state key of an indexed var or zone: parts (code of text values)
        joined with '|'; neighbouring string literals fold into one: 'hand|red'."""
        if not parts:
            return "''"
        pieces: list[str] = []
        for p in parts:
            if pieces:
                pieces.append("'|'")
            pieces.append(p)
        folded: list[str] = []
        for p in pieces:
            if folded and _is_str_literal(folded[-1]) and _is_str_literal(p):
                folded[-1] = repr(pyast.literal_eval(folded[-1]) + pyast.literal_eval(p))
            else:
                folded.append(p)
        return " + ".join(folded)

    def keypart(self, e: A.Expr, ctx: _Ctx) -> str:
        """Code for one key part as text: sides and record ids already are text."""
        code = self.expr(e, ctx)
        t = self.c.types.get(id(e))
        if t in ("side", "text") or (isinstance(t, str) and (t in self.m.types
                                                             or t in self.m.enums)):
            return code if _is_str_literal(code) else f"({code})"
        return f"str({code})"

    # ---- functions ----------------------------------------------------------------------
    def _function(self, fn: str, params: list[str], body: tuple[A.Stmt, ...]) -> None:
        # temporaries are the function's own locals: numbered afresh, so that copies of one
        # rule (an effect that several records share) compile to the same text
        self.temps = 0
        if fn in self.c.suspending_fns:
            _Machine(self, fn, params).build(body)
        else:
            # every local of the function: a walk written as a loop must not overwrite one
            ctx = _Ctx(False, [*params, *_declared_locals(body)])
            self.site(fn, body[0].at.line if body else 0)
            self.out.append(f"def {fn}(G{''.join(', l_' + p for p in params)}):")
            lines: list[str] = []
            self.stmts(body, ctx, lines, 1, loops=0)
            self.out += [*_prelude(lines, ""), *_TICK, *lines, ""]

    # ---- structured statements (no suspension inside) ---------------------------------------
    def stmts(self, body: Iterable[A.Stmt], ctx: _Ctx, lines: list[str], ind: int,
              loops: int, goto: tuple[int, int] | None = None) -> None:
        """Compile statements that never suspend. `loops` counts enclosing Python loops;
        `goto` is (continue pc, break pc) of an enclosing lowered loop, used when loops == 0."""
        for s in body:
            self.stmt(s, ctx, lines, ind, loops, goto)

    def stmt(self, s: A.Stmt, ctx: _Ctx, lines: list[str], ind: int, loops: int,
             goto: tuple[int, int] | None) -> None:
        first = len(lines)
        self._stmt(s, ctx, lines, ind, loops, goto)
        if len(lines) > first and s.at.line:
            lines[first] += f"  # @L{s.at.line}"

    def _stmt(self, s: A.Stmt, ctx: _Ctx, lines: list[str], ind: int, loops: int,
              goto: tuple[int, int] | None) -> None:
        pad = "    " * ind
        emit = lines.append
        if isinstance(s, A.Let):
            emit(f"{pad}{ctx.local(s.name)} = {self._rhs_lowered(s.value, ctx, lines, pad)}")
        elif isinstance(s, A.Assign):
            self._assign(s.target, self._rhs_lowered(s.value, ctx, lines, pad), ctx, lines, pad)
        elif isinstance(s, A.AugAssign):
            cur = self.expr(s.target, ctx)
            val = self.expr(s.value, ctx)
            self._assign(s.target, f"{cur} {s.op[0]} {val}", ctx, lines, pad)
        elif isinstance(s, A.ExprStmt):
            emit(f"{pad}{self.expr(s.expr, ctx)}")
        elif isinstance(s, A.ActionStmt):
            emit(f"{pad}{self.rhs(s.action, ctx)}")
        elif isinstance(s, A.Emit):
            args = self._tuple([self.value(a, ctx) for a in self.args_of(s)])
            if s.queued:
                emit(f"{pad}G.enqueue({s.event!r}, {args})")
            elif self._has_state(s.event):
                emit(f"{pad}G.emit_now_x({s.event!r}, {args})")
            else:
                emit(f"{pad}G.emit_now({s.event!r}, {args})")
        elif isinstance(s, A.Move):
            what = self.expr(s.what, ctx)
            many = elem(self.c.types.get(id(s.what), "any")) is not None
            fn = "move_all" if many else "move"
            emit(f"{pad}G.{fn}({what}, {self.zone_key(s.dest, ctx)}, {s.place!r})")
        elif isinstance(s, A.Destroy):
            what = self.expr(s.what, ctx)
            many = elem(self.c.types.get(id(s.what), "any")) is not None
            emit(f"{pad}G.{'destroy_all' if many else 'destroy'}({what})")
        elif isinstance(s, A.Shuffle):
            emit(f"{pad}G.shuffle({self.zone_key(s.zone, ctx)})")
        elif isinstance(s, A.Reveal):
            what = self.expr(s.what, ctx)
            many = elem(self.c.types.get(id(s.what), "any")) is not None
            to = self.expr(s.to, ctx) if s.to is not None else "None"
            emit(f"{pad}G.reveal({what if many else '[' + what + ']'}, {to})")
        elif isinstance(s, A.Modify):
            self._modify(s, ctx, lines, pad)
        elif isinstance(s, A.SetUntil):
            self._set_until(s, ctx, lines, pad)
        elif isinstance(s, (A.Win, A.EndGame)):
            side = self.expr(s.side, ctx) if isinstance(s, A.Win) else "None"
            if s.reason is None:
                emit(f"{pad}G.win({side})")
            else:
                template, args = self.prompt(s.reason, s.args, ctx)
                emit(f"{pad}G.win({side}, {template}, {args})")
        elif isinstance(s, A.Return):
            value = self._rhs_lowered(s.value, ctx, lines, pad) if s.value is not None \
                else "None"
            if ctx.susp:
                emit(f"{pad}F['rv'] = {value}")
                emit(f"{pad}return 0")
            else:
                emit(f"{pad}return {value}")
        elif isinstance(s, A.Log) and s.inline:
            template, args = self.prompt(s.message, s.args, ctx)
            emit(f"{pad}G.say({template}, {args})")
        elif isinstance(s, A.Log):
            args = ", ".join(self.value(a, ctx) for a in s.args)
            emit(f"{pad}G.say({s.message!r}, [{args}])")
        elif isinstance(s, A.Pass):
            emit(f"{pad}pass")
        elif isinstance(s, (A.Break, A.Continue)):
            if loops == 0 and goto is not None:
                target = goto[0] if isinstance(s, A.Continue) else goto[1]
                emit(f"{pad}pc = {target}")
                emit(f"{pad}continue")
            else:
                emit(f"{pad}{'break' if isinstance(s, A.Break) else 'continue'}")
        elif isinstance(s, A.If):
            for i, (cond, body) in enumerate(s.branches):
                test = self._lowered_in(cond, ctx, lines, pad) if i == 0 else self.expr(cond, ctx)
                emit(f"{pad}{'if' if i == 0 else 'elif'} {test}:")
                self._sub(body, ctx, lines, ind + 1, loops, goto)
            if s.orelse:
                emit(f"{pad}else:")
                self._sub(s.orelse, ctx, lines, ind + 1, loops, goto)
        elif isinstance(s, A.For):
            var = ctx.local(s.var)
            emit(f"{pad}for {var} in G.loop({self._lowered_in(s.source, ctx, lines, pad)}):")
            if s.where is not None:
                test = self._lowered_in(s.where, ctx, lines, pad + "    ")
                emit(f"{pad}    if not ({test}):")
                emit(f"{pad}        continue")
            self._sub(s.body, ctx, lines, ind + 1, loops + 1, goto)
        elif isinstance(s, A.While):
            emit(f"{pad}while {self.expr(s.cond, ctx)}:")
            emit(f"{pad}    G.tick()")
            self._sub(s.body, ctx, lines, ind + 1, loops + 1, goto)
        elif isinstance(s, A.Repeat):
            emit(f"{pad}for _ in range(G.count({self.expr(s.count, ctx)})):")
            self._sub(s.body, ctx, lines, ind + 1, loops + 1, goto)
        else:  # pragma: no cover
            raise AssertionError(s)

    def _lowered_in(self, e: A.Expr, ctx: _Ctx, lines: list[str], pad: str) -> str:
        """An expression of a statement, its walks written as loops (`lowered`). In a rule
        that may wait too: a statement that does not wait runs within one call of the
        function, so the loops' names and temporaries are Python's own there."""
        return self.lowered(e, ctx, lines, pad)

    def _rhs_lowered(self, r: A.Rhs, ctx: _Ctx, lines: list[str], pad: str) -> str:
        """`rhs`, with the walks of a plain expression written as loops (`_lowered_in`)."""
        if isinstance(r, (A.Create, A.Draw, A.Choose, A.Ask, A.Order, A.Open)) \
                or not self._walks(r):
            return self.rhs(r, ctx)
        code = self.lowered(r, ctx, lines, pad)
        t = self.c.types.get(id(r))
        return f"list({code})" if isinstance(t, tuple) and t[0] == "zone" else code

    def _sub(self, body, ctx, lines, ind, loops, goto) -> None:
        n = len(lines)
        self.stmts(body, ctx, lines, ind, loops, goto)
        if len(lines) == n:
            lines.append("    " * ind + "pass")

    def _assign(self, target: A.Expr, value: str, ctx: _Ctx, lines: list[str], pad: str) -> None:
        res = self.c.res.get(id(target))
        if res is None:
            raise AssertionError(f"unresolved target {target!r}")
        if res[0] == "local":
            lines.append(f"{pad}{ctx.local(res[1])} = {value}")
            return
        if res[0] == "evstate":
            lines.append(f"{pad}G.evset({res[1]!r}, {res[2]!r}, {value})")
            return
        if res[0] == "field":
            obj = self.expr(target.obj, ctx)
            decl = self.m.types[res[1]].fields[res[2]].decl
            if decl is not None and decl.bounds is not None:
                bfn = self._field_bounds(res[1], res[2], decl.bounds)
                lines.append(f"{pad}G.setf_bounded({obj}, {res[2]!r}, {value}, {bfn})")
            else:
                lines.append(f"{pad}G.setf({obj}, {res[2]!r}, {value})")
            return
        if res[0] == "list_index":
            # Lists are values: `xs[i] = v` makes a new list and stores it back, so a list
            # shared by two locals (or by a local and the log) never changes behind one.
            obj = self.expr(target.obj, ctx)
            new = f"replaced({obj}, {self.expr(target.args[0], ctx)}, {value})"
            if self.c.res.get(id(target.obj), ("",))[0] in ("local", "var", "list_index",
                                                            "evstate", "field"):
                self._assign(target.obj, new, ctx, lines, pad)
            else:
                lines.append(f"{pad}{obj}[{self.expr(target.args[0], ctx)}] = {value}")
            return
        name = res[1]
        decl = self.m.vars[name]
        key = self._key([self.keypart(a, ctx) for a in target.args]) if isinstance(
            target, A.Index) else "''"
        if decl.bounds:
            value = f"G.clamp({name!r}, {value})"
        lines.append(f"{pad}G.set({name!r}, {key}, {value})")

    def _modify(self, s: A.Modify, ctx: _Ctx, lines: list[str], pad: str) -> None:
        key = self._key([self.keypart(a, ctx) for a in self.args_of(s)])
        # an override is kept (a zone read now is copied), an amount is a number
        amount = self.value(s.amount, ctx) if s.op == "to" else self.expr(s.amount, ctx)
        dur = self._duration(s.duration, s, ctx)
        lines.append(f"{pad}G.modify({s.key!r}, {key}, {amount}, {dur}, {s.op!r})")

    def _set_until(self, s: A.SetUntil, ctx: _Ctx, lines: list[str], pad: str) -> None:
        target = s.target
        name = self.c.res[id(target)][1]
        key = self._key([self.keypart(a, ctx) for a in target.args]) if isinstance(
            target, A.Index) else "''"
        value = self.value(s.value, ctx)
        if self.m.vars[name].bounds:
            value = f"G.clamp({name!r}, {value})"
        dur = self._duration(s.duration, s, ctx)
        lines.append(f"{pad}G.set_until({name!r}, {key}, {value}, {dur})")

    def _duration(self, d: A.Duration | None, s: A.Stmt, ctx: _Ctx) -> str:
        """The duration as a literal for the runtime (engine.core.runtime.Runtime.duration)."""
        if d is None:
            return "None"
        if d.kind == "any":
            return "('any', [" + ", ".join(self._duration(i, s, ctx) for i in d.items) + "])"
        if d.kind == "end_of":
            return f"('end', {d.event!r}, {d.outermost!r}, {d.count!r})"
        if d.kind == "start_of":
            return f"('start', {d.event!r}, {d.count!r})"
        # the condition is a named function over the locals captured now (data, not code)
        fn = self.fresh("while_")
        names = sorted(self._free_locals(d.cond, ctx))
        wctx = _Ctx(False, names)
        self.site(fn, s.at.line)
        self.extra += [f"def {fn}(G, C):", _PRE]
        self.extra += [f"    l_{n} = C[{n!r}]" for n in names]
        self.extra += [f"    return {self.expr(d.cond, wctx)}  # @L{s.at.line}", ""]
        captured = "{" + ", ".join(f"{n!r}: {ctx.local(n)}" for n in names) + "}"
        return f"('while', {fn!r}, {captured})"

    def _free_locals(self, e: Any, ctx: _Ctx) -> set[str]:
        out: set[str] = set()

        def walk(n: Any, bound: frozenset = frozenset()) -> None:
            if (isinstance(n, A.Name) and n.id not in bound
                    and self.c.res.get(id(n), ("",))[0] == "local"):
                out.add(n.id)
            if isinstance(n, A.Comprehension):  # its variable is bound inside, not captured
                walk(n.source, bound)
                inner = bound | {n.var}
                walk(n.expr, inner)
                walk(n.cond, inner)
            elif isinstance(n, A.Lambda):
                walk(n.body, bound | {n.param})
            elif hasattr(n, "__attrs_attrs__"):
                for f in n.__attrs_attrs__:
                    walk(getattr(n, f.name), bound)
            elif isinstance(n, tuple):
                for x in n:
                    walk(x, bound)
        walk(e)
        return out

    def args_of(self, node: A.Call | A.Emit | A.Modify) -> tuple[A.Expr, ...]:
        """A call's arguments in parameter order, keyword ones and defaults included."""
        return self.c.bound.get(id(node), node.args)

    def prompt(self, text: str | None, args: tuple[A.Expr, ...], ctx: _Ctx) -> tuple[str, str]:
        """Code for a decision's prompt and for the values of its placeholders: the prompt as
        a template with numbered placeholders ("Intercept with {0}?"), or plain text."""
        if text is None or ("{" not in text and "}" not in text):
            return repr(text), "None"
        parts = split_template(text)
        if not args:
            return repr("".join(t for _kind, t, _i in parts)), "None"
        return (repr(numbered_template(parts)),
                "[" + ", ".join(self.value(a, ctx) for a in args) + "]")

    # ---- right-hand sides ---------------------------------------------------------------
    def rhs(self, r: A.Rhs, ctx: _Ctx) -> str:
        if isinstance(r, A.Create):
            given = "{" + ", ".join(f"{f.name!r}: {self.value(f.value, ctx)}"
                                    for f in r.fields) + "}"
            dest = self.zone_key(r.dest, ctx) if r.dest is not None else "None"
            return f"G.create({r.type!r}, {given}, {dest}, {r.place!r})"
        if isinstance(r, A.Draw):
            return (f"G.draw({self.expr(r.count, ctx)}, {self.zone_key(r.source, ctx)}, "
                    f"{self.zone_key(r.dest, ctx)})")
        if isinstance(r, (A.Choose, A.Ask, A.Order, A.Open)):  # pragma: no cover
            raise AssertionError("a decision outside a suspending function")
        return self.value(r, ctx)

    def value(self, e: A.Expr, ctx: _Ctx) -> str:
        """An expression whose value is kept (in a local, var, argument, return or the log):
        a zone is copied, so the value does not change when cards move later, and a saved
        game holds no list shared between a zone and a frame."""
        code = self.expr(e, ctx)
        t = self.c.types.get(id(e))
        if isinstance(t, tuple) and t[0] == "zone":
            return f"list({code})"
        return code

    # ---- expressions ----------------------------------------------------------------------
    @staticmethod
    def _tuple(items: list[str]) -> str:
        if not items:
            return "()"
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

    def may_lie_in_zones(self, source: A.Expr) -> bool:
        """Can an item of `source` (a list) lie in a zone? Not when its type is one of
        records no zone holds, or a side, number, text or truth value."""
        return self._type_may_lie_in_zones(elem(self.c.types.get(id(source), "any")))

    def values_may_lie_in_zones(self, values: Iterable[A.Expr]) -> bool:
        """Can one of `values` (a prompt's), or an item of one that is a list, lie in a zone?"""
        for e in values:
            t = self.c.types.get(id(e), "any")
            item = elem(t)
            if self._type_may_lie_in_zones(t if item in (None, "any") else item):
                return True
        return False

    def _type_may_lie_in_zones(self, t: Any) -> bool:
        if not isinstance(t, str) or t == "any":
            return True
        if t in ("side", "int", "text", "bool") or t in self.m.enums:
            return False
        return any(z.of is None or z.of == t for z in self.m.zones.values()) \
            or t not in self.m.types

    def zone_seen_by(self, source: A.Expr, by: A.Expr | None) -> bool:
        """Is `source` one zone that the decider `by` sees: a public zone, or a private one
        whose owner (its first index) is written as `by` is (the same side, local or var,
        both read at once)? A choice from it shows the decider nothing new."""
        res = self.c.res.get(id(source))
        if not res or res[0] != "zone":
            return False
        flags = self.m.zones[res[1]].flags
        if "hidden" in flags:
            return False
        if "private" not in flags:
            return True
        if by is None or not isinstance(source, A.Index) or not source.args:
            return False
        owner = source.args[0]
        how = self.c.res.get(id(by))
        return isinstance(owner, A.Name) and isinstance(by, A.Name) and owner.id == by.id \
            and how is not None and how[0] in ("local", "const", "var") \
            and self.c.res.get(id(owner)) == how

    def zone_key(self, e: A.Expr, ctx: _Ctx) -> str:
        res = self.c.res.get(id(e))
        if res and res[0] == "zone":
            if isinstance(e, A.Index):
                if self.optimize and self._keyed_by_table(res[1], e.args):
                    self.zone_key_tables.add(res[1])
                    return f"ZK_{res[1]}[{self.expr(e.args[0], ctx)}]"
                return self._key([repr(res[1])] + [self.keypart(a, ctx) for a in e.args])
            return repr(res[1])
        # a zone key held in a local or returned by zone_of()
        return self.expr(e, ctx)

    def _vars(self, name: str) -> str:
        """Where generated code reads var `name`: a public var without the undo watchers
        (PV), any other through them (V)."""
        return "PV" if self.m.vars[name].visibility == "public" else "V"

    def _var_table(self, name: str) -> str:
        """Code for var `name`'s table of values: the temporary a walk read it into before
        its loop (`_lowered_walk`), else read where it is used."""
        return self.var_tables.get(name) or f"{self._vars(name)}[{name!r}]"

    def _zones(self, name: str) -> str:
        """Where generated code reads zone `name`: a public one without the undo watchers
        (PZ), a hidden or private one through them (Z)."""
        flags = self.m.zones[name].flags
        return "Z" if "hidden" in flags or "private" in flags else "PZ"

    def expr(self, e: A.Expr, ctx: _Ctx) -> str:
        c = self.c
        if isinstance(e, (A.Int, A.Str, A.Bool)):
            return repr(e.value)
        if isinstance(e, A.NoneLit):
            return "None"
        if isinstance(e, A.Name):
            res = c.res[id(e)]
            kind = res[0]
            if kind == "local":
                return ctx.local(res[1])
            if kind == "var":
                return f"{self._var_table(res[1])}['']"
            if kind == "zone":
                return f"{self._zones(res[1])}[{res[1]!r}]"
            if kind == "const":
                return repr(res[1])
            if kind == "all":
                if res[1] in self.created:
                    return f"G.pieces({res[1]!r})"  # a copy: the list changes in play
                return f"G.all({res[1]!r})"
            if kind == "sides":
                return "G.sides"
            if kind == "kconst":
                return f"K_{res[1]}"
            if kind == "enum_all":
                return repr(self.m.enum_values(res[1]))
            raise AssertionError(res)
        if isinstance(e, A.Index):
            res = c.res[id(e)]
            if res[0] == "var":
                key = self._key([self.keypart(a, ctx) for a in e.args])
                return f"{self._var_table(res[1])}[{key}]"
            if res[0] == "zone":
                return f"{self._zones(res[1])}[{self.zone_key(e, ctx)}]"
            return f"{self.expr(e.obj, ctx)}[{self.expr(e.args[0], ctx)}]"
        if isinstance(e, A.Attr):
            res = c.res.get(id(e))
            if res is not None and res[0] == "evstate":
                return f"G.evget({res[1]!r}, {res[2]!r})"
            if res is not None and res[0] in ("const", "enum_value"):  # `type.id`, `kind.hill`
                return repr(res[1])
            obj = self.expr(e.obj, ctx)
            if e.name == "id":
                return obj
            t = c.types.get(id(e.obj))
            if self.state_types:
                if e.name == "name" and (t in self.created or self.created and t == "any"):
                    return obj if t in self.created else f"G.name_of({obj})"
                home = self._field_home(t, e.name)
                if home == "F":
                    return f"GF[{obj}][{e.name!r}]"
                if home == "any":
                    return f"G.field({obj}, {e.name!r})"
            if e.name == "name":
                return f"R[{obj}].get('name') or {obj}"
            if self.optimize and self._static_field(t, e.name):
                self.field_tables.add(e.name)
                return f"RF_{e.name}[{obj}]"
            return f"R[{obj}][{e.name!r}]"
        if isinstance(e, A.BinOp):
            return self._binop(e, self.expr(e.left, ctx), self.expr(e.right, ctx))
        if isinstance(e, A.Compare):
            return self._compare(e.op, self.expr(e.left, ctx), self.expr(e.right, ctx))
        if isinstance(e, A.BoolOp):
            return "(" + f" {e.op} ".join(self.expr(i, ctx) for i in e.items) + ")"
        if isinstance(e, A.Not):
            return f"(not {self.expr(e.expr, ctx)})"
        if isinstance(e, A.Neg):
            return f"(-{self.expr(e.expr, ctx)})"
        if isinstance(e, A.ListLit):
            return "[" + ", ".join(self.expr(i, ctx) for i in e.items) + "]"
        if isinstance(e, A.IfExp):
            return (f"({self.expr(e.then, ctx)} if {self.expr(e.cond, ctx)} "
                    f"else {self.expr(e.orelse, ctx)})")
        if isinstance(e, A.Comprehension):
            return "[" + self._gen(e, ctx) + "]"
        if isinstance(e, A.Call):
            return self._call(e, ctx)
        raise AssertionError(e)  # pragma: no cover

    def _binop(self, e: A.BinOp, left: str, right: str) -> str:
        if e.op == "*":  # the one operator that can grow a number past any bound fast
            return f"imul({left}, {right})"
        if e.op == "+" and self.c.types.get(id(e)) != "int":
            return f"G.cat({left}, {right})"  # lists and text: capped in size
        op = "//" if e.op == "/" else e.op
        return f"({left} {op} {right})"

    def _compare(self, op: str, left: str, right: str) -> str:
        """`a == none` is Python's `is None` (no value of a rule is equal to None without
        being it), which skips the rich comparison of a text or a number with None."""
        if self.optimize and op in ("==", "!=") and "None" in (left, right):
            other = right if left == "None" else left
            try:  # a literal against none (`r.field == none` of a record's given field)
                return repr((pyast.literal_eval(other) is None) == (op == "=="))
            except (ValueError, SyntaxError):  # not a literal: read when the rule runs
                op = "is" if op == "==" else "is not"
        return f"({left} {op} {right})"

    # ---- expressions as statements: walks written as loops ------------------------------
    # In Python 3.11 a comprehension or generator is a function of its own, created and
    # called each time: for the short lists rules walk, that costs more than the walk. So a
    # value's formula is written as statements where it walks a list (`count`, `exists`,
    # `every`, `sum` of a comprehension, and list comprehensions): plain loops in the
    # value's function, into temporaries, with `and`, `or` and `if ... else` around them
    # written as `if` statements so that what is read, and the steps charged (G.walk, the
    # same calls in the same order), are exactly those of the expression.
    def lowered(self, e: A.Expr, ctx: _Ctx, lines: list[str], pad: str) -> str:
        """Code for `e` that may need `lines` (at indent `pad`) to run first."""
        if not self.optimize or pad.count("    ") > _MAX_LOWERED_DEPTH or not self._walks(e):
            return self.expr(e, ctx)
        if isinstance(e, A.Comprehension):
            if e.var in ctx.pylocals:  # its loop would overwrite the outer name
                return self.expr(e, ctx)
            return self._lowered_walk(e, "list", ctx, lines, pad)
        if isinstance(e, A.Call) and e.func in _LOWERED_AGGREGATES \
                and self.c.res.get(id(e), ("",))[0] == "builtin":
            args = self.args_of(e)
            if len(args) == 1 and isinstance(args[0], A.Comprehension) \
                    and args[0].var not in ctx.pylocals:
                mode = e.func
                if mode == "count" and args[0].cond is None:
                    return self.expr(e, ctx)  # len() of the whole list
                if mode == "sum" and self.c.types.get(id(e)) != "int":
                    return self.expr(e, ctx)
                return self._lowered_walk(args[0], mode, ctx, lines, pad)
            return self.expr(e, ctx)
        if isinstance(e, A.Call) and e.func in self.unfolded_values \
                and self.c.res.get(id(e), ("",))[0] == "value" and id(e) not in self.hoisted:
            return self._unfolded(e, ctx, lines, pad)
        if isinstance(e, A.BoolOp):
            return self._lowered_boolop(e, ctx, lines, pad)
        if isinstance(e, A.IfExp):
            t = self.temp()
            lines.append(f"{pad}if ({self.lowered(e.cond, ctx, lines, pad)}):")
            inner = pad + "    "
            lines.append(f"{inner}{t} = {self.lowered(e.then, ctx, lines, inner)}")
            lines.append(f"{pad}else:")
            lines.append(f"{inner}{t} = {self.lowered(e.orelse, ctx, lines, inner)}")
            return t
        if isinstance(e, A.Not):
            return f"(not {self.lowered(e.expr, ctx, lines, pad)})"
        if isinstance(e, (A.Compare, A.BinOp)):
            left = self.lowered(e.left, ctx, lines, pad)
            if self._walks(e.right) and not _is_plain(left):
                t = self.temp()  # read before the right side, as the expression does
                lines.append(f"{pad}{t} = {left}")
                left = t
            right = self.lowered(e.right, ctx, lines, pad)
            if isinstance(e, A.Compare):
                return self._compare(e.op, left, right)
            return self._binop(e, left, right)
        return self.expr(e, ctx)

    def _walks(self, e: Any) -> bool:
        """Does the expression walk a list (hold a comprehension, or call a value written out
        in place) outside a lambda? Such parts are written as statements (`lowered`)."""
        if isinstance(e, A.Comprehension):
            return True
        if isinstance(e, A.Lambda):
            return False  # a graph search's test: read once per space, stays an expression
        if isinstance(e, A.Call) and e.func in self.unfolded_values \
                and self.c.res.get(id(e), ("",))[0] == "value":
            return True
        if isinstance(e, tuple):
            return any(self._walks(x) for x in e)
        if hasattr(e, "__attrs_attrs__"):
            return any(self._walks(getattr(e, f.name)) for f in e.__attrs_attrs__
                       if f.name != "at")
        return False

    def _unfolded(self, e: A.Call, ctx: _Ctx, lines: list[str], pad: str) -> str:
        """A call of a small value that walks, written out in place (`unfolded_values`): its
        arguments read in order into temporaries, then its formula as statements. The same
        reads and steps as the call; no Python call."""
        decl = self.m.values[e.func]
        bound = {f"l_{n}" for n in _bound_names(decl.expr)}  # the formula's own walks' names
        names = {}
        for p, a in zip(decl.params, self.args_of(e)):
            code = self.lowered(a, ctx, lines, pad)
            if not (_is_plain(code) and code not in bound):
                t = self.temp()  # read once, into a name the formula cannot overwrite
                lines.append(f"{pad}{t} = {code}")
                code = t
            names[p.name] = code
        return self.lowered(decl.expr, _Ctx(False, ctx.pylocals, names), lines, pad)

    def _lowered_boolop(self, e: A.BoolOp, ctx: _Ctx, lines: list[str], pad: str) -> str:
        """`a and b`: b is read only when a holds (`or`: when it does not); the result is
        the last item read, as Python's own `and` / `or` give."""
        t = self.temp()
        groups: list[list[A.Expr]] = [[]]  # items without walks run together in one expression
        for item in e.items:
            if self._walks(item) and groups[-1]:
                groups.append([])
            groups[-1].append(item)
        test = f"if {t}:" if e.op == "and" else f"if not {t}:"
        for i, group in enumerate(groups):
            if i:
                lines.append(f"{pad}{test}")
                pad += "    "
            codes = [self.lowered(group[0], ctx, lines, pad)]
            codes += [self.expr(x, ctx) for x in group[1:]]
            code = codes[0] if len(codes) == 1 else "(" + f" {e.op} ".join(codes) + ")"
            lines.append(f"{pad}{t} = {code}")
        return t

    def _lowered_walk(self, c: A.Comprehension, mode: str, ctx: _Ctx, lines: list[str],
                      pad: str) -> str:
        """A comprehension as a loop: its list ("list"), or count, exists, every or sum of it
        (as `_call` compiles them: `exists`/`every` of the filter form test its condition)."""
        t = self.temp()
        inner = ctx.inner(c.var)
        src = self.lowered(c.source, ctx, lines, pad)
        start = {"list": "[]", "count": "0", "sum": "0", "exists": "False", "every": "True"}
        lines.append(f"{pad}{t} = {start[mode]}")
        hoisted = self._hoist(c, lines, pad)
        tables = self._hoist_var_tables((c.cond, c.expr), lines, pad)
        # `every` of the filter form tests its condition: it keeps nothing out
        walk = f"G.walk({src})" if mode == "every" and _is_filter(c) else \
            self._walk_code(c, ctx, src)
        bound = self._static_length(c.source)
        if walk.startswith("G.walk(") and bound is not None:
            # the pack's own list (nothing changes it: no copy) and at most `bound` items
            walk = src
            if bound > _MAX_UNCHARGED or self._walks((c.cond, c.expr)):
                items = self.temp()
                lines += [f"{pad}{items} = {src}",
                          f"{pad}G.left -= len({items}) + 1",
                          f"{pad}if G.left < 0: G.over_budget()"]
                walk = items
        elif walk.startswith("G.walk("):  # G.walk written out: the list, charged up front
            items = self.temp()
            lines.append(f"{pad}{items} = {src}")
            if not src.startswith(("Z[", "PZ[", "G.all(")) \
                    and not self._gives_list(c.source):  # these give lists
                lines.append(f"{pad}if type({items}) is not list: {items} = list({items})")
            lines += [f"{pad}G.left -= len({items}) + 1",
                      f"{pad}if G.left < 0: G.over_budget()"]
            walk = items
        lines.append(f"{pad}for l_{c.var} in {walk}:")
        body = pad + "    "
        test, value = c.cond, c.expr
        if mode in ("exists", "every") and _is_filter(c):
            test, value = None, c.cond  # the filter form's condition is the test
            if mode == "exists":
                test, value = c.cond, None
        if test is not None:
            lines.append(f"{body}if not ({self.lowered(test, inner, lines, body)}):")
            lines.append(f"{body}    continue")
        if mode == "list":
            lines.append(f"{body}{t}.append({self.lowered(value, inner, lines, body)})")
        elif mode == "count":
            lines.append(f"{body}{t} += 1")
        elif mode == "sum":
            lines.append(f"{body}{t} += {self.lowered(value, inner, lines, body)}")
        elif mode == "exists":
            if value is not None:
                lines.append(f"{body}if not ({self.lowered(value, inner, lines, body)}):")
                lines.append(f"{body}    continue")
            lines.append(f"{body}{t} = True")
            lines.append(f"{body}break")
        else:  # every
            lines.append(f"{body}if not ({self.lowered(value, inner, lines, body)}):")
            lines.append(f"{body}    {t} = False")
            lines.append(f"{body}    break")
        for node in hoisted:
            del self.hoisted[node]
        for name in tables:
            del self.var_tables[name]
        return t

    def _hoist_var_tables(self, node: Any, lines: list[str], pad: str) -> list[str]:
        """The vars a walk's condition or item (`node`) reads outside a lambda, each table
        read into a temporary before the loop: nothing sets a var while an expression is
        read, and reading a table reads none of its values (the undo watchers see the value
        read). Returns the vars, for the caller to forget after the walk."""
        found: list[str] = []
        for n in _nodes(node, prune=A.Lambda):
            if isinstance(n, (A.Name, A.Index)):
                res = self.c.res.get(id(n))
                if res is not None and res[0] == "var" and res[1] not in self.var_tables \
                        and res[1] not in found:
                    found.append(res[1])
        for name in found:
            t = self.temp()
            lines.append(f"{pad}{t} = {self._var_table(name)}")
            self.var_tables[name] = t
        return found

    def _gives_list(self, source: A.Expr) -> bool:
        """Is `source` a graph search that gives a new list (engine.core.graph.Graph)?"""
        return isinstance(source, A.Call) and source.func in ("neighbors", "reachable") \
            and self.c.res.get(id(source), ("",))[0] == "builtin"

    def _static_length(self, source: A.Expr) -> int | None:
        """The most items `source` can hold when it is the pack's own data, which no rule
        changes: the records of a type not made in play, an enum's values, a list field (not
        `var`) of such records that each record gives; or a list written out; else None."""
        if not self.optimize:
            return None
        if isinstance(source, A.ListLit):  # a new list of as many items as it is written with
            return len(source.items)
        if isinstance(source, A.Name):
            res = self.c.res.get(id(source))
            if res is not None and res[0] == "all" and res[1] not in self.created:
                return len(self.m.by_type.get(res[1], ()))
            if res is not None and res[0] == "enum_all":
                return len(self.m.enum_values(res[1]))
            return None
        if not isinstance(source, A.Attr) or source.name in ("id", "name") \
                or self.c.res.get(id(source)) is not None:
            return None
        t = self.c.types.get(id(source.obj))
        info = self.m.types.get(t) if isinstance(t, str) else None
        if info is None or info.created or source.name not in info.fields \
                or info.fields[source.name].var:
            return None
        lengths = [0]
        for rid in self.m.by_type.get(t, ()):
            value = self.m.records[rid].data.get(source.name)
            if not isinstance(value, list):
                return None
            lengths.append(len(value))
        return max(lengths)

    def _hoist(self, c: A.Comprehension, lines: list[str], pad: str) -> list[int]:
        """Calls of values that only read, in the comprehension's condition or item, whose
        arguments read nothing the walk binds: each is read when the walk first needs it and
        kept for the rest of the walk (nothing changes while an expression is read), in a
        temporary set to `...` before the loop (see `_call`). Not inside a lambda: that is a
        function of its own. Returns the nodes, for the caller to forget after the walk."""
        bound = {c.var} | _bound_names((c.cond, c.expr))
        found: list[A.Call] = []

        def walk(n: Any) -> None:
            if isinstance(n, A.Lambda):
                return
            if isinstance(n, A.Call) and n.func in self.pure_values \
                    and self.c.res.get(id(n), ("",))[0] == "value" and id(n) not in self.hoisted \
                    and not any(_mentions(a, b) for a in self.args_of(n) for b in bound):
                found.append(n)
                return  # its arguments are read with it
            if isinstance(n, tuple):
                for x in n:
                    walk(x)
            elif hasattr(n, "__attrs_attrs__"):
                for f in n.__attrs_attrs__:
                    walk(getattr(n, f.name))
        walk((c.cond, c.expr))
        same: dict[Any, str] = {}  # the same call written twice shares its temporary
        for n in found:
            k = (n.func, _shape(self.args_of(n)))
            if k not in same:
                same[k] = self.temp()
                lines.append(f"{pad}{same[k]} = ...")
            self.hoisted[id(n)] = same[k]
        return [id(n) for n in found]

    def _walk_code(self, c: A.Comprehension, ctx: _Ctx, src: str) -> str:
        """What a comprehension that keeps only the items its condition holds for walks:
        G.walk(src) (the list, charged one step an item), or, over all the records of a type
        when the condition keeps only those whose var field equals a value it reads once
        (`x.f == v`, after tests that read only x's fields, locals and literals), just
        those records (G.having: charged the same, kept in an index while rules run). The
        condition is still read for each record walked, so the result is the same."""
        found = self._indexed(c) if self.optimize else None
        if found is None:
            return f"G.walk({src})"
        tname, field, value = found
        return f"G.having({tname!r}, {field!r}, {self.expr(value, ctx)})"

    def _indexed(self, c: A.Comprehension) -> tuple[str, str, A.Expr] | None:
        """(type, var field, value) for `_walk_code`, or None."""
        res = self.c.res.get(id(c.source)) if isinstance(c.source, A.Name) else None
        if res is None or res[0] != "all" or res[1] in self.created or c.cond is None:
            return None
        info = self.m.types.get(res[1])
        if info is None:
            return None
        tests = c.cond.items if isinstance(c.cond, A.BoolOp) and c.cond.op == "and" \
            else (c.cond,)
        found = None
        for test in tests:
            eq = self._field_equality(test, c.var, info)
            if eq is not None and (found is None or _is_literal(found[1])
                                   and not _is_literal(eq[1])):
                found = eq  # a value that is no literal: the more telling of two
            if not self._plain_test(test, c.var, info):
                break  # the tests after one that may call or fail are read only for some
        return None if found is None else (res[1], found[0], found[1])

    def _field_equality(self, test: A.Expr, var: str, info: Any) -> tuple[str, A.Expr] | None:
        """(field, value) when `test` is `var.field == value` (either way round), with a var
        field of one value (no list) and a value that is a local, const or literal."""
        if not isinstance(test, A.Compare) or test.op != "==":
            return None
        for mine, other in ((test.left, test.right), (test.right, test.left)):
            f = self._own_field(mine, var, info)
            if f is not None and info.fields[f].var and not isinstance(info.fields[f].type,
                                                                         tuple) \
                    and self._plain_operand(other, var, info) and not _mentions(other, var):
                return f, other
        return None

    def _own_field(self, e: A.Expr, var: str, info: Any) -> str | None:
        """The field name when `e` is `var.field`, a declared field of the type."""
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Name) and e.obj.id == var \
                and self.c.res.get(id(e.obj), ("",))[0] == "local" and e.name in info.fields:
            return e.name
        return None

    def _plain_operand(self, e: A.Expr, var: str, info: Any) -> bool:
        """A literal, a local or const, or a field of var: read without a call or a fault."""
        if isinstance(e, (A.Int, A.Str, A.Bool, A.NoneLit)):
            return True
        if isinstance(e, A.Name):
            return self.c.res.get(id(e), ("",))[0] in ("local", "const", "kconst")
        return self._own_field(e, var, info) is not None

    def _plain_test(self, test: A.Expr, var: str, info: Any) -> bool:
        """A test that reads only plain operands: leaving it unread for some items changes
        neither a step count nor whether a fault happens."""
        if isinstance(test, A.Not):
            return self._plain_test(test.expr, var, info)
        if isinstance(test, A.Compare) and test.op in ("==", "!="):
            return self._plain_operand(test.left, var, info) \
                and self._plain_operand(test.right, var, info)
        return self._own_field(test, var, info) is not None

    def _inlinable(self, e: Any) -> bool:
        """A formula that walks nothing, rolls nothing and calls no procedure nor any value
        but inlined ones with plain arguments."""
        if isinstance(e, (A.Comprehension, A.Lambda)):
            return False
        if isinstance(e, A.Call):
            res = self.c.res.get(id(e), ("",))
            if res[0] == "value":
                if e.func not in self.inlined_values \
                        or not all(self._plain_argument(a) for a in self.args_of(e)):
                    return False
            elif res[0] != "builtin" or e.func in _NOT_INLINED:
                return False
        if isinstance(e, tuple):
            return all(self._inlinable(x) for x in e)
        if hasattr(e, "__attrs_attrs__"):
            return all(self._inlinable(getattr(e, f.name)) for f in e.__attrs_attrs__
                       if f.name != "at")
        return True

    def _plain_argument(self, e: A.Expr) -> bool:
        """A literal, local or const: read as often as the inlined formula reads it."""
        if isinstance(e, (A.Int, A.Str, A.Bool, A.NoneLit)):
            return True
        return isinstance(e, A.Name) and self.c.res.get(id(e), ("",))[0] in (
            "local", "const", "kconst")

    def _iterable(self, e: A.Expr, ctx: _Ctx) -> str:
        """The source of a generator: Python allows no `:=` there, so the value calls in it
        kept for a walk around it (`_hoist`) are called as they are."""
        kept, self.hoisted = self.hoisted, {}
        try:
            return self.expr(e, ctx)
        finally:
            self.hoisted = kept

    def _gen(self, e: A.Comprehension, ctx: _Ctx, value: str | None = None) -> str:
        inner = ctx.inner(e.var)
        src = self._walk_code(e, ctx, self._iterable(e.source, ctx))
        out = f"{value if value is not None else self.expr(e.expr, inner)} for l_{e.var} in {src}"
        if e.cond is not None:
            out += f" if {self.expr(e.cond, inner)}"
        return out

    def _graph_call(self, e: A.Call, ctx: _Ctx) -> str:
        """engine.core.graph.Graph's methods take (ends..., [kinds,] blocked node, blocked
        edge)."""
        args, n = e.args, e.func
        first = graph_slots(n)[0]
        out = [self.expr(a, ctx) for a in args[1:first]]
        preds = list(args[first:])
        if n == "neighbors":  # neighbors(g, x, kinds, edge) or neighbors(g, x, node, edge)
            kinds = preds.pop(0) if preds and not isinstance(preds[0], A.Lambda) else None
            out.append(self.expr(kinds, ctx) if kinds is not None else "None")
            if kinds is not None and preds:
                preds.insert(0, None)  # no node predicate
        out += [self._lambda(a, ctx) if isinstance(a, A.Lambda)
                else "None" if a is None else self.expr(a, ctx) for a in preds]
        while len(out) >= first and out[-1] == "None":  # trailing absent predicates
            out.pop()
        return f"G.graphs[{args[0].id!r}].{n}({', '.join(out)})"

    def _lambda(self, lam: A.Lambda, ctx: _Ctx) -> str:
        inner = ctx.inner(lam.param)
        return f"(lambda l_{lam.param}: {self.expr(lam.body, inner)})"

    def _call(self, e: A.Call, ctx: _Ctx) -> str:
        res = self.c.res.get(id(e))
        args = self.args_of(e)
        if res is None:  # pragma: no cover - the checker resolved every call
            raise AssertionError(e)
        if res[0] == "proc":
            return f"p_{e.func}(G{''.join(', ' + self.value(a, ctx) for a in args)})"
        if res[0] == "value":
            if e.func in self.inlined_values and id(e) not in self.hoisted \
                    and all(self._plain_argument(a) for a in args):
                # A small value that reads only fields, vars and locals, called with locals
                # and literals: its formula in place of the call (the same reads; no call).
                decl = self.m.values[e.func]
                names = {p.name: self.expr(a, ctx) for p, a in zip(decl.params, args)}
                return f"({self.expr(decl.expr, _Ctx(False, names=names))})"
            call = f"v_{e.func}(G{''.join(', ' + self.expr(a, ctx) for a in args)})"
            t = self.hoisted.get(id(e))
            return call if t is None else f"({t} if {t} is not ... else ({t} := {call}))"
        n = e.func
        x = lambda i: self.expr(args[i], ctx)  # noqa: E731
        a0 = args[0] if args else None
        if n == "attribute" and self.state_types:
            return f"G.attribute({x(0)}, {x(1)})"  # state fields too
        if n in _TEMPLATES:
            return _TEMPLATES[n].format(*(x(i) for i in range(len(args))))
        if n == "count":
            if isinstance(a0, A.Comprehension) and a0.cond is not None:
                return f"sum({self._gen(a0, ctx, '1')})"
            return f"len({x(0)})"
        if n == "sum":
            if isinstance(a0, A.Comprehension):
                return f"sum({self._gen(a0, ctx)})"
            return f"sum({x(0)})"
        if n in ("min", "max"):
            if len(args) == 1:
                inner = self._gen(a0, ctx) if isinstance(a0, A.Comprehension) else x(0)
                return f"{n}(({inner}), default=None)"  # a generator needs its own parens
            return f"{n}({', '.join(x(i) for i in range(len(args)))})"
        if n == "exists":  # exists(x in xs where c); exists(test for x in xs where c)
            if isinstance(a0, A.Comprehension):
                return f"any({self._gen(a0, ctx, 'True' if _is_filter(a0) else None)})"
            return f"bool({x(0)})"
        if n == "every":  # every(x in xs where test); every(test for x in xs where c)
            if isinstance(a0, A.Comprehension) and _is_filter(a0):
                inner = ctx.inner(a0.var)
                return (f"all({self.expr(a0.cond, inner)} for l_{a0.var} in "
                        f"G.walk({self._iterable(a0.source, ctx)}))")
            if isinstance(a0, A.Comprehension):
                return f"all({self._gen(a0, ctx)})"
            return f"all({x(0)})"
        if n == "lookup":
            col = x(2) if len(args) == 3 else "None"
            return f"G.lookup({x(0)}, {x(1)}, {col})"
        if n in ("neighbors", "distance", "path", "reachable", "edge"):
            return self._graph_call(e, ctx)
        if n == "sort":
            if len(args) == 2:
                return f"sorted({x(0)}, key={self._lambda(args[1], ctx)})"
            return f"sorted({x(0)})"
        if n == "run":
            return f"G.run_effect_now({self.expr(a0.obj, ctx)}, {a0.name!r})"
        raise AssertionError(n)  # pragma: no cover


# Aggregates of a comprehension that `Compiler.lowered` writes as loops, and how deep its
# loops and `if`s may nest (Python refuses more than 20 nested loops in one function).
_LOWERED_AGGREGATES = frozenset({"count", "exists", "every", "sum"})
# Built-ins an inlined value may not call (they roll, run rules, search or build lists), and
# the longest formula (in characters of code) inlined
_NOT_INLINED = frozenset({"roll", "random_pick", "run", "numbers", "neighbors", "distance",
                          "path", "reachable"})
_MAX_INLINED = 160
_MAX_UNFOLDED = 240
_MAX_LOWERED_DEPTH = 12
# A walk of the pack's own data (`_static_length`) of at most this many items, with no walk
# inside, is not charged: its work is bounded by a constant, and the loop around it, the call
# or the `while` turn that runs it is charged, so a runaway rule still ends within a
# constant factor of its budget. (The records of a type are walked charged: there are many.)
_MAX_UNCHARGED = 16


# One rule step (Runtime.tick), written inline: a call is a step, so recursion cannot run
# unbounded
_TICK = ("    G.left -= 1", "    if G.left < 0: G.over_budget()")


# The state's vars (V) and zones (Z), read through the undo watchers while a decision may
# be undone (see Runtime.watch), the records (R), and the vars and zones again without the
# watchers (PV, PZ), for reading public ones: anyone may see them, so no read of one can
# end an undo; and the fields of records in play (GF, through the watchers like V and Z).
# A barrier while the function runs (Runtime.barrier) points G.v, G.z and G.f back at the
# state itself; the names keep the watchers, whose reads give the same values and at most
# hit the barrier again, which changes nothing.
_PRE = "    V, Z, R, PV, PZ, GF = G.v, G.z, G.R, G.pv, G.pz, G.f"
_PRE_NAMES = {"V": "G.v", "Z": "G.z", "R": "G.R", "PV": "G.pv", "PZ": "G.pz", "GF": "G.f"}


def _prelude(lines: list[str], body: str) -> list[str]:
    """`_PRE` for those of its names the function's code reads."""
    code = "\n".join(lines) + "\n" + body
    used = [n for n in _PRE_NAMES if re.search(rf"\b{n}\b", code)]
    if not used:
        return []
    return [f"    {', '.join(used)} = {', '.join(_PRE_NAMES[n] for n in used)}"]


def _is_literal(e: A.Expr) -> bool:
    return isinstance(e, (A.Int, A.Str, A.Bool, A.NoneLit))


def _mentions(e: Any, name: str) -> bool:
    """Does the expression read the name `name`?"""
    if isinstance(e, A.Name):
        return e.id == name
    if isinstance(e, tuple):
        return any(_mentions(x, name) for x in e)
    if hasattr(e, "__attrs_attrs__"):
        return any(_mentions(getattr(e, f.name), name) for f in e.__attrs_attrs__
                   if f.name != "at")
    return False


def _names_in(node: Any, name_of: Callable[[Any], str | None]) -> set[str]:
    """The names `name_of` gives the nodes of a syntax tree (None: the node names none)."""
    return {name for n in _nodes(node) if (name := name_of(n)) is not None}


def _nodes(node: Any, prune: type | tuple[type, ...] = ()) -> Iterator[Any]:
    """Every node of a syntax tree, parents before their children, in source order; the
    nodes of type `prune` and what lies inside them are left out."""
    if isinstance(node, prune):
        return
    yield node
    if isinstance(node, tuple):
        for x in node:
            yield from _nodes(x, prune)
    elif hasattr(node, "__attrs_attrs__"):
        for f in node.__attrs_attrs__:
            yield from _nodes(getattr(node, f.name), prune)


def _declared_locals(body: Any) -> set[str]:
    """The names `let` and `for` statements declare in a function's body."""
    return _names_in(body, lambda n: n.name if isinstance(n, A.Let)
                     else n.var if isinstance(n, A.For) else None)


def _bound_names(e: Any) -> set[str]:
    """The names comprehensions and lambdas inside the expression bind."""
    return _names_in(e, lambda n: n.var if isinstance(n, A.Comprehension)
                     else n.param if isinstance(n, A.Lambda) else None)


def _shape(n: Any) -> Any:
    """A syntax tree without its positions: equal for the same text written twice."""
    if isinstance(n, tuple):
        return tuple(_shape(x) for x in n)
    if hasattr(n, "__attrs_attrs__"):
        return (type(n).__name__, *(_shape(getattr(n, f.name)) for f in n.__attrs_attrs__
                                    if f.name != "at"))
    return n


def _is_plain(code: str) -> bool:
    """A local or a literal: reading it twice or later reads the same."""
    return code.isidentifier() or code in ("None", "True", "False") or code.lstrip("-").isdigit() \
        or _is_str_literal(code)


# Built-ins that are one Python expression over their compiled arguments.
_TEMPLATES = {
    "abs": "abs({0})", "other": "G.other[{0}]", "roll": "G.roll({0}, {1})",
    "zone_of": "G.loc.get({0})", "top": "first({0})", "first": "first({0})",
    "last": "last({0})", "random_pick": "G.pick({0})", "contents": "list({0})",
    "numbers": "G.numbers({0}, {1})", "take": "list({0}[:max({1}, 0)])",
    "is_revealed": "({0} in G.revealed)", "attribute": "R[{0}].get({1})",
}


def _has_defaults(params: tuple[A.Param, ...]) -> bool:
    return any(p.default is not None for p in params)


def _every_comprehension(e: A.Expr) -> A.Comprehension | None:
    """The comprehension of `every(... for x in ...)`, or None for any other check."""
    if isinstance(e, A.Call) and e.func == "every" and len(e.args) == 1 \
            and isinstance(e.args[0], A.Comprehension):
        return e.args[0]
    return None


def _is_filter(c: A.Comprehension) -> bool:
    """`x in xs where cond` (also written `x for x in xs where cond`): its items are the x
    themselves, and `every`/`exists` read its condition as the test."""
    return c.cond is not None and isinstance(c.expr, A.Name) and c.expr.id == c.var


def _tested_field(test: A.Expr, var: str) -> str | None:
    """The first field of `var` the test reads (`x.target` -> 'target'): the line to show."""
    return next((n.name for n in _nodes(test) if isinstance(n, A.Attr)
                 and isinstance(n.obj, A.Name) and n.obj.id == var), None)


def _is_str_literal(code: str) -> bool:
    return len(code) >= 2 and code[0] == code[-1] == "'" and "\\" not in code \
        and "'" not in code[1:-1]


def _contains_suspension(node: Any, c: CheckResult) -> bool:
    """Does this statement (or anything inside it) possibly wait for a player?"""
    if isinstance(node, (A.Choose, A.Ask, A.Order, A.Open)):
        return True
    if isinstance(node, A.Call):
        res = c.res.get(id(node), ("",))
        if res[0] == "proc" and f"p_{node.func}" in c.suspending_fns:
            return True
        if res[0] == "builtin" and res[1] == "run":
            return True  # an effect may suspend; decided per record at run time
    if isinstance(node, A.Emit) and not node.queued and node.event in c.suspending_events:
        return True
    if isinstance(node, tuple):
        return any(_contains_suspension(x, c) for x in node)
    if hasattr(node, "__attrs_attrs__"):
        return any(_contains_suspension(getattr(node, f.name), c)
                   for f in node.__attrs_attrs__ if f.name != "at")
    return False


class _Machine:
    """Lower one suspending function into numbered blocks dispatched on `pc`."""

    def __init__(self, comp: Compiler, fn: str, params: list[str]):
        self.comp = comp
        self.fn = fn
        self.params = params
        self.blocks: list[list[str]] = [[]]
        self.cur = 0
        self.ctx = _Ctx(True)

    def new(self) -> int:
        self.blocks.append([])
        return len(self.blocks) - 1

    def line(self, text: str) -> None:
        self.blocks[self.cur].append(text)

    def jump(self, target: int) -> None:
        self.line(f"pc = {target}")
        self.line("continue")

    def build(self, body: tuple[A.Stmt, ...]) -> None:
        self.lower(body, None)
        self.line("return 0")
        out = self.comp.out
        self.comp.site(self.fn, body[0].at.line if body else 0)
        out.append(f"def {self.fn}(G, F):")
        out += _prelude([line for blk in self.blocks for line in blk], "")
        out.append("    L = F['L']")
        out.append("    pc = F['pc']")
        out.append("    while True:")
        # One flat `if` per block, not an elif chain: Python compiles elif chains
        # recursively, and a rule with thousands of decisions would exceed its limits. Every
        # block ends by returning or jumping, so it never falls into the next test.
        for i, blk in enumerate(self.blocks):
            out.append(f"        if pc == {i}:")
            for ln in blk:
                out.append("            " + ln)
            last = blk[-1].split("  # @L")[0] if blk else ""
            if not (last == "continue" or last.startswith("return ")):
                out.append("            continue")
        out.append("        G.fault(f'no resume point {pc!r} in this rule')")
        out.append("")

    def lower(self, body: Iterable[A.Stmt], loop: tuple[int, int] | None) -> None:
        c = self.comp.c
        for s in body:
            if not _contains_suspension(s, c):
                lines: list[str] = []
                self.comp.stmt(s, self.ctx, lines, 0, 0, loop)
                self.blocks[self.cur].extend(lines)
            else:
                self.lower_stmt(s, loop)

    def _target(self, target: A.Expr | str | None, value: str) -> None:
        if target is None:
            return
        if isinstance(target, str):
            self.line(f"{self.ctx.local(target)} = {value}")
            return
        lines: list[str] = []
        self.comp._assign(target, value, self.ctx, lines, "")
        self.blocks[self.cur].extend(lines)

    def lower_stmt(self, s: A.Stmt, loop: tuple[int, int] | None) -> None:
        comp, ctx = self.comp, self.ctx
        if s.at.line:
            self.line(f"# @L{s.at.line}")
        if isinstance(s, (A.Let, A.Assign, A.ActionStmt, A.ExprStmt)):
            value = s.action if isinstance(s, A.ActionStmt) else (
                s.expr if isinstance(s, A.ExprStmt) else s.value)
            target: A.Expr | str | None = (s.name if isinstance(s, A.Let) else
                                           s.target if isinstance(s, A.Assign) else None)
            if isinstance(value, A.Choose) and value.each:
                self.each(value, target)
                return
            if isinstance(value, (A.Choose, A.Ask, A.Order)):
                self.decision(value)
                nxt = self.new()
                self.line(f"F['pc'] = {nxt}")
                self.line("return 1")
                self.cur = nxt
                self._target(target, "F.pop('in')")
                return
            if isinstance(value, A.Open):  # a window: called like a procedure that asks
                w = comp.m.windows[value.window]
                self._call_and_resume(w.fn, w.decl.params, value.args, target)
                return
            if isinstance(value, A.Call):
                res = comp.c.res[id(value)]
                if res[0] == "proc":
                    self._call_and_resume(f"p_{value.func}", comp.m.procs[value.func].params,
                                          comp.args_of(value), target)
                    return
                if res[0] == "builtin" and res[1] == "run":
                    nxt = self.new()
                    self.line(f"F['pc'] = {nxt}")
                    self.line(f"if G.push_effect({comp.expr(value.args[0].obj, ctx)}, "
                              f"{value.args[0].name!r}):")
                    self.line("    return 2")
                    self.jump(nxt)
                    self.cur = nxt
                    self._target(target, "None")
                    return
            raise AssertionError(f"cannot lower {s!r}")  # pragma: no cover
        if isinstance(s, A.Emit):
            args = comp._tuple([comp.value(a, ctx) for a in comp.args_of(s)])
            nxt = self.new()
            self.line(f"F['pc'] = {nxt}")
            push = "push_event_x" if comp._has_state(s.event) else "push_event"
            self.line(f"G.{push}({s.event!r}, {args})")
            self.line("return 2")
            self.cur = nxt
            return
        if isinstance(s, A.If):
            end = self.new()
            starts = []
            for i, (cond, body) in enumerate(s.branches):
                b = self.new()
                starts.append((b, body))
                self.line(f"{'if' if i == 0 else 'elif'} {comp.expr(cond, ctx)}:")
                self.line(f"    pc = {b}")
                self.line("    continue")
            orelse = None
            if s.orelse:
                orelse = self.new()
            self.jump(orelse if orelse is not None else end)
            for b, body in starts + ([(orelse, s.orelse)] if orelse is not None else []):
                self.cur = b
                self.lower(body, loop)
                self.jump(end)
            self.cur = end
            return
        if isinstance(s, (A.For, A.Repeat)):
            it, ix = comp.fresh("_it"), comp.fresh("_ix")
            if isinstance(s, A.For):
                self.line(f"L[{it!r}] = G.loop({comp.expr(s.source, ctx)})")
            else:
                self.line(f"L[{it!r}] = list(range(G.count({comp.expr(s.count, ctx)})))")
            self.line(f"L[{ix!r}] = 0")
            head, end = self.new(), self.new()
            self.jump(head)
            self.cur = head
            self.line(f"if L[{ix!r}] >= len(L[{it!r}]):")
            self.line(f"    pc = {end}")
            self.line("    continue")
            if isinstance(s, A.For):
                self.line(f"{ctx.local(s.var)} = L[{it!r}][L[{ix!r}]]")
            self.line(f"L[{ix!r}] += 1")
            if isinstance(s, A.For) and s.where is not None:
                self.line(f"if not ({comp.expr(s.where, ctx)}):")
                self.line(f"    pc = {head}")
                self.line("    continue")
            self.lower(s.body, (head, end))
            self.jump(head)
            self.cur = end
            self.line(f"L.pop({it!r}, None)")
            self.line(f"L.pop({ix!r}, None)")
            return
        if isinstance(s, A.While):
            head, end = self.new(), self.new()
            self.jump(head)
            self.cur = head
            self.line(f"if not ({comp.expr(s.cond, ctx)}):")
            self.line(f"    pc = {end}")
            self.line("    continue")
            self.line("G.tick()")
            self.lower(s.body, (head, end))
            self.jump(head)
            self.cur = end
            return
        raise AssertionError(f"cannot lower {s!r}")  # pragma: no cover

    def each(self, d: A.Choose, target: A.Expr | str | None) -> None:
        """`choose n x from ... one at a time`: the picks so far live in a local of the frame
        (plain data); each pass asks for one more item, or ends with the list of them."""
        comp, ctx = self.comp, self.ctx
        _kind, by, src, lo, hi, require = self._choice(d)
        prompt, args = comp.prompt(d.prompt, d.prompt_args, ctx)
        key = comp.fresh("_each")
        self.line(f"L[{key!r}] = G.each_start({by}, {src}, {lo}, {hi}, {require}, {args})")
        head = self.new()
        self.jump(head)
        self.cur = head
        self.line(f"if not G.each_step(F, L[{key!r}], {prompt}):")
        self.line(f"    F['pc'] = {head}")
        self.line("    return 1")
        if target is None:
            self.line(f"L.pop({key!r})")
        else:
            self._target(target, f"L.pop({key!r})['picked']")

    def _call_and_resume(self, fn: str, params: Iterable[A.Param], args: Iterable[A.Expr],
                         target: A.Expr | str | None) -> None:
        """Push rule `fn` as a frame (it may ask a player) and go on here when it returns,
        its value (if any) into `target`."""
        comp, ctx = self.comp, self.ctx
        bound = "{" + ", ".join(f"{prm.name!r}: {comp.value(a, ctx)}"
                                for prm, a in zip(params, args)) + "}"
        nxt = self.new()
        self.line(f"F['pc'] = {nxt}")
        self.line(f"G.push_call({fn!r}, {bound})")
        self.line("return 2")
        self.cur = nxt
        self._target(target, "F.pop('rv', None)")

    def decision(self, d: A.Choose | A.Ask | A.Order) -> None:
        comp, ctx = self.comp, self.ctx
        if isinstance(d, A.Ask):
            prompt, args = comp.prompt(d.prompt, d.prompt_args, ctx)
            self.line(f"G.decide(F, 'ask', {comp.expr(d.side, ctx)}, [True, False], 1, 1, "
                      f"False, {prompt}, None{_also(args)}{self._args_shown(d, args)})")
            return
        if isinstance(d, A.Order):
            self.line(f"G.decide(F, 'order', {comp.expr(d.by, ctx)}, "
                      f"list({comp.expr(d.items, ctx)}), 0, 0, False, None, None)")
            return
        kind, by, src, lo, hi, require = self._choice(d)
        prompt, args = comp.prompt(d.prompt, d.prompt_args, ctx)
        # asked even with nothing offered (see engine.dsl.pack.window_body)
        if d.window is not None:
            self.line(f"G.open_window(F, {d.window!r}, {by}, {src}, {prompt})")
            return
        # options of a type no zone holds, or from a zone the decider sees, are never hidden
        # from the decider: not looked up
        zoned = ", zoned=False" if not comp.may_lie_in_zones(d.source) \
            or comp.optimize and comp.zone_seen_by(d.source, d.by) else ""
        self.line(f"G.decide(F, {kind!r}, {by}, {src}, {lo}, {hi}, {d.optional!r}, "
                  f"{prompt}, {require}{_also(args)}{zoned}{self._args_shown(d, args)})")

    def _args_shown(self, d: A.Choose | A.Ask, args: str) -> str:
        """`args_zoned=False` for G.decide when no value the prompt names can lie in a zone
        (the decider is shown the records a prompt names: none to look up then)."""
        comp = self.comp
        if args == "None" or not comp.optimize or comp.values_may_lie_in_zones(d.prompt_args):
            return ""
        return ", args_zoned=False"

    def _choice(self, d: A.Choose) -> tuple[str, str, str, str, str, str]:
        """Code for a choice's kind, decider, options, counts and `require` condition."""
        comp, ctx = self.comp, self.ctx
        by = comp.expr(d.by, ctx) if d.by is not None else f"{comp._vars('active')}['active']['']"
        src = comp.expr(d.source, ctx)
        if d.where is not None and comp.optimize:
            if not (_is_plain(by) or re.fullmatch(r"PV\['\w+'\]\[''\]", by)):
                t = comp.temp()  # the decider is read before the options, as it was
                self.line(f"{t} = {by}")
                by = t
            src = self._options(d, src)
        elif d.where is not None:
            inner = _Ctx(True, ctx.pylocals | {d.var})
            src = f"[l_{d.var} for l_{d.var} in {src} if {comp.expr(d.where, inner)}]"
        elif isinstance(d.source, A.ListLit):
            pass  # a new list already
        else:
            src = f"list({src})"
        if d.count is None:
            lo, hi, kind = "1", "1", "one"
        elif d.count.kind == "exact":
            lo = hi = comp.expr(d.count.high, ctx)
            kind = "many"
        elif d.count.kind == "up_to":
            lo, hi, kind = "0", comp.expr(d.count.high, ctx), "many"
        else:
            lo, hi, kind = comp.expr(d.count.low, ctx), comp.expr(d.count.high, ctx), "many"
        require = "None"
        if d.require is not None:
            fn = comp.fresh("require_")
            names = sorted(comp._free_locals(d.require, ctx) - {d.var})
            rctx = _Ctx(False, names + [d.var])
            comp.site(fn, d.require.at.line)
            comp.extra += [f"def {fn}(G, C, l_{d.var}):", _PRE]
            comp.extra += [f"    l_{n} = C[{n!r}]" for n in names]
            comp.extra += [f"    return {comp.expr(d.require, rctx)}  # @L{d.require.at.line}",
                           ""]
            require = f"({fn!r}, {{{', '.join(f'{n!r}: {ctx.local(n)}' for n in names)}}})"
        return kind, by, src, lo, hi, require

    def _options(self, d: A.Choose, src: str) -> str:
        """The options of `choose x from src where cond`, as a loop in the block (a list
        comprehension is a function made and called each time): the same reads and steps
        (the items are not charged, as the comprehension's are not)."""
        comp = self.comp
        inner = _Ctx(True, self.ctx.pylocals | {d.var})
        out = comp.temp()
        lines = [f"{out} = []"]
        tables = comp._hoist_var_tables(d.where, lines, "")
        lines.append(f"for l_{d.var} in {src}:")
        test = comp.lowered(d.where, inner, lines, "    ")
        lines += [f"    if {test}:", f"        {out}.append(l_{d.var})"]
        for name in tables:
            del comp.var_tables[name]
        for line in lines:
            self.line(line)
        return out


def _also(args: str) -> str:
    """The prompt's values as a last argument of G.decide, only when there are some."""
    return "" if args == "None" else f", {args}"


# What a static value's compiled formula may use besides its parameters (l_*), consts (K_*),
# the pack's records (R, and the tables of their fields and zone keys: RF_*, ZK_*) and the
# calls of other values (v_*): the runtime's methods that read
# only the pack (its records, types, tables, graphs, sides) or charge the step budget.
_STATIC_G = frozenset({"tick", "walk", "loop", "count", "lookup", "graphs", "all", "sides",
                       "other", "name_of", "numbers", "cat"})
_STATIC_NAMES = frozenset({"R", "None", "True", "False", "sum", "len", "any", "all", "min",
                           "max", "abs", "sorted", "list", "bool", "first", "last", "replaced",
                           "imul"})


def static_values(bodies: dict[str, str], modified: set[str]) -> set[str]:
    """The values whose result depends only on their arguments and the pack's static data:
    records' fields that are not `var`, consts, tables, the graphs, the sides. The analysis
    reads the compiled formula (Python), so whatever construct reads the game state, now or
    later, is caught by what it compiles to: a value is static when its code touches no var
    (V), zone (Z), record field in play (GF, G.field, G.attribute), event state (G.evget),
    modifier, die or random pick, nor any runtime method outside `_STATIC_G`, calls only
    static values, and no `modify` changes it. Anything unknown makes a value not static.
    Values that call each other in a cycle are static together when nothing else stops them
    (the greatest fixed point)."""
    calls: dict[str, set[str]] = {}
    ok: set[str] = set()
    for name, body in bodies.items():
        if name in modified:
            continue
        callees = _pure_calls(body)
        if callees is not None:
            calls[name] = callees
            ok.add(name)
    changed = True
    while changed:
        changed = False
        for name in list(ok):
            if not calls[name] <= ok:
                ok.discard(name)
                changed = True
    return ok


# What a value kept while the state is unchanged may use besides what a static value may:
# reads of the game state (vars, zones, fields in play, event state, modifiers, where
# records lie, what is revealed), none of which changes while an expression is read.
_READ_G = _STATIC_G | {"v", "z", "f", "field", "attribute", "evget", "pieces", "loc",
                       "revealed", "mods", "modint", "modto", "having"}
_READ_NAMES = _STATIC_NAMES | {"V", "Z", "PV", "PZ", "GF"}
# What makes a value worth keeping: walking all the records of a type, searching a graph
_COSTLY = ("G.all(", "G.graphs[", "G.pieces(")


def pure_values(bodies: dict[str, str]) -> set[str]:
    """The values that only read: their formula, compiled, touches the state only through
    reads (no die, random pick or effect, see `_READ_G`) and calls only such values."""
    calls: dict[str, set[str]] = {}
    pure: set[str] = set()
    for name, body in bodies.items():
        callees = _pure_calls(body, _READ_G, _READ_NAMES)
        if callees is not None:
            calls[name] = callees
            pure.add(name)
    changed = True
    while changed:  # the greatest fixed point: reads only, through every call
        changed = False
        for name in list(pure):
            if not calls[name] <= pure:
                pure.discard(name)
                changed = True
    return pure


def recursive_values(bodies: dict[str, str]) -> set[str]:
    """The values in a cycle of calls (one that calls itself, or calls one that calls it
    back), from their compiled formulas."""
    calls = {name: set(re.findall(r"\bv_(\w+)\(", body)) & bodies.keys()
             for name, body in bodies.items()}
    out: set[str] = set()
    for name in bodies:  # does a path of calls lead from the value back to it?
        seen: set[str] = set()
        todo = list(calls[name])
        while todo:
            n = todo.pop()
            if n == name:
                out.add(name)
                break
            if n not in seen:
                seen.add(n)
                todo.extend(calls[n])
    return out


def run_memo_values(bodies: dict[str, str], pure: set[str], static: set[str],
                    wanted: set[str]) -> set[str]:
    """The values worth keeping while the game state is unchanged. Such a value only reads
    (`pure_values`); it walks all the records of a type
    or searches a graph itself (a shorter walk costs less than the keeping); and it has no
    parameters or some rule reads it twice with the same arguments (`repeated_calls`): the
    values read again before anything changes (`wanted`). While rules run, the state changes only
    through the runtime's methods, which empty the kept results (engine.core.runtime
    Runtime.memo). Static values have their own cache."""
    return {n for n in (pure & wanted) - static if any(c in bodies[n] for c in _COSTLY)}


def repeated_calls(model: PackModel) -> set[str]:
    """The values some rule (a value's formula, a procedure, trigger, effect or window)
    calls twice with the same argument expressions."""
    def walk(n: Any, seen: dict[Any, int]) -> None:
        if isinstance(n, A.Call) and n.func in model.values:
            k = (n.func, _shape(n.args), _shape(n.kwargs))
            seen[k] = seen.get(k, 0) + 1
        if isinstance(n, tuple):
            for x in n:
                walk(x, seen)
        elif hasattr(n, "__attrs_attrs__"):
            for f in n.__attrs_attrs__:
                walk(getattr(n, f.name), seen)

    rules: list[Any] = [v.expr for v in model.values.values()]
    rules += [p.body for p in model.procs.values()]
    rules += [(tr.decl.body, tr.decl.cond) for tr in model.triggers]
    rules += [eff.body for eff in model.effects] + [w.body for w in model.windows.values()]
    out: set[str] = set()
    for rule in rules:
        seen: dict[Any, int] = {}
        walk(rule, seen)
        out |= {k[0] for k, n in seen.items() if n > 1}
    return out


def _pure_calls(body: str, g_attrs: frozenset[str] = _STATIC_G,
                names: frozenset[str] = _STATIC_NAMES) -> set[str] | None:
    """The values `body` calls, or None if it uses anything of the runtime (G) or any
    name besides its arguments, consts, values and `g_attrs` / `names` (by default:
    static data only, see static_values)."""
    tree = pyast.parse(body, mode="eval")
    callees: set[str] = set()
    allowed_g: set[int] = set()  # the Name nodes `G` used in an allowed way
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Attribute) and isinstance(node.value, pyast.Name) \
                and node.value.id == "G":
            if node.attr not in g_attrs:
                return None
            allowed_g.add(id(node.value))
        elif isinstance(node, pyast.Call) and isinstance(node.func, pyast.Name) \
                and node.func.id.startswith("v_"):
            callees.add(node.func.id[2:])
            if node.args and isinstance(node.args[0], pyast.Name) and node.args[0].id == "G":
                allowed_g.add(id(node.args[0]))
    for node in pyast.walk(tree):
        if isinstance(node, pyast.Name):
            n = node.id
            if n == "G":
                if id(node) not in allowed_g:
                    return None
            elif not (n.startswith(("l_", "K_", "v_", "RF_", "ZK_")) or n in names):
                return None
    return callees


def compile_pack(model: PackModel, check: CheckResult, optimize: bool = True) -> str:
    return Compiler(model, check, optimize).compile()
