"""Hannibal: land movement (seed 002 §8.1-§8.7, §8.9, §14.2-§14.3; seed 003 "Движение").

Each test sets up a position by editing the state (tests/hannibal_play.py), plays a strategy
card and answers the movement decisions by value, as a player would. Rulings: RULINGS.md
"## Land movement" (H-mv-1 ...). Spaces are real spaces of the pack's map (connections.yaml)."""
from __future__ import annotations

import yaml
from hannibal_play import (
    PACK_DIR,
    act,
    add_cus,
    answer,
    board,
    carthage_moves,
    column,
    cus,
    field,
    give,
    march,
    options,
    play_ops,
    prompt,
    rome_moves,
    set_leader,
    set_pc,
    start_turn,
)
from hannibal_play import (
    said_values as says,
)

TABLES = yaml.safe_load((PACK_DIR / "tables.yaml").read_text())
# the log line of a pass attrition roll (its values: CUs, die, modifier, CUs lost)
ATTRITION = "Attrition roll for {0:# CU|# CUs}: die {1}, modifier {2}; {3:# CU|# CUs} lost"


def attrition_table(cus_: int, roll: int) -> int:
    """The attrition table (tables.yaml), read by hand: row = modified roll, 0 or less .. 8+."""
    t = next(x for x in TABLES["table"] if x["id"] == "attrition")
    row = max(0, min(8, roll))
    key = "8+" if row == 8 else row
    col = next(i for i, c in enumerate(t["columns"])
               if (c.endswith("+") and cus_ >= int(c[:-1]))
               or ("-" in c and int(c.split("-")[0]) <= cus_ <= int(c.split("-")[1])))
    return t["rows"][key][col]


def at(g, leader: str) -> str:
    return field(g, leader, "at")


# ---- §8.2: four spaces, ten CUs, picking up and dropping ---------------------------------

def test_four_spaces_then_no_further():
    """seed 002 §8.2: a leader moves up to four spaces; seed 003 "Движение" (1): 4 ОП."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 6)
    carthage_moves(g)
    assert "go with him" in prompt(g)
    answer(g, 6)
    march(g, "praeneste", "roma", "spoletium", "perusia")
    assert "march" not in options(g) and "stop" in options(g)
    assert "0 movement points left" in prompt(g)
    act(g, "stop")
    assert at(g, "hannibal") == "perusia"
    assert len(cus(g, "perusia", "carthage")) == 6 and not cus(g, "capua")
    assert all(field(g, u, "moved") == 4 for u in cus(g, "perusia"))


def test_forced_march_six_spaces():
    """seed 002 §8.2 (six spaces with a forced march card), cards 61-63."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    give(g, "carthage", "forced_march_61", "diplomacy_35")
    give(g, "rome", "diplomacy_36", "epidemic")
    start_turn(g)
    answer(g, "forced_march_61", "event", "hannibal", 3)
    march(g, "praeneste", "roma", "spoletium", "perusia", "arretium", "faesulae")
    assert "march" not in options(g)
    act(g, "stop")
    assert len(cus(g, "faesulae", "carthage")) == 3


def test_at_most_ten_cus_and_pick_up_drop_on_the_way():
    """seed 002 §8.2: at most 10 CUs go with a leader; he picks up and drops CUs on the way."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 12)
    add_cus(g, "carthage", "roma", 3)
    carthage_moves(g)
    assert max(options(g)) == 10 and min(options(g)) == 0
    answer(g, 8)
    march(g, "praeneste")
    act(g, "drop")
    assert options(g) == list(range(1, 9))
    answer(g, 2)
    assert len(cus(g, "praeneste")) == 2 and len(column(g, "hannibal")) == 6
    march(g, "roma")
    act(g, "pick up")
    assert options(g) == [1, 2, 3]
    answer(g, 3)
    march(g, "spoletium")
    act(g, "stop")
    assert len(cus(g, "spoletium")) == 9 and len(cus(g, "capua")) == 4


def test_cus_left_on_the_way_stay_left():
    """seed 002 §8.2 (CUs picked up and left on the way), RULINGS.md H-mv-12: the 2 CUs Hannibal
    leaves in Praeneste are not picked up again in this move (an endless pick-up-and-leave);
    the CU that stood there before may still join him."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 6)
    add_cus(g, "carthage", "praeneste", 1)
    carthage_moves(g)
    answer(g, 6)
    march(g, "praeneste")
    act(g, "drop")
    answer(g, 2)
    act(g, "pick up")  # one CU to take: taken without asking how many
    assert "pick up" not in options(g)
    assert len(column(g, "hannibal")) == 5 and len(cus(g, "praeneste")) == 2


