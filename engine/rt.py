"""Helpers that generated pack code imports by name (`from engine.rt import *`)."""
from __future__ import annotations

from typing import Any, Sequence

__all__ = ["first", "last", "replaced"]


def first(items: Sequence[Any]) -> Any:
    return items[0] if items else None


def last(items: Sequence[Any]) -> Any:
    return items[-1] if items else None


def replaced(items: list[Any], index: int, value: Any) -> list[Any]:
    """A copy of `items` with `items[index]` set to `value` (rules never change a list in place)."""
    out = list(items)
    out[index] = value
    return out
