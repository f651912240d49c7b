"""How a save's values and places read in the messages that refuse it: a value as the JSON
file writes it, shortly, and a place as a path ("state.v.gold", "state.f['a b']")."""
from __future__ import annotations

import json
import re
from typing import Any

from engine.core.errors import SaveError

_SIMPLE_KEY = re.compile(r"[A-Za-z0-9_|-]+\Z")


def key_step(key: Any) -> str:
    """The step of a path into an object's `key`: `.key`, or `['key']` where it needs quoting."""
    return f".{key}" if isinstance(key, str) and _SIMPLE_KEY.match(key) else f"[{show(key)}]"


def show(value: Any) -> str:
    """A value as it reads in the JSON file, short."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, float):
        return f"a fractional number {value!r}"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)  # true, false, null: as the file writes them
    text = repr(value)
    if len(text) <= 60:
        return text
    return text[:56] + ("...'" if isinstance(value, str) else "...")


def listing(names: Any, limit: int = 8) -> str:
    """Names sorted, the first `limit` of them shown."""
    ordered = sorted(map(str, names))
    shown = ", ".join(ordered[:limit])
    return shown + (f" and {len(ordered) - limit} more" if len(ordered) > limit else "")


def fail(path: str, message: str) -> SaveError:
    """The refusal of a save, at `path`."""
    return SaveError(f"{path}: {message}")
