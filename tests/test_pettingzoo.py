"""The PettingZoo adapter (engine.frontends.adapters.pettingzoo) passes PettingZoo's own tests,
plays seeded games exactly, and shows each agent its own view only."""
from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from engine.core.loader import load_pack  # noqa: E402
from engine.frontends.adapters.pettingzoo import env  # noqa: E402
from engine.i18n.translations import Catalog  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# ante_portas, the bench packs, and the test packs with sets and orders to answer in steps
PACKS = [ROOT / "content" / "ante_portas", ROOT / "bench" / "packs" / "kuhn",
         ROOT / "bench" / "packs" / "tictactoe", ROOT / "tests" / "packs" / "testgame",
         ROOT / "tests" / "packs" / "leakgame"]


@pytest.mark.filterwarnings("ignore")  # its advice on agent names and Box observations
@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.name)
def test_pettingzoo_api_seed_and_render_tests_pass(path):
    api_test(env(path), num_cycles=300)
    seed_test(lambda: env(path), num_cycles=300)
    render_test(lambda render_mode=None: env(path, render_mode=render_mode))


def _play(e, seed: int, rnd: random.Random) -> list[int]:
    e.reset(seed=seed)
    taken = []
    for _agent in e.agent_iter():
        obs, _reward, done, cut, _info = e.last()
        if done or cut:
            e.step(None)
            continue
        action = int(rnd.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        e.step(action)
    return taken


def test_seeded_play_is_exact_and_ends_with_the_result():
    """The same seed and actions give the same game, which is our seeded game; the winner
    gets +1 and the others -1 (testgame: sets and orders are answered step by step)."""
    path = ROOT / "tests" / "packs" / "testgame"
    e1, e2 = env(path), env(path)
    games = []
    for e in (e1, e2):
        taken = _play(e, 5, random.Random(1))
        games.append((taken, e.game.save(), e.game.result, dict(e._cumulative_rewards)))
    assert games[0][:3] == games[1][:3]
    game = e1.game
    replayed = load_pack(path).new_game(5, undo=False)
    for action in game.actions:
        replayed.apply(action)
    assert replayed.state["z"] == game.state["z"] and replayed.result == game.result
    assert e1.agents == []  # every agent stepped out after the end
    e = env(path)
    e.reset(seed=5)
    rewards = dict.fromkeys(e.possible_agents, 0)
    rnd = random.Random(1)
    for agent in e.agent_iter():
        obs, reward, done, cut, _info = e.last()
        rewards[agent] += reward
        e.step(None if done or cut else int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
    winner = e.game.result.winner
    assert rewards == {a: 0 if winner is None else (1 if a == winner else -1)
                       for a in e.possible_agents}


def _into_the_game(pack, seed):
    """A position of a random game of Ante Portas where Rome's deck holds cards (Carthage
    cannot tell them from Rome's hand: `deal_by: side` deals them anew together)."""
    game, rnd = pack.new_game(seed), random.Random(seed)
    while not game.over and not (game.decider == "carthage" and game.zone("deck", "rome")):
        game.apply(game.random_action(rnd))
    return game


def test_an_agent_observes_only_its_own_view():
    """Two games of Ante Portas that differ only in what Carthage cannot see (Rome's hand,
    the decks: a determinized copy for Carthage) observe the same to Carthage; Rome's
    observation, which shows Rome's hand, differs."""
    path = ROOT / "content" / "ante_portas"
    pack = load_pack(path)
    differs = 0
    for seed in range(8):
        game = _into_the_game(pack, seed)
        real, other = env(pack), env(pack)
        real.reset(options={"game": game})
        other.reset(options={"game": game.determinized("carthage", random.Random(seed))})
        assert real.game.zone("hand", "carthage") == other.game.zone("hand", "carthage")
        mine, theirs = real.observe("carthage"), other.observe("carthage")
        assert np.array_equal(mine["observation"], theirs["observation"])
        assert np.array_equal(mine["action_mask"], theirs["action_mask"])
        if sorted(real.game.zone("hand", "rome")) != sorted(other.game.zone("hand", "rome")):
            differs += 1
            assert not np.array_equal(real.observe("rome")["observation"],
                                      other.observe("rome")["observation"])
    assert differs >= 4


def test_an_illegal_action_is_refused_and_changes_nothing():
    e = env(ROOT / "bench" / "packs" / "kuhn")
    e.reset(seed=3)
    before = e.game.save()
    mask = e.observe(e.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=f"action {illegal} is not legal for"):
        e.step(illegal)
    assert e.game.save() == before


def test_playing_before_reset_says_so():
    e = env(ROOT / "bench" / "packs" / "kuhn", render_mode="ansi")
    for call in (lambda: e.observe("first"), e.render):
        with pytest.raises(RuntimeError, match=r"no game yet: call reset\(\) first"):
            call()


def test_render_shows_what_a_spectator_sees_in_the_packs_names():
    e = env(ROOT / "content" / "ante_portas", render_mode="ansi")
    e.reset(seed=2)
    text = e.render()
    assert text.startswith("== Ante Portas") and "spectator" in text
    cat = Catalog(e.pack, "en")
    hand = [cat.value(c) for c in e.game.zone("hand", "rome")]
    assert hand and not any(name in text for name in hand)  # a hidden hand stays hidden
    assert env(ROOT / "bench" / "packs" / "kuhn", render_mode="human").render is not None


def test_readme_example_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"## Reinforcement learning \(PettingZoo\).*?\n```python\n(.*?)```", readme,
                  re.S)
    assert m, "README has no PettingZoo example"
    got = subprocess.run([sys.executable, "-c", m.group(1)], cwd=ROOT, capture_output=True,
                         text=True, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert got.returncode == 0, got.stderr
    assert "result:" in got.stdout


def test_max_decisions_truncates_a_long_game():
    """Hannibal is long: with max_decisions every agent is truncated after that many."""
    e = env("hannibal", max_decisions=40, log=False)
    e.reset(seed=1)
    rnd = random.Random(2)
    steps = 0
    for _agent in e.agent_iter():
        obs, _reward, done, cut, _info = e.last()
        if done or cut:
            assert cut and not done and len(e.game.actions) == 40
            e.step(None)
            continue
        assert obs["observation"].shape == e.observation_space(_agent)["observation"].shape
        e.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert steps >= 40 and e.agents == [] and not e.game.over


def test_observations_are_the_same_without_the_log():
    path = ROOT / "content" / "ante_portas"
    logged, quiet = env(path), env(path, log=False)
    logged.reset(seed=4)
    quiet.reset(seed=4)
    rnd = random.Random(4)
    for agent in logged.agent_iter(200):
        obs, _r, done, cut, _i = logged.last()
        assert quiet.agent_selection == agent
        other = quiet.observe(agent)
        assert np.array_equal(obs["observation"], other["observation"])
        assert np.array_equal(obs["action_mask"], other["action_mask"])
        action = None if done or cut else int(rnd.choice(np.flatnonzero(obs["action_mask"])))
        logged.step(action)
        quiet.step(action)


@pytest.mark.parametrize("action", [None, True, 2.5, "1"])
def test_an_action_that_is_no_index_is_refused(action):
    e = env(ROOT / "bench" / "packs" / "kuhn")
    e.reset(seed=3)
    with pytest.raises(ValueError, match="is not legal for"):
        e.step(action)
