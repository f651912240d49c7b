"""The run loop: run the frames of the stack until a decision is needed or the game ends,
within the step budget (each decision starts a new one); answer a decision that has only
one legal answer without asking (unless it is `always asked`); give a decision its answer;
and run one generated function outside the loop (`call_rule`). A rule that breaks comes out
as an EngineFault that names it (engine.core.runtime.faults)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core.errors import ChanceNeeded, EngineFault, IllegalAction
from engine.core.rt import RuleError
from engine.core.runtime.decisions import Decisions
from engine.core.runtime.events import Events
from engine.core.runtime.faults import broke, rule_location
from engine.core.runtime.signals import DONE, PUSHED, STOP, SUSPEND, GameOver
from engine.core.runtime.state import Data


class RunLoop(Events, Decisions):
    def run(self, choose: Callable[[], Any] | None = None) -> None:
        """Run until a decision is needed or the game ends, within the step budget (each
        decision starts a new one). `choose`, when given, answers the decisions instead:
        it returns the answer to give (its side's, checked), or STOP to leave the decision
        waiting; the run goes on until the game ends or it stops (`Game.playout`)."""
        stack = self.stack
        functions = self.functions
        state = self.s
        self.left = budget = self.limits.steps
        memo, field_index = self.memo, self.field_index = self._run_caches
        try:
            while stack:
                frame = stack[-1]
                if frame["k"] == "p":
                    code = functions[frame["f"]](self, frame)
                    if code == DONE:
                        stack.pop()
                        if stack and stack[-1]["k"] == "p":
                            stack[-1]["rv"] = frame.get("rv")
                    elif code == SUSPEND:
                        decision = state["decision"]
                        # a real choice (most decisions) has nothing to answer here
                        if (decision["kind"] != "one" or len(decision["options"]) < 2) \
                                and self._auto_answer():
                            continue
                        if choose is None:
                            return
                        # as a new run would: the steps so far counted, a new budget (a
                        # choice's condition, checked by `choose`, has its own). The values
                        # kept stay: each change of the state drops those it touches (see
                        # `changed`), an answer changes none, and a kept value costs the steps
                        # it took (the step count comes out the same)
                        state["steps"] += budget - self.left
                        try:
                            value = choose()
                        finally:
                            self.left = budget
                        if value is STOP:
                            return
                        self.give(value)
                    elif code != PUSHED:
                        raise EngineFault(f"rule {frame['f']!r} returned {code!r}, which is "
                                          "not a run-loop code (done, suspend, pushed)")
                else:
                    self._step_event(frame)
        except GameOver:
            stack.clear()
            self.queues.clear()
            self.running_events.clear()
            for states in self.event_states.values():
                states.clear()
            state["decision"] = None
            return
        except (EngineFault, IllegalAction, ChanceNeeded):
            raise
        except RuleError as err:
            raise EngineFault(f"{rule_location(err, self.pack)}{err}{self._running()}") \
                from None
        except RecursionError:
            raise EngineFault("rules call each other too deeply (a procedure or value that "
                              f"never stops calling itself?){self._running()}") from None
        except Exception as err:  # a rule broke at run time: report it replayably
            raise EngineFault(f"{rule_location(err, self.pack)}{broke(err)}") from err
        finally:
            if memo:
                memo.clear()
            if field_index:
                field_index.clear()
            self.memo = self.field_index = None
            state["steps"] += budget - self.left
        if state["result"] is None:
            state["result"] = {"winner": None, "reason": "no rule left to run"}
            self._log({"t": "end", "winner": None})

    def _auto_answer(self) -> bool:
        """Answer a decision that has exactly one legal answer, without asking anyone
        (never a response window: see open_window; nor one that is `always asked`, unless
        nothing at all is offered)."""
        decision = self.s["decision"]
        opts = decision["options"]
        kind = decision["kind"]
        if opts and "always" in decision:
            return False
        if kind == "one":
            if not opts:
                if "window" in decision:
                    return False
                answer: Any = None
            elif len(opts) == 1 and not decision["optional"]:
                answer = opts[0]
            else:
                return False
        elif kind == "many":
            if decision["max"] == 0:
                answer = []
            elif decision["min"] == len(opts) and decision["require"] is None:
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
        state = self.s
        decision = state["decision"]
        state["decision"] = None
        state["decisions"] += 1
        if self.logging:
            self._log({"t": "choice", "side": decision["side"], "v": value})
        self.stack[-1]["in"] = value

    def check_require(self, decision: Data, chosen: list[Any]) -> bool:
        if decision["require"] is None:
            return True
        fname, captured = decision["require"]
        return bool(self.call_rule(self.pack.ns[fname], captured, chosen))

    def call_rule(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run one generated function outside the run loop (a choice's condition, an
        invariant) with a fresh step budget; a failure is an EngineFault naming the rule."""
        self.left = self.limits.steps
        try:
            return fn(self, *args)
        except (EngineFault, IllegalAction, ChanceNeeded):
            raise
        except RuleError as err:
            raise EngineFault(f"{rule_location(err, self.pack)}{err}") from None
        except RecursionError:
            raise EngineFault("rules call each other too deeply") from None
        except Exception as err:
            raise EngineFault(f"{rule_location(err, self.pack)}{broke(err)}") from err
