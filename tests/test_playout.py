"""`Game.playout`: random play to the end, the same game as `apply(random_action(rnd))` one
decision at a time (issue 16, per-decision overhead), and what uses it: `engine simulate`
with random bots and the greedy bot's rollouts."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.core.errors import EngineFault
from engine.core.loader import load_pack
from engine.frontends.bots import make_bot
from engine.frontends.simulate import play_out, run_one

REPO = Path(__file__).resolve().parent.parent
PACKS = [REPO / "bench" / "packs" / "tictactoe", REPO / "bench" / "packs" / "kuhn",
         REPO / "bench" / "packs" / "ap_battle", REPO / "content" / "ante_portas",
         REPO / "tests" / "packs" / "testgame", REPO / "tests" / "packs" / "windowgame"]


def applied(game, rnd, max_decisions=None):
    """The game played as front-ends and the earlier bench played it."""
    while not game.over and (max_decisions is None or len(game.actions) < max_decisions):
        game.apply(game.random_action(rnd))
    return game.over


@pytest.fixture(scope="module", params=PACKS, ids=lambda p: p.name)
def pack(request):
    return load_pack(request.param)


@pytest.mark.parametrize("log,undo", [(False, False), (True, False), (True, True)])
def test_playout_plays_the_game_apply_plays(pack, log, undo):
    """Same actions, same state (log, step count and dice included), same result, with one
    generator drawing for every side."""
    mine, theirs = random.Random(5), random.Random(5)
    for seed in range(12):
        a = pack.new_game(seed, log=log, undo=undo)
        b = pack.new_game(seed, log=log, undo=undo)
        assert b.playout(mine) is applied(a, theirs) is True
        assert b.actions == a.actions and b.state == a.state and b.result == a.result
    assert mine.random() == theirs.random()  # and both drew as many numbers


def test_playout_keeps_values_across_decisions_and_plays_the_same_hannibal():
    """Values and field indexes kept from one decision to the next inside a playout (a new
    run drops them) change nothing: Hannibal, the pack that keeps most, plays the same games,
    step count included."""
    hannibal = load_pack("hannibal")
    mine, theirs = random.Random(8), random.Random(8)
    for seed in range(3):
        a = hannibal.new_game(seed, log=True, undo=False)
        b = hannibal.new_game(seed, log=True, undo=False)
        assert b.playout(mine) is applied(a, theirs) is True
        assert b.actions == a.actions and b.state == a.state


def test_playout_stops_at_max_decisions_and_goes_on_the_same(pack):
    """`max_decisions` counts all the game's actions: the game stops waiting at a decision,
    and playing on from there ends as one playout would."""
    whole = pack.new_game(2, log=True, undo=False)
    whole.playout(random.Random(1))
    half = len(whole.actions) // 2
    assert half >= 1
    part = pack.new_game(2, log=True, undo=False)
    rnd = random.Random(1)
    assert part.playout(rnd, half) is False
    assert len(part.actions) == half and not part.over and part.decision is not None
    assert part.playout(rnd, half) is False and len(part.actions) == half  # nothing to take
    assert part.playout(rnd) is True
    assert part.actions == whole.actions and part.state == whole.state


def test_playout_of_an_ended_game_takes_nothing(pack):
    game = pack.new_game(0, log=False, undo=False)
    game.playout(random.Random(0))
    before = (list(game.actions), game.save())
    rnd = random.Random(3)
    assert game.playout(rnd) is True
    assert (game.actions, game.save()) == before and rnd.random() == random.Random(3).random()


def test_each_side_draws_from_its_own_generator(pack):
    """A mapping side -> generator: each decision is drawn from its decider's, as random bots
    draw (this is how `engine simulate` plays them)."""
    gens = {side: random.Random(i) for i, side in enumerate(pack.sides)}
    same = {side: random.Random(i) for i, side in enumerate(pack.sides)}
    a = pack.new_game(4, log=False, undo=False)
    while not a.over:
        a.apply(a.random_action(same[a.decider]))
    b = pack.new_game(4, log=False, undo=False)
    assert b.playout(gens) is True
    assert b.actions == a.actions and b.state == a.state


def test_a_generator_missing_for_a_side_is_refused_before_play(pack):
    game = pack.new_game(0, log=False, undo=False)
    for wrong in (None, 7, {pack.sides[0]: random.Random(0)}, dict.fromkeys(pack.sides, 1)):
        with pytest.raises(ValueError, match="a map of each side"):
            game.playout(wrong)
        assert game.actions == [] and game.decision is not None


def test_simulate_with_random_bots_plays_the_games_it_played(pack):
    """`play_out` gives random bots' games to `playout`; with invariants checked it still
    asks each bot in turn: both come out the same (and so `engine simulate` is unchanged)."""
    specs = ["random"] * len(pack.sides)
    for seed in range(6):
        fast = run_one(pack, seed, specs)
        slow = run_one(pack, seed, specs, invariants=True)
        assert fast == slow
    asked = pack.new_game(1, log=False, undo=False)
    seats = {side: make_bot("random", i) for i, side in enumerate(pack.sides)}
    calls = []
    play_out(asked, seats, on_decision=lambda g: calls.append(len(g.actions)))
    quick = pack.new_game(1, log=False, undo=False)
    play_out(quick, {side: make_bot("random", i) for i, side in enumerate(pack.sides)})
    assert quick.actions == asked.actions and calls == list(range(1, len(asked.actions) + 1))


FAULTY = """
type card:
    power: int
var total: int = 0
on setup:
    repeat 6:
        let k = choose k from [1, 2, 3] by red
        total = total + k
        if total > 8:
            if min([c.power for c in card where c.power > 9]) <= k:
                total = 0
    end game
