"""Hannibal: interception (seed 002 §9-§9.5, §8.3.4; seed 003 "Перехват").

An army next to a space a moving enemy army enters may try to move in and stop it (§9.1). The
attempts are announced, then rolled (§9.4): a die, +1 into a space with an enemy PC and none of
the interceptor's CUs, at most the commander's battle rating (§9.2). A successful interceptor
moves in with at most 10 CUs; the mover fights at once (the interceptor gets one more battle
card) or steps back to the space it came from and ends its move (§9.3). Positions are set up by
state editing (tests/hannibal_play.py); dice are loaded where the outcome matters. Rulings:
content/hannibal/RULINGS.md "## Interception" (H-ic-1 ...)."""
from __future__ import annotations

from hannibal_play import (
    add_cus,
    answer,
    board,
    column,
    cus,
    decline_until,
    field,
    give,
    options,
    play_ops,
    prompt,
    set_leader,
    set_pc,
    start_turn,
)
from hannibal_play import (
    said_values as said,
)

ROME_OPS3 = "two_legions_of_slaves_raised"  # ops 3 with the ship (sea moves)
ROME_OTHER = "corsica_and_sardinia_revolt"


def at(g, leader: str) -> str:
    return field(g, leader, "at")


def carthage_marches(g, *path: str, take: int | None = None, leader: str = "hannibal"):
    """Carthage plays a card to move `leader`, takes `take` CUs (all) and marches along `path`;
    the game then stands at the first decision after the last step."""
    give(g, "carthage", "bad_weather", "diplomacy_35")
    give(g, "rome", "diplomacy_36", "epidemic")
    start_turn(g)
    play_ops(g, "bad_weather", "move")
    go(g, leader, *path, take=take)


def rome_marches(g, leader: str, *path: str, take: int | None = None):
    give(g, "rome", ROME_OPS3, ROME_OTHER)
    give(g, "carthage", "bad_weather", "diplomacy_35")
    start_turn(g, first="rome")
    play_ops(g, ROME_OPS3, "move")
    go(g, leader, *path, take=take)


def go(g, leader: str, *path: str, take: int | None = None):
    if "which leader" in prompt(g):
        answer(g, leader)
    if "sets out from" in prompt(g):
        answer(g, max(options(g)) if take is None else take)
    for y in path:
        assert "what next" in prompt(g), prompt(g)
        answer(g, "march")
        answer(g, y)


def hannibal_in_capua(g, n: int = 6):
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", n)


def hand(g, side: str) -> int:
    return len(g.state["z"][f"battle_hand|{side}"])


def into_battle(g) -> None:
    """Decline the questions before the deal (avoiding battle, the strategy-card windows, the
    elephants) until the battle's cards are dealt and the first card is to be led."""
    decline_until(g, "lead a battle card")
    assert hand(g, "rome") or hand(g, "carthage"), "no battle cards dealt"


# ---- §9.1-§9.3: the attempt and its outcomes ------------------------------------------------

def test_no_decision_when_no_army_is_adjacent():
    """seed 002 §9.1 (only an army next to the space entered may intercept): with no Roman army
    near, Hannibal's step asks Rome nothing; Carthage's move goes on."""
    g = board()
    hannibal_in_capua(g)
    set_leader(g, "fabius", "paestum")  # two spaces from capua, one from nola: a leader alone
    set_leader(g, "marcellus", "tarracina")
    add_cus(g, "rome", "tarracina", 4)  # an army, but not next to nola
    carthage_marches(g, "nola")
    assert g.decision.side == "carthage" and "what next" in prompt(g)
    assert not said(g, "{j} tries to intercept from {x} with {n:# CU|# CUs}")


def test_intercept_and_fight_one_more_battle_card():
    """seed 002 §9.2 (a roll at most the battle rating succeeds), §9.3 (the interceptor moves in
    with his CUs; the mover fights at once, and the interceptor's side gets one more battle
    card); seed 003 "Перехват" (2)-(3). The hands are compared with the same battle begun
    without an interception."""
    def position(intercepted: bool):
        g = board(3)
        hannibal_in_capua(g)
        set_leader(g, "fabius", "neapolis" if intercepted else "nola")
        add_cus(g, "rome", "neapolis" if intercepted else "nola", 5)
        return g

    plain = position(False)
    carthage_marches(plain, "nola")
    into_battle(plain)

    g = position(True)
    carthage_marches(g, "nola")
    assert g.decision.side == "rome" and "intercept from neapolis" in prompt(g)
    assert set(options(g)) == {"fabius", None}
    answer(g, "fabius")
    assert options(g) == [1, 2, 3, 4, 5]
    g.load_dice([3])  # 3 <= Fabius's rating 3 (Nola holds a Roman PC: no +1)
    answer(g, 5)
    assert said(g, "{j} intercepts in {y}") == [["fabius", "nola"]]
    assert at(g, "fabius") == "nola" and len(cus(g, "nola", "rome")) == 5
    assert g.decision.side == "carthage" and set(options(g)) == {"fight", "step back"}
    answer(g, "fight")
    into_battle(g)
    assert hand(g, "rome") == hand(plain, "rome") + 1
    assert hand(g, "carthage") == hand(plain, "carthage")


