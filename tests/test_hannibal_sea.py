"""Hannibal: naval movement and Rome's naval supremacy, played (content/hannibal/sea.rules).

seed 002 §8.8 (a leader, with or without CUs, goes from port to port on an ops-3 card or a
campaign card, both with the ship; 3 of the movement allowance), §8.8.1 (enemy ports; besieged
cities), §8.8.2 (5 CUs on an ops card, 10 on a campaign card, one army), §8.8.3 (Rome's naval
roll for every Carthaginian fleet, its modifiers and two worked examples), §8.9 (displacement),
§7.4.1 (response cards, here #41 and #60 against a fleet at sea); seed 003 "Движение морем".
Rulings: content/hannibal/RULINGS.md "Naval movement" (H-sea-1 ...).

Every move here is played through the pack's rules from a position set up by state editing
(tests/hannibal_play.py). Rolls are read from the log and the outcome checked against the naval
table of tables.yaml; where a test needs a given outcome it looks for a seed that gives it.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hannibal_play import (
    add_cus,
    answer,
    clear_board,
    column,
    cus,
    field,
    give,
    new_game,
    options,
    play_ops,
    prompt,
    set_leader,
    set_pc,
    set_var,
    start_turn,
)

TABLES = Path(__file__).resolve().parent.parent / "content" / "hannibal" / "tables.yaml"

CARTHAGE_OPS3 = "african_reinforcements"  # #12: ops 3, the ship, Carthage's event
CARTHAGE_OTHER = "minor_campaign_37"  # a second card, so that the card choice is asked
ROME_OPS3 = "two_legions_of_slaves_raised"  # #43: ops 3, the ship, Rome's event
ROME_OTHER = "corsica_and_sardinia_revolt"  # #1: answers no window
STORM_41 = "bad_weather"  # #41 "Zeestorm": the fleet goes back to its port
STORM_60 = "storms_at_sea"  # #60 "Zeestorm": attrition with +2


# ---- reading the game ---------------------------------------------------------------------

def says(g) -> list[tuple[str, list[Any]]]:
    """The rules' own log lines (`log "text", values`), as (text, values)."""
    return [(e["m"], list(e.get("a") or [])) for e in g.log if e.get("t") == "say"]


def said(g, text: str) -> list[list[Any]]:
    return [a for m, a in says(g) if m == text]


def naval_rolls(g) -> list[tuple[int, int]]:
    """(die, modifier) of each naval roll Rome made."""
    return [(a[0], a[1]) for a in said(g, "Rome's naval roll: die {0}, modifier {1}")]


def storm_losses(g) -> int:
    """The CUs the one storm (card 60) of the game took."""
    [[_, _, lost]] = said(g, "Storm at sea: die {0}, modifier {1}; {2:# CU|# CUs} lost")
    return lost


def naval_table(total: int) -> str:
    """The naval table of tables.yaml, read directly: the result for a modified roll."""
    tables = yaml.safe_load(TABLES.read_text())["table"]
    rows = next(t for t in tables if t["id"] == "naval")["rows"]
    keys = {int(str(k).rstrip("+")): v for k, v in rows.items()}
    return keys[max(min(total, max(keys)), min(keys))]


def at(g, leader: str) -> str | None:
    return field(g, leader, "at")


def where(g, leader: str) -> str:
    return field(g, leader, "where")


def zone_of(g, card: str) -> str:
    return g.state["loc"][card]


# ---- setting up a sea move -----------------------------------------------------------------

def position(seed: int, *, leader: str = "hasdrubal", side: str = "carthage",
             start: str = "carthago", n: int = 3, mine: tuple[str, ...] = (),
             theirs: tuple[str, ...] = (ROME_OTHER,), setup: Callable | None = None):
    """A game at the first card play of the strategy phase: `leader` alone on the map with n
    CUs in `start`; the mover holds an ops-3 ship card and another card (or `mine`), the
    other side holds `theirs`."""
    g = new_game(seed)
    clear_board(g)
    set_leader(g, leader, start, office="proconsul" if leader == "scipio_africanus" else "none")
    if n:
        add_cus(g, side, start, n)
    other = "rome" if side == "carthage" else "carthage"
    ops3, spare = ((CARTHAGE_OPS3, CARTHAGE_OTHER) if side == "carthage"
                   else (ROME_OPS3, ROME_OTHER))
    give(g, side, *(mine or (ops3, spare)))
    give(g, other, *theirs)
    if setup:
        setup(g)
    start_turn(g, side)
    return g


