"""Saves written before a change to the compiler still load: tests/golden/saves/ holds whole
games of the test and bench packs, saved with the log on by the compiler as it was before
the speed work of issue 16 (engine.dsl.compile: var tables read once per walk, walks of the
pack's own data, options of `choose ... where` as loops). Loading one replays its actions
with today's generated code and requires the very state saved (Game.load, verify="replay"):
the same log, decisions and result; only the step count may differ (engine.core.saves keeps it
out of the comparison). To add a game: save it with a build from before the change."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.core.game import Game
from engine.core.loader import load_pack

REPO = Path(__file__).resolve().parent.parent
SAVES = REPO / "tests" / "golden" / "saves"
PACKS = {"testgame": "tests/packs/testgame", "roadgame": "tests/packs/roadgame",
         "stackgame": "tests/packs/stackgame", "windowgame": "tests/packs/windowgame",
         "tictactoe": "bench/packs/tictactoe", "kuhn": "bench/packs/kuhn"}


@pytest.mark.parametrize("path", sorted(SAVES.glob("*.json")), ids=lambda p: p.stem)
def test_a_save_from_before_replays_to_the_same_state(path):
    text = path.read_text(encoding="utf-8")
    saved = json.loads(text)
    game = Game.load(load_pack(REPO / PACKS[saved["pack"]]), text)  # replays, then compares
    assert game.over and len(game.actions) == len(saved["actions"])
    state = {k: v for k, v in game.state.items() if k != "steps"}
    assert state == {k: v for k, v in saved["state"].items() if k != "steps"}
    assert game.state["log"] == saved["state"]["log"] and game.state["log"]
    assert game.state["steps"] <= saved["state"]["steps"]  # the compiler charges no more


def test_every_pack_has_a_save():
    assert {json.loads(p.read_text(encoding="utf-8"))["pack"]
            for p in SAVES.glob("*.json")} == set(PACKS)
