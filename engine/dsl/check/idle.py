"""What a choice's `no effect when` condition reads that its decider may not see (W289).

The engine works the condition out on the real state and shows the marks to the decider, so
a condition that reads a hidden var or zone, or another side's private one, tells the decider
a secret. The check is cheap and partial: it looks at the condition's own text (a value it
calls is not followed), and counts a private var or zone as seen only when indexed by the very
expression that names the decider (`by s` ... `hand[s]`). Counting a zone (`count(deck)`) shows
only its size, which every side sees.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine.dsl import ast as A
from engine.dsl.model import PackModel


def unseen_reads(model: PackModel, cond: A.Expr, decider: A.Expr,
                 is_local: Callable[[str], bool]) -> Iterator[tuple[str, A.Pos]]:
    """(what is read, where) for each read in `cond` of a var or zone the side `decider`
    may not see; `is_local(name)`: the name is a local (or the choice's own), not a var."""

    def hidden(name: str, args: tuple[A.Expr, ...]) -> str | None:
        if is_local(name):
            return None
        var = model.vars.get(name)
        if var is not None:
            kind = var.visibility
        elif name in model.zones:
            flags = model.zones[name].flags
            kind = "hidden" if "hidden" in flags else "private" if "private" in flags \
                else "public"
        else:
            return None
        if kind == "hidden" or kind == "private" and (not args or args[0] != decider):
            return f"{kind} {'var' if var is not None else 'zone'} '{name}'"
        return None

    def walk(node: Any) -> Iterator[tuple[str, A.Pos]]:
        if isinstance(node, A.Call) and node.func == "count" and len(node.args) == 1 \
                and _zone_read(model, node.args[0], is_local):
            return  # a zone's size: seen by all
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name):
            what = hidden(node.obj.id, node.args)
            if what is not None:
                yield what, node.at
            for arg in node.args:
                yield from walk(arg)
            return
        if isinstance(node, A.Name):
            what = hidden(node.id, ())
            if what is not None:
                yield what, node.at
            return
        if isinstance(node, tuple):
            for item in node:
                yield from walk(item)
        elif hasattr(node, "__attrs_attrs__"):
            for field in node.__attrs_attrs__:
                if field.name != "at":
                    yield from walk(getattr(node, field.name))

    yield from walk(cond)


def _zone_read(model: PackModel, e: A.Expr, is_local: Callable[[str], bool]) -> bool:
    """Is `e` a zone, by its name (`deck`, `hand[s]`)?"""
    name = e.obj if isinstance(e, A.Index) else e
    return isinstance(name, A.Name) and name.id in model.zones and not is_local(name.id)
