"""The game's random numbers: SplitMix64, whose whole state is one integer.

A single int saves, loads and copies for free, so replays and clones are exact.
"""
from __future__ import annotations

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def below(state: int, n: int) -> tuple[int, int]:
    """(new state, uniform int in [0, n)): SplitMix64's next 64 bits, scaled by a
    multiply-shift, whose bias is < 2**-50."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, ((z ^ (z >> 31)) * n) >> 64
