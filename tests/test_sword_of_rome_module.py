"""The Sword of Rome, 5-player module in play: seed 001 §19 (the Garrison Box), §20 (the unrest
raised by Neutral Power Activates), §20.1 (its maximum), §20.2 (its effects), §20.3 (attacking
it, the three worked examples played with loaded dice), Carthage's 5-player reinforcements
(research §3, R2 §5.10.1). Positions are set up and played with tests/sor_play.py."""
from __future__ import annotations

from sor_play import add_cus, answer, at, board, cus, give, options, said, set_leader, set_var, var

BOX = "garrison_box_space"


def carthage_first(g, *hand: str) -> None:
    """Rome names Carthage first player; Carthage holds these cards (two or more, so that the
    card is asked) and plays first."""
    give(g, "carthaginian", *hand)
    answer(g, "carthaginian")


def play_until(g, stop) -> None:
    """Play on, passing every optional question and taking the first option of the others,
    until `stop()` holds (the game must not end first)."""
    for _ in range(3000):
        assert not g.over
        if stop():
            return
        d = g.decision
        g.apply(None if d.optional else g.legal_actions()[0], side=d.side, decision=d.id)
    raise AssertionError("play_until: never stopped")


def bomilcar_attacks_from_the_box(unrest: int, dice: list[int]):
    """seed 001 §20.3 example 2's position: Bomilcar and 2 CUs in the Garrison Box, a card of
    value 3 activates him, both CUs attack."""
    g = board()
    add_cus(g, "carthaginians", BOX, 2)
    set_leader(g, "bomilcar", BOX)
    set_var(g, "unrest_now", unrest)
    carthage_first(g, "carthaginian_02", "carthaginian_01")
    g.load_dice(dice)
    answer(g, "carthaginian_02", "activate_leader", 2, "attack_unrest", 2)
    return g


def test_example_1_sacred_band_beats_unrest_4():
    """seed 001 §20.3 example 1: Hasdrubal and 2 CUs in the box, unrest 4, a card of value 2;
    Carthage +2 (TR 2 - 0), the rebels +3 (4 against 2); Sacred Band: 6,6,6,6 + 2 = 26 against
    4,4,5 + 3 = 16; Carthage inflicts 8 CUs, wins 4 support points and lowers the unrest to 0;
    the rebels' 3 CUs remove both Carthaginian CUs, the third ignored."""
    g = board()
    add_cus(g, "carthaginians", BOX, 2)
    set_leader(g, "hasdrubal", BOX)
    set_var(g, "unrest_now", 4)
    carthage_first(g, "carthaginian_01", "sacred_band")
    g.load_dice([6, 6, 6, 6, 4, 4, 5])
    answer(g, "carthaginian_01", "activate_leader", 2, "attack_unrest", 2, "sacred_band")
    assert said(g, "Carthage rolls {cd}, modifier {c_mod}: {c_total}; the rebels roll {rd}, "
                   "modifier {r_mod}: {r_total}") == [[[6, 6, 6, 6], 2, 26, [4, 4, 5], 3, 16]]
    assert said(g, "Carthage wins: {hits:# CU|# CUs} inflicted, {points:# support point|# support "
                   "points}, the unrest falls to {unrest_now}") == [[8, 4, 0]]
    assert said(g, "The rebels inflict {dealt:# CU|# CUs}; Carthage removes {lost} from the "
                   "Garrison Box") == [[3, 2]]
    assert var(g, "unrest_now") == 0
    assert cus(g, BOX) == 0 and at(g, "hasdrubal") == BOX


def test_example_1_had_carthage_lost_the_rebels_win_one_point():
    """seed 001 §20.3 example 1, last sentences: had Carthage lost, the rebels' 3 CUs would earn
    1 support point (2 Carthaginian CUs fought), raising the unrest from 4 to 5."""
    g = board()
    add_cus(g, "carthaginians", BOX, 2)
    set_leader(g, "hasdrubal", BOX)
    set_var(g, "unrest_now", 4)
    carthage_first(g, "carthaginian_01", "carthaginian_03")
    g.load_dice([2, 2, 3, 4, 4, 5])  # 7 + 2 = 9 against 13 + 3 = 16; the rebels 4,4,5 win
    answer(g, "carthaginian_01", "activate_leader", 2, "attack_unrest", 2)
    assert var(g, "unrest_now") == 5
    assert at(g, "hasdrubal") is None


