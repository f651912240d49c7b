"""Hannibal: the strategy-card events of battles (seed 002 card list #6, #19, #20, #31, #32, #42;
§7.4.1 response events; §11-§13 battles). Rulings: RULINGS.md "Events: battle" (H-eb-1 ...).

Each battle test sets up a position by editing the state (tests/hannibal_play.py), gives the
strategy cards, lets an army march into the enemy and answers the battle's decisions by value."""
from __future__ import annotations

from hannibal_play import (
    add_cus,
    answer,
    board,
    field,
    give,
    logged,
    options,
    play_ops,
    prompt,
    set_hands,
    set_leader,
    set_pc,
    start_turn,
)

SPAIN = {
    "baetica": ["gades", "hispalis", "corduba", "malaca"],
    "orospeda": ["new_carthage", "baria", "acci", "castulo", "ilici"],
    "celtiberia": ["toletum", "salmantica", "segobriga", "numantia"],
    "idubeda": ["saguntum", "dertosa", "tarraco", "ilergetes", "salduie", "emporiae"],
}
NUMIDIA = ["cirta", "hippo_regius", "theveste", "thabraca", "siga", "iol", "icosium", "saldae"]
AFRICA_REST = ["carthago", "utica", "tunes", "hadrumetum", "thapsus", "zama", "sicca"]


# ---- helpers -----------------------------------------------------------------------------

def says(g, text: str) -> list[str]:
    return [line for line in logged(g).splitlines() if text in line]


def hand(g, side: str) -> list[str]:
    return list(g.state["z"][f"battle_hand|{side}"])


def attack(g, frm: str, to: str, n: int, carthage=(), rome=()) -> None:
    """Carthage plays Bad Weather for ops and marches Hannibal with n CUs from `frm` into `to`;
    its hand and Rome's hold these strategy cards besides."""
    give(g, "carthage", "bad_weather", "diplomacy_35", *carthage)
    give(g, "rome", "diplomacy_36", "epidemic", *rome)
    start_turn(g)
    play_ops(g, "bad_weather", "move")
    if "go with him" in prompt(g):
        answer(g, n)
    answer(g, "march", to)
    if "try to avoid the battle" in prompt(g):
        answer(g, False)


def window(g, side: str, name: str = "battle_response"):
    d = g.decision
    assert d is not None and d.window == name and d.side == side, (d, prompt(g))
    return d


def arpi_board():
    """Hannibal with 6 CUs in Arpi; Flaminius with 8 CUs in Cannae (seed 002 §12's example)."""
    g = board()
    set_leader(g, "hannibal", "arpi")
    add_cus(g, "carthage", "arpi", 6)
    set_leader(g, "flaminius", "cannae", office="consul")
    add_cus(g, "rome", "cannae", 8)
    return g


# ---- card 6: Maharbal's cavalry ------------------------------------------------------------

def cavalry_battle():
    g = arpi_board()
    attack(g, "arpi", "cannae", 6, carthage=["maharbals_cavalry"])
    window(g, "carthage")
    assert "maharbals_cavalry" in options(g)
    answer(g, "maharbals_cavalry")
    assert says(g, "Carthage brings Maharbal's cavalry into the battle")
    window(g, "carthage")  # another card? (RULINGS.md H-eb-5)
    answer(g, None)
    window(g, "rome")
    answer(g, None)
    # the deal has no decision: the first question is the cavalry's, asked of the leader
    assert g.decision.side == "carthage" and "lead Maharbal's cavalry" in prompt(g)
    return g


def test_card_6_maharbal_matched_keeps_the_initiative():
    """seed 002 card list #6 (played during the battle as a Double Envelopment; matched, the
    opponent still does not take the initiative), §11.6 (a matched Double Envelopment normally
    hands it over); §7.4.1 (a response event). RULINGS.md H-eb-1."""
    g = cavalry_battle()
    assert "maharbals_cavalry" in g.state["z"]["discard"]
    set_hands(g, ["probe_01", "probe_02"], ["double_envelopment_01", "flank_left_01"])
    answer(g, True)
    assert says(g, "Round 1: Carthage leads Maharbal's cavalry as a Double Envelopment")
    assert set(options(g)) == {"double_envelopment_01", None}  # §11.5: Rome must match it
    answer(g, "double_envelopment_01")
    assert says(g, "Round 1: Carthage leads Double Envelopment, Rome matches")
    assert says(g, "Maharbal's cavalry is matched: Carthage keeps the initiative")
    assert not says(g, "takes the initiative") and not says(g, "Counterattack roll")
    # round 2: Carthage leads again, from its own hand: the cavalry was used once
    assert g.decision.side == "carthage" and "lead a battle card (round 2)" in prompt(g)
    assert hand(g, "carthage") == ["probe_01", "probe_02"]


