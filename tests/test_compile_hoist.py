"""engine.dsl.compile.hoist: what a walk would read again for each item is read once per
walk: the call of a value that only reads, with arguments that read nothing the walk binds
(read when first needed, then kept in a temporary), and the table of a var (read into a
temporary before the loop). Nothing changes while an expression is read: the same values."""
from __future__ import annotations

from compile_passes import assert_same_games, both_ways, function, says

RULES = """
type region:
    size: int
var active: side = red
var limit: int = 2
var mark[r: region]: int = 0
value cap(): int = limit + count(r in region where mark[r] > 0)
value small(): list of region = [r in region where r.size <= cap() and mark[r] == 0]
on setup:
    log "small", small()
    let r = choose r from region by red
    mark[r] = 1
    log "small", small()
    limit = 0
    log "small", small()
    end game
"""
RECORDS = """
region:
  - {id: a, size: 1}
  - {id: b, size: 3}
  - {id: c, size: 2}
"""


def test_a_value_call_that_does_not_depend_on_the_walk_is_read_once(write_pack):
    fast, plain = both_ways(write_pack(RULES, RECORDS))
    small = function(fast.code, "v_small")
    before_loop, loop = small.split("for l_r in", 1)
    assert "_t2 = ...\n" in before_loop  # the call's temporary, not yet read
    assert "(_t2 if _t2 is not ... else (_t2 := v_cap(G)))" in loop
    assert "v_cap(G)" in function(plain.code, "v_small") and ":=" not in plain.code


def test_a_var_table_is_read_once_before_the_loop(write_pack):
    fast, _plain = both_ways(write_pack(RULES, RECORDS))
    before_loop, loop = function(fast.code, "v_small").split("for l_r in", 1)
    assert "_t3 = PV['mark']\n" in before_loop and "_t3[(l_r)] == 0" in loop
    assert "PV['mark']" not in loop


def test_hoisted_reads_give_the_games_of_the_plain_ones(write_pack):
    fast, plain = both_ways(write_pack(RULES, RECORDS))
    game = fast.new_game(0)
    game.apply("a")
    assert says(game) == [["small", ["a", "c"]], ["small", ["b", "c"]], ["small", []]]
    assert_same_games(fast, plain)
