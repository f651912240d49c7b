"""A side's log is kept between its views (engine.core.views.ShownLog: each view reads only the
lines new since the last): every view equals one worked out afresh from the whole log,
whatever happened between two views (play, undo, a reveal without a log line, a load)."""
from __future__ import annotations

import gc
import json
import random
import weakref
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.errors import IllegalAction
from engine.core.game import Game
from engine.core.loader import load_pack
from engine.core.views import player_view

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
# hidden hands and reveals (leakgame, ante_portas, kuhn), response windows, records made in
# play whose zone keys name them (stackgame)
PACKS = [TESTS / "packs" / "testgame", TESTS / "packs" / "leakgame",
         TESTS / "packs" / "windowgame", TESTS / "packs" / "stackgame",
         REPO / "content" / "ante_portas", REPO / "bench" / "packs" / "kuhn"]


@cache
def pack(path: Path) -> Any:
    return load_pack(path)


def fresh(game: Game, side: str | None) -> dict[str, Any]:
    """The view worked out from the whole log, nothing kept."""
    return player_view(game, side)


def assert_views_fresh(game: Game) -> None:
    for side in [*game.pack.sides, None]:
        assert game.view(side) == fresh(game, side), side


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(path=st.sampled_from(PACKS), seed=st.integers(0, 2**32 - 1),
       moves=st.lists(st.sampled_from(["play", "play", "play", "view", "undo", "load",
                                       "wrong"]),
                      min_size=1, max_size=120))
def test_a_kept_view_equals_a_fresh_one(path: Path, seed: int, moves: list[str]) -> None:
    """Random play with views of some sides between the moves, undo and save+load (both
    ways of verifying): each view equals the fresh one, for every side and the spectator."""
    p = pack(path)
    game = Game.new(p, seed)
    rnd = random.Random(seed)
    for move in moves:
        if game.over:
            break
        if move == "play":
            game.apply(game.random_action(rnd))
        elif move == "view":  # some sides only: the others read more lines at once later
            side = rnd.choice([*p.sides, None])
            assert game.view(side) == fresh(game, side)
        elif move == "undo":
            side = game.decider
            if game.can_undo(side):
                game.undo(side)
                assert_views_fresh(game)
        elif move == "wrong":  # an answer refused: the game as it was, its views too
            with pytest.raises(IllegalAction):
                game.apply("no such answer")
            assert_views_fresh(game)
        else:
            before = {s: game.view(s) for s in [*p.sides, None]}
            game = Game.load(p, game.save(), verify=rnd.choice(["digest", "replay"]))
            assert {s: game.view(s) for s in before} == before
    assert_views_fresh(game)


def test_a_card_shown_now_names_it_in_older_lines_until_it_moves(inline_pack) -> None:
    """A card offered to red from a hidden deck (a reveal without a log line) is named to
    red in the lines since its last move, from the view after the offer on; once it moves
    again, no longer. The lines kept from the earlier views are read again each time
    (engine.core.views, module docstring)."""
    p = inline_pack("""
        type card
        zone deck of card hidden
        zone hand[s: side] of card private
        on setup:
            move card to deck
            log "somewhere lies {c1}"
            let y = ask red "Go on?"
            let c = choose c from deck by red
            move c to hand[blue]
            let z = ask red "Again?"
            end game
    """, "card:\n  - {id: c1}\n  - {id: c2}\n")

    def named(game: Game) -> list[Any]:
        return [e["a"] for e in game.view("red")["log"] if e["t"] == "say"]
    for pick, after in (("c1", [[None]]), ("c2", [["c1"]])):
        game = Game.new(p, 0)
        assert named(game) == [[None]]  # hidden: not offered yet
        assert_views_fresh(game)
        game.apply(True)
        assert named(game) == [["c1"]]  # offered to red: named in the older line
        assert_views_fresh(game)
        game.apply(pick)  # c1 moved to blue's hand: hidden from red again, or stays shown
        assert named(game) == after
        assert_views_fresh(game)


@pytest.mark.parametrize("pause", [False, True], ids=["one view", "a view before the move"])
def test_a_card_shown_now_is_not_named_in_lines_before_a_later_move(inline_pack,
                                                                     pause: bool) -> None:
    """A card shown to red now (offered from blue's hidden hand) moved there after a line
    named it: that line does not name it (the card's last move is read ahead of the lines
    before it), whether it is read in the same view as the move or read again then, having
    been read in a view before it, in a view kept or fresh."""
    p = inline_pack(f"""
        type card
        zone deck of card hidden
        zone hand[s: side] of card private
        on setup:
            move card to deck
            log "somewhere lies {{c1}}"
            {'let y = ask red "Go on?"' if pause else 'pass'}
            move card to hand[blue]
            let c = choose c from hand[blue] by red
            log "red chose"
            end game
    """, "card:\n  - {id: c1}\n  - {id: c2}\n")
    game = Game.new(p, 0)
    if pause:
        assert [e["a"] for e in game.view("red")["log"] if e["t"] == "say"] == [[None]]
        game.apply(True)
    said = [e["a"] for e in game.view("red")["log"] if e["t"] == "say"]
    assert said == [[None]]
    assert_views_fresh(game)
    game.apply("c1")
    said = [e["a"] for e in game.view("red")["log"] if e["t"] == "say"]
    assert said[0] == [None]
    assert_views_fresh(game)