def test_example_2_bomilcar_loses_to_unrest_1():
    """seed 001 §20.3 example 2: Bomilcar and 2 CUs against unrest 1, Carthage +6 (TR 3 and 2
    against 1); 2,2,5 + 6 = 15 against 6,5,5 = 16: the rebels win and inflict 2 CUs, their two
    5s nothing (their army is of size 1)."""
    g = bomilcar_attacks_from_the_box(1, [2, 2, 5, 6, 5, 5])
    assert said(g, "Carthage rolls {cd}, modifier {c_mod}: {c_total}; the rebels roll {rd}, "
                   "modifier {r_mod}: {r_total}") == [[[2, 2, 5], 6, 15, [6, 5, 5], 0, 16]]
    assert cus(g, BOX) == 0
    # reconstructed continuation (module.rules' check): 1 point raises the empty box's unrest
    assert var(g, "unrest_now") == 2


def test_example_3_the_garrison_holds_the_unrest_at_4():
    """seed 001 §20.3 example 3: 2 CUs in the box, unrest 4; Bomilcar sails 10 CUs from Carthago
    on a card of value 3 and attacks with 6 on his last MP: Carthage +4 (TR 3 and 6 against 4);
    1,1,2 + 4 = 8 against 6,4,4 = 14: the rebels inflict 6 CUs, win 3 points and displace
    Bomilcar; the 6 CUs left in the box cap the unrest at 4: all 3 points are lost."""
    g = board()
    add_cus(g, "carthaginians", BOX, 2)
    add_cus(g, "carthaginians", "carthago", 10)
    set_leader(g, "bomilcar", "carthago")
    set_var(g, "unrest_now", 4)
    carthage_first(g, "carthaginian_02", "carthaginian_01")
    g.load_dice([1, 1, 2, 6, 4, 4])
    answer(g, "carthaginian_02", "activate_leader", 10, "naval_move", BOX)
    assert "attack_unrest" in options(g)  # 1 MP left after the naval move
    answer(g, "attack_unrest", 6)
    assert said(g, "Carthage rolls {cd}, modifier {c_mod}: {c_total}; the rebels roll {rd}, "
                   "modifier {r_mod}: {r_total}") == [[[1, 1, 2], 4, 8, [6, 4, 4], 0, 14]]
    assert said(g, "The rebels win: Carthage loses {lost:# CU|# CUs}; the rebels win "
                   "{points:# support point|# support points}, the unrest rises to "
                   "{unrest_now}") == [[6, 3, 4]]
    assert said(g, "The garrison of {box} holds the unrest at {unrest_now}: "
                   "{wasted:# point is|# points are} lost") == [[6, 4, 3]]
    assert var(g, "unrest_now") == 4 and cus(g, BOX) == 6
    assert at(g, "bomilcar") is None


def test_automatic_victory_sets_the_unrest_to_zero():
    """seed 001 §20.3: an automatic victory lowers the unrest to 0 with no combat roll
    (reconstructed threshold 4:1, combat.yaml automatic_victory_ratio)."""
    g = board()
    add_cus(g, "carthaginians", BOX, 4)
    set_leader(g, "bomilcar", BOX)
    set_var(g, "unrest_now", 1)
    carthage_first(g, "carthaginian_02", "carthaginian_01")
    answer(g, "carthaginian_02", "activate_leader", 4, "attack_unrest", 4)
    assert var(g, "unrest_now") == 0 and cus(g, BOX) == 4
    assert said(g, "Automatic victory: the unrest falls to {unrest_now}") == [[0]]


