"""The JSON Schema (draft 2020-12) of the public format, from the types in engine.core.api.

A small generator from the type hints rather than a library: the format is a dozen
TypedDicts, unions and lists whose every key carries a `Doc`; pydantic could write a schema
from TypedDicts too, but as a heavy dependency that reads descriptions from its own `Field`
markers, and the same short walk here also writes docs/api.md (engine.core.apidoc).
"""
from __future__ import annotations

import types
import typing
from typing import Any, Literal, Union

from engine.core import api

DIALECT = "https://json-schema.org/draft/2020-12/schema"
_SCALARS = {str: "string", int: "integer", bool: "boolean", float: "number"}
# the named types a key's type may be: a $ref to its definition, not written out again
_ALIASES = {name: t for name, t in api.TYPES.items() if not api.is_typeddict(t)}


def alias_of(t: Any) -> str | None:
    """The name of the engine.core.api alias `t` is (its first Doc decides), or None."""
    if typing.get_origin(t) is typing.NotRequired:
        t = typing.get_args(t)[0]
    if typing.get_origin(t) is not typing.Annotated:
        return None
    docs = [m for m in t.__metadata__ if isinstance(m, api.Doc)]
    if not docs:
        return None
    first = typing.Annotated[t.__origin__, docs[0]]
    return next((n for n, a in _ALIASES.items() if a == first), None)


def type_schema(t: Any, top: bool = False) -> dict[str, Any]:
    """The schema of a type hint; a named type of engine.core.api is a $ref (unless `top`)."""
    name = None if top else alias_of(t)
    if name is not None:
        return {"$ref": f"#/$defs/{name}"}
    t, _docs = api.unwrap(t)
    if t is Any:
        return {}
    if t is type(None) or t is None:
        return {"type": "null"}
    if t in _SCALARS:
        return {"type": _SCALARS[t]}
    origin = typing.get_origin(t)
    if origin is Literal:
        values = list(t.__args__)
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if origin is Union or origin is types.UnionType:
        members = [type_schema(m) for m in typing.get_args(t)]
        simple = [m.get("type") for m in members]
        if all(isinstance(s, str) and len(m) == 1 for s, m in zip(simple, members)):
            return {"type": simple}
        return {"anyOf": members}
    if origin is list:
        (item,) = typing.get_args(t)
        return {"type": "array", "items": type_schema(item)}
    if origin is dict:
        _key, item = typing.get_args(t)
        return {"type": "object", "additionalProperties": type_schema(item)}
    if api.is_typeddict(t):
        return {"$ref": f"#/$defs/{t.__name__}"}
    raise TypeError(f"no JSON Schema for {t!r}")  # pragma: no cover


def key_doc(t: Any) -> str | None:
    """What a key means: its own Doc (the last), unless its type is a named alias whose
    Doc is all there is."""
    _inner, docs = api.unwrap(t)
    if alias_of(t) is not None:
        return docs[-1] if len(docs) > 1 else None
    return docs[-1] if docs else None


def _doc(text: str | None) -> str:
    import inspect
    return inspect.cleandoc(text or "")


def definition(name: str, t: Any) -> dict[str, Any]:
    if api.is_typeddict(t):
        props = {}
        for key, kt, _required in api.keys(t):
            schema = type_schema(kt)
            doc = key_doc(kt)
            if doc:
                schema = {**schema, "description": doc}
            props[key] = schema
        return {"type": "object", "description": _doc(t.__doc__), "properties": props,
                "required": [k for k, _t, r in api.keys(t) if r],
                "additionalProperties": False}
    _inner, docs = api.unwrap(t)
    return {**type_schema(t, top=True), "description": docs[0] if docs else ""}


def api_schema() -> dict[str, Any]:
    """The whole format: every type of engine.core.api under $defs; a document is any of the
    top-level ones (a view, a decision, an action, a log entry, a save)."""
    defs = {name: definition(name, t) for name, t in api.TYPES.items()}
    return {
        "$schema": DIALECT,
        "$id": f"urn:engine-dsl:api:{api.FORMAT_VERSION}",
        "title": f"engine API format, version {api.FORMAT_VERSION}",
        "description": "Views, decisions, actions, log entries and saves of the engine "
                       "(engine.core.api; docs/api.md).",
        "anyOf": [{"$ref": f"#/$defs/{n}"} for n in ("View", "Save", "LogEntry")],
        "$defs": defs,
    }


def schema_for(name: str) -> dict[str, Any]:
    """A schema that validates one type of the format (`schema_for("View")`)."""
    whole = api_schema()
    return {"$schema": DIALECT, "$ref": f"#/$defs/{name}", "$defs": whole["$defs"]}
