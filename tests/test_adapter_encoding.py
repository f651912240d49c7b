"""The shared encodings of the learning adapters (engine.frontends.adapters.actions, .observe): a
stable action index space per pack, single-index steps for multi-item answers, and
observations made from a side's view only."""
from __future__ import annotations

import hashlib
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.loader import load_pack
from engine.dsl.places import is_playable
from engine.frontends.adapters.actions import NO, NONE, YES, ActionSpace, UnindexedValue
from engine.frontends.adapters.observe import Observer, observation_string

ROOT = Path(__file__).resolve().parent.parent
PACKS = [p for p in sorted([*(ROOT / "tests" / "packs").iterdir(),
                            *(ROOT / "bench" / "packs").iterdir(),
                            ROOT / "content" / "ante_portas", ROOT / "content" / "hannibal"])
         if p.is_dir() and is_playable(p)]
LONG = {"hannibal": 300}  # decisions played of a long game; the others are played out


def _digest(space: ActionSpace) -> str:
    return hashlib.sha256(repr(space.values).encode()).hexdigest()


def test_action_space_is_the_same_in_another_process():
    here = _digest(ActionSpace.for_pack(load_pack(ROOT / "content" / "ante_portas")))
    code = ("from engine.core.loader import load_pack; import hashlib; "
            "from engine.frontends.adapters.actions import ActionSpace as S; "
            "print(hashlib.sha256(repr(S.for_pack(load_pack('content/ante_portas')).values)"
            ".encode()).hexdigest())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, env={"PYTHONPATH": str(ROOT),
                                                     "PYTHONHASHSEED": "123"})
    assert out.stdout.strip() == here


def test_values_and_indices_map_both_ways():
    space = ActionSpace.for_pack(load_pack(ROOT / "tests" / "packs" / "testgame"))
    assert (space.value(NONE), space.value(YES), space.value(NO)) == (None, True, False)
    assert space.index(True) == YES and space.index(False) == NO
    assert space.index(1) not in (YES, NO) and space.index(0) != NO  # bools are not ints
    assert [space.index(space.value(i)) for i in range(space.size)] == list(range(space.size))
    with pytest.raises(UnindexedValue, match="'no such card' is outside the action space"):
        space.index("no such card")
    with pytest.raises(UnindexedValue, match=r"\[1, 2\]"):
        space.index([1, 2])
    with pytest.raises(UnindexedValue, match=str(space.int_high + 1)):
        space.index(space.int_high + 1)
    with pytest.raises(IndexError, match="outside 0"):
        space.value(space.size)


def _answer(space: ActionSpace, game, rnd: random.Random) -> list[int]:
    """Random single-index steps to a complete answer, each step among the legal ones."""
    steps: list[int] = []
    while not space.is_complete(game, steps):
        legal = space.legal_indices(game, steps)
        assert legal, f"no legal step after {steps} in {game.decision}"
        steps.append(rnd.choice(legal))
    assert space.legal_indices(game, steps) == []
    return steps


@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.name)
def test_a_random_game_in_steps_keeps_the_encodings(path):
    """Every option has its index, every step sequence makes a legal engine action (and
    back), and the tensor keeps its shape, for every side, through a whole random game."""
    pack = load_pack(path)
    space, observer = ActionSpace.for_pack(pack), Observer.for_pack(pack)
    rnd = random.Random(7)
    game = pack.new_game(7, undo=False)
    played = 0
    while not game.over and played < LONG.get(pack.id, 10_000):
        d = game.decision
        for side in pack.sides:
            assert len(observer.tensor(game.view(side))) == observer.size
        assert {space.index(o) for o in d.options} <= set(space.legal_indices(game)) or \
            d.kind == "ask"
        steps = _answer(space, game, rnd)
        action = space.to_engine_action(game, steps)
        assert space.action_steps(game, action) == steps
        if d.kind == "many" and len(game.legal_actions()) < 200:
            reach = {tuple(sorted(space.index(v) for v in a)) for a in game.legal_actions()}
            assert tuple(sorted(space.index(v) for v in action)) in reach
        game.apply(action)
        played += 1
    assert played > 0 and observer.shape == (observer.size,)


