"""Hannibal: retreat, PCs after a battle, displacement, withdrawal (seed 002 §11.11, §12-§12.2,
§8.9; seed 003 "Раунд битвы" (1), "Движение" (5)).

Each test sets up a battle by editing the state (tests/hannibal_play.py): an army marches into
enemy CUs, and at the first decision of the battle the two battle hands are set, so that who
wins is forced; the dice the test needs are loaded (Game.load_dice). Rulings: RULINGS.md
"## Retreat and withdrawal" (H-rt-1 ...). Spaces are real spaces of the pack's map."""
from __future__ import annotations

from hannibal_play import (
    add_cus,
    answer,
    clear_board,
    cus,
    field,
    give,
    new_game,
    options,
    play_ops,
    prompt,
    set_hands,
    set_leader,
    set_pc,
    start_turn,
)
from hannibal_play import (
    said_values as says,
)

LEAD = "lead a battle card"


def board(seed: int = 1):
    """Turn 1's first card, no CUs, no leaders and no PCs on the board."""
    g = new_game(seed)
    clear_board(g)
    for _x, f in g.state["f"].items():
        if "pc" in f and "siege" in f:
            f["pc"] = None
    return g


def attack(g, leader: str, frm: str, to: str, side: str = "carthage", cus_: int | None = None):
    """`side` plays a card for ops and `leader` marches from `frm` into the enemy in `to`, taking
    all the CUs in `frm` (or `cus_` of them); stops at the battle's first card."""
    mine, theirs = ("bad_weather", "diplomacy_35"), ("diplomacy_36", "epidemic")
    if side == "rome":
        mine, theirs = theirs, mine
    give(g, side, *mine)
    give(g, "rome" if side == "carthage" else "carthage", *theirs)
    start_turn(g, first=side)
    play_ops(g, mine[0], "move")
    if "how many" in prompt(g):
        answer(g, cus_ if cus_ is not None else max(options(g)))
    answer(g, "march")
    answer(g, to)
    to_the_cards(g)


def to_the_cards(g):
    """Decline whatever comes before the first battle card (no interception, no avoidance)."""
    for _ in range(20):
        if g.over or LEAD in prompt(g):
            return
        opts = options(g)
        answer(g, False if False in opts else None if None in opts else opts[0])
    raise AssertionError(prompt(g))


def said(g) -> list[str]:
    return [e["m"] for e in g.log if e.get("t") == "say"]


def rome_loses_round_one(g):
    """Carthage leads a Frontal Assault that Rome cannot match: Carthage wins in one round."""
    set_hands(g, ["frontal_assault_01", "frontal_assault_09"], ["flank_left_02", "flank_right_05"])
    answer(g, "frontal_assault_01")


def at(g, leader: str):
    return field(g, leader, "at")


# ---- §12.1: where the loser goes ---------------------------------------------------------

def test_retreat_goes_to_the_nearest_space_with_a_friendly_pc():
    """seed 002 §12.1: the loser retreats to the nearest space with a PC of his own (up to four
    spaces); Grumentum (two spaces) is passed over for Cannae (one space)."""
    g = board()
    set_leader(g, "hannibal", "beneventum")
    add_cus(g, "carthage", "beneventum", 5)
    set_leader(g, "flaminius", "venusia", office="consul")
    add_cus(g, "rome", "venusia", 3)
    set_pc(g, "cannae", "rome")
    set_pc(g, "paestum", "rome")  # two spaces away, through Grumentum
    attack(g, "hannibal", "beneventum", "venusia")
    g.load_dice([1, 1, 1])  # no battle losses, no retreat-table loss
    rome_loses_round_one(g)
    assert at(g, "flaminius") == "cannae"
    assert len(cus(g, "cannae", "rome")) == 3 and cus(g, "venusia", "rome") == []
    assert ["rome", "venusia", "cannae"] in says(g, "{0} retreats from {1} to {2}")


