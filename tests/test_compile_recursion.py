"""engine.dsl.compile.recursion: the call of a value is charged a step only when the value
may call itself again (directly or through others), so that its recursion cannot run
unbounded; any other call does bounded work, charged by the walks and calls inside it.
Plainly compiled, every value's call costs a step."""
from __future__ import annotations

import pytest
from compile_passes import both_ways, function

from engine.core.errors import EngineFault
from engine.core.limits import Limits
from engine.dsl.compile.recursion import recursive_values

TICK = "    G.left -= 1\n    if G.left < 0: G.over_budget()\n"


def test_the_values_in_a_cycle_of_calls():
    bodies = {"deep": "(0 if (l_n <= 0) else (v_deep(G, (l_n - 1)) + 1))",
              "ping": "v_pong(G, l_n)", "pong": "v_ping(G, l_n)",
              "uses_deep": "v_deep(G, 3)", "plain": "(l_n + 1)"}
    assert recursive_values(bodies) == {"deep", "ping", "pong"}


RULES = """
var active: side = red
var base: int = 1
value deep(n: int): int = 0 if n <= 0 else deep(n - 1) + 1
value next_one(n: int): int = n + base
value forever(n: int): int = forever(n + 1)
on setup:
    log "x", deep(3), next_one(2)
    end game
"""


def test_only_a_value_that_may_recurse_is_charged(write_pack):
    fast, plain = both_ways(write_pack(RULES))
    assert TICK in function(fast.code, "v_deep") and TICK in function(fast.code, "v_forever")
    assert TICK not in function(fast.code, "v_next_one")
    assert TICK in function(plain.code, "v_next_one")
    rt = fast.new_game(0).rt
    rt.left = 100
    assert fast.ns["VALUES"]["next_one"](rt, 2) == 3 and rt.left == 100
    assert fast.ns["VALUES"]["deep"](rt, 3) == 3 and rt.left == 100 - 4


def test_a_value_that_calls_itself_still_ends_as_a_runaway(write_pack):
    fast, _plain = both_ways(write_pack(RULES.replace("deep(3)", "forever(0)")))
    with pytest.raises(EngineFault, match="rule steps without a decision"):
        fast.new_game(0, limits=Limits(steps=300))  # before Python's own depth limit
