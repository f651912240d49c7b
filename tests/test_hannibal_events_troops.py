"""Hannibal: the strategy-card events that place CUs (seed 002, "Vertaling van de Operatie- en
Gebeurteniskaarten", card list #10-#16, #23, #43, #44-#48; §6.3 no CUs into a besieged city;
§13.1 elephants). RULINGS.md "Events: troops" (H-et-1 ...) records the readings tested here.

Each test sets a position, plays the card as its event and checks where the CUs stand, and
checks the position where the card's condition fails: then the event is either not offered
(the play rules may gate it on `troop_event_possible`) or it places nothing (H-et-2)."""
from __future__ import annotations

import pytest
from hannibal_play import (
    add_cus,
    answer,
    board,
    cus,
    give,
    options,
    prompt,
    said_values,
    set_leader,
    set_pc,
    set_var,
)

from engine.core.game import Game

PLACED = "{s} places {n:# CU|# CUs} in {x}"
FILLER = "epidemic"  # a second card in hand, so the card to play is chosen, not forced


def play_event(g: Game, side: str, card: str) -> bool:
    """The side plays `card` first in turn 1. True when it is played as an event; False when
    the event is not offered (then it is played for nothing)."""
    give(g, side, card, FILLER)
    answer(g, None, side == "rome", card)
    if "event" not in options(g):
        return False
    answer(g, "event")
    return True


def assert_nothing_placed(g: Game, side: str, card: str) -> None:
    """H-et-2: the event is not offered, or it is played and places no CU."""
    before = sum(1 for u in g.state["made"].get("cu", []))
    played = play_event(g, side, card)
    if played:
        assert "nothing happens" in "\n".join(
            str(e.get("m")) for e in g.log if e.get("t") == "say")
    assert said_values(g, PLACED) == [] and said_values(g, "{s} places a CU in {x}") == []
    assert sum(1 for u in g.state["made"].get("cu", [])) == before


def set_province(g: Game, side: str | None, spaces: list[str]) -> None:
    for x in spaces:
        set_pc(g, x, side)


CAMPANIA = ["capua", "neapolis", "nola"]
APULIA = ["luceria", "arpi", "cannae", "venusia", "tarentum", "brundisium"]
ETRURIA = ["pisae", "faesulae", "arretium", "perusia", "spoletium", "tarquinii"]
SAMNIUM = ["beneventum", "aesernia", "bovianum", "alba_fucens", "firmum", "hadria", "larinum"]
LUCANIA = ["paestum", "grumentum", "metapontum", "thurii", "bruttii", "croton", "rhegium"]
CELTIBERIA = ["toletum", "salmantica", "segobriga", "numantia"]


# ---- #10 Macedonian Reinforcements ------------------------------------------------------------

def test_10_macedonian_reinforcements_in_an_own_port_of_africa_or_italia():
    """card list #10: 2 Carthaginian CUs in an own port in Africa or Italia, while Macedonia is
    allied (card 9); H-et-3. Italian and African ports with a Carthaginian PC, not a besieged one
    (§6.3) nor one with Roman CUs; Spanish ports are not offered."""
    g = board(2)
    set_var(g, "macedonia_allied", True)
    set_pc(g, "croton", "carthage")  # an Italian port turned Carthaginian
    add_cus(g, "rome", "hadrumetum", 1)  # Roman CUs in a Carthaginian port
    g.state["f"]["utica"].update(siege=1, besieger="rome")  # besieged: no CUs go in
    assert play_event(g, "carthage", "macedonian_reinforcements")
    assert "place the CUs" in prompt(g)
    assert set(options(g)) == {"carthago", "hippo_regius", "siga", "iol", "saldae", "croton"}
    answer(g, "croton")
    assert len(cus(g, "croton", "carthage")) == 2
    assert said_values(g, PLACED) == [["carthage", 2, "croton"]]


def test_10_not_without_the_macedonian_alliance():
    """card list #10 ("Kan enkel gespeeld worden tijdens het bondgenootschap"); H-et-2, H-et-3."""
    g = board(2)
    assert_nothing_placed(g, "carthage", "macedonian_reinforcements")


# ---- #11 Balearic Slingers --------------------------------------------------------------------

def test_11_balearic_slingers_one_cu_in_a_port_with_own_pc_and_no_enemy_army():
    """card list #11: with the Balearics, 1 CU in a port with one's PC and no foreign army (no
    enemy CUs, no enemy leader: H-et-4)."""
    g = board(2)
    add_cus(g, "rome", "malaca", 2)
    set_leader(g, "fabius", "baria")
    assert play_event(g, "carthage", "balearic_slingers")
    offered = set(options(g))
    assert "balearic_islands" in offered and "gades" in offered and "carthago" in offered
    assert "malaca" not in offered and "baria" not in offered and "ostia" not in offered
    answer(g, "gades")
    assert len(cus(g, "gades", "carthage")) == 1
    assert said_values(g, "{s} places a CU in {x}") == [["carthage", "gades"]]


