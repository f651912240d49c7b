"""Hannibal: winter attrition and the elephants' 'e' (seed 002 §5.4, §8.9, §13.2, §17.1-§17.2;
seed 003 "Порядок хода" (4)).

Each test arranges a position on real spaces of the pack's map (tests/hannibal_play.py), empties
both hands so that the strategy phase ends at once, loads the dice and lets the winter attrition
phase run (the game stops at turn 2's first reinforcement). Rulings: RULINGS.md "## Attrition"
(H-at-N)."""
from __future__ import annotations

from hannibal_play import (
    _put,
    act,
    add_cus,
    answer,
    board,
    carthage_moves,
    cus,
    field,
    give,
    march,
    pay_backlash,
    prompt,
    said_values,
    set_leader,
    start_turn,
)

WINTER = ("Winter attrition for {n:# CU|# CUs} of {s} in {x}: die {d}, modifier {m}; "
          "{lost:# CU|# CUs} lost")
ELEPHANT = "The 'e' result costs {s} an elephant CU in {x}"


def to_winter(g, dice):
    give(g, "carthage")
    give(g, "rome")
    g.load_dice(list(dice))
    start_turn(g)
    pay_backlash(g)  # the arranged board may leave a side behind (seed 002 §18.2)
    assert "reinforcement" in prompt(g)


def winter(g):
    """(side, space, CUs, die, modifier, lost) of each winter attrition roll, in order."""
    return [(s, x, n, d, m, lost) for n, s, x, d, m, lost in said_values(g, WINTER)]


def test_winter_attrition_on_enemy_pcs_and_hostile_tribes():
    """seed 002 §17.1 ("alle GE's in een veld met een vijandelijke PK of in een veld met een niet
    bevriend volk"), §17.2 (one roll, column by the CUs present), §16.6 (the Boii are friendly to
    Carthage: hostile to Rome); seed 003 "Порядок хода" (4); RULINGS.md H-at-1. Nobody rolls on
    his own PC, in a friendly tribe or in a space without a PC."""
    g = board()
    add_cus(g, "carthage", "nola", 4)  # a Roman PC
    add_cus(g, "carthage", "taurini", 2)  # a neutral tribe
    add_cus(g, "carthage", "castulo", 3)  # its own PC
    add_cus(g, "carthage", "insubres", 3)  # a friendly tribe
    add_cus(g, "carthage", "arpi", 2)  # no PC
    add_cus(g, "rome", "boii", 5)  # a tribe friendly to Carthage
    add_cus(g, "rome", "ilergetes", 3)  # a neutral tribe
    add_cus(g, "rome", "roma", 4)
    to_winter(g, [6, 6, 6, 6])
    assert winter(g) == [
        ("carthage", "nola", 4, 6, 0, 1),
        ("carthage", "taurini", 2, 6, 0, 1),
        ("rome", "boii", 5, 6, 0, 2),
        ("rome", "ilergetes", 3, 6, 0, 1),
    ]
    assert len(cus(g, "nola")) == 3 and len(cus(g, "boii")) == 3
    assert len(cus(g, "castulo")) == 3 and len(cus(g, "insubres")) == 3
    assert len(cus(g, "roma")) == 4 and len(cus(g, "arpi")) == 2


def test_besiegers_roll_the_garrison_does_not():
    """seed 002 §17.1 ("GE's die een belegering doorvoeren, bevinden zich ook in een veld met een
    vijandelijke PK"), §16.2 (the CUs inside stand in their own walled city); RULINGS.md H-at-1."""
    g = board()
    add_cus(g, "carthage", "capua", 5)
    for u in add_cus(g, "rome", "capua", 2):
        _put(g, u, "garrison|capua")
    g.state["f"]["capua"].update(siege=1, besieger="carthage")
    to_winter(g, [4])
    assert winter(g) == [("carthage", "capua", 5, 4, 0, 1)]
    assert len(cus(g, "capua", "carthage")) == 4
    assert len(g.state["z"]["garrison|capua"]) == 2


def test_leaders_never_die_and_are_not_displaced():
    """seed 002 §17.2 ("Aanvoerders kunnen niet vallen, zelfs wanneer ze het laatste aanwezige GE
    zien sneuvelen"), §8.9 ("Een aanvoerder wordt niet verzet wanneer een GE door uitputting
    verslagen wordt"); RULINGS.md H-at-2: the consul stays in Hispalis without CUs."""
    g = board()
    set_leader(g, "flaminius", "hispalis", office="consul")
    add_cus(g, "rome", "hispalis", 1)
    to_winter(g, [6])
    assert winter(g) == [("rome", "hispalis", 1, 6, 0, 1)]
    assert cus(g, "hispalis") == []
    assert field(g, "flaminius", "where") == "map" and field(g, "flaminius", "at") == "hispalis"


def test_an_e_in_winter_costs_exactly_one_elephant():
    """seed 002 §13.2 ("alle GE's [kunnen] dit verlies opvangen tenzij een gebeurtenis 'e' op de
    uitputtingstabel staat. Deze dwingt de Carthagers een GE met olifanten van het bord te
    nemen"); RULINGS.md H-at-3: a 6 with 5 CUs loses 2 with an 'e': one elephant and one other."""
    g = board()
    add_cus(g, "carthage", "taurini", 3)
    add_cus(g, "carthage", "taurini", 2, elephant=True)
    to_winter(g, [6])
    assert winter(g) == [("carthage", "taurini", 5, 6, 0, 2)]
    assert said_values(g, ELEPHANT) == [["carthage", "taurini"]]
    assert len(cus(g, "taurini", elephant=True)) == 1
    assert len(cus(g, "taurini", elephant=False)) == 2


def test_no_e_spares_the_elephants():
    """seed 002 §13.2 (any CUs take losses without an 'e'); RULINGS.md H-at-3, H-bt-6: a 5 with
    5 CUs loses 1, not an elephant."""
    g = board()
    add_cus(g, "carthage", "taurini", 3)
    add_cus(g, "carthage", "taurini", 2, elephant=True)
    to_winter(g, [5])
    assert winter(g) == [("carthage", "taurini", 5, 5, 0, 1)]
    assert said_values(g, ELEPHANT) == []
    assert len(cus(g, "taurini", elephant=True)) == 2


def test_an_e_crossing_the_alps_costs_exactly_one_elephant():
    """seed 002 §13.2, §8.3.2 (the Alps: +1): pass attrition takes its losses the same way as the
    winter and the battle (RULINGS.md H-at-3): Hannibal crosses from the Allobroges to the
    Taurini with 6 CUs, 2 of them elephants; a 5 +1 loses 2 with an 'e': one elephant, one
    other (the old reading took both elephants)."""
    g = board()
    set_leader(g, "hannibal", "allobroges")
    add_cus(g, "carthage", "allobroges", 4)
    add_cus(g, "carthage", "allobroges", 2, elephant=True)
    carthage_moves(g)
    answer(g, 6)
    march(g, "taurini")
    g.load_dice([5])
    act(g, "stop")
    [[n, d, m, lost]] = said_values(
        g, "Attrition roll for {0:# CU|# CUs}: die {1}, modifier {2}; {3:# CU|# CUs} lost")
    assert (n, d, m, lost) == (6, 5, 1, 2)
    assert len(cus(g, "taurini", elephant=True)) == 1
    assert len(cus(g, "taurini", elephant=False)) == 3
