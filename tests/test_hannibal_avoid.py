"""Hannibal: avoiding battle and pursuit (seed 002 §10-§10.3; seed 003 "Уклонение",
"Преследование").

Each test sets up a position by editing the state (tests/hannibal_play.py), moves an army into
an enemy army's space and answers the decisions by value. Rolls are loaded (g.load_dice) so that
the outcome is forced. Rulings: RULINGS.md "## Avoiding battle and pursuit" (H-av-1 ...)."""
from __future__ import annotations

import re

from hannibal_play import (
    add_cus,
    answer,
    board,
    carthage_moves,
    cus,
    decline_until,
    field,
    logged,
    march,
    options,
    prompt,
    rome_moves,
    set_leader,
    set_pc,
)


def fabius_at_capua_gisgo_at_beneventum(gisgo_cus: int = 3):
    """Fabius (consul, battle 3) with 5 CUs in Capua; Gisgo (battle 1) with CUs in Beneventum.
    Beneventum's neighbours: Capua (where Fabius comes from), Bovianum, Luceria, Venusia."""
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    add_cus(g, "rome", "capua", 5)
    set_leader(g, "gisgo", "beneventum")
    add_cus(g, "carthage", "beneventum", gisgo_cus)
    for x in ["beneventum", "bovianum", "luceria", "venusia"]:
        set_pc(g, x, None)
    return g


def battle_cards(g) -> dict[str, int]:
    """The cards dealt, once the battle's earlier questions (the command roll, the strategy-card
    windows, the elephants) are declined."""
    if "Battle cards:" not in logged(g):
        decline_until(g, "lead a battle card")
    m = re.search(r"Battle cards: (\w+) (\d+), (\w+) (\d+)", logged(g))
    assert m, logged(g)[-800:]
    return {m.group(1).lower(): int(m.group(2)), m.group(3).lower(): int(m.group(4))}


def asked_to_avoid(g) -> bool:
    return "try to avoid the battle" in prompt(g)


# ---- §10, §10.1: the attempt, its roll and its cost -------------------------------------------

def test_defender_is_asked_before_any_roll():
    """seed 002 §10 (an army whose space an enemy army enters may try to avoid the battle), §10.2
    (every attempt is announced before any roll); seed 003 "Уклонение" (1)."""
    g = fabius_at_capua_gisgo_at_beneventum()
    rome_moves(g)
    march(g, "beneventum")
    assert asked_to_avoid(g)
    assert g.decision.side == "carthage"
    assert "roll" not in logged(g).lower().split("beneventum")[-1]


def test_failed_avoidance_costs_one_battle_card():
    """seed 002 §10.1 (a roll above the commander's battle rating: the battle is fought, the army
    that failed gets one battle card less), §11.1; seed 003 "Уклонение" (2). Gisgo (battle 1)
    rolls a 2. The same battle without the attempt deals Carthage one card more."""
    declined = fabius_at_capua_gisgo_at_beneventum()
    rome_moves(declined)
    march(declined, "beneventum")
    answer(declined, False)
    plain = battle_cards(declined)

    g = fabius_at_capua_gisgo_at_beneventum()
    rome_moves(g)
    march(g, "beneventum")
    g.load_dice([2])
    answer(g, True)
    assert "Avoidance roll 2: Hasdrubal Gisgo fails to avoid the battle" in logged(g)
    assert field(g, "gisgo", "at") == "beneventum"
    fumbled = battle_cards(g)
    assert fumbled["carthage"] == plain["carthage"] - 1
    assert fumbled["rome"] == plain["rome"]


def test_successful_avoidance_moves_leader_and_chosen_cus_one_space():
    """seed 002 §10.1 (a roll at most the battle rating: the commander and up to 10 CUs move one
    space; not into the space the attacker came from); seed 003 "Уклонение" (3) (not into enemy
    PCs or enemy CUs; part of the CUs may stay). Bovianum holds a Roman PC, Luceria Roman CUs,
    Capua is where Fabius came from: only Venusia is left, so it is not asked."""
    g = fabius_at_capua_gisgo_at_beneventum(gisgo_cus=3)
    set_pc(g, "bovianum", "rome")
    add_cus(g, "rome", "luceria", 1)
    rome_moves(g)
    march(g, "beneventum")
    g.load_dice([1, 6])
    answer(g, True)
    assert "Avoidance roll 1: Hasdrubal Gisgo avoids the battle" in logged(g)
    assert "go with him to venusia" in prompt(g)
    assert options(g) == [0, 1, 2, 3]
    answer(g, 3)
    assert field(g, "gisgo", "at") == "venusia"
    assert len(cus(g, "venusia", "carthage")) == 3
    assert cus(g, "beneventum", "carthage") == []
    assert "Battle in" not in logged(g)


