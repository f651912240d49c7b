"""Find a pack by name or path, build it, and hold what a running game needs from it."""
from __future__ import annotations

import functools
import itertools
import linecache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from engine.core.errors import EngineFault, PackError
from engine.dsl.build import Build, build_pack, module_filename
from engine.dsl.errors import Diagnostic, source_line
from engine.dsl.places import resolve_pack

if TYPE_CHECKING:  # imported where used: finding packs (validate) needs none of them
    from engine.core.graph import Graph
    from engine.core.limits import Limits
    from engine.core.tables import Table
    from engine.dsl.model import PackModel


@attrs.define(eq=False)
class CompiledPack:
    id: str
    name: str
    version: str
    sides: list[str]
    meta: dict[str, Any]
    hash: str
    root: Path
    model: PackModel
    code: str
    ns: dict[str, Any]
    records: dict[str, dict[str, Any]]
    by_type: dict[str, list[str]]
    zone_keys: list[str]
    var_keys: dict[str, list[tuple[str, tuple]]]
    graphs: dict[str, Graph]
    tables: dict[str, Table]
    other: dict[str, str]
    side_set: frozenset[str]
    plans: dict[str, tuple[list, list, list, list]]  # event -> before, instead, on, after
    visible_zones: dict[str | None, frozenset[str]]  # side (None: observer) -> zone keys
    limits: Limits  # pack.yaml `limits:`, or the defaults
    rule_labels: dict[str, str]  # generated function -> what a designer calls that rule
    # Records with fields in the game state (see `record_state`): none in most packs.
    record_state: bool = False  # the state has "f" (record fields in play)
    created: frozenset[str] = frozenset()  # types whose records rules make (`create`)
    var_field_types: tuple[str, ...] = ()  # pack record types with var fields
    # created type -> ("z" or "v", zone or var name, its parameter types) for every zone and
    # var indexed by that type: their keys come and go with the records
    keyed: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = attrs.Factory(dict)
    # sha256 (16 hex digits) of `code`, the rules as the compiler wrote them, and of the
    # engine that runs them (engine.dsl.cache.toolchain_hash: every engine and dsl source file): a
    # save keeps it, since its waiting rules (the state's stack) are places in that code,
    # run as that engine runs them
    code_hash: str = ""

    # ---- games ------------------------------------------------------------------------------
    @property
    def playable(self) -> bool:
        """False for a data pack (`playable: false`): records, tables and checks, no game."""
        return self.model.playable

    def new_game(self, seed: int = 0, *, log: bool = True, undo: bool = True,
                 limits: Limits | None = None) -> Any:
        """A new game, run up to its first decision; `NotPlayable` for a data pack.
        `limits` overrides the pack's step budget and size caps for this game."""
        return _game_class().new(self, seed, log=log, undo=undo, limits=limits)

    # ---- what front-ends and bots read of the pack ---------------------------------------------
    @property
    def turn_event(self) -> str | None:
        """The event whose count is the game's turns (pack.yaml `turn_event:`), or None."""
        return self.meta.get("turn_event")

    @property
    def heuristic(self) -> str | None:
        """The name of the `value NAME(s: side): int` the greedy bot maximises (pack.yaml
        `heuristic:`), or None; `Game.heuristic(side)` evaluates it."""
        return self.meta.get("heuristic")

    # ---- names for people ---------------------------------------------------------------------
    @functools.cached_property
    def enum_ids(self) -> frozenset[str]:
        """Every value of the pack's enums."""
        return frozenset(v for e in self.model.enums for v in self.model.enum_values(e))

    @functools.cached_property
    def name_ids(self) -> frozenset[str]:
        """Every id `name_of` names: records, sides, enum values, and the names of zones, vars,
        events, record types and their fields."""
        m = self.model
        fields = {f for t in m.types.values() for f in t.fields}
        return frozenset((*self.records, *self.sides, *self.enum_ids, *m.zones, *m.vars, *m.events,
                          *m.types, *fields))

    def name_of(self, id: str, lang: str | None = None) -> str:
        """The name of `id` for people, in `lang` (default English; a name the language
        lacks falls back to English, then to the id): a record's name, or the term of a
        side, an enum value, a zone, var, event, record type or field (an enum value that
        is also a declaration's name is named as the value, as a decision offers it). A
        record made in play (`unit#3`) is named by its type. (`pack.name` is the pack's own name.)
        KeyError (with a did-you-mean) for an id the pack does not have."""
        from engine.i18n.translations import DEFAULT_LANG, catalog
        cat = catalog(self, lang or DEFAULT_LANG)
        kind, hash_, serial = id.partition("#") if isinstance(id, str) else ("", "", "")
        if hash_ and serial.isdigit() and kind in self.created:
            return cat.term(kind)
        if not isinstance(id, str) or id not in self.name_ids:
            from engine.dsl.errors import did_you_mean
            hint = did_you_mean(str(id), sorted(self.name_ids))
            raise KeyError(f"pack '{self.id}' has no id {id!r}" + (f"; {hint}" if hint else ""))
        if id in self.records:
            return cat.name(id)
        if id in self.side_set or id in self.enum_ids:  # an option before a declaration
            return cat.value(id)
        return cat.term(id)

    def names_in(self, data: Any, lang: str | None = None) -> dict[str, str]:
        """id -> `name_of(id, lang)` for every id in `data` (a view, a decision, a log
        entry: any JSON), zone and var keys taken apart at `|`. The keys of a view's `vars`,
        `zones` and `fields` are ids; other keys are the format's own, not ids."""
        out: dict[str, str] = {}
        ids = self.name_ids
        created = self.created

        def visit(x: Any, keyed: bool = False) -> None:
            if isinstance(x, str):
                for part in x.split("|") if "|" in x else (x,):
                    if part not in out and (part in ids or "#" in part
                                            and part.partition("#")[0] in created):
                        out[part] = self.name_of(part, lang)
            elif isinstance(x, list):
                for v in x:
                    visit(v)
            elif isinstance(x, dict):
                for k, v in x.items():
                    if keyed:
                        visit(k)
                    visit(v, keyed and k in self.model.vars or k in ("vars", "zones",
                                                                     "fields")
                          or keyed and k in self.records)
        visit(data)
        return out

    # ---- visibility -------------------------------------------------------------------------
    def can_see_zone(self, side: str | None, key: str) -> bool:
        """May `side` see the contents of zone `key`? (None = an observer.)"""
        visible = self.visible_zones.get(side)
        return key in visible if visible is not None else _zone_visible(self.model, side, key)

    def var_visible(self, side: str | None, name: str, key: str) -> bool:
        vis = self.model.vars[name].visibility
        if vis == "hidden":
            return False
        if vis == "private":
            return side is not None and key.split("|")[0] == side
        return True

    # ---- the pre-setup state: checks and values --------------------------------------------
    def static_runtime(self) -> Any:
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
        from engine.dsl.errors import did_you_mean
        decl = self.model.values.get(name)
        if decl is None:
            hint = did_you_mean(name, self.model.values)
            known = ", ".join(sorted(self.model.values)) or "none"
            raise KeyError(f"pack '{self.id}' has no value '{name}'"
                           + (f"; {hint}" if hint else f" (values: {known})"))
        rt = self.static_runtime()
        args = _bind_value_args(self, rt, name, decl, args, kwargs)
        _check_value_args(self, name, decl, args)
        try:
            return self.ns["VALUES"][name](rt, *args)
        except Exception as err:
            from engine.core.errors import EngineFault
            from engine.core.runtime import broke
            raise EngineFault(f"value {name}({', '.join(map(repr, args))}) failed: "
                              f"{broke(err)}", self.id, self.hash) from err

    def run_checks(self) -> list[tuple[str, Any, str, int]]:
        """Evaluate the pack's `check` declarations; returns the failing ones."""
        from engine.core.runtime import broke
        rt = self.static_runtime()
        failed = []
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


