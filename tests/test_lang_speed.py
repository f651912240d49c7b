"""What the compiler does for speed changes no game (engine.dsl.compile: `lowered` walks, values
kept while the state is unchanged (Runtime.memo), the index of records by a var field
(Runtime.having), value calls read once per walk, inlined values, steps charged only where a
value may recurse). Each pack here is also compiled plainly (`optimize=False`: one Python
expression per formula, every value call a call that costs a step) and both play the same
random games: the same log, result, decisions and revealed cards; only the step count may be
lower. What a decision looks up is test_compile_visibility's; `== none`, test_compile_compare's.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from compile_passes import REGIONS, assert_same_games, plain_pack, says

from engine.core.errors import EngineFault, PackError
from engine.core.limits import Limits
from engine.core.loader import load_pack

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name,games", [
    ("tests/packs/testgame", 60), ("tests/packs/roadgame", 30), ("tests/packs/stackgame", 30),
    ("tests/packs/windowgame", 30), ("bench/packs/tictactoe", 30), ("bench/packs/kuhn", 30),
    ("bench/packs/ap_battle", 30),
    ("content/ante_portas", 30), ("content/hannibal", 4),
])
def test_optimized_and_plain_code_play_the_same_games(name, games):
    assert_same_games(load_pack(REPO / name), plain_pack(REPO / name), seeds=games)


RULES = """
type region:
    size: int
    var owner: side? = none
var score[s: side]: int = 0
zone pile[s: side] of region
value owned(s: side): int = count(r in region where r.owner == s)
value owners(): list of side = [r.owner for r in region]
value big(s: side): list of region = [r in region where r.owner == s and r.size > 1]
value deep(n: int): int = 0 if n <= 0 else deep(n - 1) + 1
on setup:
    log "before", owned(red), owners(), big(red)
    north.owner = red
    log "after one", owned(red), owners(), big(red)
    south.owner = red
    log "after two", owned(red), owners(), big(red)
    let again = choose again from [1, 2] by blue
    log "end", owned(red), owned(blue), deep(3)
    end game
"""
RECORDS = REGIONS  # north 2, south 4, east 1


def test_kept_values_and_the_index_follow_every_change(inline_pack):
    pack = inline_pack(RULES, RECORDS)
    assert {"owners"} <= set(pack.ns["VALUES"]) and "G.having('region', 'owner'" in pack.code
    game = pack.new_game(0)
    game.apply(1)
    assert says(game) == [["before", 0, [None, None, None], []],
                          ["after one", 1, ["red", None, None], ["north"]],
                          ["after two", 2, ["red", "red", None], ["north", "south"]],
                          ["end", 2, 0, 3]]


def test_values_read_between_runs_see_the_state_as_it_is(inline_pack):
    """A host or test may change the state between decisions: nothing kept from a run is
    read outside it."""
    pack = inline_pack(RULES, RECORDS)
    game = pack.new_game(0)
    assert game.rt.memo is None and game.rt.field_index is None
    owned = pack.ns["VALUES"]["owned"]
    assert owned(game.rt, "red") == 2
    game.state["f"]["north"]["owner"] = "blue"
    assert owned(game.rt, "red") == 1 and owned(game.rt, "blue") == 1


def test_a_value_that_calls_itself_still_costs_a_step_a_call(inline_pack):
    pack = inline_pack("""
        var active: side = red
        value forever(n: int): int = forever(n + 1)
        on setup:
            log "x", forever(0)
    """)
    with pytest.raises(EngineFault, match="rule steps without a decision"):
        pack.new_game(1, limits=Limits(steps=300))  # before Python's own depth limit


def test_a_walk_reads_a_value_that_does_not_depend_on_it_once(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var limit: int = 2
        type region:
            size: int
        value cap(): int = limit + 0
        value small(): list of region = [r in region where r.size <= cap()]
        on setup:
            log "small", small()
            end game
    """, "region:\n  - {id: a, size: 1}\n  - {id: b, size: 3}\n  - {id: c, size: 2}\n")
    assert "_t" in pack.code and ":= v_cap(G)" in pack.code
    game = pack.new_game(0)
    assert says(game) == [["small", ["a", "c"]]]


SHORT_WALKS = """
var active: side = red
var mark[r: region]: int = 0
type region:
    near: list of region
value free(r: region): int = count(n in r.near where mark[n] == 0)
value spread(): int = sum(count(n in r.near where mark[n] == 0) for r in region)
on setup:
    let n = 0
    while true:
        n = n + free(a)
"""
SHORT_RECORDS = ("region:\n  - {id: a, near: [b, c]}\n  - {id: b, near: [a]}\n"
                 "  - {id: c, near: []}\n")


