"""The tables at the end of a pack's generated module, which engine.core.loader reads: where
each function's rule was written (FILES, SITES), the procedures, functions and their
parameters, which of them may wait, the triggers, effects, checks, values and their
caches, graph filters, static tables, consts, defaults, bounds, event states and the
initialisers of records in play."""
from __future__ import annotations

from engine.dsl.compile.syntax import has_defaults
from engine.dsl.compile.unit import CompileUnit
from engine.dsl.model import PackModel, Trigger


def trigger_params(model: PackModel, trigger: Trigger) -> list[str]:
    """The names a trigger's function takes: the event's parameters, renamed as the
    trigger names them."""
    decl = trigger.decl
    ev = model.events.get(decl.event)
    names = list(decl.names or ())
    params = [p.name for p in ev.params] if ev else []
    return [names[i] if i < len(names) else p for i, p in enumerate(params)]


def registry(unit: CompileUnit) -> list[str]:
    """The tables' lines, once every function is written."""
    model, checked = unit.model, unit.checked
    out: list[str] = []
    suspending = checked.suspending_fns
    out.append(f"FILES = {unit.files!r}")
    out.append("SITES = {")
    for fn, file, line in unit.sites:
        out.append(f"    {fn!r}: ({file}, {line}),")
    out.append("}")
    out.append("PROCS = {")
    for name in model.procs:
        out.append(f"    {name!r}: p_{name},")
    out.append("}")
    out.append("SUSPENDING = frozenset({" + ", ".join(repr(f) for f in sorted(suspending))
               + "})")
    out.append("SUSPENDING_EVENTS = frozenset({" +
               ", ".join(repr(e) for e in sorted(checked.suspending_events)) + "})")
    out.append("PARAMS = {")
    for name, proc in model.procs.items():
        out.append(f"    'p_{name}': {[x.name for x in proc.params]!r},")
    for trigger in model.triggers:
        out.append(f"    {trigger.fn!r}: {trigger_params(model, trigger)!r},")
    for eff in model.effects:
        out.append(f"    {eff.fn!r}: ['self'],")
    for window in model.windows.values():
        out.append(f"    {window.fn!r}: {[x.name for x in window.decl.params]!r},")
    out.append("}")
    out.append("FUNCS = {name: globals()[name] for name in PARAMS}")
    out.append("TRIGGERS = {}")
    for trigger in model.triggers:
        decl = trigger.decl
        cond = f"c_{trigger.fn}" if decl.cond is not None else "None"
        out.append(f"TRIGGERS.setdefault({decl.event!r}, {{}}).setdefault({decl.kind!r}, [])"
                   f".append(({trigger.fn!r}, {trigger.fn}, {cond}, "
                   f"{trigger.fn in suspending!r}))")
    out.append("EFFECTS = {")
    for eff in model.effects:
        out.append(f"    ({eff.record!r}, {eff.field!r}): ({eff.fn!r}, {eff.fn}, "
                   f"{eff.fn in suspending!r}),")
    out.append("}")
    out.append("CHECKS = [" + ", ".join(f"check_{i}" for i in range(len(model.checks))) + "]")
    out.append("CHECK_ITEMS = {" + ", ".join(f"{i}: ({fn}, {field!r})"
                                             for i, fn, field in unit.check_items) + "}")
    out.append("VALUES = {" + ", ".join(f"{n!r}: v_{n}" for n in model.values) + "}")
    # static values and their caches, which live with the loaded pack (this module)
    out.append("STATIC_VALUES = frozenset({" + ", ".join(
        repr(n) for n in sorted(unit.static_values)) + "})")
    for memo in unit.memos:
        out.append(f"{memo} = {{}}")
    out.append("MEMOS = {" + ", ".join(f"{memo[2:]!r}: {memo}" for memo in unit.memos) + "}")
    out.append("GRAPH_FILTERS = {" + ", ".join(f"{n!r}: gf_{n}"
                                               for n, graph in model.graphs.items()
                                               if graph.where is not None) + "}")
    # static tables the loader makes (engine.dsl.compile.tables): RF_<field>, ZK_<zone>
    out.append(f"RECORD_FIELDS = {sorted(unit.field_tables)!r}")
    out.append(f"ZONE_KEYS = {sorted(unit.zone_key_tables)!r}")
    # evaluated in this order when the pack loads (engine.core.loader), each into K_<name>
    out.append("CONSTS = [" + ", ".join(f"({n!r}, k_{n})" for n in checked.const_order) + "]")
    out.append("VALUE_DEFAULTS = {" + ", ".join(
        f"{n!r}: dv_{n}" for n, v in model.values.items() if has_defaults(v.params)) + "}")
    out.append("BOUNDS = {" + ", ".join(f"{n!r}: bounds_{n}" for n, v in model.vars.items()
                                        if v.bounds) + "}")
    out.append("DEFAULTS = {" + ", ".join(f"{n!r}: default_{n}" for n in model.vars) + "}")
    out.append("EVSTATE = {" + ", ".join(f"{n!r}: xstate_{n}" for n, ev in model.events.items()
                                         if ev.state) + "}")
    out.append("INITS = {" + ", ".join(f"{t!r}: init_{t}" for t in model.types
                                       if t in unit.state_types) + "}")
    return out
