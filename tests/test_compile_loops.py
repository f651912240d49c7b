"""engine.dsl.compile.loops: walks in formulas and statements are written as loops (no
comprehension, a function of its own in Python 3.11, made and called each time), `and` /
`or` around them as `if`s, and the options of `choose ... where` as a loop: the same reads,
results and steps as the expressions they replace."""
from __future__ import annotations

from compile_passes import REGIONS, assert_same_games, both_ways, function, says

RULES = """
type region:
    size: int
var active: side = red
var mark[r: region]: int = 0
value big(): int = count(r in region where r.size > 1)
value sizes(): list of int = [r.size for r in region where mark[r] == 0]
value either(): bool = mark[north] > 0 or exists(r in region where r.size > 3)
on setup:
    log "start", big(), sizes(), either()
    let r = choose r from region where mark[r] == 0 and r.size > 1 by blue
    mark[r] = 1
    log "after", big(), sizes(), either(), r
    let s = choose s from region where mark[s] == 0 by red
    mark[s] = 2
    log "end", sizes(), either()
    end game
"""


def test_walks_in_formulas_are_loops(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    big = function(fast.code, "v_big")
    assert "    for l_r in G.all('region'):\n" in big and "        _t1 += 1\n" in big
    assert "sum(" not in big
    assert "sum(1 for l_r in G.walk(G.all('region'))" in function(plain.code, "v_big")
    sizes = function(fast.code, "v_sizes")
    assert "        _t1.append(RF_size[l_r])\n" in sizes and " for l_r in G.walk(" not in sizes
    assert "return [R[l_r]['size'] for l_r in G.walk(G.all('region'))" in function(
        plain.code, "v_sizes")


def test_and_or_around_a_walk_are_ifs(write_pack):
    """`a or exists(...)`: the walk runs only when `a` does not hold, as Python's `or`."""
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    assert "    _t1 = (PV['mark']['north'] > 0)\n    if not _t1:\n        _t2 = False\n" \
        in function(fast.code, "v_either")
    assert "> 0) or any(True for l_r in G.walk(" in function(plain.code, "v_either")


def test_the_options_of_a_choice_with_a_condition_are_a_loop(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    assert "[l_r for l_r in" not in fast.code and "for l_r in G.all('region'):" in fast.code
    assert "[l_r for l_r in G.all('region') if" in plain.code


def test_loops_play_the_games_the_expressions_do(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    game = fast.new_game(0)
    assert says(game)[0] == ["start", 2, [2, 4, 1], True]
    assert_same_games(fast, plain)