"""
CARDS = """
card:
  - {id: c1, power: 1}
  - {id: c2, power: 2}
"""


@pytest.mark.parametrize("undo", [False, True])
def test_a_fault_is_raised_as_apply_raises_it(inline_pack, undo):
    """A rule that breaks after an answer: the same located, replayable EngineFault as
    `apply`'s, and the game as it was before that answer (log included)."""
    faulty = inline_pack(FAULTY, CARDS)
    faults = 0
    for seed in range(6):
        a = faulty.new_game(seed, log=True, undo=undo)
        b = faulty.new_game(seed, log=True, undo=undo)
        mine, theirs = random.Random(seed), random.Random(seed)
        try:
            applied(a, theirs)
        except EngineFault as err:
            expected = err
        else:
            expected = None
        if expected is None:
            assert b.playout(mine) is True and b.state == a.state
            continue
        faults += 1
        with pytest.raises(EngineFault) as got:
            b.playout(mine)
        assert got.value.message == expected.message
        assert "rules.rules:9: none was used where a value is needed" in got.value.message
        assert got.value.actions == expected.actions and got.value.seed == seed
        assert b.actions == a.actions == expected.actions[:-1]
        assert b.state == a.state and b.decision is not None
        assert b.save() == a.save()  # (a save of it is a save of apply's)
    assert faults >= 2


# Every kind of decision a playout answers where the rules ask it (Runtime.pick1,
# pick_decide): a plain choice, an optional one, one whose prompt names values, one from a
# hidden deck (its cards shown to the decider as they are offered), a question, one with
# an option that does nothing now (not drawn while another is legal) and one always asked
# (with one option); and a choice of two items, which the run loop answers.
ASKED_IN_RULES = """
type card:
    power: int
zone deck of card ordered hidden
zone hand[s: side] of card private
var total: int = 0
on setup:
    for c in card:
        move c to deck
    shuffle deck
    repeat 3:
        let k = choose k from [1, 2, 3] by red
        let o = choose o from [1, 2] by blue optional
        let p = choose p from [4, 5] by red prompt "{total}: add which?"
        let c = choose c from deck by blue
        move c to hand[blue]
        let y = ask red "Double it?"
        let q = choose q from [1, 2, 3] by red no effect when q == 2 and total > 20
        let one = choose one from [k] by blue always asked
        let two = choose 2 x from [1, 2, 3] by blue
        total = total + k + p + c.power + sum(two) + q + one
        if o != none:
            total = total + o
        if y:
            total = total * 2
    end game
"""
DECK = """
card:
  - {id: c1, power: 1}
  - {id: c2, power: 2}
  - {id: c3, power: 3}
  - {id: c4, power: 4}
"""


@pytest.mark.parametrize("log", [False, True])
def test_the_decisions_answered_in_the_rules_play_the_game_apply_plays(inline_pack, log):
    """Each kind of decision a playout answers where it is asked: the same actions, state
    (the cards shown to the decider, the decision ids and step counts included) and log as
    `apply` of `random_action`; and none of them is made into a decision on the way."""
    pack = inline_pack(ASKED_IN_RULES, DECK)
    made = []
    for seed in range(20):
        a = pack.new_game(seed, log=log, undo=False)
        b = pack.new_game(seed, log=log, undo=False)
        mine, theirs = random.Random(seed), random.Random(seed)
        rt = b.rt

        def counted(*args, decide=rt.decide, **kwargs):
            made.append(args[1])
            return decide(*args, **kwargs)
        rt.decide = counted  # (an instance attribute hides the method)
        assert b.playout(mine) is applied(a, theirs) is True
        assert b.actions == a.actions and b.state == a.state
        assert mine.random() == theirs.random()
    assert set(made) == {"many"}  # only the choice of two waited for the run loop


STUCK = """
type card:
    power: int
zone hand[s: side] of card
var picks: int = 0
on setup:
    move card to hand[red]
    repeat 2:
        let k = choose k from [1, 2] by red
        picks = picks + k
    let r = choose 2 to 2 c from hand[red] by red require sum(x.power for x in c) >= 100
    end game
"""


def test_a_choice_with_no_legal_answer_leaves_the_game_waiting_at_it(inline_pack):
    """`random_action` finds no answer to the multi-choice: raised as it is raised between
    `apply`s, with the game waiting at that choice, its earlier answers kept."""
    stuck = inline_pack(STUCK, CARDS)
    a = stuck.new_game(0, log=True, undo=False)
    b = stuck.new_game(0, log=True, undo=False)
    with pytest.raises(EngineFault, match="no legal answer") as expected:
        applied(a, random.Random(1))
    with pytest.raises(EngineFault, match="no legal answer") as got:
        b.playout(random.Random(1))
    assert got.value.message == expected.value.message
    assert len(b.actions) == 2 and b.actions == a.actions
    assert b.state == a.state and b.decision.kind == "many"


def test_views_after_a_playout_are_those_of_the_same_game_applied(pack):
    """A front-end that shows a game, lets random seats play on and shows it again sees
    what it would have seen had the seats answered one by one (views keep the log they
    showed: see engine.core.views)."""
    a = pack.new_game(6, log=True, undo=False)
    b = pack.new_game(6, log=True, undo=False)
    seats = [*pack.sides, None]  # (None: a spectator)
    assert [a.view(s) for s in seats] == [b.view(s) for s in seats]
    applied(a, random.Random(2), 2)
    b.playout(random.Random(2), 2)
    assert [a.view(s) for s in seats] == [b.view(s) for s in seats]