def test_retreat_to_a_space_with_more_friendly_cus():
    """seed 002 §12.1: a space with more CUs of one's own than the retreating army is a haven as
    well; one with fewer is not (Tarentum's 2 CUs do not stop an army of 3; Metapontum's 4 do)."""
    g = board()
    set_leader(g, "hannibal", "beneventum")
    add_cus(g, "carthage", "beneventum", 5)
    set_leader(g, "flaminius", "venusia", office="consul")
    add_cus(g, "rome", "venusia", 3)
    add_cus(g, "rome", "tarentum", 2)
    add_cus(g, "rome", "metapontum", 4)
    attack(g, "hannibal", "beneventum", "venusia")
    g.load_dice([1, 1, 1])
    rome_loses_round_one(g)
    # two roads of two spaces: Rome picks the way, through Tarentum; its 2 CUs join
    assert "retreat through" in prompt(g) and set(options(g)) == {"tarentum", "grumentum"}
    answer(g, "tarentum")
    assert at(g, "flaminius") == "metapontum"
    assert cus(g, "tarentum", "rome") == [] and len(cus(g, "metapontum", "rome")) == 9


def test_retreat_never_into_the_space_the_attacker_came_from():
    """seed 002 §12.1.1: no retreat into the space the attacking army set out from
    (Beneventum, with Rome's PC); Rome goes two spaces to Paestum instead. RULINGS.md H-rt-2."""
    g = board()
    set_leader(g, "hannibal", "beneventum")
    add_cus(g, "carthage", "beneventum", 5)
    set_leader(g, "flaminius", "venusia", office="consul")
    add_cus(g, "rome", "venusia", 3)
    set_pc(g, "beneventum", "rome")
    set_pc(g, "paestum", "rome")
    attack(g, "hannibal", "beneventum", "venusia")
    g.load_dice([1, 1, 1])
    rome_loses_round_one(g)
    assert at(g, "flaminius") == "paestum"
    assert len(cus(g, "paestum", "rome")) == 3


def test_retreat_sweeps_up_friendly_cus_and_pays_for_enemy_pcs_and_cus():
    """seed 002 §12.1 (friendly CUs on the way join the retreat), §12.1.2 (one CU for each space
    with an enemy PC entered; as many CUs as the enemy CUs in a space entered); §12.2 (these
    losses count for the PCs). Venusia -> Grumentum (Carthaginian PC: -1; 1 Roman CU joins) ->
    Paestum (Rome's PC, 1 Carthaginian CU: -1)."""
    g = board()
    set_leader(g, "hannibal", "beneventum")
    add_cus(g, "carthage", "beneventum", 5)
    set_leader(g, "flaminius", "venusia", office="consul")
    add_cus(g, "rome", "venusia", 4)
    set_pc(g, "grumentum", "carthage")
    add_cus(g, "rome", "grumentum", 1)
    set_pc(g, "paestum", "rome")
    add_cus(g, "carthage", "paestum", 1)
    set_pc(g, "cannae", "carthage")
    set_pc(g, "tarentum", "carthage")
    set_pc(g, "metapontum", "carthage")
    set_pc(g, "nola", "rome")
    set_pc(g, "ostia", "rome")
    attack(g, "hannibal", "beneventum", "venusia")
    g.load_dice([1, 1, 1])
    rome_loses_round_one(g)
    # Paestum holds an enemy CU: no haven; Nola (3 spaces: Grumentum, Paestum, Nola) is
    assert at(g, "flaminius") == "nola"
    assert cus(g, "grumentum", "rome") == []
    assert len(cus(g, "nola", "rome")) == 4 + 1 - 1 - 1
    assert ["grumentum", "rome", 1] in says(g, "Retreat through {0}: {1} loses {2:# CU|# CUs}")
    assert ["paestum", "rome", 1] in says(g, "Retreat through {0}: {1} loses {2:# CU|# CUs}")
    assert len(cus(g, "paestum", "carthage")) == 1  # the enemy CU stays
    # 2 CUs lost in the retreat: one PC, Rome's choice (not a walled city)
    assert "remove 1 PC" in prompt(g) and set(options(g)) == {"nola", "ostia", "paestum"}