def to_sea(g, *, card: str | None = None, take: int | None = None) -> None:
    """The mover plays its ops-3 card to move its leader, takes `take` CUs (all by default)
    and chooses the sea move."""
    side = g.decision.side
    play_ops(g, card or (CARTHAGE_OPS3 if side == "carthage" else ROME_OPS3), "move")
    if "which leader moves" in prompt(g):  # the commander, not a subordinate (§8.7)
        answer(g, next(k for k in options(g) if field(g, k, "chief") is None))
    if "sets out from" in prompt(g):  # how many CUs go with him (§8.2)
        answer(g, max(options(g)) if take is None else take)
    assert "sea" in options(g), options(g)
    answer(g, "sea")


def sail(seed: int, dest: str, *, respond: Any = None, **kw):
    """A sea move to `dest`, the other side answering its window with `respond` (None: pass)."""
    g = position(seed, **kw)
    to_sea(g)
    answer(g, dest)
    assert g.decision.window == "sea_response"
    answer(g, respond)
    return g


def find_seed(make: Callable[[int], Any], want: Callable[[Any], bool], tries: int = 200):
    """The first game, over seeds 1..tries, whose played outcome `want` accepts."""
    for seed in range(1, tries + 1):
        g = make(seed)
        if want(g):
            return g
    raise AssertionError("no seed gives the outcome wanted")


# ---- port to port, 3 of the allowance (seed 002 §8.8) ----------------------------------------

def test_sea_move_port_to_port_costs_three():
    """seed 002 §8.8: from a port to a port, with a ship card; it costs 3 of the 4 spaces, so one
    land space may follow; one sea move per card (seed 003 "Движение морем": "считается за 3
    ОП")."""
    g = sail(1, "new_carthage")
    assert at(g, "hasdrubal") == "new_carthage"
    assert all(field(g, u, "moved") == 3 for u in column(g, "hasdrubal"))
    acts = options(g)
    assert "sea" not in acts and "march" in acts
    answer(g, "march")
    steps = options(g)
    assert steps  # the land spaces one movement point away
    answer(g, steps[0])
    assert "march" not in options(g) and "sea" not in options(g)


def test_one_land_space_before_the_sea_move():
    """seed 002 §8.8: "voor of na deze beweging nog één veld": a space, then the sea move; two
    spaces leave no room for it (4 - 2 < 3)."""
    g = position(1, start="tunes")
    play_ops(g, CARTHAGE_OPS3, "move")
    answer(g, 3, "march", "carthago")
    assert "sea" in options(g)
    g = position(1, start="zama")
    play_ops(g, CARTHAGE_OPS3, "move")
    answer(g, 3, "march", "tunes", "march", "carthago")
    assert "sea" not in options(g)


def test_only_from_a_port_and_only_to_ports():
    """seed 002 §8.8: "van een havenveld naar een ander havenveld"."""
    g = position(1, start="tunes")
    play_ops(g, CARTHAGE_OPS3, "move")
    answer(g, 3)
    assert "sea" not in options(g)  # Tunes is no port
    g = position(1)
    to_sea(g)
    ports = options(g)
    assert ports and all(g.pack.records[y]["port"] for y in ports)
    assert "carthago" not in ports and "tunes" not in ports


def test_no_sea_move_without_a_ship_card():
    """seed 002 §8.8, §7.2: only an ops-3 card or a campaign card carries the ship."""
    g = position(1, mine=("syracuse_allies_with_carthage", CARTHAGE_OTHER))  # ops 2, no ship
    play_ops(g, "syracuse_allies_with_carthage", "move")
    answer(g, 3)
    assert "march" in options(g) and "sea" not in options(g)


def test_a_leader_alone_may_sail():
    """seed 002 §8.8: "Een bevelhebber (met of zonder GE)": a leader without CUs sails too."""
    g = sail(1, "new_carthage", n=0)
    assert at(g, "hasdrubal") == "new_carthage"


# ---- the size of the fleet (seed 002 §8.8.2) -------------------------------------------------