def test_many_and_order_become_steps():
    """testgame has `choose` of several cards and an `order`: picks one per step, then 0
    ("done") for a set; a permutation ends when every option is picked."""
    pack = load_pack(ROOT / "tests" / "packs" / "testgame")
    space = ActionSpace.for_pack(pack)
    seen = set()
    for seed in range(40):
        game, rnd = pack.new_game(seed, undo=False), random.Random(seed)
        while not game.over and len(seen) < 2:
            d = game.decision
            if d.kind == "order" and len(d.options) > 1:
                first = space.legal_indices(game)
                assert first == sorted({space.index(o) for o in d.options})
                steps = [space.index(o) for o in reversed(d.options)]
                assert not space.is_complete(game, steps[:-1])
                assert space.to_engine_action(game, steps) == list(reversed(d.options))
                seen.add("order")
            if d.kind == "many" and d.min == 0 and d.options:
                assert NONE in space.legal_indices(game)  # the empty set is an answer
                assert space.to_engine_action(game, [NONE]) == []
                seen.add("many")
            game.apply(game.random_action(rnd))
        if len(seen) == 2:
            break
    assert seen == {"order", "many"}


def _hidden_positions(pack_path: Path, seeds: int, cap: int):
    pack = load_pack(pack_path)
    for seed in range(seeds):
        game, rnd = pack.new_game(seed, undo=False), random.Random(seed)
        n = 0
        while not game.over and n < cap:
            yield game
            game.apply(game.random_action(rnd))
            n += 1


@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.name)
def test_an_observation_never_shows_hidden_information(path):
    """A determinized copy (what `side` cannot see dealt anew) observes the same to `side`,
    as string and tensor; the information-state string carries the log besides."""
    pack = load_pack(path)
    observer = Observer.for_pack(pack)
    rnd = random.Random(3)
    redealt = 0
    for i, game in enumerate(_hidden_positions(path, 2, 60)):
        if i % 3:
            continue
        for side in pack.sides:
            world = game.determinized(side, rnd)
            redealt += world.state["z"] != game.state["z"]
            real, imagined = game.view(side), world.view(side)
            assert observation_string(imagined) == observation_string(real)
            assert observer.tensor(imagined) == observer.tensor(real)
    if pack.id in ("ante_portas", "leakgame", "kuhn"):  # hidden hands: some were dealt anew
        assert redealt > 0


def test_the_layout_is_documented_and_covers_the_tensor():
    pack = load_pack(ROOT / "content" / "ante_portas")
    observer = Observer.for_pack(pack)
    text = observer.describe()
    assert text.splitlines()[0].split()[2] == "decision"
    ends = [s.start + s.size for s in observer.sections]
    assert [s.start for s in observer.sections[1:]] == ends[:-1]
    assert ends[-1] == observer.size
    assert any(s.name.startswith("zone:hand|") for s in observer.sections)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_any_legal_steps_make_an_answer_the_game_accepts(seed, data):
    """testgame asks sets, orders, yes/no and optional choices: whatever legal steps are
    taken, the action they make is one `Game.validate` accepts."""
    pack = load_pack(ROOT / "tests" / "packs" / "testgame")
    space = ActionSpace.for_pack(pack)
    game = pack.new_game(seed, log=False, undo=False)
    for _ in range(30):
        if game.over:
            break
        steps: list[int] = []
        while not space.is_complete(game, steps):
            steps.append(data.draw(st.sampled_from(space.legal_indices(game, steps))))
        action = space.to_engine_action(game, steps)
        assert game.validate(action) == action
        game.apply(action)


def test_a_value_outside_its_type_is_named():
    pack = load_pack(ROOT / "content" / "ante_portas")
    view = pack.new_game(0).view("rome")
    view["vars"]["hannibal"] = "atlantis"
    with pytest.raises(ValueError, match="hannibal holds 'atlantis'"):
        Observer.for_pack(pack).tensor(view)
