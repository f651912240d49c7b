"""Who sits at a side: a bot (engine.frontends.bots) or a person at the terminal
(engine.frontends.terminal), named in a `--bots` list such as 'human,greedy'."""
from __future__ import annotations

from typing import Any

from engine.frontends.bots import BOT_KINDS, is_bot_spec, make_bot, split_spec, unknown_kind

SEAT_KINDS = (*BOT_KINDS, "human")


def make_seat(spec: str, seed: int = 0, **options: Any) -> Any:
    """A seat from its name: 'random', 'greedy', 'mcts' (with a level: 'mcts:200') or
    'human' (a terminal player)."""
    kind = spec.strip().lower()
    if kind == "human":
        from engine.frontends.terminal import HumanPlayer  # the terminal only for a person
        return HumanPlayer(**options)
    return make_bot(_bot_spec(spec), seed, **options)


def _bot_spec(spec: str) -> str:
    """`spec` when it names a bot; else the seat error (a bad level: the level's)."""
    kind = spec.strip().lower().partition(":")[0].strip()
    if kind in BOT_KINDS:
        split_spec(spec)  # a bad level says so
        return spec
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
        if p != "human" and not is_bot_spec(p):
            _bot_spec(p)
    return parts