def test_intercepted_army_steps_back_and_ends_its_move():
    """seed 002 §9.3: instead of fighting, the intercepted army goes back to the space it last
    came from and its move ends; the interceptor stays in the space he entered."""
    g = board()
    hannibal_in_capua(g)
    set_leader(g, "fabius", "neapolis")
    add_cus(g, "rome", "neapolis", 5)
    carthage_marches(g, "nola")
    answer(g, "fabius")
    g.load_dice([1])
    answer(g, 4)
    answer(g, "step back")
    assert at(g, "hannibal") == "capua" and len(cus(g, "capua", "carthage")) == 6
    assert column(g, "hannibal") == []
    assert at(g, "fabius") == "nola" and len(cus(g, "nola", "rome")) == 4
    assert len(cus(g, "neapolis", "rome")) == 1
    assert said(g, "{l} steps back to {back} and ends his move") == [["hannibal", "capua"]]
    assert said(g, "{l} ends his move in {l.at}")  # the move is over
    assert g.decision is None or "what next" not in prompt(g)


def test_no_stepping_back_from_cus_dropped_where_the_army_is_intercepted():
    """seed 002 §9.3, RULINGS.md H-ic-8: Hannibal drops a CU in Nola, marches on to Paestum and
    comes back; Fabius intercepts him in Nola. Stepping back would leave the dropped CU there
    beside Fabius's army with no battle, so Hannibal fights, the CU with him. Found by
    `engine simulate hannibal --games 10000 --seed 900000 --invariants` (seed 902296)."""
    g = board()
    hannibal_in_capua(g)
    set_leader(g, "fabius", "neapolis")
    add_cus(g, "rome", "neapolis", 5)
    carthage_marches(g, "nola")
    answer(g, None)  # Fabius lets him pass the first time (H-ic-4: he may try again)
    answer(g, "drop")
    answer(g, 1)
    go(g, "hannibal", "paestum", "nola")
    answer(g, "fabius")
    g.load_dice([1])
    answer(g, 4)
    assert said(g, "{l} fights the intercepting army in {y}") == [["hannibal", "nola"]]
    assert "step back" not in options(g)
    assert g.check_invariants() == []
    assert len(cus(g, "nola", "carthage")) == 6 and len(cus(g, "nola", "rome")) == 4


def test_failed_attempt_the_move_goes_on():
    """seed 002 §9.2: a roll above the battle rating fails; the army stays where it was and the
    mover goes on."""
    g = board()
    hannibal_in_capua(g)
    set_leader(g, "fabius", "neapolis")
    add_cus(g, "rome", "neapolis", 5)
    carthage_marches(g, "nola")
    answer(g, "fabius")
    g.load_dice([4])  # 4 > 3
    answer(g, 5)
    assert said(g, "Interception roll for {j}: die {d}, modifier {m}, battle rating {j.battle}: "
                   "failure") == [["fabius", 4, 0, 3]]
    assert at(g, "fabius") == "neapolis" and len(cus(g, "neapolis", "rome")) == 5
    assert g.decision.side == "carthage" and "what next" in prompt(g)
    assert at(g, "hannibal") == "nola"


def test_plus_one_into_a_space_with_an_enemy_pc():
    """seed 002 §9.2; seed 003 "Перехват" (2): +1 when the space entered holds an enemy PC and
    none of the interceptor's CUs. Hannibal (rating 4) rolls 4: 4 + 1 > 4, he fails."""
    g = board()
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 5)
    set_pc(g, "nola", "rome")
    set_leader(g, "hannibal", "neapolis")
    add_cus(g, "carthage", "neapolis", 5)
    rome_marches(g, "fabius", "nola")
    assert g.decision.side == "carthage"
    answer(g, "hannibal")
    g.load_dice([4])
    answer(g, 5)
    [[_, d, m, _]] = said(g, "Interception roll for {j}: die {d}, modifier {m}, battle rating "
                             "{j.battle}: failure")
    assert (d, m) == (4, 1)
    assert at(g, "hannibal") == "neapolis"