def test_no_attack_without_unrest():
    """seed 001 §20.3 (the attack lowers the unrest; reconstructed, RULINGS.md SM-7: not offered
    at 0)."""
    g = board()
    add_cus(g, "carthaginians", BOX, 2)
    set_leader(g, "bomilcar", BOX)
    carthage_first(g, "carthaginian_02", "carthaginian_01")
    answer(g, "carthaginian_02", "activate_leader", 2)
    assert "attack_unrest" not in options(g) and "naval_move" in options(g)


def test_s19_hanno_sails_three_of_five_cus_to_carthago():
    """seed 001 §19 example: 5 CUs and Hanno in the box; activated on a card of value 1 he sails
    with 3 CUs to Carthago (the ships carry 3: research §10) with 1 MP left, 2 CUs staying."""
    g = board()
    add_cus(g, "carthaginians", BOX, 5)
    set_leader(g, "hanno", BOX)
    carthage_first(g, "carthaginian_03", "carthaginian_01")
    answer(g, "carthaginian_03", "activate_leader", 5, "naval_move", "carthago")
    assert g.decision.args[-1] == 1  # "... 1 MP left: what next?"
    answer(g, "end_move")
    assert cus(g, "carthago", "carthaginians") == 3 and cus(g, BOX) == 2
    assert at(g, "hanno") == "carthago"


def test_s19_no_land_move_and_no_other_power_enters_the_box():
    """seed 001 §19: only sea lanes join the box (garrison.rules' check), and only Carthage sails
    there: a Greek army in Carthago is offered no naval move to it."""
    g = board()
    add_cus(g, "greeks", "carthago", 2)
    set_leader(g, "dionysius", "carthago")
    give(g, "greek", "greek_02", "greek_01")
    answer(g, "greek", "greek_02", "activate_leader", 2, "naval_move")
    assert BOX not in options(g) and "syracusae" in options(g)


def test_s20_npa_raises_the_unrest_once_a_round_not_from_carthage():
    """seed 001 §20: a Neutral Power Activates from any deck but Carthage's raises the unrest by 1;
    the unrest-increased marker allows one such raise a round."""
    g = board()
    add_cus(g, "carthaginians", "carthago", 1)
    give(g, "roman", "roman_37", "roman_01")
    answer(g, "roman", "play_npa", "raise_unrest")  # the one NPA card is not asked
    assert var(g, "unrest_now") == 1 and var(g, "unrest_raised") is True
    assert "raise_unrest" not in g.value("npa_uses", "greek", "greek")
    set_var(g, "unrest_raised", False)
    assert "raise_unrest" in g.value("npa_uses", "greek", "greek")
    assert "raise_unrest" not in g.value("npa_uses", "carthaginian", "carthaginian")


def test_s20_1_example_1_a_greek_win_raises_unrest_3_by_one_point():
    """seed 001 §20.1 example 1: unrest 3, 6 CUs in the box; the Greeks beat Carthage inflicting
    5 CUs (3 support points) but may raise the unrest by only 1, to the maximum 4."""
    g = board()
    add_cus(g, "carthaginians", BOX, 6)
    add_cus(g, "carthaginians", "leontini", 5)
    add_cus(g, "greeks", "syracusae", 10)
    set_leader(g, "dionysius", "syracusae")
    set_var(g, "unrest_now", 3)
    give(g, "greek", "greek_01", "greek_02")
    give(g, "carthaginian", "carthaginian_01", "carthaginian_02")
    answer(g, "greek", "greek_01", "activate_leader", 10, "land_step")
    g.load_dice([6, 6, 4, 2, 2, 3])
    answer(g, "leontini")
    assert said(g, "{winner} win {points:# support point|# support points}") == [["greeks", 3]]
    assert options(g) == [0, 1]
    answer(g, 1)
    assert var(g, "unrest_now") == 4 and cus(g, "leontini", "carthaginians") == 0


