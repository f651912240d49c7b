"""The Sword of Rome, 5-player scenario: battles on the map (content/sword_of_rome/battle.rules),
played with loaded dice: research §9 (R2 §12: 3d6 a side, force ratio, leadership, friendly
territory; losses per unmodified die by the size of the army that rolled it; the loser retreats;
support won), seed 001 §19.2 (no friendly-territory +1 in the Garrison Box), §20 and §20.1
(support won against Carthage raises its unrest, up to the maximum)."""
from __future__ import annotations

from sor_play import (
    add_cus,
    answer,
    at,
    board,
    cus,
    give,
    options,
    pass_windows,
    said,
    set_leader,
    set_pc,
    var,
)

BOX = "garrison_box_space"

SUPPORT = "{winner} win {points:# support point|# support points}"
BATTLE = "Battle in {x}: {ap} ({a_n:# CU|# CUs}) attack {dp} ({d_n:# CU|# CUs})"
ROLL = ("{ap} roll {ad}, modifier {a_mod}: {a_total}; {dp} roll {dd}, modifier {d_mod}: "
        "{d_total}")


def greeks_attack_leontini(greeks: int, carthaginians: int, dice: list[int]):
    """Dionysius (tactics 3) and `greeks` CUs march from Syracusae into Leontini, a Greek home
    space held by `carthaginians` Carthaginian CUs without a leader."""
    g = board()
    add_cus(g, "greeks", "syracusae", greeks)
    add_cus(g, "carthaginians", "leontini", carthaginians)
    set_leader(g, "dionysius", "syracusae")
    give(g, "greek", "greek_01", "greek_02")
    give(g, "carthaginian", "carthaginian_01", "carthaginian_02")
    answer(g, "greek", "greek_01", "activate_leader", greeks, "land_step")
    g.load_dice(dice)
    answer(g, "leontini")
    return g


def test_attacker_wins_losses_per_die_and_support_against_carthage():
    """research §9 (R2 §12.2: Greeks +3 for Dionysius' tactics, +1 in their own space, 3 against 3
    no force-ratio modifier; R2 §12.3: the winner's 6,6 at 3+ CUs cost the loser 4, the loser's 1
    costs itself 1, capped at its 3 CUs; R2 §12.5: 2 support points); seed 001 §20.1: they may
    raise the unrest, 0 to 2."""
    g = greeks_attack_leontini(3, 3, [6, 6, 1, 1, 2, 3])
    assert said(g, ROLL) == [["greeks", [6, 6, 1], 4, 17, "carthaginians", [1, 2, 3], 0, 6]]
    assert cus(g, "leontini", "carthaginians") == 0
    assert options(g) == [0, 1, 2]
    answer(g, 2)
    assert var(g, "unrest_now") == 2


def test_defender_holds_and_the_attacker_falls_back():
    """research §9 (R2 §12.2.5: the higher total wins; R2 §12.2.1: 5 against 2 gives the larger
    +3; R2 §12.3: the winner's 6 and 5 at 2 CUs cost 2 each, its 4 nothing; R2 §12.4: the attacker
    retreats into the space it came from)."""
    g = greeks_attack_leontini(5, 2, [2, 2, 2, 6, 5, 4])
    assert said(g, ROLL) == [["greeks", [2, 2, 2], 7, 13, "carthaginians", [6, 5, 4], 0, 15]]
    assert at(g, "dionysius") == "syracusae"
    # the one Greek CU left stays with its leader until the move ends (after Carthage's support)
    assert len(g.state["z"]["column|dionysius"]) == 1
    assert cus(g, "leontini", "carthaginians") == 2


def test_automatic_victory_and_the_move_goes_on():
    """research §9 (R2 §12.2.1: an automatic victory, no roll: the loser's CUs are eliminated and
    the winner may keep moving); reconstructed threshold 4:1 (combat.yaml)."""
    g = greeks_attack_leontini(8, 2, [])
    assert said(g, "Automatic victory: {a_n} against {d_n}") == [[8, 2]]
    assert cus(g, "leontini", "carthaginians") == 0
    answer(g, 1)  # one support point raises the unrest
    while "what next?" not in (g.decision.prompt if g.decision else "what next?"):
        d = g.decision
        g.apply(None if d.optional else g.legal_actions()[0], side=d.side, decision=d.id)
    assert at(g, "dionysius") == "leontini" and "land_step" in options(g)