def _bind_value_args(pack: CompiledPack, rt: Any, name: str, decl: Any, args: tuple,
                     kwargs: dict[str, Any]) -> tuple:
    """`args` and `kwargs` in parameter order, defaults filled in (TypeError for a name that
    is no parameter, one given twice, or one left out that has no default)."""
    fill = pack.ns["VALUE_DEFAULTS"].get(name)
    if not kwargs and (len(args) >= len(decl.params) or fill is None):
        return args  # nothing to fill in: a count that is wrong is told by _check_value_args
    from engine.dsl.errors import did_you_mean
    names = [p.name for p in decl.params]
    slots: dict[str, Any] = dict(zip(names, args))
    for key, value in kwargs.items():
        if key not in names:
            hint = did_you_mean(key, names)
            raise TypeError(f"value '{name}' has no parameter '{key}'" + (f"; {hint}" if hint
                            else f" (parameters: {', '.join(names)})"))
        if key in slots:
            raise TypeError(f"value '{name}': '{key}' is given twice")
        slots[key] = value
    defaults = rt.call_rule(fill) if fill is not None else {}
    missing = [n for n in names if n not in slots and n not in defaults]
    if missing:
        raise TypeError(f"value '{name}' needs {', '.join(map(repr, missing))}")
    return tuple(slots[n] if n in slots else defaults[n] for n in names)


