"""Static values (engine.dsl.compile.static): a value whose formula reads only its
arguments and the pack's static data (fields that are not `var`, consts, tables, graphs, sides) is
worked out once per distinct arguments and kept with the loaded pack, never in the game
state; a value that reads the game (a var, a zone, a var field, a modifier, dice) or calls
one that does is worked out at every call."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_pack
from engine.core.game import Game

REPO = Path(__file__).resolve().parent.parent

RULES = """
type region:
    size: int
    var owner: side? = none
const big = 3
var score[s: side]: int = 0
zone pile[s: side] of region
value doubled(r: region): int = r.size * 2
value total(): int = sum(doubled(r) for r in region)
value bigger(r: region, n: int): bool = doubled(r) + n > big
value evens(r: region): list of int = [n in numbers(1, r.size) where n / 2 * 2 == n]
value sum_of(xs: list of int): int = sum(x for x in xs)
value deep(n: int): int = 0 if n <= 0 else deep(n - 1) + 1
value owned(s: side): int = count(r in region where r.owner == s)
value scored(s: side): int = score[s] + doubled(north)
value piled(s: side): int = count(pile[s])
value lucky(): int = roll(1, 6)
value bumped(r: region): int = r.size
value via_owned(s: side): int = owned(s) + 1
on setup:
    modify bumped(north) by 10
    log "start", scored(red), owned(red), bumped(north), total()
    let r = choose r from region by red
    r.owner = red
    score[red] = score[red] + 5
    log "after", scored(red), owned(red), doubled(r), total()
    let again = choose again from [1, 2] by blue
    log "end", scored(red), owned(red), again, evens(south), sum_of(evens(south))
    end game
"""
RECORDS = """
region:
  - {id: north, size: 2}
  - {id: south, size: 4}
"""


@pytest.fixture
def pack(inline_pack):
    return inline_pack(RULES, RECORDS)


def says(game: Game) -> list[list]:
    return [[e["m"], *e["a"]] for e in game.log if e["t"] == "say"]


def test_which_values_are_static(pack):
    assert pack.ns["STATIC_VALUES"] == {"doubled", "total", "bigger", "evens", "sum_of", "deep"}
    # a list argument is no cache key: sum_of is static but worked out at every call
    assert set(pack.ns["MEMOS"]) == {"doubled", "total", "bigger", "evens", "deep"}


def test_a_static_value_is_worked_out_once_per_arguments(pack):
    rt = pack.static_runtime()
    values = pack.ns["VALUES"]
    for memo in pack.ns["MEMOS"].values():
        memo.clear()
    hits = []  # a value taken from the cache charges the steps it cost (G.kept)
    kept = rt.kept
    rt.kept = lambda got: (hits.append(got), kept(got))[1]
    for _ in range(5):
        assert values["doubled"](rt, "north") == 4
        assert values["doubled"](rt, "south") == 8
    assert len(hits) == 8  # worked out once per argument
    assert {k: v[0] for k, v in pack.ns["MEMOS"]["doubled"].items()} == {"north": 4, "south": 8}
    assert values["total"](rt) == 12 and values["total"](rt) == 12
    # total worked out once, then cached; doubled, a formula of fields, is written into it
    # in place of its call (engine.dsl.compile.inline), so no cache is read for it there
    assert len(hits) == 8 + 1
    assert values["bigger"](rt, "north", 0) is True and values["bigger"](rt, "north", -2) is False
    assert set(pack.ns["MEMOS"]["bigger"]) == {("north", 0), ("north", -2)}
    assert values["deep"](rt, 5) == 5 and set(pack.ns["MEMOS"]["deep"]) == set(range(6))
    # a list argument: worked out at every call, never taken from a cache
    before = len(hits)
    assert values["sum_of"](rt, [1, 2]) == 3 and values["sum_of"](rt, [1, 2]) == 3
    assert len(hits) == before


def test_a_cached_value_charges_the_steps_it_cost(pack):
    """The game's step count (state "steps", compared when a save is replayed) is the same
    whether the pack's caches were cold or warm."""
    for memo in pack.ns["MEMOS"].values():
        memo.clear()
    rt = pack.static_runtime()
    rt.left = 10_000
    pack.ns["VALUES"]["evens"](rt, "south")  # walks numbers(1, 4): charged
    cold = 10_000 - rt.left
    rt.left = 10_000
    pack.ns["VALUES"]["evens"](rt, "south")
    assert 10_000 - rt.left == cold > 1
    first = pack.new_game(0)
    for memo in pack.ns["MEMOS"].values():
        memo.clear()
    second = pack.new_game(0)
    warm = pack.new_game(0)
    assert first.state["steps"] == second.state["steps"] == warm.state["steps"]


def test_values_reading_the_game_follow_it(pack):
    game = pack.new_game(0)
    game.apply(game.legal_actions()[0])  # red picks north (or the first region)
    assert not game.over
    game.apply(game.legal_actions()[0])
    assert game.over
    # scored reads a var, owned a var field, bumped is modified: each changes with the game
    assert says(game) == [["start", 4, 0, 12, 12], ["after", 9, 1, 4, 12],
                          ["end", 9, 1, 1, [2, 4], 6]]
    # nothing of the caches reached the game state
    assert not any(k.startswith("M_") for k in game.state)


def test_save_and_load_round_trip(pack):
    game = pack.new_game(0)
    game.apply(game.legal_actions()[0])
    text = game.save()
    for memo in pack.ns["MEMOS"].values():  # a fresh process: empty caches
        memo.clear()
    loaded = Game.load(pack, text)
    assert loaded.save() == text
    loaded.apply(loaded.legal_actions()[0])
    game.apply(game.legal_actions()[0])
    assert says(loaded) == says(game)


def test_the_shipped_packs_static_values():
    hannibal = load_pack(REPO / "content" / "hannibal")
    static = hannibal.ns["STATIC_VALUES"]
    assert {"province_spaces", "spaces_in", "scoring_province_list", "capital_spaces",
            "region_of"} <= static
    # they read var fields (pc, the leaders' places): never static
    assert not static & {"controls_province", "political_points", "leader_at", "heuristic"}
    assert len(hannibal.call_value("province_spaces", "latium")) == \
        hannibal.call_value("spaces_in", "latium")