def test_pick_up_stops_at_ten():
    """seed 002 §8.2: with 10 CUs, no more are picked up."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 10)
    add_cus(g, "carthage", "praeneste", 2)
    carthage_moves(g)
    answer(g, 10)
    march(g, "praeneste")
    assert "pick up" not in options(g)


# ---- §8.2: enemy CUs: battle not offered, overrun -----------------------------------------

def test_entering_enemy_cus_ends_the_move_in_battle():
    """seed 002 §8.2 ("Wanneer een aanvoerder een veld betreedt, waarin zich vijandelijke GE's
    bevinden, moet hij zijn beweging staken. Er volgt een gevecht"): the move ends there, in a
    battle (seed 002 §11)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 10)
    add_cus(g, "rome", "nola", 2)
    set_leader(g, "fabius", "neapolis", office="consul")
    add_cus(g, "rome", "neapolis", 1)
    carthage_moves(g)
    answer(g, 10)
    act(g, "march")
    assert "nola" in options(g) and "neapolis" in options(g)
    answer(g, "nola")
    if "who tries to intercept" in prompt(g):  # Fabius next door may intercept (§9): he does not
        answer(g, None)
    said = [e["m"] for e in g.log if e["t"] == "say"]
    assert "Battle in {0}: {1} attacks" in said
    assert field(g, "hannibal", "at") == "nola"


def test_overrun_of_a_lone_cu_by_five():
    """seed 002 §8.2 (UITZONDERING: an army of 5+ CUs entering a space with a single enemy CU
    and no enemy leader eliminates it and moves on); seed 003 "Движение" (4)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 5)
    add_cus(g, "rome", "nola", 1)
    carthage_moves(g)
    answer(g, 5)
    march(g, "nola")
    assert not cus(g, "nola", "rome")
    assert [a[1:] for a in says(g, "{0} overruns the lone enemy CU in {1}")] == [["nola"]]
    march(g, "paestum")
    act(g, "stop")
    assert at(g, "hannibal") == "paestum" and len(cus(g, "paestum")) == 5


def test_no_overrun_with_four():
    """seed 002 §8.2: the overrun needs at least 5 CUs; with 4 the lone CU is fought (§11)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 4)
    add_cus(g, "rome", "nola", 1)
    carthage_moves(g)
    answer(g, 4)
    act(g, "march")
    answer(g, "nola")
    said = [e["m"] for e in g.log if e["t"] == "say"]
    assert "Battle in {0}: {1} attacks" in said
    assert not any("overruns" in m for m in said)


# ---- §8.3: passes and straits --------------------------------------------------------------

def _cross_pass(seed: int, src: str, dst: str, n: int):
    g = board(seed)
    set_leader(g, "hannibal", src)
    add_cus(g, "carthage", src, n)
    carthage_moves(g)
    if n:
        answer(g, n)
    march(g, dst)
    return g


def test_pass_costs_two_movement_points():
    """seed 002 §8.3.1 (a mountain crossing costs 2 movement points); seed 003 "Движение" (2)."""
    g = _cross_pass(1, "alba_fucens", "hadria", 3)
    assert "2 movement points left" in prompt(g)
    assert all(field(g, u, "moved") == 2 for u in column(g, "hannibal"))


def test_pass_attrition_minus_one_follows_the_table():
    """seed 002 §8.3.2 (an army crossing a pass other than the Alps rolls for attrition at the
    end of its move, the die -1), §17.2 (the attrition table, column by CUs); RULINGS.md H-mv-1
    (seed 003 "Движение" says -2: the Dutch -1 is followed)."""
    losses = 0
    for seed in range(1, 13):
        g = _cross_pass(seed, "alba_fucens", "hadria", 10)
        act(g, "stop")
        [[n, die, mod, lost]] = says(g, ATTRITION)
        assert (n, mod) == (10, -1)
        assert lost == attrition_table(10, die - 1)
        assert len(cus(g, "hadria")) == 10 - lost
        losses += lost
    assert losses > 0


