"""The log's text in a save, kept between saves: a long game's log is most of its save."""
from __future__ import annotations

from typing import Any

from engine.core.saves.canonical_json import canonical


class LogText:
    """The canonical JSON of a log's entries written so far, kept between saves: the log
    only grows and an entry never changes once written, so a save writes only the entries
    new since the last. `last` is the entry the text ends with, held so that a log cut
    back (undo) and grown again is noticed: its entry at that place is then another object."""

    __slots__ = ("count", "last", "parts", "text")

    def __init__(self) -> None:
        self.count = 0  # entries written so far
        self.last: dict[str, Any] | None = None
        self.parts: list[str] = []  # the texts of the entries written at each save, unbracketed
        self.text = "[]"

    def of(self, log: list[dict[str, Any]], *, nan_free: bool = False) -> str:
        """The canonical JSON of `log` (see canonical: `nan_free`)."""
        count = self.count
        if count > len(log) or (count and log[count - 1] is not self.last):
            count, self.parts, self.text = 0, [], "[]"  # cut back since: written again
        if count < len(log):
            self.parts.append(canonical(log[count:], nan_free=nan_free)[1:-1])
            self.count, self.last = len(log), log[-1]
            # joined once per new entries, not per save (two copies of most of a save)
            self.text = "[" + ",".join(filter(None, self.parts)) + "]"
        return self.text
