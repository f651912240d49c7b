"""Optimisation pass: a walk of the pack's own data is not copied (nothing changes it), nor
charged when short with no walk inside: its work is bounded by a constant, and the loop
around it, the call or the `while` turn that runs it is charged, so a runaway rule still
ends within a constant factor of its budget. (The records of a type are walked charged:
there are many.) engine.dsl.compile.loops writes the walk."""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl.check import CheckResult
from engine.dsl.model import PackModel

# The most items of the pack's own data a walk with no walk inside leaves uncharged
MAX_UNCHARGED = 16


def static_length(model: PackModel, checked: CheckResult, created: set[str],
                  source: A.Expr) -> int | None:
    """The most items `source` can hold when it is the pack's own data, which no rule
    changes: the records of a type not made in play, an enum's values, a list field (not
    `var`) of such records that each record gives; or a list written out; else None."""
    if isinstance(source, A.ListLit):  # a new list of as many items as it is written with
        return len(source.items)
    if isinstance(source, A.Name):
        res = checked.res.get(id(source))
        if res is not None and res[0] == "all" and res[1] not in created:
            return len(model.by_type.get(res[1], ()))
        if res is not None and res[0] == "enum_all":
            return len(model.enum_values(res[1]))
        return None
    if not isinstance(source, A.Attr) or source.name in ("id", "name") \
            or checked.res.get(id(source)) is not None:
        return None
    record_type = checked.types.get(id(source.obj))
    if not isinstance(record_type, str):
        return None
    info = model.types.get(record_type)
    if info is None or info.created or source.name not in info.fields \
            or info.fields[source.name].var:
        return None
    lengths = [0]
    for record_id in model.by_type.get(record_type, ()):
        value = model.records[record_id].data.get(source.name)
        if not isinstance(value, list):
            return None
        lengths.append(len(value))
    return max(lengths)
