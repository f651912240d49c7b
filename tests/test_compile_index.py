"""engine.dsl.compile.index: a walk of all the records of a type that keeps only those whose
var field equals a value it reads once (`x.f == v`, after tests that read only x's fields,
locals and literals) walks just those records (G.having, kept in an index while rules run);
the condition is still read for each record walked, so the result is the same."""
from __future__ import annotations

from compile_passes import REGIONS, assert_same_games, both_ways, function, says

RULES = """
type region:
    size: int
    var owner: side? = none
var active: side = red
value owned(s: side): int = count(r in region where r.owner == s)
value big_owned(s: side): list of region = [r in region where r.size != 1 and s == r.owner]
value lucky(s: side): int = count(r in region where roll(1, 2) > 1 and r.owner == s)
on setup:
    log "start", owned(red), big_owned(red)
    let r = choose r from region by red
    r.owner = red
    let t = choose t from region where t.owner == none by blue
    t.owner = blue
    log "end", owned(red), owned(blue), big_owned(red), lucky(red) >= 0
    end game
"""


def test_a_walk_filtered_by_a_var_field_uses_the_index(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    assert "for l_r in G.having('region', 'owner', l_s):" in function(fast.code, "v_owned")
    # after a test that reads only a field and a literal, the equality either way round
    assert "G.having('region', 'owner', l_s)" in function(fast.code, "v_big_owned")
    assert "G.having(" not in plain.code


def test_no_index_after_a_test_that_is_not_read_for_every_record(write_pack):
    """A die rolled in the condition: skipping records would skip rolls."""
    fast, _plain = both_ways(write_pack(RULES, REGIONS))
    assert "G.having(" not in function(fast.code, "v_lucky")


def test_the_index_gives_the_records_a_full_walk_does(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    game = fast.new_game(0)
    game.apply("south")
    game.apply("north")
    assert says(game) == [["start", 0, []], ["end", 1, 1, ["south"], True]]
    assert_same_games(fast, plain)
