"""The checker's types: a small structural type language over the pack's entity types.

A type is a string or a tuple:
  "int" "bool" "text" "side" "none" "any" "table" "graph"   base types
  "<entity type name>"                                   an id of a record of that type
  "<enum name>"                                          one of the enum's values (text)
  ("list", T)                                            a list
  ("zone", T)                                            a zone holding T (reads as a list)
"""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A

Type = str | tuple[Any, ...]  # a tuple is (constructor, element type): see above

BASE = ("int", "bool", "text", "side", "any", "effect", "triggers")
ANY = "any"


def list_of(t: Type) -> Type:
    return ("list", t)


def elem(t: Type) -> Type | None:
    """The element type of something iterable, or None when it is not iterable."""
    if isinstance(t, tuple) and t[0] in ("list", "zone"):
        inner: Type = t[1]
        return inner
    if t == ANY:
        return ANY
    return None


def show(t: Type) -> str:
    if isinstance(t, tuple):
        return f"{t[0]} of {show(t[1])}"
    return t


def from_ast(t: A.TypeExpr) -> Type:
    if isinstance(t, A.TList):
        return list_of(from_ast(t.elem))
    return t.name


def compatible(want: Type, got: Type) -> bool:
    """May a value of type `got` be used where `want` is expected?"""
    if want in (ANY, got) or got == ANY or got == "none":
        return True
    if isinstance(want, tuple) and isinstance(got, tuple):
        if want[0] == "list" and got[0] in ("list", "zone"):
            return compatible(want[1], got[1])
        return want[0] == got[0] and compatible(want[1], got[1])
    if isinstance(want, tuple) and want[0] == "list" and isinstance(got, tuple):
        return False
    return False


def unify(a: Type, b: Type) -> Type:
    if a == b or b == "none":
        return a
    if a == "none":
        return b
    if isinstance(a, tuple) and isinstance(b, tuple):
        return ("list", unify(a[1], b[1]))
    return ANY
