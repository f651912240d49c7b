"""Who sits at a side: a bot (engine.frontends.bots) or a person at the terminal
(engine.frontends.terminal), named in a `--bots` list such as 'human,greedy'."""
from __future__ import annotations

from typing import Any

from engine.frontends.bots import BOT_KINDS, make_bot, unknown_kind

SEAT_KINDS = (*BOT_KINDS, "human")


def make_seat(spec: str, seed: int = 0, **options: Any) -> Any:
    """A seat from its name: 'random', 'greedy' or 'human' (a terminal player)."""
    kind = spec.strip().lower()
    if kind == "human":
        from engine.frontends.terminal import HumanPlayer  # the terminal only for a person
        return HumanPlayer(**options)
    if kind in BOT_KINDS:
        return make_bot(kind, seed, **options)
    raise unknown_kind("player", spec, kind, SEAT_KINDS)


def parse_seats(spec: str | list[str], sides: list[str]) -> list[str]:
    """The seat kinds for each side, in `sides` order, from 'random,greedy' (one entry per
    side; a single entry stands for every side). Raises ValueError on a bad spec."""
    parts = [p.strip().lower() for p in (spec.split(",") if isinstance(spec, str) else spec)]
    if len(parts) == 1 and len(sides) > 1:
        if parts[0] == "human":  # seating people on every side is never a shorthand
            raise ValueError(f"--bots needs one entry per side ({', '.join(sides)}), e.g. "
                             f"{','.join(['human'] + ['greedy'] * (len(sides) - 1))}; "
                             f"people on every side: {','.join(['human'] * len(sides))}")
        parts = parts * len(sides)
    if len(parts) != len(sides):
        raise ValueError(f"--bots needs one entry per side ({', '.join(sides)}), "
                         f"got {len(parts)}: {','.join(parts)}")
    for p in parts:
        if p not in SEAT_KINDS:
            raise unknown_kind("player", p, p, SEAT_KINDS)
    return parts