def test_ops_card_carries_five_cus():
    """seed 002 §8.8.2: an ops "3" card takes an army of 5 CUs to sea, not 6."""
    g = position(1, n=6)
    play_ops(g, CARTHAGE_OPS3, "move")
    answer(g, 6)
    assert "sea" not in options(g)
    answer(g, "drop", 1)
    assert "sea" in options(g)


def test_campaign_card_carries_ten_cus_one_army_only():
    """seed 002 §8.8.2: a campaign card takes an army of up to 10 CUs to sea, and only one of its
    two or three armies (seed 003 "Движение морем": 10 ВЧ for a campaign card)."""
    def setup(g):
        set_leader(g, "mago", "utica")
        add_cus(g, "carthage", "utica", 2)
    g = position(1, n=10, mine=(CARTHAGE_OTHER, CARTHAGE_OPS3), setup=setup)
    answer(g, CARTHAGE_OTHER, "event", "hasdrubal", None, 10)
    assert "sea" in options(g)
    answer(g, "sea", "new_carthage", None, "stop")
    assert at(g, "hasdrubal") == "new_carthage" and len(cus(g, "new_carthage")) == 10
    answer(g, "mago", None, 2)  # the campaign's second leader
    assert "sea" not in options(g)


# ---- enemy ports, besieged cities (seed 002 §8.8.1) ------------------------------------------

def test_from_and_to_enemy_ports():
    """seed 002 §8.8.1: a sea move may begin and end in a port with an enemy PC."""
    def setup(g):
        set_pc(g, "messana", "rome")
    g = position(1, start="messana", setup=setup)
    to_sea(g)
    ports = options(g)
    assert "rhegium" in ports and field(g, "rhegium", "pc") == "rome"


def test_not_out_of_a_besieged_friendly_city():
    """seed 002 §8.8.1: "Eénheden in een belaagde vesting kunnen geen zeezetten doen"; the
    besieger outside the walls may sail (seed 003: "хотя движение морем возможно из/в области с
    осажденной крепостью"); RULINGS.md H-sea-1."""
    def besieged(g):
        g.state["f"]["carthago"]["siege"] = 1
    g = position(1, setup=besieged)
    play_ops(g, CARTHAGE_OPS3, "move")
    answer(g, 3)
    assert "sea" not in options(g)

    def roman_city(g):
        g.state["f"]["massilia"]["siege"] = 1  # Carthage besieges Rome's Massilia
    g = position(1, start="massilia", setup=roman_city)
    play_ops(g, CARTHAGE_OPS3, "move")
    answer(g, 3)
    assert "sea" in options(g)


def test_landing_in_a_besieged_citys_space():
    """seed 002 §8.8.1: units are not moved by sea into a besieged city, but may land in its space
    (and be drawn into battle there): the landing is in the space; RULINGS.md H-sea-1."""
    def setup(g):
        g.state["f"]["saguntum"]["siege"] = 1
    g = position(1, start="new_carthage", setup=setup)
    to_sea(g)
    assert "saguntum" in options(g)


# ---- Rome's naval supremacy (seed 002 §8.8.3) ------------------------------------------------

def test_worked_example_1_carthago_to_carthago_nova():
    """seed 002 §8.8.3, first example: an army from Carthago (-2) to Carthago Nova (-2): -4. The
    move is played; the logged roll carries -4 and the outcome follows the naval table."""
    for seed in (1, 2, 3):
        g = sail(seed, "new_carthage")
        [(die, mod)] = naval_rolls(g)
        assert mod == -4
        result = naval_table(die + mod)
        assert result == "safe"  # Carthage's home waters never sink (tables.rules check)
        assert at(g, "hasdrubal") == "new_carthage"


