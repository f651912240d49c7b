"""From lark's tokens and rule positions to the pieces of the syntax tree: positions, the text
of a string literal, optional parts; moving a tree's positions; `Located`, the error a rule
raises for a mistake the grammar cannot see (a clause given twice, a number too large).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeVar, cast

import attrs
from lark import Token
from lark.tree import Meta

from engine.dsl import ast as A

Children = list[Any]  # what a rule's children became (tokens, nodes, tuples): one per item
_Node = TypeVar("_Node")


class Located(Exception):
    """A mistake found while building the tree, with where it is and its diagnostic code."""

    def __init__(self, message: str, at: A.Pos, code: str):
        super().__init__(message)
        self.message, self.at, self.code = message, at, code


def node_pos(meta: Meta) -> A.Pos:
    """Where a rule's text is (NOPOS for a rule that matched nothing)."""
    if getattr(meta, "empty", True):
        return A.NOPOS
    return A.Pos(meta.line, meta.column, meta.end_line, meta.end_column)


def token_pos(tok: Token) -> A.Pos:
    return A.Pos(tok.line or 0, tok.column or 0, tok.end_line or 0, tok.end_column or 0)


def unquote(tok: Token) -> str:
    """The text a string literal stands for: quotes dropped, escapes read."""
    body = str(tok)[1:-1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def optional_items(items: Iterable[Any] | None) -> tuple[Any, ...]:
    """An optional part of a rule (`[params]`) as a tuple: () when not written."""
    return tuple(items) if items is not None else ()


def shift(node: _Node, dl: int, dc: int) -> _Node:
    """Move every position by (dl, dc): for chunks and for effect text inside YAML."""
    if dl == 0 and dc == 0:
        return node
    return cast(_Node, _shifted(node, dl, dc))


def _shifted(node: Any, dl: int, dc: int) -> Any:
    if isinstance(node, (list, tuple)):
        return type(node)(_shifted(n, dl, dc) for n in node)
    if attrs.has(type(node)):
        changes = {}
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            if f.name == "at" and isinstance(v, A.Pos) and v.line:
                # only the first line of an effect is indented by the YAML column
                changes["at"] = A.Pos(v.line + dl, v.col + dc, v.end_line + dl, v.end_col + dc)
            elif isinstance(v, (list, tuple)) or attrs.has(type(v)):
                changes[f.name] = _shifted(v, dl, dc)
        return attrs.evolve(node, **changes) if changes else node
    return node
