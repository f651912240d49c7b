"""A save names the code its rules were compiled to (`code`, the pack's `code_hash`): where
the rules wait (the state's stack: a rule's resume point and locals, and the rule that
asked the decision) is a place in that code. A save from another version of the compiler
is replayed from its seed and actions, which mean the same to every version, in both
verify modes; a digest-trusted load of its stack would resume the rules at the wrong place
and play on wrongly without a word."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from engine.core import game as game_module
from engine.core import saves
from engine.core.errors import SaveError
from engine.core.game import Game
from engine.core.loader import load_pack

REPO = Path(__file__).resolve().parent.parent
OTHER_CODE = "0123456789abcdef"


@pytest.fixture(scope="module")
def pack():
    return load_pack(REPO / "bench" / "packs" / "tictactoe")


def mid_game(pack, seed=3, moves=2):
    game = pack.new_game(seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        game.apply(game.random_action(rnd))
    return game


def rewritten(data, code=OTHER_CODE, frames=True):
    """The save as another compiler might have written it: its code named `code`, and
    (`frames`) its waiting rule under another name, at another resume point, with other
    locals. Digested again, so that only the code can tell."""
    data = {**data, "state": {**data["state"]}, "code": code}
    st = data["state"]
    if frames:
        st["stack"] = [*st["stack"][:-1], {"k": "p", "f": "t0_old_setup", "pc": 7,
                                           "L": {"turns": 2, "c": "c3"}}]
        st["decision"] = {**st["decision"], "fn": "t0_old_setup"}
    data["digest"] = saves.digest_of(data["seed"], data["log"], data["actions"], st)
    return saves.canonical(data)


def test_a_save_names_the_code_of_its_rules(pack):
    game = mid_game(pack)
    assert game.to_data()["code"] == pack.code_hash == pack.code_hash.lower()
    assert len(pack.code_hash) == 16 and f'"code":"{pack.code_hash}"' in game.save()
    assert load_pack(REPO / "bench" / "packs" / "tictactoe").code_hash == pack.code_hash


def test_the_code_is_that_of_the_engine_too(pack, monkeypatch):
    """Another engine (any dsl/ or engine/ file changed: engine.dsl.cache.toolchain_hash) runs the
    same generated code otherwise, maybe: its saves name other code."""
    import engine.dsl.cache
    from engine.core.loader import instantiate
    from engine.dsl.build import build_pack
    monkeypatch.setenv("ENGINE_DSL_CACHE", "off")
    monkeypatch.setattr(engine.dsl.cache, "toolchain_hash", lambda: "another engine")
    other = instantiate(build_pack((REPO / "bench" / "packs" / "tictactoe").resolve()))
    assert other.code == pack.code and other.code_hash != pack.code_hash


def test_a_save_of_this_code_is_trusted_by_digest(pack, monkeypatch):
    """(As before: verify='digest' loads the state without replaying.)"""
    game = mid_game(pack)
    text = game.save()
    monkeypatch.setattr(game_module, "replay_actions", lambda *a, **k: pytest.fail("replayed"))
    loaded = Game.load(pack, text, verify="digest")
    assert loaded.state == game.state


@pytest.mark.parametrize("verify", ["digest", "replay"])
def test_a_save_of_other_code_is_replayed_and_plays_on_as_the_game_did(pack, verify):
    game = mid_game(pack)
    text = rewritten(game.to_data())
    loaded = Game.load(pack, text, verify=verify)
    assert loaded.state == game.state and loaded.actions == game.actions
    assert loaded.state["stack"][-1]["f"] == "t0_on_setup"  # the replay's own, not the save's
    mine, theirs = random.Random(9), random.Random(9)
    assert loaded.playout(mine) is True
    while not game.over:
        game.apply(game.random_action(theirs))
    assert loaded.state == game.state


def test_a_save_of_other_code_that_lies_about_the_game_is_refused(pack):
    """Only where the rules wait may differ; the game itself must be what the actions
    lead to."""
    game = mid_game(pack)
    data = game.to_data()
    other = {"x": "o", "o": "x"}[data["state"]["v"]["active"][""]]
    data["state"] = {**data["state"], "v": {**data["state"]["v"], "active": {"": other}}}
    for verify in ("digest", "replay"):
        with pytest.raises(SaveError, match=r"state\.v\.active"):
            Game.load(pack, rewritten(data), verify=verify)


def test_a_save_without_a_code_is_replayed(pack, monkeypatch):
    """Saves written before they named their code load as before, by replay."""
    game = mid_game(pack)
    data = game.to_data()
    del data["code"]
    text = saves.canonical(data)
    replays = []
    real = game_module.replay_actions
    monkeypatch.setattr(game_module, "replay_actions",
                        lambda *a, **k: replays.append(1) or real(*a, **k))
    assert Game.load(pack, text, verify="digest").state == game.state
    assert replays == [1]


def test_the_waiting_rules_of_this_code_are_checked_against_it(pack):
    """A save claiming this code must name rules of it: its stack is run as it is."""
    game = mid_game(pack)
    text = rewritten(game.to_data(), code=pack.code_hash)
    with pytest.raises(SaveError, match=r"state\.stack\[1\]\.f: 't0_old_setup' is not a rule"):
        Game.load(pack, text, verify="digest")
    assert Game.load(pack, rewritten(game.to_data())).state == game.state


def test_a_code_that_is_not_text_is_refused(pack):
    game = mid_game(pack)
    data = game.to_data()
    data["code"] = 12
    with pytest.raises(SaveError, match="code: expected text"):
        Game.load(pack, saves.canonical(data))
