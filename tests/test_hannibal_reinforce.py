"""Hannibal: the reinforcement phase and the consuls (content/hannibal/reinforce.rules).

Each test cites its rule: seed 002 (the Dutch rulebook, the authority) §5.1, §6.1-§6.4.4, §8.9,
§14.1, and seed 003 (the Russian summary) "Подкрепления". The rulings it tests are in
content/hannibal/RULINGS.md, "Reinforcements and consuls" (H-rf-*).

A test plays the turns before the one it needs with empty hands (so nothing moves), arranges
the board at the last strategy phase's opening window, and then plays the reinforcement phase
of the next turn by answering its decisions."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import hannibal_play
from hannibal_play import (
    add_cus,
    all_cus,
    answer,
    clear_board,
    cus,
    even_points,
    field,
    give,
    logged,
    new_game,
    options,
    pack,
    pay_backlash,
    prompt,
    remove_cus,
    set_leader,
    set_pc,
)

ROMAN_POOL = ["publius_scipio", "tiberius_longus", "fabius", "flaminius", "marcellus", "nero",
              "paullus", "varro"]


# ---- helpers -----------------------------------------------------------------------------

def said(g) -> list[str]:
    """The log lines written by the rules, as a person reads them (names, not ids)."""
    return logged(g).split("\n")


def at_window(g) -> bool:
    return g.decision is not None and g.decision.window == "campaign_opening"


def skip_strategy(g) -> None:
    """At a strategy phase's opening window: no cards in hand, so the phase ends at once."""
    give(g, "rome")
    give(g, "carthage")
    answer(g, None, False)
    pay_backlash(g)


def first_choice(g) -> Any:
    opts = options(g)
    real = [o for o in opts if o is not None]
    return real[0] if real else opts[0]


def reinforcements(turn: int = 2, arrange: Callable[[Any], None] | None = None, seed: int = 1):
    """A game at the start of `turn`'s reinforcement phase, the board arranged by `arrange` at
    the opening window of the turn before (earlier reinforcement phases answered by the first
    place offered); the points evened so that no year-end backlash asks for PCs."""
    g = new_game(seed)
    even_points(g)
    while not (at_window(g) and g.state["v"]["turn_no"][""] == turn - 1):
        assert not g.over
        if at_window(g):
            skip_strategy(g)
        else:
            answer(g, first_choice(g))
    if arrange:
        arrange(g)
    skip_strategy(g)
    return g


def finish_phase(g, pick: Callable[[Any], Any] = first_choice) -> list[tuple[str, list]]:
    """Answer the phase's decisions with `pick` until the next strategy phase opens; returns the
    decisions asked, as (prompt, options)."""
    asked = []
    for _ in range(200):
        if g.over or at_window(g):
            return asked
        asked.append((prompt(g), options(g)))
        answer(g, pick(g))
    raise AssertionError("the reinforcement phase never ended")


def reinforcement_line(g) -> int | None:
    """Which of Carthage's four CUs is asked now (None: another question)."""
    p = prompt(g)
    if p.startswith("Carthage: reinforcement "):
        return int(p.split()[2])
    return None


def skip_to_line(g, line: int) -> None:
    """Decline Carthage's CUs before `line`; fails if `line` is not asked."""
    while reinforcement_line(g) is not None and reinforcement_line(g) < line:
        answer(g, None)
    assert reinforcement_line(g) == line, prompt(g)


def lines_asked(g) -> list[int]:
    got = []
    while reinforcement_line(g) is not None:
        got.append(reinforcement_line(g))
        answer(g, None)
    return got


def besiege(g, space: str, by: str, *, inside: int = 0, outside: int = 3) -> None:
    """`space`, a walled city of the other side, under siege by `by` (one siege point), with
    `outside` besieging CUs and `inside` defending CUs."""
    other = "rome" if by == "carthage" else "carthage"
    set_pc(g, space, other)
    g.state["f"][space]["siege"] = 1
    g.state["f"][space]["besieger"] = by
    add_cus(g, by, space, outside)
    if inside:
        for u in add_cus(g, other, space, inside):
            hannibal_play._put(g, u, f"garrison|{space}")


def sides_board(g) -> None:
    """A plain board: no pieces; Rome keeps 8 CUs in Rome; Carthage a leader in Carthago."""
    clear_board(g)
    add_cus(g, "rome", "roma", 8)
    add_cus(g, "carthage", "carthago", 4)
    set_leader(g, "hanno", "carthago")


