"""How much work rules may do between two decisions, so that a runaway rule (a trigger that
emits its own event, `repeat 10**12`, a procedure that calls itself for ever) ends as a
located `EngineFault` instead of a hung or exhausted process.

The defaults are far above what the shipped packs need (`bench/run.py` prints the most
steps any decision took); a pack may set its own in pack.yaml (`limits: {steps: ...}`) and
a host may pass `Limits` to `new_game` / `Game.load`.
"""
from __future__ import annotations

from typing import Any

import attrs

from engine.dsl.model import LIMIT_KEYS


def _positive(_inst: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"limit '{attribute.name}' must be a whole number of at least 1, "
                         f"not {value!r}")


@attrs.frozen
class Limits:
    # Rule steps between two decisions: a call of a procedure or of a value that may call
    # itself again (other values do bounded work), an event, a trigger, a loop iteration, or
    # an item of a list a loop or comprehension walks.
    steps: int = attrs.field(default=1_000_000, validator=_positive)
    frames: int = attrs.field(default=500, validator=_positive)  # waiting rules on the stack
    depth: int = attrs.field(default=100, validator=_positive)  # events running inside events
    list_size: int = attrs.field(default=100_000, validator=_positive)  # numbers(), +, ...

    @classmethod
    def from_meta(cls, data: Any) -> Limits:
        """Limits from pack.yaml's `limits:` mapping (already checked by the pack reader);
        missing keys keep their defaults."""
        if not isinstance(data, dict):
            return cls()
        return cls(**{k: v for k, v in data.items() if k in LIMIT_KEYS})