def test_no_friendly_territory_bonus_in_the_garrison_box():
    """seed 001 §19.2: neither Carthage nor the rebels get the +1 for friendly territory in the
    box; research §9 (R2 §12.2.3: +1 elsewhere)."""
    g = board()
    assert g.value("territory_modifier", True, True) == 0
    assert g.value("territory_modifier", True, False) == 1
    assert g.value("battle_modifier", BOX, "carthaginian", 2, 2, 4, 0) == 2
    assert g.value("force_ratio", 7, 3) == 3 and g.value("force_ratio", 5, 4) == 0


# ---- the Gallic battle cards of seed 001 §21.3 (events.rules) ------------------------------

def gauls_attack_tarentum(card: str, dice: list[int]):
    """The Gallic chieftain (tactics 2) and 3 CUs march from Brundisium into Tarentum, a Greek
    home space held by 2 Greek CUs without a leader; 1 Greek CU in Metapontum, a Greek space next
    to it, where they may retreat. The Gauls hold `card`."""
    g = board()
    add_cus(g, "gauls", "brundisium", 3)
    add_cus(g, "greeks", "tarentum", 2)
    add_cus(g, "greeks", "metapontum", 1)
    set_pc(g, "metapontum", "greeks")
    set_leader(g, "gallic_chieftain", "brundisium")
    give(g, "gallic", "gallic_01", card)
    answer(g, "gallic", "gallic_01", "activate_leader", 3, "land_step")
    g.load_dice(dice)
    answer(g, "tarentum", windows_after=True)
    return g


def decline_until(g, card: str) -> None:
    """Pass optional questions (cards before the dice, support to place) until a window offers
    `card`."""
    while g.decision is not None and card not in g.decision.options:
        d = g.decision
        assert d.optional, d.prompt
        g.apply(None, side=d.side, decision=d.id)


def test_21_3_15_flight_before_the_barbarians_no_battle_the_gauls_move_on():
    """seed 001 §21.3 #15: the enemy falls back to a friendly space, there is no battle, the
    Gallic army may keep moving, no support is placed."""
    g = gauls_attack_tarentum("flight_before_the_barbarians", [])
    answer(g, "flight_before_the_barbarians")
    assert said(g, "{dp} flee before the Gauls: no battle in {x}") == [["greeks", "tarentum"]]
    assert cus(g, "tarentum", "greeks") == 0 and cus(g, "metapontum", "greeks") == 3
    assert not said(g, ROLL) and not said(g, SUPPORT)
    assert "what next?" in g.decision.prompt and at(g, "gallic_chieftain") == "tarentum"


def test_21_3_11_titus_manlius_the_dice_inflict_nothing():
    """seed 001 §21.3 #11: a normal battle, but the combat dice inflict no losses, so they earn
    no support; the loser still retreats."""
    g = gauls_attack_tarentum("titus_manlius", [6, 6, 6, 6, 6, 1])
    answer(g, "titus_manlius", 0)  # no CU withdraws into the city of Tarentum
    assert said(g, ROLL) == [["gauls", [6, 6, 6], 3, 21, "greeks", [6, 6, 1], 1, 14]]
    assert said(g, "{ap} win: {dp} lose {d_loss:# CU|# CUs}, {ap} {a_loss:# CU|# CUs}") == [
        ["gauls", "greeks", 0, "gauls", 0]]
    assert cus(g, "metapontum", "greeks") == 3  # retreated, none lost
    assert not said(g, SUPPORT)


def test_21_3_5_wild_beasts_after_a_won_battle_minus_one_not_cumulative():
    """seed 001 §21.3 #5: played after the Gauls won, the beaten army fights them at -1; two
    armies with the event still make -1 (module.rules wild_beasts_total)."""
    g = gauls_attack_tarentum("wild_beasts", [6, 6, 6, 2, 2, 2])
    decline_until(g, "wild_beasts")
    answer(g, "wild_beasts")
    assert var(g, "beasts_on", "greeks") is True
    assert g.value("beasts_modifier", "greeks", "gauls") == -1
    assert g.value("beasts_modifier", "greeks", "romans") == 0
    assert g.value("wild_beasts_total", 2) == -1