def roman_leaders(g) -> dict[str, tuple]:
    return {leader: (field(g, leader, "where"), field(g, leader, "at"),
                     field(g, leader, "office"), field(g, leader, "chief"))
            for leader in ROMAN_POOL + ["scipio_africanus"] if field(g, leader, "where") == "map"}


def rome_pick(*order: str) -> Callable[[Any], Any]:
    """Answer Rome's CU placements in this order (other decisions: the first place offered)."""
    queue = list(order)

    def pick(g):
        if prompt(g).startswith("Rome: reinforcement") and queue:
            return queue.pop(0)
        return first_choice(g)
    return pick


# ---- the phase and its order (seed 002 §5.1, §6) ---------------------------------------

def test_no_reinforcement_phase_on_turn_1():
    """seed 002 §6 ("Buiten de eerste spelronde krijgen de spelers steeds versterkingen"), §5.1;
    seed 003 "Порядок хода" (1): no reinforcements on turn 1; from turn 2 on, the phase opens the
    turn, Carthage first."""
    g = new_game(1)
    even_points(g)
    assert at_window(g) and g.state["v"]["turn_no"][""] == 1
    assert all_cus(g, "rome") == 16 and all_cus(g, "carthage") == 16
    lines = said(g)
    assert not any(w in line for line in lines for w in ("places a CU in", "is named proconsul"))
    skip_strategy(g)
    assert g.state["v"]["turn_no"][""] == 2
    assert prompt(g) == "Carthage: reinforcement 1 of 4: place a CU where?"


def test_phase_order_turn_6():
    """seed 002 §5.1 (a. Carthage's CUs, b. Carthage's displaced leaders, c. Rome's CUs, d. the
    proconsul and the consuls), §6.4.4 (Scipio Africanus in turn 6, with 5 CUs the consuls may
    then use); seed 003 "Подкрепления" (1)-(4) in the same order."""
    def arrange(g):
        sides_board(g)
        set_leader(g, "hanno", "utica")
        add_cus(g, "carthage", "utica", 2)
        set_leader(g, "mago", None, where="displaced")
        set_leader(g, "hasdrubal", "new_carthage")
        add_cus(g, "carthage", "new_carthage", 3)
        for x in ("gades", "hispalis", "corduba"):
            set_pc(g, x, "carthage")
        set_leader(g, "fabius", "roma", office="consul")
        set_leader(g, "varro", "capua", office="consul")
        add_cus(g, "rome", "capua", 6)
    g = reinforcements(6, arrange)
    asked = [p for p, _ in finish_phase(g)]
    kinds = []
    for p in asked:
        k = ("carthage CU" if p.startswith("Carthage: reinforcement")
             else "carthage leader" if "come back" in p
             else "rome CU" if p.startswith("Rome: reinforcement")
             else "scipio" if "Scipio Africanus" in p
             else "proconsul" if "proconsul" in p
             else "consul" if p.startswith("Rome: place consul")
             else "command" if "commands" in p else p)
        if k != "command" and (not kinds or kinds[-1] != k):   # settling a space: any time
            kinds.append(k)
    assert kinds == ["carthage CU", "carthage leader", "rome CU", "scipio", "proconsul", "consul"]
    assert sum(p.startswith("Carthage: reinforcement") for p in asked) == 4
    assert sum(p.startswith("Rome: reinforcement") for p in asked) == 5


# ---- Carthage's CUs (seed 002 §6.1, §6.3; seed 003 "Подкрепления" (1)) ----------------

def _carthage_spread(g):
    sides_board(g)
    set_leader(g, "hanno", "utica")          # a leader in Africa
    add_cus(g, "carthage", "utica", 1)
    set_leader(g, "hasdrubal", "castulo")    # a leader in Hispania
    add_cus(g, "carthage", "castulo", 1)
    set_leader(g, "hannibal", "capua")       # a leader in Italia
    add_cus(g, "carthage", "capua", 5)


def test_carthage_line_1_carthago_or_leader_in_africa():
    """seed 002 §6.1 ("één in Carthago of bij een bevelhebber in Africa"); seed 003
    "Подкрепления" (1): the first CU goes to Carthago or to a leader in Africa, nowhere else."""
    g = reinforcements(2, _carthage_spread)
    skip_to_line(g, 1)
    assert set(options(g)) == {"carthago", "utica", None}
    answer(g, "utica")
    assert len(cus(g, "utica", "carthage")) == 2