def test_avoidance_destinations_offered():
    """seed 002 §10.1 (not into the attacker's space of departure); seed 003 "Уклонение" (3): the
    three other neighbours of Beneventum are offered when free."""
    g = fabius_at_capua_gisgo_at_beneventum()
    rome_moves(g)
    march(g, "beneventum")
    g.load_dice([1])
    answer(g, True)
    assert sorted(options(g)) == ["bovianum", "luceria", "venusia"]


def test_no_avoidance_over_a_pass_or_into_a_hostile_tribe():
    """seed 002 §10.1, §8.3.4 (no avoidance over a mountain pass or a strait); seed 003
    "Уклонение" (3) (not into a hostile tribe), (4) (not over a pass, strait or sea). Gisgo in
    Genua: Luna is where Fabius comes from, Placentia lies over a pass, the Ingauni are a neutral
    tribe. With nowhere to go he is not asked: the battle is fought."""
    g = board()
    set_leader(g, "fabius", "luna", office="consul")
    add_cus(g, "rome", "luna", 5)
    set_leader(g, "gisgo", "genua")
    add_cus(g, "carthage", "genua", 3)
    for x in ["genua", "luna", "placentia", "ingauni"]:
        set_pc(g, x, None)
    rome_moves(g)
    march(g, "genua")
    assert not asked_to_avoid(g)
    assert "Battle in Genua" in logged(g)


def test_avoidance_into_a_tribe_friendly_to_the_avoider():
    """seed 003 "Уклонение" (3): only a hostile tribe is closed; a tribe under the avoider's own
    PC is open (seed 002 §16.6: friendly tribes count as Carthaginian PCs)."""
    g = board()
    set_leader(g, "fabius", "luna", office="consul")
    add_cus(g, "rome", "luna", 5)
    set_leader(g, "gisgo", "genua")
    add_cus(g, "carthage", "genua", 3)
    for x in ["genua", "luna", "placentia"]:
        set_pc(g, x, None)
    set_pc(g, "ingauni", "carthage")
    rome_moves(g)
    march(g, "genua")
    assert asked_to_avoid(g)
    g.load_dice([1, 6])
    answer(g, True)
    answer(g, 3)  # the Ingauni, the only space, are not asked
    assert field(g, "gisgo", "at") == "ingauni"


def test_at_most_ten_cus_go_the_rest_is_fought():
    """seed 002 §10.1 (the commander and up to 10 CUs), §11 (CUs left behind are attacked);
    seed 003 "Уклонение" (3). Gisgo has 12 CUs: 2 stay and fight Fabius without a leader; the
    move ends in that battle, without a pursuit roll (§10.3)."""
    g = fabius_at_capua_gisgo_at_beneventum(gisgo_cus=12)
    rome_moves(g)
    march(g, "beneventum")
    g.load_dice([1])
    answer(g, True, "venusia")
    assert max(options(g)) == 10
    answer(g, 10)
    assert field(g, "gisgo", "at") == "venusia"
    assert len(cus(g, "venusia", "carthage")) == 10
    assert "Battle in Beneventum" in logged(g)
    assert "Pursuit roll" not in logged(g)
    assert battle_cards(g)["carthage"] == 2  # no leader: one card per CU, no fumble


def test_one_cu_left_behind_is_overrun_and_the_pursuit_rolled():
    """seed 002 §8.2 (5 CUs entering a lone enemy CU without a leader overrun it), §10.3 (to go
    on after an avoidance the mover rolls): RULINGS.md H-av-3."""
    g = fabius_at_capua_gisgo_at_beneventum(gisgo_cus=3)
    rome_moves(g)
    march(g, "beneventum")
    g.load_dice([1, 2])
    answer(g, True, "venusia", 2)
    text = logged(g)
    assert "Pursuit roll 2: Quintus Fabius Maximus may go on with his move" in text
    assert "overruns the lone enemy CU in Beneventum" in text
    assert cus(g, "beneventum", "carthage") == []
    assert "what next?" in prompt(g) and "march" in options(g)