def test_no_plus_one_without_an_enemy_pc():
    """seed 002 §9.2: the same roll succeeds into a space without a Roman PC."""
    g = board()
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 5)
    set_pc(g, "nola", None)
    set_leader(g, "hannibal", "neapolis")
    add_cus(g, "carthage", "neapolis", 5)
    rome_marches(g, "fabius", "nola")
    answer(g, "hannibal")
    g.load_dice([4])
    answer(g, 5)
    assert said(g, "{j} intercepts in {y}") == [["hannibal", "nola"]]
    assert g.decision.side == "rome" and "intercepted" in prompt(g)


# ---- §9.1, §8.3.4: when not ------------------------------------------------------------------

def test_no_interception_across_a_pass():
    """seed 002 §8.3.4, §9.1 ("over een bergpas ... kan niet onderschept worden"); seed 003
    "Перехват" (4): Hadria lies over a pass from Alba Fucens."""
    g = board()
    set_leader(g, "hannibal", "roma")  # Roma - Alba Fucens is a road
    add_cus(g, "carthage", "roma", 6)
    set_pc(g, "roma", None)
    set_leader(g, "fabius", "hadria")
    add_cus(g, "rome", "hadria", 5)
    carthage_marches(g, "alba_fucens")
    assert g.decision.side == "carthage" and "what next" in prompt(g)


def test_no_interception_across_a_strait():
    """seed 002 §8.3.4, §9.1: Messana lies over the strait from Rhegium."""
    g = board()
    set_leader(g, "hannibal", "bruttii")
    add_cus(g, "carthage", "bruttii", 6)
    set_leader(g, "fabius", "messana")
    add_cus(g, "rome", "messana", 5)
    carthage_marches(g, "rhegium")
    assert g.decision.side == "carthage" and "what next" in prompt(g)


def test_no_interception_into_the_interceptors_own_space():
    """seed 002 §9.1 (example: when Fabius enters Gisgo's space, Gisgo makes no attempt, but
    Hannibal next door may): Hannibal enters Fabius's space; Marcellus, next to it, is offered
    the attempt, Fabius is not."""
    g = board()
    set_leader(g, "hannibal", "nola")
    add_cus(g, "carthage", "nola", 6)
    set_leader(g, "fabius", "neapolis")
    add_cus(g, "rome", "neapolis", 3)
    set_leader(g, "marcellus", "capua")
    add_cus(g, "rome", "capua", 4)
    carthage_marches(g, "neapolis")
    assert "stand inside the walls" in prompt(g)  # §16.2: Neapolis is a Roman walled city
    answer(g, 0)  # all three stay outside with Fabius
    assert g.decision.side == "rome" and "try to avoid the battle" in prompt(g)
    answer(g, False)  # Fabius stands (§10.2: announced before the interception attempts)
    assert g.decision.side == "rome" and "intercept from capua" in prompt(g)
    assert set(options(g)) == {"marcellus", None}


def test_no_interception_from_a_besieged_city_with_enemies_there():
    """seed 002 §9.1 (an army in a besieged city with enemy armies in its space does not
    intercept): Fabius in besieged Capua, Carthaginian CUs outside its walls."""
    g = board()
    set_leader(g, "hannibal", "paestum")
    add_cus(g, "carthage", "paestum", 6)
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 2)
    set_pc(g, "capua", "rome")
    g.state["f"]["capua"]["siege"] = 1
    set_leader(g, "gisgo", "capua")
    add_cus(g, "carthage", "capua", 3)
    carthage_marches(g, "nola", leader="hannibal")
    assert g.decision.side == "carthage" and "what next" in prompt(g)


def test_no_interception_where_the_mover_has_unmoved_cus():
    """seed 003 "Перехват" (no interception into a space holding a CU of the moving side that
    has not moved): RULINGS.md H-ic-2."""
    g = board()
    hannibal_in_capua(g)
    add_cus(g, "carthage", "nola", 1)
    set_leader(g, "fabius", "neapolis")
    add_cus(g, "rome", "neapolis", 5)
    carthage_marches(g, "nola", take=6)
    assert g.decision.side == "carthage" and "what next" in prompt(g)


def test_a_leader_alone_is_not_intercepted():
    """seed 002 §9.1 ("enkel legers"; an enemy army moving): a leader without CUs is no army:
    RULINGS.md H-ic-1."""
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "fabius", "neapolis")
    add_cus(g, "rome", "neapolis", 5)
    carthage_marches(g, "nola")
    assert g.decision.side == "carthage" and "what next" in prompt(g)


