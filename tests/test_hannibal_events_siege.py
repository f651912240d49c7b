"""Hannibal: the strategy-card events about sieges and attrition (seed 002 card list #7, #8,
#17, #18, #21, #49-#54; §16.4-§16.5 sieges, §17.2 the attrition table, §8.8 sea moves).

Each test sets up a position by editing the state (tests/hannibal_play.py), plays the card and
answers the decisions by value, the dice loaded (g.load_dice). Rulings: RULINGS.md "Events:
sieges and attrition" (H-es-1 ...). The attrition table (tables.yaml `attrition`): a 6 costs 1
CU in the '1-2' and '3-4' columns, 2 in the '5-6' column; a 7 costs 2 in the '3-4' column. The
siege table gives a point on a modified 4 or more; Carthage has -1 without the siege train."""
from __future__ import annotations

from hannibal_play import (
    add_cus,
    add_garrison,
    answer,
    board,
    column,
    cus,
    field,
    give,
    inside,
    logged,
    options,
    prompt,
    set_leader,
    start_turn,
)
from hannibal_play import (
    said_values as says,
)

ATTRITION = ("Attrition roll for {n:# CU|# CUs} of {s} in {x}: die {d}, modifier {m}; "
             "{lost:# CU|# CUs} lost")
ROLL_SIEGE = "Siege roll at {x}: {d}, modifier {m}: a siege point for {s}, {p} in all"
ROLL_SUBJ = "Subjugation roll at {x}: {d}, modifier {m}: a point for {s}, {p} in all"
ROME_SPARE = ("diplomacy_36", "minor_campaign_38")
CARTHAGE_SPARE = ("diplomacy_35", "bad_weather")


def setup(g, carthage=CARTHAGE_SPARE, rome=ROME_SPARE, first="carthage"):
    give(g, "carthage", *carthage)
    give(g, "rome", *rome)
    start_turn(g, first=first)


def besiege(g, space: str, side: str, points: int) -> None:
    g.state["f"][space]["siege"] = points
    g.state["f"][space]["besieger"] = side


def card_asked(g) -> bool:
    """The next card is asked for (or, the last in hand, how it is used)."""
    return "play a strategy card" in prompt(g) or "for its ops, its event" in prompt(g)


# ---- cards 7 and 8: Hostile Tribes -------------------------------------------------------

def march_fabius(g, card: str, dest: str) -> None:
    """Rome plays `card` for ops: Fabius sets out from his space with his 4 CUs to `dest`."""
    answer(g, card, "ops", "move")
    if "go with him" in prompt(g):
        answer(g, 4)
    answer(g, "march", dest)


def test_hostile_tribes_fall_on_an_army_entering_liguria():
    """seed 002 card list #7 ("in deze provincie komt moet hij een uitputtingscontrole doorvoeren
    onder kolom 5,6"), §7.4.1 (a response in the other side's move): Fabius's 4 CUs march from
    Pisae (Etruria) into Luna (Liguria); Carthage answers with Hostile Tribes and a 6 in the
    '5,6' column costs 2 CUs (1 in his own '3-4' column). RULINGS.md H-es-1."""
    g = board()
    set_leader(g, "fabius", "pisae", office="proconsul")
    add_cus(g, "rome", "pisae", 4)
    setup(g, carthage=("hostile_tribes_7", "diplomacy_35"), first="rome")
    march_fabius(g, "diplomacy_36", "luna")
    assert g.decision.window == "entry_response" and g.decision.side == "carthage"
    assert "hostile_tribes_7" in options(g)
    g.load_dice([6])
    answer(g, "hostile_tribes_7")
    assert len(column(g, "fabius")) == 2
    assert says(g, ATTRITION) == [[4, "rome", "luna", 6, 0, 2]]
    assert g.state["loc"]["hostile_tribes_7"] == "discard"
    answer(g, "stop")
    assert len(cus(g, "luna", "rome")) == 2 and card_asked(g)


