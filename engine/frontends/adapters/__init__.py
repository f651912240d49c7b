"""Adapters that let learning frameworks play the engine's games.

- `engine.frontends.adapters.actions`: a stable integer index for every action a pack's decisions
  can take, and the single-index steps that build a multi-item answer.
- `engine.frontends.adapters.observe`: what a side sees (`Game.view(side)`) as canonical strings
  and a fixed-length numeric tensor.
- `engine.frontends.adapters.pettingzoo`: a PettingZoo AEC environment per playable pack
  (`pip install '.[rl]'`).

They read the game only through its public API (`engine.core.game.Game`, `engine.core.loader`).
"""
