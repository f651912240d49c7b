"""The Sword of Rome, 5-player module: the clarified cards of seed 001 §21 played as the event of
a card play (content/sword_of_rome/events_play.rules; RULINGS.md SM-11 ...): §21.2 #12 Appian
Way, §21.5 #15/#16 Blockade. Positions are set up and played with tests/sor_play.py."""
from __future__ import annotations

from sor_play import (
    add_cus,
    answer,
    at,
    board,
    give,
    loyalty,
    pc,
    said,
    set_leader,
    set_pc,
    var,
)


def test_21_2_12_appian_way_roma_to_capua_for_one_mp():
    """seed 001 §21.2 #12: moving from Roma to Capua, or to any space between, costs only 1 MP
    (the Capua reading, RULINGS.md SM-11); neutral control and cities do not stop it (Antium is
    Volscian); Camillus (4 MP) reaches Capua with 3 MP left, where a plain move leaves 2."""
    g = board()
    set_leader(g, "camillus", "roma")
    add_cus(g, "romans", "roma", 2)
    give(g, "roman", "appian_way", "roman_01")
    answer(g, "roman", "appian_way", "play_event", 2, "land_step", "antium")
    assert g.decision.args[-1] == 3  # "... 3 MP left: what next?": the road's 1 MP is paid
    answer(g, "land_step", "capua")
    assert g.decision.args[-1] == 3 and at(g, "camillus") == "capua"
    assert said(g, "{s} plays {c} as an event") == [["roman", "appian_way"]]


def test_21_2_12_appian_way_a_step_off_the_road_pays_as_usual():
    """seed 001 §21.2 #12 (the cheap move is along the road from Roma; otherwise ordinary
    movement): Capua to Neapolis, off the road, costs its 1 MP."""
    g = board()
    set_leader(g, "camillus", "roma")
    add_cus(g, "romans", "roma", 2)
    give(g, "roman", "appian_way", "roman_01")
    answer(g, "roman", "appian_way", "play_event", 2, "land_step", "antium", "land_step",
           "capua", "land_step", "neapolis")
    assert g.decision.args[-1] == 2 and at(g, "camillus") == "neapolis"


def test_21_2_12_appian_way_enemy_cus_on_the_road_stop_it():
    """seed 001 §21.2 #12: enemy CUs stop the move, since the mover must fight them: Samnite CUs
    in Antium bring Camillus to battle there, and the move ends."""
    g = board()
    set_leader(g, "camillus", "roma")
    add_cus(g, "romans", "roma", 2)
    add_cus(g, "samnites", "antium", 2)
    give(g, "roman", "appian_way", "roman_01")
    g.load_dice([1, 1, 2, 6, 6, 6])
    answer(g, "roman", "appian_way", "play_event", 2, "land_step", "antium")
    assert said(g, "{l} attacks in {y}") == [["camillus", "antium"]]
    assert at(g, "camillus") != "capua"


def blockade_at_akragas(pc: str | None = None, loyalty: int = 1):
    """Hanno and 3 CUs in Akragas, an independent walled city (or held by `pc` at `loyalty`);
    Carthage holds Blockade #15 and plays first."""
    g = board()
    set_leader(g, "hanno", "akragas")
    add_cus(g, "carthaginians", "akragas", 3)
    set_pc(g, "akragas", pc, loyalty)
    give(g, "carthaginian", "blockade_15", "carthaginian_01", "carthaginian_02")
    answer(g, "carthaginian")
    return g


def test_21_5_blockade_a_free_siege_activation_not_the_card_play():
    """seed 001 §21.5 (Blockade: a free activation to besiege a city, not the Carthaginian
    player's one card play): Hanno takes the independent Akragas (loyalty 1: one siege point,
    reconstructed, RULINGS.md SM-12), and Carthage still plays its card."""
    g = blockade_at_akragas()
    assert "play_free_event" in g.decision.options
    answer(g, "play_free_event")
    assert said(g, "{s} plays {c} as a free event") == [["carthaginian", "blockade_15"]]
    assert said(g, "{l} takes {x} by blockade") == [["hanno", "akragas"]]
    assert pc(g, "akragas") == "carthaginians" and loyalty(g, "akragas") == 1
    assert "which card do you play?" in g.decision.prompt  # its one card play is still to come
    assert var(g, "activated", "carthaginians") is True


def test_21_5_blockade_lowers_an_enemy_citys_loyalty():
    """seed 001 §21.5 (Blockade besieges); research §11 (a city converts when the siege level
    reaches its loyalty): a Greek Akragas of loyalty 2 falls to 1 (reconstructed: one siege
    point, RULINGS.md SM-12)."""
    g = blockade_at_akragas("greeks", 2)
    answer(g, "play_free_event")
    assert said(g, "{l} blockades {x}: its loyalty falls to {x.loyalty_now}") == [
        ["hanno", "akragas", 1]]
    assert pc(g, "akragas") == "greeks"


def test_21_5_and_21_4_29_mistrust_cancels_the_free_blockade():
    """seed 001 §21.5 (the free activation is still an activation, so Carthaginian Mistrust may
    cancel it), §21.4 #29 (the Carthaginian activation marker is still placed)."""
    g = blockade_at_akragas()
    give(g, "greek", "carthaginian_mistrust", "greek_01")
    answer(g, "play_free_event", "carthaginian_mistrust")
    assert said(g, "The activation of {l} is cancelled") == [["hanno"]]
    assert pc(g, "akragas") is None and var(g, "activated", "carthaginians") is True
    assert "blockade_15" in g.state["z"]["discard|carthaginian"]
