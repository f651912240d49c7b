"""`Scope`: the locals of the rule being checked, and which of its `let`s are read."""
from __future__ import annotations

import attrs

from engine.dsl import ast as A
from engine.dsl.types import Type


@attrs.define
class Scope:
    """What a name means inside one rule (a procedure, trigger, value, default...), whose
    generated function is `fn`, written in the file `path`."""

    fn: str
    path: str
    vars: list[dict[str, Type]]  # the frames of locals, innermost last
    returns: Type | None = None
    loops: int = 0
    self_type: str | None = None
    self_record: str | None = None  # in a record's triggers, `self` is this record
    # why an event's state may not be used here (a state default, a `while` duration)
    no_evstate: str | None = None
    # the `let` that made each local, by (frame, name); every let; the lets that were read
    lets: dict[tuple[int, str], A.Let] = attrs.Factory(dict)
    all_lets: list[A.Let] = attrs.Factory(list)
    # frames with a let: kept, so ids stay theirs
    frames: list[dict[str, Type]] = attrs.Factory(list)
    read: set[int] = attrs.Factory(set)

    def lookup(self, name: str) -> Type | None:
        """The type of the local `name`, the innermost one, or None when there is none."""
        for frame in self.vars[::-1]:
            if name in frame:
                return frame[name]
        return None

    def bind(self, name: str, t: Type, let: A.Let | None = None) -> None:
        frame = self.vars[-1]
        frame[name] = t
        if let is not None:
            self.frames.append(frame)
            self.lets[(id(frame), name)] = let
            self.all_lets.append(let)

    def mark_read(self, name: str) -> None:
        """The local `name` is read: its `let` (if any) is used."""
        for frame in reversed(self.vars):
            if name in frame:
                let = self.lets.get((id(frame), name))
                if let is not None:
                    self.read.add(id(let))
                return

    def names(self) -> set[str]:
        return {n for f in self.vars for n in f}