def test_alpine_pass_attrition_plus_one():
    """seed 002 §8.3.2 (a pass in the Alps: +1), §17.2."""
    losses = 0
    for seed in range(1, 9):
        g = _cross_pass(seed, "allobroges", "taurini", 8)
        act(g, "stop")
        [[n, die, mod, lost]] = says(g, ATTRITION)
        assert (n, mod) == (8, 1)
        assert lost == attrition_table(8, die + 1)
        assert len(cus(g, "taurini")) == 8 - lost
        losses += lost
    assert losses > 0


def test_attrition_falls_on_the_army_that_crossed():
    """seed 002 §8.3.2, §17.1 (every army crossing a pass loses to attrition): the CUs that
    crossed are rolled for even if dropped after the pass; CUs picked up after it are not
    (RULINGS.md H-mv-3). A leader alone rolls nothing and is never displaced by attrition
    (§8.9)."""
    for seed in range(1, 9):
        g = _cross_pass(seed, "alba_fucens", "hadria", 10)
        act(g, "drop")
        answer(g, 10)
        march(g, "larinum")
        act(g, "stop")
        [[n, die, mod, lost]] = says(g, ATTRITION)
        assert n == 10 and len(cus(g, "hadria")) == 10 - lost
        assert field(g, "hannibal", "where") == "map" and at(g, "hannibal") == "larinum"
    for seed in range(1, 5):
        g = board(seed)
        set_leader(g, "hannibal", "alba_fucens")
        add_cus(g, "carthage", "alba_fucens", 5)
        add_cus(g, "carthage", "hadria", 5)
        carthage_moves(g)
        answer(g, 5)
        march(g, "hadria")
        act(g, "pick up")
        answer(g, 5)
        act(g, "stop")
        [[n, die, mod, lost]] = says(g, ATTRITION)
        assert n == 5 and lost == attrition_table(5, die - 1)
        assert len(cus(g, "hadria")) == 10 - lost
    g = _cross_pass(1, "alba_fucens", "hadria", 0)
    act(g, "stop")
    assert says(g, ATTRITION) == []


def test_messana_strait_needs_both_ends():
    """seed 002 §8.3.3 (the strait between Messana and Rhegium only for a player controlling
    both), seed 003 "Движение" (2)."""
    g = board()
    set_leader(g, "hannibal", "rhegium")
    add_cus(g, "carthage", "rhegium", 2)
    set_pc(g, "rhegium", "carthage")
    set_pc(g, "messana", "rome")
    carthage_moves(g)
    answer(g, 2)
    act(g, "march")
    assert "messana" not in options(g)
    g = board()
    set_leader(g, "hannibal", "rhegium")
    add_cus(g, "carthage", "rhegium", 2)
    set_pc(g, "rhegium", "carthage")
    set_pc(g, "messana", "carthage")
    carthage_moves(g)
    answer(g, 2)
    march(g, "messana")
    assert "2 movement points left" in prompt(g)


def test_sardinia_strait_always_open():
    """seed 002 §8.3.3 (at Sardinia the crossing is always allowed), §8.3.1 (2 points)."""
    g = board()
    set_leader(g, "hannibal", "olbia")
    set_pc(g, "olbia", "rome")
    set_pc(g, "aleria", "rome")
    carthage_moves(g)
    march(g, "aleria")
    assert "2 movement points left" in prompt(g)


# ---- §8.4.2, §8.9: a leader alone; displacement --------------------------------------------

