"""Golden traces: whole event logs of fixed games, compared with files in tests/golden/.

A change to the order in which rules run, to what the log records, or to the test game shows
up here as a diff. When the change is intended, write the files again and review the diff:

    UPDATE_GOLDEN=1 python -m pytest tests/test_golden.py

The inline pack ORDER_RULES pins the order of execution documented in the README ("Order of
events"): `before` triggers, then the first `instead of` whose condition holds or else the
`on` handlers, then `after` triggers, then the event's queue (each queued event nested in
turn); a nested `emit` runs at once; `until end of e` modifiers expire when e finishes and
`until e` modifiers when e starts.
"""
from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from engine.core.game import Game, replay

GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"


def dump(log: list[dict[str, Any]]) -> str:
    """One log entry per line, so that a diff shows what moved."""
    lines = [json.dumps(e, sort_keys=True, ensure_ascii=False) for e in log]
    return "[\n" + ",\n".join(lines) + "\n]\n"


def check_golden(name: str, log: list[dict[str, Any]]) -> None:
    path = GOLDEN / name
    text = dump(log)
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert path.is_file(), f"{path} is missing: run UPDATE_GOLDEN=1 python -m pytest {__file__}"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        want = expected.splitlines()
        got = text.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b),
                     min(len(want), len(got)))
        pytest.fail(f"{name} differs from the golden trace at line {first + 1}:\n"
                    f"  expected: {want[first] if first < len(want) else '<end>'}\n"
                    f"  got:      {got[first] if first < len(got) else '<end>'}\n"
                    f"(UPDATE_GOLDEN=1 rewrites the file if the change is intended)")


def says(log: list[dict[str, Any]]) -> list[str]:
    return [" ".join([e["m"], *map(str, e["a"])]) for e in log if e["t"] == "say"]


# ---- the order of execution ------------------------------------------------------------------

ORDER_RULES = """
var active: side = red
value power(s: side): int = 10
event round(n: int)
event phase(name: text)
event attack(s: side)
event response(s: side)
event cleanup()

on setup:
    modify power(blue) by -5 until cleanup
    emit round(1)
    log "game over", power(red), power(blue)

before round(n):
    log "before round", n
on round(n):
    log "on round", n
    enqueue cleanup()
    emit phase("move")
    emit phase("fight")
    log "on round ends", n
after round(n):
    log "after round", n

on phase(name):
    log "phase", name
    if name == "fight":
        emit attack(red)
        log "attack by red over; red power back to", power(red)
        emit attack(blue)

before attack(s):
    log "before attack", s, power(s)
    modify power(s) by 3 until end of attack
instead of attack(s) if s == blue:
    log "instead of attack", s, power(s)
on attack(s):
    log "on attack", s, power(s)
    enqueue response(other(s))
    let go = ask other(s) "Respond?"
    log "defender answered", go
after attack(s):
    log "after attack", s

on response(s):
    log "queued response by", s

on cleanup():
    log "cleanup (the modifier until cleanup has expired)", power(blue)
after cleanup():
    log "after cleanup"
"""

ORDER_SAYS = [
    "before round 1",
    "on round 1",
    "phase move",
    "phase fight",
    "before attack red 10",            # before triggers first
    "on attack red 13",                # then the `on` handler (the modifier of `before` holds)
    "defender answered True",          # a decision in the middle of a handler
    "after attack red",                # then `after`
    "queued response by blue",         # then the event's queue
    "attack by red over; red power back to 10",   # `until end of attack` expired
    "before attack blue 5",
    "instead of attack blue 8",        # `instead of` replaces the `on` handler
    "after attack blue",               # `after` still runs; nothing was queued
    "on round ends 1",
    "after round 1",
    "cleanup (the modifier until cleanup has expired) 10",   # queued by `on round`
    "after cleanup",
    "game over 10 10",
]


def test_order_of_execution(write_pack):
    from engine.core.loader import load_pack
    pack = load_pack(write_pack(ORDER_RULES, name="order"))
    game = pack.new_game(0)
    while not game.over:
        game.apply(game.legal_actions()[0])
    assert says(game.log) == ORDER_SAYS
    check_golden("order.json", game.log)


# ---- the test game ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [7, 2024])
def test_testgame_trace(testgame, seed):
    game = testgame.new_game(seed)
    bot = random.Random(seed)  # the fixed bot: uniformly random legal actions
    while not game.over:
        game.apply(game.random_action(bot))
    check_golden(f"testgame_seed{seed}.json", game.log)
    assert replay(testgame, seed, game.actions).log == game.log
    loaded = Game.load(testgame, game.save())
    assert loaded.log == game.log
