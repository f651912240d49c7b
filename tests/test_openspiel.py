"""The OpenSpiel adapter (issue 15, engine/adapters/openspiel.py): every playable pack is a
registered pyspiel game that passes OpenSpiel's own `random_sim_test` with serialization,
and OpenSpiel's ISMCTS bot plays Ante Portas through it, seeing only what its side sees."""
from __future__ import annotations

import contextlib
import io
import math
import random
import re
import time
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from conftest import REPO  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import engine.frontends.adapters.openspiel as adapter  # noqa: E402
from engine.core.game import Game  # noqa: E402

# name -> (pack, random_sim_test games): CPU seconds on the 2-core CI machine are in the
# comments, measured with time.process_time
SIMS = {
    "engine_kuhn": (REPO / "bench/packs/kuhn", 200),  # 0.2 s
    "engine_tictactoe": (REPO / "bench/packs/tictactoe", 30),  # 0.3 s
    "engine_ante_portas": (REPO / "content/ante_portas", 10),  # 1.3 s
    "engine_testgame": (REPO / "tests/packs/testgame", 5),  # 0.5 s
    "engine_leakgame": (REPO / "tests/packs/leakgame", 5),
    "engine_roadgame": (REPO / "tests/packs/roadgame", 5),
    "engine_stackgame": (REPO / "tests/packs/stackgame", 5),
    "engine_tinygame": (REPO / "tests/packs/tinygame", 5),
    "engine_windowgame": (REPO / "tests/packs/windowgame", 5),
}


def load(name: str) -> Any:
    return pyspiel.load_game(adapter.register(SIMS[name][0]))


@pytest.mark.parametrize("name", sorted(SIMS))
def test_random_sim_test_with_serialization(name: str) -> None:
    pyspiel.random_sim_test(load(name), num_sims=SIMS[name][1], serialize=True, verbose=False)


def test_hannibal_random_sim_test() -> None:
    """Two whole random games of Hannibal with every check OpenSpiel makes: about 5 s of
    CPU (most of it in the views that the observation strings and tensors read)."""
    game = pyspiel.load_game("engine_hannibal")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_game_type_and_info_follow_the_pack() -> None:
    info = pyspiel.GameType.Information
    assert load("engine_tictactoe").get_type().information == info.PERFECT_INFORMATION
    kuhn = load("engine_kuhn")
    ante = pyspiel.load_game("engine_ante_portas")
    assert kuhn.get_type().information == info.IMPERFECT_INFORMATION
    assert ante.get_type().information == info.IMPERFECT_INFORMATION
    for game in (kuhn, ante):
        t = game.get_type()
        assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
        assert game.num_players() == 2 and game.num_distinct_actions() == game.space.size
    # Kuhn's set-up shuffles three cards: chance nodes of 3 and then 2 outcomes
    state = kuhn.new_initial_state()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    assert [k for k, _p in state.chance_outcomes()] == [0, 1]
    state.apply_action(0)
    assert state.current_player() == 0
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["bet", "pass"]


def test_serialized_state_is_our_save_and_continues_the_same() -> None:
    game = pyspiel.load_game("engine_ante_portas")
    rnd = random.Random(4)
    state = game.new_initial_state()
    for _ in range(25):
        if state.is_chance_node():
            state.apply_action(rnd.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(rnd.choice(state.legal_actions()))
    text = pyspiel.serialize_game_and_state(game, state)
    saved = state.play.__getstate__()["save"]  # what the serialized text carries
    assert Game.load(game.pack, saved, log=False).state == state.play.game.state
    _game2, again = pyspiel.deserialize_game_and_state(text)
    assert str(again) == str(state) and again.history() == state.history()
    while not state.is_terminal():
        action = (rnd.randrange(len(state.chance_outcomes())) if state.is_chance_node()
                  else rnd.choice(state.legal_actions()))
        state.apply_action(action)
        again.apply_action(action)
        assert str(again) == str(state)
    assert again.returns() == state.returns() and sum(state.returns()) == 0


def test_random_games_stay_far_below_the_stated_length_bound() -> None:
    game = pyspiel.load_game("engine_ante_portas")
    rnd = random.Random(0)
    longest = 0
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rnd.randrange(len(state.chance_outcomes()))
                               if state.is_chance_node() else rnd.choice(state.legal_actions()))
        longest = max(longest, len(state.history()))
    assert longest * 10 < game.max_game_length()


