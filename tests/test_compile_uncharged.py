"""engine.dsl.compile.uncharged: a walk of the pack's own data (records of a type not made
in play, an enum's values, a list field that is not var, a list written out) is not
copied, and costs no steps when it has at most 16 items and no walk inside: the loop, call
or turn around it is charged. A longer one, or any other list, is charged one step an
item and one more."""
from __future__ import annotations

from compile_passes import assert_same_games, both_ways, function

RULES = """
type region:
    near: list of region
    var tags: list of int = []
var active: side = red
var mark[r: region]: int = 0
value free(r: region): int = count(n in r.near where mark[n] == 0)
value tagged(r: region): int = count(t in r.tags where t > 0)
on setup:
    north.tags = [1, 0, 2]
    let r = choose r from region by red
    mark[r] = 1
    log "x", free(north), tagged(north)
    end game
"""


def records(near: int) -> str:
    names = [f"r{i}" for i in range(near)]
    return ("region:\n  - {id: north, near: [" + ", ".join(names) + "]}\n"
            + "".join(f"  - {{id: {name}, near: []}}\n" for name in names))


def test_a_short_walk_of_the_packs_own_data_is_not_charged(write_pack):
    fast, plain = both_ways(write_pack(RULES, records(3)))
    free = function(fast.code, "v_free")
    assert "    for l_n in RF_near[l_r]:\n" in free and "G.left" not in free
    assert "G.walk(" in function(plain.code, "v_free")
    rt = fast.new_game(0).rt
    rt.left = 100
    assert fast.ns["VALUES"]["free"](rt, "north") == 3 and rt.left == 100


def test_a_walk_of_a_list_that_changes_in_play_is_charged(write_pack):
    fast, _plain = both_ways(write_pack(RULES, records(3)))
    tagged = function(fast.code, "v_tagged")
    assert "G.left -= len(_t2) + 1" in tagged and "list(_t2)" in tagged  # copied, charged
    rt = fast.new_game(0).rt
    rt.left = 100
    assert fast.ns["VALUES"]["tagged"](rt, "north") == 2 and rt.left == 100 - 4


def test_a_long_walk_of_the_packs_own_data_is_charged(write_pack):
    fast, plain = both_ways(write_pack(RULES, records(17)))
    rt = fast.new_game(0).rt
    rt.left = 100
    assert fast.ns["VALUES"]["free"](rt, "north") == 17 and rt.left == 100 - 18
    assert_same_games(fast, plain)