def test_11_not_without_the_balearics():
    """card list #11 ("Wanneer je de Balearen controleert"); H-et-2."""
    g = board(2)
    set_pc(g, "balearic_islands", "rome")
    assert_nothing_placed(g, "carthage", "balearic_slingers")


# ---- #12 African Reinforcements ---------------------------------------------------------------

def test_12_an_elephant_counter_worth_two_cus_in_carthago():
    """card list #12, §13.1: one elephant counter worth 2 CUs in Carthago; H-et-5."""
    g = board(2)
    add_cus(g, "carthage", "saguntum", 2, elephant=True)  # Hannibal's counter
    assert play_event(g, "carthage", "african_reinforcements")
    assert len(cus(g, "carthago", "carthage", elephant=True)) == 2
    assert cus(g, "carthago", "carthage", elephant=False) == []


def test_12_two_ordinary_cus_when_no_elephant_counter_is_left():
    """card list #12 ("wanneer dit niet mogelijk is twee gewone GE's"), §13.1 (at most 4 elephant
    CUs); research/hannibal.md §11.4.9; H-et-5."""
    g = board(2)
    add_cus(g, "carthage", "saguntum", 3, elephant=True)
    assert play_event(g, "carthage", "african_reinforcements")
    assert cus(g, "carthago", "carthage", elephant=True) == []
    assert len(cus(g, "carthago", "carthage", elephant=False)) == 2
    assert said_values(g, PLACED) == [["carthage", 2, "carthago"]]


def test_12_nothing_into_a_besieged_carthago():
    """card list #12, §6.3 (no CUs into a besieged city); H-et-5."""
    g = board(2)
    g.state["f"]["carthago"].update(siege=1, besieger="rome")
    assert_nothing_placed(g, "carthage", "african_reinforcements")


# ---- #13, #14, #16 recruits with a leader -----------------------------------------------------

@pytest.mark.parametrize("card, space", [
    ("bruttium_recruits", "grumentum"),  # #13 Lucania
    ("ligurian_recruits", "luna"),  # #14 Liguria
    ("ligurian_recruits", "faesulae"),  # #14 Etruria
    ("ligurian_recruits", "mutina"),  # #14 Gallia Cisalpina
    ("gallic_recruits", "narbo"),  # #16 Gallia Transalpina
    ("gallic_recruits", "patavium"),  # #16 Gallia Cisalpina
])
def test_13_14_16_two_cus_with_a_carthaginian_leader(card, space):
    """card list #13 (Lucania), #14 (Liguria, Cisalpina, Etruria), #16 (Gallia Trans. or Cis.):
    2 Carthaginian CUs in a space of those provinces where a Carthaginian leader stands; H-et-1."""
    g = board(2)
    set_leader(g, "mago", space)
    set_leader(g, "hanno", "carthago")  # a leader elsewhere: not a place for these CUs
    assert play_event(g, "carthage", card)
    assert len(cus(g, space, "carthage")) == 2
    assert said_values(g, PLACED) == [["carthage", 2, space]]


@pytest.mark.parametrize("card, space", [
    ("bruttium_recruits", "faesulae"),  # #13: Etruria is not Lucania
    ("ligurian_recruits", "grumentum"),  # #14: Lucania is none of the three
    ("gallic_recruits", "genua"),  # #16: Liguria is neither Gallia
])
def test_13_14_16_not_without_a_leader_in_the_province(card, space):
    """card list #13, #14, #16 ("als er een aanvoerder staat"): a leader elsewhere does not do;
    H-et-1, H-et-2."""
    g = board(2)
    set_leader(g, "mago", space)
    assert_nothing_placed(g, "carthage", card)


def test_13_not_beside_enemy_cus():
    """H-et-1 (as reinforcements, H-rf-1): a leader's space with enemy CUs outside the walls is no
    place for new CUs."""
    g = board(2)
    set_leader(g, "mago", "grumentum")
    add_cus(g, "rome", "grumentum", 3)
    assert_nothing_placed(g, "carthage", "bruttium_recruits")


# ---- #15 Iberian Recruits ---------------------------------------------------------------------

def test_15_two_cus_with_a_leader_in_a_controlled_spanish_province():
    """card list #15: 2 CUs where a leader stands in a Spanish province the side controls
    (§15.1: most of its spaces); H-et-6."""
    g = board(2)
    set_leader(g, "hasdrubal", "toletum")  # Celtiberia: 3 of 4 Carthaginian
    assert play_event(g, "carthage", "iberian_recruits")
    assert len(cus(g, "toletum", "carthage")) == 2


