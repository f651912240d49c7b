"""Win and draw shares with their 95% Wilson score interval, as JSON and for people."""
from __future__ import annotations

import math


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for z = 1.96) of a proportion of `k` in `n`, as
    (lower, upper) in 0..1; it stays inside 0..1 and is sound for small `n` and for shares
    near 0 or 1, where the normal approximation is not. (0, 1) when `n` is 0."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def share(k: int, n: int) -> dict[str, float]:
    """`k` of `n` as JSON: the share and its 95% Wilson interval, 4 decimals."""
    lower, upper = wilson(k, n)
    return {"rate": round(k / n, 4) if n else 0.0, "lower": round(lower, 4),
            "upper": round(upper, 4)}


def format_share(k: int, n: int) -> str:
    """'61.3% (58.2–64.3%)': a share and its 95% Wilson interval, for people."""
    lower, upper = wilson(k, n)
    return f"{(k / n if n else 0.0):.1%} ({lower:.1%}–{upper:.1%})".replace("%–", "–", 1)