def test_no_retreat_over_a_pass_or_beyond_four_spaces_eliminates_the_army():
    """seed 002 §12.1 (four spaces at most), §12.1.1 (not over a pass or a strait), §12.1.2
    (an army that cannot retreat is eliminated), §8.9 (its leader is displaced)."""
    g = board()
    set_leader(g, "hannibal", "beneventum")
    add_cus(g, "carthage", "beneventum", 5)
    set_leader(g, "flaminius", "venusia", office="consul")
    add_cus(g, "rome", "venusia", 3)
    set_pc(g, "roma", "rome")  # far away: Beneventum is closed, the rest is more than 4 spaces
    attack(g, "hannibal", "beneventum", "venusia")
    g.load_dice([1, 1, 1])
    rome_loses_round_one(g)
    assert cus(g, "venusia", "rome") == []
    assert field(g, "flaminius", "where") == "displaced"
    assert ["rome", "venusia", 3] in says(
        g, "Retreat: {0} has nowhere to retreat from {1}: its {2:# CU is|# CUs are} eliminated")


def test_losing_all_cus_displaces_hannibal_and_rome_wins():
    """seed 002 §8.9 (a leader whose CUs are all lost after a battle is displaced; Hannibal
    displaced: Rome wins), §11.10 (the retreat table: 1 CU with 1-4 CUs and a roll of 2), §11.8
    (the attacker without cards loses)."""
    g = board()
    set_leader(g, "hannibal", "beneventum")
    add_cus(g, "carthage", "beneventum", 1)
    set_leader(g, "flaminius", "venusia", office="consul")
    add_cus(g, "rome", "venusia", 3)
    set_pc(g, "capua", "carthage")
    attack(g, "hannibal", "beneventum", "venusia")
    # Carthage leads its only card, Rome matches, Rome's counterattack fails (6), Carthage has
    # no card left: Rome wins. Then the one battle-loss roll for both sides (1: none, §11.9,
    # RULINGS.md H-bt-5) and the retreat table (2: 1 CU)
    set_hands(g, ["frontal_assault_01"], ["frontal_assault_09", "flank_left_02"])
    g.load_dice([6, 1, 2])
    answer(g, "frontal_assault_01", "frontal_assault_09")
    assert ["carthage", "rome"] in says(
        g, "{0} has no battle card left to lead: {1} wins the battle")
    assert ["carthage", 2, 1] in says(g, "Retreat table for {0}: roll {1}, {2:# CU|# CUs}")
    assert cus(g, "venusia", "carthage") == []
    assert field(g, "hannibal", "where") == "displaced"
    assert g.over and "Hannibal is displaced: Rome wins" in said(g)


# ---- §12.2: PCs ----------------------------------------------------------------------------

def test_worked_example_four_cus_lost_two_pcs():
    """seed 002 §12 worked example / §12.2: Rome lost 4 CUs in all (1 in the battle, 3 on the
    retreat table with more than 4 CUs and a roll of 4) and removes 2 PCs, of its choice, never a
    walled city or a tribe. The battle-loss roll is one die for both sides (§11.9, RULINGS.md
    H-bt-5): Carthage loses its 1 CU as well, and removes no PCs (it won)."""
    g = board()
    set_leader(g, "hannibal", "beneventum")
    add_cus(g, "carthage", "beneventum", 6)
    set_leader(g, "flaminius", "venusia", office="consul")
    add_cus(g, "rome", "venusia", 8)
    for x in ("cannae", "ostia", "nola", "firmum"):
        set_pc(g, x, "rome")
    set_pc(g, "tarentum", "rome")  # walled city: never removed
    attack(g, "hannibal", "beneventum", "venusia")
    # the battle-loss roll 6 (1 CU each after one round), retreat table 4 (3 CUs)
    g.load_dice([6, 4])
    rome_loses_round_one(g)
    assert ["rome", 4, 3] in says(g, "Retreat table for {0}: roll {1}, {2:# CU|# CUs}")
    assert len(cus(g, "venusia", "carthage")) == 5
    # Cannae and Tarentum (a walled city with Rome's PC) are both one space away: Rome chooses
    assert set(options(g)) == {"cannae", "tarentum"}
    answer(g, "cannae")
    assert at(g, "flaminius") == "cannae" and len(cus(g, "cannae", "rome")) == 4
    assert "remove 2 PCs" in prompt(g)
    assert set(options(g)) == {"cannae", "ostia", "nola", "firmum"}
    answer(g, "ostia", "firmum")
    assert field(g, "ostia", "pc") is None and field(g, "firmum", "pc") is None
    assert field(g, "tarentum", "pc") == "rome" and field(g, "cannae", "pc") == "rome"