def test_carthage_line_2_needs_carthago_nova():
    """seed 002 §6.1 ("één in Carthago Nova of bij een legeraanvoerder in Hispania, wanneer de
    Carthager tenminste dit gebied controleert"); seed 003 "Подкрепления" (1): only while Carthage
    controls Carthago Nova; Carthago Nova or a leader in Hispania."""
    g = reinforcements(2, _carthage_spread)
    skip_to_line(g, 2)
    assert set(options(g)) == {"new_carthage", "castulo", None}

    def lost(g):
        _carthage_spread(g)
        set_pc(g, "new_carthage", "rome")
    g = reinforcements(2, lost)
    assert 2 not in lines_asked(g)


def test_carthage_line_3_needs_baetica():
    """seed 002 §6.1 (the third CU "wanneer de provincie Baetica gecontroleerd wordt", the silver
    mines); seed 003 "Подкрепления" (1): Carthago Nova or a leader in Hispania (RULINGS.md
    H-rf-2), only while Carthage controls Baetica (3 of its 4 spaces, §15.1)."""
    def baetica(k):
        def arrange(g):
            _carthage_spread(g)
            for x in ("gades", "hispalis", "corduba", "malaca"):
                set_pc(g, x, "rome")
            for x in ("gades", "hispalis", "corduba")[:k]:
                set_pc(g, x, "carthage")
        return arrange
    g = reinforcements(2, baetica(3))
    skip_to_line(g, 3)
    assert set(options(g)) == {"new_carthage", "castulo", None}
    g = reinforcements(2, baetica(2))
    assert 3 not in lines_asked(g)


def test_carthage_line_4_with_any_leader_only():
    """seed 002 §6.1 ("één bij een willekeurige aanvoerder op het bord"): with any leader; seed
    003 "Подкрепления" (1) adds Carthago and Carthago Nova, the Dutch text decides (RULINGS.md
    H-rf-3)."""
    g = reinforcements(2, _carthage_spread)
    skip_to_line(g, 4)
    assert set(options(g)) == {"utica", "castulo", "capua", None}
    before = len(cus(g, "capua", "carthage"))  # after the winter attrition at Roman Capua (§17.1)
    answer(g, "capua")
    assert len(cus(g, "capua", "carthage")) == before + 1


def test_carthage_reinforcements_are_optional_and_at_most_4():
    """seed 002 §6.1 ("max. 4 Gevechtseenheden"): each of the four CUs may be left out, and no
    more than four come."""
    g = reinforcements(2, _carthage_spread)
    before = all_cus(g, "carthage")
    assert lines_asked(g) == [1, 2, 3, 4]      # each declined
    assert all_cus(g, "carthage") == before
    g = reinforcements(2, _carthage_spread)
    before = all_cus(g, "carthage")
    for _ in range(4):
        assert reinforcement_line(g) is not None
        answer(g, first_choice(g))
    assert reinforcement_line(g) is None
    assert all_cus(g, "carthage") == before + 4


def test_carthage_none_into_a_besieged_city():
    """seed 002 §6.3 ("In belegerde steden kunnen geen versterkingen geplaatst worden"); seed 003
    "Подкрепления": Carthago under a Roman siege takes no CU; the besieging army of a
    Carthaginian leader outside a Roman city is not in a besieged city of its own and may
    (RULINGS.md H-rf-1)."""
    def arrange(g):
        _carthage_spread(g)
        besiege(g, "carthago", "rome", inside=2)
        besiege(g, "capua", "carthage", outside=0)   # Hannibal's 5 CUs besiege Roman Capua
    g = reinforcements(2, arrange)
    skip_to_line(g, 1)
    assert set(options(g)) == {"utica", None}
    skip_to_line(g, 4)
    assert "carthago" not in options(g) and "capua" in options(g)


def test_carthage_not_into_enemy_cus():
    """seed 002 §6.3 with RULINGS.md H-rf-1: a Roman army standing in Carthago (no siege) keeps the
    Carthaginian CUs out of it: a placement would start a battle."""
    def arrange(g):
        _carthage_spread(g)
        remove_cus(g, cus(g, "carthago", "carthage"))
        add_cus(g, "rome", "carthago", 5)
    g = reinforcements(2, arrange)
    skip_to_line(g, 1)
    assert set(options(g)) == {"utica", None}


# ---- Carthage's displaced leaders (seed 002 §5.1 b, §8.9; seed 003 "Подкрепления" (1)) ----

