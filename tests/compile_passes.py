"""What the tests of the compiler's optimisation passes (tests/test_compile_*.py) share: a
pack compiled with the optimisations and plainly (`optimize=False`, the reading the passes
must agree with), the text of one generated function, and random games played on both."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from engine.core.loader import CompiledPack, instantiate, load_pack
from engine.dsl.build import Build, module_filename
from engine.dsl.check import check
from engine.dsl.compile import compile_pack
from engine.dsl.pack import read_pack

# The records most of the passes' test packs use: three regions of different sizes.
REGIONS = """
region:
  - {id: north, size: 2}
  - {id: south, size: 4}
  - {id: east, size: 1}
"""


def plain_pack(root: Path) -> CompiledPack:
    """The pack at `root`, compiled without the optimisations."""
    src = read_pack(root)
    result = check(src.model, src.sources)
    code = compile_pack(src.model, result, optimize=False)
    code_object = compile(code, module_filename(src, code), "exec")
    return instantiate(Build(src, result, code, [], code_object))


def both_ways(root: Path) -> tuple[CompiledPack, CompiledPack]:
    """(the pack as it loads, optimised; the same pack compiled plainly)."""
    return load_pack(root), plain_pack(root)


def function(code: str, name: str) -> str:
    """The text of generated function `name`: from its `def` to the blank line after it."""
    start = code.index(f"\ndef {name}(") + 1
    return code[start:code.index("\n\n", start)]


def says(game: Any) -> list[list[Any]]:
    """The game's log lines (`log "..."`), each as [message, *values]."""
    return [[entry["m"], *entry["a"]] for entry in game.log if entry["t"] == "say"]


def play(pack: CompiledPack, seed: int) -> tuple[Any, ...]:
    """A random game to its end: (log, result, decisions, revealed, steps)."""
    game = pack.new_game(seed, undo=seed % 2 == 0)  # with undo, reads go through watchers
    rnd = random.Random(seed)
    while not game.over:
        game.apply(game.random_action(rnd))
    state = game.state
    return game.log, state["result"], state["decisions"], state["revealed"], state["steps"]


def assert_same_games(fast: CompiledPack, plain: CompiledPack, seeds: int = 6) -> None:
    """Both play the same games; the optimised one takes no more steps."""
    for seed in range(seeds):
        *same, steps = play(fast, seed)
        *want, plain_steps = play(plain, seed)
        assert same == want, f"seed {seed}"
        assert 0 < steps <= plain_steps, f"seed {seed}"
