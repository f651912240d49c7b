"""Find a pack by name or path, build it, and make the `CompiledPack` a game runs on
(engine.core.compiled; its parts are engine.core.packdata's `PackData`)."""
from __future__ import annotations

import itertools
import linecache
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from engine.core.compiled import CompiledPack
from engine.core.errors import EngineFault, PackError
from engine.core.packdata import PackData, visible_keys
from engine.dsl.build import Build, build_pack, module_filename
from engine.dsl.errors import Diagnostic, source_line
from engine.dsl.places import resolve_pack

if TYPE_CHECKING:
    from engine.dsl.ast import Param, Pos, VarDecl, ZoneDecl
    from engine.dsl.model import PackModel

__all__ = ["CompiledPack", "PackData", "instantiate", "load_pack"]


def _domain(model: PackModel, by_type: dict[str, list[str]], t: Any) -> list[str]:
    """The values an index of type `t` (a checker type) takes: sides, an enum's values or a
    record type's ids."""
    if t == "side":
        return list(model.sides)
    if t in model.enums:
        return model.enum_values(t)
    return list(by_type.get(t, []))


def _keys(model: PackModel, by_type: dict[str, list[str]],
          params: tuple[Param, ...]) -> list[tuple[str, ...]]:
    """Every combination of indices of a zone or var with `params`, in declaration order."""
    from engine.dsl.types import from_ast
    domains = [_domain(model, by_type, from_ast(p.type)) for p in params]
    return list(itertools.product(*domains))


def instantiate(build: Build) -> CompiledPack:
    """The pack `build` compiled, its code run and its tables made (PackError for a build
    that failed)."""
    import hashlib  # (8 ms to import: not for `engine --help`)

    from engine.core.graph import Graph
    from engine.core.limits import Limits
    from engine.core.tables import Table
    from engine.dsl.cache import toolchain_hash
    from engine.dsl.native import load_native, source_name
    from engine.dsl.types import from_ast  # the syntax tree: only when a pack is built
    src, model, code = build.source, build.source.model, build.code
    if code is None:
        raise PackError(build.diagnostics)
    # the rules compiled to C, when `engine compile` has (engine.dsl.native): the module's
    # own dict is the namespace its functions read, so the tables go there as below
    native = load_native(code)
    if native is not None:
        filename = source_name(native.__name__)
    elif build.code_object is not None:
        filename = build.code_object.co_filename  # the name the build compiled it under
    else:
        filename = module_filename(src, code)
    linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
    ns: dict[str, Any]
    if native is None:
        ns = {"__name__": f"engine_pack_{model.id}"}
        exec(build.code_object or compile(code, filename, "exec"), ns)
    else:
        ns = native.__dict__
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
    zone_keys: list[str] = []
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
    var_keys: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
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
    indexed: tuple[tuple[str, Mapping[str, ZoneDecl | VarDecl]], ...] = (
        ("z", model.zones), ("v", model.vars))
    for kind, decls in indexed:
        for name, decl in decls.items():
            # (an index's type is a name: the checker refuses a list there)
            types = tuple(cast(str, from_ast(p.type)) for p in decl.params)
            for t in dict.fromkeys(types):
                if t in created:
                    keyed.setdefault(t, []).append((kind, name, types))
    pack = CompiledPack(
        id=model.id, name=str(meta.get("name", model.id)), version=str(meta.get("version", "")),
        sides=sides, meta=meta, hash=src.hash, root=src.root, model=model, code=code,
        code_hash=hashlib.sha256(toolchain_hash().encode() + b"\0" + code.encode(
            "utf-8", "surrogatepass")).hexdigest()[:16],
        ns=ns, code_file=filename, records=records, by_type=by_type, zone_keys=zone_keys,
        var_keys=var_keys,
        graphs=graphs, tables=tables, other=other, side_set=frozenset(sides), plans=plans,
        visible_zones={s: visible_keys(model, s, zone_keys, created) for s in [*sides, None]},
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
                    f"{broke(err)}", model.decl_paths[name],
                    g.at if g.where is None else g.where.at, sources) from err
        pack.graphs[name] = Graph(edges)


def _load_error(code: str, message: str, path: str, at: Pos, sources: dict[str, str],
                underline: bool = True) -> PackError:
    """A located error of a pack as it loads (`at`: where in `path` its declaration is)."""
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


def compile_rules(pack: CompiledPack) -> Path:
    """`engine compile`: `pack`'s rules compiled to C (engine.dsl.native), for the games of
    the processes that load it from now on; the module's path. engine.dsl.native.NativeError
    when it cannot be done (no Cython, no C compiler, the cache off)."""
    from engine.dsl.native import compile_native
    return compile_native(pack.code)


def compiled_path(pack: CompiledPack) -> Path | None:
    """Where `pack`'s rules compiled to C are, None when they are not (or the cache is off)."""
    from engine.dsl.native import native_path
    kept = native_path(pack.code)
    return kept if kept is not None and kept.is_file() else None


def runtime_compiled() -> bool:
    """Whether the runtime runs compiled to C (`ENGINE_COMPILE=1 pip install .`)."""
    from engine.core.runtime import loop
    return not str(loop.__file__).endswith(".py")
