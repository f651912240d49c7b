"""engine.dsl.compile.memo: a value that only reads, walks all the records of a type (or
searches a graph) and is read again before anything changes (no parameters, or called twice
with the same arguments by some rule) is kept while the state is unchanged (G.memo, which
the runtime empties at every change); a hit charges the steps the working out took."""
from __future__ import annotations

from compile_passes import REGIONS, assert_same_games, both_ways, function, says

from engine.dsl.compile.memo import run_memo_values

RULES = """
type region:
    size: int
    var owner: side? = none
var active: side = red
value taken(): int = count(r in region where r.owner != none)
value others(s: side): int = count(r in region where r.owner != none and r.owner != s)
value near(s: side): int = others(s) + others(s)
value once(s: side): int = count(r in region where r.owner != none and r.size > 1)
on setup:
    log "start", taken(), near(red), once(red)
    let r = choose r from region by red
    r.owner = red
    log "one", taken(), near(red)
    let t = choose t from region where t.owner == none by blue
    t.owner = blue
    log "two", taken(), near(blue), once(blue)
    end game
"""


def test_which_values_are_kept():
    bodies = {"walks": "len(G.all('region'))", "reads": "PV['x']['']",
              "static": "len(G.all('region'))", "rolls": "len(G.all('region'))"}
    pure = {"walks", "reads", "static"}
    assert run_memo_values(bodies, pure, {"static"}, set(bodies)) == {"walks"}
    assert run_memo_values(bodies, pure, {"static"}, set()) == set()  # nothing read again


def test_kept_values_look_up_the_runs_memo(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    assert function(fast.code, "v_taken").startswith(
        "def v_taken(G):\n    memo = G.memo\n    if memo is not None:\n"
        "        got = memo.get(('taken',))\n")
    assert "memo.get(('others', l_s))" in function(fast.code, "v_others")  # called twice
    assert "G.memo" not in function(fast.code, "v_once")  # each call with other arguments
    assert "G.memo" not in plain.code


def test_kept_values_follow_every_change(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    game = fast.new_game(0)
    game.apply("north")
    game.apply("east")
    assert says(game) == [["start", 0, 0, 0], ["one", 1, 0], ["two", 2, 2, 1]]
    assert game.rt.memo is None  # nothing kept between runs
    assert_same_games(fast, plain)
