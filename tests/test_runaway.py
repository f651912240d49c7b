"""Runaway rules end as located faults, and a fault leaves the game as it was
(issue 8, holes 3 and 5).

Each rule here would run for ever (or fill memory) without the step budget, the frame and
nesting caps and the size caps of `engine.core.limits`. A small budget keeps the tests fast;
one test runs the default budget to show it is reached in reasonable time.
"""
from __future__ import annotations

import time

import pytest

from engine.core.errors import EngineFault
from engine.core.limits import Limits

SMALL = Limits(steps=20_000, frames=50, depth=30, list_size=5_000)


def fault_of(pack, limits=SMALL, answer=None) -> EngineFault:
    """The EngineFault a new game of `pack` raises (after `answer`, if given)."""
    with pytest.raises(EngineFault) as err:
        g = pack.new_game(1, limits=limits)
        if answer is not None:
            g.apply(answer)
    return err.value


def test_trigger_that_emits_its_own_event(inline_pack):
    pack = inline_pack("""
        var active: side = red
        event ping(n: int)
        on setup:
            emit ping(1)
        after ping(n):
            emit ping(n + 1)
    """)
    err = fault_of(pack)
    assert "events nested more than 30 deep" in str(err)
    assert "rules.rules:6:" in str(err)  # the trigger that emits


def test_event_that_enqueues_itself(inline_pack):
    pack = inline_pack("""
        var active: side = red
        event ping(n: int)
        on setup:
            emit ping(1)
        on ping(n):
            enqueue ping(n + 1)
    """)
    err = fault_of(pack)  # the queue of an event runs inside it, so this nests too
    assert "events nested more than 30 deep" in str(err)
    assert "event setup > event ping (29 times)" in str(err)


def test_recursive_procedure_that_asks(inline_pack):
    pack = inline_pack("""
        var active: side = red
        procedure again(n: int):
            let x = ask red "again?"
            again(n + 1)
        on setup:
            again(1)
    """)
    g = pack.new_game(1, limits=SMALL)
    with pytest.raises(EngineFault, match="more than 50 rules waiting inside each other") as err:
        for _ in range(100):
            g.apply(True)
    assert "procedure again (" in str(err.value) and "rules.rules:3)" in str(err.value)


def test_deep_calls_of_a_procedure_that_may_ask_run_below_the_frame_cap(inline_pack):
    """Calls of a rule that may wait run in the caller's Python call only up to a depth
    (engine.core.runtime.events.INLINE_FRAMES); deeper ones go through the run loop, so 450
    waiting rules, within the cap of 500, neither overflow Python's stack nor fault."""
    pack = inline_pack("""
        var active: side = red
        procedure down(n: int) -> int:
            if n == 0:
                let stop = ask red "stop?"
                return 0
            let below = down(n - 1)
            return below + 1
        on setup:
            let depth = down(490)
            log "depth", depth
            win red
    """)
    g = pack.new_game(1)
    assert len(g.state["stack"]) > 490
    g.apply(True)
    assert [e["a"] for e in g.log if e["t"] == "say"] == [[490]]


def test_repeat_a_trillion_fails_at_once(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var n: int = 0
        on setup:
            repeat 1000000000000:
                n += 1
    """)
    start = time.perf_counter()
    err = fault_of(pack, Limits())
    assert time.perf_counter() - start < 1
    assert "rules.rules:4:" in str(err) and "rule steps" in str(err)


@pytest.mark.parametrize("loop", ["for", "while"])
def test_nested_loops(inline_pack, loop):
    body = ("for i in numbers(1, 4000):\n                for j in numbers(1, 4000):\n"
            "                    n += 1" if loop == "for" else
            "while true:\n                let i = 0\n                while i < 100000:\n"
            "                    i += 1")
    pack = inline_pack(f"""
        var active: side = red
        var n: int = 0
        on setup:
            {body}
    """)
    assert "rule steps without a decision" in str(fault_of(pack))


def test_default_budget_ends_a_runaway_loop_quickly(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var n: int = 0
        on setup:
            while true:
                n += 1
    """)
    start = time.perf_counter()
    err = fault_of(pack, None)
    assert "more than 1,000,000 rule steps" in str(err)
    assert time.perf_counter() - start < 10


