"""Values as YAML gives them and as a designer reads them: shown in messages
(`show_value`), compared as data (`same`), the values of literal expressions
(`literal_value`).
"""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A

NOT_LITERAL = object()  # what `literal_value` gives for an expression that is no literal


def plain(value: Any) -> Any:
    """YAML data as plain lists and dicts."""
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def same(a: Any, b: Any) -> bool:
    """Equal as data, telling true from 1 and 2 from "2" (mappings may mix key kinds,
    as table rows do: `1:` and `"2-4":`)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (bool, int, float, str)) and isinstance(b, (bool, int, float, str)):
        return isinstance(a, bool) == isinstance(b, bool) and \
            isinstance(a, str) == isinstance(b, str) and a == b
    return bool(a == b)


def show_value(value: Any) -> str:
    """A value as a designer writes it: none, true, 3, text, [a, b]."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def brief(value: Any, width: int = 60) -> str:
    """`show_value`, cut short: a message should not repeat a whole list."""
    shown = show_value(value)
    return shown if len(shown) <= width else shown[:width - 3] + "..."


def fraction_in(value: Any) -> float | None:
    """The first fractional number in YAML data (in lists and maps too), or None."""
    if isinstance(value, float):
        return value
    items = value.values() if isinstance(value, dict) else value if isinstance(
        value, list) else ()
    return next((f for f in map(fraction_in, items) if f is not None), None)


def literal_value(e: A.Expr) -> Any:
    """The value a literal expression stands for (ids as text), or NOT_LITERAL."""
    if isinstance(e, (A.Int, A.Str, A.Bool)):
        return e.value
    if isinstance(e, A.NoneLit):
        return None
    if isinstance(e, A.Name):  # a side or record id; checked with the other names
        return e.id
    if isinstance(e, A.ListLit):
        items = [literal_value(i) for i in e.items]
        return NOT_LITERAL if NOT_LITERAL in items else items
    return NOT_LITERAL