def test_hostile_tribes_in_ones_own_turn():
    """seed 002 card list #7 ("een leger in Gal. Trans. of Liguria heeft": an army already
    there), §7.4.1 (a response event may also be played in the other side's turn): in its own
    turn Carthage plays Hostile Tribes as an event on Fabius's 4 CUs in Luna; with no enemy army
    in either province it is offered for ops only. RULINGS.md H-es-2."""
    g = board()
    set_leader(g, "fabius", "luna", office="proconsul")
    add_cus(g, "rome", "luna", 4)
    setup(g, carthage=("hostile_tribes_7", "diplomacy_35"))
    answer(g, "hostile_tribes_7")
    assert "event" in options(g)
    g.load_dice([6])
    answer(g, "event")
    assert says(g, ATTRITION) == [[4, "rome", "luna", 6, 0, 2]]
    assert len(cus(g, "luna", "rome")) == 2
    g = board()
    setup(g, carthage=("hostile_tribes_8", "diplomacy_35"))
    answer(g, "hostile_tribes_8")
    assert "event" not in options(g) and "ops" in options(g)


def test_hostile_tribes_not_within_the_province_nor_elsewhere():
    """seed 002 card list #8 (the same event: Gallia Transalpina or Liguria, entered): a march
    from Luna to Genua stays inside Liguria and a march from Pisae to Faesulae stays in Etruria;
    no window opens and nothing is lost. RULINGS.md H-es-1."""
    g = board()
    set_leader(g, "fabius", "luna", office="proconsul")
    add_cus(g, "rome", "luna", 4)
    set_leader(g, "marcellus", "pisae")
    add_cus(g, "rome", "pisae", 4)
    setup(g, carthage=("hostile_tribes_8", "diplomacy_35"), first="rome")
    answer(g, "diplomacy_36", "ops", "move", "fabius", 4, "march", "genua")
    assert g.decision.window is None and "what next" in prompt(g)
    answer(g, "stop")
    answer(g, "diplomacy_35", "discard")
    answer(g, "ops", "move", "marcellus", 4, "march", "faesulae")  # Rome's last card
    assert g.decision.window is None
    assert not says(g, ATTRITION)
    assert g.state["loc"]["hostile_tribes_8"] == "hand|carthage"


# ---- card 17: Surprise Sortie --------------------------------------------------------------