def _check_value_args(pack: CompiledPack, name: str, decl: Any, args: tuple) -> None:
    """TypeError unless `args` fit the parameters of value `name` (count; records and sides
    by id, whole numbers, true/false, text)."""
    from engine.dsl.ast import TOptional
    from engine.dsl.types import from_ast, show
    params = [(p.name, from_ast(p.type), isinstance(p.type, TOptional)) for p in decl.params]
    shown = ", ".join(f"{n}: {show(t)}{'?' * opt}" for n, t, opt in params)
    if len(args) != len(params):
        raise TypeError(f"value '{name}' takes {len(params)} argument"
                        f"{'s' * (len(params) != 1)} ({shown}), got {len(args)}")
    for (pname, t, optional), arg in zip(params, args):
        if not (optional and arg is None or _fits(pack, t, arg)):
            article = "an" if show(t)[0] in "aeiou" else "a"
            raise TypeError(f"value '{name}': argument '{pname}' is {article} {show(t)}, not "
                            f"{arg!r}")


def _fits(pack: CompiledPack, t: Any, arg: Any) -> bool:
    """Does `arg` (plain data, records and sides by id) fit the checker type `t`?"""
    if isinstance(t, tuple):  # list of X
        return isinstance(arg, list) and all(_fits(pack, t[1], a) for a in arg)
    if t == "int":
        return isinstance(arg, int) and not isinstance(arg, bool)
    if t == "bool":
        return isinstance(arg, bool)
    if t == "text":
        return isinstance(arg, str)
    if t == "side":
        return isinstance(arg, str) and arg in pack.side_set
    if t in pack.model.enums:
        return isinstance(arg, str) and arg in pack.model.enum_values(t)
    if t in pack.by_type:
        return isinstance(arg, str) and arg in pack.by_type[t]
    return True


def _domain(model: PackModel, by_type: dict[str, list[str]], t: Any) -> list[str]:
    if t == "side":
        return list(model.sides)
    if t in model.enums:
        return model.enum_values(t)
    return list(by_type.get(t, []))


def _keys(model: PackModel, by_type: dict[str, list[str]], params: tuple) -> list[tuple]:
    from engine.dsl.types import from_ast
    domains = [_domain(model, by_type, from_ast(p.type)) for p in params]
    return list(itertools.product(*domains))