@pytest.mark.parametrize("outcome", ["safe", "turn_back", "sunk"])
def test_worked_example_2_one_cu_carthago_nova_to_rhegium(outcome):
    """seed 002 §8.8.3, second example: one CU (-1) from Carthago Nova (-2) to Rhegium (+1) with
    a Roman PC there (+1): -1 (the Dutch "In Rome" read as Rhegium, RULINGS.md H-sea-4). Played
    over seeds until each result of the table shows; each follows the table."""
    def make(seed):
        return sail(seed, "rhegium", start="new_carthage", n=1)

    def want(g):
        [(die, mod)] = naval_rolls(g)
        return naval_table(die + mod) == outcome
    try:
        g = find_seed(make, want)
    except AssertionError:
        pytest.skip(f"the naval table gives no {outcome} at -1")
    [(die, mod)] = naval_rolls(g)
    assert mod == -1 and field(g, "rhegium", "pc") == "rome"
    if outcome == "safe":
        assert at(g, "hasdrubal") == "rhegium" and len(column(g, "hasdrubal")) == 1
    elif outcome == "turn_back":
        assert at(g, "hasdrubal") == "new_carthage"
    else:
        assert where(g, "hasdrubal") == "displaced" and at(g, "hasdrubal") is None
        assert cus(g, "rhegium") == [] and cus(g, "new_carthage") == []


@pytest.mark.parametrize("name,arrange", [
    ("Carthage holds Syracuse", lambda g: set_pc(g, "syracuse", "carthage")),
    ("Macedonia allied (card 9)", lambda g: set_var(g, "macedonia_allied", True)),
    ("Carthaginian naval victory (card 29)", lambda g: set_var(g, "naval_victory", True)),
])
def test_each_minus_one_modifier(name, arrange):
    """seed 002 §8.8.3: -1 when Carthage controls Syracuse, -1 with Macedonia allied (#9), -1
    after a Carthaginian naval victory (#29): each takes 1 off the logged modifier."""
    plain = sail(1, "rhegium", start="new_carthage", n=3)
    changed = sail(1, "rhegium", start="new_carthage", n=3, setup=arrange)
    assert naval_rolls(plain)[0][1] == -2 + 1 + 1  # ports, Roman PC at Rhegium
    assert naval_rolls(changed)[0][1] == naval_rolls(plain)[0][1] - 1


def test_roman_pc_at_destination_and_single_cu():
    """seed 002 §8.8.3: +1 for a Roman PC in the port of destination (none: no +1); -1 for one CU
    per ship, with or without a leader; a leader alone counts as such a fleet (RULINGS.md
    H-sea-2)."""
    def no_pc(g):
        set_pc(g, "rhegium", None)
    assert naval_rolls(sail(1, "rhegium", start="new_carthage", n=2))[0][1] == 0
    assert naval_rolls(sail(1, "rhegium", start="new_carthage", n=2, setup=no_pc))[0][1] == -1
    assert naval_rolls(sail(1, "rhegium", start="new_carthage", n=1))[0][1] == -1
    assert naval_rolls(sail(1, "rhegium", start="new_carthage", n=0))[0][1] == -1


def test_no_naval_roll_for_rome():
    """seed 002 §8.8.3: Rome rolls for every Carthaginian fleet; Rome's own fleets sail unhindered
    (seed 003: the roll is made for Carthage's sea moves)."""
    g = sail(1, "carthago", leader="publius_scipio", side="rome", start="ostia", n=3,
             theirs=(CARTHAGE_OTHER,))
    assert naval_rolls(g) == []
    assert at(g, "publius_scipio") == "carthago"


def test_sunk_eliminates_the_cus_and_displaces_the_leaders():
    """seed 002 §8.8.3: "gezonken": the CUs are eliminated and the leaders displaced (§8.9), his
    subordinates with him; the move is over."""
    def make(seed):
        def sub(g):
            set_leader(g, "mago", "massilia", chief="hasdrubal")
        return sail(seed, "ostia", start="massilia", n=2, setup=sub)
    g = find_seed(make, lambda g: naval_table(sum(naval_rolls(g)[0])) == "sunk")
    assert where(g, "hasdrubal") == "displaced" and where(g, "mago") == "displaced"
    assert cus(g, "massilia") == [] and cus(g, "ostia") == [] and column(g, "hasdrubal") == []
    assert g.decision.side == "rome"  # the card is played out: Rome's turn
    assert said(g, "The fleet is sunk: {0:# CU|# CUs} lost") == [[2]]


def test_hannibal_sunk_gives_rome_the_game():
    """seed 002 §8.9: "Wanneer Hannibal verzet wordt, heeft Rome het spel gewonnen"."""
    def go(seed):
        g = position(seed, leader="hannibal", start="massilia", n=2)
        to_sea(g)
        answer(g, "ostia", None)
        return g
    g = find_seed(go, lambda g: naval_table(sum(naval_rolls(g)[0])) == "sunk")
    assert g.over and g.result.winner == "rome"