def test_displaced_leader_comes_back_where_carthage_has_cus():
    """seed 002 §5.1 b, §8.9 ("kan in de volgende versterkingsfase weer ingezet worden"); seed 003
    "Подкрепления" (1): any non-besieged space with a friendly CU; he goes under Hannibal there
    (§8.5-§8.6: Hannibal outranks every Carthaginian)."""
    def arrange(g):
        _carthage_spread(g)
        set_leader(g, "mago", None, where="displaced")
        add_cus(g, "carthage", "tunes", 1)               # a lone CU
        besiege(g, "saguntum", "rome", inside=1)        # Carthaginian CUs shut in
    g = reinforcements(2, arrange)
    lines_asked(g)
    assert prompt(g) == "carthage: where does mago come back?"
    assert set(options(g)) == {"carthago", "utica", "tunes", "castulo", "capua", None}
    answer(g, "capua")
    assert field(g, "mago", "where") == "map" and field(g, "mago", "at") == "capua"
    assert field(g, "mago", "chief") == "hannibal"


def test_displaced_leader_may_stay_off():
    """seed 002 §5.1 b ("kan hij deze ... op het bord zetten"): Carthage may leave him off; he
    stays displaced for a later phase."""
    def arrange(g):
        _carthage_spread(g)
        set_leader(g, "gisgo", None, where="displaced")
    g = reinforcements(2, arrange)
    lines_asked(g)
    answer(g, None)
    assert field(g, "gisgo", "where") == "displaced"


def test_hannibal_never_comes_back():
    """seed 002 §8.9 ("Wanneer Hannibal verzet wordt, heeft Rome het spel gewonnen"): a displaced
    Hannibal has ended the game; the phase never brings him back."""
    def arrange(g):
        _carthage_spread(g)
        set_leader(g, "hannibal", None, where="displaced")
    g = reinforcements(2, arrange)
    asked = finish_phase(g)
    assert not any("hannibal" in p for p, _ in asked)
    assert field(g, "hannibal", "where") == "displaced"


# ---- Rome's CUs (seed 002 §6.2-§6.3; seed 003 "Подкрепления" (2)) ---------------------

def test_rome_places_in_rome_or_with_leaders():
    """seed 002 §6.2 ("in Rome of bij één of meerdere aanvoerders"), §6.3 (not in a besieged city);
    seed 003 "Подкрепления" (2): five CUs, in Rome or with a leader."""
    def arrange(g):
        sides_board(g)
        set_leader(g, "fabius", "capua", office="consul")
        set_leader(g, "varro", "agrigentum", office="consul")
        add_cus(g, "rome", "nola", 3)                    # no leader there
        set_leader(g, "nero", "syracuse", office="proconsul")
        besiege(g, "syracuse", "carthage", inside=2)     # Nero shut in Syracuse
    g = reinforcements(2, arrange)
    lines_asked(g)
    assert prompt(g) == "Rome: reinforcement 1 of 5: place a CU where?"
    assert set(options(g)) == {"roma", "capua", "agrigentum"}
    before = all_cus(g, "rome")
    finish_phase(g, rome_pick("capua", "agrigentum", "roma", "capua", "agrigentum"))
    assert all_cus(g, "rome") == before + 5
    assert len(cus(g, "capua", "rome")) == 2 and len(cus(g, "agrigentum", "rome")) == 2
    assert len(g.state["z"]["garrison|syracuse"]) == 2  # the two inside the walls stay


def test_rome_at_least_3_in_italia():
    """seed 002 §6.3 ("De Romein moet er minstens 3 in Italia plaatsen"); seed 003 "Подкрепления"
    (2): once two CUs went to Sicily, the other three must go to Italia."""
    def arrange(g):
        sides_board(g)
        set_leader(g, "varro", "agrigentum", office="consul")
        add_cus(g, "rome", "agrigentum", 6)
    g = reinforcements(2, arrange)
    lines_asked(g)
    assert set(options(g)) == {"roma", "agrigentum"}
    answer(g, "agrigentum")
    assert set(options(g)) == {"roma", "agrigentum"}
    answer(g, "agrigentum")
    # Rome is the only place left: the engine answers the rest by itself
    assert not prompt(g).startswith("Rome: reinforcement")
    assert len(cus(g, "roma", "rome")) == 11 and len(cus(g, "agrigentum", "rome")) == 8


