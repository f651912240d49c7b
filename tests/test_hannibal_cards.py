"""Hannibal: Rome vs. Carthage, the card data (content/hannibal/cards.yaml, cards.rules).

One test per rule; each docstring names where the rule comes from: seed 002 (the Dutch
rulebook, section numbers and "card list #n" for its "Vertaling van de Operatie- en
Gebeurteniskaarten"), seed 003 (the Russian summary) or research/hannibal.md (with its
reliability tag). content/hannibal/CARDS.md explains the decisions.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from engine import load_pack
from engine.i18n.translations import Catalog

ROOT = Path(__file__).resolve().parents[1]
PACK = load_pack(ROOT / "content" / "hannibal")
R = PACK.records
CARDS = {R[c]["number"]: R[c] for c in PACK.by_type["strategy_card"]}
TYPES = {t: R[t] for t in PACK.by_type["battle_card_type"]}
BATTLE = [R[b] for b in PACK.by_type["battle_card"]]
TRANSLATIONS = [ROOT / "content" / "translations"]


def numbers(pred) -> set[int]:
    return {n for n, c in CARDS.items() if pred(c)}


# ---- strategy cards ----------------------------------------------------------------------------

def test_64_strategy_cards_numbered_1_to_64():
    """seed 002 §2.1: 64 strategy cards; the card list numbers the events 1-64."""
    assert len(PACK.by_type["strategy_card"]) == 64
    assert sorted(CARDS) == list(range(1, 65))


def test_ops_values_are_1_to_3():
    """seed 002 §7.3 and the card-list legend: the number in the top left corner is 1, 2 or 3."""
    assert {c["ops"] for c in CARDS.values()} == {1, 2, 3}


def test_ship_exactly_on_ops_3_and_campaign_cards():
    """seed 002 §8.8: a sea move needs an ops-3 card or a campaign card, 'these cards carry the
    ship'; seed 003 "Движение морем" says the same."""
    for n, c in CARDS.items():
        assert c["ship"] == (c["ops"] == 3 or c["campaign"] > 0), n
    assert numbers(lambda c: c["ship"]) == {9, 12, 16, 25, 27, 30, 33, 34, 37, 38, 39, 40, 43,
                                             50, 63}


def test_campaign_cards():
    """seed 002 §8.1: 'Grote veldtocht' moves 3 generals, 'Begrensde veldtocht' 2 (card list
    #33-#34, #37-#40); §8.8.2: either lets one army of up to 10 CUs go by sea."""
    assert numbers(lambda c: c["campaign"] == 3) == {33, 34}
    assert numbers(lambda c: c["campaign"] == 2) == {37, 38, 39, 40}
    assert numbers(lambda c: c["campaign"] > 0) == {33, 34, 37, 38, 39, 40}
    assert all(CARDS[n]["ship"] for n in (33, 34, 37, 38, 39, 40))


def test_dual_use_cards():
    """seed 002 §7.2: Verrader in Tarentum (18), Einheimische Führer (5), Piraten in der Adria
    (50) and 'Hannibal in Italia' (28) are used for ops and event at once; research/hannibal.md
    §7, AH errata E1 [V]: Treachery within City (54) too."""
    assert numbers(lambda c: c["dual_use"]) == {5, 18, 28, 50, 54}


def test_response_cards():
    """seed 002 §7.4.1: response events may be played in the other side's move or battle; it cites
    Maharbal's Cavalry (#6). Events played in a battle (#6, #20, #31, #32, #42) are responses;
    the others are research/hannibal.md §7 [S]."""
    assert numbers(lambda c: c["response"]) == {6, 7, 8, 20, 31, 32, 41, 42, 55, 60}


def test_removed_cards_and_philip_v():
    """seed 002 §7.4.2: 'Aus dem Spiel entfernen' cards leave the game when played as an event;
    Philip V (#9) is the one card played twice, the second time to cancel the first, and leaves
    only then (card list #9: Carthage plays the alliance, Rome ends it)."""
    assert numbers(lambda c: c["remove"]) == {9, 18, 24, 25, 26, 27, 29, 43}
    philip = CARDS[9]
    assert philip["event_side"] is None and philip["remove"]
    assert "second" in philip["note"]


@pytest.mark.parametrize("number, side", [
    (21, "rome"),       # card list #21: every Carthaginian CU checks attrition
    (22, "carthage"),   # #22: a Carthaginian CU and PC go to Sicilia
    (23, "rome"),       # #23: Rome places CUs in Numidia
    (44, "rome"), (45, "rome"), (46, "rome"), (47, "rome"), (48, "rome"),  # #44-#48: 'de Romein'
    (56, "carthage"),   # #56: removes Roman PCs
    (9, None),          # #9 and §7.4.2: Carthage's first play, Rome's second
])
def test_whose_event_follows_the_dutch_text(number, side):
    """seed 002 card list #9, #21, #22, #23, #44-#48, #56 decide whose event it is where
    research/hannibal.md §7 [S] (H) says otherwise (research §11.3); H's value is kept in
    `disagree:`."""
    card = CARDS[number]
    assert card["event_side"] == side
    assert any(d["field"] == "event_side" and d["value"] != side for d in card["disagree"])


