"""Hannibal: battles, from the set-up to the retreat table (seed 002 §11.1-§11.10, §12 "Voorbeeld
van een veldslag", §13, §14.1; seed 003 "Порядок битвы", "Раунд битвы").

Each test sets up a position by editing the state (tests/hannibal_play.py), lets an army march
into the enemy as a player would, and answers the battle's decisions by value. Battle hands are
set by state editing at the first decision after the deal. Rulings: RULINGS.md "## Battle"
(H-bt-1 ...)."""
from __future__ import annotations

from hannibal_play import (
    add_cus, answer, clear_board, cus, field, give, logged, new_game, options, play_ops, prompt,
    set_leader, set_pc, start_turn,
)


# ---- helpers -----------------------------------------------------------------------------

def says(g, text: str) -> list[str]:
    """The log lines (as a person reads them) that contain this text."""
    return [line for line in logged(g).splitlines() if text in line]


def board(seed: int = 1):
    g = new_game(seed)
    clear_board(g)
    return g


def attack(g, leader: str, frm: str, to: str, n: int, side: str = "carthage") -> None:
    """`side` plays a card for ops and marches `leader` with n CUs from `frm` into `to`."""
    if side == "carthage":
        give(g, "carthage", "bad_weather", "diplomacy_35")
        give(g, "rome", "diplomacy_36", "epidemic")
        start_turn(g)
        play_ops(g, "bad_weather", "move")
    else:
        give(g, "rome", "diplomacy_36", "epidemic")
        give(g, "carthage", "bad_weather", "diplomacy_35")
        start_turn(g, first="rome")
        play_ops(g, "diplomacy_36", "move")
        if leader in options(g):
            answer(g, leader)
    if "go with him" in prompt(g):
        answer(g, n)
    answer(g, "march", to)


def windows(g, attacker: str = "carthage") -> None:
    """seed 003 "Порядок битвы" (2), (3): the attacker, then the defender, is asked whether it
    plays a battle strategy card; both pass."""
    for s in (attacker, "rome" if attacker == "carthage" else "carthage"):
        d = g.decision
        assert d.window == "battle_response" and d.side == s, (d, prompt(g))
        answer(g, None)


def hand(g, side: str) -> list[str]:
    return list(g.state["z"][f"battle_hand|{side}"])


def set_hands(g, carthage: list[str], rome: list[str]) -> None:
    """Every battle card back in the deck, then these hands (state editing, as a deal would),
    at the first lead of the battle (the deal has no decision after it)."""
    z, loc = g.state["z"], g.state["loc"]
    for key in ("battle_hand|carthage", "battle_hand|rome"):
        for c in list(z[key]):
            z[key].remove(c)
            z["battle_deck"].append(c)
            loc[c] = "battle_deck"
    for side, cards in (("carthage", carthage), ("rome", rome)):
        for c in cards:
            z["battle_deck"].remove(c)
            z[f"battle_hand|{side}"].append(c)
            loc[c] = f"battle_hand|{side}"
    d = g.state["decision"]  # the lead asked of the first round: its options are the new hand
    if d is not None and "lead a battle card" in d["prompt"]:
        d["options"] = list(z[f"battle_hand|{d['side']}"])


def is_lead(g, side: str) -> bool:
    return g.decision is not None and g.decision.side == side and "lead a battle card" in prompt(g)


# ---- the battle example (seed 002 §12, "Voorbeeld van een veldslag") ----------------------

CARTHAGE_HAND = [  # 11 cards: three Flank Right, the two Frontal Assaults it matches, a Reserve
    "flank_right_01", "flank_right_02", "flank_right_03", "frontal_assault_01",
    "frontal_assault_02", "reserve_01", "flank_left_01", "flank_left_02", "probe_01", "probe_02",
    "double_envelopment_01"]
ROME_HAND = [  # 14 cards: two Flank Right, two Frontal Assaults led, a Reserve, 9 that cannot
    # answer a Flank Right
    "flank_right_04", "flank_right_05", "frontal_assault_03", "frontal_assault_04", "reserve_02",
    "frontal_assault_05", "frontal_assault_06", "flank_left_03", "flank_left_04",
    "flank_left_05", "probe_03", "probe_04", "double_envelopment_02", "double_envelopment_03"]


def example_board():
    """Hannibal with 6 CUs in Arpi, one allied province (Gallia Cisalpina); Flaminius with 8 CUs
    in Cannae, Apulia; Rome holds 4 Italian allies (Campania, Samnium, Apulia, Etruria), and
    Latium, which never counts (§11.2.1)."""
    g = board()
    set_leader(g, "hannibal", "arpi")
    add_cus(g, "carthage", "arpi", 6)
    set_leader(g, "flaminius", "cannae", office="consul")
    add_cus(g, "rome", "cannae", 8)
    for x in ("paestum", "metapontum", "thurii"):  # Lucania: nobody's
        set_pc(g, x, None)
    for x in ("placentia", "mutina", "patavium"):  # Gallia Cisalpina: Carthage's (5 of 8)
        set_pc(g, x, "carthage")
    return g


