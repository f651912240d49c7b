"""Hannibal: the reconstructed tables, the leaders and the set-up against the rulebooks.

Every worked example of seed 002 (Dutch rulebook) and seed 003 (Russian summary) with a
numeric answer is a test here; the tables are reconstructed (content/hannibal/tables.yaml),
so these tests are what holds them to the rules. The same examples are pack checks in
content/hannibal/tables.rules, which `engine validate` runs.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_pack

PACK_DIR = Path(__file__).resolve().parent.parent / "content" / "hannibal"


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK_DIR)


def call(pack, name, *args):
    return pack.call_value(name, *args)


def test_pack_checks_pass(pack):
    """`engine validate` runs the pack's checks, the worked examples among them."""
    assert pack.run_checks() == []


# ---- battle (seed 002 §11-§12) ---------------------------------------------------------------

def test_battle_example_cards(pack):
    """seed 002 §12: Hannibal (6 CUs + 1 ally) gets 11 cards; Flaminius (8 CUs, Rome holds 4
    Italian provinces) gets 14."""
    hannibal = pack.records["hannibal"]["battle"]
    flaminius = pack.records["flaminius"]["battle"]
    assert call(pack, "battle_cards", hannibal, 6, 1, False, False, False, False) == 11
    held = ["campania", "samnium", "etruria", "apulia"]
    allies = call(pack, "ally_cards", "rome", held, "cannae")
    assert allies == 4
    assert call(pack, "battle_cards", flaminius, 8, allies, False, False, False, False) == 14


def test_battle_example_initiative_rolls(pack):
    """seed 002 §12: Flaminius (2) fails on a 4, succeeds on a 2; Hannibal (4) fails on a 5,
    succeeds on a 3 (§11.6: a roll at most the rating takes the initiative)."""
    f, h = pack.records["flaminius"]["battle"], pack.records["hannibal"]["battle"]
    assert not call(pack, "rating_roll_succeeds", 4, f, 0)
    assert call(pack, "rating_roll_succeeds", 2, f, 0)
    assert not call(pack, "rating_roll_succeeds", 5, h, 0)
    assert call(pack, "rating_roll_succeeds", 3, h, 0)


def test_battle_example_losses(pack):
    """seed 002 §12: six rounds, a roll of 3 in column '5,6' → 1 CU each; Rome (8 CUs) rolls 4
    on the retreat table, column '5+' → 3 more; Rome lost 4 → 2 PCs."""
    both = call(pack, "battle_casualties", 6, 3)
    assert both == 1
    retreat = call(pack, "retreat_loss", 8, 4, None)
    assert retreat == 3
    assert call(pack, "battle_pc_loss", both + retreat) == 2


def test_four_round_battle_example(pack):
    """seed 002 §11.9: four rounds and a roll of 5 → each side loses 1 CU."""
    assert call(pack, "battle_casualties", 4, 5) == 1


def test_political_loss_examples(pack):
    """seed 002 §12.2: 3 CUs lost → 1 PC; 1 CU → none."""
    assert call(pack, "battle_pc_loss", 3) == 1
    assert call(pack, "battle_pc_loss", 1) == 0


def test_retreat_modifiers(pack):
    """seed 002 §11.10: +2 after a Double Envelopment win, -2 after a Probe win."""
    base = call(pack, "retreat_loss", 8, 3, None)
    envelopment = call(pack, "retreat_loss", 8, 3, "double_envelopment")
    probe = call(pack, "retreat_loss", 8, 3, "probe")
    assert envelopment == call(pack, "retreat_loss", 8, 5, None)
    assert probe == call(pack, "retreat_loss", 8, 1, None)
    assert envelopment >= base >= probe


def test_battle_card_cap(pack):
    """seed 002 §11.1; seed 003 "Порядок битвы" (5): never more than 20 battle cards."""
    assert call(pack, "battle_cards", 4, 30, 4, True, False, True, True) == 20


@pytest.mark.parametrize("side,held,at,expected", [
    # seed 002 §11.2.1 example 1: Hispania, Carthage 3 provinces, Rome 1
    ("carthage", ["baetica", "orospeda", "celtiberia"], "new_carthage", 3),
    ("rome", ["idubeda"], "new_carthage", 1),
    # example 2: Africa, Carthage holds Carthago and Carthagina, Rome Numidia Occidentalis
    ("carthage", ["carthage_province", "carthaginia"], "carthago", 2),
    ("rome", ["western_numidia"], "carthago", 2),
    # example 3: Sicilia: only Sicilia's holder, +1
    ("rome", ["sicilia", "syracuse_province", "campania"], "agrigentum", 1),
    ("carthage", ["carthage_province", "sardinia_corsica"], "agrigentum", 0),
    # the Cannae example: Carthage Gallia Cisalpina + Lucania, Rome Campania, Samnium, Etruria
    ("carthage", ["gallia_cisalpina", "lucania"], "cannae", 2),
    ("rome", ["campania", "samnium", "etruria", "latium"], "cannae", 3),
])
def test_ally_examples(pack, side, held, at, expected):
    """seed 002 §11.2.1: allied battle cards, the three examples and Cannae."""
    assert call(pack, "ally_cards", side, held, at) == expected