def test_turned_back_the_rest_of_the_move_goes_on():
    """seed 002 §8.8.3: "Omkeren": the fleet is put back in its port of departure and its move
    at sea is over; the rest of the move goes on with what is left (RULINGS.md H-sea-3)."""
    def make(seed):
        return sail(seed, "ostia", start="massilia", n=2)
    g = find_seed(make, lambda g: naval_table(sum(naval_rolls(g)[0])) == "turn_back")
    assert at(g, "hasdrubal") == "massilia" and len(column(g, "hasdrubal")) == 2
    assert all(field(g, u, "moved") == 3 for u in column(g, "hasdrubal"))
    acts = options(g)
    assert "sea" not in acts and "march" in acts and "stop" in acts


# ---- response cards against a fleet at sea (seed 002 §7.4.1, cards 41 and 60) --------------

def test_window_is_asked_even_when_nothing_answers():
    """seed 002 §7.4.1 with the language's response windows: the other side is asked at every
    sea move, holding an answering card or not, so that asking tells the mover nothing."""
    g = position(1)
    to_sea(g)
    answer(g, "new_carthage")
    d = g.decision
    assert (d.side, d.window) == ("rome", "sea_response") and d.options == []
    answer(g, None)
    assert at(g, "hasdrubal") == "new_carthage"


def test_window_offers_only_the_cards_answering_a_sea_move():
    """cards 41 and 60 answer a sea move; other cards do not. The mover's view names no option
    of the other side (no cards, no count)."""
    g = position(1, theirs=(STORM_41, STORM_60, ROME_OTHER))
    to_sea(g)
    answer(g, "new_carthage")
    assert sorted(options(g), key=str) == sorted([STORM_41, STORM_60, None], key=str)
    seen = g.view("carthage")["decision"]
    assert seen == {"side": "rome", "kind": "one", "window": "sea_response",
                    "prompt": g.decision.prompt}
    empty = position(1)
    to_sea(empty)
    answer(empty, "new_carthage")
    assert empty.view("carthage")["decision"] == seen


def test_passing_the_window_changes_nothing():
    """seed 002 §7.4.1: a response card not played stays in hand; the move goes on."""
    g = sail(1, "new_carthage", theirs=(STORM_41, STORM_60))
    assert zone_of(g, STORM_41) == "hand|rome" and zone_of(g, STORM_60) == "hand|rome"
    assert at(g, "hasdrubal") == "new_carthage" and len(naval_rolls(g)) == 1


def test_card_41_sends_the_fleet_back_to_its_port():
    """seed 002 card 41 ("Zeestorm"): played during a sea move, the mover puts his units back in
    the port of departure; the card goes to the discards; no naval roll for a fleet that never
    got through (RULINGS.md H-sea-5)."""
    g = sail(1, "new_carthage", theirs=(STORM_41, ROME_OTHER), respond=STORM_41)
    assert zone_of(g, STORM_41) == "discard"
    assert at(g, "hasdrubal") == "carthago" and len(column(g, "hasdrubal")) == 3
    assert naval_rolls(g) == []
    assert "sea" not in options(g)  # the sea move of this card is spent


def test_card_41_against_a_roman_fleet():
    """cards 41 and 60 are either side's events: Carthage may answer a Roman sea move."""
    g = sail(1, "carthago", leader="publius_scipio", side="rome", start="ostia", n=3,
             theirs=(STORM_41, CARTHAGE_OTHER), respond=STORM_41)
    assert zone_of(g, STORM_41) == "discard" and at(g, "publius_scipio") == "ostia"


def test_card_60_attrition_with_plus_two():
    """seed 002 card 60 ("Zeestorm"): played once the enemy army is at sea and its destination
    decided, before the naval roll: the army rolls on the attrition table with +2; the naval roll
    follows for what is left (RULINGS.md H-sea-6)."""
    for seed in range(1, 6):
        g = sail(seed, "new_carthage", n=5, theirs=(STORM_60, ROME_OTHER), respond=STORM_60)
        assert zone_of(g, STORM_60) == "discard"
        [[die, mod, lost]] = said(g, "Storm at sea: die {0}, modifier {1}; {2:# CU|# CUs} lost")
        assert mod == 2
        assert lost == g.pack.call_value("attrition_loss", 5, die + 2)
        assert len(column(g, "hasdrubal")) + len(cus(g, "new_carthage")) == 5 - lost
        assert len(naval_rolls(g)) == 1


