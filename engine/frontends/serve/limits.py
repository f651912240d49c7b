"""The server's limits on what anonymous clients may make: games per client per time, and
open games in all. Both refuse with 429 and a `Retry-After` (engine.frontends.serve.app)."""
from __future__ import annotations

import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable

import attrs

RATE = re.compile(r"(\d+)/(\d+(?:\.\d+)?)s?")
MAX_CLIENTS_KEPT = 10_000  # clients remembered at once: the oldest are forgotten past that


@attrs.frozen
class Rate:
    """At most `count` in any `seconds`."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Rate:
        """'20/60' (or '20/60s'): 20 in 60 seconds. ValueError saying so otherwise."""
        m = RATE.fullmatch(text.strip())
        if not m or int(m.group(1)) < 1 or float(m.group(2)) <= 0:
            raise ValueError(f"{text!r} is not a rate like 20/60 (20 in 60 seconds)")
        return cls(int(m.group(1)), float(m.group(2)))

    def __str__(self) -> str:
        return f"{self.count}/{self.seconds:g}s"


class RateLimit:
    """A token bucket per client: `rate.count` at once, refilled at `rate.count` per
    `rate.seconds`. Thread-safe."""

    def __init__(self, rate: Rate, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, client: str) -> float | None:
        """Take one for `client`: None when allowed, else the seconds until one is free."""
        per_second = self.rate.count / self.rate.seconds
        with self._lock:
            now = self._clock()
            tokens, then = self._buckets.pop(client, (float(self.rate.count), now))
            tokens = min(float(self.rate.count), tokens + (now - then) * per_second)
            if tokens >= 1:
                self._buckets[client] = (tokens - 1, now)
                wait = None
            else:
                self._buckets[client] = (tokens, now)
                wait = (1 - tokens) / per_second
            while len(self._buckets) > MAX_CLIENTS_KEPT:
                self._buckets.popitem(last=False)
            return wait


def retry_after(seconds: float) -> str:
    """The `Retry-After` header's value: whole seconds, at least 1."""
    return str(max(1, math.ceil(seconds)))
