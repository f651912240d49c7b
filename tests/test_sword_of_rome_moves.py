"""The Sword of Rome, 5-player scenario: card play, leader activation by initiative, land and
naval moves and the battles they start, played (content/sword_of_rome/cards.rules,
move.rules; rulings in content/sword_of_rome/RULINGS.md SR-4, SR-8).

Sources: research/sword_of_rome.md ("research §n"; R2 is the English rulebook v2 it cites) and
seed 001 §19 (the Garrison Box). Positions are set up by editing the state
(tests/sor_play.py); the rules run in the pack. Card values: a plain card's value cycles with
its number (deck_cards.yaml), e.g. roman_13 is 2, roman_14 is 3, roman_15 is 1."""
from __future__ import annotations

import pytest
from sor_play import (
    add_cus,
    answer,
    at,
    board,
    column,
    cus,
    give,
    options,
    play_card,
    prompt,
    said,
    set_leader,
    set_pc,
    var,
)


def roman_army(g, n: int = 4) -> None:
    set_leader(g, "camillus", "roma")
    add_cus(g, "romans", "roma", n)


def test_a_card_activates_only_leaders_of_that_initiative_or_less():
    """Research §7 (R2 §8.1: a leader is activated by a card whose value is at least his
    initiative): Camillus (initiative 2, reconstructed) by a 2- or 3-value card, not a 1; Hanno
    (initiative 1, seed 001 §19 example) by any card."""
    g = board()
    roman_army(g)
    set_leader(g, "hanno", "carthago")
    assert g.value("activatable", "roman", 1) == []
    assert g.value("activatable", "roman", 2) == ["camillus"]
    assert g.value("activatable", "carthaginian", 1) == ["hanno"]
    give(g, "roman", "roman_15", "roman_13")
    answer(g, "roman", "roman_15")
    # a 1-value card: no leader to activate, no support to place, no CU to raise (3 only)
    assert said(g, "{s} discards {c}: nothing it could do") == [["roman", "roman_15"]]


def test_a_land_move_pays_1_mp_a_connection_and_2_across_rough_ground():
    """Research §7 (R2 §9.1: 4 MP; §9.2: up to 10 CUs of his space go with the leader, seed 001
    §19 example: some stay), §10 (R2 §9: step by step); a rough connection costs 2 MP
    (reconstructed, SR-8): Roma to Bovianum is rough."""
    g = board()
    roman_army(g)
    give(g, "roman", "roman_13", "roman_14")
    answer(g, "roman")
    play_card(g, "roman", "roman_13", "activate_leader")
    assert options(g) == [0, 1, 2, 3, 4]
    answer(g, 3, "land_step")
    assert options(g) == ["antium", "bovianum"]
    answer(g, "bovianum")
    assert at(g, "camillus") == "bovianum" and column(g, "camillus") == 3
    assert cus(g, "roma", "romans") == 1
    assert "2 MP left" in prompt(g)
    answer(g, "end_move")
    assert cus(g, "bovianum", "romans") == 3 and column(g, "camillus") == 0
    assert said(g, "{l} marches to {y}") == [["camillus", "bovianum"]]


def test_gallic_leaders_move_2_more_than_the_card():
    """Research §7 (R2 §9.2: Gallic leaders get 3/4/5 MP on a 1/2/3 card)."""
    g = board()
    assert [g.value("mp_of", "gallic_chieftain", v) for v in (1, 2, 3)] == [3, 4, 5]
    assert g.value("mp_of", "camillus", 1) == 4


def test_entering_enemy_cus_is_a_battle_and_ends_the_move():
    """Research §9 (R2 §9.3, §12: a force entering a space with enemy CUs fights there; only
    an automatic victory lets it move on, R2 §12.2.1). The battle event is emitted with the
    attacker; its resolution is the module's (battle.rules)."""
    g = board()
    roman_army(g)
    add_cus(g, "volsci", "antium", 2)
    give(g, "roman", "roman_13", "roman_14")
    answer(g, "roman")
    play_card(g, "roman", "roman_13", "activate_leader")
    answer(g, 4, "land_step", "antium")
    assert said(g, "{l} attacks in {y}") == [["camillus", "antium"]]
    assert at(g, "camillus") == "antium"
    # the move is over: the next player is asked
    assert g.decision.side == "carthaginian"


