"""The game's log and its end: what rules say (`say`), where each logged value lies (so a
view can hide what a side may not see), the end of the game (`win`), a rule's own fault
(`fault`), and the rules running when something broke (`_running`, for a fault's message).
Entries are written through `_log`, the log's own append (RuntimeState)."""
from __future__ import annotations

import itertools
from typing import Any

from engine.core.errors import EngineFault
from engine.core.runtime.faults import describe_rule
from engine.core.runtime.signals import GameOver
from engine.core.runtime.state import Data, RuntimeState


class Log(RuntimeState):
    def win(self, side: str | None, reason: str | None = None,
            args: list[Any] | None = None) -> None:
        """End the game: `side` wins (None: no one). `reason`, a template with numbered
        placeholders filled by `args` like a log line's, says why: the result keeps it as
        text (in the pack's own language) and the log's end entry as the template, so that a
        view can show it in its language."""
        entry: Data = {"t": "end", "winner": side}
        text: str | None = "rule"
        if reason is not None:
            entry.update(m=reason, a=list(args or []))
            text = self.reason_texts.get(reason) if not args else None
            if text is None:  # (a reason without values is rendered once per pack)
                from engine.i18n.translations import render_log_entry
                text = render_log_entry({"t": "say", "m": reason, "a": entry["a"]}, self.pack)
                if not args:
                    self.reason_texts[reason] = text
        self.s["result"] = {"winner": side, "reason": text}
        self._log(entry)
        raise GameOver()

    def say(self, message: str, args: list[Any]) -> None:
        if self.logging:
            self._log({"t": "say", "m": message, "a": args, "at": self._wheres(args)})

    def _wheres(self, values: list[Any]) -> list[Any]:
        """`_where` of each of `values` (most often text: a record's place, or None)."""
        try:  # a value that is no record's id has no place: loc holds records' ids only
            return list(map(self.loc.get, values))
        except TypeError:  # a list among them (unhashable): where each of its items lies
            return [self._where(value) for value in values]

    def _where(self, value: Any) -> Any:
        """Where a logged value lies (a zone key, or a list of them for a list), so that a
        view can hide the cards a player may not see."""
        if isinstance(value, str):
            return self.loc.get(value)
        if isinstance(value, list):
            return [self._where(item) for item in value]
        return None

    def fault(self, message: str) -> None:
        raise EngineFault(message)

    def _running(self) -> str:
        """'; running: event turn > procedure loop (rules.rules:10) > ...' for a fault."""
        parts: list[str] = []
        for frame in self.stack:
            if frame["k"] == "e":
                parts.append(f"event {frame['n']}")
            else:
                parts.append(describe_rule(frame["f"], self.pack))
        nested = self.running_events[len([f for f in self.stack if f["k"] == "e"]):]
        parts += [f"event {name}" for name in nested]
        if not parts:
            return ""
        runs = [(part, len(list(group))) for part, group in itertools.groupby(parts)]
        return "; running: " + " > ".join(p if n == 1 else f"{p} ({n} times)" for p, n in runs)
