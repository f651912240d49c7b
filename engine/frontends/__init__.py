"""Front-ends: what plays a game through the core's public API (`engine.core.game.Game`,
`engine.core.loader`, `engine.core.api`, `engine.core.errors`, `engine.i18n`) and never the
runtime's internals (pyproject.toml's import contract): the command line, the terminal,
bots, simulation, the server and the reinforcement-learning adapters.
"""
