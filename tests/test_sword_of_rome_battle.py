"""The Sword of Rome, 5-player scenario: battles on the map (content/sword_of_rome/battle.rules),
played with loaded dice: research §9 (R2 §12: 3d6 a side, force ratio, leadership, friendly
territory; losses per unmodified die by the size of the army that rolled it; the loser retreats;
support won), seed 001 §19.2 (no friendly-territory +1 in the Garrison Box), §20 and §20.1
(support won against Carthage raises its unrest, up to the maximum)."""
from __future__ import annotations

from sor_play import add_cus, answer, at, board, cus, give, options, said, set_leader, var

BOX = "garrison_box_space"

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
