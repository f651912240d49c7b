"""Helpers that generated pack code imports by name (`from engine.rt import *`)."""
from __future__ import annotations

from typing import Any, Sequence

__all__ = ["first", "last"]


def first(items: Sequence[Any]) -> Any:
    return items[0] if items else None


def last(items: Sequence[Any]) -> Any:
    return items[-1] if items else None
