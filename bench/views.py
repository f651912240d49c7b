"""Views at every step, with the log on: random games answered by `apply`, the decider's
`view` after every decision timed against the `apply` (the target of issue 34: a view at
most 1x an apply), through the PettingZoo environment (which asks the deciding agent's
view at every step) and through OpenSpiel (observation tensors at every step; its games
keep no log), in CPU seconds per game (time.process_time: other helpers share the
machine). Prints figures, asserts nothing.

Run: python bench/views.py [--games N] [--packs hannibal,ante_portas] [--engine DIR]

`--engine DIR` times the engine of another checkout (DIR/engine), for a before/after
comparison: run it alternately with and without, game by game (`--games 1` in a loop).

Measured at d14fb32 (rules and runtime as Python; a quiet 2-core machine, another again),
`--games 40 --packs ante_portas,hannibal`, one run: view / apply of the median game
ante_portas 0.99x, hannibal 0.82x; over the whole run (each game's figures weighted by its
decisions) 0.83x and 0.82x. The target (at most 1x) is met, Ante Portas's only just.
Measured at the commit after a320d67 (rules of Ante Portas compiled by `engine compile`,
runtime as Python; quiet 2-core machine, another than the figures below), `--games 40`, three
runs each, view / apply of the median game, before -> after:
  ante_portas 1.185-1.215x -> 1.015-1.050x; over the whole run 1.33-1.42x -> 0.82-0.83x.
  By callgrind (40 games, PYTHONHASHSEED=0) a view went from 332M to 270M instructions in
  Ante Portas, from 300M to 245M in Hannibal (3 games).
  What was cut: what a game keeps of its views held the game (a cycle: each game shown
  waited for the garbage collector, most of the whole run's outliers: engine.core.sight
  .Host); each card's last move was read ahead at every view in a pass of its own, now only
  when a line needs it (`_Then.read_ahead`; never in Ante Portas); a side's view remade
  every private var at each set of another side's key, and its own by all its keys (a card
  each: Ante Portas's `use`), now it skips the first and sets the one key of the second; a
  choice and a sentence or event naming no card are shown without a call; the import in
  `Game.view`. Still above 1x at the median: the rest is flat (two passes over the new
  lines, one for the log and one for the parts, and the copies a view must own). One pass
  shared by both was tried: 1.5% fewer instructions and no faster, not kept.
Measured at the commit after 3de0bdb (a move line no longer read again, the commonest lines
shown without a call; rules and runtime as Python; quiet machine), `--games 40` or 60,
view / apply of the median game, before -> after:
  ante_portas 1.31x -> 1.07-1.09x; hannibal 0.84x -> 0.74x. Over a whole run (outliers
  included: a view that meets a garbage collection) Ante Portas 1.44x -> 1.29-1.30x.
  By callgrind (40 games, the decider's view after every decision, imports excluded) an
  Ante Portas view went from 407M to 333M instructions, an apply stays 247M.
  The log's part of a view was cut most: a card's move line was read again at every later
  move of that card (its answer could not change), 14% of a view's log by instructions and
  most of it by time in long games; with it gone no line of Ante Portas is read again.
  What is left is flat: about 3,300 instructions a line read (two sides read each line),
  the parts (zones, vars) 54k instructions a view, the decision and its legal actions 17k.
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def pettingzoo_game(pack: object, seed: int) -> tuple[float, int, int]:
    """(CPU seconds, steps, log entries) of one random game through the environment."""
    from engine.frontends.adapters.pettingzoo import EngineEnv
    env = EngineEnv(pack, log=True)
    rnd = random.Random(seed)
    start = time.process_time()
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        obs, _reward, done, cut, _info = env.last()
        if done or cut:
            env.step(None)
            continue
        env.step(rnd.choice(obs["action_mask"].nonzero()[0].tolist()))
        steps += 1
    return time.process_time() - start, steps, len(env.game.log)


def view_and_apply_game(pack: Any, seed: int) -> tuple[float, float, int]:
    """(CPU seconds in `apply`, CPU seconds in the decider's views, decisions) of one random
    game, log and undo on, the decider's view taken after every decision."""
    game = pack.new_game(seed=seed)
    rnd = random.Random(seed)
    clock = time.process_time
    applying = viewing = 0.0
    while not game.over:
        start = clock()
        game.view(game.decider)
        viewed = clock()
        action = game.random_action(rnd)
        chosen = clock()
        game.apply(action)
        applying += clock() - chosen
        viewing += viewed - start
    return applying, viewing, len(game.actions)


def openspiel_game(name: str, seed: int) -> tuple[float, int]:
    """(CPU seconds, steps) of one random game through OpenSpiel, reading the deciding
    player's observation tensor at every step."""
    import pyspiel
    importlib.import_module("engine.frontends.adapters.openspiel")  # registers the packs
    game = pyspiel.load_game(f"engine_{name}")
    rnd = random.Random(seed)
    start = time.process_time()
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rnd.choice([a for a, _p in state.chance_outcomes()]))
            continue
        state.observation_tensor(state.current_player())
        state.apply_action(rnd.choice(state.legal_actions()))
        steps += 1
    return time.process_time() - start, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--packs", default="hannibal,ante_portas")
    parser.add_argument("--engine", type=Path, default=ROOT,
                        help="the checkout whose engine is timed (default: this one)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.engine.resolve()))
    from engine.core.loader import load_pack
    print(f"engine of {args.engine.resolve()}; CPU seconds per game", flush=True)
    for name in args.packs.split(","):
        pack = load_pack(ROOT / "content" / name)
        for i in range(args.games):
            applying, viewing, decisions = view_and_apply_game(pack, args.seed + i)
            print(f"view+apply {name:<12} seed {args.seed + i:<4} apply "
                  f"{applying / decisions * 1e6:6.1f} us, view {viewing / decisions * 1e6:6.1f}"
                  f" us: view / apply {viewing / applying:.2f}x  {decisions} decisions",
                  flush=True)
        for i in range(args.games):
            cpu, steps, entries = pettingzoo_game(pack, args.seed + i)
            print(f"pettingzoo {name:<12} seed {args.seed + i:<4} {cpu:8.3f} s  "
                  f"{steps} steps, {entries} log entries", flush=True)
        if importlib.util.find_spec("pyspiel") is None:
            continue
        for i in range(args.games):
            cpu, steps = openspiel_game(name, args.seed + i)
            print(f"openspiel  {name:<12} seed {args.seed + i:<4} {cpu:8.3f} s  {steps} steps",
                  flush=True)


if __name__ == "__main__":
    main()
