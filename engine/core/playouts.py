"""Random play at the runtime's speed (`Game.playout` of a game without undo or the host's
chance): each decision answered with a random legal answer as the rules ask for it, the
rules running on from one decision to the next without returning to the game. A choice of
one item or a question is answered where the rules ask it (`Runtime.picker`, called by
`pick1` and `pick_decide` in the generated code): no decision is built, the rule does not
return to the run loop, and the game is the same, draw for draw, counter for counter
(`bench/run.py --compare` at 3867f4c: 7-24% more games/s on the bench packs, 10-14% on
the shipped ones)."""
from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from engine.core.decisions import random_answer, shown
from engine.core.runtime import STOP

if TYPE_CHECKING:
    from engine.core.runtime import Runtime


def generators(rnd: random.Random | Mapping[str, random.Random], sides: list[str]
               ) -> tuple[random.Random | None, Mapping[str, random.Random]]:
    """The generators `rnd` gives (one for every side, or side -> its own): (the one, {}),
    or (None, each side's); ValueError for anything else."""
    if isinstance(rnd, random.Random):
        return rnd, {}
    if isinstance(rnd, Mapping) and all(isinstance(rnd.get(side), random.Random)
                                        for side in sides):
        return None, rnd
    raise ValueError("playout draws from a random.Random, or a map of each side ("
                     f"{', '.join(sides)}) to its own, not {shown(rnd)}")


def play_on(rt: Runtime, actions: list[Any], limit: int, single: random.Random | None,
            by_side: Mapping[str, random.Random],
            failed: Callable[[BaseException, int], None]) -> bool:
    """Answer each decision of `rt` at random (from `single`, or the decider's generator
    in `by_side`), each answer added to `actions`, until the game is over (True) or
    `actions` holds `limit` (False). When an answer fails, `failed(err, the log's length
    before it)` puts the game back before it, and the error is raised."""
    s = rt.s
    log = s["log"]
    check_require = rt.check_require
    log_length = len(log)
    choosing = False
    below = _below(single)

    def choose() -> Any:
        nonlocal log_length, choosing
        if len(actions) >= limit:
            return STOP
        d = s["decision"]
        if below is not None and d["kind"] == "one" and not d["optional"] \
                and "idle" not in d:  # (most decisions: random_answer's own draw, inline)
            opts = d["options"]
            value = opts[below(len(opts))]
        else:
            choosing = True
            value = random_answer(d, by_side[d["side"]] if single is None else single,
                                  check_require)
            choosing = False
        log_length = len(log)
        actions.append(value)
        return value

    budget, logging = rt.limits.steps, rt.logging
    # the generator each side draws from, and its `_below` (None: left to the run loop)
    own = (single, below) if single is not None else None
    drawing = {side: (r, _below(r)) for side, r in by_side.items()} if own is None else {}

    def pick(side: str, kind: str, options: list[Any], optional: bool,
             idle: list[Any] | None) -> Any:
        """A choice of one item or a yes/no question answered where the rules ask it
        (Runtime.pick1, pick_decide): what the run loop, `choose` and `give` do for it, in
        their order, without the decision, the answer drawn as `random_answer` draws it;
        STOP leaves it to the run loop (at `limit`, or for a generator that draws its own
        way)."""
        nonlocal log_length
        rnd, draw = own if own is not None else drawing[side]
        if draw is None or len(actions) >= limit:
            return STOP
        s["steps"] += budget - rt.left  # (the run loop's count of a decision's steps)
        rt.left = budget
        if kind == "one" and not idle:  # (most: random_answer's own draw, inline)
            n = len(options)
            i = draw(n + 1 if optional else n)
            value: Any = options[i] if i < n else None
        else:  # a question, or a choice with options doing nothing now: as it draws them
            asked: dict[str, Any] = {"kind": kind, "options": options, "optional": optional}
            if idle:
                asked["idle"] = idle
            value = random_answer(asked, rnd, check_require)
        log_length = len(log)
        actions.append(value)
        s["decisions"] += 1
        if logging:
            rt._log({"t": "choice", "side": side, "v": value})
        return value

    if s["decision"] is None:
        return s["result"] is not None
    first = choose()
    if first is STOP:
        return False
    rt.picker = pick
    try:
        rt.give(first)
        rt.run(choose)
    except BaseException as err:
        rt.picker = None  # (before the roll back, which replays the answers given)
        if choosing:  # no answer was given: the game waits at that decision, whole
            raise
        failed(err, log_length)
        raise
    rt.picker = None
    return s["result"] is not None


def _below(rnd: random.Random | None) -> Callable[[int], int] | None:
    """`rnd.randrange` of one whole number n > 0, without its checks of other arguments:
    the method it calls (Random._randbelow), so the very same draw; None for a generator
    whose class draws its own way (a randrange of its own), or for none."""
    if rnd is None or type(rnd).randrange is not random.Random.randrange:
        return None
    below: Callable[[int], int] = rnd._randbelow  # type: ignore[attr-defined]
    return below