def test_rome_stack_of_5_ensured():
    """seed 002 §6.3 ("Wanneer de Romein niet minstens één stapel met 5 GE heeft, moet hij
    daarvoor zorgen"); seed 003 "Подкрепления" (2): no stack of 5 anywhere: after one CU to the
    1-CU army in Sicily, only Capua (Italia, 1 CU) can still reach 5 with three in Italia."""
    def arrange(g):
        clear_board(g)
        add_cus(g, "carthage", "carthago", 4)
        set_leader(g, "hanno", "carthago")
        set_leader(g, "fabius", "capua", office="consul")
        add_cus(g, "rome", "capua", 1)
        set_leader(g, "varro", "agrigentum", office="consul")
        add_cus(g, "rome", "agrigentum", 1)
    g = reinforcements(2, arrange)
    lines_asked(g)
    assert set(options(g)) == {"roma", "capua", "agrigentum"}
    answer(g, "agrigentum")
    assert not prompt(g).startswith("Rome: reinforcement")     # Capua only: answered alone
    assert len(cus(g, "capua", "rome")) == 5 and len(cus(g, "agrigentum", "rome")) == 2


def test_rome_stack_with_leaders_outside_italia_only():
    """seed 002 §6.3 (3 in Italia and a stack of 5): the only leader is in Sicily with 2 CUs and
    Rome is empty: three must go to Rome, and Sicily could reach 5 only with three more, so every
    CU goes to Rome; no choice is left (the engine answers it)."""
    def arrange(g):
        clear_board(g)
        add_cus(g, "carthage", "carthago", 4)
        set_leader(g, "hanno", "carthago")
        set_leader(g, "varro", "agrigentum", office="consul")
        add_cus(g, "rome", "agrigentum", 2)
    g = reinforcements(2, arrange)
    lines_asked(g)
    assert not prompt(g).startswith("Rome: reinforcement")
    assert len(cus(g, "roma", "rome")) == 5 and len(cus(g, "agrigentum", "rome")) == 2


def test_rome_stack_outside_italia_last_pick_forced():
    """seed 002 §6.3: the leader in Sicily has 3 CUs, Rome none: Sicily 1, then Rome 3: the last CU
    must go to Sicily (Rome 4 and Sicily 4 would leave no stack of 5)."""
    def arrange(g):
        clear_board(g)
        add_cus(g, "carthage", "carthago", 4)
        set_leader(g, "hanno", "carthago")
        set_leader(g, "varro", "agrigentum", office="consul")
        add_cus(g, "rome", "agrigentum", 3)
    g = reinforcements(2, arrange)
    lines_asked(g)
    assert set(options(g)) == {"roma", "agrigentum"}
    answer(g, "agrigentum", "roma", "roma", "roma")
    assert not prompt(g).startswith("Rome: reinforcement")
    assert len(cus(g, "roma", "rome")) == 3 and len(cus(g, "agrigentum", "rome")) == 5


def test_rome_no_place_in_italia():
    """seed 002 §6.3 with RULINGS.md H-rf-5: Rome besieged and no Roman leader in Italia: the three
    owed to Italia cannot be placed and are not owed; all five still come, and a stack of 5 is
    made."""
    def arrange(g):
        clear_board(g)
        set_leader(g, "hannibal", "roma")
        besiege(g, "roma", "carthage", inside=2, outside=8)
        set_leader(g, "fabius", "agrigentum", office="consul")
        add_cus(g, "rome", "agrigentum", 2)
        set_leader(g, "varro", "tarraco", office="consul")
        add_cus(g, "rome", "tarraco", 1)
    g = reinforcements(2, arrange)
    lines_asked(g)
    assert set(options(g)) == {"agrigentum", "tarraco"}
    before = all_cus(g, "rome")
    finish_phase(g, rome_pick("tarraco", "tarraco", "tarraco", "agrigentum"))
    assert all_cus(g, "rome") == before + 5
    assert len(g.state["z"]["garrison|roma"]) == 2
    assert max(len(cus(g, "agrigentum", "rome")), len(cus(g, "tarraco", "rome"))) >= 5


def test_rome_no_place_at_all():
    """seed 002 §6.2-§6.3 with RULINGS.md H-rf-5: Rome besieged and no Roman leader on the board:
    the five CUs have nowhere to go and are lost for this turn."""
    def arrange(g):
        clear_board(g)
        set_leader(g, "hannibal", "roma")
        besiege(g, "roma", "carthage", inside=2, outside=8)
        add_cus(g, "rome", "capua", 6)
    g = reinforcements(2, arrange)
    lines_asked(g)
    before = all_cus(g, "rome")
    finish_phase(g)
    assert all_cus(g, "rome") == before
    assert "Rome has no place for its reinforcements" in said(g)


