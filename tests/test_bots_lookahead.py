"""What the greedy bot's look-ahead rests on: copies of a game that share nothing with it
(`Game.clone`, `engine.core.game.copy_state`), cheap public reads (`Game.decider`,
`Game.heuristic`, `Game.position`), and a choice that depends on the bot's seed only."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.core.game import copy_state
from engine.core.loader import load_pack
from engine.frontends.bots import GreedyBot
from engine.frontends.simulate import make_seats, play_out

PACKS = Path(__file__).resolve().parent / "packs"


@pytest.fixture(scope="module")
def ante_portas():
    return load_pack("ante_portas")


@pytest.fixture(scope="module")
def stackgame():  # records made in play, var fields, zones and vars indexed by them
    return load_pack(PACKS / "stackgame")


def played(pack, seed: int, n: int, **options):
    game = pack.new_game(seed, **options)
    rnd = random.Random(seed)
    for _ in range(n):
        if game.over:
            break
        game.apply(game.random_action(rnd))
    return game


def _containers(x, out: dict[int, object]) -> dict[int, object]:
    """Every list and dict inside `x`, by id (kept alive in `out`)."""
    if isinstance(x, (list, dict)):
        out[id(x)] = x
        for v in (x.values() if isinstance(x, dict) else x):
            _containers(v, out)
    elif isinstance(x, tuple):
        for v in x:
            _containers(v, out)
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_copy_state_is_equal_and_shares_nothing(stackgame, ante_portas, seed):
    for pack, n in ((stackgame, 25), (ante_portas, 40)):
        state = played(pack, seed, n).state
        copy = copy_state(state, pack)
        assert copy == state
        assert not set(_containers(copy, {})) & set(_containers(state, {}))
        without = copy_state(state, pack, log=False)
        assert "log" not in without and without == {k: v for k, v in state.items()
                                                    if k != "log"}


LISTS = """
type card:
    var marks: list of text = []

type token created:
    names: list of text
    var held: list of int = []

var seen: list of text = []
var extra[s: side]: any = []
zone pile of card

on setup:
    let t = create token with names = ["a", "b"]
    repeat 3:
        let c = choose c from [c1, c2] by red
        seen = seen + [c]
        c.marks = c.marks + ["x"]
        t.held = t.held + [1]
        extra[red] = [seen, [1, 2]]
"""


def test_copy_state_copies_lists_in_vars_and_fields(inline_pack):
    """Vars and fields declared as lists (or `any`), and the fields of records made in
    play, are copied to the bottom: the copy shares no list with the game."""
    pack = inline_pack(LISTS, "card:\n  - id: c1\n  - id: c2\n")
    g = pack.new_game(0)
    g.apply("c1")
    g.apply("c2")
    state = g.state
    copy = copy_state(state, pack)
    assert copy == state and copy["v"]["extra"]["red"] == [["c1", "c2"], [1, 2]]
    assert not set(_containers(copy, {})) & set(_containers(state, {}))
    c = g.clone()
    c.apply("c1")
    assert g.var("seen") == ["c1", "c2"] and c.var("seen") == ["c1", "c2", "c1"]


def test_clone_is_independent_both_ways(stackgame):
    """Changing a clone (answers, undo) leaves the original as it was, log and undo
    included; changing the original leaves the clone."""
    g = played(stackgame, 3, 12)
    side = g.decider
    g.apply(g.legal_actions()[0])  # a decision `side` may take back, if the rules allow
    saved, log, undoable = g.save(), list(g.log), g.can_undo(g.decider)
    c = g.clone()
    assert c.save() == saved and c.log == log and c.can_undo(c.decider) == undoable
    assert c.log is not g.log and c.actions is not g.actions
    rnd = random.Random(0)
    for _ in range(15):
        if c.over:
            break
        c.apply(c.random_action(rnd))
    if c.can_undo(c.decider):
        c.undo(c.decider)
    assert g.save() == saved and g.log == log and g.can_undo(g.decider) == undoable
    clone_saved = c.save()
    for _ in range(5):
        if g.over:
            break
        g.apply(g.random_action(rnd))
    assert c.save() == clone_saved
    assert side in stackgame.sides


def test_undo_in_a_clone_is_the_originals_undo(ante_portas):
    """A clone keeps the undo run: undoing in it gives the state undoing in the original
    gives, and the original keeps its own."""
    for n in range(20, 80):  # the first decision of the game that may be taken back
        g = played(ante_portas, 4, n)
        side = g.decider
        before = g.save()
        g.apply(g.legal_actions()[0])
        if g.can_undo(side):
            break
    c = g.clone()
    c.undo(side)
    assert c.save() == before
    assert g.can_undo(side)
    g.undo(side)
    assert g.save() == before


def test_public_reads_for_bots(ante_portas, stackgame):
    g = played(ante_portas, 2, 20)
    assert g.decider == g.decision.side
    assert g.heuristic("carthage") == -g.heuristic("rome")  # the pack's heuristic is zero-sum
    assert stackgame.new_game(0).heuristic("red") is None  # no heuristic declared
    side = g.decider
    world = g.determinized(side, random.Random(3))
    assert world.position(side) == g.position(side)  # what the side sees is unchanged
    other = next(s for s in ante_portas.sides if s != side)
    seen_by_other = [g.determinized(side, random.Random(i)).position(other) for i in range(5)]
    assert len(set(seen_by_other)) > 1 or g.position(other) == seen_by_other[0]
    after = g.clone()
    after.apply(after.legal_actions()[0])
    assert after.position(side) != g.position(side)
    done = played(ante_portas, 2, 10_000, log=False, undo=False)
    assert done.over and done.decider is None


def test_greedy_choice_depends_on_its_seed_only(ante_portas):
    """The same seed, the same game: the same choices, log on or off."""
    def actions(log: bool) -> list:
        game = ante_portas.new_game(7, log=log, undo=False)
        play_out(game, make_seats(ante_portas, ["greedy", "greedy"], 7), max_decisions=40)
        return game.actions

    first = actions(False)
    assert len(first) == 40
    assert actions(False) == first
    assert actions(True) == first
    g = played(ante_portas, 6, 25)
    side = g.decider
    assert len({repr(GreedyBot(11).choose(g, side)) for _ in range(3)}) == 1
