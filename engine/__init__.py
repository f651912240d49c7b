"""A declarative rules engine for card and board games.

The library API for front-ends (imported lazily so that `engine --help` stays fast):

    from engine import load_pack
    pack = load_pack("my_game")           # a shipped pack's name or a directory
    game = pack.new_game(seed=1)
    while not game.over:
        d = game.decision                 # who decides what, with which options
        game.apply(game.legal_actions()[0], side=d.side, decision=d.id)
    print(game.result.winner)

Computer players, for any pack: `make_bot("greedy", seed=1)` or `make_bot("mcts:200")` (or
`GreedyBot`, `MctsBot`, `RandomBot`),
then `bot.choose(game, side)` gives that side's action (docs/api.md, "Bots").
"""
from __future__ import annotations

DIST_NAME = "engine-dsl"  # this project's distribution (pyproject.toml [project] name)

__all__ = ["load_pack", "Game", "Decision", "Result", "replay", "IllegalAction",
           "EngineFault", "PackError", "SaveError", "NotPlayable", "ChanceNeeded",
           "validate_paths", "Limits", "make_bot", "Bot", "GreedyBot", "RandomBot", "MctsBot"]

_CORE = "engine.core."
_WHERE = {
    "load_pack": _CORE + "loader", "Game": _CORE + "game", "Decision": _CORE + "game",
    "Result": _CORE + "game", "replay": _CORE + "game", "IllegalAction": _CORE + "errors",
    "EngineFault": _CORE + "errors", "PackError": _CORE + "errors",
    "SaveError": _CORE + "errors", "NotPlayable": _CORE + "errors",
    "ChanceNeeded": _CORE + "errors", "Limits": _CORE + "limits",
    "validate_paths": "engine.core.validate",
    "make_bot": "engine.frontends.bots", "Bot": "engine.frontends.bots",
    "GreedyBot": "engine.frontends.bots", "RandomBot": "engine.frontends.bots",
    "MctsBot": "engine.frontends.search",
}


def __getattr__(name: str) -> object:  # (no `typing`: a tenth of `engine --help`)
    if name in _WHERE:
        import importlib
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'engine' has no attribute {name!r}")
