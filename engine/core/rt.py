"""Helpers that generated pack code imports by name (`from engine.core.rt import *`)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["first", "last", "replaced", "imul", "RuleError", "Runaway"]

INT_LIMIT = 2 ** 63  # numbers in rules stay within a 64-bit integer, like a board game's


class RuleError(Exception):
    """A rule asked for something impossible (a choice of -1 cards). The run loop turns it
    into an EngineFault that names the rule, with this message as it is."""


class Runaway(RuleError):
    """A rule went past a limit (steps, frames, nesting, list size, number size)."""


def first(items: Sequence[Any]) -> Any:
    return items[0] if items else None


def last(items: Sequence[Any]) -> Any:
    return items[-1] if items else None


def replaced(items: list[Any], index: int, value: Any) -> list[Any]:
    """A copy of `items` with `items[index]` set to `value` (rules never change a list in
    place)."""
    out = list(items)
    out[index] = value
    return out


def imul(a: Any, b: Any) -> int:
    """`a * b` for rules: whole numbers only, and the product must stay below 2**63, since a
    repeated `x = x * x` would otherwise grow a number of millions of digits."""
    if type(a) is not int or type(b) is not int:
        raise Runaway(f"'*' needs two whole numbers, got {a!r} and {b!r}")
    product = a * b
    if -INT_LIMIT < product < INT_LIMIT:
        return product
    raise Runaway(f"a product grew past 2**63 ({a} * {b})")
