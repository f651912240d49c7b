"""The Sword of Rome, 5-player scenario: support and control of spaces, a CU raised, Neutral
Power Activates with its round-track markers, played (content/sword_of_rome/support.rules,
cards.rules; rulings in content/sword_of_rome/RULINGS.md SR-4 ... SR-6).

Sources: research/sword_of_rome.md ("research §n"; R2 is the English rulebook v2 it cites) and
seed 001 §20 (unrest raised by a Neutral Power Activates event). Positions are set up by
editing the state (tests/sor_play.py); the rules run in the pack."""
from __future__ import annotations

from sor_play import (
    add_cus,
    answer,
    board,
    cus,
    give,
    loyalty,
    options,
    pc,
    play_card,
    prompt,
    set_leader,
    set_pc,
    set_var,
    var,
)


def greek_support(g, card: str = "greek_02") -> None:
    """The Greeks, first player, play a card for support (greek_02: value 3)."""
    give(g, "greek", card, "greek_01")
    answer(g, "greek")
    play_card(g, "greek", card, "place_support")


def test_a_point_replaces_an_enemy_pc_where_one_has_cus():
    """Research §8 (R2 §7.3.1: replace an enemy PC marker where you have CUs); Himera is an
    open Carthaginian space."""
    g = board()
    add_cus(g, "greeks", "himera", 1)
    assert g.value("place_pc_ok", "greeks", "himera")
    assert not g.value("place_pc_ok", "greeks", "selinus")  # no Greek CU there
    greek_support(g)
    answer(g, "himera")
    assert pc(g, "himera") == "greeks"


def test_a_point_raises_the_loyalty_of_ones_city_to_3_gauls_1():
    """Research §8 (R2 §7.3.1: raise the loyalty of an unbesieged city you control, at most 3;
    Gallic cities at most 1)."""
    g = board()
    assert g.value("raise_loyalty_ok", "greeks", "messana")  # loyalty 2
    assert not g.value("raise_loyalty_ok", "greeks", "syracusae")  # already 3
    add_cus(g, "carthaginians", "messana", 1)
    assert not g.value("raise_loyalty_ok", "greeks", "messana")  # besieged
    set_pc(g, "capua", "gauls", 1)
    assert not g.value("raise_loyalty_ok", "gauls", "capua")


def test_enemy_loyalty_falls_only_above_its_garrison_and_at_0_the_city_is_free():
    """Research §8 (R2 §7.3.3: another power's loyalty is lowered only above the number of its
    CUs present; R2 §7.3.2: a city at 0 becomes independent, with loyalty 1)."""
    g = board()
    add_cus(g, "greeks", "panormus", 1)  # Carthaginian, loyalty 2
    add_cus(g, "carthaginians", "panormus", 2)
    assert not g.value("lower_loyalty_ok", "greeks", "panormus")
    g = board()
    add_cus(g, "greeks", "panormus", 1)
    greek_support(g)
    answer(g, "panormus")
    assert loyalty(g, "panormus") == 1
    answer(g, "panormus")
    assert pc(g, "panormus") is None and loyalty(g, "panormus") == 1


def test_an_independent_city_is_taken_by_a_leader_and_3_cus():
    """Reconstructed (SR-5) for the siege, which the scenario does not play (R2 §13, research
    §11: a commander and 3+ CUs; a city falls when the siege reaches its loyalty, 1 for an
    independent city)."""
    g = board()
    add_cus(g, "greeks", "akragas", 3)
    assert not g.value("take_city_ok", "greeks", "akragas")  # no leader
    set_leader(g, "dionysius", "akragas")
    assert g.value("take_city_ok", "greeks", "akragas")
    greek_support(g)
    answer(g, "akragas")
    assert pc(g, "akragas") == "greeks" and loyalty(g, "akragas") == 1


def test_gauls_taking_a_city_loot_it():
    """Research §11 (R2 §5.8: looting a city places 5 plunder markers)."""
    g = board()
    set_leader(g, "gallic_chieftain", "capua")
    add_cus(g, "gauls", "capua", 3)
    give(g, "gallic", "gallic_02", "gallic_01")
    answer(g, "gallic")
    play_card(g, "gallic", "gallic_02", "place_support")
    answer(g, "capua")
    assert pc(g, "capua") == "gauls" and var(g, "plunder") == 5


def test_pcs_are_removed_only_where_their_power_has_no_cus():
    """Research §8 (R2 §7.3.3: another power's PC marker is removed only where it has no CUs);
    from next to one's own space (reconstructed, SR-5): Kerkouane is Carthaginian, next to
    Carthago."""
    g = board()
    set_pc(g, "carthago", "greeks", 1)
    assert g.value("remove_pc_ok", "greeks", "kerkouane")
    add_cus(g, "carthaginians", "kerkouane", 1)
    assert not g.value("remove_pc_ok", "greeks", "kerkouane")


def test_a_3_value_card_raises_a_cu_in_a_space_one_holds():
    """Research §6 (R2 §7.1: a 3-value card places 1 CU); where: a space the power holds with
    no enemy CUs (reconstructed, SR-6)."""
    g = board()
    assert not g.value("use_ok", "roman", "roman_13", "raise_cu")  # a 2-value card
    assert g.value("use_ok", "roman", "roman_14", "raise_cu")
    give(g, "roman", "roman_14", "roman_13")
    answer(g, "roman")
    play_card(g, "roman", "roman_14", "raise_cu")
    assert cus(g, "roma", "romans") == 1  # Rome holds only Roma


def test_npa_raises_a_neutral_cu_once_a_round_and_the_marker_comes_off():
    """Research §4 (R2 §16.1.1: an NPA raises a CU, places support or activates a leader of a
    non-player power, each at most once a round: its activated marker on the round track,
    off at the next round); played besides the card play (R2 §5.4)."""
    g = board()
    give(g, "roman", "roman_37", "roman_38", "roman_13")
    answer(g, "roman", "play_npa", "roman_37", "neutral_cu")
    assert cus(g, "antium", "volsci") == 1 and var(g, "activated", "volsci")
    assert g.value("neutral_powers", "roman") == []
    assert g.value("npa_uses", "roman", "roman") == ["raise_unrest"]
    answer(g, "play_card")
    assert "which card do you play?" in prompt(g)


def test_npa_raises_the_unrest_once_a_round_but_not_from_the_carthaginian_deck():
    """Seed 001 §20 (an NPA from any deck but the Carthaginian raises the unrest by 1; the
    unrest-increased marker allows one raise a round), §20.1 (never above 10 - the CUs in the
    Garrison Box)."""
    g = board()
    give(g, "roman", "roman_37", "roman_38", "roman_13")
    answer(g, "roman", "play_npa", "roman_37", "raise_unrest")
    assert var(g, "unrest_now") == 1 and var(g, "unrest_raised")
    assert "raise_unrest" not in g.value("npa_uses", "roman", "roman")
    assert "raise_unrest" not in g.value("npa_uses", "carthaginian", "carthaginian")
    set_var(g, "unrest_raised", False)
    add_cus(g, "carthaginians", "garrison_box_space", 9)
    assert "raise_unrest" not in g.value("npa_uses", "roman", "roman")  # at the maximum, 1
    assert "play_npa" in options(g)
