"""Whole Hannibal games between random bots (issues 10 and 11, "Done when"): every game runs
through the nine turns' strategy phases (or ends early by a rule), with land and naval movement
and battles; no fault;
CUs are conserved except through named losses; every leader is on the map, in a holding box,
displaced or out of the game. `engine simulate hannibal --games 1000 --invariants` runs the same
over 1,000 games (figures in the issue's closing note); the suite plays a sample."""
from __future__ import annotations

import random
from collections import Counter

import pytest
from hannibal_play import pack

from engine.core.game import Game

GAMES = 12

# The log lines of the rules that eliminate CUs: a CU leaves the game only right after one of
# them (seed 002 §8.2 overrun, §8.3.2 pass attrition, §8.8.3 a fleet sunk, card #60 a storm,
# §11.9 battle losses, §11.10 the retreat table, §12.1.2 losses in retreat, §16.4.1 and cards
# #25-#26 a walled city changing hands with enemy CUs inside)
NAMED_LOSSES = ("overruns the lone enemy CU", "Attrition roll", "Rome's naval roll",
                "Storm at sea", "The fleet is sunk", "in the battle", "Retreat table for",
                "Retreat", "Winter attrition", "The 'e' result costs", "inside the walls of")


def play(seed: int) -> Game:
    g = Game.new(pack(), seed=seed, undo=False)
    rnd = random.Random(seed)
    while not g.over:
        if len(g.actions) % 25 == 0:
            assert g.check_invariants() == [], f"seed {seed}, decision {len(g.actions)}"
        g.apply(g.random_action(rnd))
    assert g.check_invariants() == [], f"seed {seed}, at the end"
    return g


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return [play(seed) for seed in range(GAMES)]


def says(g: Game) -> list[str]:
    return [e["m"] for e in g.log if e["t"] == "say"]


def test_every_game_ends_with_a_result_after_nine_turns_or_by_a_rule(games):
    """seed 002 §5 (nine turns), §8.9 (Hannibal displaced: Rome wins), §18.2 (a side that
    cannot remove its PCs sues for peace), §18.3 (the last count), §19 (sudden victories, suing
    for peace only as §18.2 forces it, RULINGS.md H-vc-4): every result says why, as a sentence."""
    for g in games:
        assert g.result is not None and g.result.winner in ("rome", "carthage")
        assert g.result.reason not in ("rule", "no rule left to run")
        turns = [e["a"][0] for e in g.log if e["t"] == "say" and e["m"] == "Turn {0}"]
        last = g.result.reason.startswith(("more political points", "no more political points"))
        assert turns == list(range(1, len(turns) + 1))
        assert not last or turns[-1] == 9  # the last count only after the ninth turn


def test_games_move_by_land_and_by_sea(games):
    """seed 002 §8 (land movement), §8.8 (naval movement): the random games use both."""
    said = Counter(m for g in games for m in says(g))
    assert said["{0} marches to {1}"] > len(games) * 5
    assert said["The fleet sails from {0} for {1}"] > 0


def test_games_fight_battles(games):
    """seed 002 §11 (an army entering enemy CUs fights): the random games fight battles, and
    every battle dealt its cards and ended in a result or a withdrawal. Random bots seldom seek a
    battle: when the sample fights none, further seeds are played until one does."""
    more = iter(range(GAMES, 4 * GAMES))
    while not any(m.startswith("Battle in") for g in games for m in says(g)):
        games = games + [play(next(more))]
    battles = sum(1 for g in games for m in says(g) if m.startswith("Battle in"))
    dealt = sum(1 for g in games for m in says(g) if m.startswith("Battle cards:"))
    assert battles > 0 and dealt == battles


def test_cus_leave_the_game_only_through_named_losses(games):
    """Every CU made is still on the board or was eliminated right after a rule said why."""
    for g in games:
        made = g.state["serial"].get("cu", 0)
        alive = len(g.state["made"].get("cu", []))
        destroyed = 0
        reason = None
        for e in g.log:
            if e["t"] == "say":
                reason = e["m"]
            elif e["t"] == "destroy" and str(e.get("e", "")).startswith("cu#"):
                destroyed += 1
                assert reason and any(n in reason for n in NAMED_LOSSES), (g.seed, reason)
        assert made == alive + destroyed
        # in a space (outside or inside the walls of a city, §16.2), or with a leader whose
        # move the end of the game cut short (an army entering Hannibal's space alone
        # displaces him: Rome wins at once, §8.9)
        where = {g.state["loc"].get(u, "") for u in g.state["made"].get("cu", [])}
        assert all(w.startswith(("troops|", "garrison|", "column|")) for w in where), where


def test_every_leader_is_somewhere_the_rules_name(games):
    """seed 002 §4 (set aside until drawn), §8.5 (on the map or in a holding box), §8.9
    (displaced; Scipio Africanus out of the game)."""
    for g in games:
        for _leader, f in g.state["f"].items():
            if "chief" not in f:
                continue
            assert f["where"] in ("map", "aside", "displaced", "out")
            if f["where"] == "map":
                assert f["at"] is not None
                if f["chief"] is not None:
                    boss = g.state["f"][f["chief"]]
                    assert boss["at"] == f["at"] and boss["chief"] is None
            else:
                assert f["at"] is None and f["chief"] is None
