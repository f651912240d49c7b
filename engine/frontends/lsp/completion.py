"""What the language server offers as a designer types in a rules file: after `x.`, the
members of `x`: a type's records, an enum's values, an event's state, and else the fields
of x's type as the checker typed `x` (all the pack's fields when that type is not known);
elsewhere the pack's names (records, zones, vars, procedures, values, types, ...), the
language's built-in functions and values (engine.dsl.builtins) and the grammar's
keywords."""
from __future__ import annotations

import attrs

from engine.dsl.builtins import BUILTINS
from engine.dsl.model import PackModel
from engine.dsl.pack import KEYWORDS
from engine.dsl.types import Type, show


@attrs.frozen
class Candidate:
    label: str
    kind: str  # what it is: "record", "field", "zone", "keyword", ... (model.global_names)
    detail: str
    doc: str = ""


def candidates(model: PackModel, prefix: str, owner: tuple[str, ...] | None,
               owner_type: Type | None = None) -> list[Candidate]:
    """What may be typed where `prefix` is begun, after `a.b.` when `owner` holds those
    names (empty when what comes before the `.` is no plain name), in alphabetical order.
    `owner_type`: the type of what comes before the `.`, when it is known."""
    found = _names(model) if owner is None else _members(model, owner, owner_type)
    return sorted((c for c in found if c.label.startswith(prefix)), key=lambda c: c.label)


def _members(model: PackModel, owner: tuple[str, ...], t: Type | None) -> list[Candidate]:
    name = owner[0] if len(owner) == 1 else None
    if name in model.types:
        return [Candidate(rid, "record", name) for rid in model.by_type.get(name, [])]
    if name in model.enums:
        return [Candidate(v, "enum_value", f"enum {name}") for v in model.enum_values(name)]
    if name in model.events:
        return [Candidate(f.name, "field", f"state of {name}")
                for f in model.events[name].state]
    if isinstance(t, str) and t in model.types:  # a record of a known type: its fields
        info = model.types[t]
        own = [Candidate(f.name, "field", f"{t}: {show(f.type)}{'?' * f.optional}")
               for f in info.fields.values()]
        return own + [Candidate(n, "field", f"{t}: every record") for n in ("id", "name")
                      if n not in info.fields]
    if t is not None and t != "any":
        return []  # an int, a side, a list, ...: no fields
    fields: dict[str, list[str]] = {}  # the type is not known: every type's fields
    for tname, info in model.types.items():
        for f in info.fields.values():
            fields.setdefault(f.name, []).append(f"{tname}: {show(f.type)}")
    out = [Candidate(n, "field", "; ".join(of)) for n, of in fields.items()]
    return out + [Candidate(n, "field", "every record") for n in ("id", "name")
                  if n not in fields]


def _names(model: PackModel) -> list[Candidate]:
    out = []
    for name, kind in model.global_names().items():
        detail = model.records[name].type if kind == "record" else kind
        out.append(Candidate(name, kind, detail))
    taken = {c.label for c in out}
    out += [Candidate(b.name, "function" if b.function else "builtin", b.signature, b.doc)
            for b in BUILTINS.values() if b.name not in taken]
    taken |= BUILTINS.keys()
    return out + [Candidate(k, "keyword", "keyword") for k in sorted(KEYWORDS - taken)]