# ---- §11.11: withdrawal ------------------------------------------------------------------------

def withdrawal_battle():
    g = board()
    set_leader(g, "hannibal", "beneventum")
    add_cus(g, "carthage", "beneventum", 5)
    set_leader(g, "flaminius", "venusia", office="consul")
    add_cus(g, "rome", "venusia", 3)
    set_pc(g, "capua", "rome")
    attack(g, "hannibal", "beneventum", "venusia")
    set_hands(g, ["frontal_assault_01", "frontal_assault_09"], ["flank_left_02", "flank_right_05"])
    return g


def test_withdrawal_back_where_the_attacker_came_from():
    """seed 002 §11.11; seed 003 "Раунд битвы" (1): instead of a card the current attacker rolls
    at most his commander's rating (Hannibal 4: a 3); the defender may roll to stop it (Flaminius
    2: a 5 fails). The original attacker goes back to the space it came from; losses by the rounds
    fought, one die for both sides (one round: a 6 costs each side 1 CU; RULINGS.md H-bt-5), no
    retreat table, no PCs."""
    g = withdrawal_battle()
    assert "or none to try to withdraw" in prompt(g) and None in options(g)
    g.load_dice([3, 5, 6])
    answer(g, None)
    assert "roll to stop the withdrawal" in prompt(g)
    answer(g, True)
    assert at(g, "hannibal") == "beneventum" and len(cus(g, "beneventum", "carthage")) == 4
    assert cus(g, "venusia", "carthage") == [] and len(cus(g, "venusia", "rome")) == 2
    assert ["carthage", "venusia", "beneventum"] in says(g, "{0} withdraws from {1} to {2}")
    assert not any(m.startswith("Retreat") for m in said(g))
    assert field(g, "capua", "pc") == "rome" and "remove" not in prompt(g)


def test_withdrawal_stopped_gives_the_initiative_and_the_defender_may_withdraw_elsewhere():
    """seed 002 §11.11: a defender who stops the withdrawal (Flaminius 2: a 2) takes the
    initiative; as the current attacker he may try to withdraw himself, to any adjacent space but
    the one the attacking army came from (Beneventum), nor over a pass or by sea."""
    g = withdrawal_battle()
    g.load_dice([3, 2])
    answer(g, None, True)
    assert ["carthage"] not in says(g, "{0} withdraws from {1} to {2}")
    assert prompt(g).startswith("rome: lead a battle card (round 2), or none to try to withdraw")
    g.load_dice([1, 1, 1])
    answer(g, None)
    assert "roll to stop" in prompt(g)
    answer(g, False)
    assert set(options(g)) == {"cannae", "tarentum", "grumentum"}
    answer(g, "grumentum")
    assert at(g, "flaminius") == "grumentum" and len(cus(g, "grumentum", "rome")) == 3
    assert at(g, "hannibal") == "venusia"


def test_failed_withdrawal_roll_hands_over_the_initiative():
    """seed 003 "Раунд битвы" (1): a failed withdrawal roll (6 against Hannibal's 4) makes the
    defender the attacker of the next round (the Dutch §11.11 is silent: RULINGS.md H-rt-5); the
    attempt was the round's play (H-rt-7)."""
    g = withdrawal_battle()
    g.load_dice([6])
    answer(g, None)
    assert ["carthage", 6, "rome"] in [a[1:] for a in says(
        g, "Round {0}: {1} tries to withdraw, roll {2}: it fails, {3} takes the initiative")]
    assert prompt(g).startswith("rome: lead a battle card (round 2)")
