"""Where an expression is compiled: in a resumable function or a plain one, which names are
Python locals there, and which names an inlined value's arguments stand for."""
from __future__ import annotations

from collections.abc import Iterable


class Context:
    """What the expression compiler needs to know about where it is."""

    __slots__ = ("resumable", "python_locals", "substitutions")

    def __init__(self, resumable: bool, python_locals: Iterable[str] = (),
                 substitutions: dict[str, str] | None = None):
        # a resumable function keeps its locals in the frame's `L` dict (engine.dsl.compile
        # .machine), a plain one in Python locals `l_<name>`
        self.resumable = resumable
        self.python_locals = set(python_locals)
        # an inlined value's parameters -> the code of its arguments
        self.substitutions = substitutions or {}

    def inner(self, name: str) -> Context:
        """The context inside a comprehension or lambda that binds `name`."""
        substitutions = {k: v for k, v in self.substitutions.items() if k != name}
        return Context(self.resumable, self.python_locals | {name}, substitutions)

    def local(self, name: str) -> str:
        """Code that reads (or is assigned) the rule's local `name`."""
        if name in self.substitutions:
            return self.substitutions[name]
        if not self.resumable or name in self.python_locals:
            return f"l_{name}"
        return f"L[{name!r}]"