def instantiate(build: Build) -> CompiledPack:
    import hashlib  # (8 ms to import: not for `engine --help`)

    from engine.core.graph import Graph
    from engine.core.limits import Limits
    from engine.core.tables import Table
    from engine.dsl.cache import toolchain_hash
    from engine.dsl.types import from_ast  # the syntax tree: only when a pack is built
    src, model = build.source, build.source.model
    filename = module_filename(src)
    linecache.cache[filename] = (len(build.code), None, build.code.splitlines(True), filename)
    ns: dict[str, Any] = {"__name__": f"engine_pack_{model.id}"}
    exec(build.code_object or compile(build.code, filename, "exec"), ns)
    records = {rid: r.data for rid, r in model.records.items()}
    by_type = {t: list(ids) for t, ids in model.by_type.items()}
    for t in model.types:
        by_type.setdefault(t, [])
    # the static tables generated code reads (engine.dsl.compile.tables): a record's field
    # by record, a zone's key by its one index (none in code of an older compiler, which
    # bench/codegen_ab.py runs on this engine)
    for field in ns.get("RECORD_FIELDS", ()):
        ns["RF_" + field] = {rid: data[field] for rid, data in records.items() if field in data}
    keyed_by_table = set(ns.get("ZONE_KEYS", ()))
    zone_keys = []
    for name, z in model.zones.items():
        if not z.params:
            zone_keys.append(name)
        table: dict[str, str] | None = None
        if name in keyed_by_table:
            table = ns["ZK_" + name] = {}
        for combo in _keys(model, by_type, z.params) if z.params else ():
            key = name + "|" + "|".join(combo)
            zone_keys.append(key)
            if table is not None:
                table[combo[0]] = key
    var_keys = {}
    for name, v in model.vars.items():
        if not v.params:
            var_keys[name] = [("", ())]
        else:
            var_keys[name] = [("|".join(str(c) for c in combo), combo)
                              for combo in _keys(model, by_type, v.params)]
    graphs = {name: Graph(records[e] for e in by_type.get(g.edge_type, []))
              for name, g in model.graphs.items() if g.where is None}
    tables = {tid: Table(records[tid]) for tid in by_type.get("table", [])}
    sides = list(model.sides)
    other = {sides[0]: sides[1], sides[1]: sides[0]} if len(sides) == 2 else {}
    meta = src.meta
    plans = {event: (kinds.get("before", []), kinds.get("instead", []), kinds.get("on", []),
                     kinds.get("after", []))
             for event, kinds in ns["TRIGGERS"].items()}
    created = frozenset(model.created_types)
    keyed: dict[str, list[tuple[str, str, tuple[str, ...]]]] = {}
    for kind, table in (("z", model.zones), ("v", model.vars)):
        for name, decl in table.items():
            types = tuple(from_ast(p.type) for p in decl.params)
            for t in dict.fromkeys(types):
                if t in created:
                    keyed.setdefault(t, []).append((kind, name, types))
    pack = CompiledPack(
        id=model.id, name=str(meta.get("name", model.id)), version=str(meta.get("version", "")),
        sides=sides, meta=meta, hash=src.hash, root=src.root, model=model, code=build.code,
        code_hash=hashlib.sha256(toolchain_hash().encode() + b"\0" + build.code.encode(
            "utf-8", "surrogatepass")).hexdigest()[:16],
        ns=ns, records=records, by_type=by_type, zone_keys=zone_keys, var_keys=var_keys,
        graphs=graphs, tables=tables, other=other, side_set=frozenset(sides), plans=plans,
        visible_zones={s: _visible_keys(model, s, zone_keys, created) for s in [*sides, None]},
        limits=Limits.from_meta(meta.get("limits")),
        rule_labels=_rule_labels(model),
        record_state=model.has_record_state, created=created,
        var_field_types=tuple(t for t, info in model.types.items()
                              if info.var_fields and not info.created),
        keyed={t: tuple(v) for t, v in keyed.items()})
    if ns["CONSTS"] or ns["GRAPH_FILTERS"]:
        _at_load(pack, src.sources)
    return pack


