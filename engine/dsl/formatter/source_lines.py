"""Where a node of the syntax tree stands in the source: its first line and the last
line holding a token of it (0 when positions are unknown, as for a tree built by hand).
"""
from __future__ import annotations

from typing import Any

import attrs

from engine.dsl import ast as A

_COMPOUND = (A.If, A.For, A.While, A.Repeat)
# Nodes whose parsed `at` runs on over the line break (and blank lines) after them.
_LOOSE_END = (A.TypeDecl, A.VarDecl, A.ZoneDecl, A.EventDecl, A.ProcDecl, A.ValueDecl,
              A.CheckDecl, A.GraphDecl, A.TriggerDecl, A.FieldDecl, A.WindowDecl,
              A.WindowOpening, A.EnumDecl, A.ConstDecl) + _COMPOUND


def first_line(node: object) -> int:
    """The source line where `node` starts (0 when unknown)."""
    at = getattr(node, "at", None)
    return at.line if isinstance(at, A.Pos) else 0


def last_line(*nodes: object) -> int:
    """The last source line holding a token of the nodes (0 when positions are unknown)."""
    best = 0
    stack: list[Any] = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (list, tuple)):
            stack.extend(n)
            continue
        if not attrs.has(type(n)):
            continue
        at = getattr(n, "at", None)
        if isinstance(at, A.Pos):
            best = max(best, at.line if isinstance(n, _LOOSE_END) else at.end_line)
        stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)) if f.name != "at")
    return best

