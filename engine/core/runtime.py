"""The game runtime: state as plain data, the frame stack, events, triggers and decisions.

Generated pack code calls this object as `G`. Everything in `G.s` is JSON-ready data:
frames hold a function name, a resume point and locals, never Python closures.

Order of execution (pinned by golden-trace tests; see README "Order of events"):
 1. `emit e(...)` runs e at once, nested: its `before` triggers in declaration order,
    then the first `instead of` trigger whose condition holds, or else its `on` handlers,
    then its `after` triggers.
 2. `enqueue e(...)` appends e to the queue of the innermost running event; the queue runs
    in order after that event's `after` triggers, each queued event nested in turn.
 3. When an event finishes, modifiers lasting `until end of` it expire (and temporary sets
    give their var its value back); those lasting `until e` expire when e starts (see
    Runtime.modify for the data). A trigger's `if` condition is read just before it runs.
"""
from __future__ import annotations

import itertools
import linecache
import marshal
import os
import re
import weakref
from collections.abc import Callable, Iterable
from typing import Any

from engine.core import rng as _rng
from engine.core.errors import ChanceNeeded, EngineFault, IllegalAction
from engine.core.keys import keys_naming
from engine.core.limits import Limits
from engine.core.rt import RuleError, Runaway

MAX_ENUMERATION = 20_000  # legal actions listed for a multi-choice before giving up
# What a waiting rule's function returns to the run loop (see engine.dsl.compile.machine).
DONE, SUSPEND, PUSHED = 0, 1, 2
STOP = object()  # what a run's `choose` returns to leave the decision waiting


# pack id -> (pack, marshal of the vars and var fields before setup): see Runtime.setup
_BEFORE_SETUP: dict[int, tuple[Any, bytes]] = {}


# pack id -> the attributes every Runtime of the pack starts with (see Runtime.__init__)
_PACK_PARTS: dict[int, dict[str, Any]] = {}


_RUNTIME_OWN = ("logging", "limits", "left", "undo_side", "barrier_hit", "memo", "fidx",
                "_kept", "_watchers", "_seen", "_all_seen", "s", "v", "pv", "z", "pz", "loc",
                "mods", "_expiring", "revealed", "f", "chance", "made", "stack", "_log", "xs",
                "qstack", "evnames")


def _pack_parts(pack: Any) -> dict[str, Any]:
    ns = pack.ns
    return {"P": pack, "R": pack.records, "by_type": pack.by_type, "sides": pack.sides,
            "side_set": pack.side_set, "other": pack.other, "graphs": pack.graphs,
            "FUNCS": ns["FUNCS"], "PARAMS": ns["PARAMS"], "PLANS": pack.plans,
            "SUSP_EVENTS": ns["SUSPENDING_EVENTS"],
            "EVSTATE": ns["EVSTATE"],  # event `with` state -> its defaults' function
            "REASONS": {},  # a `win` reason without values -> its text (see `win`)
            # and the others, set by __init__ and attach: the copy is made at its full size
            **dict.fromkeys(_RUNTIME_OWN)}


class GameOver(Exception):
    """Unwinds the Python stack when a rule ends the game."""


