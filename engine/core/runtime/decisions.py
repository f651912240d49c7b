"""Asking a side to decide: the decision in the state (`decide`), response windows, the
records an option or a prompt shows to the decider, one-at-a-time choices (`each_start`,
`each_step`), and every legal answer of a multi-choice (`enumerate_many`). The run loop
(engine.core.runtime.loop) waits at a decision and takes its answer."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from engine.core.errors import EngineFault
from engine.core.rt import RuleError, Runaway
from engine.core.runtime.signals import STOP
from engine.core.runtime.state import Data
from engine.core.runtime.undo import Undo

MAX_ENUMERATION = 20_000  # legal actions listed for a multi-choice before giving up


class Decisions(Undo):
    def decide(self, frame: Data, kind: str, side: str, options: list[Any], lo: int, hi: int,
               optional: bool, prompt: str | None, require: Any, args: list[Any] | None = None,
               each: Data | None = None, zoned: bool = True, args_zoned: bool = True,
               idle: list[Any] | None = None, asked: bool = False) -> None:
        """Wait for `side` to decide (`frame`: the waiting one).
        `args` are the values of the prompt's numbered placeholders (`args_zoned` False:
        none lies in a zone, the compiler knows their types); `each` tells a pick of a
        one-at-a-time choice (the picks so far); `zoned` False: no option lies in a zone
        hidden from `side` (the compiler knows: no zone holds their type, or they come from
        a zone `side` sees). `idle`: the options whose choice does nothing now (`no effect
        when`), kept as the decision's "idle" when there are any; `asked`: never answered for
        the decider, even with one answer (`always asked`: the decision's "always")."""
        if side not in self.side_set:
            raise EngineFault(f"a decision was offered to {side!r}, which is not a side")
        if zoned:
            self._show_to(side, options)
        if args is not None and args_zoned:  # a card the prompt names is shown to the decider,
            self._show_to(side, args, lists=True)  # as an option is
        if kind == "order":
            lo = hi = len(options)
        elif kind == "many":
            if hi < 0:
                raise RuleError(f"a choice of at most {hi} items: a count cannot be negative")
            hi = min(hi, len(options))
            lo = min(max(lo, 0), hi)
        if len(options) > self.limits.list_size:
            raise Runaway(f"a decision with {len(options)} options (the limit is "
                          f"{self.limits.list_size})")
        decision = self.s["decision"] = {
            "id": self.s["asked"], "kind": kind, "side": side, "options": options, "min": lo,
            "max": hi, "optional": optional, "prompt": prompt,
            "require": list(require) if require else None, "fn": frame["f"]}
        if args is not None:
            decision["args"] = args
        if each is not None:
            decision["each"] = each
        if idle:
            decision["idle"] = idle
        if asked:
            decision["always"] = True
        self.s["asked"] += 1

    def decide1(self, frame: Data, side: str, options: list[Any], optional: bool,
                prompt: str | None) -> None:
        """`decide` of the commonest choice, one of `options` (none when `optional`), with
        nothing else to it: no condition, no prompt values, no idle options, and options
        that lie in no zone hidden from `side` (the compiler knows). The same decision,
        without the arguments and tests the others need."""
        if side not in self.side_set:
            raise EngineFault(f"a decision was offered to {side!r}, which is not a side")
        if len(options) > self.limits.list_size:
            raise Runaway(f"a decision with {len(options)} options (the limit is "
                          f"{self.limits.list_size})")
        s = self.s
        s["decision"] = {
            "id": s["asked"], "kind": "one", "side": side, "options": options, "min": 1,
            "max": 1, "optional": optional, "prompt": prompt, "require": None,
            "fn": frame["f"]}
        s["asked"] += 1

    def pick1(self, frame: Data, side: str, options: list[Any], optional: bool,
              prompt: str | None) -> bool:
        """`decide1`, answered at once while a playout picks the answers (`picker`): True
        when the answer is in the frame's "in" and the rule goes on in this call, no
        decision made (the same answer, counters and log as the run loop's `choose` and
        `give` of it, without building the decision and returning to the loop); else False,
        the decision waiting as `decide1` leaves it. A decision the run loop answers
        itself (one answer, or none) is left to it."""
        pick = self.picker
        if pick is not None and (len(options) > 1 or optional and options) \
                and side in self.side_set and len(options) <= self.limits.list_size:
            value = pick(side, "one", options, optional, None)
            if value is not STOP:
                self.s["asked"] += 1  # (the id the decision would have had is used up)
                frame["in"] = value
                return True
        self.decide1(frame, side, options, optional, prompt)
        return False

    def pick_decide(self, frame: Data, kind: str, side: str, options: list[Any], lo: int,
                    hi: int, optional: bool, prompt: str | None,
                    args: list[Any] | None = None, zoned: bool = True,
                    args_zoned: bool = True, idle: list[Any] | None = None,
                    asked: bool = False) -> bool:
        """`decide` of a choice of one item with no condition, or of a yes/no question,
        answered at once while a playout picks the answers, as `pick1`: True when answered
        (never an idle option while another is legal, as `random_answer` draws; the records
        it offers or names shown to the decider as `decide` shows them), else False, the
        decision waiting. One the run loop answers itself is left to it: one answer or none,
        unless `always asked`, which it answers with its one option."""
        pick = self.picker
        if pick is not None and (kind == "ask" or len(options) > 1
                                 or options and (optional or asked)) \
                and side in self.side_set and len(options) <= self.limits.list_size:
            value = pick(side, kind, options, optional, idle)
            if value is not STOP:
                if zoned:
                    self._show_to(side, options)
                if args is not None and args_zoned:
                    self._show_to(side, args, lists=True)
                self.s["asked"] += 1
                frame["in"] = value
                return True
        self.decide(frame, kind, side, options, lo, hi, optional, prompt, None, args,
                    zoned=zoned, args_zoned=args_zoned, idle=idle, asked=asked)
        return False

    def open_window(self, frame: Data, name: str, side: str, options: list[Any],
                    prompt: str | None) -> None:
        """Open response window `name`: `side` may play one of `options` or pass (None).
        Unlike any other choice it is asked even when nothing is offered, so that whether
        the game stops, and what the other sides see of it, never tells what `side` holds."""
        self.decide(frame, "one", side, options, 1, 1, True, prompt, None)
        self.s["decision"]["window"] = name

    def _show_to(self, side: str, items: list[Any], lists: bool = False) -> None:
        """Records from a zone `side` cannot see, offered or named to it, are shown to it
        (with `lists`, also those in the lists among `items`: a prompt's values)."""
        loc = self.loc
        visible = self.pack.visible_zones[side]
        try:
            zones = set(map(loc.get, items))
        except TypeError:  # a list among the items
            pass
        else:
            zones.discard(None)
            if not zones:  # most often nothing offered lies in a zone
                return
            # or all in zones `side` sees (its own hand): a subset at C speed (of the zones
            # known at load: one made in play goes the long way)
            if zones <= visible:
                return
        seen_zone = frozenset.__contains__  # the zones known at load, without a Python call
        for item in items:
            if lists and isinstance(item, list):
                self._show_to(side, [x for x in item if not isinstance(x, list)])
                continue
            where = loc.get(item) if isinstance(item, str) else None
            if where is not None and not seen_zone(visible, where) and where not in visible:
                seen = self.revealed.setdefault(item, [])
                if side not in seen:
                    seen.append(side)
                    self.changed()
                self.barrier()

    # ---- one at a time: `choose n x from ... one at a time` -----------------------------------
    def each_start(self, side: str, options: list[Any], lo: int, hi: int, require: Any,
                   args: list[Any] | None) -> Data:
        """The state of a one-at-a-time choice, kept in a local of the waiting frame (data)."""
        if hi < 0:
            raise RuleError(f"a choice of at most {hi} items: a count cannot be negative")
        hi = min(hi, len(options))
        return {"side": side, "all": options, "picked": [], "min": min(max(lo, 0), hi),
                "max": hi, "require": list(require) if require else None, "args": args}

    def each_step(self, frame: Data, each: Data, prompt: str | None) -> bool:
        """Take the answer to the last pick (none: done), then ask for the next one; True
        when the choice is over (the picks are in each["picked"]).

        Each pick offers the items not picked yet, and "done" (none) once the minimum is
        met. A `require` condition holds for the whole set: "done" is offered only when the
        picks so far meet it, and the pick that reaches the maximum only among the items
        that make a set meeting it. When no answer is left (a dead end), the picks start
        over; when none was ever possible, that is a fault."""
        picked = each["picked"]
        if "in" in frame:
            got = frame.pop("in")
            if got is None:
                return True
            picked.append(got)
        while len(picked) < each["max"]:
            remaining = list(each["all"])
            for item in picked:
                remaining.remove(item)
            can_stop = len(picked) >= each["min"]
            require = each["require"]
            if require is not None:
                test, captured = self.pack.ns[require[0]], require[1]
                can_stop = can_stop and bool(test(self, captured, list(picked)))
                if len(picked) + 1 == each["max"]:
                    remaining = [o for o in remaining if test(self, captured, [*picked, o])]
                    if not remaining and not can_stop:
                        if not picked:
                            raise RuleError("no set of these options meets the choice's "
                                            "'require' condition")
                        picked.clear()  # a dead end: choose again from the start
                        continue
            if not remaining:
                return True
            self.decide(frame, "one", each["side"], remaining, 1, 1, can_stop, prompt, None,
                        each["args"], {"picked": list(picked), "min": each["min"],
                                       "max": each["max"]})
            return False
        return True


def enumerate_many(decision: Data, check: Callable[[list[Any]], Any]) -> list[list[Any]]:
    """Every legal answer of a multi-choice, up to MAX_ENUMERATION of them."""
    opts = decision["options"]
    out: list[list[Any]] = []
    seen: set[tuple[Any, ...]] = set()
    for k in range(decision["min"], decision["max"] + 1):
        for combo in itertools.combinations(range(len(opts)), k):
            values = [opts[i] for i in combo]
            key = tuple(values)
            if key in seen:
                continue
            seen.add(key)
            if check(values):
                out.append(values)
                if len(out) >= MAX_ENUMERATION:
                    return out
    return out
