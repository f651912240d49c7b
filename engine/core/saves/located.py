"""Where a save's JSON does not fit its schema, and what is wrong there, in words: msgspec
reads a save strictly, and when it refuses one (or the file held a fractional number, so
that its game data must be looked at), the schema is walked here to say the first problem
and its place ("state.decision.options: expected a list, got 3")."""
from __future__ import annotations

from collections.abc import Iterable
from types import NoneType, UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import msgspec
from msgspec import UnsetType

from engine.core.saves.schema import (
    FRAME_KINDS,
    GAME_DATA,
    LOG_ENTRY,
    MAX_NESTING,
    MOD_ENTRY,
    Frame,
    modifier_kind,
)
from engine.core.saves.shown import key_step, show


class Problem(Exception):
    """A value that does not fit the schema; `where` is the path inside the value."""

    def __init__(self, message: str, where: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.message, self.where = message, where

    def inside(self, step: str) -> Problem:
        return Problem(self.message, (step, *self.where))

    @property
    def path(self) -> str:
        return "".join(self.where).lstrip(".") or "the save"


def check_json_data(value: Any, depth: int = 0) -> None:
    """Game data is JSON data: int, text, true/false, null, lists and objects of them."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return
    if kind is list or kind is dict:
        if depth >= MAX_NESTING:
            raise Problem(f"game data nested more than {MAX_NESTING} deep")
        items: Iterable[tuple[Any, Any]] = value.items() if kind is dict else enumerate(value)
        for key, item in items:
            try:
                check_json_data(item, depth + 1)
            except Problem as err:
                raise err.inside(key_step(key) if kind is dict else f"[{key}]") from None
        return
    raise Problem(f"expected game data (a whole number, text, true/false, null, a list or an "
                  f"object), got {show(value)}")


def check_log_entry(value: Any, scan: bool) -> None:
    if type(value) is not dict:
        raise Problem(f"expected a log entry (an object), got {show(value)}")
    if type(value.get("t")) is not str:
        raise Problem(f"expected the entry's kind as text, got {show(value.get('t'))}", (".t",))
    if scan:
        check_json_data(value)


_SCALARS = {int: "a whole number", str: "text", bool: "true or false"}


def check_value(value: Any, kind: Any, scan: bool) -> None:
    """Problem unless `value` fits the schema's type `kind` (game data looked at only when
    `scan`: JSON without a fractional number holds JSON data only)."""
    label = _SCALARS.get(kind)
    if label is not None:
        if type(value) is not kind:  # bool is not an int here, nor 1.0 an int
            raise Problem(f"expected {label}, got {show(value)}")
        return
    origin, args = get_origin(kind), get_args(kind)
    if origin is Annotated:
        _check_marked(value, args[1], scan)
    elif origin is Literal:
        if not isinstance(value, str) or value not in args:
            raise Problem(f"expected one of {', '.join(map(repr, args))}, got {show(value)}")
    elif kind == Frame:
        _check_frame(value, scan)
    elif origin in (Union, UnionType):  # `X | None` (| UnsetType: the key may be absent)
        if value is None and NoneType in args:
            return
        check_value(value, next(arg for arg in args if arg not in (NoneType, UnsetType)), scan)
    elif origin is list:
        if not isinstance(value, list):
            raise Problem(f"expected a list, got {show(value)}")
        _check_items(enumerate(value), args[0], scan, lambda i: f"[{i}]")
    elif origin is tuple:
        if not isinstance(value, list) or len(value) != len(args):
            raise Problem(f"expected a list of {len(args)} items, got "
                          + (f"{len(value)} items" if isinstance(value, list) else show(value)))
        for i, (item, item_kind) in enumerate(zip(value, args)):
            _check_items([(i, item)], item_kind, scan, lambda i: f"[{i}]")
    elif origin is dict:
        if not isinstance(value, dict):
            raise Problem(f"expected an object, got {show(value)}")
        _check_items(value.items(), args[1], scan, key_step)
    else:
        check_struct(value, kind, scan)


def _check_items(items: Iterable[tuple[Any, Any]], kind: Any, scan: bool,
                 step: Any) -> None:
    for key, item in items:
        try:
            check_value(item, kind, scan)
        except Problem as err:
            raise err.inside(step(key)) from None


def _check_marked(value: Any, mark: str, scan: bool) -> None:
    if mark == GAME_DATA:
        if scan:
            check_json_data(value)
    elif mark == LOG_ENTRY:
        check_log_entry(value, scan)
    else:
        assert mark == MOD_ENTRY
        if not isinstance(value, dict):
            raise Problem(f"expected a modifier (an object), got {show(value)}")
        check_struct(value, modifier_kind(value), scan)


def _check_frame(value: Any, scan: bool) -> None:
    if not isinstance(value, dict):
        raise Problem(f"expected a frame (an object), got {show(value)}")
    tag = value.get("k")
    cls = FRAME_KINDS.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise Problem(f"expected 'e' (an event) or 'p' (a waiting rule), got {show(tag)}",
                      (".k",))
    check_struct(value, cls, scan)


def check_struct(value: Any, cls: type[msgspec.Struct], scan: bool) -> None:
    """An object of the struct's keys (its tag's too), every required one, each fitting."""
    tag = cls.__struct_config__.tag_field
    fields = msgspec.structs.fields(cls)
    names = [*([tag] if tag else []), *(field.encode_name for field in fields)]
    if not isinstance(value, dict):
        raise Problem(f"expected an object ({', '.join(names)}), got {show(value)}")
    extra = sorted(set(value).difference(names))
    if extra:
        raise Problem(f"unknown key{'s' * (len(extra) > 1)} {', '.join(map(repr, extra))}",
                      (key_step(extra[0]),))
    for field in fields:
        key = field.encode_name
        if key not in value:
            if field.required:
                raise Problem(f"missing (the key {key!r} is required)", (key_step(key),))
            continue
        _check_items([(key, value[key])], field.type, scan, key_step)
