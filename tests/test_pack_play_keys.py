"""pack.yaml `turn_event:`, `heuristic:` and `search_heuristic:` (docs/language.md, "Turns
and the bots' heuristic"): a pack names the event simulate counts as turns, the value the
greedy bot maximises and the one the search bot scores with; the engine guesses none of
them from names."""
from __future__ import annotations

import random

import pytest
from conftest import write_pack_files

from engine.core.errors import PackError
from engine.core.loader import load_pack
from engine.frontends.simulate import count_turns, simulate

RULES = """
event turn(s: side)
event round(n: int)
value heuristic(s: side): int = 1 if s == red else -1
value deep(s: side): int = 5 if s == red else -5
value two(s: side, n: int): int = n
value flag(s: side): bool = true
on setup:
    emit turn(red)
    emit round(1)
    emit round(2)
    let _a = choose a from [1, 2] by red
    win red
"""


def pack_with(tmp_path, extra: str, name: str = "keys"):
    root = write_pack_files(tmp_path / name, RULES, pack_id=name)
    meta = root / "pack.yaml"
    meta.write_text(meta.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return root


def test_the_declared_turn_event_is_counted(tmp_path):
    """simulate counts the event pack.yaml names, whatever it is called."""
    for event, turns in (("turn", 1), ("round", 2)):
        pack = load_pack(pack_with(tmp_path, f"turn_event: {event}\n", f"p_{event}"))
        assert pack.turn_event == event
        game = pack.new_game(0)
        game.apply(1)
        assert count_turns(pack, game.log, len(game.actions)) == turns


def test_without_a_turn_event_decisions_are_counted(tmp_path):
    """No `turn_event:`: an event called 'turn' is not counted by its name."""
    pack = load_pack(pack_with(tmp_path, ""))
    assert pack.turn_event is None and pack.heuristic is None
    game = pack.new_game(0)
    game.apply(2)
    assert count_turns(pack, game.log, len(game.actions)) == 1


def test_the_declared_heuristic_is_what_game_heuristic_reads(tmp_path):
    pack = load_pack(pack_with(tmp_path, "heuristic: heuristic\n"))
    assert pack.heuristic == "heuristic"
    game = pack.new_game(0)
    assert game.heuristic("red") == 1 and game.heuristic("blue") == -1
    # an undeclared `value heuristic` is only a value: the bot does not read it
    plain = load_pack(pack_with(tmp_path, "", "plain"))
    assert plain.new_game(0).heuristic("red") is None


def test_the_search_heuristic_is_its_own_else_the_heuristic(tmp_path):
    both = load_pack(pack_with(tmp_path, "heuristic: heuristic\nsearch_heuristic: deep\n"))
    game = both.new_game(0)
    assert (both.heuristic, both.search_heuristic) == ("heuristic", "deep")
    assert game.heuristic("red") == 1 and game.search_heuristic("red") == 5
    assert game.search_heuristic("blue") == -5
    alone = load_pack(pack_with(tmp_path, "heuristic: heuristic\n", "alone"))
    assert alone.search_heuristic == "heuristic" and alone.new_game(0).search_heuristic("red") == 1
    plain = load_pack(pack_with(tmp_path, "", "plain"))
    assert plain.search_heuristic is None and plain.new_game(0).search_heuristic("red") is None


def test_shipped_packs_declare_them():
    """Ante Portas counts rounds (seed 000, "Egy kör menete") and Hannibal game turns (seed
    002 §4); both name their bots' heuristics, the search bot's its own (search.rules)."""
    ap, hannibal = load_pack("ante_portas"), load_pack("hannibal")
    assert (ap.turn_event, ap.heuristic, ap.search_heuristic) == (
        "round", "heuristic", "search_value")
    assert (hannibal.turn_event, hannibal.heuristic, hannibal.search_heuristic) == (
        "game_turn", "heuristic", "search_value")
    report = simulate(ap, 2, seed=3, bots="random")
    assert report["errors"] == [] and report["unfinished"] == 0
    g = ap.new_game(5)
    rnd = random.Random(5)
    while not g.over:
        g.apply(g.random_action(rnd))
    rounds = sum(1 for e in g.log if e["t"] == "event" and e["n"] == "round")
    assert rounds >= 1 and count_turns(ap, g.log, len(g.actions)) == rounds


@pytest.mark.parametrize("extra, line, col, message, suggestion", [
    ("turn_event: trun\n", 5, 13, "turn_event: the pack declares no event 'trun'",
     "did you mean 'turn'?"),
    ("heuristic: heuristc\n", 5, 12, "heuristic: the pack declares no value 'heuristc'",
     "did you mean 'heuristic'?"),
    ("heuristic: two\n", 5, 12, "heuristic: value 'two' must be declared "
     "'value two(s: side): int' (how well side s stands)", None),
    ("heuristic: flag\n", 5, 12, "heuristic: value 'flag' must be declared "
     "'value flag(s: side): int' (how well side s stands)", None),
    ("search_heuristic: depp\n", 5, 19, "search_heuristic: the pack declares no value "
     "'depp'", "did you mean 'deep'?"),
    ("search_heuristic: two\n", 5, 19, "search_heuristic: value 'two' must be declared "
     "'value two(s: side): int' (how well side s stands)", None),
    ("turn_event: [turn]\n", 5, 13, "'turn_event' names an event of the pack, not ['turn']",
     None),
    ("turn_evnet: turn\n", 5, 1, "unknown pack.yaml key 'turn_evnet'",
     "did you mean 'turn_event'?"),
])
def test_bad_keys_are_located(tmp_path, extra, line, col, message, suggestion):
    with pytest.raises(PackError) as err:
        load_pack(pack_with(tmp_path, extra))
    found = [(d.line, d.col, d.message, d.suggestion) for d in err.value.diagnostics]
    assert (line, col, message, suggestion) in found, found
    assert {d.code for d in err.value.diagnostics} <= {"E341", "E302"}
