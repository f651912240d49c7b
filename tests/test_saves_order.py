"""A game loaded from its save (verify="digest": the state read from the JSON, whose
objects have their keys sorted) has its tables back in the order the saved game had them
(engine.core.saves.in_game_order): `Game.position` gives the same bytes, and a view the same
JSON text but for its log entries' key order, over random games of every playable pack."""
from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import saves
from engine.core.game import Game
from engine.core.loader import load_pack
from engine.dsl.places import find_packs, is_playable

REPO = Path(__file__).resolve().parent.parent
PLAYABLE = [p for root in ("content", "tests/packs", "bench/packs")
            for p in find_packs(REPO / root) if is_playable(p)]


@cache
def pack(path: Path) -> Any:
    return load_pack(path)


def shown(view: dict[str, Any]) -> str:
    """A view's JSON text, its log entries with their keys sorted (a loaded log's entries
    keep the save's order: nothing reads them in order)."""
    return json.dumps({**view, "log": [dict(sorted(e.items())) for e in view["log"]]})


def test_every_playable_pack_is_here() -> None:
    names = {p.name for p in PLAYABLE}
    assert {"hannibal", "ante_portas", "testgame", "stackgame", "kuhn", "tictactoe"} <= names


@settings(max_examples=3 * len(PLAYABLE), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(path=st.sampled_from(PLAYABLE), seed=st.integers(0, 2**32 - 1),
       saves_at=st.sets(st.integers(0, 150), min_size=1, max_size=4))
def test_a_digest_load_gives_the_same_positions_and_views(path: Path, seed: int,
                                                          saves_at: set[int]) -> None:
    p = pack(path)
    game = Game.new(p, seed)
    rnd = random.Random(seed)
    while not game.over and len(game.actions) <= max(saves_at):
        if len(game.actions) in saves_at:
            loaded = Game.load(p, game.save(), verify="digest")
            for side in p.sides:
                assert loaded.position(side) == game.position(side), side
            for side in [*p.sides, None]:
                assert shown(loaded.view(side)) == shown(game.view(side)), side
            if not saves.made_in_turn(p):  # the state's own order is the game's
                for table in ("z", "v", "f"):
                    assert list(loaded.state.get(table) or ()) == list(game.state.get(table)
                                                                       or ())
                assert [list(t) for t in loaded.state["v"].values()] == \
                    [list(t) for t in game.state["v"].values()]
                assert [list(r) for r in (loaded.state.get("f") or {}).values()] == \
                    [list(r) for r in (game.state.get("f") or {}).values()]
            assert list(loaded.state) == list(game.state)
        game.apply(game.random_action(rnd))


def test_records_of_two_types_made_in_turn_are_read_in_key_order() -> None:
    """stackgame makes units and armies in turn; its state does not say in which order,
    and a loaded game has them type by type. Its positions and views read records made in
    play in `key_order` in both games, so they are the same bytes."""
    p = pack(REPO / "tests" / "packs" / "stackgame")
    assert saves.made_in_turn(p)
    differ = 0
    for seed in range(6):
        game = Game.new(p, seed)
        rnd = random.Random(seed)
        while not game.over and len(game.actions) < 120:
            game.apply(game.random_action(rnd))
        loaded = Game.load(p, game.save(), verify="digest")
        differ += list(loaded.state["f"]) != list(game.state["f"])
        assert [loaded.position(s) for s in p.sides] == [game.position(s) for s in p.sides]
        assert [shown(loaded.view(s)) for s in p.sides] == [shown(game.view(s))
                                                            for s in p.sides]
        order = saves.key_order(p, game.state["made"])
        assert list(order.fields) == list(loaded.state["f"])
        assert set(order.zones) == set(game.state["z"])
    assert differ  # the case this covers: the game's own order is not the loaded one


def test_key_order_is_the_order_a_game_makes_its_keys() -> None:
    """Hannibal makes combat units (one created type) all game: a state's keys in
    `key_order` are its own, in its own order."""
    p = pack(REPO / "content" / "hannibal")
    game = Game.new(p, 4)
    rnd = random.Random(4)
    while not game.over and len(game.actions) < 120:
        game.apply(game.random_action(rnd))
    order = saves.key_order(p, game.state["made"])
    assert game.state["made"]["cu"]
    assert list(order.zones) == list(game.state["z"])
    assert {n: list(k) for n, k in order.vars.items()} == \
        {n: list(t) for n, t in game.state["v"].items()}
    assert list(order.fields) == list(game.state["f"])
    assert [list(f) for f in order.fields.values()] == [list(r) for r in
                                                        game.state["f"].values()]