def test_s20_1_example_2_ten_cus_in_the_box_leave_the_unrest_at_2():
    """seed 001 §20.1 example 2: unrest 2, an empty box; Hanno sails 10 CUs in: the maximum is 0,
    the unrest stays 2 and no Neutral Power Activates can raise it."""
    g = board()
    add_cus(g, "carthaginians", "carthago", 10)
    set_leader(g, "hanno", "carthago")
    set_var(g, "unrest_now", 2)
    carthage_first(g, "carthaginian_02", "carthaginian_01")
    answer(g, "carthaginian_02", "activate_leader", 10, "naval_move", BOX, "end_move")
    assert cus(g, BOX) == 10 and var(g, "unrest_now") == 2
    assert g.value("unrest_max", 10) == 0
    assert "raise_unrest" not in g.value("npa_uses", "roman", "roman")


def test_s20_2_unrest_3_costs_a_card_and_a_vp():
    """seed 001 §20.2 example: unrest 3 makes the Carthaginian hand one card smaller (checked at
    the draw) and costs 1 VP at scoring."""
    g = board()
    add_cus(g, "carthaginians", BOX, 7)  # the maximum 3 (§20.1): nothing raises it in play
    set_var(g, "unrest_now", 3)
    ports = g.value("sicilian_ports", "carthaginians")
    assert g.value("hand_size", "carthaginian") == 5 + ports - 1
    play_until(g, lambda: bool(said(g, "The unrest of {unrest_now} costs Carthage {r:# VP|# VP}")))
    assert said(g, "The unrest of {unrest_now} costs Carthage {r:# VP|# VP}") == [[3, 1]]


def test_carthage_5p_reinforcements_in_the_box():
    """research §3 (R2 §5.10.1, 5 players): half the mercenaries (rounded up) go, then 3 CUs and 2
    mercenaries come; seed 001 §19.1: they may be placed in the Garrison Box."""
    g = board()
    add_cus(g, "carthaginians", "panormus", 3)
    for u in g.state["z"]["troops|panormus"]:
        g.state["f"][u]["mercenary"] = True
    g.state["v"]["turn_no"][""] = 1
    play_until(g, lambda: "place the 3 CUs and" in g.decision.prompt)
    assert g.decision.args == [2]  # "... and 2 mercenary CUs in"
    assert said(g, "Carthage pays off {gone:# mercenary CU|# mercenary CUs}") == [[2]]
    answer(g, BOX)
    assert cus(g, BOX) == 5
    merc = [u for u in g.state["z"][f"troops|{BOX}"] if g.state["f"][u]["mercenary"]]
    assert len(merc) == 2


def test_mercenaries_hired_once_a_turn_not_the_card_play():
    """research §3 (R2 §7.2.4: once a turn, as active player, Carthage may play one card to hire
    mercenary CUs equal to its value, placed as reinforcements, not its one card play); seed 001
    §19.1 (placed in the Garrison Box)."""
    g = board()
    carthage_first(g, "carthaginian_02", "carthaginian_01", "carthaginian_03")
    answer(g, "carthaginian_03")  # for support, its one use here
    play_until(g, lambda: "hire mercenaries" in g.decision.prompt)
    answer(g, "carthaginian_02", BOX)
    assert said(g, "Carthage plays {c} to hire {c.ops:# mercenary CU|# mercenary CUs} in {x}") == [
        ["carthaginian_02", 3, BOX]]
    assert cus(g, BOX) == 3 and var(g, "mercenaries_hired") is True
    assert all(g.state["f"][u]["mercenary"] for u in g.state["z"][f"troops|{BOX}"])
    assert "carthaginian_01" in g.state["z"]["hand|carthaginian"]  # its card play was the 1