def test_card_6_maharbal_unmatched_wins_by_double_envelopment():
    """seed 002 card list #6, §11.4 (a card not matched wins the battle), §11.10 (won by a
    Double Envelopment: +2 on the loser's retreat roll)."""
    g = cavalry_battle()
    set_hands(g, ["probe_01"], ["flank_left_01", "frontal_assault_01"])
    answer(g, True)  # nothing in Rome's hand answers it: the engine passes for Rome
    assert says(g, "Round 1: Carthage leads Double Envelopment, Rome cannot match: Carthage wins")
    assert says(g, "Retreat table for Rome")  # §11.10: won_by Double Envelopment (+2)


def test_card_6_declined_leaves_the_round_to_the_hand_and_is_not_rome_s():
    """seed 002 card list #6 (Carthage's cavalry: research/hannibal.md §7, Carthage's event):
    Carthage may keep it for a later round; Rome is never offered it."""
    g = cavalry_battle()
    answer(g, False)
    assert "lead a battle card (round 1)" in prompt(g)
    g = arpi_board()
    attack(g, "arpi", "cannae", 6, rome=["maharbals_cavalry"])
    window(g, "carthage")
    answer(g, None)
    window(g, "rome")
    assert options(g) == [None]


# ---- card 19: the Senate dismisses the proconsul -------------------------------------------

def proconsul_board():
    g = board()
    set_leader(g, "marcellus", "roma", office="proconsul")
    set_leader(g, "varro", "roma", chief="marcellus")
    add_cus(g, "rome", "roma", 5)
    set_leader(g, "hannibal", "new_carthage")
    add_cus(g, "carthage", "new_carthage", 2)
    give(g, "rome", "senate_dismisses_proconsul", "epidemic")
    give(g, "carthage", "diplomacy_35", "bad_weather")
    start_turn(g, first="rome")
    answer(g, "senate_dismisses_proconsul")
    return g


def test_card_19_rome_replaces_its_proconsul_with_a_leader_of_its_choice():
    """seed 002 card list #19 (Rome's proconsul, not Scipio Africanus, is removed and replaced
    by a leader "of his choice": Rome's), §8.5 (the new leader takes the old one's place and
    holding box). RULINGS.md H-eb-2."""
    g = proconsul_board()
    assert options(g) == ["ops", "event", "discard"]
    answer(g, "event")
    assert g.decision.side == "rome" and "who replaces proconsul" in prompt(g)
    assert "marcellus" not in options(g) and "scipio_africanus" not in options(g)
    answer(g, "fabius")
    assert field(g, "fabius", "where") == "map" and field(g, "fabius", "at") == "roma"
    assert field(g, "fabius", "office") == "proconsul" and field(g, "fabius", "chief") is None
    assert field(g, "marcellus", "where") == "aside" and field(g, "marcellus", "at") is None
    assert field(g, "varro", "chief") == "fabius"
    assert says(g, "The Senate dismisses proconsul")


def test_card_19_without_a_proconsul_nothing_happens():
    """seed 002 card list #19 ("Wanneer de Romein een proconsul op het bord heeft"): Scipio
    Africanus is not dismissed; without another proconsul nothing happens (RULINGS.md H-eb-2)."""
    g = proconsul_board()
    g.state["f"]["marcellus"]["office"] = "none"
    set_leader(g, "scipio_africanus", "tarraco", office="proconsul")
    answer(g, "event")
    assert says(g, "Rome has no proconsul to dismiss")
    assert field(g, "scipio_africanus", "where") == "map"
    assert field(g, "marcellus", "where") == "map"


# ---- card 20: a spy in the enemy camp ------------------------------------------------------