def test_21_3_10_to_the_brave_a_second_battle_between_the_same_armies():
    """seed 001 §21.3 #10: the second battle is fought like the first, same attacker and
    defender; the Gauls lose the first (2 of 3 CUs) and win the second."""
    g = gauls_attack_tarentum("to_the_brave_belongs_everything",
                              [2, 2, 3, 3, 3, 6, 6, 6, 6, 1, 1, 1])
    answer(g, "to_the_brave_belongs_everything")
    assert said(g, ROLL) == [["gauls", [2, 2, 3], 3, 10, "greeks", [3, 3, 6], 1, 13],
                             ["gauls", [6, 6, 6], 2, 20, "greeks", [1, 1, 1], 4, 7]]
    assert len(said(g, BATTLE)) == 2
    assert cus(g, "tarentum", "greeks") == 0
    assert cus(g, "tarentum", "gauls") == 1 and at(g, "gallic_chieftain") == "tarentum"


def test_21_4_29_carthaginian_mistrust_cancels_an_activation_marker_placed():
    """seed 001 §21.4 #29: Mistrust cancels a real Carthaginian activation; the Carthaginian
    activation marker is still placed."""
    g = board()
    add_cus(g, "carthaginians", "carthago", 2)
    set_leader(g, "bomilcar", "carthago")
    give(g, "greek", "carthaginian_mistrust", "greek_01")
    give(g, "carthaginian", "carthaginian_01", "carthaginian_02")
    answer(g, "carthaginian", "carthaginian_01", "activate_leader", "carthaginian_mistrust", 2)
    assert said(g, "{s} plays {c}") == [["greek", "carthaginian_mistrust"]]
    assert said(g, "The activation of {l} is cancelled") == [["bomilcar"]]
    assert var(g, "activated", "carthaginians") is True
    assert at(g, "bomilcar") == "carthago" and cus(g, "carthago", "carthaginians") == 2


# ---- retreat (research §9, R2 §12.4; RULINGS.md SM-5) ---------------------------------------

def dionysius_beats_carthage(start: str, target: str, *carthage_hand: str):
    """Dionysius and 5 CUs march from `start` against 6 Carthaginian CUs in `target`, Carthage
    holding these cards; 4,2,2 (+3 for his tactics, +1 more in a Greek space) beat 1,2,3: the
    4 costs Carthage 1, its own 1 another, and 4 CUs retreat. Stops before the target is
    named."""
    g = board()
    add_cus(g, "greeks", start, 5)
    add_cus(g, "carthaginians", target, 6)
    set_leader(g, "dionysius", start)
    give(g, "greek", "greek_01", "greek_02")
    give(g, "carthaginian", *carthage_hand)
    answer(g, "greek", "greek_01", "activate_leader", 5, "land_step")
    g.load_dice([4, 2, 2, 1, 2, 3])
    return g


def carthage_beaten_in_leontini():
    """Carthage beaten in Leontini (a Greek space), attacked from Syracusae (+4 against 0: 12
    against 6). The nearest Carthaginian space by land is Himera, 4 spaces on (Katane,
    Tauromenion, Messana: Greek, -1 CU each); Henna lies across rough ground."""
    return dionysius_beats_carthage("syracusae", "leontini", "carthaginian_01", "carthaginian_02")


def test_retreat_to_the_nearest_friendly_space_paying_its_penalties():
    """research §9 (R2 §12.4: the nearest space free of enemy CUs that is friendly, at most 4
    spaces, no rough connection, not through the attacker's entry space; R2 §12.4.5: -1 CU for
    each space entered with an enemy PC marker or walled city; R2 §12.5: the CUs lost in the
    retreat earn the winner support too: 2 + 3 lost of 6, 3 points)."""
    g = carthage_beaten_in_leontini()
    answer(g, "leontini")
    assert said(g, "{p} retreat from {x} to {y}") == [["carthaginians", "leontini", "himera"]]
    assert said(g, "The retreat costs {p} {lost:# CU|# CUs}") == [["carthaginians", 3]]
    assert cus(g, "himera", "carthaginians") == 1 and cus(g, "leontini", "carthaginians") == 0
    assert said(g, SUPPORT) == [["greeks", 3]]