def test_a_short_walk_of_the_packs_own_data_is_not_charged(inline_pack):
    """A walk of a list field that is not var (no rule changes it), of at most 16 items
    and with no walk inside, costs no steps; the walk around it still does. It is not
    copied, and the var it reads is read once before the loop."""
    pack = inline_pack(SHORT_WALKS.replace("while true", "if false"), SHORT_RECORDS)
    rt = pack.new_game(0).rt
    assert "_t2 = PV['mark']\n    for l_n in RF_near[l_r]:\n" in pack.code
    rt.left = 100
    assert pack.ns["VALUES"]["free"](rt, "a") == 2 and rt.left == 100
    assert pack.ns["VALUES"]["spread"](rt) == 3 and rt.left == 100 - 4  # region: 3 + 1


def test_a_loop_around_an_uncharged_walk_still_ends_as_a_runaway(inline_pack):
    pack = inline_pack(SHORT_WALKS, SHORT_RECORDS)
    with pytest.raises(EngineFault, match=r"rules\.rules:10: .*rule steps without a decision"):
        pack.new_game(0, limits=Limits(steps=1000))


def test_a_long_walk_of_the_packs_own_data_is_charged(inline_pack):
    many = ", ".join(f"r{i}" for i in range(17))
    records = "region:\n  - {id: a, near: [" + many + "]}\n" + "".join(
        f"  - {{id: r{i}, near: []}}\n" for i in range(17))
    pack = inline_pack(SHORT_WALKS.replace("while true", "if false"), records)
    rt = pack.new_game(0).rt
    rt.left = 100
    assert pack.ns["VALUES"]["free"](rt, "a") == 17 and rt.left == 100 - 18


