"""Vars written by rules (`set`, `clamp`), and what changes the values rules read for a
while: modifiers (`modify ... by/to/at least/at most`, read by `modint` and `modto`) and
temporary sets (`set var[...] = now until ...`), with their durations and expiry.

Modifiers and temporary sets are entries of `mods` (plain data, in the order made):
  {"value", "key", "amount", "dur"}            `modify v(...) by amount`
  {"value", "key", "op", "amount", "dur"}      op: "to" (amount is the new value),
                                               "least" or "most" (a clamp)
  {"var", "key", "was", "now", "dur"}          `set var[...] = now until ...`
A duration ("dur") is null (for ever) or
  ["end", event, depth] / ["end", event, depth, n]: at the end of the instance of the
      event running at `depth` (null: the next to end); with n, at the n-th end
  ["start", event] / ["start", event, n]: when the event starts (the n-th time)
  ["any", [end or start durations]]: at the first of them (`until A or B`)
  ["while", condition function, captured locals]: applies while it holds
Those lasting `until end of` an event expire when it finishes (and temporary sets give
their var its value back); those lasting `until e` expire when e starts."""
from __future__ import annotations

from typing import Any

from engine.core.rt import RuleError
from engine.core.runtime.state import Data, RuntimeState


class Modifiers(RuntimeState):
    def set(self, name: str, key: str, value: Any) -> None:
        table = self.s["v"][name]  # writing reads nothing: not through the undo watchers
        if key not in table:  # `mark[c] = ...` with c none, after a choice from nothing
            raise RuleError(f"{name}[{'none' if key is None else key}] is not a place of "
                            f"var '{name}' (an index that is none?)")
        table[key] = value
        if self.memo:
            self.memo.clear()  # changed(), inline on this hot path
        if self.logging:
            entry = {"t": "set", "n": name, "k": key, "v": value}
            if self.made is not None and "#" in key:  # indexed by records made in play:
                entry["at"] = [self.loc.get(p) for p in key.split("|")]  # where they lay
            self._log(entry)

    def clamp(self, name: str, value: int) -> int:
        bounds: tuple[int, int] = self.pack.ns["BOUNDS"][name](self)
        lo, hi = bounds
        return lo if value < lo else hi if value > hi else value

    def modify(self, value: str, key: str, amount: Any, dur: Any, op: str = "by") -> None:
        entry = {"value": value, "key": key, "amount": amount, "dur": self.duration(dur)}
        if op != "by":
            entry["op"] = op
        self._add_entry(entry)

    def set_until(self, name: str, key: str, value: Any, dur: Any) -> None:
        """`set name[key] = value until ...`: set now; undone when the duration ends."""
        table = self.s["v"][name]
        was = table.get(key)
        self.set(name, key, value)  # (refuses a key the var does not have)
        self._add_entry({"var": name, "key": key, "was": was, "now": value,
                         "dur": self.duration(dur)})

    def _add_entry(self, entry: Data) -> None:
        self.mods.append(entry)
        self.changed()
        if entry["dur"] is not None:
            self._expiring |= ending_events([entry])

    def duration(self, spec: Any) -> list[Any] | None:
        """The state's form of a compiled duration (engine.dsl.compile.statements: _duration)."""
        if spec is None:
            return None
        kind = spec[0]
        if kind == "any":
            return ["any", [self.duration(each) for each in spec[1]]]
        if kind == "while":
            return list(spec)
        if kind == "start":
            return ["start", spec[1]] if spec[2] == 1 else ["start", spec[1], spec[2]]
        # bound to a running instance of that event, if any: by default the innermost, so
        # that a nested event of the same name ending first does not end it
        event, names = spec[1], self.running_events
        running = [i for i in range(len(names)) if names[i] == event]
        depth = (running[0] if spec[2] else running[-1]) if running else None
        return ["end", event, depth] if spec[3] == 1 else ["end", event, depth, spec[3]]

    def _holds(self, dur: list[Any] | None) -> bool:
        """Does a modifier apply now? Only a `while` one may be paused."""
        return dur is None or dur[0] != "while" or bool(self.pack.ns[dur[1]](self, dur[2]))

    def modint(self, value: str, key: str, base: Any) -> Any:
        """An int value with its modifiers: the latest override (`to`) replaces the base,
        then every `by` adds, then the highest `at least` and the lowest `at most` clamp."""
        found = False
        total = 0
        low = high = None
        for mod in self.mods:
            if mod.get("value") != value or mod["key"] != key or not self._holds(mod["dur"]):
                continue
            found = True
            op, amount = mod.get("op"), mod["amount"]
            if op is None:
                total += amount
            elif op == "to":
                base = amount
            elif op == "least":
                low = amount if low is None or amount > low else low
            else:
                high = amount if high is None or amount < high else high
        if not found:
            return base
        result = base + total
        if low is not None and result < low:
            result = low
        if high is not None and result > high:
            result = high
        return result

    def modto(self, value: str, key: str, base: Any) -> Any:
        """A value of any other type: the latest override (`to`) that applies, or itself."""
        for mod in reversed(self.mods):
            if (mod.get("op") == "to" and mod["value"] == value and mod["key"] == key
                    and self._holds(mod["dur"])):
                return mod["amount"]
        return base

    def _expire(self, when: str, event: str) -> None:
        if (when, event) not in self._expiring:
            return
        self.changed()  # a duration may count down
        depth = len(self.running_events) - 1  # the ending event's own place among them
        made = list(self.mods)
        ended = [i for i, mod in enumerate(made) if _ends(mod["dur"], when, event, depth)]
        if not ended:
            return
        gone = set(ended)
        self.mods[:] = [mod for i, mod in enumerate(made) if i not in gone]
        self._expiring = ending_events(self.mods)
        for i in ended:
            if "var" in made[i]:
                self._restore(made[i], made[i + 1:])

    def _restore(self, mod: Data, later: list[Data]) -> None:
        """A temporary set ends: the var gets back the value it had before, unless a rule
        wrote it meanwhile (that value stands). A temporary set of the same var made later
        and still running takes over: it will restore the value from before both."""
        name, key, now = mod["var"], mod["key"], mod["now"]
        for other in later:
            if other.get("var") == name and other["key"] == key and other["was"] == now:
                other["was"] = mod["was"]
                return
        if self.s["v"][name][key] == now:
            was = mod["was"]
            if name in self.pack.ns["BOUNDS"]:
                was = self.clamp(name, was)
            self.set(name, key, was)


def ending_events(mods: list[Data]) -> set[tuple[str, str]]:
    """(when, event) of every start or end of an event some entry of `mods` waits for."""
    out: set[tuple[str, str]] = set()
    for mod in mods:
        dur = mod["dur"]
        if dur:
            for each in dur[1] if dur[0] == "any" else (dur,):
                out.add((each[0], each[1]))
    return out


def _ends(dur: list[Any] | None, when: str, event: str, depth: int) -> bool:
    """Does this duration end now, at the start or end (`when`) of `event`, whose instance
    runs at `depth`? Counts down a duration of several times (in the state)."""
    if not dur:
        return False
    if dur[0] == "any":
        return any(_ends(each, when, event, depth) for each in dur[1])  # every count goes on
    if dur[0] != when or dur[1] != event:
        return False
    if when == "end" and dur[2] is not None and dur[2] < depth:
        return False  # an instance nested inside the one it is bound to
    n = 3 if when == "end" else 2  # where the count is
    if len(dur) > n and dur[n] > 1:
        dur[n] -= 1
        if when == "end":
            dur[2] = None  # its instance ended: the next end of any instance counts
        return False
    return True