def test_surprise_sortie_removes_one_siege_point():
    """seed 002 card list #17 ("Het garnizoen doet een uitval en verwijdert een eventueel
    belegeringspunt"): Capua, besieged by Carthage with 2 points, sallies: 1 point is left; a
    second sortie takes the last and the siege marker goes. RULINGS.md H-es-3."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    add_garrison(g, "rome", "capua", 2)
    besiege(g, "capua", "carthage", 2)
    setup(g, rome=("surprise_sortie", "diplomacy_36"), first="rome")
    answer(g, "surprise_sortie", "event")
    assert field(g, "capua", "siege") == 1 and field(g, "capua", "besieger") == "carthage"
    assert "The garrison of Capua sallies out and removes a siege point: 1 left" in logged(g)


def test_surprise_sortie_without_a_besieged_city_does_nothing():
    """seed 002 card list #17: with no walled city of its own besieged (Carthage's points against
    a tribe do not count: §16.4 note) the sortie has no target. RULINGS.md H-es-3."""
    g = board()
    set_leader(g, "hannibal", "volcae")
    add_cus(g, "carthage", "volcae", 3)
    besiege(g, "volcae", "carthage", 1)
    setup(g, rome=("surprise_sortie", "diplomacy_36"), first="rome")
    answer(g, "surprise_sortie", "event")
    assert field(g, "volcae", "siege") == 1
    assert "No walled city of Rome is besieged: the sortie has no target" in logged(g)


# ---- card 18: Traitor in Tarentum ------------------------------------------------------------

def test_traitor_in_tarentum_opens_the_gates():
    """seed 002 card list #18 ("Wanneer deze kaart als OK gespeeld wordt om Tarentum te gaan
    belegeren valt deze stad zomaar in je handen. Vijandelijke legers worden vernietigd"), §7.2
    (dual use): Hannibal marches with 3 CUs from Venusia to Tarentum and besieges it: no roll, the
    city is Carthage's and the 2 Roman CUs inside are eliminated; the card leaves the game
    (§7.4.2). RULINGS.md H-es-4."""
    g = board()
    set_leader(g, "hannibal", "venusia")
    add_cus(g, "carthage", "venusia", 3)
    add_garrison(g, "rome", "tarentum", 2)
    setup(g, carthage=("traitor_in_tarentum", "diplomacy_35"))
    assert "both" in options(g) or "traitor_in_tarentum" in options(g)
    answer(g, "traitor_in_tarentum", "both", "move", 3, "march", "tarentum")
    answer(g, 2, "stop")  # Rome's 2 CUs stay inside the walls (§16.2)
    assert "roll to besiege" in prompt(g)
    answer(g, True)
    assert field(g, "tarentum", "pc") == "carthage" and field(g, "tarentum", "siege") == 0
    assert not inside(g, "tarentum")
    assert not says(g, ROLL_SIEGE)
    assert "Traitors open the gates of Tarentum to Carthage" in logged(g)
    assert g.state["loc"]["traitor_in_tarentum"] == "removed"


def test_traitor_in_tarentum_needs_three_cus():
    """seed 002 card list #18 ("Uw leger moet minstens 3 GE's bevatten"), §16.4: with 2 CUs no
    siege is offered and Tarentum stays Roman."""
    g = board()
    set_leader(g, "hannibal", "venusia")
    add_cus(g, "carthage", "venusia", 2)
    add_garrison(g, "rome", "tarentum", 2)
    setup(g, carthage=("traitor_in_tarentum", "diplomacy_35"))
    answer(g, "traitor_in_tarentum", "both", "move", 2, "march", "tarentum")
    answer(g, 2, "stop")
    assert card_asked(g)
    assert field(g, "tarentum", "pc") == "rome" and len(inside(g, "tarentum")) == 2


# ---- card 21: Mercenaries Desert ---------------------------------------------------------------

def test_mercenaries_desert():
    """seed 002 card list #21 ("De Carthager moet voor alle GE's een uitputtingstest doen.
    Behalve voor GE's in eigen vestingen. ... legeraanvoerder ... kleiner of gelijk aan de
    gevechtswaarde"): Hannibal (battle 4) rolls 3 and his 4 CUs in Nola are spared; Hasdrubal
    (battle 2) rolls 5 and his 3 CUs in Venusia roll attrition (6: 1 lost); 2 CUs without a
    leader in Luna roll (6: 1 lost); the 4 CUs in Carthago, Carthage's own walled city, do not.
    Spaces in map order. RULINGS.md H-es-5."""
    g = board()
    set_leader(g, "hannibal", "nola")
    add_cus(g, "carthage", "nola", 4)
    set_leader(g, "hasdrubal", "venusia")
    add_cus(g, "carthage", "venusia", 3)
    add_cus(g, "carthage", "luna", 2)
    add_cus(g, "carthage", "carthago", 4)
    setup(g, rome=("mercenaries_desert", "diplomacy_36"), first="rome")
    g.load_dice([3, 5, 6, 6])
    answer(g, "mercenaries_desert", "event")
    assert says(g, ATTRITION) == [[3, "carthage", "venusia", 6, 0, 1],
                                  [2, "carthage", "luna", 6, 0, 1]]
    assert [len(cus(g, x, "carthage")) for x in ("nola", "venusia", "luna", "carthago")] == [
        4, 2, 1, 4]


def test_mercenaries_desert_is_romes_event():
    """seed 002 card list #21 (it hits Carthaginian CUs only: Rome's event; research §11.3):
    Carthage may play it for ops or discard it, not as an event."""
    g = board()
    set_leader(g, "hannibal", "nola")
    add_cus(g, "carthage", "nola", 4)
    setup(g, carthage=("mercenaries_desert", "diplomacy_35"))
    answer(g, "mercenaries_desert")
    assert "event" not in options(g) and "ops" in options(g)


# ---- card 49: Opposing Fleet Breaks Siege --------------------------------------------------

def test_fleet_breaks_the_sieges_of_ones_own_ports():
    """seed 002 card list #49 ("Alle belegeringspunten, die een vijandelijke vloot heeft,
    vervallen"), §16.5 (lapsed points): Rome's Tarentum (a port) loses Carthage's 2 points;
    Capua, inland, keeps its point. RULINGS.md H-es-6."""
    g = board()
    set_leader(g, "hannibal", "tarentum")
    add_cus(g, "carthage", "tarentum", 3)
    besiege(g, "tarentum", "carthage", 2)
    set_leader(g, "mago", "capua")
    add_cus(g, "carthage", "capua", 3)
    besiege(g, "capua", "carthage", 1)
    setup(g, rome=("opposing_fleet_breaks_siege", "diplomacy_36"), first="rome")
    answer(g, "opposing_fleet_breaks_siege", "event")
    assert field(g, "tarentum", "siege") == 0 and field(g, "tarentum", "besieger") is None
    assert field(g, "capua", "siege") == 1
    assert "The siege of Tarentum by Carthage is broken off: its 2 points lapse" in logged(g)


def test_fleet_finds_no_siege_to_break():
    """seed 002 card list #49: only an inland city is besieged; nothing lapses."""
    g = board()
    set_leader(g, "mago", "capua")
    add_cus(g, "carthage", "capua", 3)
    besiege(g, "capua", "carthage", 1)
    setup(g, rome=("opposing_fleet_breaks_siege", "diplomacy_36"), first="rome")
    answer(g, "opposing_fleet_breaks_siege", "event")
    assert field(g, "capua", "siege") == 1
    assert "No walled port of Rome is besieged: the fleet finds no siege to break" in logged(g)


