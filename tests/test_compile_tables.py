"""engine.dsl.compile.tables: a field of the pack's records is read through RF_<field>
(record -> value, one lookup instead of two), and the key of a zone of one parameter whose
values are known at load through ZK_<zone> (value -> key, not joined at each read); the
module lists both (RECORD_FIELDS, ZONE_KEYS) and the loader fills them."""
from __future__ import annotations

from compile_passes import REGIONS, assert_same_games, both_ways, function, says

RULES = """
type region:
    size: int
    var owner: side? = none
zone tray[s: side] of region
zone pair[r: region, s: side] of region
var active: side = red
on setup:
    let s = choose s from [red, blue] by red
    move north to tray[s]
    move south to pair[east, s]
    log "x", north.size, north.owner, count(tray[s]), count(pair[east, s])
    end game
"""


def test_static_fields_and_zone_keys_are_read_through_tables(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    setup = function(fast.code, "t0_on_setup")
    assert "RF_size['north']" in setup and "GF['north']['owner']" in setup  # var: in play
    assert "ZK_tray[L['s']]" in setup
    assert "'pair|east|' + (L['s'])" in setup  # two indexes: joined
    assert fast.ns["RECORD_FIELDS"] == ["size"] and fast.ns["ZONE_KEYS"] == ["tray"]
    assert fast.ns["RF_size"] == {"north": 2, "south": 4, "east": 1}
    assert fast.ns["ZK_tray"] == {"red": "tray|red", "blue": "tray|blue"}
    assert "RF_" not in plain.code and "ZK_" not in plain.code
    assert plain.ns["RECORD_FIELDS"] == [] and plain.ns["ZONE_KEYS"] == []


def test_tables_read_what_the_records_and_keys_hold(write_pack):
    fast, plain = both_ways(write_pack(RULES, REGIONS))
    game = fast.new_game(0)
    game.apply("blue")
    assert says(game) == [["x", 2, None, 1, 1]]
    assert game.state["z"]["tray|blue"] == ["north"]
    assert_same_games(fast, plain)
