"""engine.dsl.compile.inline: a small value that only reads and walks nothing is written in
place of its calls with plain arguments (its formula, inlined); a small one that walks is
written out as statements where a formula calls it (unfolded). The same reads and steps."""
from __future__ import annotations

from compile_passes import assert_same_games, both_ways, function, says

RULES = """
type region:
    size: int
    near: list of region
var active: side = red
var mark[r: region]: int = 0
value doubled(r: region): int = r.size * 2 + mark[r]
value total(): int = sum(doubled(r) for r in region)
value free(r: region): int = count(n in r.near where mark[n] == 0)
value spread(): int = sum(free(r) for r in region)
value lucky(r: region): int = roll(1, 6) + r.size
on setup:
    log "start", total(), spread(), doubled(north)
    let r = choose r from region by red
    mark[r] = 1
    log "end", total(), spread(), free(r), lucky(r) > 0
    end game
"""
RECORDS = """
region:
  - {id: north, size: 2, near: [south, east]}
  - {id: south, size: 4, near: [north]}
  - {id: east, size: 1, near: []}
"""


def test_a_small_value_that_reads_is_written_in_place_of_its_call(write_pack):
    fast, plain = both_ways(write_pack(RULES, RECORDS))
    total = function(fast.code, "v_total")
    assert "v_doubled(" not in total and "imul(RF_size[l_r], 2)" in total
    assert "v_doubled(G, l_r)" in function(plain.code, "v_total")
    assert "\ndef v_doubled(G, l_r):\n" in fast.code  # still there for a call by name


def test_a_value_that_rolls_is_called_where_one_that_reads_is_not(write_pack):
    fast, _plain = both_ways(write_pack(RULES, RECORDS))
    setup = function(fast.code, "t0_on_setup")
    assert "v_lucky(G, L['r'])" in setup and "imul(RF_size['north'], 2)" in setup


def test_a_small_value_that_walks_is_unfolded(write_pack):
    fast, plain = both_ways(write_pack(RULES, RECORDS))
    spread = function(fast.code, "v_spread")
    assert "v_free(" not in spread and "for l_n in RF_near[l_r]:" in spread
    assert "v_free(G, l_r)" in function(plain.code, "v_spread")


def test_inlined_and_unfolded_values_play_the_games_of_their_calls(write_pack):
    fast, plain = both_ways(write_pack(RULES, RECORDS))
    assert says(fast.new_game(0))[0] == ["start", 14, 3, 4]
    assert_same_games(fast, plain)
