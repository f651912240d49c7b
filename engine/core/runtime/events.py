"""The event queue: events set off (`emit` at once, nested, or `enqueue`d after the
running one), their triggers stage by stage (`before` in declaration order, then the first
`instead of` whose condition holds, or else the `on` handlers, then `after`), events `with`
state, calls of procedures as frames (`push_call`) and records' effects.

An event that may wait for a decision runs as a frame of the stack ({"k": "e"}: its name,
arguments, stage, next trigger and queue), which the run loop advances (`_step_event`);
one that cannot runs at once, nested in the Python call (`emit_now`). A trigger's `if`
condition is read just before it runs."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.errors import EngineFault
from engine.core.rt import RuleError, Runaway
from engine.core.runtime.budget import StepBudget
from engine.core.runtime.log import Log
from engine.core.runtime.modifiers import Modifiers
from engine.core.runtime.signals import DONE, PUSHED
from engine.core.runtime.state import Data, Trigger

# Waiting rules on the stack up to which `call_now` runs a call in the caller's Python call
# (each costs two Python frames; Python's own limit is 1000, the frame cap 500 by default).
INLINE_FRAMES = 100


class Events(Modifiers, Log, StepBudget):
    def start_event(self, name: str, args: Iterable[Any]) -> None:
        """Start an event from the run loop: as a frame if it may suspend, else at once."""
        if name in self.suspending_events:
            (self.push_event_x if name in self.event_state_defaults else self.push_event)(
                name, args)
        else:
            (self.emit_now_x if name in self.event_state_defaults else self.emit_now)(
                name, tuple(args))

    def push_event(self, name: str, args: Iterable[Any]) -> None:
        args = list(args)
        self._event_starts(name, args)
        frame: Data = {"k": "e", "n": name, "a": args, "st": 0, "i": 0, "q": []}
        self.stack.append(frame)
        self.queues.append(frame["q"])
        self.running_events.append(name)

    def _event_starts(self, name: str, args: list[Any]) -> None:
        self.left -= 1  # tick(), inline on this hot path
        if self.left < 0:
            self.over_budget()
        if len(self.running_events) >= self.limits.depth:
            raise Runaway(f"events nested more than {self.limits.depth} deep (an event that "
                          "sets off itself?)")
        if self.mods:
            self._expire("start", name)
        if self.logging:
            self._log({"t": "event", "n": name, "a": list(args), "at": self._wheres(args)})

    def emit_now(self, name: str, args: tuple[Any, ...]) -> None:
        """Run an event that cannot suspend, nested in the current Python call."""
        self._event_starts(name, list(args))
        plan = self.plans.get(name)
        queue: list[Any] = []
        self.queues.append(queue)
        self.running_events.append(name)
        if plan is not None:
            before, insteads, ons, after = plan
            for fname, fn, cond, _suspends in before:
                if cond is None or cond(self, *args):
                    self._trace(fname, name)
                    fn(self, *args)
            chosen = self._instead_index(insteads, args)
            for fname, fn, cond, _suspends in (insteads[chosen:chosen + 1] if chosen >= 0
                                               else ons):
                if chosen >= 0 or cond is None or cond(self, *args):
                    self._trace(fname, name)
                    fn(self, *args)
            for fname, fn, cond, _suspends in after:
                if cond is None or cond(self, *args):
                    self._trace(fname, name)
                    fn(self, *args)
        while queue:
            queued, queued_args = queue.pop(0)
            (self.emit_now_x if queued in self.event_state_defaults else self.emit_now)(
                queued, tuple(queued_args))
        self.queues.pop()
        if self.mods:
            self._expire("end", name)
        self.running_events.pop()
        if self.logging:
            self._log({"t": "done", "n": name})

    # An event `with` state is started by these (the compiler picks them), so that events
    # without state pay nothing. The state is made as the event is set off, from its
    # arguments, and is gone when the event (its queue included) has ended.
    def emit_now_x(self, name: str, args: tuple[Any, ...]) -> None:
        states = self.event_states[name]
        states.append(self.event_state_defaults[name](self, *args))
        self.changed()
        self.emit_now(name, args)
        states.pop()
        self.changed()

    def push_event_x(self, name: str, args: Iterable[Any]) -> None:
        args = list(args)
        state = self.event_state_defaults[name](self, *args)
        self.push_event(name, args)
        self.stack[-1]["x"] = state
        self.event_states[name].append(state)
        self.changed()

    def evget(self, event: str, field: str) -> Any:
        """`battle.rounds`: the field of the innermost running `battle`."""
        states = self.event_states[event]
        if not states:
            raise RuleError(f"{event}.{field} read while no {event} is running")
        return states[-1][field]

    def evset(self, event: str, field: str, value: Any) -> None:
        states = self.event_states[event]
        if not states:
            raise RuleError(f"{event}.{field} written while no {event} is running")
        states[-1][field] = value
        self.changed()

    def enqueue(self, name: str, args: tuple[Any, ...]) -> None:
        if not self.queues:
            raise EngineFault(f"'enqueue {name}' outside any event")
        self.queues[-1].append([name, list(args)])

    def push_call(self, fname: str, args: Data) -> None:
        self.left -= 1  # tick(), inline on this hot path
        if self.left < 0:
            self.over_budget()
        stack = self.stack
        if len(stack) >= self.limits.frames:
            raise Runaway(f"more than {self.limits.frames} rules waiting inside each other "
                          "(a procedure that calls itself without end?)")
        stack.append({"k": "p", "f": fname, "pc": 0, "L": args})

    def call_now(self, caller: Data, fname: str, args: Data) -> int:
        """Call rule `fname` (one that may wait) from the frame `caller` in this Python call,
        its frame pushed as `push_call` pushes it: DONE when it ended without waiting (its
        frame gone, its value in the caller's "rv", as the run loop would leave them), else
        its code for the run loop (SUSPEND, PUSHED), which resumes it as any frame. The same
        steps, frames and order as a return to the run loop, without the return: a call
        that does not wait costs a call. Beyond INLINE_FRAMES waiting rules the frame is
        left to the run loop, so that deep calls nest in the stack, not in Python's."""
        self.push_call(fname, args)
        stack = self.stack
        if len(stack) > INLINE_FRAMES:
            return PUSHED
        frame = stack[-1]
        code: int = self.functions[fname](self, frame)
        if code == DONE:
            stack.pop()
            caller["rv"] = frame.get("rv")
        return code

    def push_effect(self, rid: str, field: str) -> bool:
        """Run a record's effect; True when it was pushed as a frame (it may suspend)."""
        entry = self.pack.ns["EFFECTS"].get((rid, field))
        if entry is None:
            return False
        fname, fn, suspends = entry
        if suspends:
            self.push_call(fname, {"self": rid})
            return True
        fn(self, rid)
        return False

    def run_effect_now(self, rid: str, field: str) -> None:
        entry = self.pack.ns["EFFECTS"].get((rid, field))
        if entry is not None:
            entry[1](self, rid)

    def _trace(self, fname: str, event: str) -> None:
        self.left -= 1  # tick(), inline on this hot path
        if self.left < 0:
            self.over_budget()
        if self.logging:
            self._log({"t": "trigger", "f": fname, "n": event})

    # ---- an event as a frame, advanced by the run loop ---------------------------------------
    def _step_event(self, frame: Data) -> None:
        """Advance an event frame: its triggers stage by stage, then its queue, then its end.
        Returns when a trigger was pushed as a frame (it may suspend) or the event ended."""
        plan = self.plans.get(frame["n"])
        if plan is not None:
            args = frame["a"]
            stage = frame["st"]  # 0 before, 1 instead of / on, 2 after
            while stage < 3:
                check = True
                if stage == 1:
                    chosen = frame.get("m")
                    if chosen is None:  # which `instead of` applies: settled once, after `before`
                        chosen = frame["m"] = self._instead_index(plan[1], args)
                    triggers = plan[1][chosen:chosen + 1] if chosen >= 0 else plan[2]
                    check = chosen < 0
                else:
                    triggers = plan[0] if stage == 0 else plan[3]
                i = frame["i"]
                while i < len(triggers):
                    fname, fn, cond, suspends = triggers[i]
                    i += 1
                    if check and cond is not None and not cond(self, *args):
                        continue  # conditions are read just before the trigger runs
                    frame["i"] = i
                    self._trace(fname, frame["n"])  # counts a step even with the log off
                    if suspends:
                        self.push_call(fname, dict(zip(self.params[fname], args)))
                        return
                    fn(self, *args)
                stage += 1
                frame["st"] = stage
                frame["i"] = 0
        queue = frame["q"]
        if queue:
            name, queued_args = queue.pop(0)
            self.start_event(name, queued_args)
            return
        self._finish_event(frame)

    def _instead_index(self, insteads: list[Trigger], args: Iterable[Any]) -> int:
        """The first `instead of` trigger whose condition holds now, or -1."""
        for i, entry in enumerate(insteads):
            cond = entry[2]
            if cond is None or cond(self, *args):
                return i
        return -1

    def _finish_event(self, frame: Data) -> None:
        self.stack.pop()
        self.queues.pop()
        if frame.get("x") is not None:
            self.event_states[frame["n"]].pop()
            self.changed()  # `event.field` reads another instance now
        if self.mods:
            self._expire("end", frame["n"])
        self.running_events.pop()
        if self.logging:
            self._log({"t": "done", "n": frame["n"]})