def test_a_kept_view_after_undo_equals_a_fresh_one(testgame) -> None:
    """Undo cuts the log back and grows it again with other entries: the kept lines are
    read again. Viewed right after the undo, the views are those before the undone
    answer; viewed only after another answer (the log as long as before, or longer, with
    other entries), they equal fresh ones."""
    rnd = random.Random(3)
    game = Game.new(testgame, 3)
    undone = 0
    while not game.over and undone < 40:
        side = game.decider
        before = {s: game.view(s) for s in [*testgame.sides, None]}
        game.apply(game.random_action(rnd))
        for s in before:
            game.view(s)
        if game.can_undo(side):
            game.undo(side)
            undone += 1
            if undone % 2:
                assert {s: game.view(s) for s in before} == before
            game.apply(game.random_action(rnd))
        assert_views_fresh(game)
    assert undone



def test_kept_hannibal_views_equal_fresh_ones() -> None:
    """Hannibal (many zones, var fields, units made and destroyed in play): views kept
    from decision to decision, across undo and a load, equal fresh ones."""
    p = pack(REPO / "content" / "hannibal")
    game = Game.new(p, 5)
    rnd = random.Random(5)
    for i in range(240):
        if game.over:
            break
        for side in [game.decider, None]:
            assert game.view(side) == fresh(game, side)
        if i % 40 == 39:
            game = Game.load(p, game.save(), verify="digest")
        elif i % 9 == 8 and game.can_undo(game.decider):
            game.undo(game.decider)
        else:
            game.apply(game.random_action(rnd))
    assert_views_fresh(game)


def test_a_view_shares_unchanged_parts_with_the_last(testgame) -> None:
    """A zone no line names since the side's last view is the very list that view showed
    (read-only for callers: docs/api.md), while the view's own dicts are new: a caller
    that changes them changes no later view."""
    game = Game.new(testgame, 1)
    first = game.view("red")
    first["zones"].clear()
    first["vars"].clear()
    again = game.view("red")
    assert again == fresh(game, "red")
    rnd = random.Random(1)
    game.apply(game.random_action(rnd))
    later = game.view("red")
    assert later == fresh(game, "red")
    named = {key for e in game.log[len(first["log"]):] for key in (e.get("from"), e.get("to"))}
    same = [key for key, shown in later["zones"].items()  # (a list: a zone red sees)
            if key not in named and isinstance(shown, list)]
    assert same and all(later["zones"][key] is again["zones"][key] for key in same)


def test_no_line_of_ante_portas_is_read_again() -> None:
    """A card's move line shows the card only by a reveal in force when it was written (a
    reveal made later names it in the lines after that move, not in the move's own), so
    ShownLog never notes a move line to read again; Ante Portas's hands and decks then
    leave no line to read again at all (re-reading each move line of a card at every
    later move of it was most of a long game's views: bench/views.py)."""
    p = pack(REPO / "content" / "ante_portas")
    for seed in range(5):
        game = Game.new(p, seed)
        rnd = random.Random(seed)
        while not game.over:
            game.view(game.decider)
            game.apply(game.random_action(rnd))
        kept = game._kept_views
        assert kept and len(game.log) > 100
        for mine in kept.values():
            watched = {i for lines in mine.log.watch.values() for i in lines}
            assert not any(game.log[i]["t"] == "move" for i in watched)
            assert not watched
        assert_views_fresh(game)


@pytest.mark.parametrize("path", PACKS[1:5], ids=lambda p: p.name)
def test_a_view_is_never_changed_by_later_views(path: Path) -> None:
    """Views share what did not change with the views before them (a zone's list, a
    private var's values): a later view copies what it changes (a private var of a key a
    card, one of its keys set), so every view made stays as it was made."""
    p = pack(path)
    for seed in range(3):
        game = Game.new(p, seed)
        rnd = random.Random(seed)
        made: list[tuple[dict[str, Any], str]] = []
        while not game.over:
            for side in [*p.sides, None]:
                view = game.view(side)
                made.append((view, json.dumps(view, sort_keys=True)))
            game.apply(game.random_action(rnd))
        assert all(json.dumps(view, sort_keys=True) == text for view, text in made)


@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.name)
def test_a_game_shown_is_freed_with_its_last_reference(path: Path) -> None:
    """What a game keeps of its views holds no reference back to the game (engine.core.sight
    .Host), so a game shown goes as soon as its last reference does, not at the garbage
    collector's next pass over the older objects (a tenth of the views' time in short
    games, when each game a bot or a server shows left such a cycle)."""
    p = pack(path)
    game = Game.new(p, 1)
    rnd = random.Random(1)
    for _ in range(30):
        if game.over:
            break
        for side in [*p.sides, None]:
            game.view(side)
        game.apply(game.random_action(rnd))
    gone = weakref.ref(game)
    gc.collect()
    gc.disable()
    try:
        del game
        assert gone() is None
    finally:
        gc.enable()
