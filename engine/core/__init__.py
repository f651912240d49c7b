"""The core: a compiled pack, the game played on it, and everything a game is made of.

A front-end reaches it through `engine.core.game.Game` (and `engine.core.loader.load_pack`,
`engine.core.api`, `engine.core.errors`); the rest is the machinery `Game` drives: the
runtime that runs the generated rules, saves, views, the seeded dice, map graphs and tables.
docs/architecture.md says where each concept lives.
"""