def test_card_20_spy_sees_half_the_enemy_cards_until_they_leave_the_hand():
    """seed 002 card list #20 (at the start of a battle the player looks at half the opponent's
    battle cards, drawn at random; they stay face up during the battle); research/hannibal.md §8
    (the AH battle order: deal, show the cards the spy revealed, fight). RULINGS.md H-eb-3.
    Only the spy's side sees them; a card played or returned to the deck is hidden again."""
    g = arpi_board()
    attack(g, "arpi", "cannae", 6, carthage=["spy_in_enemy_camp"])
    window(g, "carthage")
    assert g.view("rome")["decision"] == {  # Rome's view of Carthage's window: no options
        "side": "carthage", "kind": "one", "window": "battle_response",
        "prompt": "Play a strategy card for this battle?"}
    answer(g, "spy_in_enemy_camp", None)
    window(g, "rome")
    answer(g, None)
    n_rome = len(hand(g, "rome"))
    seen = g.view("carthage")["zones"]["battle_hand|rome"]["revealed"]
    assert len(seen) == n_rome // 2 and set(seen) <= set(hand(g, "rome"))
    assert says(g, f"The spy of Carthage sees {n_rome // 2} of the {n_rome} battle cards of Rome")
    # Rome sees its own hand, and none of Carthage's
    assert g.view("rome")["zones"]["battle_hand|carthage"]["revealed"] == []
    # face up through the battle: still known after the first round
    lead = hand(g, "carthage")[0]
    answer(g, lead)
    while g.decision is not None and "match" in prompt(g):
        answer(g, options(g)[0])
        break
    still = g.view("carthage")["zones"]["battle_hand|rome"]
    assert set(still["revealed"]) == set(seen) & set(hand(g, "rome"))
    # after the battle every card is back in the deck, hidden again
    while not g.over and g.state["z"]["battle_hand|rome"]:
        d = g.decision
        g.apply(g.legal_actions()[-1] if d.kind == "ask" else g.legal_actions()[0],
                side=d.side, decision=d.id)
    assert not any(c in g.state["revealed"] for c in seen)


# ---- card 31: Spanish allies desert --------------------------------------------------------

def spain_board():
    """Hannibal with 5 CUs in Toletum, Publius Scipio with 5 CUs in Segobriga (Celtiberia);
    Carthage holds Baetica and Orospeda (2 ally cards), nobody the rest of Hispania."""
    g = board()
    for prov, spaces in SPAIN.items():
        for x in spaces:
            set_pc(g, x, "carthage" if prov in ("baetica", "orospeda") else None)
    set_leader(g, "hannibal", "toletum")
    add_cus(g, "carthage", "toletum", 5)
    set_leader(g, "publius_scipio", "segobriga", office="consul")
    add_cus(g, "rome", "segobriga", 5)
    return g


def test_card_31_spanish_allies_leave_the_opponent_after_the_deal():
    """seed 002 card list #31 (the opponent gets no battle cards for Spanish allies), §11.2.1
    (each allied province of Hispania: one card, example 1); Rome plays it as the defender.
    Carthage: 4 (Hannibal) + 5 CUs + 2 allies = 11, less 2 = 9. RULINGS.md H-eb-4."""
    g = spain_board()
    attack(g, "toletum", "segobriga", 5, rome=["spanish_allies_desert"])
    window(g, "carthage")
    answer(g, None)
    window(g, "rome")
    assert "spanish_allies_desert" in options(g)
    answer(g, "spanish_allies_desert", None)
    assert says(g, "The Spanish allies of Carthage desert: Carthage loses the 2 battle cards")
    assert says(g, "Battle cards: Carthage 11, Rome 7")
    assert says(g, "2 battle cards of Carthage lost with its allies: Carthage keeps 9")
    assert len(hand(g, "carthage")) == 9 and len(hand(g, "rome")) == 2 + 5
    assert len(g.state["z"]["battle_deck"]) == 48 - 9 - 7


def test_card_31_not_offered_without_spanish_allies_in_the_battle():
    """seed 002 card list #31, §11.2.1 (Spanish allies count only in Hispania): in Apulia the
    card would do nothing, and it is not offered (RULINGS.md H-eb-4)."""
    g = arpi_board()
    attack(g, "arpi", "cannae", 6, rome=["spanish_allies_desert"])
    window(g, "carthage")
    answer(g, None)
    window(g, "rome")
    assert options(g) == [None]


# ---- card 32: Numidian allies desert, with the spy ----------------------------------------

def numidia_board(both: bool = True):
    """Hannibal with 5 CUs in Hippo Regius, Publius Scipio with 5 CUs in Cirta; Carthage holds
    both Numidias (4 ally cards, §11.2.1), or only Eastern Numidia."""
    g = board()
    for x in NUMIDIA:
        set_pc(g, x, "carthage" if both or x in NUMIDIA[:4] else None)
    for x in AFRICA_REST:
        set_pc(g, x, None)
    set_leader(g, "hannibal", "hippo_regius")
    add_cus(g, "carthage", "hippo_regius", 5)
    set_leader(g, "publius_scipio", "cirta", office="consul")
    add_cus(g, "rome", "cirta", 5)
    return g


