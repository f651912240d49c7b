"""Optimisation pass: decisions whose options, or whose prompt's values, need no look-up of
what the decider may not see. G.decide is told `zoned=False` when no option can lie in a
zone hidden from the decider (a type no zone holds; with the optimisations, a zone the
decider sees), and `args_zoned=False` when no value the prompt names can lie in a zone
(engine.core.runtime Runtime.decide)."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.dsl import ast as A
from engine.dsl.check import CheckResult
from engine.dsl.model import PackModel
from engine.dsl.types import elem


def may_lie_in_zones(model: PackModel, checked: CheckResult, source: A.Expr) -> bool:
    """Can an item of `source` (a list) lie in a zone? Not when its type is one of
    records no zone holds, or a side, number, text or truth value."""
    return type_may_lie_in_zones(model, elem(checked.types.get(id(source), "any")))


def values_may_lie_in_zones(model: PackModel, checked: CheckResult,
                            values: Iterable[A.Expr]) -> bool:
    """Can one of `values` (a prompt's), or an item of one that is a list, lie in a zone?"""
    for value in values:
        value_type = checked.types.get(id(value), "any")
        item = elem(value_type)
        if type_may_lie_in_zones(model, value_type if item in (None, "any") else item):
            return True
    return False


def type_may_lie_in_zones(model: PackModel, value_type: Any) -> bool:
    if not isinstance(value_type, str) or value_type == "any":
        return True
    if value_type in ("side", "int", "text", "bool") or value_type in model.enums:
        return False
    return any(zone.of is None or zone.of == value_type for zone in model.zones.values()) \
        or value_type not in model.types


def zone_seen_by(model: PackModel, checked: CheckResult, source: A.Expr,
                 by: A.Expr | None) -> bool:
    """Is `source` one zone that the decider `by` sees: a public zone, or a private one
    whose owner (its first index) is written as `by` is (the same side, local or var,
    both read at once)? A choice from it shows the decider nothing new."""
    res = checked.res.get(id(source))
    if not res or res[0] != "zone":
        return False
    flags = model.zones[res[1]].flags
    if "hidden" in flags:
        return False
    if "private" not in flags:
        return True
    if by is None or not isinstance(source, A.Index) or not source.args:
        return False
    owner = source.args[0]
    how = checked.res.get(id(by))
    return isinstance(owner, A.Name) and isinstance(by, A.Name) and owner.id == by.id \
        and how is not None and how[0] in ("local", "const", "var") \
        and checked.res.get(id(owner)) == how