# ---- the proconsul and the consuls (seed 002 §6.4.1-§6.4.3; seed 003 "Подкрепления" (3)-(4)) --

def _two_armies(g):
    sides_board(g)
    set_leader(g, "fabius", "roma", office="consul")
    set_leader(g, "varro", "capua", office="consul")
    add_cus(g, "rome", "capua", 6)
    set_leader(g, "nero", "agrigentum", office="proconsul")
    add_cus(g, "rome", "agrigentum", 2)


def test_proconsul_must_be_named():
    """seed 002 §6.4.1 (1. "Eén Romeinse bevelhebber wordt tot proconsul benoemd"), §6.4.3 (he may
    stay or be replaced); seed 003 "Подкрепления" (3) makes it optional: the Dutch is followed,
    one is named from the Roman leaders on the board (RULINGS.md H-rf-6)."""
    g = reinforcements(2, _two_armies)
    lines_asked(g)
    while prompt(g).startswith("Rome: reinforcement"):
        answer(g, "roma")
    assert prompt(g) == "Rome: name the proconsul"
    assert set(options(g)) == {"fabius", "varro", "nero"}     # None is no answer
    answer(g, "varro")
    assert field(g, "varro", "office") == "proconsul" and field(g, "varro", "at") == "capua"
    assert field(g, "nero", "office") == "none"                # the old proconsul is replaced


def test_other_roman_leaders_removed_and_two_consuls_drawn():
    """seed 002 §6.4.1 (2. all other Roman leaders off the board, 3. two drawn at random, 4.
    placed), §6.4.3 (one proconsul), §8.9 (a displaced Roman leader comes back: to the pool);
    seed 003 "Подкрепления" (4): after the phase, the proconsul and two consuls are Rome's only
    leaders on the board, and no Roman leader is left displaced."""
    def arrange(g):
        _two_armies(g)
        set_leader(g, "paullus", None, where="displaced")
    g = reinforcements(2, arrange)
    lines_asked(g)
    finish_phase(g, lambda g: "nero" if prompt(g) == "Rome: name the proconsul"
                 else first_choice(g))
    on = roman_leaders(g)
    offices = sorted(v[2] for v in on.values())
    assert offices == ["consul", "consul", "proconsul"]
    assert on["nero"][2] == "proconsul" and on["nero"][1] == "agrigentum"
    assert field(g, "paullus", "where") in ("aside", "map")
    assert not any(field(g, leader, "where") == "displaced" for leader in ROMAN_POOL)
    for leader in ROMAN_POOL:
        if leader not in on:
            assert field(g, leader, "where") == "aside" and field(g, leader, "office") == "none"


def test_a_leader_taken_off_the_board_from_inside_the_walls_is_inside_nothing():
    """seed 002 §6.4.1 (2. the other Roman leaders leave the board), §16.3 (a leader inside the
    walls of a walled city of his side on the map): Paullus sits inside Neapolis with its 2 CUs
    when the consuls change; off the board he is inside no walls (RULINGS.md H-rf-7, H-wc-3).
    Found by 20,000 random games (seed 805479 of `engine simulate hannibal --invariants`): the
    leader went aside still marked inside, which broke the invariant "a leader inside stands in
    a walled city of his own"."""
    def arrange(g):
        _two_armies(g)
        set_leader(g, "paullus", "neapolis")
        hannibal_play.add_garrison(g, "rome", "neapolis", 2)
        g.state["f"]["paullus"]["inside"] = True
        assert g.check_invariants() == []
    g = reinforcements(2, arrange)
    lines_asked(g)
    assert field(g, "paullus", "inside") is True
    finish_phase(g, lambda g: "nero" if prompt(g) == "Rome: name the proconsul"
                 else first_choice(g))
    assert field(g, "paullus", "inside") is False
    assert field(g, "paullus", "where") in ("aside", "map")
    assert g.check_invariants() == []