def _at_load(pack: CompiledPack, sources: dict[str, str]) -> None:
    """What a pack works out once, as it loads, with a runtime that reads no game state:
    each `const`, in the order the checker found (those it needs first), into the module
    global its uses read (K_<name>); then the graphs declared with `where`, whose edges are
    chosen here (the checker let the filter read records and consts only), so a query on
    one costs what it costs on a full graph. A failure is a located error."""
    from engine.core.graph import Graph
    from engine.core.runtime import Runtime, broke
    rt = Runtime(pack, Runtime.initial_state(pack, 0), log=False)
    model = pack.model
    for name, fn in pack.ns["CONSTS"]:
        try:
            pack.ns[f"K_{name}"] = rt.call_rule(fn)
        except EngineFault as err:
            raise _load_error("E282", f"const '{name}' cannot be worked out: {err}",
                              model.decl_paths[name], model.consts[name].at, sources,
                              underline=False) from None
    for name, keep in pack.ns["GRAPH_FILTERS"].items():
        g = model.graphs[name]
        edges = []
        rt.left = pack.limits.steps
        for eid in pack.by_type.get(g.edge_type, []):
            try:
                if keep(rt, eid):
                    edges.append(pack.records[eid])
            except Exception as err:
                raise _load_error(
                    "E248", f"the filter of graph '{name}' failed on {g.edge_type} '{eid}': "
                    f"{broke(err)}", model.decl_paths[name], g.where.at,
                    sources) from err
        pack.graphs[name] = Graph(edges)


def _load_error(code: str, message: str, path: str, at: Any, sources: dict[str, str],
                underline: bool = True) -> PackError:
    end = at.end_col if underline and at.end_line == at.line else None
    return PackError([Diagnostic(code, message, path, at.line, at.col,
                                 source_line(sources.get(path, ""), at.line), end)])


def _rule_labels(model: PackModel) -> dict[str, str]:
    """Generated function names as a designer knows the rules (for run-time faults)."""
    labels = {f"p_{name}": name for name in model.procs}
    labels.update({w.fn: name for name, w in model.windows.items()})
    labels.update({f"v_{name}": name for name in model.values})
    for tr in model.triggers:
        d = tr.decl
        kind = "instead of" if d.kind == "instead" else d.kind
        labels[tr.fn] = f"'{kind} {d.event}'" + (f" of {tr.record}" if tr.record else "")
    labels.update({eff.fn: f"'{eff.field}' of {eff.record}" for eff in model.effects})
    return labels


@functools.cache
def _game_class() -> Any:
    """engine.core.game.Game, imported when first asked for (it imports this module), and then
    without the cost of an import statement at each `new_game` call."""
    from engine.core.game import Game
    return Game


def _visible_keys(model: PackModel, side: str | None, zone_keys: list[str],
                  created: frozenset[str]) -> frozenset[str]:
    keys = frozenset(k for k in zone_keys if _zone_visible(model, side, k))
    return _VisibleKeys(keys, model, side, frozenset(zone_keys)) if created else keys


class _VisibleKeys(frozenset):
    """The zone keys a side sees, in a pack with records made in play: a key made with such
    a record (none exists at setup) is judged by its zone's declaration when asked."""

    def __new__(cls, keys: frozenset[str], model: PackModel, side: str | None,
                static: frozenset[str]) -> _VisibleKeys:
        self = super().__new__(cls, keys)
        self.model, self.side, self.static = model, side, static
        return self

    def __contains__(self, key: object) -> bool:
        return frozenset.__contains__(self, key) or (
            isinstance(key, str) and key not in self.static
            and key.partition("|")[0] in self.model.zones
            and _zone_visible(self.model, self.side, key))


def _zone_visible(model: PackModel, side: str | None, key: str) -> bool:
    """The visibility rule of a zone key: hidden to all, private to its first index, or
    public. Every zone key but those of records made in play exists from the start, so
    CompiledPack keeps the answers (see _VisibleKeys for the others)."""
    name, _, rest = key.partition("|")
    flags = model.zones[name].flags
    if "hidden" in flags:
        return False
    if "private" in flags:
        return side is not None and rest.split("|")[0] == side
    return True


_LOADED: dict[tuple[str, str], CompiledPack] = {}


def load_pack(name_or_path: str | Path) -> CompiledPack:
    """Load, check and compile a pack; raise PackError listing every problem."""
    root = resolve_pack(name_or_path).resolve()
    build = build_pack(root)
    if not build.ok:
        raise PackError(build.diagnostics)
    key = (str(root), build.source.hash)
    pack = _LOADED.get(key)
    if pack is None:
        pack = _LOADED[key] = instantiate(build)
    return pack
