"""Hannibal: walled cities (seed 002 §16.1-§16.3, §16.4.4, "16.5.5"; seed 003 "Крепости",
"Уклонение" (1), "Штурм" (6), "Раунд битвы" (1)).

Each test sets up a position by editing the state (tests/hannibal_play.py) on real walled
cities of the map (Roma holds 5 CUs, Capua and Neapolis 2), moves an army and answers the
decisions by value; rolls are loaded (g.load_dice). Rulings: RULINGS.md "## Walled cities"
(H-wc-1 ...)."""
from __future__ import annotations

from hannibal_play import (
    act,
    add_cus,
    add_garrison,
    answer,
    board,
    carthage_moves,
    cus,
    decline_until,
    field,
    give,
    inside,
    logged,
    march,
    options,
    prompt,
    rome_moves,
    said_values,
    set_hands,
    set_leader,
    set_pc,
    set_var,
    start_turn,
)

LEAD = "lead a battle card"


def walls_asked(g) -> bool:
    return "stand inside the walls" in prompt(g)


WIN = ["frontal_assault_01", "frontal_assault_09"]  # the side leading wins in round one
LOSE = ["flank_left_02", "flank_right_05"]


# ---- §16.2: inside or outside when an enemy army comes -------------------------------------

def test_shelter_inside_needs_no_roll_and_the_mover_passes_on():
    """seed 002 §16.2 (when an enemy army enters, the owner chooses which CUs stand inside; CUs
    inside do not stop enemy movement), §16.3 (a leader inside); seed 003 "Уклонение" (1)
    (sheltering in a friendly walled city needs no avoidance roll and no pursuit),
    "Крепости" (3)-(4): Fabius's 2 CUs go into Capua, Hannibal marches on. H-wc-1, H-wc-3."""
    g = board()
    set_leader(g, "hannibal", "nola")
    add_cus(g, "carthage", "nola", 6)
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 2)
    carthage_moves(g)
    answer(g, 6)
    march(g, "capua")
    assert walls_asked(g) and g.decision.side == "rome"
    assert options(g) == [0, 1, 2]  # Capua holds 2 (§16.2)
    answer(g, 2)
    assert len(inside(g, "capua", "rome")) == 2 and cus(g, "capua", "rome") == []
    assert field(g, "fabius", "inside") is True and field(g, "fabius", "where") == "map"
    assert "avoid" not in prompt(g) and "roll" not in logged(g).lower().split("enters capua")[-1]
    assert "what next" in prompt(g)  # no battle: Hannibal goes on
    march(g, "beneventum")
    act(g, "stop")
    assert field(g, "fabius", "at") == "capua" and field(g, "fabius", "where") == "map"
    assert len(inside(g, "capua")) == 2
    assert g.check_invariants() == []


def test_the_choice_is_renewed_when_a_second_army_arrives():
    """seed 002 §16.2 ("Hij kan telkens er zich een nieuw leger aandient de keuze hernieuwen"):
    under a Minor Campaign Mago passes Capua while its 2 CUs stand inside; when Hannibal comes,
    Rome brings one out with Fabius, who may then try to avoid the battle (§10)."""
    g = board()
    set_leader(g, "mago", "nola")
    add_cus(g, "carthage", "nola", 5)
    set_leader(g, "hannibal", "neapolis")
    add_cus(g, "carthage", "neapolis", 6)
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 2)
    give(g, "carthage", "minor_campaign_37", "bad_weather")
    give(g, "rome", "diplomacy_36", "epidemic")
    start_turn(g)
    answer(g, "minor_campaign_37", "event", "mago", None, 5)
    march(g, "capua")
    assert walls_asked(g)
    answer(g, 2)
    march(g, "beneventum")
    act(g, "stop")
    assert "campaign" in prompt(g)
    answer(g, "hannibal", None, 6)
    march(g, "capua")
    assert walls_asked(g) and "2 CUs of rome" in prompt(g)
    answer(g, 1)
    assert len(inside(g, "capua")) == 1 and len(cus(g, "capua", "rome")) == 1
    assert field(g, "fabius", "inside") is False  # he stands with the CU outside (H-wc-3)
    assert "try to avoid the battle" in prompt(g)