def test_removed_consuls_may_be_drawn_again():
    """seed 002 §6.4.1 (3. "het kunnen ook de bevelhebbers zijn, die pas van het bord verwijderd
    zijn"); seed 003 "Подкрепления" (4) takes last turn's consuls out of the pool first: the Dutch
    is followed (RULINGS.md H-rf-7). Over many seeds, the consul just removed is drawn again, and
    the proconsul (on the board) never is."""
    redrawn = 0
    pairs = set()
    for seed in range(1, 31):
        g = reinforcements(2, _two_armies, seed=seed)
        lines_asked(g)
        finish_phase(g, lambda g: "nero" if prompt(g) == "Rome: name the proconsul"
                     else first_choice(g))
        consuls = {leader for leader, v in roman_leaders(g).items() if v[2] == "consul"}
        assert len(consuls) == 2 and "nero" not in consuls
        pairs.add(frozenset(consuls))
        redrawn += bool(consuls & {"fabius", "varro"})
    assert redrawn > 0
    assert len(pairs) > 5        # drawn at random


def test_consuls_placed_on_stacks_of_5():
    """seed 002 §6.4.2 ("in een veld ... dat minstens 5 GE bevat"); seed 003 "Подкрепления" (4):
    each consul goes to a space with 5 or more Roman CUs: a 4-CU army is no place for one."""
    def arrange(g):
        _two_armies(g)
        add_cus(g, "rome", "nola", 4)
    g = reinforcements(2, arrange)   # Rome's five CUs all to Rome: Rome 13, Capua 6, Nola 4
    lines_asked(g)
    seen = []

    def pick(g):
        if prompt(g).startswith("Rome: place consul"):
            seen.append(set(options(g)))
            return "capua"
        if prompt(g) == "Rome: name the proconsul":
            return "nero"
        if prompt(g).startswith("Rome: reinforcement"):
            return "roma"
        return first_choice(g)
    finish_phase(g, pick)
    assert seen == [{"roma", "capua"}, {"roma", "capua"}]
    consuls = [leader for leader, v in roman_leaders(g).items() if v[2] == "consul"]
    assert [roman_leaders(g)[c][1] for c in consuls] == ["capua", "capua"]


def test_consuls_together_when_one_stack():
    """seed 002 §6.4.2 ("wanneer er zo slechts één veld is, dan moeten ze daar samen gezet
    worden"), §14.1 (both consuls in one space: Rome gives one of them the command), §8.6 (a
    consul outranks a proconsul): one stack of 5, with the proconsul in it: both consuls there,
    Rome chooses which commands, the proconsul goes into his box."""
    def arrange(g):
        clear_board(g)
        add_cus(g, "carthage", "carthago", 4)
        set_leader(g, "hanno", "carthago")
        set_leader(g, "nero", "capua", office="proconsul")
        add_cus(g, "rome", "capua", 4)
        set_leader(g, "varro", "agrigentum", office="consul")
        add_cus(g, "rome", "agrigentum", 1)
    g = reinforcements(2, arrange)
    lines_asked(g)
    asked = finish_phase(g, lambda g: (
        "capua" if prompt(g).startswith("Rome: reinforcement")
        else "nero" if prompt(g) == "Rome: name the proconsul" else first_choice(g)))
    on = roman_leaders(g)
    consuls = sorted(leader for leader, v in on.items() if v[2] == "consul")
    assert all(on[c][1] == "capua" for c in consuls)
    commands = [(p, o) for p, o in asked if p.startswith("rome: who commands in capua?")]
    assert commands and set(commands[0][1]) == set(consuls)      # the proconsul is not offered
    boss = [c for c in consuls if on[c][3] is None]
    assert len(boss) == 1
    assert on["nero"][3] == boss[0]


def test_consul_in_besieged_rome_only_when_nothing_else():
    """seed 003 "Подкрепления" (4): consuls may be placed in a besieged Rome only if there is no
    other place; seed 002 §6.4.2 is silent (RULINGS.md H-rf-8)."""
    def arrange(with_other):
        def go(g):
            clear_board(g)
            add_cus(g, "carthage", "carthago", 4)
            set_leader(g, "hanno", "carthago")
            set_leader(g, "hannibal", "roma")
            besiege(g, "roma", "carthage", inside=5, outside=8)
            if with_other:
                add_cus(g, "rome", "capua", 5)
        return go
    g = reinforcements(2, arrange(True))
    finish_phase(g)
    assert {v[1] for v in roman_leaders(g).values()} == {"capua"}
    g = reinforcements(2, arrange(False))
    finish_phase(g)
    assert {v[1] for v in roman_leaders(g).values()} == {"roma"}
    assert len(roman_leaders(g)) == 2