def test_card_32_numidian_allies_desert():
    """seed 002 card list #32 (played at the start of a battle: a player controlling both
    Numidias loses all four of their cards), §11.2.1 (each Numidia gives 2). Carthage: 4 + 5 +
    4 = 13, less 4 = 9."""
    g = numidia_board()
    attack(g, "hippo_regius", "cirta", 5, rome=["numidian_allies_desert"])
    window(g, "carthage")
    answer(g, None)
    window(g, "rome")
    answer(g, "numidian_allies_desert", None)
    assert says(g, "The Numidian allies of Carthage desert: Carthage loses the 4 battle cards")
    assert len(hand(g, "carthage")) == 9


def test_card_32_needs_both_numidias():
    """seed 002 card list #32 ("beide Numidische provincies"): with one Numidia it is not
    offered (RULINGS.md H-eb-4)."""
    g = numidia_board(both=False)
    attack(g, "hippo_regius", "cirta", 5, rome=["numidian_allies_desert"])
    window(g, "carthage")
    answer(g, None)
    window(g, "rome")
    assert options(g) == [None]


def test_card_32_with_the_spy_picks_among_the_face_up_cards():
    """seed 002 card list #20 (with 'Verbundete desertieren' the player may pick one of the
    face-up cards, or take one at random), #32; research/hannibal.md §8 (a side declares its
    battle cards: more than one). Rome plays both: the spy shows 6 of Carthage's 13 cards, Rome
    picks 3 of them to desert, the 4th goes at random. RULINGS.md H-eb-5."""
    g = numidia_board()
    attack(g, "hippo_regius", "cirta", 5, rome=["numidian_allies_desert", "spy_in_enemy_camp"])
    window(g, "carthage")
    answer(g, None)
    window(g, "rome")
    answer(g, "spy_in_enemy_camp")
    window(g, "rome")  # asked again after a card played
    answer(g, "numidian_allies_desert", None)
    seen = g.view("rome")["zones"]["battle_hand|carthage"]["revealed"]
    assert len(seen) == 6
    assert g.decision.side == "rome" and "which face-up cards of carthage desert" in prompt(g)
    assert {o for o in options(g) if o is not None} == set(seen)
    answer(g, seen[0], seen[1], seen[2], None)
    assert len(hand(g, "carthage")) == 9
    assert not {seen[0], seen[1], seen[2]} & set(hand(g, "carthage"))
    assert says(g, "4 battle cards of Carthage lost with its allies: Carthage keeps 9")


# ---- card 42: the elephants take fright ----------------------------------------------------

def elephant_board(rome=()):
    g = board()
    set_leader(g, "hannibal", "arpi")
    add_cus(g, "carthage", "arpi", 4)
    add_cus(g, "carthage", "arpi", 2, elephant=True)
    set_leader(g, "flaminius", "cannae", office="consul")
    add_cus(g, "rome", "cannae", 8)
    attack(g, "arpi", "cannae", 6, rome=list(rome))
    window(g, "carthage")
    answer(g, None)
    window(g, "rome")
    assert "elephant_fright" not in options(g)  # it answers the charge, not the battle's start
    answer(g, None)
    assert "charge with the 2 elephant CUs" in prompt(g)
    return g


def test_card_42_elephant_fright_costs_carthage_a_card_per_elephant():
    """seed 002 card list #42 (played when Carthage wants to charge: Carthage loses as many
    battle cards as it has elephant CUs), §13.3 (the charge is announced before the deal).
    The charge is not rolled (RULINGS.md H-eb-6). Carthage: 4 + 6 CUs = 10, less 2 = 8."""
    g = elephant_board(rome=["elephant_fright"])
    g.load_dice([6])
    answer(g, True)
    window(g, "rome", "elephant_response")
    assert "elephant_fright" in options(g)
    answer(g, "elephant_fright")
    assert says(g, "The elephants take fright: Carthage loses 2 battle cards")
    assert not says(g, "Elephant charge, roll")
    assert g.state["dice"] == [6]  # no charge roll
    assert len(hand(g, "carthage")) == 10 - 2 and len(hand(g, "rome")) == 2 + 8 + 5
    assert "elephant_fright" in g.state["z"]["discard"]


def test_card_42_window_is_asked_at_every_charge():
    """seed 002 §7.4.1; RULINGS.md H-eb-6: Rome is asked whatever it holds, so that Carthage
    learns nothing of Rome's hand; passing, the charge is rolled (§13.3)."""
    g = elephant_board()
    answer(g, True)
    window(g, "rome", "elephant_response")
    assert options(g) == [None]
    assert g.view("carthage")["decision"] == {
        "side": "rome", "kind": "one", "window": "elephant_response",
        "prompt": "Rome: play a strategy card against the elephant charge?"}
    g.load_dice([3])
    answer(g, None)
    assert says(g, "Elephant charge, roll 3: Rome loses 2 battle cards")