def test_a_retreat_sweeps_along_its_own_cus_on_the_way():
    """research §9 (R2 §12.4.2: own CUs met on the retreat path join the retreat, before the
    penalties): the Carthaginian CU in Tauromenion goes along to Himera, 2 arriving."""
    g = carthage_beaten_in_leontini()
    add_cus(g, "carthaginians", "tauromenion", 1)
    answer(g, "leontini")
    assert cus(g, "tauromenion", "carthaginians") == 0
    assert cus(g, "himera", "carthaginians") == 2


def test_a_force_with_no_retreat_within_four_spaces_is_eliminated():
    """research §9 (R2 §12.4: a retreat may not end with another power's CUs; R2 §12.4.5: a
    force that cannot retreat, or would need more than 4 spaces, is eliminated): a Roman CU in
    Himera leaves Panormus, 5 spaces away, the nearest; 6 lost in all, 3 points."""
    g = carthage_beaten_in_leontini()
    add_cus(g, "romans", "himera", 1)
    answer(g, "leontini")
    assert said(g, "{p} cannot retreat from {x}: {left:# CU is|# CUs are} eliminated") == [
        ["carthaginians", "leontini", 4]]
    assert said(g, SUPPORT) == [["greeks", 3]]


def test_up_to_three_cus_withdraw_into_their_walled_city():
    """research §9 (R2 §12.4: no splitting, except into a walled city of up to 3 CUs): beaten in
    Tarentum (3,3,3 + 3 = 12 against 2,2,3 + 1 = 8, no losses), the 2 Greek CUs withdraw into
    their city, and the Gauls stand outside its walls."""
    g = gauls_attack_tarentum("gallic_02", [3, 3, 3, 2, 2, 3])
    pass_windows(g)  # no Flight, no card before the dice
    assert options(g) == [0, 1, 2]
    answer(g, 2)
    assert said(g, "{k:# CU withdraws|# CUs withdraw} into the city of {x}") == [[2, "tarentum"]]
    assert cus(g, "tarentum", "greeks") == 2 and at(g, "gallic_chieftain") == "tarentum"


def test_21_3_9_too_far_from_home_no_withdrawal_into_the_city():
    """seed 001 §21.3 #9 (Too Far From Home: no CU of the enemy army may enter the walled city
    during the Gallic action; it may be played once the enemy says it wants to withdraw into the
    city, and stops the survivors of a battle from doing so): they retreat to Metapontum."""
    g = gauls_attack_tarentum("too_far_from_home", [3, 3, 3, 2, 2, 3])
    answer(g, 2, windows_after=True)  # the windows before it passed
    answer(g, "too_far_from_home")
    assert said(g, "{p} may not withdraw into the city of {x}") == [["greeks", "tarentum"]]
    assert cus(g, "tarentum", "greeks") == 0 and cus(g, "metapontum", "greeks") == 3


def test_a_naval_retreat_carries_what_the_card_allows_the_rest_by_land():
    """research §9 (R2 §12.4.3: 5-player Carthage retreats by sea 3/6/10 CUs on a 1/2/3-value
    card; R2 §12.4: the rest retreat by land): Dionysius and 5 CUs beat 6 Carthaginian CUs in
    the port of Selinus (4,2,2 + 3 = 11 against 1,2,3 + 1 = 7: 2 lost); Carthage plays a 1 for
    3 CUs to Carthago, and the fourth falls back to Lilybaeum."""
    g = dionysius_beats_carthage("akragas", "selinus", "carthaginian_01", "carthaginian_03")
    answer(g, "selinus", windows_after=True)
    pass_windows(g, "carthaginian_03")
    assert g.decision.window == "sea_retreat"
    assert options(g) == ["carthaginian_01", "carthaginian_03"]
    answer(g, "carthaginian_03", "carthago", "lilybaeum")
    assert said(g, "{p} play {c} and retreat by sea from {x} to {y} with {k:# CU|# CUs}") == [
        ["carthaginians", "carthaginian_03", "selinus", "carthago", 3]]
    assert cus(g, "carthago", "carthaginians") == 3 and cus(g, "lilybaeum", "carthaginians") == 1
    assert "carthaginian_03" in g.state["z"]["discard|carthaginian"]