def test_a_leader_alone_may_not_enter_enemy_cus():
    """Reconstructed (SR-8): a leader without CUs may not enter a space with enemy CUs."""
    g = board()
    roman_army(g, 0)
    add_cus(g, "volsci", "antium", 2)
    give(g, "roman", "roman_13", "roman_14")
    answer(g, "roman")
    play_card(g, "roman", "roman_13", "activate_leader")
    answer(g, "land_step")  # 0 CUs: the count is the only answer
    assert options(g) == ["bovianum"]


@pytest.mark.parametrize("card, carried", [
    ("carthaginian_03", 3), ("carthaginian_01", 6), ("carthaginian_02", 10)])
def test_carthage_sails_3_6_or_10_cus_by_the_card_value(card, carried):
    """Research §10 (R2§9.6.3, 5 players: a 1/2/3-value card carries 3/6/10 CUs), §10 (R2
    §9.6: port to port for 3 MP); the CUs beyond the capacity stay in port. Hanno (initiative
    1) goes on the 1-value card, Bomilcar on the others."""
    g = board()
    leader = "hanno" if carried == 3 else "bomilcar"
    set_leader(g, leader, "carthago")
    add_cus(g, "carthaginians", "carthago", 10)
    give(g, "carthaginian", card, "carthaginian_34")
    answer(g, "carthaginian")
    play_card(g, "carthaginian", card, "activate_leader")
    answer(g, 10, "naval_move", "lilybaeum")
    assert at(g, leader) == "lilybaeum" and column(g, leader) == carried
    assert cus(g, "carthago", "carthaginians") == 10 - carried
    assert "1 MP left" in prompt(g)
    assert "naval_move" not in options(g)  # one naval move per activation (SR-8)


def test_only_carthage_sails_to_the_garrison_box():
    """Seed 001 §19 (moving into or out of the Garrison Box is naval movement; only Carthage
    may put CUs and leaders there); the §19 example: Hanno, on a 1-value card, takes 3 of the 5
    CUs from the box to Carthago with 1 MP left."""
    g = board()
    set_leader(g, "hanno", "garrison_box_space")
    add_cus(g, "carthaginians", "garrison_box_space", 5)
    set_leader(g, "dionysius", "carthago")
    add_cus(g, "greeks", "carthago", 3)
    set_pc(g, "carthago", "greeks")
    assert "garrison_box_space" not in g.value("naval_targets", "dionysius")
    give(g, "carthaginian", "carthaginian_03", "carthaginian_34")
    answer(g, "carthaginian")
    play_card(g, "carthaginian", "carthaginian_03", "activate_leader")
    answer(g, 5, "naval_move")
    assert "carthago" in options(g)  # the box's one lane leads there (and on, SR-8)
    g.load_dice([6, 6, 6, 1, 1, 1])  # the battle (battle.rules): Hanno wins and stays
    answer(g, "carthago")
    # Greek CUs in Carthago: the landing is a battle, and the move ends there
    assert at(g, "hanno") == "carthago"
    assert cus(g, "garrison_box_space", "carthaginians") == 2
    assert said(g, "{l} attacks in {y}") == [["hanno", "carthago"]]


@pytest.mark.parametrize("start, to, carried", [
    ("messana", "locri", 3), ("syracusae", "kroton", 6), ("lilybaeum", "syracusae", 10)])
def test_greek_capacities_on_a_3_value_card(start, to, carried):
    """Research §10 (R2 §9.6: Greeks move 3 CUs on a 3-value card, 6 to or from Syracusae),
    §9 (R2 §12.4.3, 5 players: 10 to or from Syracusae or Lilybaeum while they hold
    Lilybaeum)."""
    g = board()
    set_leader(g, "dionysius", start)
    add_cus(g, "greeks", start, 10)
    if start == "lilybaeum":
        set_pc(g, "lilybaeum", "greeks")
    give(g, "greek", "greek_02", "greek_03")
    answer(g, "greek")
    play_card(g, "greek", "greek_02", "activate_leader")
    answer(g, 10, "naval_move", to)
    assert at(g, "dionysius") == to and column(g, "dionysius") == carried


def test_no_greek_naval_move_below_a_3_value_card_and_none_for_rome():
    """Research §10 (R2 §9.6: the Greeks sail on a 3-value card; Rome needs Duoviri Navales,
    which this scenario does not hold)."""
    g = board()
    assert g.value("naval_capacity", "greeks", 2, "syracusae", "kroton") == 0
    assert g.value("naval_capacity", "romans", 3, "antium", "cumae") == 0
    assert var(g, "unrest_now") == 0