def test_options_of_a_choice_with_a_condition_are_a_loop(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var mark[r: region]: int = 0
        type region:
            size: int
        on setup:
            mark[b] = 1
            let r = choose r from region where mark[r] == 0 and r.size > 1 by blue
            log "took", r
    """, "region:\n  - {id: a, size: 1}\n  - {id: b, size: 2}\n  - {id: c, size: 3}\n")
    assert "[l_r for l_r" not in pack.code and "for l_r in G.all('region'):" in pack.code
    assert says(pack.new_game(0)) == [["took", "c"]]  # one option: taken without asking


def test_the_index_skips_no_read_that_ends_undo(inline_pack):
    """With undo on, a walk over a type some record of which the decider cannot see reads
    them all, as it always did: `big(red, 0)` reads no owner, then `big(red, 1)` reads
    every region's owner, east's too, hidden in blue's vault, which ends red's undo; an
    index would have skipped east (Runtime.having)."""
    pack = inline_pack("""
        type region:
            size: int
            var owner: side? = none
        zone vault[s: side] of region private
        var active: side = red
        value big(s: side, k: int): int = count(r in region where k == 1 and r.owner == s)
        on setup:
            move east to vault[blue]
            let a = ask red "first?"
            log "big", big(red, 0), big(red, 1)
            let b = ask red "second?"
            north.owner = red
            let c = ask red "third?"
            log "big", big(red, 0), big(red, 1)
            let d = ask red "fourth?"
    """, RECORDS)
    assert "G.having('region', 'owner'" in pack.code
    game = pack.new_game(0)
    game.apply(True)
    assert says(game) == [["big", 0, 0]] and not game.can_undo("red")
    game.apply(True)
    game.apply(True)
    assert says(game)[-1] == ["big", 0, 1] and not game.can_undo("red")
    game = pack.new_game(0)
    game.state["loc"].pop("east")  # (by hand, before any decision: no longer hidden)
    game.state["z"]["vault|blue"].clear()
    game.apply(True)
    assert game.can_undo("red")


TABLES = """
enum colour: red_c, blue_c
type region:
    size: int
    var owner: side? = none
type token created:
    worth: int
zone pile[r: region] of region
zone tray[s: side] of region
zone bin[c: colour] of region
zone heap[t: token] of region
zone pair[r: region, s: side] of region
var active: side = red
on setup:
    let t = create token with worth = 2
    let r: region? = north
    move north to pile[south]
    move south to tray[blue]
    move east to bin[colour.blue_c]
    move east to heap[t]
    move east to pair[north, red]
    move east to pile[r]
    log "x", north.size, t.worth, count(pile[south]), count(tray[blue]), count(heap[t]), count(
        pile[north])
    end game
"""


def test_static_fields_and_zone_keys_are_read_through_tables(inline_pack):
    """A field of the pack's records is read with one lookup in a table of that field
    (RF_<field>), and a zone of one parameter whose values are known at load (a side, an
    enum value, a record not made in play) through a table of its keys (ZK_<zone>), not by
    joining text at each read. A field of a record made in play and a zone indexed by such a
    record or by two values go the long way. Either way, none as the record or the index is
    a located fault that names it."""
    pack = inline_pack(TABLES, RECORDS)
    code = pack.code
    assert "RF_size['north']" in code and "R['north']['size']" not in code
    assert "GF[l_t]['worth']" in code
    for zone, index in (("pile", "'south'"), ("tray", "'blue'"), ("bin", "'blue_c'")):
        assert f"ZK_{zone}[{index}]" in code
    assert "'heap|' + " in code and "'pair|north|red'" in code and "ZK_heap" not in code
    assert "ZK_pile[l_r]" in code
    assert pack.ns["RECORD_FIELDS"] == ["size"] and pack.ns["ZONE_KEYS"] == ["bin", "pile", "tray"]
    assert pack.ns["RF_size"] == {"north": 2, "south": 4, "east": 1}
    game = pack.new_game(0)
    for zone in ("pile", "tray", "bin"):
        table = pack.ns[f"ZK_{zone}"]
        assert all(key in game.state["z"] and key == f"{zone}|{v}" for v, key in table.items())
    assert pack.ns["ZK_tray"].keys() == {"red", "blue"} and len(pack.ns["ZK_pile"]) == 3
    assert says(game) == [["x", 2, 2, 1, 1, 0, 1]]
    plain = plain_pack(pack.root)  # the plain reading: no tables
    assert "RF_" not in plain.code and "ZK_" not in plain.code
    assert says(plain.new_game(0)) == says(game)


@pytest.mark.parametrize("use", ["log \"x\", r.size", "move north to pile[r]",
                                 "log \"x\", count(pile[r])"])
def test_none_as_a_record_or_index_is_a_fault_that_says_so(inline_pack, use):
    pack = inline_pack(f"""
type region:
    size: int
zone pile[r: region] of region
var active: side = red
on setup:
    let r: region? = none
    {use}
""", RECORDS)
    with pytest.raises(EngineFault, match=r"rules.rules:7: none was used as a record or as an "
                                          r"index .*\(KeyError: None\)"):
        pack.new_game(0)


@pytest.mark.parametrize("use", ["best = min(20, distance(roads, a, b))",
                                 "best = distance(roads, a, b) + 1",
                                 "if distance(roads, a, b) > 2:\n        best = 1"])
def test_none_as_a_number_is_a_fault_that_says_so(inline_pack, use):
    """A value that may be none (no path between two towns) used as a number: the checker
    has no type for "may be none", so the fault says in the rules' words what happened,
    with Python's message after it."""
    pack = inline_pack(f"""
type town
type road:
    a: town
    b: town
graph roads of town via road
var best: int = 0
on setup:
    {use}
""", "town:\n  - {id: a}\n  - {id: b}\nroad:\n  - {id: aa, a: a, b: a}\n")
    with pytest.raises(EngineFault, match=r"rules.rules:8: none was used where a value is "
                                          r"needed: as a number, in a comparison or as a "
                                          r"list .*\(TypeError: .*NoneType"):
        pack.new_game(0)


def test_none_in_a_value_check_or_graph_filter_says_so_too(inline_pack):
    """Rules run outside a game (a value called on the pack, a `check`, a graph's filter)
    report the same words as a rule in play (engine.core.runtime.broke)."""
    pack = inline_pack("""
type region:
    size: int
    near: region?
var active: side = red
value size_of(r: region?): int = r.size
check "every region's neighbour is big": every(r.near.size > 0 for r in region)
on setup:
    end game
""", "region:\n  - {id: north, size: 2, near: south}\n  - {id: south, size: 1}\n")
    with pytest.raises(EngineFault, match=r"value size_of\(None\) failed: none was used as a "
                                          r"record or as an index"):
        pack.call_value("size_of", None)
    [(_message, failure, _path, _line)] = pack.run_checks()
    assert failure.startswith("none was used as a record or as an index")
    graph_rules = """
type town:
    size: int
type road:
    a: town
    b: town
    via: town?
graph roads of town via road where c => c.via.size > 0
var active: side = red
on setup:
    end game
"""
    with pytest.raises(PackError, match=r"the filter of graph 'roads' failed on road 'ab': "
                                        r"none was used as a record or as an index"):
        inline_pack(graph_rules, {
            "town.yaml": "town:\n  - {id: a, size: 1}\n  - {id: b, size: 2}\n",
            "road.yaml": "road:\n  - {id: ab, a: a, b: b}\n"})