def test_20_3_a_campaign_attacks_the_unrest_twice_two_leaders_no_cu_in_both():
    """seed 001 §20.3 (a Campaign card may attack the rebels twice, with two different leaders,
    no CU taking part in both): Hasdrubal attacks unrest 4 with 2 of the 4 CUs in the box (+2
    against +3: 6,6,6 beat 1,1,1, 3 points: unrest 1); Bomilcar may then take only the 2 others,
    and attacks again (+6: unrest 0)."""
    g = board()
    add_cus(g, "carthaginians", BOX, 4)
    set_leader(g, "hasdrubal", BOX)
    set_leader(g, "bomilcar", BOX)
    set_var(g, "unrest_now", 4)
    carthage_first(g, "carthaginian_campaign", "carthaginian_01")
    g.load_dice([6, 6, 6, 1, 1, 1, 6, 6, 6, 1, 1, 1])
    answer(g, "carthaginian_campaign", "play_event", "hasdrubal", 2, "attack_unrest", 2)
    assert var(g, "unrest_now") == 1
    answer(g, "bomilcar")
    assert options(g) == [0, 1, 2]  # the two CUs that attacked with Hasdrubal stay
    answer(g, 2, "attack_unrest", 2)
    assert var(g, "unrest_now") == 0
    assert said(g, "{l} attacks the unrest ({u}) with {n:# CU|# CUs}") == [
        ["hasdrubal", 4, 2], ["bomilcar", 1, 2]]
    assert not any(g.state["f"][u]["moved"] for u in g.state["z"][f"troops|{BOX}"])


def test_21_1_the_two_armies_of_a_campaign_need_not_coordinate():
    """seed 001 §21.1 (the two armies a Campaign card activates need not coordinate their
    attack): Hanno marches from Lilybaeum to Eryx, then Bomilcar sails from Carthago to the
    Garrison Box, each on his own; a leader is activated once."""
    g = board()
    add_cus(g, "carthaginians", "lilybaeum", 2)
    add_cus(g, "carthaginians", "carthago", 3)
    set_leader(g, "hanno", "lilybaeum")
    set_leader(g, "bomilcar", "carthago")
    carthage_first(g, "carthaginian_campaign", "carthaginian_01")
    answer(g, "carthaginian_campaign", "play_event", "hanno", 2, "land_step", "eryx", "end_move")
    assert options(g) == ["bomilcar"]
    answer(g, "bomilcar", 3, "naval_move", BOX)  # 1 MP left and nothing to do: the move ends
    assert at(g, "hanno") == "eryx" and at(g, "bomilcar") == BOX
    assert cus(g, "eryx", "carthaginians") == 2 and cus(g, BOX) == 3


def test_insurrection_the_mercenaries_revolt_a_non_player_power_in_africa():
    """research §4 (R2 §16.3, §16.4: Insurrection makes the revolting mercenaries a non-player
    power, which a non-Carthaginian Neutral Power Activates may raise; the event lasts until all
    of them are eliminated); reconstructed (RULINGS.md SM-14): the Greeks' card (value 2) raises
    2 of their CUs in an African space free of CUs."""
    g = board()
    give(g, "greek", "insurrection", "greek_01")
    answer(g, "greek", "insurrection", "play_event", "kerkouane")
    assert said(g, "The mercenaries of Carthage revolt in {x}: {c.ops:# CU|# CUs}") == [
        ["kerkouane", 2]]
    assert cus(g, "kerkouane", "revolting_mercenaries") == 2
    assert g.value("insurrection_on") is True
    assert "revolting_mercenaries" in g.value("neutral_powers", "roman")
    assert "revolting_mercenaries" not in g.value("neutral_powers", "carthaginian")
    assert g.value("recruit_spaces", "revolting_mercenaries") == ["kerkouane"]
    assert not g.value("event_ok", "greek", "insurrection")  # one revolt at a time


def test_insurrection_reinforcements_one_mercenary_and_one_rebel():
    """research §3 (R2 §5.10.1: while Insurrection is active Carthage gets only 1 mercenary CU
    with its 3 CUs, and the revolting mercenaries also get 1)."""
    g = board()
    add_cus(g, "revolting_mercenaries", "kerkouane", 2)
    g.state["v"]["turn_no"][""] = 1
    play_until(g, lambda: "place the 3 CUs and" in g.decision.prompt)
    assert g.decision.args == [1]
    rebels = cus(g, "kerkouane", "revolting_mercenaries")  # an NPA in the turn may raise one
    answer(g, "carthago")
    assert said(g, "Carthage hires {hires:# mercenary CU|# mercenary CUs} in {x}") == [
        [1, "carthago"]]
    assert cus(g, "kerkouane", "revolting_mercenaries") == rebels + 1