def test_battle_example_played_round_by_round():
    """seed 002 §12 "Voorbeeld van een veldslag" (with §11.1, §11.2.1, §11.4-§11.10, §12.2):
    Carthage 11 cards, Rome 14; six rounds (counterattack rolls 4, 2, 5, 3 and a failed one);
    Hannibal wins with a Reserve named Flank Right; a loss roll of 3 costs each side 1 CU, Rome's
    retreat roll of 4 on the 5+ column 3 more; Rome removes 2 PCs. seed 003 "Раунд битвы"."""
    g = example_board()
    attack(g, "hannibal", "arpi", "cannae", 6)
    windows(g)
    # §11.1: 4 (Hannibal) + 6 CUs + 1 ally = 11; 2 (Flaminius) + 8 CUs + 4 Italian allies = 14
    assert len(hand(g, "carthage")) == 11 and len(hand(g, "rome")) == 14
    assert says(g, "Battle cards: Carthage 11, Rome 14")
    assert is_lead(g, "carthage")  # §11.3, §11.4: the attacker leads round 1
    set_hands(g, CARTHAGE_HAND, ROME_HAND)
    # the counterattack rolls of the example, then (round 5) one that fails, then the losses
    g.load_dice([4, 2, 5, 3, 6, 3, 4])

    # Round 1: Flank Right, matched; Flaminius (2) rolls a 4: Hannibal attacks again
    answer(g, "flank_right_01")
    assert set(options(g)) == {"flank_right_04", "flank_right_05", "reserve_02", None}
    answer(g, "flank_right_04")
    assert says(g, "Round 1: Carthage leads Flank Right, Rome matches")
    assert says(g, "Counterattack roll 4: Carthage keeps the initiative")
    assert is_lead(g, "carthage")
    # Round 2: another Flank Right, matched; a 2: Rome takes the initiative
    answer(g, "flank_right_02", "flank_right_05")
    assert says(g, "Counterattack roll 2: Rome takes the initiative")
    assert is_lead(g, "rome")
    # Round 3: Rome leads Frontal Assault, matched; Hannibal rolls 5: fails
    answer(g, "frontal_assault_03", "frontal_assault_01")
    assert says(g, "Round 3: Rome leads Frontal Assault, Carthage matches")
    assert says(g, "Counterattack roll 5: Rome keeps the initiative")
    assert is_lead(g, "rome")
    # Round 4: another Frontal Assault, matched; a 3: Hannibal takes the initiative
    answer(g, "frontal_assault_04", "frontal_assault_02")
    assert says(g, "Counterattack roll 3: Carthage takes the initiative")
    assert is_lead(g, "carthage")
    # Round 5: the last Flank Right, matched by Rome's Reserve (§11.7); Rome fails to take over
    answer(g, "flank_right_03")
    assert set(options(g)) == {"reserve_02", None}
    answer(g, "reserve_02")
    assert says(g, "Round 5: Carthage leads Flank Right, Rome matches")
    assert says(g, "Counterattack roll 6: Carthage keeps the initiative")
    # Round 6: a Reserve named Flank Right (§11.7); Rome holds 9 cards and none answers
    answer(g, "reserve_01")
    assert "Reserve is played as" in prompt(g)
    answer(g, "flank_right")
    assert len(hand(g, "rome")) == 9
    assert says(g, "Round 6: Carthage leads Flank Right, Rome cannot match: Carthage wins the battle")
    # Losses (§11.9, §11.10): roll 3 after 6 rounds, 1 CU each; Rome's retreat roll 4: 3 CUs
    assert says(g, "Battle losses: one roll for both sides, 3 after 6 rounds")
    assert says(g, "Battle losses of Carthage: 1 CUs") and says(g, "Battle losses of Rome: 1 CUs")
    assert says(g, "Retreat table for Rome: roll 4, 3 CUs")
    assert len(cus(g, "cannae", "carthage")) == 5
    assert len(cus(g, "cannae", "rome")) == 4  # 8 - 1 - 3: the rest retreats
    # §12.1: the rest retreats (both havens one space away: Rome chooses); §12.2: 4 CUs, 2 PCs
    answer(g, "venusia")
    assert len(cus(g, "venusia", "rome")) == 4 and field(g, "flaminius", "at") == "venusia"
    assert "remove 2 PCs" in prompt(g)
    answer(g, "luceria", "brundisium")
    assert says(g, "Rome removes 2 PCs after the battle")
    assert field(g, "luceria", "pc") is None and field(g, "brundisium", "pc") is None
    assert says(g, "Carthage plays a Reserve as Flank Right")
    # §11: after the battle every card is back and the deck is shuffled
    z = g.state["z"]
    assert len(z["battle_deck"]) == 48
    assert not z["battle_hand|carthage"] and not z["battle_hand|rome"] and not z["battle_table"]
