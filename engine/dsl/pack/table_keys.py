"""The keys of a table's rows and columns: a number, a range ('2-4', '5+') or a name."""
from __future__ import annotations

import re
from typing import Any

from engine.dsl.pack.words import SLUG

# Bounded digits: int() refuses more than 4,300, and no table needs more than a few.
_RANGE = re.compile(r"^\s*(-?\d{1,18})\s*(?:-\s*(-?\d{1,18})|(\+))?\s*$")



def key_matcher(spec: Any) -> tuple[Any, Any] | None:
    """A table key: 3 -> (3, 3); '2-4' -> (2, 4); '5+' -> (5, None); 'name' -> ('=', name)."""
    if isinstance(spec, bool):
        return None
    if isinstance(spec, int):
        return (spec, spec)
    if isinstance(spec, str):
        m = _RANGE.match(spec)
        if m:
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) else (None if m.group(3) else lo)
            return (lo, hi)
        if SLUG.match(spec):
            return ("=", spec)
    return None

