"""`CheckResult`: what the checker hands the compiler, besides its diagnostics."""
from __future__ import annotations

from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl.errors import Diagnostic
from engine.dsl.types import Type

# what a name, index, attribute or call refers to: (kind, details...), as ("local", name),
# ("var", name), ("field", record type, field), ("proc", name, as a statement)...
Resolution = tuple[Any, ...]
# a call's, emit's or modify's arguments in parameter order, defaults filled in
BoundArgs = tuple[A.Expr | None, ...]


@attrs.define
class CheckResult:
    """The checker's annotations, keyed by the identity of syntax-tree nodes."""

    types: dict[int, Type]
    res: dict[int, Resolution]
    suspending_fns: set[str]
    suspending_events: set[str]
    diagnostics: list[Diagnostic]
    modified: set[str] = attrs.Factory(set)  # values some `modify` targets
    # id(call, emit or modify) -> its arguments in parameter order, defaults filled in
    bound: dict[int, BoundArgs] = attrs.Factory(dict)
    const_order: list[str] = attrs.Factory(list)  # consts in the order they are evaluated
    # ids of nodes whose resolution is no read (assignment targets, the type of `type.id`)
    not_read: set[int] = attrs.Factory(set)
