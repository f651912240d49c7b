"""What the language server offers as a designer types in a rules file: after `x.`, the
fields of the pack's types (of `x`'s type when `x` is a type's or an enum's or an event's
name: its records, its values, its state); elsewhere the pack's names (records, zones,
vars, procedures, values, types, ...) and the grammar's keywords."""
from __future__ import annotations

import attrs

from engine.dsl.model import PackModel
from engine.dsl.pack import KEYWORDS
from engine.dsl.types import show


@attrs.frozen
class Candidate:
    label: str
    kind: str  # what it is: "record", "field", "zone", "keyword", ... (model.global_names)
    detail: str


def candidates(model: PackModel, prefix: str, owner: str | None) -> list[Candidate]:
    """What may be typed where `prefix` is begun, after `owner.` when `owner` is not None
    ("" when what comes before the `.` is no plain name), in alphabetical order."""
    found = _members(model, owner) if owner is not None else _names(model)
    return sorted((c for c in found if c.label.startswith(prefix)), key=lambda c: c.label)


def _members(model: PackModel, owner: str) -> list[Candidate]:
    if owner in model.types:
        return [Candidate(rid, "record", owner) for rid in model.by_type.get(owner, [])]
    if owner in model.enums:
        return [Candidate(v, "enum_value", f"enum {owner}") for v in model.enum_values(owner)]
    if owner in model.events:
        return [Candidate(f.name, "field", f"state of {owner}")
                for f in model.events[owner].state]
    fields: dict[str, list[str]] = {}
    for t, info in model.types.items():
        for f in info.fields.values():
            fields.setdefault(f.name, []).append(f"{t}: {show(f.type)}")
    out = [Candidate(name, "field", "; ".join(of)) for name, of in fields.items()]
    return out + [Candidate(n, "field", "every record") for n in ("id", "name")
                  if n not in fields]


def _names(model: PackModel) -> list[Candidate]:
    out = []
    for name, kind in model.global_names().items():
        detail = model.records[name].type if kind == "record" else kind
        out.append(Candidate(name, kind, detail))
    taken = {c.label for c in out}
    return out + [Candidate(k, "keyword", "keyword") for k in sorted(KEYWORDS - taken)]