def test_numbers_are_capped(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var n: int = 0
        on setup:
            n = count(numbers(1, 1000000000))
    """)
    assert "numbers(1, 1000000000) would hold 1,000,000,000 numbers" in str(fault_of(pack))


def test_doubling_a_list_is_capped(inline_pack):
    pack = inline_pack("""
        var active: side = red
        on setup:
            let xs = [1]
            repeat 100:
                xs = xs + xs
    """)
    assert "a list or text of 8,192 items (the limit is 5,000)" in str(fault_of(pack))


def test_squaring_a_number_is_capped(inline_pack):
    pack = inline_pack("""
        var active: side = red
        on setup:
            let x = 2
            repeat 100:
                x = x * x
    """)
    assert "a product grew past 2**63" in str(fault_of(pack))


def test_exponential_recursion_runs_out_of_steps(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var n: int = 0
        procedure fib(k: int) -> int:
            if k < 2:
                return k
            return fib(k - 1) + fib(k - 2)
        on setup:
            n = fib(60)
    """)
    assert "rule steps without a decision" in str(fault_of(pack))


def test_endless_recursion_is_a_fault(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var n: int = 0
        procedure down(k: int) -> int:
            return down(k + 1)
        on setup:
            n = down(1)
    """)
    assert "call each other too deeply" in str(fault_of(pack, Limits()))


def test_limits_from_pack_yaml(write_pack):
    from engine.core.loader import load_pack
    root = write_pack("""
        var active: side = red
        var n: int = 0
        on setup:
            repeat 500:
                n += 1
    """)
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write("limits:\n  steps: 100\n")
    pack = load_pack(root)
    assert pack.limits.steps == 100
    with pytest.raises(EngineFault, match="more than 100 rule steps"):
        pack.new_game(1)
    assert pack.new_game(1, limits=Limits(steps=10_000)).over  # per call


@pytest.mark.parametrize("bad", ["steps: 0", "steps: many", "frames: -1", "speed: 3",
                                 "[1, 2]"])
def test_bad_limits_are_located_errors(write_pack, bad):
    from engine.dsl.build import build_pack
    root = write_pack("""
        var active: side = red
        on setup:
            pass
    """)
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write(f"limits: {{{bad}}}\n" if ":" in bad else f"limits: {bad}\n")
    b = build_pack(root)
    codes = [d for d in b.diagnostics if d.code == "E304" and "limit" in d.message]
    assert codes and codes[0].line == 5, b.diagnostics


def test_steps_are_counted_in_the_state(testgame):
    g = testgame.new_game(1)
    assert g.state["steps"] > 0


# ---- a fault leaves the game as it was (hole 5) ---------------------------------------------

FAULTY = """
    var active: side = red
    var n: int = 0
    var picked: list of int = []
    on setup:
        loop()
    procedure loop():
        while true:
            let k = choose x from numbers(0, 3) by red
            n += 1
            picked = picked + [k]
            log "picked", k
            if k == 0:
                n = n / k
"""


@pytest.mark.parametrize("log,undo", [(True, True), (True, False), (False, False)])
def test_a_fault_in_apply_changes_nothing(inline_pack, log, undo):
    pack = inline_pack(FAULTY)
    g = pack.new_game(5, log=log, undo=undo)
    g.apply(2)
    g.apply(3)
    before = g.save()
    actions = list(g.actions)
    can_undo = g.can_undo("red")
    with pytest.raises(EngineFault, match=r"rules.rules:13: ZeroDivisionError"):
        g.apply(0)
    assert g.save() == before
    assert g.actions == actions and g.decision is not None and not g.over
    assert g.can_undo("red") == can_undo
    g.apply(1)  # and play goes on
    assert g.var("n") == 3


def test_a_swapped_frame_function_cannot_spin(inline_pack):
    """A frame whose function is not a waiting rule returns no run-loop code: a fault, not
    an endless loop (hole 8's last point)."""
    pack = inline_pack(FAULTY + """
    procedure plain(x: int):
        n += 1
    """)
    g = pack.new_game(5, undo=False)
    frame = next(fr for fr in g.state["stack"] if fr.get("f") == "p_loop")
    frame["f"] = "p_plain"  # returns None, which is no run-loop code
    with pytest.raises(EngineFault, match="not a run-loop code"):
        g.apply(1)