def test_an_army_at_the_walls_keeps_the_garrison_in_when_another_arrives():
    """seed 002 §16.2 (the choice is renewed when a new army comes), §16.4.4 and seed 003
    "Штурм" (6) (with the enemy at the walls the CUs inside leave only by a sortie): Mago's 4
    CUs stand outside Capua, no siege point yet (§16.4.3: not besieged), Fabius and 2 CUs
    inside; when Hannibal comes Rome is not asked to bring them out, so no battle is pending
    with both sides outside. H-wc-1, H-wc-5. Found by 10,000 random games (seeds 706447 and
    707352 of `engine simulate hannibal --invariants`: a garrison brought out beside the
    enemy's CUs already at its walls broke the invariant at the avoidance question)."""
    g = board()
    add_garrison(g, "rome", "capua", 2)
    set_leader(g, "fabius", "capua")
    g.state["f"]["fabius"]["inside"] = True
    set_leader(g, "mago", "capua")
    add_cus(g, "carthage", "capua", 4)
    set_leader(g, "hannibal", "nola")
    add_cus(g, "carthage", "nola", 6)
    assert g.check_invariants() == []
    carthage_moves(g)
    answer(g, 6)
    march(g, "capua")
    assert not walls_asked(g) and "avoid" not in prompt(g)
    assert "what next" in prompt(g) and g.decision.side == "carthage"
    assert len(inside(g, "capua", "rome")) == 2 and cus(g, "capua", "rome") == []
    assert field(g, "fabius", "inside") is True
    assert g.check_invariants() == []
    act(g, "stop")
    assert len(inside(g, "capua", "rome")) == 2 and len(cus(g, "capua", "carthage")) == 10
    assert g.check_invariants() == []


def test_a_lone_leader_inside_is_not_displaced():
    """seed 002 §8.9 (a leader without CUs is displaced by an enemy army entering his space),
    §16.3 (a leader inside the walls); seed 003 "Крепости" (4) (leaders too shelter in a friendly
    walled city): Fabius alone in Capua goes inside, and Hannibal stops there. H-wc-3."""
    g = board()
    set_leader(g, "hannibal", "nola")
    add_cus(g, "carthage", "nola", 6)
    set_leader(g, "fabius", "capua")
    carthage_moves(g)
    answer(g, 6)
    march(g, "capua")
    assert not walls_asked(g)
    assert ["fabius", "capua"] in said_values(g, "{k} goes inside the walls of {x}")
    act(g, "stop")
    assert field(g, "fabius", "where") == "map" and field(g, "fabius", "inside") is True
    assert g.check_invariants() == []


def test_a_leader_inside_with_a_garrison_is_not_displaced_after_a_battle_outside():
    """seed 002 §16.2 (CUs inside are not attacked normally), §8.9 (only a leader left without
    CUs is displaced): Varro puts 5 of his 8 CUs into Roma (capacity 5, §16.2; seed 003
    "Крепости" (2)); Fabius commands the 3 outside, loses and retreats; Varro stays inside."""
    g = board()
    set_leader(g, "hannibal", "tarracina")
    add_cus(g, "carthage", "tarracina", 10)
    set_leader(g, "varro", "roma")
    add_cus(g, "rome", "roma", 8)
    carthage_moves(g)
    answer(g, 10)
    march(g, "roma")
    assert walls_asked(g) and max(options(g)) == 5
    answer(g, 5)
    # Varro has CUs outside: he stands with them (H-wc-3); no leader inside
    assert field(g, "varro", "inside") is False
    assert len(inside(g, "roma")) == 5 and len(cus(g, "roma", "rome")) == 3


# ---- §16.2: during a normal move ---------------------------------------------------------