class Runtime:
    def __init__(self, pack: Any, state: dict[str, Any], log: bool = True,
                 limits: Limits | None = None):
        # The pack's parts rules read (self.P, self.R, self.FUNCS, ...: see `_pack_parts`),
        # set with one dict copy: a Runtime has too many attributes for Python's shared
        # instance dicts, and setting them one by one was a fifth of a small game's start.
        parts = _PACK_PARTS.get(id(pack))
        if parts is None or parts["P"] is not pack:
            parts = _PACK_PARTS[id(pack)] = _pack_parts(pack)
        self.__dict__ = parts.copy()
        self.logging = log
        self.limits = limits or pack.limits
        self.left = self.limits.steps  # rule steps left before the next decision
        self.undo_side: str | None = None  # whose decisions may be undone
        self.barrier_hit = False
        # Results of values that only read the state (engine.dsl.compile.memo), by
        # (value, arguments...) -> (result, steps it took): kept only while rules run (None
        # otherwise, so that a host or test that changes the state between runs never reads
        # an old result) and emptied by every method that changes the state (`changed`).
        self.memo: dict[tuple, tuple[Any, int]] | None = None
        # While rules run (None otherwise, like `memo`): field -> type -> value -> the records
        # of the type with that value of the var field, in the type's order (see `having`);
        # built when first asked for, dropped when a rule writes the field.
        self.fidx: dict[str, dict[str, dict[Any, list[str]]]] | None = None
        self._kept: tuple[dict, dict] = ({}, {})  # the two, emptied and reused by each run
        self.attach(state)

    def attach(self, state: dict[str, Any]) -> None:
        """Point the hot-path aliases at a (new) state dict."""
        if self.memo:
            self.memo.clear()  # changed(), inline
        self.s = state
        # side -> (zones, vars, fields) read through watchers (see `watch`), made for this
        # state when first needed
        self._watchers: dict[str, tuple] = {}
        self._seen: list[_SeenFields] = []  # the watchers' fields, told of every move
        # public vars and zones are read through pv and pz, never through watchers (see watch)
        self.v = self.pv = state["v"]
        self.z = self.pz = state["z"]
        self.loc = state["loc"]
        self.mods = state["mods"]
        self._expiring = _ending_events(self.mods) if self.mods else set()
        self.revealed = state["revealed"]
        self.f = state.get("f")  # record fields in play (var fields, created records)
        # Outcomes the host supplied and `_below` has not used yet, or None when the seeded
        # generator draws; a state with a "chance" record takes its chance from the host.
        self.chance: list[int] | None = None if state.get("chance") is None else []
        self.made = state.get("made")  # created type -> ids of its live records
        stack = self.stack = state["stack"]
        self._log = state["log"].append  # type: ignore[method-assign]  (see _log)
        # The state of each running instance of an event `with` state, innermost last. An
        # event run as a frame keeps its state in the frame ("x"); one run by emit_now is
        # never running at a decision, so the frames alone rebuild this after a load.
        xs: dict[str, list[dict[str, Any]]] = \
            {name: [] for name in self.EVSTATE} if self.EVSTATE else {}
        self.xs = xs
        qstack: list[list] = []
        evnames: list[str] = []  # running events
        self.qstack, self.evnames = qstack, evnames
        for fr in stack:  # (one pass: most states hold a few frames, a new game's none)
            if fr["k"] == "e":
                qstack.append(fr["q"])
                evnames.append(fr["n"])
                x = fr.get("x")
                if x is not None:
                    xs[fr["n"]].append(x)

    # ---- state at the start ---------------------------------------------------------------
    @staticmethod
    def initial_state(pack: Any, seed: int) -> dict[str, Any]:
        state = {
            "v": {}, "z": {}, "loc": {}, "mods": [], "revealed": {}, "stack": [],
            "decision": None, "log": [], "result": None, "rng": _rng.seed_state(seed),
            "steps": 0, "decisions": 0, "asked": 0,
        }
        if pack.record_state:  # only packs with var fields or created types carry these
            state["f"] = {}
        if pack.created:
            state["made"] = {t: [] for t in sorted(pack.created)}
            state["serial"] = dict.fromkeys(sorted(pack.created), 0)
        return state

    def setup(self) -> None:
        """Every zone empty, every var at its default and every var field from its YAML
        or default, then the setup event. What comes before the event is the same in every
        game of a pack: it is worked out once per pack and copied (one marshal call) after,
        which was most of a small game's `new_game`."""
        P = self.P
        got = _BEFORE_SETUP.get(id(P))
        if got is not None and got[0] is P:
            z, v, f = marshal.loads(got[1])
            self.z.update(z)
            self.v.update(v)
            if f:
                self.f.update(f)
        else:
            untouched = {k: x for k, x in self.s.items() if k not in ("v", "z", "f")}
            for key in P.zone_keys:
                self.z[key] = []
            for name, combos in P.var_keys.items():
                fn = P.ns["DEFAULTS"][name]
                table = self.v[name] = {}
                for key, args in combos:
                    table[key] = fn(self, *args)
            self.init_fields()
            # kept only when the defaults read no dice and wrote nothing but vars and fields
            if untouched == {k: x for k, x in self.s.items() if k not in ("v", "z", "f")} \
                    and not any(self.z.values()):
                _BEFORE_SETUP[id(P)] = (P, marshal.dumps((self.s["z"], self.s["v"],
                                                          self.s.get("f"))))
        self.push_event("setup", ())

    def init_fields(self) -> None:
        """The var fields of the pack's records, from their YAML or their defaults (after
        the vars, so a field's default may read a var)."""
        P = self.P
        for t in P.var_field_types:
            init = P.ns["INITS"][t]
            for rid in P.by_type[t]:
                self.f[rid] = {}
                init(self, rid, self.R[rid])

    # ---- the run loop ---------------------------------------------------------------------
    def run(self, choose: Callable[[], Any] | None = None) -> None:
        """Run until a decision is needed or the game ends, within the step budget (each
        decision starts a new one). `choose`, when given, answers the decisions instead:
        it returns the answer to give (its side's, checked), or STOP to leave the decision
        waiting; the run goes on until the game ends or it stops (`Game.playout`)."""
        stack = self.stack
        funcs = self.FUNCS
        s = self.s
        self.left = budget = self.limits.steps
        memo, fidx = self.memo, self.fidx = self._kept
        try:
            while stack:
                fr = stack[-1]
                if fr["k"] == "p":
                    code = funcs[fr["f"]](self, fr)
                    if code == DONE:
                        stack.pop()
                        if stack and stack[-1]["k"] == "p":
                            stack[-1]["rv"] = fr.get("rv")
                    elif code == SUSPEND:
                        d = s["decision"]
                        # a real choice (most decisions) has nothing to answer here
                        if (d["kind"] != "one" or len(d["options"]) < 2) and self._auto_answer():
                            continue
                        if choose is None:
                            return
                        # as a new run would: the steps so far counted, a new budget (a
                        # choice's condition, checked by `choose`, has its own). The values
                        # kept stay: each change of the state drops those it touches (see
                        # `changed`), an answer changes none, and a kept value costs the steps
                        # it took (the step count comes out the same)
                        s["steps"] += budget - self.left
                        try:
                            value = choose()
                        finally:
                            self.left = budget
                        if value is STOP:
                            return
                        self.give(value)
                    elif code != PUSHED:
                        raise EngineFault(f"rule {fr['f']!r} returned {code!r}, which is not "
                                          "a run-loop code (done, suspend, pushed)")
                else:
                    self._step_event(fr)
        except GameOver:
            stack.clear()
            self.qstack.clear()
            self.evnames.clear()
            for xs in self.xs.values():
                xs.clear()
            s["decision"] = None
            return
        except (EngineFault, IllegalAction, ChanceNeeded):
            raise
        except RuleError as err:
            raise EngineFault(f"{rule_location(err, self.P)}{err}{self._running()}") from None
        except RecursionError:
            raise EngineFault("rules call each other too deeply (a procedure or value that "
                              f"never stops calling itself?){self._running()}") from None
        except Exception as err:  # a rule broke at run time: report it replayably
            raise EngineFault(f"{rule_location(err, self.P)}{broke(err)}") from err
        finally:
            if memo:
                memo.clear()
            if fidx:
                fidx.clear()
            self.memo = self.fidx = None
            s["steps"] += budget - self.left
        if s["result"] is None:
            s["result"] = {"winner": None, "reason": "no rule left to run"}
            self._log({"t": "end", "winner": None})

    def _step_event(self, fr: dict[str, Any]) -> None:
        """Advance an event frame: its triggers stage by stage, then its queue, then its end.
        Returns when a trigger was pushed as a frame (it may suspend) or the event ended."""
        plan = self.PLANS.get(fr["n"])
        if plan is not None:
            args = fr["a"]
            st = fr["st"]
            while st < 3:
                check = True
                if st == 1:
                    m = fr.get("m")
                    if m is None:  # which `instead of` applies is settled once, after `before`
                        m = fr["m"] = self._instead_index(plan[1], args)
                    lst = plan[1][m:m + 1] if m >= 0 else plan[2]
                    check = m < 0
                else:
                    lst = plan[0] if st == 0 else plan[3]
                i = fr["i"]
                while i < len(lst):
                    fname, fn, cond, susp = lst[i]
                    i += 1
                    if check and cond is not None and not cond(self, *args):
                        continue  # conditions are read just before the trigger runs
                    fr["i"] = i
                    self._trace(fname, fr["n"])  # counts a step even with the log off
                    if susp:
                        self.push_call(fname, dict(zip(self.PARAMS[fname], args)))
                        return
                    fn(self, *args)
                st += 1
                fr["st"] = st
                fr["i"] = 0
        q = fr["q"]
        if q:
            name, qargs = q.pop(0)
            self.start_event(name, qargs)
            return
        self._finish_event(fr)

    def _instead_index(self, insteads: list, args: tuple) -> int:
        """The first `instead of` trigger whose condition holds now, or -1."""
        for i, entry in enumerate(insteads):
            cond = entry[2]
            if cond is None or cond(self, *args):
                return i
        return -1

    def _finish_event(self, fr: dict[str, Any]) -> None:
        self.stack.pop()
        self.qstack.pop()
        if fr.get("x") is not None:
            self.xs[fr["n"]].pop()
            self.changed()  # `event.field` reads another instance now
        if self.mods:
            self._expire("end", fr["n"])
        self.evnames.pop()
        if self.logging:
            self._log({"t": "done", "n": fr["n"]})

    # ---- events ---------------------------------------------------------------------------
    def start_event(self, name: str, args: Iterable[Any]) -> None:
        """Start an event from the run loop: as a frame if it may suspend, else at once."""
        if name in self.SUSP_EVENTS:
            (self.push_event_x if name in self.EVSTATE else self.push_event)(name, args)
        else:
            (self.emit_now_x if name in self.EVSTATE else self.emit_now)(name, tuple(args))

    def push_event(self, name: str, args: Iterable[Any]) -> None:
        args = list(args)
        self._event_starts(name, args)
        fr = {"k": "e", "n": name, "a": args, "st": 0, "i": 0, "q": []}
        self.stack.append(fr)
        self.qstack.append(fr["q"])
        self.evnames.append(name)

    def _event_starts(self, name: str, args: list[Any]) -> None:
        self.left -= 1  # tick(), inline on this hot path
        if self.left < 0:
            self.over_budget()
        if len(self.evnames) >= self.limits.depth:
            raise Runaway(f"events nested more than {self.limits.depth} deep (an event that "
                          "sets off itself?)")
        if self.mods:
            self._expire("start", name)
        if self.logging:
            self._log({"t": "event", "n": name, "a": list(args), "at": self._wheres(args)})

    def emit_now(self, name: str, args: tuple) -> None:
        """Run an event that cannot suspend, nested in the current Python call."""
        self._event_starts(name, list(args))
        plan = self.PLANS.get(name)
        q: list = []
        self.qstack.append(q)
        self.evnames.append(name)
        if plan is not None:
            before, insteads, ons, after = plan
            for fname, fn, cond, _s in before:
                if cond is None or cond(self, *args):
                    self._trace(fname, name)
                    fn(self, *args)
            m = self._instead_index(insteads, args)
            for fname, fn, cond, _s in (insteads[m:m + 1] if m >= 0 else ons):
                if m >= 0 or cond is None or cond(self, *args):
                    self._trace(fname, name)
                    fn(self, *args)
            for fname, fn, cond, _s in after:
                if cond is None or cond(self, *args):
                    self._trace(fname, name)
                    fn(self, *args)
        while q:
            qn, qa = q.pop(0)
            (self.emit_now_x if qn in self.EVSTATE else self.emit_now)(qn, tuple(qa))
        self.qstack.pop()
        if self.mods:
            self._expire("end", name)
        self.evnames.pop()
        if self.logging:
            self._log({"t": "done", "n": name})

    # An event `with` state is started by these (the compiler picks them), so that events
    # without state pay nothing. The state is made as the event is set off, from its
    # arguments, and is gone when the event (its queue included) has ended.
    def emit_now_x(self, name: str, args: tuple) -> None:
        xs = self.xs[name]
        xs.append(self.EVSTATE[name](self, *args))
        self.changed()
        self.emit_now(name, args)
        xs.pop()
        self.changed()

    def push_event_x(self, name: str, args: Iterable[Any]) -> None:
        args = list(args)
        state = self.EVSTATE[name](self, *args)
        self.push_event(name, args)
        self.stack[-1]["x"] = state
        self.xs[name].append(state)
        self.changed()

    def evget(self, event: str, field: str) -> Any:
        """`battle.rounds`: the field of the innermost running `battle`."""
        xs = self.xs[event]
        if not xs:
            raise RuleError(f"{event}.{field} read while no {event} is running")
        return xs[-1][field]

    def evset(self, event: str, field: str, value: Any) -> None:
        xs = self.xs[event]
        if not xs:
            raise RuleError(f"{event}.{field} written while no {event} is running")
        xs[-1][field] = value
        self.changed()

    def enqueue(self, name: str, args: tuple) -> None:
        if not self.qstack:
            raise EngineFault(f"'enqueue {name}' outside any event")
        self.qstack[-1].append([name, list(args)])

    def push_call(self, fname: str, args: dict[str, Any]) -> None:
        self.left -= 1  # tick(), inline on this hot path
        if self.left < 0:
            self.over_budget()
        stack = self.stack
        if len(stack) >= self.limits.frames:
            raise Runaway(f"more than {self.limits.frames} rules waiting inside each other "
                          "(a procedure that calls itself without end?)")
        stack.append({"k": "p", "f": fname, "pc": 0, "L": args})

    def push_effect(self, rid: str, field: str) -> bool:
        """Run a record's effect; True when it was pushed as a frame (it may suspend)."""
        entry = self.P.ns["EFFECTS"].get((rid, field))
        if entry is None:
            return False
        fname, fn, susp = entry
        if susp:
            self.push_call(fname, {"self": rid})
            return True
        fn(self, rid)
        return False

    def run_effect_now(self, rid: str, field: str) -> None:
        entry = self.P.ns["EFFECTS"].get((rid, field))
        if entry is not None:
            entry[1](self, rid)

    def _trace(self, fname: str, event: str) -> None:
        self.left -= 1  # tick(), inline on this hot path
        if self.left < 0:
            self.over_budget()
        if self.logging:
            self._log({"t": "trigger", "f": fname, "n": event})

    # ---- decisions ------------------------------------------------------------------------
    def decide(self, F: dict, kind: str, side: str, options: list, lo: int, hi: int,
               optional: bool, prompt: str | None, require: Any, args: list | None = None,
               each: dict | None = None, zoned: bool = True, args_zoned: bool = True) -> None:
        """Wait for `side` to decide. `args` are the values of the prompt's numbered
        placeholders (`args_zoned` False: none lies in a zone, the compiler knows their
        types); `each` tells a pick of a one-at-a-time choice (the picks so far);
        `zoned` False: no option lies in a zone hidden from `side` (the compiler knows: no
        zone holds their type, or they come from a zone `side` sees)."""
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
        d = self.s["decision"] = {
            "id": self.s["asked"], "kind": kind, "side": side, "options": options, "min": lo,
            "max": hi, "optional": optional, "prompt": prompt,
            "require": list(require) if require else None, "fn": F["f"]}
        if args is not None:
            d["args"] = args
        if each is not None:
            d["each"] = each
        self.s["asked"] += 1

    def open_window(self, F: dict, name: str, side: str, options: list,
                    prompt: str | None) -> None:
        """Open response window `name`: `side` may play one of `options` or pass (None).
        Unlike any other choice it is asked even when nothing is offered, so that whether
        the game stops, and what the other sides see of it, never tells what `side` holds."""
        self.decide(F, "one", side, options, 1, 1, True, prompt, None)
        self.s["decision"]["window"] = name

    def _show_to(self, side: str, items: list, lists: bool = False) -> None:
        """Records from a zone `side` cannot see, offered or named to it, are shown to it
        (with `lists`, also those in the lists among `items`: a prompt's values)."""
        loc = self.loc
        visible = self.P.visible_zones[side]
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
        for o in items:
            if lists and isinstance(o, list):
                self._show_to(side, [x for x in o if not isinstance(x, list)])
                continue
            where = loc.get(o) if isinstance(o, str) else None
            if where is not None and not seen_zone(visible, where) and where not in visible:
                seen = self.revealed.setdefault(o, [])
                if side not in seen:
                    seen.append(side)
                    self.changed()
                self.barrier()

    # ---- one at a time: `choose n x from ... one at a time` -----------------------------------
    def each_start(self, side: str, options: list, lo: int, hi: int, require: Any,
                   args: list | None) -> dict:
        """The state of a one-at-a-time choice, kept in a local of the waiting frame (data)."""
        if hi < 0:
            raise RuleError(f"a choice of at most {hi} items: a count cannot be negative")
        hi = min(hi, len(options))
        return {"side": side, "all": options, "picked": [], "min": min(max(lo, 0), hi),
                "max": hi, "require": list(require) if require else None, "args": args}

    def each_step(self, F: dict, e: dict, prompt: str | None) -> bool:
        """Take the answer to the last pick (none: done), then ask for the next one; True
        when the choice is over (the picks are in e["picked"]).

        Each pick offers the items not picked yet, and "done" (none) once the minimum is
        met. A `require` condition holds for the whole set: "done" is offered only when the
        picks so far meet it, and the pick that reaches the maximum only among the items
        that make a set meeting it. When no answer is left (a dead end), the picks start
        over; when none was ever possible, that is a fault."""
        picked = e["picked"]
        if "in" in F:
            got = F.pop("in")
            if got is None:
                return True
            picked.append(got)
        while len(picked) < e["max"]:
            remaining = list(e["all"])
            for p in picked:
                remaining.remove(p)
            can_stop = len(picked) >= e["min"]
            req = e["require"]
            if req is not None:
                test, captured = self.P.ns[req[0]], req[1]
                can_stop = can_stop and bool(test(self, captured, list(picked)))
                if len(picked) + 1 == e["max"]:
                    remaining = [o for o in remaining if test(self, captured, [*picked, o])]
                    if not remaining and not can_stop:
                        if not picked:
                            raise RuleError("no set of these options meets the choice's "
                                            "'require' condition")
                        picked.clear()  # a dead end: choose again from the start
                        continue
            if not remaining:
                return True
            self.decide(F, "one", e["side"], remaining, 1, 1, can_stop, prompt, None,
                        e["args"], {"picked": list(picked), "min": e["min"], "max": e["max"]})
            return False
        return True

    def _auto_answer(self) -> bool:
        """Answer a decision that has exactly one legal answer, without asking anyone
        (never a response window: see open_window)."""
        d = self.s["decision"]
        opts = d["options"]
        kind = d["kind"]
        if kind == "one":
            if not opts:
                if "window" in d:
                    return False
                answer: Any = None
            elif len(opts) == 1 and not d["optional"]:
                answer = opts[0]
            else:
                return False
        elif kind == "many":
            if d["max"] == 0:
                answer = []
            elif d["min"] == len(opts) and d["require"] is None:
                answer = list(opts)
            else:
                return False
        elif kind == "order":
            if len(opts) > 1:
                return False
            answer = list(opts)
        else:
            return False
        self.s["decision"] = None
        self.stack[-1]["in"] = answer
        return True

    def answer(self, value: Any) -> None:
        """Resume the suspended frame with a validated answer."""
        self.give(value)
        self.run()

    def give(self, value: Any) -> None:
        """Give the waiting decision a validated answer; the rules go on from it when run."""
        s = self.s
        d = s["decision"]
        s["decision"] = None
        s["decisions"] += 1
        if self.logging:
            self._log({"t": "choice", "side": d["side"], "v": value})
        self.stack[-1]["in"] = value

    def check_require(self, d: dict, chosen: list) -> bool:
        if d["require"] is None:
            return True
        fname, captured = d["require"]
        return bool(self.call_rule(self.P.ns[fname], captured, chosen))

    def call_rule(self, fn: Any, *args: Any) -> Any:
        """Run one generated function outside the run loop (a choice's condition, an
        invariant) with a fresh step budget; a failure is an EngineFault naming the rule."""
        self.left = self.limits.steps
        try:
            return fn(self, *args)
        except (EngineFault, IllegalAction, ChanceNeeded):
            raise
        except RuleError as err:
            raise EngineFault(f"{rule_location(err, self.P)}{err}") from None
        except RecursionError:
            raise EngineFault("rules call each other too deeply") from None
        except Exception as err:
            raise EngineFault(f"{rule_location(err, self.P)}{broke(err)}") from err

    # ---- variables and modifiers ------------------------------------------------------------
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
        lo, hi = self.P.ns["BOUNDS"][name](self)
        return lo if value < lo else hi if value > hi else value

    # Modifiers and temporary sets are entries of `mods` (plain data, in the order made):
    #   {"value", "key", "amount", "dur"}            `modify v(...) by amount`
    #   {"value", "key", "op", "amount", "dur"}      op: "to" (amount is the new value),
    #                                                "least" or "most" (a clamp)
    #   {"var", "key", "was", "now", "dur"}          `set var[...] = now until ...`
    # A duration ("dur") is null (for ever) or
    #   ["end", event, depth] / ["end", event, depth, n]: at the end of the instance of the
    #       event running at `depth` (null: the next to end); with n, at the n-th end
    #   ["start", event] / ["start", event, n]: when the event starts (the n-th time)
    #   ["any", [end or start durations]]: at the first of them (`until A or B`)
    #   ["while", condition function, captured locals]: applies while it holds
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

    def _add_entry(self, entry: dict[str, Any]) -> None:
        self.mods.append(entry)
        self.changed()
        if entry["dur"] is not None:
            self._expiring |= _ending_events([entry])

    def duration(self, spec: Any) -> list | None:
        """The state's form of a compiled duration (engine.dsl.compile.statements)."""
        if spec is None:
            return None
        kind = spec[0]
        if kind == "any":
            return ["any", [self.duration(d) for d in spec[1]]]
        if kind == "while":
            return list(spec)
        if kind == "start":
            return ["start", spec[1]] if spec[2] == 1 else ["start", spec[1], spec[2]]
        # bound to a running instance of that event, if any: by default the innermost, so
        # that a nested event of the same name ending first does not end it
        event, names = spec[1], self.evnames
        running = [i for i in range(len(names)) if names[i] == event]
        depth = (running[0] if spec[2] else running[-1]) if running else None
        return ["end", event, depth] if spec[3] == 1 else ["end", event, depth, spec[3]]

    def _holds(self, dur: list | None) -> bool:
        """Does a modifier apply now? Only a `while` one may be paused."""
        return dur is None or dur[0] != "while" or bool(self.P.ns[dur[1]](self, dur[2]))

    def modint(self, value: str, key: str, base: Any) -> Any:
        """An int value with its modifiers: the latest override (`to`) replaces the base,
        then every `by` adds, then the highest `at least` and the lowest `at most` clamp."""
        found = False
        total = 0
        low = high = None
        for m in self.mods:
            if m.get("value") != value or m["key"] != key or not self._holds(m["dur"]):
                continue
            found = True
            op, amount = m.get("op"), m["amount"]
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
        for m in reversed(self.mods):
            if (m.get("op") == "to" and m["value"] == value and m["key"] == key
                    and self._holds(m["dur"])):
                return m["amount"]
        return base

    def _expire(self, when: str, event: str) -> None:
        if (when, event) not in self._expiring:
            return
        self.changed()  # a duration may count down
        depth = len(self.evnames) - 1  # the ending event's own place among running events
        made = list(self.mods)
        ended = [i for i, m in enumerate(made) if _ends(m["dur"], when, event, depth)]
        if not ended:
            return
        gone = set(ended)
        self.mods[:] = [m for i, m in enumerate(made) if i not in gone]
        self._expiring = _ending_events(self.mods)
        for i in ended:
            if "var" in made[i]:
                self._restore(made[i], made[i + 1:])

    def _restore(self, m: dict[str, Any], later: list[dict[str, Any]]) -> None:
        """A temporary set ends: the var gets back the value it had before, unless a rule
        wrote it meanwhile (that value stands). A temporary set of the same var made later
        and still running takes over: it will restore the value from before both."""
        name, key, now = m["var"], m["key"], m["now"]
        for other in later:
            if other.get("var") == name and other["key"] == key and other["was"] == now:
                other["was"] = m["was"]
                return
        if self.s["v"][name][key] == now:
            was = m["was"]
            if name in self.P.ns["BOUNDS"]:
                was = self.clamp(name, was)
            self.set(name, key, was)

    # ---- zones ------------------------------------------------------------------------------
    def _zone(self, key: str) -> list:
        try:
            return self.z[key]
        except KeyError:
            raise EngineFault(f"no zone {key!r}") from None

    def move(self, ent: Any, key: str, place: str | None = None) -> None:
        if ent is None:
            return
        if ent not in self.R and self._made_type(ent) is None:
            # zones hold records: a side or a number has no place
            raise RuleError(f"cannot move {ent!r} to {key}: only records lie in zones"
                            + self._gone(ent))
        try:
            dest = self.z[key]  # (at C speed through the undo watchers too)
        except KeyError:
            raise EngineFault(f"no zone {key!r}") from None
        src_key = self.loc.get(ent)
        if src_key is not None:
            self.z[src_key].remove(ent)
        if place == "top":
            dest.insert(0, ent)
        else:
            dest.append(ent)
        self.loc[ent] = key
        if ent in self.revealed:
            del self.revealed[ent]  # a moved card is hidden again unless its zone shows it
        if self._seen:  # (with undo on: see _SeenFields)
            for seen in self._seen:
                seen.pop(ent, None)
        if self.memo:
            self.memo.clear()  # changed(), inline on this hot path
        if self.logging:
            self._log({"t": "move", "e": ent, "from": src_key, "to": key})

    def move_all(self, ents: Iterable[Any], key: str, place: str | None = None) -> None:
        ents = list(ents)
        if place == "top":
            ents.reverse()  # keep their order on top of the pile
        for e in ents:
            self.move(e, key, place)

    def draw(self, n: int, src: str, dst: str) -> list:
        pile = self._zone(src)
        got = pile[:max(n, 0)]
        for e in got:
            self.move(e, dst)
        return got

    def shuffle(self, key: str) -> None:
        pile = self._zone(key)
        for i in range(len(pile) - 1, 0, -1):
            j = self._below(i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        self.changed()
        self.barrier()
        if self.logging:
            self._log({"t": "shuffle", "z": key})

    def reveal(self, ents: Iterable[Any], to: str | None) -> None:
        for e in ents:
            if e is None:
                continue
            seen = self.revealed.setdefault(e, [])
            for side in ([to] if to else self.sides):
                if side not in seen:
                    seen.append(side)
            if self.logging:
                self._log({"t": "reveal", "e": e, "to": to})
        self.changed()
        self.barrier()

    # ---- records made in play, fields that change ---------------------------------------------
    def _made_type(self, ent: Any) -> str | None:
        """The created type of `ent` if it is a live record made in play, else None."""
        if self.made is None or type(ent) is not str or "#" not in ent:
            return None
        tname = ent.partition("#")[0]
        return tname if tname in self.made and ent in self.s["f"] else None

    def _gone(self, ent: Any) -> str:
        """' (<id> was destroyed)' for the id of a record made in play that is gone, for a
        fault's message; '' for anything else."""
        if self.made is None or type(ent) is not str:
            return ""
        tname, _, number = ent.partition("#")
        made = self.s["serial"].get(tname, 0)
        gone = number.isdigit() and len(number) < 19 and 0 < int(number) <= made
        return f" ({ent} was destroyed)" if gone else ""

    def _domain(self, t: str) -> list:
        if t == "side":
            return self.sides
        return self.made[t] if t in self.made else self.P.by_type.get(t, [])

    def _keys_naming(self, tname: str, rid: str) -> list[tuple[str, str, str, tuple]]:
        """(kind, name, key, index values) of each zone and var key that holds `rid`."""
        out = []
        for kind, name, types in self.P.keyed.get(tname, ()):
            for combo in keys_naming(types, tname, rid, self._domain):
                key = "|".join((name, *combo)) if kind == "z" else "|".join(combo)
                out.append((kind, name, key, combo))
        return out

    def pieces(self, tname: str) -> list:
        """The live records of a created type, oldest first (a copy: it changes in play)."""
        return list(self.made[tname])

    def create(self, tname: str, given: dict, key: str | None, place: str | None) -> str:
        """A new record of created type `tname`, with the fields `given` (the others at
        their defaults), put in zone `key` (None: no zone); its id is '<type>#<n>'."""
        made = self.made[tname]
        if len(made) >= self.limits.list_size:
            raise Runaway(f"more than {self.limits.list_size:,} records of type '{tname}' at "
                          "once (the list_size limit)")
        self.tick()
        dest = self._zone(key) if key is not None else None
        serial = self.s["serial"]
        serial[tname] += 1
        rid = f"{tname}#{serial[tname]}"
        made.append(rid)
        keys = self._keys_naming(tname, rid)
        for kind, _name, zkey, _combo in keys:  # zones first: a default may read one
            if kind == "z":
                self.s["z"][zkey] = []
        self.s["f"][rid] = {}
        self.P.ns["INITS"][tname](self, rid, given)
        for kind, name, vkey, combo in keys:
            if kind == "v":
                self.s["v"][name][vkey] = self.P.ns["DEFAULTS"][name](self, *combo)
        if dest is not None:
            if place == "top":
                dest.insert(0, rid)
            else:
                dest.append(rid)
            self.loc[rid] = key
        self.changed()  # after the defaults: values read while they were worked out are old
        if self.logging:
            self._log({"t": "create", "e": rid, "to": key})
        return rid

    def destroy(self, ent: Any) -> None:
        """`ent`, a record made in play, leaves the game: its zone, its fields, and the
        zone and var keys it indexes. Zones it indexes must be empty."""
        if ent is None:
            return
        tname = self._made_type(ent)
        if tname is None:
            raise RuleError(f"cannot destroy {ent!r}: only records made in play ('create') "
                            "can be destroyed" + self._gone(ent))
        keys = self._keys_naming(tname, ent)
        for kind, _name, zkey, _combo in keys:
            if kind == "z" and self.s["z"][zkey]:
                held = self.s["z"][zkey]
                raise RuleError(f"cannot destroy {ent}: zone {zkey} still holds {len(held)} "
                                f"record{'s' * (len(held) != 1)}; move or destroy them first")
        for kind, name, key, _combo in keys:
            if kind == "z":
                del self.s["z"][key]
                for w in self._watchers.values():
                    dict.pop(w[0], key, None)
            else:
                del self.s["v"][name][key]
        src = self.loc.pop(ent, None)
        if src is not None:
            self.s["z"][src].remove(ent)
        self.revealed.pop(ent, None)
        del self.s["f"][ent]
        for seen in self._seen:
            seen.pop(ent, None)
        self.made[tname].remove(ent)
        self.changed()
        if self.logging:
            self._log({"t": "destroy", "e": ent, "from": src})

    def destroy_all(self, ents: Iterable[Any]) -> None:
        for e in list(ents):
            self.destroy(e)

    def setf(self, rid: Any, name: str, value: Any) -> None:
        """`rid.name = value` for a var field (writing reads nothing: not watched)."""
        rec = self.s["f"].get(rid) if type(rid) is str else None
        if rec is None or name not in rec:
            raise RuleError(f"{'none' if rid is None else rid} has no field '{name}' to set"
                            + self._gone(rid))
        rec[name] = value
        if self.memo:
            self.memo.clear()  # changed(), inline on this hot path
        if self.fidx:
            self.fidx.pop(name, None)
        if self.logging:
            self._log({"t": "setf", "e": rid, "f": name, "v": value, "at": self.loc.get(rid)})

    def setf_bounded(self, rid: Any, name: str, value: int, bounds: Any) -> None:
        self.setf(rid, name, self.bound(bounds(self, rid), value))

    @staticmethod
    def bound(lo_hi: tuple[int, int], value: int) -> int:
        lo, hi = lo_hi
        return lo if value < lo else hi if value > hi else value

    def field(self, rid: Any, name: str) -> Any:
        """`x.name` for an x whose type the checker could not tell."""
        if self.f is not None and rid in self.f:
            rec = self.f[rid]
            if name in rec:
                return rec[name]
        return self.R[rid][name]

    def attribute(self, rid: Any, name: str) -> Any:
        if self.f is not None and rid in self.f:
            rec = self.f[rid]
            if name in rec:
                return rec[name]
        rec = self.R.get(rid)
        return rec.get(name) if rec is not None else None

    def name_of(self, rid: Any) -> Any:
        rec = self.R.get(rid)
        return (rec.get("name") or rid) if rec is not None else rid

    # ---- randomness -------------------------------------------------------------------------
    def _below(self, n: int) -> int:
        """A uniform number in 0..n-1: every die, shuffle and random pick draws through here.
        From the seeded generator, or, when the host supplies chance (`self.chance` is a
        list: `Game.new(..., chance=...)`), the next supplied outcome; none left is
        ChanceNeeded(n), and the host rolls back and calls again with one more."""
        if self.chance is not None:
            return self._supplied(n)
        self.s["rng"], value = _rng.below(self.s["rng"], n)
        return value

    def _supplied(self, n: int) -> int:
        if not self.chance:
            raise ChanceNeeded(n)
        value = self.chance.pop()  # kept in reverse: the next outcome is last
        if not (type(value) is int and 0 <= value < n):
            raise RuleError(f"a chance outcome {value!r} was supplied where one of {n} "
                            f"(0 to {n - 1}) is drawn")
        self.s["chance"].append(value)  # the record a save replays (engine.core.saves)
        return value

    def roll(self, n: int, faces: int) -> int:
        loaded = self.s.get("dice")
        if loaded:  # dice a host or test loaded (Game.load_dice): a worked example's rolls
            dice = [self._loaded(loaded, faces) for _ in range(n)]
        else:
            dice = [self._below(faces) + 1 for _ in range(n)]
        self.barrier()
        if self.logging:
            self._log({"t": "roll", "dice": dice})
        return sum(dice)

    def _loaded(self, loaded: list, faces: int) -> int:
        if not loaded:
            return self._below(faces) + 1
        value = loaded.pop(0)
        if not 1 <= value <= faces:
            raise RuleError(f"a loaded die shows {value}, but this roll is of a die of "
                            f"{faces} faces")
        return value

    def pick(self, items: list) -> Any:
        if not items:
            return None
        self.barrier()
        return items[self._below(len(items))]

    def lookup(self, table: str, row: Any, col: Any) -> Any:
        return self.P.tables[table].lookup(row, col)

    def all(self, type_name: str) -> list:
        return self.by_type[type_name]

    # ---- the step budget (see engine.core.limits) -----------------------------------------------
    def tick(self) -> None:
        """One rule step (a call, an event, a trigger, a `while` turn)."""
        self.left -= 1
        if self.left < 0:
            self.over_budget()

    def having(self, tname: str, field: str, value: Any) -> Any:
        """The records of type `tname` whose var field `field` is `value`, in the type's
        order: what a comprehension over all of them that keeps only `x.field == value`
        needs to walk (engine.dsl.compile.index; its condition still reads every
        record it gets). Charged as the walk of all of them. While a decision may be undone,
        all of them: the comprehension reads each through the watchers, as it always did."""
        items = self.by_type[tname]
        self.left -= len(items) + 1
        if self.left < 0:
            self.over_budget()
        index = self.fidx
        if index is None:
            return items
        if self.undo_side is not None and not self._seen_type(tname, items):
            return items  # the walk of all of them reads some that undo may not
        per_type = index.get(field)
        if per_type is None:  # first asked in this run, or its field was written since: a
            index[field] = {tname: None}  # walk of all costs what building the index does
            return items
        by_value = per_type.get(tname)
        if by_value is None:  # asked again: worth an index
            by_value = per_type[tname] = {}
            fields = self.s["f"]
            for rid in items:
                by_value.setdefault(fields[rid][field], []).append(rid)
        return by_value.get(value, ())

    def _seen_type(self, tname: str, items: list[str]) -> bool:
        """Does the side whose decision may be undone see every record of type `tname`?
        Then `having` may skip those whose field has another value: the walk of all of
        them would read only their fields (engine.dsl.compile.index), and reading a
        seen record's fields ends no undo. Worked out once per decision (`watch`): while
        it may be undone, no record becomes hidden from the side, as moving one into a
        zone it cannot see reads that zone, which ends the watch (`move`, `create`)."""
        seen = self._all_seen.get(tname)
        if seen is None:
            loc = self.loc
            seen = loc.keys().isdisjoint(items)  # most often: none of them in a zone
            if not seen:
                side, revealed = self.undo_side, self.revealed
                visible = self.P.visible_zones[side]
                seen = all(where is None or where in visible or side in revealed.get(rid, ())
                           for rid, where in zip(items, map(loc.get, items)))
            self._all_seen[tname] = seen
        return seen

    def kept(self, got: tuple[Any, int]) -> Any:
        """A kept value's result (result, steps it took): charges those steps again and
        returns the result (engine.dsl.compile.static and .memo)."""
        self.left -= got[1]
        if self.left < 0:
            self.over_budget()
        return got[0]

    def loop(self, items: Iterable[Any]) -> list:
        """The items a `for` statement walks, charged one step each up front, and copied:
        the loop's body may move them (comprehensions use `walk`, which does not copy)."""
        items = list(items)
        self.left -= len(items) + 1
        if self.left < 0:
            self.over_budget()
        return items

    def walk(self, items: Any) -> Any:
        """The items a comprehension walks, charged up front; not copied, since nothing
        can move while an expression is read."""
        if type(items) is not list:
            items = list(items)
        self.left -= len(items) + 1
        if self.left < 0:
            self.over_budget()
        return items

    def count(self, n: int) -> int:
        """`repeat n`, charged n steps up front: `repeat 10**12` fails at once."""
        self.left -= max(n, 0) + 1
        if self.left < 0:
            self.over_budget()
        return n

    def over_budget(self) -> None:
        """The step budget is spent (generated code charges it inline, then calls this)."""
        raise Runaway(f"more than {self.limits.steps:,} rule steps without a decision (a loop "
                      "or a chain of events that never ends?)")

    def numbers(self, lo: int, hi: int) -> list[int]:
        if hi - lo + 1 > self.limits.list_size:
            raise Runaway(f"numbers({lo}, {hi}) would hold {hi - lo + 1:,} numbers (the limit "
                          f"is {self.limits.list_size:,})")
        return list(range(lo, hi + 1))

    def cat(self, a: Any, b: Any) -> Any:
        """`a + b` of lists or text, capped in size (repeated doubling would fill memory)."""
        if isinstance(a, (list, str)) and isinstance(b, (list, str)) \
                and len(a) + len(b) > self.limits.list_size:
            raise Runaway(f"a list or text of {len(a) + len(b):,} items (the limit is "
                          f"{self.limits.list_size:,})")
        return a + b

    def _running(self) -> str:
        """'; running: event turn > procedure loop (rules.rules:10) > ...' for a fault."""
        parts: list[str] = []
        for fr in self.stack:
            if fr["k"] == "e":
                parts.append(f"event {fr['n']}")
            else:
                parts.append(describe_rule(fr["f"], self.P))
        nested = self.evnames[len([f for f in self.stack if f["k"] == "e"]):]
        parts += [f"event {n}" for n in nested]
        if not parts:
            return ""
        runs = [(part, len(list(group))) for part, group in itertools.groupby(parts)]
        return "; running: " + " > ".join(p if n == 1 else f"{p} ({n} times)" for p, n in runs)

    # ---- ending, logging, faults ----------------------------------------------------------------
    def win(self, side: str | None, reason: str | None = None, args: list | None = None) -> None:
        """End the game: `side` wins (None: no one). `reason`, a template with numbered
        placeholders filled by `args` like a log line's, says why: the result keeps it as
        text (in the pack's own language) and the log's end entry as the template, so that a
        view can show it in its language."""
        entry: dict[str, Any] = {"t": "end", "winner": side}
        text = "rule"
        if reason is not None:
            entry.update(m=reason, a=list(args or []))
            text = self.REASONS.get(reason) if not args else None
            if text is None:  # (a reason without values is rendered once per pack)
                from engine.i18n.translations import render_log_entry
                text = render_log_entry({"t": "say", "m": reason, "a": entry["a"]}, self.P)
                if not args:
                    self.REASONS[reason] = text
        self.s["result"] = {"winner": side, "reason": text}
        self._log(entry)
        raise GameOver()

    def say(self, message: str, args: list) -> None:
        if self.logging:
            self._log({"t": "say", "m": message, "a": args, "at": self._wheres(args)})

    def _wheres(self, values: list) -> list:
        """`_where` of each of `values` (most often text: a record's place, or None)."""
        try:  # a value that is no record's id has no place: loc holds records' ids only
            return list(map(self.loc.get, values))
        except TypeError:  # a list among them (unhashable): where each of its items lies
            return [self._where(v) for v in values]

    def _where(self, value: Any) -> Any:
        """Where a logged value lies (a zone key, or a list of them for a list), so that a
        view can hide the cards a player may not see."""
        if isinstance(value, str):
            return self.loc.get(value)
        if isinstance(value, list):
            return [self._where(v) for v in value]
        return None

    def fault(self, message: str) -> None:
        raise EngineFault(message)

    def _log(self, entry: dict) -> None:
        """Write an entry to the log (`attach` binds this to the log's own `append`, which
        saves a Python call per entry; the log list of a state is never replaced)."""
        self.s["log"].append(entry)

    def changed(self) -> None:
        """The state changed: results of values kept while it was unchanged are old."""
        if self.memo:
            self.memo.clear()

    def barrier(self) -> None:
        """Something random or hidden happened: undo may not go back past this point."""
        self.barrier_hit = True
        if self.undo_side is not None:
            self.unwatch()

    # ---- undo safety ------------------------------------------------------------------------
    def watch(self, side: str) -> None:
        """Until the next barrier, read zones and vars through watchers: a rule that reads
        what `side` cannot see may let it show (a question asked or not, an option offered),
        so such a read ends `side`'s chance to undo."""
        self.undo_side = side
        self.barrier_hit = False
        if self.memo:  # kept results were read past the watchers: read again through them
            self.memo.clear()
        self._all_seen = {}  # see `having`
        w = self._watchers.get(side)
        if w is None:
            # The watchers hold the runtime weakly: a cycle would leave every finished
            # game, its state and log, to the cyclic garbage collector (a tenth of random
            # play with undo on went to it).
            me = weakref.proxy(self)
            s = self.s
            f = s.get("f")
            w = self._watchers[side] = (_SeenZones(s["z"], me, side),
                                        _WatchedVars(s["v"], me, side),
                                        None if f is None else _SeenFields(f, me, side))
            if f is not None:
                self._seen.append(w[2])
        self.z, self.v = w[0], w[1]
        if self.f is not None:
            self.f = w[2]

    def unwatch(self) -> None:
        self.undo_side = None
        self.z, self.v, self.f = self.pz, self.pv, self.s.get("f")  # (pz, pv: the state's)


_MARK_LINE = re.compile(r"# @L(\d+)$")


def broke(err: Exception) -> str:
    """What broke in a rule, for the designer: the Python error, and what it means where the
    rules' own words say more (none used as a record or an index: the table of a field, a
    zone or a var has no entry for it)."""
    if isinstance(err, KeyError) and err.args == (None,):
        return ("none was used as a record or as an index (of a zone or var), where a value "
                "is needed (KeyError: None)")
    return f"{type(err).__name__}: {err}"


def rule_location(err: BaseException, pack: Any) -> str:
    """'path:line: ' of the rule whose generated code raised `err`: the function from the
    compiler's SITES table, the line from the `# @L<n>` comment nearest above the failing
    generated line; '' when the error did not come from pack code."""
    tb, found = err.__traceback__, None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename.startswith("<pack ") and code.co_name in pack.ns["SITES"]:
            found = (code.co_filename, code.co_name, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return ""
    rules_file, line = rule_site(pack, *found)
    path = os.path.join(str(pack.root), rules_file)
    return f"{path}:{line}: " if line else f"{path}: "


def rule_site(pack: Any, filename: str, fname: str, lineno: int) -> tuple[str, int]:
    """(rules file, line) of line `lineno` of generated function `fname` (one of the
    compiler's SITES, in module `filename`): the `# @L<n>` comment nearest above it within
    the function, else the function's own line."""
    file_index, line = pack.ns["SITES"][fname]
    lines = linecache.getlines(filename)
    for i in range(min(lineno, len(lines)) - 1, -1, -1):
        text = lines[i].rstrip("\n")
        if m := _MARK_LINE.search(text):
            line = int(m.group(1))
            break
        if text.startswith("def "):
            break
    return pack.ns["FILES"][file_index], line


def describe_rule(fname: str, pack: Any) -> str:
    """A generated function as a designer knows it: 'procedure loop (rules.rules:10)'."""
    kind = {"p": "procedure", "v": "value", "t": "trigger", "x": "effect"}.get(fname[:1], "rule")
    if fname.startswith("w_"):
        kind = "window"
    where = ""
    site = pack.ns["SITES"].get(fname)
    if site is not None:
        where = f" ({os.path.join(str(pack.root), pack.ns['FILES'][site[0]])}:{site[1]})"
    label = pack.rule_labels.get(fname, fname)
    return f"{kind} {label}{where}"


def enumerate_many(d: dict, check: Any) -> list[list]:
    """Every legal answer of a multi-choice, up to MAX_ENUMERATION of them."""
    opts = d["options"]
    out: list[list] = []
    seen: set = set()
    for k in range(d["min"], d["max"] + 1):
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


def _ending_events(mods: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """(when, event) of every start or end of an event some entry of `mods` waits for."""
    out: set[tuple[str, str]] = set()
    for m in mods:
        dur = m["dur"]
        if dur:
            for d in dur[1] if dur[0] == "any" else (dur,):
                out.add((d[0], d[1]))
    return out


def _ends(dur: list | None, when: str, event: str, depth: int) -> bool:
    """Does this duration end now, at the start or end (`when`) of `event`, whose instance
    runs at `depth`? Counts down a duration of several times (in the state)."""
    if not dur:
        return False
    if dur[0] == "any":
        return any(_ends(d, when, event, depth) for d in dur[1])  # every count goes on
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


class _SeenZones(dict):
    """The zones as seen by rules while a decision may be undone (see Runtime.watch):
    reading one `side` cannot see ends its chance to undo. Which zones a side sees never
    changes, so this keeps the zones found seen (the state's own lists), read at C speed
    after the first time; the others come to `__missing__` at every read. Made per state
    (Runtime.attach), and told of a zone that goes (Runtime.destroy)."""

    __slots__ = ("real", "rt", "side", "visible")

    def __init__(self, real: dict, rt: Runtime, side: str):
        super().__init__()
        self.real, self.rt, self.side = real, rt, side
        self.visible = rt.P.visible_zones.get(side, frozenset())  # the zones known at load

    def __missing__(self, key: str) -> list:
        if not frozenset.__contains__(self.visible, key) \
                and not self.rt.P.can_see_zone(self.side, key):
            self.rt.barrier()
            return self.real[key]
        items = self.real[key]
        dict.__setitem__(self, key, items)
        return items

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[key] if key in self.real else default

    def __contains__(self, key: object) -> bool:
        return key in self.real

    def __setitem__(self, key: str, value: list) -> None:
        self.real[key] = value
        dict.pop(self, key, None)  # read (and looked at) again

    def items(self) -> Any:  # type: ignore[override]
        return self.real.items()


class _WatchedVars:
    __slots__ = ("real", "rt", "side", "public", "keyed")

    def __init__(self, real: dict, rt: Runtime, side: str):
        self.real, self.rt, self.side = real, rt, side
        self.public = _public_vars(rt.P)
        self.keyed: dict[str, _WatchedKeys] = {}  # made once per var (the tables stay)

    def __getitem__(self, name: str) -> Any:
        inner = self.real[name]
        if name in self.public:
            return inner
        got = self.keyed.get(name)
        if got is None or got.real is not inner:
            got = self.keyed[name] = _WatchedKeys(inner, name, self.rt, self.side)
        return got

    def __setitem__(self, name: str, value: dict) -> None:
        self.real[name] = value

    def __contains__(self, name: object) -> bool:
        return name in self.real

    def items(self) -> Any:
        return self.real.items()


_PUBLIC: dict[int, tuple[Any, frozenset[str]]] = {}


def _public_vars(pack: Any) -> frozenset[str]:
    """The names of `pack`'s public vars (anyone may read them), kept per pack."""
    got = _PUBLIC.get(id(pack))
    if got is None or got[0] is not pack:
        got = _PUBLIC[id(pack)] = (pack, frozenset(
            name for name, decl in pack.model.vars.items() if decl.visibility == "public"))
    return got[1]


class _WatchedKeys:
    """A var that is not public, as seen by rules while a decision may be undone: reading
    a key `side` cannot see (any key of a hidden var, another side's of a private one: see
    CompiledPack.var_visible) ends its chance to undo."""

    __slots__ = ("real", "rt", "side", "private")

    def __init__(self, real: dict, name: str, rt: Runtime, side: str):
        self.real, self.rt, self.side = real, rt, side
        self.private = rt.P.model.vars[name].visibility == "private"

    def __getitem__(self, key: str) -> Any:
        if not self.private or key.split("|")[0] != self.side:
            self.rt.barrier()
        return self.real[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.real[key] = value


class _SeenFields(dict):
    """Record fields as seen by rules while a decision may be undone: reading the fields
    of a record `side` cannot see (in a zone hidden from it) ends its chance to undo.

    Rules read fields often (tens of reads per decision in a big pack), and a Python call
    for each was most of the cost of undo there, so this is a dict of the records found
    seen by the side, each with its fields (the state's own dict, not a copy): reading
    those is a dict's, at C speed. The first read of any other record comes to
    `__missing__`, which looks where it lies now, ends undo if it is hidden, and keeps it
    here if it is seen. What a side sees changes only as records move (a move takes back
    what was revealed too) or go: `Runtime.move` and `destroy` drop the record from each
    side's dict, which lasts as long as the state (`Runtime.attach` makes new ones), so a
    record is looked at again after each of its moves. Hence a host that arranges a
    position by hand, putting records into zones or replacing their fields' dicts, does
    so before the first `apply` with undo on, or calls `attach` again after."""

    __slots__ = ("real", "rt", "side", "visible", "loc", "revealed")

    def __init__(self, real: dict, rt: Runtime, side: str):
        super().__init__()
        self.real, self.rt, self.side = real, rt, side
        self.visible = rt.P.visible_zones.get(side, frozenset())
        self.loc, self.revealed = rt.loc, rt.revealed  # (the state's: made per state)

    def __missing__(self, rid: str) -> dict:
        where = self.loc.get(rid)
        if where is not None and not frozenset.__contains__(self.visible, where) \
                and not self.rt.P.can_see_zone(self.side, where) \
                and self.side not in self.revealed.get(rid, ()):
            self.rt.barrier()
            return self.real[rid]
        fields = self[rid] = self.real[rid]  # seen: read at C speed until it moves
        return fields

    def __contains__(self, rid: object) -> bool:
        return rid in self.real

    def get(self, rid: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[rid] if rid in self.real else default
