"""Optimisation pass: small values written in place of their calls. A value that only
reads, calls no procedure and walks nothing, with a short formula, is inlined: its formula
replaces a call with plain arguments (engine.dsl.compile.expressions). A small value that
walks is unfolded: written out as statements where a formula calls it (engine.dsl.compile
.loops). Either reads what the call would and charges the same steps."""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl.check import CheckResult
from engine.dsl.compile.syntax import call_arguments, resolved_kind
from engine.dsl.model import PackModel

# Built-ins an inlined value may not call (they roll, run rules, search or build lists), and
# the longest formula (in characters of code) inlined, and unfolded
NOT_INLINED = frozenset({"roll", "random_pick", "run", "numbers", "neighbors", "distance",
                         "path", "reachable"})
MAX_INLINED = 160
MAX_UNFOLDED = 240


def plain_argument(checked: CheckResult, expr: A.Expr) -> bool:
    """A literal, local or const: read as often as the inlined formula reads it."""
    if isinstance(expr, (A.Int, A.Str, A.Bool, A.NoneLit)):
        return True
    return isinstance(expr, A.Name) and resolved_kind(checked, expr) in (
        "local", "const", "kconst")


def inlinable(checked: CheckResult, inlined: set[str], expr: Any) -> bool:
    """A formula that walks nothing, rolls nothing and calls no procedure nor any value
    but `inlined` ones with plain arguments."""
    if isinstance(expr, (A.Comprehension, A.Lambda)):
        return False
    if isinstance(expr, A.Call):
        res = checked.res.get(id(expr), ("",))
        if res[0] == "value":
            if expr.func not in inlined or not all(
                    plain_argument(checked, arg) for arg in call_arguments(checked, expr)):
                return False
        elif res[0] != "builtin" or expr.func in NOT_INLINED:
            return False
    if isinstance(expr, tuple):
        return all(inlinable(checked, inlined, item) for item in expr)
    if hasattr(expr, "__attrs_attrs__"):
        return all(inlinable(checked, inlined, getattr(expr, field.name))
                   for field in expr.__attrs_attrs__ if field.name != "at")
    return True


def inlined_and_unfolded(model: PackModel, checked: CheckResult, bodies: dict[str, str],
                         optimize: bool, pure: set[str], recursive: set[str],
                         run_memo: set[str], static: set[str]) -> tuple[set[str], set[str]]:
    """(the values inlined, the values unfolded), from each value's compiled formula
    (`bodies`) and what the other analyses found."""
    candidates = {name for name in model.values
                  if optimize and name in pure
                  and name not in recursive and name not in checked.modified
                  and name not in run_memo
                  and len(bodies[name]) <= MAX_INLINED}
    inlined: set[str] = set()
    changed = True
    while changed:  # a formula calling only inlined values (with plain arguments) too
        changed = False
        for name in sorted(candidates - inlined):
            if inlinable(checked, inlined, model.values[name].expr):
                inlined.add(name)
                changed = True
    # small values that walk: written out where a value's formula calls them
    unfolded = {name for name in candidates - inlined
                if name not in static and len(bodies[name]) <= MAX_UNFOLDED}
    return inlined, unfolded