def test_leader_alone_may_not_enter_enemy_cus():
    """seed 002 §8.4.2 (a leader without CUs may not enter a space with an enemy CU); seed 003
    "Движение" (1)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "rome", "nola", 1)
    carthage_moves(g)
    act(g, "march")
    assert "nola" not in options(g) and "neapolis" in options(g)


def test_leader_alone_crosses_but_does_not_stop_on_enemy_leader():
    """seed 002 §8.4.2 (he may cross a space with an enemy leader, not end his move there);
    seed 003 "Движение" (1). The enemy leader stays where he is."""
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "fabius", "nola", office="consul")
    carthage_moves(g)
    march(g, "nola")
    # the only thing he may do in Nola is march on: the engine asks only where to
    assert prompt(g) == "hannibal: march from nola to which space?"
    assert field(g, "fabius", "where") == "map"
    answer(g, "paestum")
    act(g, "stop")
    assert at(g, "hannibal") == "paestum" and at(g, "fabius") == "nola"


def test_leader_alone_not_led_into_a_dead_end_on_an_enemy_leader():
    """seed 002 §8.4.2: a space with an enemy leader is offered to a leader alone only when he
    can go on from it to a space where he may stop (here his last movement point)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "fabius", "paestum", office="consul")
    carthage_moves(g)
    march(g, "nola", "neapolis", "capua")
    act(g, "march")
    assert "nola" in options(g)
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "fabius", "nola", office="consul")
    carthage_moves(g)
    march(g, "neapolis", "capua", "beneventum")
    act(g, "march")
    assert "capua" in options(g)
    g = board()
    set_leader(g, "hannibal", "neapolis")
    set_leader(g, "fabius", "nola", office="consul")
    carthage_moves(g)
    march(g, "capua", "beneventum", "capua")
    act(g, "march")
    assert "nola" not in options(g)


def test_army_displaces_a_lone_enemy_leader():
    """seed 002 §8.9 (a leader is displaced when an enemy army enters his space and no CU of
    his own is with him; he comes back in the next reinforcement phase); seed 003 "Движение" (5).
    His subordinates go with him."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    set_leader(g, "fabius", "nola", office="proconsul")
    set_leader(g, "varro", "nola", chief="fabius")
    carthage_moves(g)
    answer(g, 3)
    march(g, "nola")
    assert field(g, "fabius", "where") == "displaced" and field(g, "fabius", "at") is None
    assert field(g, "varro", "where") == "displaced"
    act(g, "stop")
    assert at(g, "hannibal") == "nola"


def test_scipio_africanus_displaced_leaves_the_game():
    """seed 002 §8.9 (Scipio Africanus displaced is taken out of the game), §6.4.4."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 1)
    set_leader(g, "scipio_africanus", "nola", office="proconsul")
    carthage_moves(g)
    answer(g, 1)
    march(g, "nola")
    assert field(g, "scipio_africanus", "where") == "out"


def test_hannibal_displaced_rome_wins():
    """seed 002 §8.9 (Hannibal displaced: Rome has won the game), §19."""
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    add_cus(g, "rome", "capua", 5)
    set_leader(g, "hannibal", "nola")
    rome_moves(g)  # a consul with 5 CUs takes all 5: not asked
    march(g, "nola")
    assert g.over and g.result.winner == "rome"


# ---- §8.5-§8.7: one leader per space, rank, subordinates ---------------------------------

def test_hannibal_takes_command_without_a_choice():
    """seed 002 §8.5 (one leader per space at the end of a move: the others go into the
    commander's holding box), §8.6 (Hannibal outranks every Carthaginian: no choice)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "hasdrubal", "praeneste")
    set_leader(g, "gisgo", "praeneste", chief="hasdrubal")
    carthage_moves(g)
    march(g, "praeneste")
    act(g, "stop")
    assert field(g, "hasdrubal", "chief") == "hannibal"
    assert field(g, "gisgo", "chief") == "hannibal"
    assert g.decision is None or "commands" not in prompt(g)


def test_equal_rank_the_player_chooses():
    """seed 002 §8.6 (normally the player chooses the commander); seed 003 "Выбор командующего
    полководца"."""
    g = board()
    set_leader(g, "mago", "capua")
    set_leader(g, "hasdrubal", "praeneste")
    carthage_moves(g, card="diplomacy_35", other="bad_weather")
    answer(g, "mago")
    march(g, "praeneste")
    act(g, "stop")
    assert "who commands in" in prompt(g)
    assert sorted(options(g)) == ["hasdrubal", "mago"]
    answer(g, "hasdrubal")
    assert field(g, "mago", "chief") == "hasdrubal"


