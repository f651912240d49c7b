"""The progress bar of `engine simulate` (tqdm, imported only when it is drawn)."""
from __future__ import annotations

import os
import sys
from typing import Any


class Progress:
    """A progress bar on stderr for `simulate`: games done of the total, games/s, elapsed and
    remaining time, and the running win shares of each side (`labels`: side -> its name for
    people), after `desc` when given. Call it with each game's result; close it (or use
    `with`) at the end."""

    def __init__(self, total: int, labels: dict[str, str], file: Any = None,
                 desc: str | None = None):
        from tqdm import tqdm  # here, not at the top: `engine --help` stays fast

        class Bar(tqdm):  # type: ignore[type-arg]  # (generic in its stubs only)
            # no monitor thread: simulate's workers may be forked after the bar starts
            monitor_interval = 0

        self.labels = labels
        self.wins = dict.fromkeys(labels, 0)
        self.draws = self.other = self.done = 0
        file = file or sys.stderr
        try:  # a terminal that tells no size (a fresh pty: 0 x 0) would show no bar at all
            sized = os.get_terminal_size(file.fileno()).columns > 0
        except (AttributeError, OSError, ValueError):
            sized = False
        size = {"dynamic_ncols": True} if sized else {"nrows": 24}
        self.bar = Bar(total=total, unit="game", file=file, miniters=1, desc=desc, **size)

    def __call__(self, result: dict[str, Any]) -> None:
        self.done += 1
        if result["status"] != "over":
            self.other += 1
        elif result["winner"] is None:
            self.draws += 1
        else:
            self.wins[result["winner"]] = self.wins.get(result["winner"], 0) + 1
        parts = [f"{self.labels.get(side, side)} {k / self.done:.0%}"
                 for side, k in self.wins.items()]
        if self.draws:
            parts.append(f"draws {self.draws / self.done:.0%}")
        if self.other:
            parts.append(f"unfinished or failed {self.other}")
        self.bar.set_postfix_str(", ".join(parts), refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