def test_consuls_without_a_stack_of_5():
    """seed 002 §6.4.2, §6.3 with RULINGS.md H-rf-8: when no space holds 5 Roman CUs (Rome
    besieged with 2 inside, no leader to take reinforcements), the consuls go to the largest Roman
    stack outside a besieged city."""
    def arrange(g):
        clear_board(g)
        set_leader(g, "hannibal", "roma")
        besiege(g, "roma", "carthage", inside=2, outside=8)
        add_cus(g, "rome", "capua", 3)
        add_cus(g, "rome", "nola", 3)
        add_cus(g, "rome", "tarentum", 1)
    g = reinforcements(2, arrange)
    lines_asked(g)
    asked = finish_phase(g)
    offers = [set(o) for p, o in asked if p.startswith("Rome: place consul")]
    assert offers == [{"capua", "nola"}, {"capua", "nola"}]
    assert len(roman_leaders(g)) == 2


# ---- Scipio Africanus (seed 002 §6.4.4, §8.9; seed 003 "Подкрепления" (2)) ------------

def _scipio_board(g):
    sides_board(g)
    set_leader(g, "fabius", "roma", office="consul")
    set_leader(g, "hannibal", "neapolis")
    add_cus(g, "carthage", "neapolis", 6)     # an enemy army in a Roman port
    set_pc(g, "tarentum", "carthage")         # a Carthaginian port


def test_scipio_africanus_not_before_turn_6():
    """seed 002 §6.4.4 ("In ronde 6"); seed 003 "Подкрепления" (2): in turn 5 he is not yet in
    play."""
    g = reinforcements(5, _scipio_board)
    asked = finish_phase(g)
    assert not any("Scipio" in p for p, _ in asked)
    assert field(g, "scipio_africanus", "where") == "aside"


def test_scipio_africanus_lands_in_turn_6():
    """seed 002 §6.4.4 (second proconsul; he and 5 extra CUs in any port of Italia or Hispania with
    a Roman PC and free of enemy armies; he stays until displaced), §6.4.1 (2. he is not taken off
    with the others); seed 003 "Подкрепления" (2)."""
    g = reinforcements(6, _scipio_board)
    lines_asked(g)
    while prompt(g).startswith("Rome: reinforcement"):
        answer(g, "roma")
    assert prompt(g) == "Rome: where does Scipio Africanus land?"
    ports = set(options(g))
    assert {"ostia", "brundisium", "ariminum", "pisae", "rhegium"} <= ports
    assert not ports & {"neapolis", "tarentum", "agrigentum", "messana", "genua", "carthago"}
    assert not ports & {"new_carthage", "saguntum"}       # Carthaginian PCs at the start
    answer(g, "brundisium")
    assert len(cus(g, "brundisium", "rome")) == 5
    assert field(g, "scipio_africanus", "office") == "proconsul"
    finish_phase(g)            # Fabius, the only other leader, is named proconsul alone
    on = roman_leaders(g)
    assert on["scipio_africanus"][:3] == ("map", "brundisium", "proconsul")
    assert on["fabius"][2] == "proconsul"
    assert sum(v[2] == "consul" for v in on.values()) == 2


def test_scipio_africanus_out_of_the_game_does_not_return():
    """seed 002 §8.9 ("Wanneer Scipio Africanus verplaatst wordt, wordt hij uit het spel
    genomen"): a Scipio out of the game is never landed again."""
    def arrange(g):
        _scipio_board(g)
        g.state["f"]["scipio_africanus"]["where"] = "out"
    g = reinforcements(6, arrange)
    asked = finish_phase(g)
    assert not any("Scipio" in p for p, _ in asked)
    assert field(g, "scipio_africanus", "where") == "out"


def test_scipio_africanus_waits_without_a_port():
    """seed 002 §6.4.4 with RULINGS.md H-rf-9: in turn 6 no port of Italia or Hispania is Roman
    and free: he waits, and lands at the first later phase that has one."""
    def arrange(g):
        _scipio_board(g)
        R = pack().records
        for x in pack().by_type["space"]:
            if R[x].get("port") and R[R[x]["province"]]["region"] in ("italia", "hispania"):
                set_pc(g, x, "carthage")
    g = reinforcements(6, arrange)
    asked = finish_phase(g)
    assert not any("Scipio" in p for p, _ in asked)
    assert "Scipio Africanus finds no friendly port and waits" in said(g)
    assert field(g, "scipio_africanus", "where") == "aside"
    # turn 7: Ostia is Roman again
    set_pc(g, "ostia", "rome")
    skip_strategy(g)
    asked = finish_phase(g)
    assert field(g, "scipio_africanus", "at") == "ostia"
    assert len(cus(g, "ostia", "rome")) >= 5
