"""Editing a game's state the way a `move` would, for tests that set up positions
(tests/hannibal_play.py, tests/sor_play.py)."""
from __future__ import annotations

from engine.core.game import Game


def put(g: Game, item: str, key: str | None) -> None:
    """Take a record out of its zone and, unless `key` is None, put it last in the zone `key`
    (the state's zone key, e.g. "troops|capua")."""
    s = g.state
    old = s["loc"].get(item)
    if old is not None:
        s["z"][old].remove(item)
        del s["loc"][item]
    if key is not None:
        s["z"][key].append(item)
        s["loc"][item] = key