def test_15_not_in_a_spanish_province_not_controlled():
    """card list #15 ("in een gecontroleerde provincie"); H-et-6."""
    g = board(2)
    set_province(g, None, CELTIBERIA[1:])
    set_leader(g, "hasdrubal", "toletum")
    assert_nothing_placed(g, "carthage", "iberian_recruits")


# ---- #23 Numidian Ally ------------------------------------------------------------------------

def test_23_rome_places_up_to_three_cus_in_numidia_without_carthaginian_cus():
    """card list #23 (Rome's event, research/hannibal.md §11.3): up to 3 Roman CUs in a space of
    either Numidia that holds no Carthaginian CU; the number is Rome's choice; H-et-7."""
    g = board(2)
    add_cus(g, "carthage", "cirta", 1)
    assert play_event(g, "rome", "numidian_ally")
    offered = set(options(g))
    assert "cirta" not in offered and {"siga", "theveste", "hippo_regius"} <= offered
    assert "zama" not in offered  # Carthaginia is no Numidia
    answer(g, "theveste")
    assert options(g) == [1, 2, 3]
    answer(g, 3)
    assert len(cus(g, "theveste", "rome")) == 3
    assert said_values(g, PLACED) == [["rome", 3, "theveste"]]


def test_23_not_where_every_numidian_space_holds_carthaginian_cus():
    """card list #23 ("dat geen GE van de Carthagers bevat"); H-et-2, H-et-7."""
    g = board(2)
    for x in ["cirta", "hippo_regius", "theveste", "thabraca", "siga", "iol", "icosium",
              "saldae"]:
        add_cus(g, "carthage", x, 1)
    assert_nothing_placed(g, "rome", "numidian_ally")


# ---- #43 Two Legions of Slaves Raised ---------------------------------------------------------

def test_43_four_cus_in_latium_when_carthage_holds_three_italian_provinces():
    """card list #43: when Carthage controls at least 3 Italian provinces, Rome places 4 CUs in
    Latium, where no enemy CUs stand; H-et-8."""
    g = board(2)
    for spaces in (CAMPANIA, APULIA, SAMNIUM):
        set_province(g, "carthage", spaces)
    add_cus(g, "carthage", "tarracina", 2)
    assert play_event(g, "rome", "two_legions_of_slaves_raised")
    assert "tarracina" not in options(g)
    answer(g, "praeneste")
    assert len(cus(g, "praeneste", "rome")) == 4
    assert said_values(g, PLACED) == [["rome", 4, "praeneste"]]


def test_43_not_while_carthage_holds_fewer_than_three():
    """card list #43 ("Deze kaart mag slechts uitgespeeld worden wanneer de Carthager minstens 3
    Italiaanse provincies controleert"); H-et-2, H-et-8."""
    g = board(2)
    for spaces in (CAMPANIA, APULIA):
        set_province(g, "carthage", spaces)
    assert_nothing_placed(g, "rome", "two_legions_of_slaves_raised")


# ---- #44-#48 Allied Auxiliaries ---------------------------------------------------------------

AUXILIARIES = [
    ("allied_auxiliaries_44", APULIA),
    ("allied_auxiliaries_45", ETRURIA),
    ("allied_auxiliaries_46", SAMNIUM),
    ("allied_auxiliaries_47", LUCANIA),
    ("allied_auxiliaries_48", CAMPANIA),
]


@pytest.mark.parametrize("card, province", AUXILIARIES)
def test_44_48_two_cus_with_a_roman_leader_in_italia(card, province):
    """card list #44-#48 (Rome's events, research/hannibal.md §11.3): if Rome controls the
    province (as printed, §4), 2 CUs with a Roman leader in Italia; a leader outside Italia is no
    place; H-et-9."""
    g = board(2)
    set_leader(g, "fabius", "cremona", office="consul")
    set_leader(g, "varro", "messana", office="consul")  # Sicilia: not Italia
    assert play_event(g, "rome", card)
    assert len(cus(g, "cremona", "rome")) == 2
    assert cus(g, "messana", "rome") == []
    assert said_values(g, PLACED) == [["rome", 2, "cremona"]]


@pytest.mark.parametrize("card, province", AUXILIARIES)
def test_44_48_not_without_the_province(card, province):
    """card list #44-#48 ("Wanneer de Romein ... controleert"); H-et-2, H-et-9."""
    g = board(2)
    set_province(g, None, province)
    set_leader(g, "fabius", "cremona", office="consul")
    assert_nothing_placed(g, "rome", card)