def test_forced_march_cards():
    """seed 002 card list #61-#63: a forced march moves a strategy-1, 1-or-2, up-to-3 general 6
    spaces (§8.2); the text mirrors the ops legend, so ops 1, 2, 3 (research §11.3 [I]) and
    only #63 carries the ship (§8.8)."""
    for n, rating in ((61, 1), (62, 2), (63, 3)):
        assert CARDS[n]["forced_march"] == rating and CARDS[n]["ops"] == rating
        assert CARDS[n]["ship"] == (rating == 3)
    assert numbers(lambda c: c["forced_march"] > 0) == {61, 62, 63}


def test_adriatic_pirates_carries_a_ship():
    """seed 002 card list #50: its event changes a sea move made with its ops, and §8.8 allows
    a sea move only with an ops-3 or campaign card, so it is an ops-3 ship card [I]."""
    pirates = CARDS[50]
    assert pirates["ops"] == 3 and pirates["ship"] and pirates["dual_use"]
    assert pirates["event_side"] == "carthage"


def test_allied_auxiliaries_keep_ops_2():
    """seed 002 card list #44-#48 prints no ops; research/hannibal.md §7 keeps H's 2 [S] and
    notes BGG1's 1 [X] as a disagreement."""
    for n in range(44, 49):
        assert CARDS[n]["ops"] == 2
        assert {"field": "ops", "value": 1} in [{k: d[k] for k in ("field", "value")}
                                                for d in CARDS[n]["disagree"]]


def test_disagreements_are_well_formed():
    """research/hannibal.md §11.3: every conflict between H (or BGG1) and the Dutch text is kept
    as {field, value, source}, and the other source's value differs from ours."""
    seen = 0
    for n, c in CARDS.items():
        for d in c.get("disagree") or []:
            assert set(d) == {"field", "value", "source"}, n
            assert d["field"] in c and d["value"] != c[d["field"]], (n, d)
            assert "research/hannibal.md" in d["source"], n
            seen += 1
    assert seen == 32


def test_treachery_within_city_dual_use_disagrees_with_the_dutch_list():
    """seed 002 §7.2 names four dual-use cards; #54 is dual use by the AH errata: the choice is
    kept as a disagreement that cites the Dutch list."""
    c = CARDS[54]
    assert c["dual_use"] is True
    (d,) = [d for d in c["disagree"] if d["field"] == "dual_use"]
    assert d["value"] is False and "seed 002 §7.2" in d["source"]


# ---- battle cards ------------------------------------------------------------------------------

def test_battle_deck_mix():
    """seed 002 §2.1: 48 battle cards; research/hannibal.md §8 [V]: 12 Frontal Assault, 9 Flank
    Left, 9 Flank Right, 8 Probe, 6 Double Envelopment, 4 Reserve."""
    assert len(BATTLE) == 48
    want = {"frontal_assault": 12, "flank_left": 9, "flank_right": 9, "probe": 8,
            "double_envelopment": 6, "reserve": 4}
    assert {t: r["copies"] for t, r in TYPES.items()} == want
    for t, k in want.items():
        assert sorted(b["copy"] for b in BATTLE if b["kind"] == t) == list(range(1, k + 1))
    assert sorted(r["order"] for r in TYPES.values()) == [1, 2, 3, 4, 5, 6]


def test_reserve_is_the_only_joker():
    """seed 002 §11.7: the four Reserve cards are jokers, played as any of the five other types."""
    assert [t for t, r in TYPES.items() if r["joker"]] == ["reserve"]
    assert TYPES["reserve"]["copies"] == 4


# ---- the pack's own checks and the names -------------------------------------------------------

def test_card_checks_hold():
    """content/hannibal/cards.rules: the pack's self-checks of the card data all hold."""
    failed = [f for f in PACK.run_checks() if "cards.rules" in str(f)]
    assert failed == []


def test_names_in_three_languages():
    """content/translations/README.md: English names for every card and battle-card type; Dutch
    only as seed 002 prints them (#41 and #60 are both 'Zeestorm'); Russian only as seed 003
    prints them (campaign cards, 'Двойные клещи')."""
    en, nl, ru = (Catalog(PACK, lang, TRANSLATIONS) for lang in ("en", "nl", "ru"))
    for rid in [*PACK.by_type["strategy_card"], *TYPES]:
        assert en.own_name(rid), rid
    assert nl.own_name(CARDS[41]["id"]) == nl.own_name(CARDS[60]["id"]) == "Zeestorm"
    assert nl.own_name(CARDS[18]["id"]) == "Verrader in Tarentum"
    assert nl.own_name(CARDS[1]["id"]) is None
    assert ru.own_name(CARDS[33]["id"]) == "Большая кампания"
    assert ru.own_name(CARDS[37]["id"]) == "Малая кампания"
    assert ru.own_name("double_envelopment") == "Двойные клещи"
    assert ru.own_name(CARDS[1]["id"]) is None