def test_one_attempt_per_space_per_move():
    """seed 002 §9.5 (one attempt per adjacent space), §9.1 ("enkel één beweging"); seed 003
    "Перехват" (one interception from a space): Fabius in Capua fails against Hannibal in Nola;
    Hannibal then enters Neapolis, also next to Capua, and Fabius is not asked again."""
    g = board()
    set_leader(g, "hannibal", "paestum")
    add_cus(g, "carthage", "paestum", 6)
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 5)
    carthage_marches(g, "nola")
    answer(g, "fabius")
    g.load_dice([6])
    answer(g, 5)
    assert at(g, "fabius") == "capua"
    answer(g, "march", "neapolis")
    assert g.decision.side == "carthage" and "what next" in prompt(g)
    assert len(said(g, "{j} tries to intercept from {x} with {n:# CU|# CUs}")) == 1


def test_declining_keeps_the_attempt():
    """seed 002 §9.5 (one attempt per adjacent space): Fabius lets Hannibal pass through Nola
    and is asked again when Hannibal enters Neapolis (RULINGS.md H-ic-4)."""
    g = board()
    set_leader(g, "hannibal", "paestum")
    add_cus(g, "carthage", "paestum", 6)
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 5)
    carthage_marches(g, "nola")
    answer(g, None)
    assert g.decision.side == "carthage" and "what next" in prompt(g)
    answer(g, "march", "neapolis")
    assert g.decision.side == "rome" and "intercept from capua" in prompt(g)


# ---- §9.4, §9.5: several attempts; part of an army --------------------------------------------

def test_all_attempts_announced_before_the_rolls():
    """seed 002 §9.4 (each attempt announced, then made; the mover may wait for the rolls before
    choosing), §10.2 example: Marcellus from Capua and Fabius from Neapolis both announce before
    any die; both succeed and move in; Hannibal then chooses."""
    g = board()
    set_leader(g, "hannibal", "paestum")
    add_cus(g, "carthage", "paestum", 6)
    set_leader(g, "marcellus", "capua")
    add_cus(g, "rome", "capua", 4)
    set_leader(g, "fabius", "neapolis")
    add_cus(g, "rome", "neapolis", 3)
    carthage_marches(g, "nola")
    asked = []
    for _ in range(2):
        assert g.decision.side == "rome" and "intercept from" in prompt(g)
        asked.append(prompt(g))
        assert not said(g, "Interception roll for {j}: die {d}, modifier {m}, battle rating "
                           "{j.battle}: success")
        answer(g, next(o for o in options(g) if o))
        if len(asked) == 2:
            g.load_dice([1, 2])
        answer(g, max(options(g)))
    assert {p.split("from ")[1].rstrip("?") for p in asked} == {"capua", "neapolis"}
    assert {a[0] for a in said(g, "{j} intercepts in {y}")} == {"fabius", "marcellus"}
    assert len(cus(g, "nola", "rome")) == 7
    # one commands in Nola, the other is in his holding box (§8.5)
    if "who commands" in prompt(g):
        answer(g, "marcellus")
    assert g.decision.side == "carthage" and set(options(g)) == {"fight", "step back"}


def test_a_subordinate_intercepts_with_part_of_the_army():
    """seed 002 §9.5 (part of an army under a subordinate; commander and CUs announced); seed
    003 "Перехват" (1) (the leaders staying keep at least 1 CU): RULINGS.md H-ic-3."""
    g = board()
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 5)
    set_leader(g, "hannibal", "neapolis")
    set_leader(g, "mago", "neapolis", chief="hannibal")
    add_cus(g, "carthage", "neapolis", 6)
    rome_marches(g, "fabius", "nola")
    assert set(options(g)) == {"hannibal", "mago", None}
    answer(g, "mago")
    assert options(g) == [1, 2, 3, 4, 5]  # one stays with Hannibal
    g.load_dice([1])  # 1 + 1 (a Roman PC in Nola) <= Mago's rating 2
    answer(g, 3)
    assert at(g, "mago") == "nola" and field(g, "mago", "chief") is None
    assert len(cus(g, "nola", "carthage")) == 3
    assert at(g, "hannibal") == "neapolis" and len(cus(g, "neapolis", "carthage")) == 3