def test_consul_outranks_proconsul():
    """seed 002 §8.6 (a consul stands above a proconsul), §6.4.2."""
    g = board()
    set_leader(g, "fabius", "capua", office="proconsul")
    set_leader(g, "varro", "praeneste", office="consul")
    add_cus(g, "rome", "praeneste", 6)
    rome_moves(g, card="diplomacy_36")  # Fabius is the only leader a 2 moves
    march(g, "praeneste")
    act(g, "stop")
    assert field(g, "fabius", "chief") == "varro"


def test_rulebook_example_8_7():
    """seed 002 §8.7 worked example: Hannibal with Gisgo and Mago as subordinates starts in A,
    goes through B, C and D and ends in E; Gisgo is left in C, Mago with CUs in D. Played on
    A = Capua, B = Praeneste, C = Roma, D = Spoletium, E = Perusia. Gisgo and Mago do not move
    on: they were left, not activated."""
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "gisgo", "capua", chief="hannibal")
    set_leader(g, "mago", "capua", chief="hannibal")
    add_cus(g, "carthage", "capua", 8)
    carthage_moves(g)
    answer(g, 8)
    march(g, "praeneste", "roma")
    assert at(g, "gisgo") == "roma" and at(g, "mago") == "roma"
    act(g, "leave")
    answer(g, "gisgo")
    assert "stay behind with gisgo" in prompt(g)
    answer(g, 0)
    march(g, "spoletium")
    act(g, "leave")  # Mago is the only one left in the box: not asked which
    assert "stay behind with mago in spoletium" in prompt(g)
    answer(g, 3)
    march(g, "perusia")
    act(g, "stop")
    assert at(g, "hannibal") == "perusia" and len(cus(g, "perusia")) == 5
    assert at(g, "gisgo") == "roma" and field(g, "gisgo", "chief") is None and not cus(g, "roma")
    assert at(g, "mago") == "spoletium" and field(g, "mago", "chief") is None
    assert len(cus(g, "spoletium")) == 3


