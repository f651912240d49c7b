"""Table look-ups by row (usually a die roll) and column, with range keys like '2-4' or '5+'."""
from __future__ import annotations

from typing import Any

from engine.dsl.pack import key_matcher


def _matches(spec: tuple[Any, ...] | None, value: Any) -> bool:
    """Does `value` fall under the table key `spec` (engine.dsl.pack.key_matcher's form)?"""
    if spec is None:
        return False
    if spec[0] == "=":
        same: bool = value == spec[1]
        return same
    lo, hi = spec
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return lo <= value and (hi is None or value <= hi)


class Table:
    def __init__(self, record: dict[str, Any]):
        self.id = record["id"]
        self.rows = [(key_matcher(k), v) for k, v in record.get("rows", {}).items()]
        cols = record.get("columns")
        self.cols = [key_matcher(c) for c in cols] if cols else None
        self.col_keys = list(cols) if cols else None

    def lookup(self, row: Any, col: Any = None) -> Any:
        for spec, value in self.rows:  # noqa: B007 (the row found is read after the loop)
            if _matches(spec, row):
                break
        else:
            raise LookupError(f"table '{self.id}' has no row for {row!r}")
        if col is None:
            return value
        if isinstance(value, dict):
            for k, v in value.items():
                if _matches(key_matcher(k), col):
                    return v
        elif isinstance(value, list) and self.cols is not None:
            for i, spec in enumerate(self.cols):
                if _matches(spec, col):
                    return value[i]
        raise LookupError(f"table '{self.id}' has no column {col!r} in row {row!r}")