def test_a_consul_left_behind_keeps_five():
    """seed 003 "Перехват" (1) (a consul is not left with fewer than 5 CUs), seed 002 §14.2:
    RULINGS.md H-ic-3. Nero leaves Paullus's consular army of 7 with at most 2."""
    g = board()
    hannibal_in_capua(g)
    set_leader(g, "paullus", "neapolis", office="consul")
    set_leader(g, "nero", "neapolis", chief="paullus")
    add_cus(g, "rome", "neapolis", 7)
    carthage_marches(g, "nola")
    answer(g, "nero")
    assert options(g) == [1, 2]


def test_intercepting_a_landing_from_the_sea():
    """seed 002 §9.1 ("of over de zee komt"); seed 003 "Перехват" (3) (the intercepted army may
    step back, by sea too): Fabius lands at Neapolis; Hannibal from Capua intercepts; Fabius
    steps back to Ostia."""
    g = board()
    set_leader(g, "fabius", "ostia")
    add_cus(g, "rome", "ostia", 3)
    hannibal_in_capua(g, 5)
    give(g, "rome", ROME_OPS3, ROME_OTHER)
    give(g, "carthage", "bad_weather", "diplomacy_35")
    start_turn(g, first="rome")
    play_ops(g, ROME_OPS3, "move")
    go(g, "fabius")
    answer(g, "sea", "neapolis")
    while g.decision.side == "carthage" and getattr(g.decision, "window", None):
        answer(g, None)
    assert g.decision.side == "carthage" and "intercept from capua" in prompt(g), prompt(g)
    answer(g, "hannibal")
    g.load_dice([2])
    answer(g, 5)
    assert at(g, "hannibal") == "neapolis"
    answer(g, "step back")
    assert at(g, "fabius") == "ostia" and len(cus(g, "ostia", "rome")) == 3


def test_a_consul_intercepts_with_five():
    """seed 002 §14.2 (a consular army leaves no CUs that would take it under 5), as for a move
    (RULINGS.md H-mv-5): Paullus intercepting from a space of 7 CUs takes 5 to 7: H-ic-3."""
    g = board()
    hannibal_in_capua(g)
    set_leader(g, "paullus", "neapolis", office="consul")
    add_cus(g, "rome", "neapolis", 7)
    carthage_marches(g, "nola")
    answer(g, "paullus")
    assert options(g) == [5, 6, 7]


def test_interception_comes_before_overrun():
    """seed 002 §9.1 (an attempt after each space entered), §8.2 (overrun of a lone CU without
    a leader): RULINGS.md H-ic-7. Fabius intercepts into Nola, where one Roman CU stands; with a
    Roman leader there Hannibal no longer overruns it, and fights both."""
    g = board()
    hannibal_in_capua(g)
    add_cus(g, "rome", "nola", 1)
    set_leader(g, "fabius", "neapolis")
    add_cus(g, "rome", "neapolis", 2)
    carthage_marches(g, "nola")
    answer(g, "fabius")
    g.load_dice([1])
    answer(g, 2)
    answer(g, "fight")
    assert not said(g, "{l} overruns the lone enemy CU in {y}")
    into_battle(g)
    assert said(g, "Battle in {at}: {attacker} attacks") == [["nola", "carthage"]]


def test_an_interceptor_joining_the_defender_cancels_the_avoidance():
    """seed 002 §10.2 (every attempt is announced before any roll), §10.1 ("Een leger, dat een
    veld door een geslaagde onderscheppingspoging betreedt, kan de slag niet ontwijken"): Rome
    announces that Marcellus will avoid Hannibal in Nola, then Fabius intercepts into Nola; the
    army there now holds an interceptor, so the avoidance lapses and the battle is fought
    (RULINGS.md H-av-6; seed 003 "Перехват")."""
    g = board(3)
    hannibal_in_capua(g)
    set_leader(g, "marcellus", "nola", office="consul")
    add_cus(g, "rome", "nola", 5)
    set_leader(g, "fabius", "neapolis", office="proconsul")
    add_cus(g, "rome", "neapolis", 5)
    carthage_marches(g, "nola")
    assert g.decision.side == "rome" and "avoid" in prompt(g)
    answer(g, True)
    assert "intercept from neapolis" in prompt(g)
    answer(g, "fabius")
    g.load_dice([3])  # 3 <= Fabius's rating 3: he intercepts
    answer(g, 5)
    assert at(g, "fabius") == "nola"
    answer(g, "fight")
    into_battle(g)
    said_text = [e["m"] for e in g.log if e["t"] == "say"]
    assert "{0} may not avoid: an army that intercepted {1} has joined him in {2}" in said_text
    assert not any(m.startswith("Avoidance roll") for m in said_text)
    assert at(g, "marcellus") == "nola" and hand(g, "rome") > 0
