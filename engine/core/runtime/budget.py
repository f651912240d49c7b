"""The step budget (engine.core.limits): every rule step (a call, an event, a trigger, a
loop's turn, an item a loop or comprehension walks) is charged to `left`, and a rule that
spends it all is a Runaway; and the caps on the size of what rules build (lists, text).

Generated code charges `G.left` inline and calls `over_budget` only when it runs out; the
runtime's own hot paths do the same (`tick()`, inline)."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.rt import Runaway
from engine.core.runtime.state import RuntimeState


class StepBudget(RuntimeState):
    def tick(self) -> None:
        """One rule step (a call, an event, a trigger, a `while` turn)."""
        self.left -= 1
        if self.left < 0:
            self.over_budget()

    def over_budget(self) -> None:
        """The step budget is spent (generated code charges it inline, then calls this)."""
        raise Runaway(f"more than {self.limits.steps:,} rule steps without a decision (a loop "
                      "or a chain of events that never ends?)")

    def kept(self, got: tuple[Any, int]) -> Any:
        """A kept value's result (result, steps it took): charges those steps again and
        returns the result (engine.dsl.compile.static and .memo: static and run-kept values)."""
        self.left -= got[1]
        if self.left < 0:
            self.over_budget()
        return got[0]

    def loop(self, items: Iterable[Any]) -> list[Any]:
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

    # ---- sizes (the list_size limit) ----------------------------------------------------------
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
