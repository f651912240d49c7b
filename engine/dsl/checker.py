"""Name resolution, types and arity of every rule before anything runs.

The checker annotates expression nodes (by identity) with their type and what each name
refers to; the compiler reads those annotations. It also works out which procedures,
triggers and events may suspend for a player's decision, so that the compiler can turn
everything else into plain Python calls.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.errors import Diagnostic, did_you_mean
from engine.dsl.formatter import format_type
from engine.dsl.model import Effect, PackModel, Site, Trigger, Window
from engine.dsl.pack import KEYWORDS
from engine.dsl.parser import BROKEN_SETUP
from engine.dsl.types import Type

# name -> (min args, max args); the types are checked in `_builtin`
BUILTINS: dict[str, tuple[int, int]] = {
    "count": (1, 1), "sum": (1, 1), "min": (1, 9), "max": (1, 9), "exists": (1, 1),
    "every": (1, 1), "abs": (1, 1), "other": (1, 1), "roll": (2, 2), "lookup": (2, 3),
    "neighbors": (2, 4), "distance": (3, 5), "path": (3, 5), "reachable": (3, 5),
    "edge": (3, 3), "zone_of": (1, 1), "top": (1, 1), "first": (1, 1), "last": (1, 1),
    "sort": (1, 2), "run": (1, 1), "is_revealed": (1, 1), "random_pick": (1, 1),
    "attribute": (2, 2), "contents": (1, 1), "numbers": (2, 2), "take": (2, 2),
}


@attrs.define
class Scope:
    fn: str
    path: str
    vars: list[dict[str, Type]]
    returns: Type | None = None
    loops: int = 0
    self_type: str | None = None
    self_record: str | None = None  # in a record's triggers, `self` is this record
    # why an event's state may not be used here (a state default, a `while` duration)
    no_evstate: str | None = None
    # the `let` that made each local, by (frame, name); every let; the lets that were read
    lets: dict[tuple[int, str], A.Let] = attrs.Factory(dict)
    all_lets: list[A.Let] = attrs.Factory(list)
    frames: list[dict] = attrs.Factory(list)  # frames with a let: kept, so ids stay theirs
    read: set[int] = attrs.Factory(set)

    def lookup(self, name: str) -> Type | None:
        for frame in reversed(self.vars):
            if name in frame:
                return frame[name]
        return None

    def bind(self, name: str, t: Type, let: A.Let | None = None) -> None:
        frame = self.vars[-1]
        frame[name] = t
        if let is not None:
            self.frames.append(frame)
            self.lets[(id(frame), name)] = let
            self.all_lets.append(let)

    def mark_read(self, name: str) -> None:
        """The local `name` is read: its `let` (if any) is used."""
        for frame in reversed(self.vars):
            if name in frame:
                let = self.lets.get((id(frame), name))
                if let is not None:
                    self.read.add(id(let))
                return

    def names(self) -> set[str]:
        return {n for f in self.vars for n in f}


@attrs.define
class CheckResult:
    types: dict[int, Type]
    res: dict[int, tuple]
    suspending_fns: set[str]
    suspending_events: set[str]
    diagnostics: list[Diagnostic]
    modified: set[str] = attrs.Factory(set)  # values some `modify` targets
    # id(call, emit or modify) -> its arguments in parameter order, defaults filled in
    bound: dict[int, tuple] = attrs.Factory(dict)
    const_order: list[str] = attrs.Factory(list)  # consts in the order they are evaluated


class Checker:
    def __init__(self, model: PackModel, sources: dict[str, str]):
        self.m = model
        self.sources = sources
        self.diags: list[Diagnostic] = []
        self.types: dict[int, Type] = {}
        self.res: dict[int, tuple] = {}
        # for the suspension analysis: function -> what it calls / emits / enqueues
        self.calls: dict[str, set[str]] = {}
        self.emits: dict[str, set[str]] = {}
        self.direct_suspend: set[str] = set()
        self.runs_effect: dict[str, set[str]] = {}
        self._fn = ""
        self.proc_calls: list[tuple[A.Call, str, bool]] = []  # (call, path, as a statement)
        self.modified: set[str] = set()
        # for where event state may be used: function -> values it reads and event state
        # defaults it computes (besides `calls`, `emits` and `runs_effect`)
        self.uses: dict[str, set[str]] = {}
        # each use of event state: (function, event, field, written, path, position)
        self.ev_uses: list[tuple[str, str, str, bool, str, A.Pos]] = []
        self.window_types: dict[str, Type] = {}  # window -> the type of what `open` returns
        self._source_lines: dict[str, list[str]] = {}
        self.bound: dict[int, tuple] = {}
        self.const_types: dict[str, Type] = {}
        self._const_busy: list[str] = []
        self.modified: set[str] = set()  # values some `modify` changes
        # expressions that must be constant (consts, parameter defaults): (expr, path, what)
        self.constant_exprs: list[tuple[A.Expr, str, str, str]] = []

    # ---- diagnostics ----------------------------------------------------------------
    def error(self, code: str, message: str, path: str, at: A.Pos | Site,
              suggestion: str | None = None, severity: str = "error") -> None:
        line, col = at.line, at.col
        end = at.end_col if isinstance(at, A.Pos) and at.end_line == at.line else None
        if isinstance(at, Site):
            end = at.end_col
        lines = self._lines(path)
        line_text = lines[line - 1] if 0 < line <= len(lines) else ""
        self.diags.append(Diagnostic(code, message, path, line, col, line_text, end, suggestion,
                                     severity))

    def warn(self, code: str, message: str, path: str, at: A.Pos | Site,
             suggestion: str | None = None) -> None:
        self.error(code, message, path, at, suggestion, "warning")

    # ---- entry ----------------------------------------------------------------------
    def run(self) -> CheckResult:
        m = self.m
        for name, decl in m.enums.items():
            self._check_enum(decl, m.decl_paths[name])
        for name in m.consts:
            self._const_type(name)
        for name, decl in m.vars.items():
            path = m.decl_paths[name]
            sc = self._scope(f"var:{name}", path, decl.params)
            t = T.from_ast(decl.type)
            self._check_type_expr(decl.type, path)
            if decl.default is not None:
                self._expect(decl.default, t, sc, "the default")
            if decl.bounds:
                for b in decl.bounds:
                    self._expect(b, "int", self._scope(f"var:{name}", path, ()), "a bound")
            self._no_defaults(decl.params, path, f"var '{name}'")
            if decl.visibility == "private" and not self._first_param_is_side(decl.params):
                self.error("E230", f"private var '{name}' needs a first parameter of type side "
                           "(whose side may see it)", path, decl.at)
        for info in m.types.values():
            for f in info.fields.values():
                self._check_field_type(f)
                if f.var or info.created:
                    self._check_state_field(info, f)
        for name, z in m.zones.items():
            path = m.decl_paths[name]
            self._no_defaults(z.params, path, f"zone '{name}'")
            for p in z.params:
                self._check_type_expr(p.type, path)
                if T.from_ast(p.type) not in ["side", *m.types, *m.enums]:
                    self.error("E231", f"zone parameter '{p.name}' must be a side, an entity "
                               "type or an enum, so that every zone can be made at setup", path,
                               p.at)
            if z.of and z.of not in m.types:
                self._unknown("E202", "type", z.of, m.types, path, z.at)
            if "private" in z.flags and not self._first_param_is_side(z.params):
                self.error("E230", f"private zone '{name}' needs a first parameter of type side",
                           path, z.at)
        for name, e in m.events.items():
            for p in e.params:
                self._check_type_expr(p.type, m.decl_paths[name])
            self._param_defaults(e.params, m.decl_paths[name], f"event '{name}'")
            if e.state:
                self._event_state(name, e, m.decl_paths[name])
        for name, g in m.graphs.items():
            self._check_graph(g, m.decl_paths[name])
        for w in m.windows.values():  # before any rule that opens one reads its type
            self._window(w)
        for name, v in m.values.items():
            path = m.decl_paths[name]
            sc = self._scope(f"value:{name}", path, v.params)
            self._expect(v.expr, T.from_ast(v.type), sc, "the value")
            self._param_defaults(v.params, path, f"value '{name}'")
        for name, p in m.procs.items():
            path = m.decl_paths[name]
            sc = self._scope(f"p_{name}", path, p.params)
            sc.returns = T.from_ast(p.returns) if p.returns else None
            self._body(p.body, sc)
            self._unused_lets(sc)
            self._param_defaults(p.params, path, f"procedure '{name}'")
        for tr in m.triggers:
            self._trigger(tr)
        for eff in m.effects:
            self._effect(eff)
        for decl, path in m.checks:
            sc = self._scope("check", path, ())
            self._expect(decl.expr, "bool", sc, "a check")
        if (m.playable and BROKEN_SETUP not in m.poisoned
                and "setup" not in {t.decl.event for t in m.triggers if t.decl.kind == "on"}):
            self.diags.append(Diagnostic("E250", "the pack has no 'on setup:' handler, so a game "
                                         "cannot start", self._any_rules_path(), 1, 1))
        self._check_constants()
        const_order = self._const_order()
        fns, evs = self._suspension()
        for call, path, statement in self.proc_calls:
            if not statement and f"p_{call.func}" in fns:
                self.error("E233", f"procedure '{call.func}' may ask a player, so it must be "
                           f"called on its own: 'let x = {call.func}(...)' or a statement", path,
                           call.at)
        self._check_determinize(fns)
        self._check_ev_uses()
        return CheckResult(self.types, self.res, fns, evs, self.diags, modified=self.modified,
                           bound=self.bound, const_order=const_order)

    def _check_determinize(self, suspending: set[str]) -> None:
        """pack.yaml `determinize: NAME` (engine.core.determinize): a procedure of the pack taking
        the imagining side alone, `procedure NAME(s: side)`, that never asks a player: it
        runs on a bot's copy of the game, outside any turn (E345)."""
        if self.m.determinize is None:
            return
        name, site = self.m.determinize
        proc = self.m.procs.get(name)
        if proc is None:
            self._unknown("E345", "procedure", name, self.m.procs, site.path, site,
                          " in 'determinize'")
            return
        params = proc.params
        if len(params) != 1 or T.from_ast(params[0].type) != "side":
            shown = ", ".join(f"{p.name}: {T.show(T.from_ast(p.type))}" for p in params)
            self.error("E345", f"determinize: procedure '{name}({shown})' must take the "
                       f"imagining side alone: procedure {name}(s: side)", site.path, site)
        elif f"p_{name}" in suspending:
            self.error("E345", f"determinize: procedure '{name}' may ask a player; it runs on a "
                       "bot's imagined copy, outside any turn, so it may only set and move "
                       "(random_pick for a choice)", site.path, site)

    def _lines(self, path: str) -> list[str]:
        if path not in self._source_lines:  # split once: a broken pack has hundreds of errors
            self._source_lines[path] = self.sources.get(path, "").splitlines()
        return self._source_lines[path]

    def _any_rules_path(self) -> str:
        return next(iter(self.m.decl_paths.values()), f"{self.m.id}/pack.yaml")

    def _first_param_is_side(self, params: tuple[A.Param, ...]) -> bool:
        return bool(params) and T.from_ast(params[0].type) == "side"

    def _scope(self, fn: str, path: str, params: Iterable[A.Param]) -> Scope:
        self._fn = fn
        self.calls.setdefault(fn, set())
        self.emits.setdefault(fn, set())
        frame = {}
        for p in params:
            self._check_type_expr(p.type, path)
            frame[p.name] = T.from_ast(p.type)
        return Scope(fn, path, [frame])

    def _check_type_expr(self, t: A.TypeExpr, path: str) -> None:
        if isinstance(t, A.TList):
            return self._check_type_expr(t.elem, path)
        if t.name not in T.BASE and t.name not in self.m.types and t.name not in self.m.enums:
            self._unknown("E202", "type", t.name, [*T.BASE, *self.m.types, *self.m.enums], path,
                          t.at)

    def _check_field_type(self, f: Any) -> None:
        """A record field's type names a base type, a declared record type or an enum; the
        default of an enum field is one of its values."""
        t = f.type
        while isinstance(t, tuple):  # list of X
            t = t[1]
        if t not in T.BASE and t not in self.m.types and t not in self.m.enums:
            site = f.type_site or f.site
            self._unknown("E202", "type", t, [*T.BASE, *self.m.types, *self.m.enums], site.path,
                          site)
        if t in self.m.enums and f.default is not None:
            values = self.m.enum_values(t)
            for v in f.default if isinstance(f.default, list) else [f.default]:
                if v not in values:
                    self.error("E280", f"the default {v!r} is not a value of {t} (values: "
                               f"{', '.join(values)})", f.site.path, f.site,
                               did_you_mean(str(v), values))

    # ---- enums, consts, defaults ------------------------------------------------------------
    def _check_enum(self, decl: A.EnumDecl, path: str) -> None:
        seen: set[str] = set()
        for v in decl.values:
            if v.name in seen:
                self.error("E281", f"'{v.name}' is a value of enum '{decl.name}' twice", path,
                           v.at)
            seen.add(v.name)

    def _const_type(self, name: str) -> Type:
        """The type of const `name`, checking its declaration the first time it is asked."""
        if name in self.const_types:
            return self.const_types[name]
        decl, path = self.m.consts[name], self.m.decl_paths[name]
        if name in self._const_busy:
            chain = " -> ".join(self._const_busy[self._const_busy.index(name):] + [name])
            self.error("E282", f"const '{name}' is defined by itself ({chain})", path, decl.at)
            return "any"
        self._const_busy.append(name)
        sc = self._scope(f"const:{name}", path, ())
        if decl.type is not None:
            self._check_type_expr(decl.type, path)
            t = T.from_ast(decl.type)
            self._expect(decl.expr, t, sc, f"const '{name}'")
        else:
            t = self._expr(decl.expr, sc)
            if t == "none":
                self.error("E282", f"give const '{name}' a type: const {name}: T? = none", path,
                           decl.at)
                t = "any"
        self._const_busy.pop()
        self.constant_exprs.append((decl.expr, path, f"const '{name}'", "E282"))
        self.const_types[name] = t
        return t

    def _param_defaults(self, params: tuple[A.Param, ...], path: str, what: str) -> None:
        """Defaults are constants of the parameter's type; none may be missing after one."""
        defaulted = None
        for p in params:
            if p.default is None:
                if defaulted is not None:
                    self.error("E284", f"parameter '{p.name}' of {what} needs a default too, "
                               f"as '{defaulted}' before it has one", path, p.at)
                continue
            defaulted = p.name
            sc = self._scope(f"default:{what}", path, ())
            self._expect(p.default, T.from_ast(p.type), sc, f"the default of '{p.name}'")
            self.constant_exprs.append((p.default, path, f"the default of '{p.name}'", "E284"))

    def _no_defaults(self, params: tuple[A.Param, ...], path: str, what: str) -> None:
        for p in params:
            if p.default is not None:
                self.error("E284", f"an index of {what} has no default: every key exists from "
                           "the start", path, p.default.at)

    def _check_constants(self) -> None:
        """Consts and parameter defaults are worked out without a game: they may not read
        vars, zones or dice, call procedures, or call values that do (or that `modify`
        changes)."""
        for expr, path, what, code in self.constant_exprs:
            found = self._state_read(expr, set())
            if found is not None:
                node, why = found
                self.error(code, f"{what} must be a constant, but {why}", path, node.at,
                           "use literals, consts, records, sides, tables and values that read "
                           "no game state")

    _STATE_BUILTINS = {"roll": "rolls dice", "random_pick": "picks at random",
                       "zone_of": "reads where a card lies",
                       "is_revealed": "reads what is revealed", "contents": "reads a zone",
                       "run": "runs an effect"}

    def _state_read(self, node: Any, seen: set[str]) -> tuple[Any, str] | None:
        """The first part of an expression that depends on the game: (node, why), or None.
        Locals are not: a const or default has none but those of its comprehensions, and a
        value's are its parameters."""
        if isinstance(node, tuple):
            for x in node:
                got = self._state_read(x, seen)
                if got is not None:
                    return got
            return None
        if not attrs.has(type(node)):
            return None
        res = self.res.get(id(node)) if isinstance(node, (A.Name, A.Index, A.Call)) else None
        if res is not None:
            kind = res[0]
            if kind in ("var", "zone"):
                return node, f"it reads {kind} '{res[1]}'"
            if kind == "proc":
                return node, f"it calls procedure '{node.func}'"
            if kind == "builtin" and res[1] in self._STATE_BUILTINS:
                return node, f"'{res[1]}' {self._STATE_BUILTINS[res[1]]}"
            if kind == "value":
                name = res[1]
                if name in self.modified:
                    return node, f"value '{name}' can be changed by 'modify'"
                if name not in seen:
                    seen.add(name)
                    if self._state_read(self.m.values[name].expr, seen) is not None:
                        return node, f"value '{name}' reads the game state"
                args = self.bound.get(id(node), node.args)
                return self._state_read(tuple(a for a in args if a is not None), seen)
        for f in attrs.fields(type(node)):
            if f.name != "at":
                got = self._state_read(getattr(node, f.name), seen)
                if got is not None:
                    return got
        return None

    def _const_order(self) -> list[str]:
        """Consts in an order where each comes after the consts it needs (also through the
        values it calls), for evaluation when the pack loads; a cycle is E282."""
        deps = {n: self._const_deps(d.expr, set()) for n, d in self.m.consts.items()}
        order: list[str] = []
        state: dict[str, int] = {}  # 1 visiting, 2 done

        def visit(n: str, chain: list[str]) -> None:
            if state.get(n) == 2:
                return
            if state.get(n) == 1:
                cycle = chain[chain.index(n):] + [n]
                self.error("E282", f"const '{n}' depends on itself ({' -> '.join(cycle)})",
                           self.m.decl_paths[n], self.m.consts[n].at)
                return
            state[n] = 1
            for d in sorted(deps.get(n, ())):
                visit(d, chain + [n])
            state[n] = 2
            order.append(n)
        for n in self.m.consts:
            visit(n, [])
        return order

    def _const_deps(self, node: Any, seen: set[str]) -> set[str]:
        """The consts an expression needs, directly and through the values it calls."""
        out: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, tuple):
                stack.extend(n)
                continue
            if not attrs.has(type(n)):
                continue
            res = self.res.get(id(n)) if isinstance(n, (A.Name, A.Call)) else None
            if res is not None and res[0] == "kconst":
                out.add(res[1])
            elif res is not None and res[0] == "value":
                stack.extend(a for a in self.bound.get(id(n), ()) if a is not None)
                if res[1] not in seen:
                    seen.add(res[1])
                    stack.append(self.m.values[res[1]].expr)
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)) if f.name != "at")
        return out

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

    def _check_state_field(self, info: Any, f: Any) -> None:
        """A field kept in the game state (a `var` field, or any field of a created type):
        plain data of a checked type; a var field's default and bounds are rules read with
        `self` the record."""
        site = f.type_site or f.site
        if f.type in ("effect", "triggers"):
            what = f"var field '{f.name}'" if f.var else f"field '{f.name}' of created type " \
                f"'{info.name}'"
            self.error("E274", f"{what} cannot hold {f.type}: rules are written in record "
                       "files, which records made in play do not have", site.path, site)
            return
        decl = f.decl
        if decl is None:
            return
        sc = self._scope(f"field:{info.name}.{f.name}", site.path, ())
        sc.bind("self", info.name)
        if decl.default is not None and f.var:
            self._expect(decl.default, f.type, sc, "the default")
        if decl.bounds is not None:
            if f.type != "int":
                self.error("E274", f"bounds need an int field; '{f.name}' is "
                           f"{T.show(f.type)}", site.path, decl.bounds[0].at)
            for b in decl.bounds:
                self._expect(b, "int", sc, "a bound")

    def _check_graph(self, g: A.GraphDecl, path: str) -> None:
        m = self.m
        for tname in (g.node_type, g.edge_type):
            if tname not in m.types:
                self._unknown("E202", "type", tname, m.types, path, g.at)
                return
            if m.types[tname].created:
                self.error("E275", f"graph '{g.name}' cannot be built over '{tname}': its "
                           "records are made in play, a graph is built from the pack's files",
                           path, g.at)
                return
        fields = m.types[g.edge_type].fields
        for end in ("a", "b"):
            if end not in fields or fields[end].type != g.node_type:
                self.error("E232", f"edge type '{g.edge_type}' of graph '{g.name}' needs fields "
                           f"'a' and 'b' of type {g.node_type}", path, g.at)
                return
        if "cost" in fields and fields["cost"].type != "int":
            self.error("E232", f"field 'cost' of '{g.edge_type}' must be an int", path, g.at)
        elif "cost" in fields:
            for rid in m.by_type.get(g.edge_type, ()):
                rec = m.records[rid]
                cost = rec.data.get("cost")
                if isinstance(cost, int) and cost < 0:  # a negative loop has no cheapest path
                    site = rec.field_sites.get("cost", rec.site)
                    self.error("E232", f"{g.edge_type} '{rid}' has cost {cost}: costs of graph "
                               f"'{g.name}' cannot be negative", site.path, site)
        if "kind" in fields and fields["kind"].type != "text" \
                and self._enum(fields["kind"].type) is None:
            self.error("E232", f"field 'kind' of '{g.edge_type}' must be text or an enum", path,
                       g.at)
        if g.where is not None:
            self._graph_filter(g, path)

    def _graph_filter(self, g: A.GraphDecl, path: str) -> None:
        """`graph g of N via E where c => ...`: a condition on each edge record, applied once
        when the pack loads, so it may read the edge's fields and other records, not state."""
        sc = self._scope(f"graph:{g.name}", path, ())
        self._lambda(g.where, g.edge_type, sc, "bool", "filter",
                     f"the filter of graph '{g.name}' receives each {g.edge_type} record")
        for node in _subnodes(g.where.body):
            why = self._not_static(node)
            if why:
                hint = (None if why.startswith("graph") else "to block edges by the state of "
                        f"the game, give the query an edge predicate: "
                        f"{_graph_example('path', g, True)}")
                self.error("E247", f"the filter of graph '{g.name}' is applied once, when the "
                           f"pack loads, so it cannot read {why}", path, node.at, hint)

    def _not_static(self, node: Any) -> str | None:
        """What makes `node` read game state (or chance), or None if it only reads data."""
        res = self.res.get(id(node))
        if isinstance(node, (A.Name, A.Index)) and res and res[0] in ("var", "zone"):
            return f"{res[0]} '{res[1]}', which changes during a game"
        if not isinstance(node, A.Call) or res is None:
            return None
        if res[0] == "proc":
            return f"procedure '{node.func}'"
        if res[0] == "value":
            return f"value '{node.func}', which modifiers and vars may change during a game"
        if node.func in _STATEFUL_BUILTINS:
            return f"'{node.func}', {_STATEFUL_BUILTINS[node.func]}"
        if node.func in _GRAPH_QUERIES and node.args and isinstance(node.args[0], A.Name):
            other = self.m.graphs.get(node.args[0].id)
            if other is not None and other.where is not None:
                return f"graph '{other.name}', itself a filtered graph (built after the others)"
        return None

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
        elif et != "any" and et not in self.m.types:
            self.error("E266", f"window '{d.name}' offers {T.show(et)} values; a window offers "
                       "records (cards), which are moved when played", w.path, d.source.at)
            et = "any"
        self.window_types[d.name] = et

    def _opening_fits(self, tr: Trigger) -> bool:
        """A window's `after e` clause: the event's parameters are the window's, in order."""
        d, m = tr.decl, self.m
        ev = m.events.get(d.event)
        if ev is None:
            self._unknown("E203", "event", d.event, m.events, tr.path, d.at)
            return False
        window = m.windows[tr.window].decl
        want = [T.from_ast(p.type) for p in window.params]
        got = [T.from_ast(p.type) for p in ev.params]
        if want != got:
            shown = lambda ps: ", ".join(f"{p.name}: {T.show(T.from_ast(p.type))}"  # noqa: E731
                                         for p in ps)
            self.error("E268", f"window '{window.name}' cannot open {d.kind} '{d.event}' by "
                       f"itself: the event has parameters ({shown(ev.params)}), the window "
                       f"({shown(window.params)}); they must be the same, in order (or open it "
                       f"with 'open {window.name}(...)' in a trigger)", tr.path, d.at)
            return False
        return True

    def _trigger(self, tr: Trigger) -> None:
        d, path = tr.decl, tr.path
        if tr.window is not None and not self._opening_fits(tr):
            return
        ev = self.m.events.get(d.event)
        params: list[A.Param] = []
        if d.event == "setup":
            ev_params: tuple = ()
        elif ev is None:
            self._unknown("E203", "event", d.event, self.m.events, path, d.at)
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
        sc = self._scope(eff.fn, eff.site.path, ())
        sc.bind("self", eff.type)
        self._body(eff.body, sc)
        self._unused_lets(sc)

    # ---- statements ---------------------------------------------------------------------
    def _body(self, stmts: Iterable[A.Stmt], sc: Scope) -> None:
        for s in stmts:
            self._stmt(s, sc)

    def _block(self, stmts: Iterable[A.Stmt], sc: Scope, binds: dict[str, Type] | None = None
               ) -> None:
        sc.vars.append(dict(binds or {}))
        self._body(stmts, sc)
        sc.vars.pop()

    def _stmt(self, s: A.Stmt, sc: Scope) -> None:
        p = sc.path
        if isinstance(s, A.Let):
            if s.type is not None:
                self._check_type_expr(s.type, p)
                t = T.from_ast(s.type)
                got = self._rhs_as(s.value, t, sc)
                if not T.compatible(t, got):
                    self.error("E220", f"local '{s.name}' is {T.show(t)}, but its value is "
                               f"{T.show(got)}", p, s.value.at)
            else:
                t = self._rhs(s.value, sc)
            if s.name in KEYWORDS:
                self.error("E234", f"'{s.name}' is a keyword of the rules language; choose "
                           "another name", p, s.at)
            sc.bind(s.name, t, s)
        elif isinstance(s, A.Assign):
            want = self._target(s.target, sc)
            got = self._rhs_as(s.value, want, sc) if want is not None else self._rhs(s.value, sc)
            if want is not None and not T.compatible(want, got):
                hint = None
                if want == "none" and isinstance(s.target, A.Name):
                    hint = (f"a local that starts as none needs its type: "
                            f"let {s.target.id}: {T.show(got)}? = none")
                self.error("E220", f"cannot assign {T.show(got)} to {T.show(want)}", p, s.at,
                           hint)
        elif isinstance(s, A.AugAssign):
            want = self._target(s.target, sc)
            got = self._expr(s.value, sc)
            if want is not None and want != "any":
                if want == "int" and got not in ("int", "any"):
                    self.error("E220", f"'{s.op}' needs an int, got {T.show(got)}", p, s.value.at)
                elif want != "int" and not (isinstance(want, tuple) and want[0] == "list"):
                    self.error("E220", f"'{s.op}' works on ints and lists, not {T.show(want)}",
                               p, s.at)
        elif isinstance(s, A.ExprStmt):
            e = s.expr
            if not isinstance(e, A.Call):
                self.error("E221", "this expression does nothing; assign it with 'let' or call "
                           "a procedure", p, e.at)
            self._expr(e, sc, statement=True)
        elif isinstance(s, A.ActionStmt):
            self._rhs(s.action, sc)
        elif isinstance(s, A.Emit):
            self._emit(s, sc)
        elif isinstance(s, A.Move):
            what = self._expr(s.what, sc)
            dest = self._expr(s.dest, sc)
            if not (isinstance(dest, tuple) and dest[0] == "zone") and dest != "any":
                self.error("E222", f"'move' needs a zone to move to, got {T.show(dest)}", p,
                           s.dest.at)
            self._entityish(what, p, s.what.at, "move")
        elif isinstance(s, A.Destroy):
            self._destroy(s, sc)
        elif isinstance(s, A.Shuffle):
            z = self._expr(s.zone, sc)
            if not (isinstance(z, tuple) and z[0] == "zone"):
                self.error("E222", f"'shuffle' needs a zone, got {T.show(z)}", p, s.zone.at)
        elif isinstance(s, A.Reveal):
            self._entityish(self._expr(s.what, sc), p, s.what.at, "reveal")
            if s.to is not None:
                self._expect(s.to, "side", sc, "'reveal to'")
        elif isinstance(s, A.Modify):
            self._modify(s, sc)
        elif isinstance(s, A.SetUntil):
            self._set_until(s, sc)
        elif isinstance(s, A.Win):
            self._expect(s.side, "side", sc, "'win'")
            for a in s.args:
                self._expr(a, sc)
        elif isinstance(s, A.EndGame):
            for a in s.args:
                self._expr(a, sc)
        elif isinstance(s, A.Return):
            if s.value is not None:
                t = self._rhs_as(s.value, sc.returns, sc) if sc.returns else self._expr(
                    s.value, sc)
                if sc.returns is None:
                    self.error("E223", "this procedure declares no return type ('-> type')", p,
                               s.at)
                elif not T.compatible(sc.returns, t):
                    self.error("E220", f"returns {T.show(t)}, declared {T.show(sc.returns)}",
                               p, s.value.at)
        elif isinstance(s, A.Log):
            for a in s.args:
                self._expr(a, sc)
        elif isinstance(s, (A.Break, A.Continue)):
            if sc.loops == 0:
                self.error("E224", f"'{type(s).__name__.lower()}' outside a loop", p, s.at)
        elif isinstance(s, A.If):
            for cond, body in s.branches:
                self._expect(cond, "bool", sc, "a condition")
                self._block(body, sc)
            if s.orelse:
                self._block(s.orelse, sc)
        elif isinstance(s, A.For):
            sc.vars.append({s.var: self._loop_elem(s.source, sc)})
            if s.where is not None:
                self._expect(s.where, "bool", sc, "a filter")
            sc.loops += 1
            self._body(s.body, sc)
            sc.loops -= 1
            sc.vars.pop()
        elif isinstance(s, A.While):
            self._expect(s.cond, "bool", sc, "a condition")
            sc.loops += 1
            self._block(s.body, sc)
            sc.loops -= 1
        elif isinstance(s, A.Repeat):
            self._expect(s.count, "int", sc, "'repeat'")
            sc.loops += 1
            self._block(s.body, sc)
            sc.loops -= 1
        # Pass and EndGame need nothing

    def _loop_elem(self, source: A.Expr, sc: Scope) -> Type:
        """The type of the loop variable over `source` (a list or zone)."""
        src = self._expr(source, sc)
        et = T.elem(src)
        if et is None:
            self.error("E225", f"cannot loop over {T.show(src)}", sc.path, source.at)
            return "any"
        return et

    def _entityish(self, t: Type, path: str, at: A.Pos, verb: str) -> None:
        if t in ("int", "bool", "text"):
            self.error("E222", f"'{verb}' needs cards or other records, got {T.show(t)}", path, at)

    def _emit(self, s: A.Emit, sc: Scope) -> None:
        ev = self.m.events.get(s.event)
        if ev is None:
            self._unknown("E203", "event", s.event, self.m.events, sc.path, s.at)
            for a in (*s.args, *(k.value for k in s.kwargs)):
                self._expr(a, sc)
            return
        self._bind(s, s.args, s.kwargs, ev.params, f"event '{s.event}'", sc, s.at)
        self.emits[sc.fn].add(("enqueue:" if s.queued else "") + s.event)
        if ev.state:  # its state's defaults are computed where it is set off
            self.uses.setdefault(sc.fn, set()).add(f"xstate:{s.event}")

    def _modify(self, s: A.Modify, sc: Scope) -> None:
        v = self.m.values.get(s.key)
        if v is None:
            self._unknown("E204", "value", s.key, self.m.values, sc.path, s.at,
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
        if d.kind == "while":
            outer, sc.no_evstate = sc.no_evstate, (
                "a 'while' duration is read as long as the modifier lasts, after the event "
                "may have ended: copy the state into a local first (let r = EV.FIELD)")
            self._expect(d.cond, "bool", sc, "a 'while' duration")
            sc.no_evstate = outer
            return
        for item in d.items if d.kind == "any" else (d,):
            if item.event not in self.m.events and item.event != "setup":
                self._unknown("E203", "event", item.event, self.m.events, sc.path, item.at)
            if item.count < 1:
                self.error("E242", f"'{item.count} times' never comes: count 1 time or more",
                           sc.path, item.at)

    def _set_until(self, s: A.SetUntil, sc: Scope) -> None:
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

    def _target(self, t: A.Expr, sc: Scope) -> Type | None:
        p = sc.path
        if isinstance(t, A.Name):
            local = sc.lookup(t.id)
            if local is not None:
                self.res[id(t)] = ("local", t.id)
                return local
            var = self.m.vars.get(t.id)
            if var is not None:
                if var.params:
                    self.error("E211", f"var '{t.id}' takes {len(var.params)} index(es): "
                               f"{t.id}[...]", p, t.at)
                self.res[id(t)] = ("var", t.id)
                return T.from_ast(var.type)
            self.error("E226", f"cannot assign to '{t.id}': declare it with 'let' or 'var'", p,
                       t.at, did_you_mean(t.id, [*sc.names(), *self.m.vars]))
            return None
        if (isinstance(t, A.Index) and isinstance(t.obj, A.Name) and t.obj.id in self.m.vars
                and sc.lookup(t.obj.id) is None and self._indexed_var(t.obj.id)):
            self._expr(t, sc)
            return T.from_ast(self.m.vars[t.obj.id].type)
        if isinstance(t, A.Index):
            lt = self._expr(t.obj, sc)
            if isinstance(t.obj, A.Attr) and self.res.get(id(t.obj), ("",))[0] != "field" \
                    and isinstance(self.types.get(id(t.obj.obj)), str) \
                    and self.types[id(t.obj.obj)] in self.m.types:
                return self._field_target(t.obj, sc, self.types[id(t.obj.obj)])  # fixed
            if isinstance(lt, tuple) and lt[0] == "list":
                self._index_args(t, sc)
                self.res[id(t)] = ("list_index",)
                return lt[1]
        if isinstance(t, A.Attr) and self._event_ref(t, sc) is not None:
            return self._set(t, self._ev_field(t, sc, write=True))
        if isinstance(t, A.Attr):
            return self._field_target(t, sc)
        self.error("E226", "cannot assign to this expression", p, t.at)
        return None

    def _field_target(self, t: A.Attr, sc: Scope, rt: Type | None = None) -> Type | None:
        """`x.f = ...`: f must be a `var` field of x's record type (rt: x's type, when
        already known)."""
        p = sc.path
        if rt is None:
            rt = self._expr(t.obj, sc)
        info = self.m.types.get(rt) if isinstance(rt, str) else None
        if info is None:
            if rt != "any":
                self.error("E214", f"{T.show(rt)} has no fields (looking for '.{t.name}')", p,
                           t.at)
            else:
                self.error("E226", f"cannot tell which record type this is, so '.{t.name}' "
                           "cannot be assigned: read it into a local of a known type first", p,
                           t.at)
            return None
        f = info.fields.get(t.name)
        if f is None:
            self._unknown("E205", f"field of {rt}", t.name, [*info.fields, "id", "name"], p,
                          t.at, extra=self._shadow_note(t, sc))
            return None
        if not f.var:
            self.error("E226", f"record fields are data and cannot change during a game: "
                       f"'{t.name}' of {rt} is fixed", p, t.at,
                       f"declare it 'var {t.name}: {T.show(f.type)}' in type {rt} to change "
                       "it in play")
            return None
        self.res[id(t)] = ("field", rt, t.name)
        return f.type

    # ---- actions ------------------------------------------------------------------------
    def _rhs(self, r: A.Rhs, sc: Scope) -> Type:
        if isinstance(r, A.Choose):
            return self._choose(r, sc)
        if isinstance(r, A.Open):
            return self._open(r, sc)
        if isinstance(r, A.Ask):
            self._decider(r.side, sc)
            self.direct_suspend.add(sc.fn)
            self._prompt_args(r.prompt_args, sc)
            return "bool"
        if isinstance(r, A.Order):
            t = self._expr(r.items, sc)
            self._decider(r.by, sc)
            self.direct_suspend.add(sc.fn)
            et = T.elem(t)
            if et is None:
                self.error("E225", f"cannot order {T.show(t)}", sc.path, r.items.at)
            return ("list", et or "any")
        if isinstance(r, A.Create):
            return self._create(r, sc)
        if isinstance(r, A.Draw):
            self._expect(r.count, "int", sc, "'draw'")
            src = self._expr(r.source, sc)
            dst = self._expr(r.dest, sc)
            for z, at in ((src, r.source.at), (dst, r.dest.at)):
                if not (isinstance(z, tuple) and z[0] == "zone"):
                    self.error("E222", f"'draw' needs zones, got {T.show(z)}", sc.path, at)
            return ("list", src[1] if isinstance(src, tuple) else "any")
        return self._expr(r, sc, statement=True)

    def _open(self, o: A.Open, sc: Scope) -> Type:
        w = self.m.windows.get(o.window)
        if w is None:
            self._unknown("E267", "window", o.window, self.m.windows, sc.path, o.at)
            for a in o.args:
                self._expr(a, sc)
            return "any"
        self._args(o.args, [T.from_ast(p.type) for p in w.decl.params],
                   f"window '{o.window}'", sc, o.at)
        self.calls[sc.fn].add(w.fn)  # a window always asks: whoever opens one may wait
        return self.window_types.get(o.window, "any")

    def _create(self, c: A.Create, sc: Scope) -> Type:
        p = sc.path
        info = self.m.types.get(c.type)
        for fi in c.fields:
            self._expr(fi.value, sc)
        if c.dest is not None:
            self._zone_dest(c.dest, c.type, sc, "create")
        if info is None:
            self._unknown("E202", "type", c.type, [t for t, i in self.m.types.items()
                                                    if i.created] or self.m.types, p, c.at)
            return "any"
        if not info.created:
            self.error("E270", f"records of type '{c.type}' come from the pack's record files; "
                       f"only a type declared 'type {c.type} created' has records made in play",
                       p, c.at)
            return c.type
        given = set()
        for fi in c.fields:
            f = info.fields.get(fi.name)
            given.add(fi.name)
            if f is None:
                self._unknown("E205", f"field of {c.type}", fi.name, info.fields, p, fi.at)
            elif not T.compatible(f.type, self.types.get(id(fi.value), "any")):
                self.error("E220", f"field '{fi.name}' of {c.type} is {T.show(f.type)}, got "
                           f"{T.show(self.types.get(id(fi.value)))}", p, fi.value.at)
        missing = [f.name for f in info.fields.values()
                   if not f.optional and f.name not in given]
        if missing:
            self.error("E272", f"'create {c.type}' needs {', '.join(missing)} (field"
                       f"{'s' * (len(missing) > 1)} without a default)", p, c.at)
        return c.type

    def _zone_dest(self, dest: A.Expr, holds: str, sc: Scope, verb: str) -> None:
        """The zone `verb` puts a record of type `holds` in."""
        z = self._expr(dest, sc)
        if not (isinstance(z, tuple) and z[0] == "zone") and z != "any":
            self.error("E222", f"'{verb}' needs a zone to put it in, got {T.show(z)}", sc.path,
                       dest.at)
        elif isinstance(z, tuple) and z[1] not in ("any", holds):
            self.error("E220", f"a zone of {z[1]} cannot hold a {holds}", sc.path, dest.at)

    def _destroy(self, s: A.Destroy, sc: Scope) -> None:
        t = self._expr(s.what, sc)
        et = T.elem(t) if isinstance(t, tuple) else t
        if et in ("any", "none"):
            return
        info = self.m.types.get(et) if isinstance(et, str) else None
        if info is None or not info.created:
            what = f"'{et}' records come from the pack's record files" if info else \
                f"got {T.show(t)}"
            self.error("E271", f"'destroy' takes records of a created type ('type T created'); "
                       f"{what}", sc.path, s.what.at)

    def _rhs_as(self, r: A.Rhs, want: Type, sc: Scope) -> Type:
        """The type of a right-hand side that should be `want`: a text literal becomes a
        value of an enum there (E280 if it is none of its values)."""
        if isinstance(r, A.ACTIONS):
            return self._rhs(r, sc)
        got = self._coerce(r, want, sc)
        return got if got is not None else self._rhs(r, sc)

    def _prompt_args(self, args: tuple[A.Expr, ...], sc: Scope) -> None:
        for a in args:
            self._expr(a, sc)

    def _decider(self, e: A.Expr | None, sc: Scope) -> None:
        if e is not None:
            self._expect(e, "side", sc, "the deciding side ('by')")

    def _choose(self, c: A.Choose, sc: Scope) -> Type:
        self.direct_suspend.add(sc.fn)
        src = self._expr(c.source, sc)
        et = T.elem(src)
        if et is None:
            self.error("E225", f"cannot choose from {T.show(src)}", sc.path, c.source.at)
            et = "any"
        if c.by is None:
            if "active" not in self.m.vars:
                self.error("E227", "say who decides with 'by <side>' (or declare 'var active: "
                           "side')", sc.path, c.at)
        else:
            self._decider(c.by, sc)
        if c.count is not None:
            if c.count.low is not None:
                self._expect(c.count.low, "int", sc, "a count")
            self._expect(c.count.high, "int", sc, "a count")
        elif c.each:
            self.error("E286", "'one at a time' picks several items: give the count, as in "
                       f"'choose 3 {c.var} from ... one at a time' or 'choose up to 3 ...'",
                       sc.path, c.at)
        self._prompt_args(c.prompt_args, sc)
        if c.where is not None:
            sc.vars.append({c.var: et})
            self._expect(c.where, "bool", sc, "a 'where' filter")
            sc.vars.pop()
        result: Type = et if c.count is None else ("list", et)
        if c.require is not None:
            sc.vars.append({c.var: result})
            self._expect(c.require, "bool", sc, "a 'require' condition")
            sc.vars.pop()
        return result

    # ---- expressions ------------------------------------------------------------------------
    def _expect(self, e: A.Expr, want: Type, sc: Scope, what: str) -> Type:
        if want == "table" and isinstance(e, A.Name) and self._table_id(e.id, sc):
            self.res[id(e)] = ("const", e.id)  # where a table is expected, tables are named
            return self._set(e, "table")
        got = self._coerce(e, want, sc)
        if got is not None:
            return got
        got = self._expr(e, sc)
        if want == "bool":
            return got  # any value is usable as a truth value; none and 0 are false
        if not T.compatible(want, got):
            self.error("E220", f"{what} must be {T.show(want)}, got {T.show(got)}", sc.path, e.at)
        return got

    def _table_id(self, n: str, sc: Scope) -> bool:
        rec = self.m.records.get(n)
        return rec is not None and rec.type == "table" and sc.lookup(n) is None

    def _enum(self, t: Type) -> str | None:
        """The enum `t` is, or None."""
        return t if isinstance(t, str) and t in self.m.enums else None

    @staticmethod
    def _texty(e: A.Expr) -> bool:
        """Is `e` text written out: a string, a list of them, or a choice between them?"""
        if isinstance(e, A.Str):
            return True
        if isinstance(e, A.ListLit):
            return bool(e.items) and all(Checker._texty(i) for i in e.items)
        if isinstance(e, A.IfExp):
            return Checker._texty(e.then) and Checker._texty(e.orelse)
        return False

    def _coerce(self, e: A.Expr, want: Type, sc: Scope) -> Type | None:
        """Where a value of enum E is expected, a string literal is one of E's values
        (E280 with a did-you-mean if not); so are the items of a list literal where a
        list of E is expected. Returns the type given, or None when `e` is no such literal."""
        enum = self._enum(want)
        if enum is not None and isinstance(e, A.Str):
            values = self.m.enum_values(enum)
            if e.value not in values:
                self.error("E280", f"'{e.value}' is not a value of {enum} (values: "
                           f"{', '.join(values)})", sc.path, e.at, did_you_mean(e.value, values))
            return self._set(e, enum)
        if isinstance(e, A.IfExp) and (enum is not None or self._enum(T.elem(want))) \
                and (self._texty(e.then) or self._texty(e.orelse)):
            self._expect(e.cond, "bool", sc, "a condition")
            for branch in (e.then, e.orelse):
                self._expect(branch, want, sc, "a branch")
            return self._set(e, want)
        if isinstance(e, A.ListLit) and isinstance(want, tuple) and want[0] == "list" \
                and self._enum(want[1]) and self._texty(e):
            for item in e.items:
                self._coerce(item, want[1], sc)
            return self._set(e, ("list", want[1]))
        return None

    def _set(self, e: Any, t: Type) -> Type:
        self.types[id(e)] = t
        return t

    def _expr(self, e: A.Expr, sc: Scope, statement: bool = False) -> Type:
        p = sc.path
        if isinstance(e, A.Int):
            return self._set(e, "int")
        if isinstance(e, A.Str):
            return self._set(e, "text")
        if isinstance(e, A.Bool):
            return self._set(e, "bool")
        if isinstance(e, A.NoneLit):
            return self._set(e, "none")
        if isinstance(e, A.Name):
            return self._set(e, self._name(e, sc))
        if isinstance(e, A.Index):
            return self._set(e, self._index(e, sc))
        if isinstance(e, A.Attr):
            return self._set(e, self._attr(e, sc))
        if isinstance(e, A.Call):
            return self._set(e, self._call(e, sc, statement))
        if isinstance(e, A.BinOp):
            lt, rt = self._expr(e.left, sc), self._expr(e.right, sc)
            if e.op == "+" and isinstance(lt, tuple) and isinstance(rt, tuple):
                return self._set(e, ("list", T.unify(lt[1], rt[1])))
            if e.op == "+" and lt == rt == "text":
                return self._set(e, "text")
            for t, side in ((lt, e.left), (rt, e.right)):
                if t not in ("int", "any"):
                    self.error("E220", f"'{e.op}' needs ints, got {T.show(t)}", p, side.at)
            return self._set(e, "int")
        if isinstance(e, A.Compare):
            lt, rt = self._compared(e, sc)
            if e.op in ("in", "not in"):
                et = T.elem(rt)
                if et is None:
                    self.error("E225", f"'{e.op}' needs a list or zone on the right, got "
                               f"{T.show(rt)}", p, e.right.at)
                elif not T.compatible(et, lt) and not T.compatible(lt, et):
                    self.error("E220", f"{T.show(lt)} is never in {T.show(rt)}", p, e.at)
            elif e.op in ("==", "!="):
                if not (T.compatible(lt, rt) or T.compatible(rt, lt)):
                    self.error("E220", f"comparing {T.show(lt)} with {T.show(rt)} is always "
                               f"{'false' if e.op == '==' else 'true'}", p, e.at)
            else:
                for t, side in ((lt, e.left), (rt, e.right)):
                    if t not in ("int", "any"):
                        self.error("E220", f"'{e.op}' needs ints, got {T.show(t)}", p, side.at)
            return self._set(e, "bool")
        if isinstance(e, A.BoolOp):
            for i in e.items:
                self._expr(i, sc)
            return self._set(e, "bool")
        if isinstance(e, A.Not):
            self._expr(e.expr, sc)
            return self._set(e, "bool")
        if isinstance(e, A.Neg):
            t = self._expr(e.expr, sc)
            if t not in ("int", "any"):
                self.error("E220", f"'-' needs an int, got {T.show(t)}", p, e.at)
            return self._set(e, "int")
        if isinstance(e, A.ListLit):
            t: Type = "none"
            for i in e.items:
                t = T.unify(t, self._expr(i, sc))
            return self._set(e, ("list", "any" if t == "none" else t))
        if isinstance(e, A.Comprehension):
            sc.vars.append({e.var: self._loop_elem(e.source, sc)})
            if e.cond is not None:
                self._expect(e.cond, "bool", sc, "a filter")
            out = self._expr(e.expr, sc)
            sc.vars.pop()
            return self._set(e, ("list", out))
        if isinstance(e, A.IfExp):
            self._expect(e.cond, "bool", sc, "a condition")
            return self._set(e, T.unify(self._expr(e.then, sc), self._expr(e.orelse, sc)))
        if isinstance(e, A.Lambda):
            self.error("E228", "'x => ...' is only allowed as an argument of a graph query or "
                       "sort", p, e.at)
            return self._set(e, "any")
        raise AssertionError(f"unknown expression {e!r}")  # pragma: no cover

    def _compared(self, e: A.Compare, sc: Scope) -> tuple[Type, Type]:
        """The types of both sides of a comparison: text written out on one side is read
        as values of the enum on the other (`s.kind == "plain"`, `k in ["a", "b"]`)."""
        member = e.op in ("in", "not in")
        if self._texty(e.right) and not self._texty(e.left):
            lt = self._expr(e.left, sc)
            want = ("list", lt) if member else lt
            rt = self._coerce(e.right, want, sc)
            return lt, rt if rt is not None else self._expr(e.right, sc)
        if self._texty(e.left) and not self._texty(e.right):
            rt = self._expr(e.right, sc)
            lt = self._coerce(e.left, T.elem(rt) if member else rt, sc)
            return lt if lt is not None else self._expr(e.left, sc), rt
        return self._expr(e.left, sc), self._expr(e.right, sc)

    def _name(self, e: A.Name, sc: Scope) -> Type:
        m, n = self.m, e.id
        local = sc.lookup(n)
        if local is not None:
            self.res[id(e)] = ("local", n)
            sc.mark_read(n)
            return local
        if n in m.consts:
            self.res[id(e)] = ("kconst", n)
            return self._const_type(n)
        if n in m.enums:
            self.res[id(e)] = ("enum_all", n)
            return ("list", n)
        if n == "self" and sc.self_record is not None:
            self.res[id(e)] = ("const", sc.self_record)
            return sc.self_type or "any"
        if n in m.vars:
            v = m.vars[n]
            if v.params:
                self.error("E211", f"var '{n}' needs {len(v.params)} index(es): {n}[...]",
                           sc.path, e.at)
            self.res[id(e)] = ("var", n)
            return T.from_ast(v.type)
        if n in m.zones:
            z = m.zones[n]
            if z.params:
                self.error("E211", f"zone '{n}' needs {len(z.params)} index(es): {n}[...]",
                           sc.path, e.at)
            self.res[id(e)] = ("zone", n)
            return ("zone", z.of or "any")
        if n in m.sides:
            self.res[id(e)] = ("const", n)
            return "side"
        if n in m.records and not m.own_namespace(m.records[n].type):
            self.res[id(e)] = ("const", n)
            return m.records[n].type
        if n in m.types:
            self.res[id(e)] = ("all", n)
            return ("list", n)
        if n in m.graphs:
            self.res[id(e)] = ("const", n)
            return "graph"
        if n == "sides":
            self.res[id(e)] = ("sides",)
            return ("list", "side")
        if n in m.events:
            state = m.events[n].state
            self.error("E262", f"'{n}' is an event, not a value" + (
                f": read its state as {n}.{state[0].name}" if state else ""), sc.path, e.at)
            return "any"
        if n in m.records and (n not in m.procs and n not in m.values):
            t = m.records[n].type
            what = ("a table: its id names it only where a table is expected" if t == "table"
                    else f"a glossary term ({t}): terms are no names in rules")
            self.error("E339", f"'{n}' is {what}", sc.path, e.at,
                       f"write {t}.{n}" + (f", or name it where a table is expected: "
                                           f"lookup({n}, ...)" if t == "table" else ""))
            return "any"
        if n in m.procs or n in m.values:
            self.error("E212", f"'{n}' is a {'procedure' if n in m.procs else 'value'}: call it "
                       f"as {n}(...)", sc.path, e.at)
            return "any"
        self._unknown("E201", "name", n, [*sc.names(), *m.global_names(), "sides"], sc.path, e.at)
        return "any"

    def _indexed_var(self, name: str) -> bool:
        """Is `name[...]` an index into the var (not an item of a list held in it)?"""
        v = self.m.vars[name]
        return bool(v.params) or not isinstance(T.from_ast(v.type), tuple)

    def _index_args(self, e: A.Index, sc: Scope) -> None:
        for a in e.args:
            self._expr(a, sc)

    def _index(self, e: A.Index, sc: Scope) -> Type:
        m = self.m
        if isinstance(e.obj, A.Name) and sc.lookup(e.obj.id) is None:
            n = e.obj.id
            if n in m.vars and self._indexed_var(n):
                v = m.vars[n]
                self._args(e.args, [T.from_ast(p.type) for p in v.params], f"var '{n}'", sc, e.at)
                self.res[id(e)] = ("var", n)
                return T.from_ast(v.type)
            if n in m.zones:
                z = m.zones[n]
                self._args(e.args, [T.from_ast(p.type) for p in z.params], f"zone '{n}'", sc,
                           e.at)
                self.res[id(e)] = ("zone", n)
                return ("zone", z.of or "any")
        t = self._expr(e.obj, sc)
        self._index_args(e, sc)
        if isinstance(t, tuple) and t[0] == "list" and len(e.args) == 1:
            if self.types.get(id(e.args[0])) not in ("int", "any"):
                self.error("E220", "a list index must be an int", sc.path, e.args[0].at)
            self.res[id(e)] = ("list_index",)
            return t[1]
        if t != "any":
            self.error("E213", f"cannot index {T.show(t)}", sc.path, e.at)
        self.res[id(e)] = ("list_index",)
        return "any"

    def _attr(self, e: A.Attr, sc: Scope) -> Type:
        if self._event_ref(e, sc) is not None:
            return self._ev_field(e, sc, write=False)
        qualified = self._qualified(e, sc)
        if qualified is not None:
            return qualified
        o = e.obj
        if isinstance(o, A.Name) and o.id in self.m.enums and sc.lookup(o.id) is None:
            values = self.m.enum_values(o.id)  # `kind.plain`: a value of enum `kind`
            if e.name not in values:
                self.error("E280", f"enum {o.id} has no value '{e.name}' (values: "
                           f"{', '.join(values)})", sc.path, e.at, did_you_mean(e.name, values))
            self.res[id(e)] = ("enum_value", e.name)
            return o.id
        t = self._expr(e.obj, sc)
        if e.name in ("id", "name") and isinstance(t, str) and t in self.m.types:
            return "text"  # `name` is the record's English name, or its id
        if t == "any":
            return "any"
        info = self.m.types.get(t) if isinstance(t, str) else None
        if info is None:
            self.error("E214", f"{T.show(t)} has no fields (looking for '.{e.name}')"
                       f"{self._shadow_note(e, sc)}", sc.path, e.at)
            return "any"
        f = info.fields.get(e.name)
        if f is None:
            self._unknown("E205", f"field of {t}", e.name, [*info.fields, "id", "name"], sc.path,
                          e.at, extra=self._shadow_note(e, sc))
            return "any"
        if f.var:
            self.res[id(e)] = ("field", t, e.name)  # `x.f[i] = v` stores the new list back
        return f.type

    # ---- event state ----------------------------------------------------------------------
    def _event_state(self, name: str, e: A.EventDecl, path: str) -> None:
        """The `with` fields of an event: known types, once each, defaults that fit."""
        sc = self._scope(f"xstate:{name}", path, ())  # the parameters' types are checked
        sc.vars[0].update({p.name: T.from_ast(p.type) for p in e.params})
        sc.no_evstate = ("a state's defaults are computed before the event starts, where its "
                         "state does not exist yet")
        seen: set[str] = set()
        for f in e.state:
            self._check_type_expr(f.type, path)
            t = T.from_ast(f.type)
            if f.name in seen:
                self.error("E260", f"event '{name}' declares state field '{f.name}' twice", path,
                           f.at)
            seen.add(f.name)
            if t in ("effect", "triggers"):
                self.error("E260", f"an event's state holds game data, not {t}", path, f.type.at)
            if f.default is not None:
                self._expect(f.default, t, sc, f"the default of {name}.{f.name}")

    def _event_ref(self, e: A.Attr, sc: Scope) -> str | None:
        """The event whose state `e` (`battle.rounds`) reads, or None. A local of the same
        name wins; no other global name can equal an event's (the pack refuses that)."""
        obj = e.obj
        if isinstance(obj, A.Name) and obj.id in self.m.events and sc.lookup(obj.id) is None:
            return obj.id
        return None

    def _shadow_note(self, e: A.Attr, sc: Scope) -> str:
        obj = e.obj
        if isinstance(obj, A.Name) and obj.id in self.m.events and self.m.events[obj.id].state:
            return (f" (the local '{obj.id}' hides the state of event '{obj.id}': a local wins; "
                    "rename it)")
        return ""

    def _ev_field(self, e: A.Attr, sc: Scope, write: bool) -> Type:
        """`battle.rounds`: a field of the innermost running instance of event `battle`."""
        ev = e.obj.id  # type: ignore[union-attr]
        state = self.m.events[ev].state
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
        for tr in self.m.triggers:
            handlers.setdefault(tr.decl.event, []).append(tr.fn)
        effects: dict[str, list[str]] = {}
        for eff in self.m.effects:
            effects.setdefault(eff.field, []).append(eff.fn)
        todo = list(handlers.get(ev, ())) + [f"value:{name}" for name in self.m.values]
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
        for tr in self.m.triggers:
            if tr.fn == fn:
                d = tr.decl
                return f"trigger '{'instead of' if d.kind == 'instead' else d.kind} {d.event}'"
        for eff in self.m.effects:
            if eff.fn == fn:
                return f"the {eff.field} of {eff.record}"
        if fn.startswith("p_"):
            return f"procedure '{fn[2:]}'"
        kind, _, name = fn.partition(":")
        return {"value": f"value '{name}'", "var": f"the default of var '{name}'",
                "check": "a check"}.get(kind, fn)

    def _qualified(self, e: A.Attr, sc: Scope) -> Type | None:
        """`type.id`: the record `id` of that type (how rules name tables and glossary
        terms outside their own places); None when `e` is no such form."""
        obj = e.obj
        if not (isinstance(obj, A.Name) and obj.id in self.m.types and sc.lookup(obj.id) is None
                and e.name not in ("id", "name")):
            return None
        rec = self.m.records.get(e.name)
        self._set(obj, ("list", obj.id))
        self.res[id(obj)] = ("all", obj.id)
        if rec is None or rec.type != obj.id:
            self._unknown("E339", f"{obj.id}", e.name, self.m.by_type.get(obj.id, []), sc.path,
                          e.at)
            return "any"
        self.res[id(e)] = ("const", e.name)
        return obj.id

    def _args(self, args: tuple[A.Expr, ...], want: list[Type], what: str, sc: Scope,
              at: A.Pos) -> list[Type]:
        if len(args) != len(want):
            self.error("E210", f"{what} takes {len(want)} argument(s), got {len(args)}",
                       sc.path, at)
        got = []
        for i, a in enumerate(args):
            if i < len(want):
                got.append(self._expect(a, want[i], sc, f"argument {i + 1} of {what}"))
            else:
                got.append(self._expr(a, sc))
        return got

    def _bind(self, node: Any, args: tuple[A.Expr, ...], kwargs: tuple[A.KwArg, ...],
              params: tuple[A.Param, ...], what: str, sc: Scope, at: A.Pos) -> None:
        """Match a call's arguments to the parameters: by position, then by name (E283 for
        an unknown name, a parameter given twice, or one left out without a default), and
        keep them in parameter order, defaults filled in, for the compiler."""
        names = [p.name for p in params]
        slots: list[A.Expr | None] = [None] * len(params)
        if len(args) > len(params):
            self.error("E210", f"{what} takes {len(params)} argument(s), got "
                       f"{len(args) + len(kwargs)}", sc.path, at)
        for i, a in enumerate(args):
            if i < len(params):
                slots[i] = a
                self._expect(a, T.from_ast(params[i].type), sc, f"argument {i + 1} of {what}")
            else:
                self._expr(a, sc)
        for k in kwargs:
            if k.name not in names:
                self.error("E283", f"{what} has no parameter '{k.name}' (parameters: "
                           f"{', '.join(names) or 'none'})", sc.path, k.at,
                           did_you_mean(k.name, names))
                self._expr(k.value, sc)
                continue
            i = names.index(k.name)
            if slots[i] is not None:
                self.error("E283", f"'{k.name}' is given twice" + (
                           " (also by position)" if i < len(args) else ""), sc.path, k.at)
                self._expr(k.value, sc)
                continue
            slots[i] = k.value
            self._expect(k.value, T.from_ast(params[i].type), sc, f"argument '{k.name}' of {what}")
        missing = [p.name for p, a in zip(params, slots) if a is None and p.default is None]
        if missing and not kwargs and len(args) <= len(params) and not any(
                p.default is not None for p in params):
            self.error("E210", f"{what} takes {len(params)} argument(s), got {len(args)}",
                       sc.path, at)
        elif missing:
            self.error("E283", f"{what} needs {', '.join(repr(n) for n in missing)}: "
                       f"{'it has' if len(missing) == 1 else 'they have'} no default", sc.path, at)
        self.bound[id(node)] = tuple(a if a is not None else p.default
                                     for p, a in zip(params, slots))

    def _call(self, e: A.Call, sc: Scope, statement: bool) -> Type:
        m, n = self.m, e.func
        if n in m.procs:
            p = m.procs[n]
            self._bind(e, e.args, e.kwargs, p.params, f"procedure '{n}'", sc, e.at)
            self.calls[sc.fn].add(f"p_{n}")
            self.res[id(e)] = ("proc", n, statement)
            self.proc_calls.append((e, sc.path, statement))
            return T.from_ast(p.returns) if p.returns else "none"
        if n in m.values:
            v = m.values[n]
            self._bind(e, e.args, e.kwargs, v.params, f"value '{n}'", sc, e.at)
            self.res[id(e)] = ("value", n)
            self.uses.setdefault(sc.fn, set()).add(f"value:{n}")
            return T.from_ast(v.type)
        if e.kwargs:  # built-ins take their arguments by position
            if n in BUILTINS:
                self.error("E283", f"'{n}' takes its arguments by position, not by name",
                           sc.path, e.kwargs[0].at)
            for k in e.kwargs:
                self._expr(k.value, sc)
        if n in BUILTINS:
            lo, hi = BUILTINS[n]
            if not lo <= len(e.args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                self.error("E210", f"'{n}' takes {want} argument(s), got {len(e.args)}", sc.path,
                           e.at)
                for a in e.args:
                    if not isinstance(a, A.Lambda):
                        self._expr(a, sc)
                return "any"
            self.res[id(e)] = ("builtin", n)
            return self._builtin(e, sc, statement)
        self._unknown("E206", "procedure or function", n,
                      [*m.procs, *m.values, *BUILTINS], sc.path, e.at)
        for a in e.args:
            if not isinstance(a, A.Lambda):
                self._expr(a, sc)
        return "any"

    def _lambda(self, lam: A.Expr, param_t: Type, sc: Scope, want: Type,
                what: str = "function", hint: str | None = None) -> None:
        """A lambda argument: its parameter has the type of what the caller passes it
        (`param_t`); an annotation `(x: T) => ...` must agree with that."""
        if not isinstance(lam, A.Lambda):
            self.error("E228", "expected 'x => condition' here", sc.path, lam.at)
            self._expr(lam, sc)
            return
        if lam.type is not None:
            said = self._annotation(lam, param_t, sc, what, hint)
            if said is not None:  # the same, more precise, or reported: check the body by it
                param_t = said
        sc.vars.append({lam.param: param_t})
        self._expect(lam.body, want, sc, f"the {what}")
        sc.vars.pop()

    def _annotation(self, lam: A.Lambda, param_t: Type, sc: Scope, what: str,
                    hint: str | None) -> Type | None:
        """The type an annotated lambda says its parameter has, reported (E245) when it is
        not what the lambda receives there; None when the annotation names no known type."""
        assert lam.type is not None
        self._check_type_expr(lam.type, sc.path)
        said = T.from_ast(lam.type)
        base = said
        while isinstance(base, tuple):
            base = base[1]
        if base not in T.BASE and base not in self.m.types:
            return None  # reported above
        if not T.compatible(said, param_t):
            self.error("E245", f"this {what} receives {_a(param_t)}, not {_a(said)}", sc.path,
                       lam.type.at, hint)
        return said

    def _builtin(self, e: A.Call, sc: Scope, statement: bool) -> Type:
        n, args, p = e.func, e.args, sc.path
        ex = self._expr
        if n == "run":
            a = args[0]
            if not (isinstance(a, A.Attr)):
                self.error("E229", "'run' takes an effect field: run(card.event)", p, a.at)
                return "none"
            rt = ex(a.obj, sc)
            info = self.m.types.get(rt) if isinstance(rt, str) else None
            f = info.fields.get(a.name) if info else None
            if f is None or f.type != "effect":
                self.error("E229", f"'{a.name}' is not an effect field of {T.show(rt)}", p, a.at)
                return "none"
            self.runs_effect.setdefault(sc.fn, set()).add(a.name)
            self.res[id(e)] = ("builtin", "run", statement, a.name)
            return "none"
        if n in ("count", "exists", "every"):
            t = ex(args[0], sc)
            if T.elem(t) is None:
                self.error("E225", f"'{n}' needs a list or zone, got {T.show(t)}", p, args[0].at)
            return "int" if n == "count" else "bool"
        if n == "sum":
            t = ex(args[0], sc)
            if T.elem(t) not in ("int", "any"):
                self.error("E225", f"'sum' needs a list of ints, got {T.show(t)}", p, args[0].at)
            return "int"
        if n in ("min", "max"):
            if len(args) == 1:
                t = ex(args[0], sc)
                et = T.elem(t)
                if et is None:
                    self.error("E225", f"'{n}' of one argument needs a list, got {T.show(t)}", p,
                               args[0].at)
                    return "any"
                return et
            for a in args:
                self._expect(a, "int", sc, f"an argument of '{n}'")
            return "int"
        if n == "abs":
            self._expect(args[0], "int", sc, "'abs'")
            return "int"
        if n == "other":
            self._expect(args[0], "side", sc, "'other'")
            if len(self.m.sides) != 2:
                self.error("E215", "'other' needs a game of exactly two sides", p, e.at)
            return "side"
        if n == "roll":
            for a in args:
                self._expect(a, "int", sc, "'roll'")
            return "int"
        if n == "lookup":
            self._expect(args[0], "table", sc, "the table of 'lookup'")
            for a in args[1:]:
                ex(a, sc)
            return "any"
        if n in ("neighbors", "distance", "path", "reachable", "edge"):
            return self._graph_call(e, sc)
        if n == "zone_of":
            ex(args[0], sc)
            return "text"
        if n in ("top", "first", "last", "random_pick"):
            t = ex(args[0], sc)
            et = T.elem(t)
            if et is None:
                self.error("E225", f"'{n}' needs a list or zone, got {T.show(t)}", p, args[0].at)
                return "any"
            return et
        if n == "contents":
            t = ex(args[0], sc)
            if not (isinstance(t, tuple) and t[0] == "zone"):
                self.error("E222", f"'contents' needs a zone, got {T.show(t)}", p, args[0].at)
                return ("list", "any")
            return ("list", t[1])
        if n == "sort":
            t = ex(args[0], sc)
            et = T.elem(t)
            if et is None:
                self.error("E225", f"'sort' needs a list, got {T.show(t)}", p, args[0].at)
                et = "any"
            if len(args) == 2:
                self._lambda(args[1], et, sc, "int", "function",
                             "'sort' gives its function each item of the list")
            return ("list", et)
        if n == "numbers":
            self._expect(args[0], "int", sc, "the first number")
            self._expect(args[1], "int", sc, "the last number")
            return ("list", "int")
        if n == "take":
            t = ex(args[0], sc)
            self._expect(args[1], "int", sc, "how many to take")
            et = T.elem(t)
            if et is None:
                self.error("E225", f"'take' needs a list or zone, got {T.show(t)}", p, args[0].at)
                et = "any"
            return ("list", et)
        if n == "is_revealed":
            ex(args[0], sc)
            return "bool"
        if n == "attribute":
            ex(args[0], sc)
            self._expect(args[1], "text", sc, "a field name")
            return "any"
        raise AssertionError(n)  # pragma: no cover

    def _graph_call(self, e: A.Call, sc: Scope) -> Type:
        n, args, p = e.func, e.args, sc.path
        g = args[0]
        gdecl = self.m.graphs.get(g.id) if isinstance(g, A.Name) else None
        if gdecl is None:
            if isinstance(g, A.Name):
                self._unknown("E207", "graph", g.id, self.m.graphs, p, g.at)
            else:
                self.error("E207", f"'{n}' needs a graph name first", p, g.at)
            for a in args[1:]:
                if not isinstance(a, A.Lambda):
                    self._expr(a, sc)
            return "any"
        self.res[id(g)] = ("const", g.id)
        node = gdecl.node_type
        self._expect(args[1], node, sc, f"a {node}")
        if n == "edge":
            self._expect(args[2], node, sc, f"a {node}")
            return gdecl.edge_type
        if n == "neighbors":
            first = 2  # neighbors(g, x, kinds or node predicate, edge predicate)
            if len(args) > 2 and not isinstance(args[2], A.Lambda):
                info = self.m.types.get(gdecl.edge_type)  # a kind, a list of kinds, or none
                kind = info.fields.get("kind") if info is not None else None
                self._edge_kinds(args[2], kind.type if kind else "text", sc)
                first = 3
        else:
            if n == "reachable":
                self._expect(args[2], "int", sc, "the cost limit")
            else:
                self._expect(args[2], node, sc, f"a {node}")
            first = 3
        for i in range(first, len(args)):
            self._graph_predicate(e, gdecl, i, sc)
        return {"neighbors": ("list", node), "distance": "int", "path": ("list", node),
                "reachable": ("list", node)}[n]

    def _graph_predicate(self, e: A.Call, g: A.GraphDecl, i: int, sc: Scope) -> None:
        """Argument i of a graph query: the predicate saying which nodes are blocked, then
        the one saying which edges are blocked (graph_slots); `none` where there is none."""
        arg = e.args[i]
        if isinstance(arg, A.NoneLit):
            self._expr(arg, sc)
            return
        on_edges = i == graph_slots(e.func)[1]
        blocks, other = (g.edge_type, g.node_type) if on_edges else (g.node_type, g.edge_type)
        hint = (f"in '{e.func}', the {'second' if on_edges else 'first'} predicate says which "
                f"{blocks} is blocked; the {other} predicate comes "
                f"{'before' if on_edges else 'after'} it: "
                f"{_graph_example(e.func, g, not on_edges)}")
        self._lambda(arg, blocks, sc, "bool", "predicate", hint)
        if not on_edges and isinstance(arg, A.Lambda) and arg.type is None:
            self._edge_test_on_node(arg, e, g, sc)

    def _edge_test_on_node(self, lam: A.Lambda, e: A.Call, g: A.GraphDecl, sc: Scope) -> None:
        """A node predicate comparing a field with a text that no node holds but edges do
        (`n => n.kind == "pass"`) was meant for edges (E246)."""
        nodes, edges = self.m.types.get(g.node_type), self.m.types.get(g.edge_type)
        if nodes is None or edges is None:
            return
        for field, text, at in _literal_tests(lam.body, lam.param):
            if field not in nodes.fields or field not in edges.fields:
                continue
            if (text in self._field_values(g.node_type, field)
                    or text not in self._field_values(g.edge_type, field)):
                continue
            self.error("E246", f"this predicate receives a {g.node_type}, and no "
                       f"{g.node_type} has {field} \"{text}\" (a {g.edge_type} does): the "
                       f"{g.edge_type} predicate comes after the {g.node_type} predicate",
                       sc.path, at, _graph_example(e.func, g, True))

    def _field_values(self, tname: str, field: str) -> set[Any]:
        m = self.m
        return {m.records[rid].data.get(field) for rid in m.by_type.get(tname, ())}

    def _edge_kinds(self, e: A.Expr, kind: Type, sc: Scope) -> None:
        """The kind (or list of kinds) of edges `neighbors` follows: values of the edge
        type's `kind` enum, when it is one."""
        if isinstance(e, A.IfExp):
            self._expect(e.cond, "bool", sc, "a condition")
            self._edge_kinds(e.then, kind, sc)
            self._edge_kinds(e.orelse, kind, sc)
            self._set(e, "any")
        elif self._enum(kind) is None or self._coerce(e, ("list", kind), sc) is None \
                and self._coerce(e, kind, sc) is None:
            self._expr(e, sc)

    def _unknown(self, code: str, what: str, name: str, candidates: Iterable[str], path: str,
                 at: A.Pos | Site, extra: str = "") -> None:
        if name in self.m.poisoned:
            return  # declared in a part of the pack already reported as broken
        self.error(code, f"unknown {what} '{name}'{extra}", path, at,
                   did_you_mean(name, list(candidates)))

    # ---- which code may suspend ---------------------------------------------------------
    def _suspension(self) -> tuple[set[str], set[str]]:
        m = self.m
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


_GRAPH_QUERIES = ("neighbors", "distance", "path", "reachable", "edge")
# built-ins whose answer depends on the game's state or on chance
_STATEFUL_BUILTINS = {"roll": "a die roll", "random_pick": "a random pick",
                      "zone_of": "where a record lies during a game",
                      "is_revealed": "what is revealed during a game",
                      "contents": "a zone's contents", "run": "an effect"}


def graph_slots(func: str) -> tuple[int, int]:
    """The argument positions of a graph query's node predicate and edge predicate."""
    return (2, 3) if func == "neighbors" else (3, 4)


def _graph_example(func: str, g: A.GraphDecl, on_edges: bool) -> str:
    """How a call of `func` on `g` blocks edges (or nodes), for a hint."""
    fixed = {"neighbors": "x", "reachable": "start, limit"}.get(func, "a, b")
    if on_edges:
        return f"{func}({g.name}, {fixed}, none, (e: {g.edge_type}) => ...)"
    return f"{func}({g.name}, {fixed}, (n: {g.node_type}) => ...)"


def _a(t: Type) -> str:
    text = T.show(t)
    return ("an " if text[:1] in "aeiou" else "a ") + text


def _subnodes(e: Any) -> Iterable[Any]:
    """`e` and every syntax node inside it."""
    todo = [e]
    while todo:
        node = todo.pop()
        if isinstance(node, tuple):
            todo.extend(node)
        elif attrs.has(type(node)) and not isinstance(node, A.Pos):
            yield node
            todo.extend(getattr(node, f.name) for f in attrs.fields(type(node)))


def _literal_tests(e: A.Expr, var: str) -> list[tuple[str, str, A.Pos]]:
    """(field, text, where) for each `var.field == "text"` (also !=, in, not in a list of
    texts) in `e`, outside inner bindings of the same name."""
    out: list[tuple[str, str, A.Pos]] = []
    todo: list[Any] = [e]
    while todo:
        node = todo.pop()
        if isinstance(node, tuple):
            todo.extend(node)
            continue
        if not attrs.has(type(node)) or isinstance(node, A.Pos):
            continue
        if isinstance(node, (A.Lambda, A.Comprehension)) and getattr(
                node, "param", getattr(node, "var", None)) == var:
            continue  # the name means something else in there
        if isinstance(node, A.Compare):
            sides = [(node.left, node.right)]
            if node.op in ("==", "!="):
                sides.append((node.right, node.left))
            for field_side, text_side in sides:
                if not (isinstance(field_side, A.Attr) and isinstance(field_side.obj, A.Name)
                        and field_side.obj.id == var):
                    continue
                texts = [text_side] if node.op in ("==", "!=") else (
                    list(text_side.items) if isinstance(text_side, A.ListLit) else [])
                out += [(field_side.name, t.value, node.at) for t in texts
                        if isinstance(t, A.Str)]
        todo.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
    return out


def check(model: PackModel, sources: dict[str, str]) -> CheckResult:
    return Checker(model, sources).run()

