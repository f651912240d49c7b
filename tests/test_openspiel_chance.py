"""Chance the host supplies (`Game.new(..., chance=[...])`, issue 15): every random number a
game draws (dice, each step of a shuffle, random picks) is the host's next outcome; with
none left the engine raises ChanceNeeded(n) and the game is unchanged. The OpenSpiel adapter
turns these into chance nodes (engine/adapters/openspiel.py)."""
from __future__ import annotations

import random
from typing import Any

import pytest
from conftest import REPO

from engine.core.errors import ChanceNeeded, EngineFault
from engine.core.game import Game, copy_state
from engine.core.loader import load_pack

PACKS = [REPO / "tests/packs/testgame", REPO / "content/ante_portas", REPO / "bench/packs/kuhn"]


def host_new(pack: Any, rnd: random.Random, asked: list[int] | None = None) -> Game:
    """A new game whose outcomes are drawn from `rnd` as the engine asks for them."""
    outcomes: list[int] = []
    while True:
        try:
            return Game.new(pack, 0, chance=outcomes)
        except ChanceNeeded as need:
            if asked is not None:
                asked.append(need.n)
            outcomes.append(rnd.randrange(need.n))


def host_apply(game: Game, action: Any, rnd: random.Random) -> int:
    """Apply `action`, supplying outcomes one at a time; how many it drew."""
    outcomes: list[int] = []
    while True:
        before = copy_state(game.state, game.pack)
        try:
            game.apply(action, chance=outcomes)
            return len(outcomes)
        except ChanceNeeded as need:
            assert game.state == before, "ChanceNeeded must leave the game unchanged"
            outcomes.append(rnd.randrange(need.n))


def host_game(pack: Any, seed: int) -> tuple[Game, int]:
    rnd = random.Random(seed)
    game = host_new(pack, rnd)
    drawn = len(game.state["chance"])
    while not game.over:
        drawn += host_apply(game, game.random_action(rnd), rnd)
    return game, drawn


@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.name)
def test_host_game_records_its_outcomes_and_its_save_replays_them(path: Any) -> None:
    pack = load_pack(path)
    game, drawn = host_game(pack, 3)
    assert drawn > 0 and len(game.state["chance"]) == drawn
    loaded = Game.load(pack, game.save())  # verify="replay": the outcomes are replayed
    assert loaded.state == game.state and loaded.host_chance


def test_a_shuffle_asks_for_each_fisher_yates_step() -> None:
    pack = load_pack(REPO / "bench/packs/kuhn")  # setup shuffles the 3 cards
    asked: list[int] = []
    host_new(pack, random.Random(0), asked)
    assert asked == [3, 2]


def test_kuhn_deals_the_cards_the_host_chose() -> None:
    pack = load_pack(REPO / "bench/packs/kuhn")
    decks = set()
    for a in range(3):
        for b in range(2):
            game = Game.new(pack, 0, chance=[a, b])
            decks.add((tuple(game.zone("hand", "first")), tuple(game.zone("hand", "second"))))
    assert len(decks) == 6  # every deal of 2 of 3 cards, each from one pair of outcomes


def test_seeded_game_refuses_outcomes_and_bad_outcomes_fault_without_change() -> None:
    pack = load_pack(REPO / "bench/packs/kuhn")
    seeded = Game.new(pack, 1)
    with pytest.raises(ValueError, match="draws its own"):
        seeded.apply(seeded.legal_actions()[0], chance=[0])
    with pytest.raises(EngineFault, match="chance outcome 3"):
        Game.new(pack, 0, chance=[3, 0])


@pytest.mark.parametrize("undo", [True, False])
def test_chance_needed_mid_game_leaves_the_game_as_it_was(undo: bool) -> None:
    pack = load_pack(REPO / "tests/packs/testgame")
    rnd = random.Random(5)
    game = host_new(pack, rnd)
    game.undo_enabled = undo
    hits = 0
    while not game.over:
        before, actions = copy_state(game.state, pack), list(game.actions)
        action = game.random_action(rnd)
        try:
            game.apply(action, chance=[])
        except ChanceNeeded:
            hits += 1
            assert game.state == before and game.actions == actions
            host_apply(game, action, rnd)
    assert hits > 0


def test_determinized_copy_drops_the_real_outcomes_and_may_take_the_hosts() -> None:
    pack = load_pack(REPO / "bench/packs/kuhn")
    game = host_new(pack, random.Random(0))
    world = game.determinized("first", random.Random(1))
    assert game.state["chance"] and "chance" not in world.state and not world.host_chance
    world.supply_chance()
    assert world.state["chance"] == [] and world.host_chance


def test_clone_keeps_host_chance() -> None:
    pack = load_pack(REPO / "bench/packs/kuhn")
    game = host_new(pack, random.Random(0))
    assert game.clone().host_chance and not Game.new(pack, 0).clone().host_chance
