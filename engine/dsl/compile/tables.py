"""Optimisation pass: tables made when the pack loads. A field of the pack's records is read
through RF_<field> (record -> value: one dict lookup, not two), and the key of a zone of one
parameter whose values are known at load through ZK_<zone> (value -> the zone's key: made
once, not joined at each read); the generated module lists them (RECORD_FIELDS, ZONE_KEYS)
and engine.core.loader fills them."""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl.check import CheckResult
from engine.dsl.model import PackModel
from engine.dsl.types import from_ast


def static_field(model: PackModel, record_type: Any, name: str) -> bool:
    """Is `x.name`, for x of checker type `record_type`, a field every record of the type
    has in the pack's records (not `var`, not of a type made in play)? Then RF_<name>
    holds it."""
    info = model.types.get(record_type) if isinstance(record_type, str) else None
    if info is None or info.created:
        return False
    field = info.fields.get(name)
    return field is not None and not field.var


def keyed_by_table(model: PackModel, checked: CheckResult, zone: str,
                   args: tuple[A.Expr, ...]) -> bool:
    """Is `zone[arg]` read through ZK_<zone>? For a zone of one parameter whose values
    are known when the pack loads (sides, enum values, records not made in play), with an
    argument the checker gives exactly that type."""
    params = model.zones[zone].params
    if len(params) != 1 or len(args) != 1:
        return False
    param_type = from_ast(params[0].type)
    if checked.types.get(id(args[0])) != param_type:
        return False
    info = model.types.get(param_type) if isinstance(param_type, str) else None
    return param_type == "side" or param_type in model.enums \
        or (info is not None and not info.created)