def test_card_60_leaves_no_cu_the_leaders_are_displaced():
    """seed 002 card 60 and §8.9 ("of een Zeestorm opsteekt"): leaders whose CUs the storm takes
    are displaced; nothing is left to roll for at sea (RULINGS.md H-sea-6)."""
    def make(seed):
        return sail(seed, "new_carthage", n=1, theirs=(STORM_60, ROME_OTHER), respond=STORM_60)
    g = find_seed(make, lambda g: storm_losses(g) == 1)
    assert where(g, "hasdrubal") == "displaced" and naval_rolls(g) == []
    assert all_gone(g)


def all_gone(g) -> bool:
    return not any(field(g, u, "side") == "carthage" for u in g.state["made"].get("cu", []))


def test_card_60_on_a_leader_alone_displaces_no_one():
    """card 60 on a leader without CUs: no CU to lose, he is not displaced (RULINGS.md H-sea-6)."""
    g = sail(1, "new_carthage", n=0, theirs=(STORM_60, ROME_OTHER), respond=STORM_60)
    assert where(g, "hasdrubal") == "map" and at(g, "hasdrubal") == "new_carthage"


def test_response_cards_are_not_events_of_ones_own_turn():
    """seed 002 §7.4.1: a response event is played in the other side's move; in its own turn the
    card is ops or a discard only (RULINGS.md H-sea-7)."""
    g = position(1, mine=(STORM_60, CARTHAGE_OTHER))
    answer(g, STORM_60)
    assert sorted(options(g)) == ["discard", "ops"]


# ---- landing (seed 002 §8.2, §8.4.2, §8.9) ---------------------------------------------------

def test_landing_displaces_an_enemy_leader_alone():
    """seed 002 §8.9: an enemy army entering the space of a leader without CUs displaces him; a
    landing enters the space like a march."""
    def setup(g):
        set_leader(g, "publius_scipio", "new_carthage")
    g = sail(1, "new_carthage", setup=setup)
    assert at(g, "hasdrubal") == "new_carthage"
    assert where(g, "publius_scipio") == "displaced"


def test_a_leader_alone_lands_not_on_an_enemy_leader():
    """seed 002 §8.4.2: a leader without CUs may not end his move on an enemy leader: with one
    movement point left he could not go on, so that port is not offered."""
    def setup(g):
        set_leader(g, "publius_scipio", "new_carthage")
    g = position(1, n=0, setup=setup)
    to_sea(g)
    assert "new_carthage" not in options(g) and "baria" in options(g)


def test_landing_on_enemy_cus():
    """seed 002 §8.2: entering enemy CUs means battle, landing too (§8.8.1: "zij kunnen er wel
    belanden en in de strijd betrokken worden"); an army of 5 or more CUs overruns a lone enemy
    CU, landing too."""
    def two(g):
        add_cus(g, "rome", "baria", 2)
        add_cus(g, "rome", "malaca", 1)
    g = position(1, n=5, setup=two)
    to_sea(g)
    assert "baria" in options(g) and "malaca" in options(g)
    answer(g, "malaca", None)
    assert cus(g, "malaca", "rome") == [] and at(g, "hasdrubal") == "malaca"
    g = position(1, n=4, setup=two)
    to_sea(g)
    assert "baria" in options(g) and "malaca" in options(g)


def test_scipio_africanus_lost_at_sea_leaves_the_game():
    """seed 002 §8.9: "Wanneer Scipio Africanus verplaatst wordt, wordt hij uit het spel genomen":
    Rome's fleets get no naval roll, but a storm (card 60, played by Carthage) that takes his CUs
    displaces him, and so takes him out of the game."""
    def make(seed):
        return sail(seed, "carthago", leader="scipio_africanus", side="rome", start="ostia", n=1,
                    theirs=(STORM_60, CARTHAGE_OTHER), respond=STORM_60)
    g = find_seed(make, lambda g: storm_losses(g) == 1)
    assert where(g, "scipio_africanus") == "out" and at(g, "scipio_africanus") is None
    assert naval_rolls(g) == []