def test_a_leader_puts_cus_inside_and_takes_cus_from_inside():
    """seed 002 §16.2 ("Gedurende een normale beweging": CUs go in and out of a walled city on a
    normal move): Fabius takes the 2 CUs inside Capua along, and later puts 2 of his 4 inside
    Neapolis, no more than it holds. H-wc-4."""
    g = board()
    set_leader(g, "fabius", "capua")
    add_garrison(g, "rome", "capua", 2)
    add_cus(g, "rome", "capua", 2)
    rome_moves(g)
    assert options(g) == [0, 1, 2, 3, 4]  # the 2 outside and the 2 inside
    answer(g, 4)
    assert inside(g, "capua") == []
    march(g, "neapolis")
    act(g, "inside")
    assert options(g) == [1, 2]  # Neapolis holds 2
    answer(g, 2)
    assert len(inside(g, "neapolis", "rome")) == 2
    assert "inside" not in options(g)
    act(g, "stop")
    assert len(cus(g, "neapolis", "rome")) == 2
    assert g.check_invariants() == []


# ---- §12.1, §16.2: retreat into a walled city ----------------------------------------------

def test_retreat_into_the_city_of_the_battle_space_up_to_its_capacity():
    """seed 002 §16.2 "Terugtocht in een vesting" (the loser's CUs may go into a non-besieged
    walled city of theirs, also in the space of the battle; the exception to §12.1; the rest
    retreat): Rome loses in Roma with 8 CUs, 1 is lost on the retreat table (§11.10); of the 7
    left 5 go inside (Roma holds 5), 2 retreat with Varro to Praeneste. H-wc-8."""
    g = board()
    set_leader(g, "hannibal", "tarracina")
    add_cus(g, "carthage", "tarracina", 10)
    set_leader(g, "varro", "roma")
    add_cus(g, "rome", "roma", 8)
    for x in ["ostia", "tarracina", "alba_fucens", "spoletium", "tarquinii"]:
        set_pc(g, x, None)
    set_pc(g, "praeneste", "rome")
    carthage_moves(g)
    answer(g, 10)
    march(g, "roma")
    answer(g, 0)  # all stand outside
    decline_until(g, LEAD)
    g.load_dice([1, 1])  # no battle losses, 1 CU on the retreat table (5+ CUs, roll 1)
    set_hands(g, WIN, LOSE)
    answer(g, "frontal_assault_01")
    assert "go inside the walls of roma" in prompt(g) and g.decision.side == "rome"
    assert "the 7 CUs" in prompt(g)
    assert options(g) == [0, 1, 2, 3, 4, 5]
    answer(g, 5)
    assert len(inside(g, "roma", "rome")) == 5
    assert field(g, "varro", "at") == "praeneste" and len(cus(g, "praeneste", "rome")) == 2
    assert cus(g, "roma", "rome") == []
    assert g.check_invariants() == []


def test_a_loser_with_no_cus_left_outside_goes_inside_with_his_leader():
    """seed 002 §16.2 (retreat into the city), §16.3 (the leader inside), §8.9 (he is not
    displaced): Fabius's 2 CUs lose in Capua and both go inside; so does Fabius. H-wc-8."""
    g = board()
    set_leader(g, "hannibal", "nola")
    add_cus(g, "carthage", "nola", 6)
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 2)
    carthage_moves(g)
    answer(g, 6)
    march(g, "capua")
    answer(g, 0)
    decline_until(g, LEAD)
    g.load_dice([1, 1])
    set_hands(g, WIN, LOSE)
    answer(g, "frontal_assault_01")
    assert "go inside the walls of capua" in prompt(g)
    answer(g, 2)
    assert len(inside(g, "capua")) == 2
    assert field(g, "fabius", "inside") is True and field(g, "fabius", "where") == "map"
    assert g.check_invariants() == []


def test_no_retreat_into_a_besieged_city_without_a_sortie():
    """seed 002 "16.5.5" (only units that sallied go back into a besieged city after a battle):
    Marcellus attacks the besiegers of Capua with no sortie, loses, and may not go inside."""
    g = board()
    set_var(g, "active", "rome")
    g.state["f"]["capua"].update(siege=1, besieger="carthage")
    set_leader(g, "mago", "capua")
    add_cus(g, "carthage", "capua", 6)
    set_leader(g, "marcellus", "nola")
    add_cus(g, "rome", "nola", 3)
    rome_moves(g)
    answer(g, 3)
    march(g, "capua")
    decline_until(g, LEAD)
    g.load_dice([1, 1, 1])  # Carthage's counterattack, the battle losses, the retreat table
    set_hands(g, ["frontal_assault_09", "flank_left_02"], ["frontal_assault_01", "flank_right_05"])
    answer(g, "frontal_assault_01", "frontal_assault_09")  # matched; Carthage takes the lead
    # Carthage leads its Flank Left (its only card), Rome cannot match: Carthage wins
    assert "retreat from capua" in prompt(g)  # not asked to go inside the walls
    answer(g, "nola")
    assert "go inside the walls" not in logged(g)
    assert inside(g, "capua") == [] and cus(g, "capua", "rome") == []
    assert field(g, "marcellus", "at") != "capua"