def play_ismcts(game: Any, seat: int, simulations: int, seed: int) -> tuple[float, int, int]:
    """One whole game: ISMCTS in `seat` against a uniformly random player. Every state the
    bot searches is resampled from what `seat` knows (checked: the same information state
    string), with a seeded sampler. (its return, its decisions, the resamples it asked for)"""
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=rs)
    sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
    resamples = [0]

    def resample(state: Any, player: int) -> Any:
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        resamples[0] += 1
        return world

    bot.set_resampler(resample)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rs.choice(outcomes, p=probs)))
        elif state.current_player() == seat:
            action = int(bot.step(state))
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    return state.returns()[seat], decisions, resamples[0]


@pytest.mark.parametrize("side", ["rome", "carthage"])
def test_ismcts_plays_whole_ante_portas_games_against_random(side: str) -> None:
    """ISMCTS (20 simulations a move) in either seat against a random player: three whole
    games in a few seconds of CPU, each search on worlds resampled from the seat's
    information state. (Carthage's seat needs the pack's `deal_by: side`: a copy dealt by type
    put Rome's cards, which have no Carthaginian half, in Carthage's deck.)"""
    game = pyspiel.load_game("engine_ante_portas")
    seat = game.pack.sides.index(side)
    start = time.process_time()
    for seed in range(3):
        result, decisions, resamples = play_ismcts(game, seat, 20, seed)
        assert result in (-1.0, 0.0, 1.0) and decisions > 0
        assert resamples == 20 * decisions  # one world per simulation
    assert time.process_time() - start < 60


def test_kuhn_resample_deals_the_hidden_card_by_chance_only() -> None:
    """Resampled for `first`, the opponent's card is either card `first` does not hold,
    as often as the other: the real one comes up no more often than chance."""
    game = load("engine_kuhn")
    samples = 400
    real_hits = 0
    for deal in range(6):
        state = game.new_initial_state()
        state.apply_action(deal // 2)
        state.apply_action(deal % 2)
        real = state.play.game.zone("hand", "second")
        mine = state.play.game.zone("hand", "first")
        sampler = pyspiel.UniformProbabilitySampler(deal, 0.0, 1.0)
        for _ in range(samples):
            world = state.resample_from_infostate(0, sampler)
            assert world.information_state_string(0) == state.information_state_string(0)
            assert world.play.game.zone("hand", "first") == mine
            hand = world.play.game.zone("hand", "second")
            assert hand and hand != mine
            real_hits += hand == real
    n = 6 * samples  # each a fair coin: the real card's share within 4 standard deviations
    assert abs(real_hits - n / 2) < 4 * math.sqrt(n / 4)


def test_ante_portas_resample_keeps_the_information_state_and_hides_the_rest() -> None:
    """Mid-game for Rome: every resample has Rome's information state string, and Carthage's
    hand in it holds the real cards no more often than a fair deal from the unseen cards."""
    game = pyspiel.load_game("engine_ante_portas")
    rnd = random.Random(2)
    state = game.new_initial_state()
    rome = game.pack.sides.index("rome")
    while state.is_chance_node() or state.current_player() != rome or len(state.history()) < 12:
        state.apply_action(rnd.randrange(len(state.chance_outcomes()))
                           if state.is_chance_node() else rnd.choice(state.legal_actions()))
    real = set(state.play.game.zone("hand", "carthage"))
    key = state.information_state_string(rome)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)
    kept = total = 0
    for _ in range(200):
        world = state.resample_from_infostate(rome, sampler)
        assert world.information_state_string(rome) == key
        assert world.observation_string(rome) == state.observation_string(rome)
        hand = world.play.game.zone("hand", "carthage")
        kept += len(real & set(hand))
        total += len(hand)
    # a resampled world is no replay of its actions: it serializes by its save's digest
    _game, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, world))
    assert str(again) == str(world)
    unseen = world.play.game.view("rome")["zones"]
    pool = sum(z["count"] for z in unseen.values() if isinstance(z, dict))
    print(kept, total, len(real), pool)
    assert total and kept / total <= len(real) / pool + 0.1, (kept, total, len(real), pool)


def test_readme_example_plays_a_game() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## OpenSpiel\n.*?```python\n(.*?)```", readme, re.S)
    assert block, "README has no OpenSpiel example"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(block.group(1), "README.md", "exec"), {})
    assert out.getvalue().strip() in ("[1.0, -1.0]", "[-1.0, 1.0]", "[0.0, 0.0]")
