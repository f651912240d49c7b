"""The JSON Schema (draft-07) of a pack's record files, made from its `type`s.

A record file maps record types to lists of records (engine.dsl.pack.records reads them);
the schema says the same: each type's fields with their types, an enum's values, a record
reference as the ids of that type's records, a side as the pack's sides, which fields a
record must give, and the keys every record may carry (`id`, `name`, `source`, ...). An
editor's YAML language server reads it to complete and check fields as a designer types
(`engine schema --pack PACK`, docs/language.md "Editors"). The pack's own checks go
further (an id used twice, a pack `check`): `engine validate` stays the judge. Draft-07,
not the 2020-12 of the API's schema: the draft YAML language servers read.
"""
from __future__ import annotations

from typing import Any

from engine.dsl import types as T
from engine.dsl.model import TABLE_TYPE, FieldInfo, PackModel
from engine.dsl.pack.words import DISAGREE_KEYS, SLUG

Schema = dict[str, Any]

_TEXT: Schema = {"type": "string"}
# the keys every record may carry besides its type's fields (words.RECORD_META; a test holds
# the two the same)
_META: dict[str, Schema] = {
    "id": {"type": "string", "pattern": SLUG.pattern,
           "description": "the record's id: a lowercase slug, unique in the pack"},
    "name": {"type": "string", "description": "its English name (others: the translations)"},
    "source": {"type": "string", "description": "where its facts come from (seed and section)"},
    "reconstructed": {"type": "string", "description": "why a value is reconstructed"},
    "note": _TEXT,
    "disagree": {"type": "array", "description": "other sources' values for its fields",
                 "items": {"type": "object", "required": ["field", "source"],
                           "properties": {k: {} if k == "value" else _TEXT
                                          for k in DISAGREE_KEYS},
                           "additionalProperties": False}},
}


def record_schema(model: PackModel) -> Schema:
    """The schema of any one record file of the pack `model`."""
    lists: dict[str, Schema] = {}
    defs: dict[str, Schema] = {}
    for name, info in model.types.items():
        if info.created:
            continue  # made by rules in play: a record file may not list them (E273)
        defs[name] = {"title": name, **(_table() if name == TABLE_TYPE
                                        else _record(model, info.fields))}
        lists[name] = {"type": "array", "items": {"$ref": f"#/definitions/{name}"},
                       "description": f"records of type {name}"}
    return {"$schema": "http://json-schema.org/draft-07/schema#",
            "title": f"records of the pack {model.id}",
            "description": "a record file: record types, each a list of records",
            "type": "object", "properties": lists, "additionalProperties": False,
            "definitions": defs}


def _record(model: PackModel, fields: dict[str, FieldInfo]) -> Schema:
    props: dict[str, Schema] = dict(_META)
    required = ["id"]
    for name, f in fields.items():
        value = _value(model, f.type)
        if f.optional:
            value = _or_none(value)
        value["description"] = f"{T.show(f.type)}" + ("" if f.default is None else
                                                        f" (default {f.default!r})")
        props[name] = value
        if not f.optional and not f.var:
            required.append(name)
    return {"type": "object", "properties": props, "required": required,
            "additionalProperties": False}


def _or_none(value: Schema) -> Schema:
    """`value`, or nothing written (YAML null): said in place, so that an editor's message
    names the enum or type rather than "not valid under any of the given schemas"."""
    if "enum" in value:
        return {**value, "enum": [*value["enum"], None]}
    if isinstance(value.get("type"), str):
        return {**value, "type": [value["type"], "null"]}
    return {"anyOf": [value, {"type": "null"}]}


def _value(model: PackModel, t: T.Type) -> Schema:
    """The schema of one value of type `t` in a record file."""
    if isinstance(t, tuple):
        return {"type": "array", "items": _value(model, t[1])}
    if t == "int":
        return {"type": "integer"}
    if t == "bool":
        return {"type": "boolean"}
    if t in ("text", "effect", "triggers"):  # effects and triggers: rules text
        return {"type": "string"}
    if t == "side":
        return {"enum": list(model.sides)}
    if t in model.enums:
        return {"enum": model.enum_values(t)}
    if t in model.types:
        return {"enum": list(model.by_type.get(t, []))}  # the ids of its records
    return {"type": ["integer", "string", "boolean", "array", "object"]}  # `any`


def _table() -> Schema:
    cell: Schema = {"type": ["integer", "string", "boolean", "null"]}
    return {"type": "object", "required": ["id", "rows"],
            "properties": {**_META,
                           "columns": {"type": "array", "items": {"type": ["integer", "string"]}},
                           "rows": {"type": "object", "additionalProperties": {
                               "anyOf": [cell, {"type": "array", "items": cell}, {
                                   "type": "object"}]}}},
            "additionalProperties": False}