# ---- card 50: Adriatic Pirates -----------------------------------------------------------------

def pirates_sail(g, n: int, dest: str) -> None:
    """Carthage plays Adriatic Pirates for event and ops: Hasdrubal takes n CUs to sea."""
    answer(g, "adriatic_pirates", "both", "move", n, "sea", dest)
    assert g.decision.window == "sea_response"
    answer(g, None)


def test_adriatic_pirates_spare_the_naval_roll():
    """seed 002 card list #50 ("voor niet meer dan 3 GE's, en de landingsplaats Brundisium,
    Croton of Tarentum is, wordt er niet op de zeegevechtentabel gedobbeld. Er moet zeker een
    aanvoerder bij zijn"), §8.8.3: Hasdrubal sails from Carthago to Croton with 3 CUs; Rome makes
    no naval roll and he lands. RULINGS.md H-es-7."""
    g = board()
    set_leader(g, "hasdrubal", "carthago")
    add_cus(g, "carthage", "carthago", 5)
    setup(g, carthage=("adriatic_pirates", "diplomacy_35"))
    pirates_sail(g, 3, "croton")
    assert field(g, "hasdrubal", "at") == "croton" and len(column(g, "hasdrubal")) == 3
    assert not says(g, "Rome's naval roll: die {r}, modifier {m}")
    assert "Pirates bring the fleet through to Croton: Rome makes no naval roll" in logged(g)


def test_adriatic_pirates_not_with_four_cus():
    """seed 002 card list #50 (no more than 3 CUs), §8.8.3: with 4 CUs Rome rolls as usual."""
    g = board()
    set_leader(g, "hasdrubal", "carthago")
    add_cus(g, "carthage", "carthago", 5)
    setup(g, carthage=("adriatic_pirates", "diplomacy_35"))
    g.load_dice([3])
    pirates_sail(g, 4, "croton")
    assert len(says(g, "Rome's naval roll: die {r}, modifier {m}")) == 1


# ---- card 51: Epidemic ---------------------------------------------------------------------

def test_epidemic_strikes_one_enemy_army():
    """seed 002 card list #51 ("Eén vijandelijk leger moet dobbelen op de uitputtingstabel"),
    §17.2: Carthage picks Fabius's 4 CUs in Nola, not Marcellus's in Pisae; a 6 in the '3-4'
    column costs 1 CU. RULINGS.md H-es-8."""
    g = board()
    set_leader(g, "fabius", "nola", office="proconsul")
    add_cus(g, "rome", "nola", 4)
    set_leader(g, "marcellus", "pisae")
    add_cus(g, "rome", "pisae", 4)
    setup(g, carthage=("epidemic", "diplomacy_35"))
    answer(g, "epidemic", "event")
    assert set(options(g)) == {"nola", "pisae"}
    g.load_dice([6])
    answer(g, "nola")
    assert says(g, ATTRITION) == [[4, "rome", "nola", 6, 0, 1]]
    assert len(cus(g, "nola", "rome")) == 3 and len(cus(g, "pisae", "rome")) == 4


def test_epidemic_without_an_enemy_army():
    """seed 002 card list #51: Rome has no CUs on the map (those inside walls are no army in the
    field: RULINGS.md H-es-8); nothing happens."""
    g = board()
    add_garrison(g, "rome", "roma", 3)
    setup(g, carthage=("epidemic", "diplomacy_35"))
    answer(g, "epidemic", "event")
    assert card_asked(g) and len(inside(g, "roma")) == 3
    assert "Rome has no army on the map: the epidemic strikes no one" in logged(g)


# ---- card 52: Pestilence -------------------------------------------------------------------

