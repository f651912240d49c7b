"""Answers by index (`Game.action_count`, `action_at`, `apply_index`, `random_index`): the
fast path of bots and simulations, on every kind of decision, with its checks, log, undo
and saves, and the bots' answers by index."""
from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core.errors import IllegalAction
from engine.frontends.bots import GreedyBot, RandomBot

# Every kind of decision: a choice of one (optional, with idle options), yes/no, a
# multi-choice with a condition, one at a time, an order.
KINDS = """
type token:
    power: int
zone pool of token
zone picked of token
var go: bool = false
on setup:
    for t in token:
        move t to pool
    let first = choose t from pool by red optional no effect when t.power == 0 prompt "First"
    go = ask blue "Go on?"
    let cs = choose 1 to 3 c from pool by red require sum(x.power for x in c) >= 4
    for c in cs:
        move c to picked
    let two = choose 2 c from pool by blue one at a time
    order pool by red
    end game
"""

TOKENS = """
token:
  - {id: t0, power: 0}
  - {id: t1, power: 1}
  - {id: t2, power: 2}
  - {id: t3, power: 3}
  - {id: t4, power: 4}
  - {id: t5, power: 0}
"""


@pytest.fixture
def pack(inline_pack: Any) -> Any:
    return inline_pack(KINDS, TOKENS)


def test_the_index_numbers_the_legal_actions_of_every_kind(pack: Any) -> None:
    kinds = set()
    for seed in range(5):
        game = pack.new_game(seed)
        rnd = random.Random(seed)
        while not game.over:
            d = game.decision
            kinds.add((d.kind, bool(d.idle), d.each is not None))
            legal = game.legal_actions()
            assert game.action_count() == len(legal)  # (an order of 4 or fewer: all listed)
            assert [game.action_at(i) for i in range(game.action_count())] == legal
            game.apply_index(rnd.randrange(game.action_count()))
        assert game.action_count() == 0
    assert kinds >= {("one", True, False), ("ask", False, False), ("many", False, False),
                     ("one", False, True), ("order", False, False)}


def test_an_order_is_numbered_beyond_what_legal_actions_lists(pack: Any) -> None:
    game = pack.new_game(0)
    while game.decision.kind != "order":
        game.apply(game.random_action(random.Random(1)))
    d = game.decision
    n = len(d.options)
    last = game.action_at(game.action_count() - 1)
    assert game.action_count() == [1, 1, 2, 6, 24, 120][n]
    assert last == list(reversed(d.options))


def test_random_index_draws_as_random_action(pack: Any) -> None:
    for seed in range(8):
        by_action, by_index = pack.new_game(seed), pack.new_game(seed)
        r1, r2 = random.Random(seed), random.Random(seed)
        while not by_action.over:
            before = r2.getstate()
            index = by_index.random_index(r2)
            if index is None:  # a multi-choice: nothing drawn, answered by random_action
                assert by_index.decision.kind == "many" and r2.getstate() == before
                by_index.apply(by_index.random_action(r2))
            else:
                by_index.apply_index(index)
            by_action.apply(by_action.random_action(r1))
            assert by_index.actions == by_action.actions
        assert by_index.state == by_action.state and r1.getstate() == r2.getstate()


@pytest.mark.parametrize("bad", [-1, 99, 1.0, True, "0", None, [0]])
def test_a_bad_index_is_refused_and_changes_nothing(pack: Any, bad: Any) -> None:
    game = pack.new_game(3)
    game.apply_index(0)
    state, actions, log = game.save(), list(game.actions), list(game.log)
    undo = game.can_undo("blue"), game.can_undo("red")
    with pytest.raises(IllegalAction) as err:
        game.apply_index(bad)
    assert err.value.rule == "index" and "numbers no answer" in str(err.value)
    with pytest.raises(IllegalAction):
        game.action_at(bad)
    assert game.save() == state and game.actions == actions and game.log == log
    assert (game.can_undo("blue"), game.can_undo("red")) == undo and game.decider == "blue"


def test_apply_index_checks_the_addressee_and_the_end(pack: Any) -> None:
    game = pack.new_game(0)
    with pytest.raises(IllegalAction) as err:
        game.apply_index(0, side="blue")
    assert err.value.rule == "side"
    with pytest.raises(IllegalAction) as err:
        game.apply_index(0, decision=game.decision.id + 1)
    assert err.value.rule == "stale"
    game.apply_index(0, side="red", decision=game.decision.id)
    while not game.over:
        game.apply_index(0)
    with pytest.raises(IllegalAction) as err:
        game.apply_index(0)
    assert err.value.rule == "no-decision"
    with pytest.raises(IllegalAction):
        game.random_index(random.Random(0))


def test_apply_index_logs_and_undoes_as_apply(pack: Any) -> None:
    by_index, by_action = pack.new_game(2), pack.new_game(2)
    by_index.apply_index(1)
    by_action.apply(by_action.legal_actions()[1])
    assert by_index.log == by_action.log and by_index.actions == by_action.actions
    assert by_index.log[-1]["t"] == "choice" and by_index.log[-1]["v"] == "t1"
    rnd = random.Random(2)
    while by_index.decision.each is None:  # blue's picks one at a time: blue asked again
        by_index.apply(by_index.random_action(rnd))
    before = by_index.save()
    by_index.apply_index(0)
    assert by_index.decider == "blue" and by_index.can_undo("blue")
    by_index.undo("blue")
    assert by_index.save() == before


def test_a_loaded_game_answers_by_index(pack: Any) -> None:
    game = pack.new_game(4)
    rnd = random.Random(4)
    while game.decision.kind != "many":
        game.apply(game.random_action(rnd))
    loaded = type(game).load(pack, game.save())
    count = game.action_count()
    assert loaded.action_count() == count and count > 1
    game.apply_index(count - 1)
    loaded.apply_index(count - 1)
    assert loaded.save() == game.save() and loaded.actions[-1] == game.actions[-1]


@pytest.mark.parametrize("bot", [RandomBot, GreedyBot])
def test_a_bots_index_is_the_action_it_chooses(pack: Any, bot: Any) -> None:
    for seed in range(4):
        game = pack.new_game(seed)
        by_index, by_action = bot(seed), bot(seed)
        while not game.over:
            side = game.decider
            index = by_index.choose_index(game, side)
            action = by_action.choose(game, side)
            if index is None:  # answered by `choose`: its draws, made again
                assert game.decision.kind not in ("one", "ask")
                index_action = by_index.choose(game, side)
            else:
                index_action = game.action_at(index)
            assert index_action == action
            game.apply(action)


def test_a_simulation_by_index_plays_the_games_of_choose(pack: Any) -> None:
    from engine.frontends.simulate.playing import make_seats, play_out
    for seed in range(3):
        fast = pack.new_game(seed, log=False, undo=False)
        play_out(fast, make_seats(pack, ["greedy", "random"], seed))
        slow = pack.new_game(seed, log=False, undo=False)
        seats = make_seats(pack, ["greedy", "random"], seed)
        while not slow.over:
            side = slow.decider
            slow.apply(seats[side].choose(slow, side))
        assert fast.over and fast.actions == slow.actions
