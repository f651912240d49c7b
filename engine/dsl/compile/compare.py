"""Optimisation pass: `a == none` is Python's `is None` (no value of a rule is equal to None
without being it), which skips the rich comparison of a text or a number with None; a
literal against none is worked out when the rule compiles."""
from __future__ import annotations

import ast as pyast


def comparison(op: str, left: str, right: str, optimize: bool) -> str:
    """Code for `left op right` (both code)."""
    if optimize and op in ("==", "!=") and "None" in (left, right):
        other = right if left == "None" else left
        try:  # a literal against none (`r.field == none` of a record's given field)
            return repr((pyast.literal_eval(other) is None) == (op == "=="))
        except (ValueError, SyntaxError):  # not a literal: read when the rule runs
            op = "is" if op == "==" else "is not"
    return f"({left} {op} {right})"