# ---- §16.4.4, "16.5.5": sorties ------------------------------------------------------------

def besieged_capua():
    """Capua (Roman, 2 CUs inside) besieged by Mago's 4 CUs; Marcellus with 5 CUs in Nola."""
    g = board()
    g.state["f"]["capua"].update(siege=1, besieger="carthage")
    add_garrison(g, "rome", "capua", 2)
    set_leader(g, "mago", "capua")
    add_cus(g, "carthage", "capua", 4)
    for x in ["beneventum", "aesernia", "praeneste", "tarracina", "neapolis"]:
        set_pc(g, x, None)
    set_pc(g, "beneventum", "carthage")
    return g


def test_a_sortie_joins_the_relief_battle_and_goes_back_inside():
    """seed 002 §16.4.4 (when a friendly army attacks the besieging army, the CUs inside may
    join the battle: a sortie), "16.5.5" (after the battle they may go back into the besieged
    city); seed 003 "Штурм" (6): Marcellus relieves Capua, its 2 CUs sally, Rome wins and the
    2 go back inside. H-wc-6, H-wc-7."""
    g = besieged_capua()
    set_leader(g, "marcellus", "nola")
    add_cus(g, "rome", "nola", 5)
    rome_moves(g)
    answer(g, 5)
    march(g, "capua")
    decline_until(g, "sally to join the battle")
    assert options(g) == [0, 1, 2] and g.decision.side == "rome"
    answer(g, 2)
    assert len(cus(g, "capua", "rome")) == 7 and inside(g, "capua") == []
    decline_until(g, LEAD)
    g.load_dice([1, 1])
    rome_first = g.decision.side == "rome"
    assert rome_first
    set_hands(g, LOSE, WIN)
    answer(g, "frontal_assault_01")
    assert "that sallied go back inside capua" in prompt(g)
    assert options(g) == [0, 1, 2]
    answer(g, 2)
    assert len(inside(g, "capua", "rome")) == 2 and len(cus(g, "capua", "rome")) == 5
    assert field(g, "mago", "at") == "beneventum"
    assert g.check_invariants() == []


def test_a_leader_inside_sallies_and_withdraws_back_inside():
    """seed 003 "Штурм" (6) (a besieged army under a leader may sally to attack the enemy in the
    space), "Раунд битвы" (1) (units that sallied withdraw only back into the city); seed 002
    §16.4.4, §11.11: Fabius inside besieged Capua may only sally or stay; he sallies with the
    2 CUs, withdraws, and he and they are inside again. H-wc-5, H-wc-9."""
    g = besieged_capua()
    set_leader(g, "fabius", "capua")
    g.state["f"]["fabius"]["inside"] = True
    rome_moves(g)
    assert sorted(options(g)) == ["sally", "stop"]
    act(g, "sally")
    assert options(g) == [1, 2]
    answer(g, 2)
    assert len(cus(g, "capua", "rome")) == 2 and field(g, "fabius", "inside") is False
    decline_until(g, LEAD)
    assert g.decision.side == "rome" and None in options(g)  # he may withdraw: back inside
    g.load_dice([1, 6, 1])  # the withdrawal roll, Carthage's stop roll fails, battle losses
    answer(g, None)
    if "stop the withdrawal" in prompt(g):
        answer(g, True)
    assert len(inside(g, "capua", "rome")) == 2 and cus(g, "capua", "rome") == []
    assert field(g, "fabius", "inside") is True and field(g, "fabius", "at") == "capua"
    assert g.check_invariants() == []