def test_pestilence_strikes_a_besieging_army_at_plus_one():
    """seed 002 card list #52 ("Een belegeringsleger moet op de uitputtingstabel dobbelen met een
    dobbelsteenaanpassing van +1"), §16.5: Carthage's 3 CUs besieging Capua roll 6+1: 2 lost in
    the '3-4' column; the one left keeps the siege. RULINGS.md H-es-9."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    besiege(g, "capua", "carthage", 1)
    setup(g, rome=("pestilence", "diplomacy_36"), first="rome")
    g.load_dice([6])
    answer(g, "pestilence", "event")
    assert says(g, ATTRITION) == [[3, "carthage", "capua", 6, 1, 2]]
    assert len(cus(g, "capua", "carthage")) == 1 and field(g, "capua", "siege") == 1


def test_pestilence_spares_a_subjugating_army():
    """seed 002 card list #52, §16.4 note (an event about sieges is not about subjugations):
    Carthage's army subjugating the Volcae is no target; nothing happens."""
    g = board()
    set_leader(g, "hannibal", "volcae")
    add_cus(g, "carthage", "volcae", 3)
    besiege(g, "volcae", "carthage", 1)
    setup(g, rome=("pestilence", "diplomacy_36"), first="rome")
    answer(g, "pestilence", "event")
    assert not says(g, ATTRITION) and len(cus(g, "volcae", "carthage")) == 3
    assert "No army besieges a walled city: the pestilence strikes no one" in logged(g)


# ---- card 53: Tribal Resistance -------------------------------------------------------------

def test_tribal_resistance_cancels_subjugation_points_only():
    """seed 002 card list #53 ("Gespaarde onderwerpingspunten worden opgeheven"), §16.4 note:
    Carthage's 2 points against the Volcae lapse; its siege point at Capua stays. RULINGS.md
    H-es-10."""
    g = board()
    set_leader(g, "hannibal", "volcae")
    add_cus(g, "carthage", "volcae", 3)
    besiege(g, "volcae", "carthage", 2)
    set_leader(g, "mago", "capua")
    add_cus(g, "carthage", "capua", 3)
    besiege(g, "capua", "carthage", 1)
    setup(g, rome=("tribal_resistance", "diplomacy_36"), first="rome")
    answer(g, "tribal_resistance", "event")
    assert field(g, "volcae", "siege") == 0 and field(g, "volcae", "besieger") is None
    assert field(g, "capua", "siege") == 1
    assert "The subjugation of Volcae by Carthage is broken off: its 2 points lapse" in logged(g)


def test_tribal_resistance_without_points():
    """seed 002 card list #53: no tribe is being subjugated; nothing changes."""
    g = board()
    setup(g, rome=("tribal_resistance", "diplomacy_36"), first="rome")
    answer(g, "tribal_resistance", "event")
    assert "No tribe is being subjugated: the resistance changes nothing" in logged(g)


# ---- card 54: Treachery within City -----------------------------------------------------------

def test_treachery_within_city_rolls_twice():
    """seed 002 card list #54 ("Wanneer deze kaart als Ok wordt gespeeld, om een belegering op te
    zetten, mag de speler 2x op de belegeringstabel dobbelen"); research/hannibal.md §7 (AH
    errata E1: dual use): Hannibal at Capua rolls 5 and 6: two siege points. RULINGS.md H-es-11."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    setup(g, carthage=("treachery_within_city", "diplomacy_35"))
    answer(g, "treachery_within_city", "both", "move", 3, "stop")
    assert "roll to besiege" in prompt(g)
    g.load_dice([5, 6])
    answer(g, True)
    assert says(g, ROLL_SIEGE) == [["capua", 5, -1, "carthage", 1],
                                   ["capua", 6, -1, "carthage", 2]]
    assert field(g, "capua", "siege") == 2


def test_treachery_within_city_not_in_a_subjugation():
    """seed 002 card list #54, §16.4 note (an event about sieges is not about subjugations): at
    the Volcae, a tribe, Carthage rolls once."""
    g = board()
    set_leader(g, "hannibal", "volcae")
    add_cus(g, "carthage", "volcae", 3)
    setup(g, carthage=("treachery_within_city", "diplomacy_35"))
    answer(g, "treachery_within_city", "both", "move", 3, "stop")
    assert "roll to subjugate" in prompt(g)
    g.load_dice([6, 6])
    answer(g, True)
    assert field(g, "volcae", "siege") == 1
    assert len(says(g, ROLL_SUBJ)) == 1