# ---- elephants, consuls, interception, pursuit (seed 002 §9-§14) -----------------------------

def test_elephant_charge(pack):
    """seed 002 §13.3: success on a roll above the Roman commander's battle rating; without a
    Roman leader it fails only on a 1 (seed 003 "Порядок битвы" (4): 2 or more); a 1 runs amok."""
    assert [call(pack, "elephant_charge_succeeds", r, None) for r in range(1, 7)] == \
        [False, True, True, True, True, True]
    assert [call(pack, "elephant_charge_succeeds", r, "flaminius") for r in range(1, 7)] == \
        [False, False, True, True, True, True]
    assert call(pack, "elephants_run_amok", 1) and not call(pack, "elephants_run_amok", 2)


def test_consul_command_roll(pack):
    """seed 002 §14.1: 1-3 no change, 4-6 the other consul; the example's 5 makes Varro command."""
    assert [call(pack, "command_switches", r) for r in range(1, 7)] == [False] * 3 + [True] * 3


def test_avoidance_and_pursuit_examples(pack):
    """seed 002 §10.3: Gisgo avoids battle only on a 1; Fabius pursues on 1-3."""
    gisgo, fabius = pack.records["gisgo"]["battle"], pack.records["fabius"]["battle"]
    assert [r for r in range(1, 7) if call(pack, "rating_roll_succeeds", r, gisgo, 0)] == [1]
    assert [r for r in range(1, 7)
            if call(pack, "rating_roll_succeeds", r, fabius, 0)] == [1, 2, 3]


def test_interception_modifier(pack):
    """seed 002 §9.2: +1 to the roll into a space with an enemy PC and no own CUs."""
    mod = pack.records["interception_pc_modifier"]["value"]
    assert call(pack, "rating_roll_succeeds", 2, 2, 0)
    assert not call(pack, "rating_roll_succeeds", 2, 2, mod)


# ---- naval movement (seed 002 §8.8.3) --------------------------------------------------------

def test_naval_example_1(pack):
    """seed 002 §8.8.3: Carthago (-2) to Carthago Nova (-2) → -4."""
    assert call(pack, "naval_modifier", "carthago", "new_carthage", False, False, False, False,
                False) == -4


def test_naval_example_2(pack):
    """seed 002 §8.8.3: one CU (-1), Carthago Nova (-2) to Rhegium (+1), a Roman PC there (+1)
    → -1."""
    assert call(pack, "naval_modifier", "new_carthage", "rhegium", True, True, False, False,
                False) == -1


def test_naval_table_results(pack):
    """seed 002 §8.8.3: results are sunk or turn back; worse with a higher roll."""
    order = {"safe": 0, "turn_back": 1, "sunk": 2}
    results = [call(pack, "naval_result", r, 0) for r in range(1, 7)]
    assert set(results) <= set(order) and {"turn_back", "sunk"} <= set(results)
    assert [order[x] for x in results] == sorted(order[x] for x in results)
    assert all(call(pack, "naval_result", r, -4) == "safe" for r in range(1, 7))


# ---- siege (seed 002 §16.4, card 30; research D1) ---------------------------------------------

def test_rome_falls_to_three_rolls(pack):
    """research/hannibal.md §9 (D1 [V]): Carthage needs a 5-6 three times to take Rome, 4-6
    with the siege train; seed 002 §16.4: three siege points take a city."""
    plain = [r for r in range(1, 7) if call(pack, "siege_point", r, "roma", "carthage", False)]
    train = [r for r in range(1, 7) if call(pack, "siege_point", r, "roma", "carthage", True)]
    assert plain == [5, 6] and train == [4, 5, 6]
    assert pack.records["siege_points_to_win"]["value"] == 3


def test_rome_besieges_without_penalty(pack):
    """seed 002 card 30: the -1 is Carthage's alone; Rome besieging Carthago needs 4-6."""
    assert [r for r in range(1, 7) if call(pack, "siege_point", r, "carthago", "rome", False)] \
        == [4, 5, 6]


# ---- attrition (seed 002 §13.2, §17) ---------------------------------------------------------

def test_attrition_grows_with_roll_and_column(pack):
    """seed 002 §17.2: more CUs and higher rolls never lose fewer."""
    cols = [1, 3, 5, 7, 9, 11, 15]
    for c in cols:
        losses = [call(pack, "attrition_loss", c, r) for r in range(0, 9)]
        assert losses == sorted(losses)
    for r in range(0, 9):
        losses = [call(pack, "attrition_loss", c, r) for c in cols]
        assert losses == sorted(losses)