def test_consul_avoids_with_at_least_five_cus():
    """seed 002 §10.1 (up to 10 CUs go), §14.2 (a consular army leaves no CUs behind that would
    take it under 5): RULINGS.md H-av-2. Hannibal enters Fabius's space; Fabius (battle 3) avoids
    on a 3 with 5 to 7 of his 7 CUs."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 5)
    set_leader(g, "fabius", "beneventum", office="consul")
    add_cus(g, "rome", "beneventum", 7)
    for x in ["capua", "beneventum", "bovianum", "luceria", "venusia"]:
        set_pc(g, x, None)
    carthage_moves(g)
    answer(g, 5)  # Hannibal takes his 5 CUs
    march(g, "beneventum")
    assert asked_to_avoid(g) and g.decision.side == "rome"
    g.load_dice([3, 6])
    answer(g, True, "luceria")
    assert options(g) == [5, 6, 7]
    answer(g, 5)
    assert len(cus(g, "luceria", "rome")) == 5
    assert len(cus(g, "beneventum", "rome")) == 2
    assert "Battle in Beneventum" in logged(g)


# ---- §10.3: pursuit ------------------------------------------------------------------------

def example_10_3(dice):
    """seed 002 §10.3, example (after §9.1 and §10.2): Fabius enters Gisgo's space; Gisgo avoids
    (he needs a 1) into Hannibal's space and goes into Hannibal's holding box; Fabius goes on
    only on a 1 to 3."""
    g = fabius_at_capua_gisgo_at_beneventum(gisgo_cus=3)
    set_leader(g, "hannibal", "venusia")
    add_cus(g, "carthage", "venusia", 4)
    rome_moves(g)
    march(g, "beneventum")
    g.load_dice(dice)
    answer(g, True)
    assert "who tries to intercept from venusia" in prompt(g)
    answer(g, None)  # Hannibal, next door, does not try to intercept (§9)
    answer(g, "venusia", 3)
    assert field(g, "gisgo", "at") == "venusia"
    assert field(g, "gisgo", "chief") == "hannibal"
    assert len(cus(g, "venusia", "carthage")) == 7
    return g


def test_example_10_3_fabius_pursues_on_a_three():
    """seed 002 §10.3, example: Gisgo rolls a 1, Fabius a 3: his move goes on, in any direction
    (seed 003 "Преследование" (2))."""
    g = example_10_3([1, 3])
    assert "Pursuit roll 3: Quintus Fabius Maximus may go on with his move" in logged(g)
    assert "what next?" in prompt(g) and "3 movement points left" in prompt(g)
    answer(g, "march")
    assert {"bovianum", "luceria", "venusia"} <= set(options(g))


def test_example_10_3_fabius_stopped_on_a_four():
    """seed 002 §10.3, example: a roll above Fabius's 3 ends his move in Beneventum."""
    g = example_10_3([1, 4])
    assert "Pursuit roll 4: Quintus Fabius Maximus must stop in Beneventum" in logged(g)
    assert "ends his move in Beneventum" in logged(g)
    assert field(g, "fabius", "at") == "beneventum"
    assert g.decision is None or "what next?" not in prompt(g)


def test_chase_repeats_until_movement_runs_out():
    """seed 002 §10.3 (the pursued army may avoid again and the mover pursue again, until a roll
    fails or the mover may move no further); seed 003 "Преследование" (3). Gisgo falls back from
    Beneventum to Luceria to Arpi to Cannae; Fabius follows on 3s; in Cannae his 4 movement
    points are spent: no pursuit roll, his move ends."""
    g = fabius_at_capua_gisgo_at_beneventum(gisgo_cus=3)
    for x in ["arpi", "cannae", "larinum"]:
        set_pc(g, x, None)
    rome_moves(g)
    march(g, "beneventum")
    g.load_dice([1, 3])
    answer(g, True, "luceria", 3)
    march(g, "luceria")
    assert asked_to_avoid(g)
    g.load_dice([1, 3])
    answer(g, True)
    assert "beneventum" not in options(g)  # where Fabius came from
    answer(g, "arpi", 3)
    march(g, "arpi")
    g.load_dice([1, 3])
    answer(g, True)
    assert "luceria" not in options(g)
    answer(g, "cannae", 3)
    march(g, "cannae")
    g.load_dice([1])
    answer(g, True, 3)  # Venusia: Arpi is where Fabius came from, Brundisium holds a Roman PC
    text = logged(g)
    assert "has no movement left to pursue: his move ends in Cannae" in text
    assert text.count("Pursuit roll") == 3
    assert field(g, "gisgo", "at") == "venusia"
    assert field(g, "fabius", "at") == "cannae"


def test_lone_leader_still_displaced():
    """seed 002 §8.9 (a leader alone in a space an enemy army enters is displaced): no avoidance
    is offered to a leader without CUs (§10.1 moves an army)."""
    g = fabius_at_capua_gisgo_at_beneventum(gisgo_cus=0)
    rome_moves(g)
    march(g, "beneventum")
    assert not asked_to_avoid(g)
    assert field(g, "gisgo", "where") == "displaced"