def test_activating_a_subordinate_leaves_his_commander():
    """seed 002 §8.7 (a subordinate may be put on the board by activating him with a card; he
    moves from his commander's space and that counts as the activation: the commander does not
    move)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "mago", "capua", chief="hannibal")
    add_cus(g, "carthage", "capua", 6)
    give(g, "carthage", "diplomacy_35", "bad_weather")
    give(g, "rome", "diplomacy_36", "epidemic")
    start_turn(g)
    play_ops(g, "diplomacy_35", "move")
    assert sorted(options(g)) == ["hannibal", "mago"]
    answer(g, "mago")
    assert field(g, "mago", "chief") is None
    answer(g, 2)
    march(g, "nola")
    act(g, "stop")
    assert at(g, "mago") == "nola" and len(cus(g, "nola")) == 2
    assert at(g, "hannibal") == "capua" and len(cus(g, "capua")) == 4
    assert g.decision.side == "rome"  # the card is spent: Hannibal does not move on it


def test_join_a_leader_on_the_way():
    """seed 003 "Движение" (1) (subordinates may be joined on the way, but no leader who
    outranks the mover); seed 002 §8.5, §8.6: RULINGS.md H-mv-4."""
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "mago", "praeneste")
    add_cus(g, "carthage", "praeneste", 2)
    carthage_moves(g)
    march(g, "praeneste")
    act(g, "join")
    assert field(g, "mago", "chief") == "hannibal"
    assert len(cus(g, "praeneste")) == 2  # his CUs stay, to be picked up or not
    march(g, "roma")
    assert at(g, "mago") == "roma"
    act(g, "leave")
    assert "join" not in options(g)  # not joined again in the same move
    act(g, "stop")
    # Mago may not take Hannibal along
    g = board()
    set_leader(g, "mago", "capua")
    set_leader(g, "hannibal", "praeneste")
    carthage_moves(g, card="diplomacy_35", other="bad_weather")
    answer(g, "mago")
    march(g, "praeneste")
    assert "join" not in options(g)


# ---- §14.1-§14.3: consuls and proconsuls ---------------------------------------------------

def test_consular_army_sets_out_with_five_and_keeps_five():
    """seed 002 §14.2 (a consular army may not leave CUs behind if that takes it under 5 CUs);
    seed 003 "Движение" (in a consular army no fewer than 5 CUs may remain)."""
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    add_cus(g, "rome", "capua", 8)
    rome_moves(g)
    assert options(g) == [5, 6, 7, 8]
    answer(g, 7)
    march(g, "nola")
    act(g, "drop")
    assert options(g) == [1, 2]
    answer(g, 2)
    assert "drop" not in options(g)
    act(g, "stop")
    assert len(cus(g, "nola")) == 7 and len(cus(g, "capua")) == 1


def test_consular_army_under_five_moves_but_leaves_none():
    """seed 002 §14.2 (a consular army under 5 CUs is not punished, but leaves no CU behind):
    it moves, with all its CUs; seed 003 "Движение" (3) says it may not move at all: the Dutch
    is followed (RULINGS.md H-mv-2)."""
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    add_cus(g, "rome", "capua", 3)
    set_leader(g, "varro", "capua", chief="fabius")
    rome_moves(g)  # all 3 go: the only answer, not asked
    assert len(column(g, "fabius")) == 3 and not cus(g, "capua")
    march(g, "nola")
    assert "drop" not in options(g)
    act(g, "leave")  # a subordinate without CUs: the army keeps its 3 CUs
    assert "stay behind with" not in prompt(g)
    march(g, "paestum")
    act(g, "stop")
    assert len(cus(g, "paestum")) == 3 and at(g, "varro") == "nola"


def test_consul_left_behind_only_with_two_consuls_and_more_than_ten():
    """seed 002 §14.2 (a consular army leaves no consul on the way, unless the move began with
    two consuls and more than 10 CUs: then they may split)."""
    for n, may in ((10, False), (12, True)):
        g = board()
        set_leader(g, "fabius", "capua", office="consul")
        set_leader(g, "varro", "capua", chief="fabius", office="consul")
        add_cus(g, "rome", "capua", n)
        rome_moves(g)  # Fabius is the only one a 2 moves (Varro needs a 3)
        answer(g, 10)
        march(g, "nola")
        assert ("leave" in options(g)) is may, n
        if may:
            act(g, "leave")
            assert options(g) == [0, 1, 2, 3, 4, 5]
            answer(g, 5)
            assert "drop" not in options(g)  # Fabius keeps his 5
            march(g, "paestum")
            act(g, "stop")
            assert at(g, "varro") == "nola" and field(g, "varro", "chief") is None
            assert len(cus(g, "nola")) == 5 and len(cus(g, "paestum")) == 5


def test_two_consuls_the_activated_one_commands():
    """seed 002 §14.1 (whenever he activates the army, Rome names either consul its
    commander): activating the consul in the holding box moves the army under him, the other
    consul going with him as subordinate (not left standing)."""
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    set_leader(g, "marcellus", "capua", chief="fabius", office="consul")
    add_cus(g, "rome", "capua", 6)
    rome_moves(g)
    assert sorted(options(g)) == ["fabius", "marcellus"]
    answer(g, "marcellus")
    assert field(g, "marcellus", "chief") is None and field(g, "fabius", "chief") == "marcellus"
    answer(g, 6)
    march(g, "nola")
    act(g, "stop")
    assert at(g, "fabius") == "nola" and field(g, "fabius", "chief") == "marcellus"


def test_proconsul_leaving_a_consular_army():
    """seed 002 §14.3 (a proconsul leaving a space with a consular army takes no more CUs than
    the consular army keeps), §14.2 (the consular army keeps 5: RULINGS.md H-mv-6)."""
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    set_leader(g, "marcellus", "capua", chief="fabius", office="proconsul")
    add_cus(g, "rome", "capua", 12)
    rome_moves(g)
    answer(g, "marcellus")
    assert max(options(g)) == 6  # 6 go, 6 stay: the consular army stays the larger
    answer(g, 6)
    march(g, "nola")
    act(g, "stop")
    assert len(cus(g, "nola")) == 6 and len(cus(g, "capua")) == 6
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    set_leader(g, "nero", "capua", chief="fabius")
    add_cus(g, "rome", "capua", 8)
    rome_moves(g)
    answer(g, "nero")
    assert options(g) == [0, 1, 2, 3]  # the consul keeps his 5


def test_consular_army_stops_at_a_larger_proconsular_army():
    """seed 002 §14.3 (a consular army entering the space of a proconsul's larger army ends its
    move there; the proconsul becomes its subordinate)."""
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    add_cus(g, "rome", "capua", 5)
    set_leader(g, "marcellus", "nola", office="proconsul")
    add_cus(g, "rome", "nola", 7)
    rome_moves(g)
    answer(g, "fabius")
    march(g, "nola")
    assert g.decision.side == "carthage"  # his move is over
    assert at(g, "fabius") == "nola" and field(g, "marcellus", "chief") == "fabius"
    stops = says(g, "{0} stops at the larger proconsular army in {1}")
    assert [a[1:] for a in stops] == [["nola"]]
    # a smaller one does not stop him
    g = board()
    set_leader(g, "fabius", "capua", office="consul")
    add_cus(g, "rome", "capua", 5)
    set_leader(g, "marcellus", "nola", office="proconsul")
    add_cus(g, "rome", "nola", 3)
    rome_moves(g)
    answer(g, "fabius")
    march(g, "nola", "paestum")
    act(g, "stop")
    assert at(g, "fabius") == "paestum" and field(g, "marcellus", "chief") is None


# ---- §8.1, §8.4.1: campaigns -----------------------------------------------------------------

def test_campaign_two_leaders_share_cus_four_spaces_each():
    """seed 002 §8.1 (a Minor Campaign moves two leaders, one after the other), §8.4.1 (a CU
    moved by one leader may move again with another in the same campaign, at most 4 spaces in
    all)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 6)
    set_leader(g, "mago", "roma")
    give(g, "carthage", "minor_campaign_37", "bad_weather")
    give(g, "rome", "diplomacy_36", "epidemic")
    start_turn(g)
    answer(g, "minor_campaign_37", "event", "hannibal", None, 6)
    march(g, "tarracina", "roma", "spoletium")  # 3 spaces, through Mago's space
    act(g, "drop")
    answer(g, 6)
    march(g, "perusia")  # his 4th point: stopping is all that is left, not asked
    assert all(field(g, u, "moved") == 3 for u in cus(g, "spoletium"))
    assert "campaign" in prompt(g)
    answer(g, "mago", None)
    march(g, "spoletium")
    act(g, "pick up")
    answer(g, 6)
    assert list(options(g)) and "march" in options(g)
    march(g, "roma")  # their 4th space
    assert "march" not in options(g)  # Mago has 2 points left, his CUs none
    act(g, "drop")
    answer(g, 6)
    assert "march" in options(g)  # alone he may go on
    assert "pick up" not in options(g)  # the 6 CUs have moved their 4 spaces
    act(g, "stop")
    assert len(cus(g, "roma")) == 6
    assert all(field(g, u, "moved") == 4 for u in cus(g, "roma"))


def test_a_new_card_moves_cus_again():
    """seed 002 §8.4.1: the 4 spaces count per card: a new card's move starts them at 0."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 2, moved=4)
    carthage_moves(g)
    assert options(g) == [0, 1, 2]


def test_march_with_one_step_is_asked():
    """RULINGS.md H-mv-13: Thapsus has one land neighbour (connections.yaml: Hadrumetum); after
    "march" the player is asked where, with that one space, instead of the leader moving
    there unasked."""
    g = board()
    set_leader(g, "hannibal", "thapsus")
    add_cus(g, "carthage", "thapsus", 2)
    carthage_moves(g)
    answer(g, 2)
    act(g, "march")
    d = g.decision
    assert (d.side, d.options) == ("carthage", ["hadrumetum"])
    assert "march from thapsus to which space?" in prompt(g)
    answer(g, "hadrumetum")
    assert at(g, "hannibal") == "hadrumetum"