def test_alpine_crossing(pack):
    """research/hannibal.md §6 (AAR1): Hannibal lost 2 CUs crossing the Alps; seed 002 §8.3.2:
    the Alps roll at +1. With his 10 CUs the average loss is about 2."""
    mod = pack.records["alpine_attrition_modifier"]["value"]
    losses = [call(pack, "attrition_loss", 10, r + mod) for r in range(1, 7)]
    assert 1.5 <= sum(losses) / 6 <= 2.5


def test_elephant_results_lose_a_unit(pack):
    """seed 002 §13.2: an 'e' result removes an elephant CU, so it is a loss of at least 1."""
    for c in [1, 3, 5, 7, 9, 11, 15]:
        for r in range(0, 9):
            if call(pack, "attrition_hits_elephant", c, r):
                assert call(pack, "attrition_loss", c, r) >= 1


# ---- victory (seed 002 §18.2) ----------------------------------------------------------------

def test_year_end_example(pack):
    """seed 002 §18.2: Rome 9, Carthage 7 → Carthage removes 2 PCs."""
    assert call(pack, "year_end_pc_loss", 7, 9) == 2
    assert call(pack, "year_end_pc_loss", 9, 7) == 0


# ---- leaders, turns and set-up (seed 002 §4, §6, §7.1) ---------------------------------------

def test_leader_roster(pack):
    """research/hannibal.md §6 [V]: 9 Roman and 5 Carthaginian leaders; seed 002 §4.1: the 8
    round consul markers are the Romans other than Scipio Africanus."""
    leaders = [pack.records[i] for i in pack.by_type["leader"]]
    assert sum(x["side"] == "rome" for x in leaders) == 9
    assert sum(x["side"] == "carthage" for x in leaders) == 5
    pool = [x["id"] for x in leaders if x["role"] == "consul_pool"]
    assert len(pool) == 8 and "scipio_africanus" not in pool


def test_turn_track(pack):
    """seed 002 §4, §6.4.4, §7.1: nine turns from 218 BC; 7/8/9 cards by thirds; Scipio
    Africanus in turn 6 (211-210 BC); no reinforcements in turn 1 (§5)."""
    turns = sorted((pack.records[i] for i in pack.by_type["turn"]), key=lambda t: t["number"])
    assert [t["number"] for t in turns] == list(range(1, 10))
    assert [t["cards"] for t in turns] == [7] * 3 + [8] * 3 + [9] * 3
    assert turns[0]["year_from"] == 218 and not turns[0]["reinforcements"]
    assert all(t["reinforcements"] for t in turns[1:])
    six = turns[5]
    assert six["scipio_africanus"] and (six["year_from"], six["year_to"]) == (211, 210)
    assert [t["number"] for t in turns if t["scipio_africanus"]] == [6]


def test_setup(pack):
    """seed 002 §4.1-§4.2 and seed 003 "Подготовка к игре": the five starting stacks."""
    stacks = {pack.records[i]["at"]: pack.records[i] for i in pack.by_type["start_stack"]}
    assert {k: (v["side"], v["leader"], v["cus"]) for k, v in stacks.items()} == {
        "roma": ("rome", "publius_scipio", 8),
        "agrigentum": ("rome", "tiberius_longus", 8),
        "carthago": ("carthage", "hanno", 4),
        "saguntum": ("carthage", "hannibal", 10),
        "new_carthage": ("carthage", "hasdrubal", 2),
    }
    saguntum = stacks["saguntum"]
    assert saguntum["elephants"] == 2 and saguntum["subordinates"] == ["mago", "gisgo"]


def test_reinforcements(pack):
    """seed 002 §6.1-§6.3: Carthage up to 4 CUs (one per line), Rome 5 with at least 3 in
    Italia; seed 002 §6.4.4: Scipio Africanus brings 5."""
    rows = [pack.records[i] for i in pack.by_type["reinforcement"]]
    carthage = [r for r in rows if r["side"] == "carthage"]
    rome = [r for r in rows
            if r["side"] == "rome" and r["id"] != "rome_reinforcement_scipio_africanus"]
    assert sum(r["cus"] for r in carthage) == pack.records["carthage_reinforcements"]["value"] == 4
    assert sum(r["cus"] for r in rome) == pack.records["rome_reinforcements"]["value"] == 5
    assert pack.records["rome_reinforcement_italia"]["cus"] == 3
    assert pack.records["rome_reinforcement_scipio_africanus"]["cus"] == 5


def test_disagreements_recorded(pack):
    """The Dutch worked examples rule over the research ratings: the other value is kept."""
    assert pack.records["gisgo"]["battle"] == 1
    assert pack.records["gisgo"]["disagree"][0]["value"] == 2
    assert pack.records["fabius"]["battle"] == 3
    assert pack.records["pass_attrition_modifier"]["value"] == -1
    assert pack.records["pass_attrition_modifier"]["disagree"][0]["value"] == -2
