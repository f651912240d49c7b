"""Our DSL against OpenSpiel's games, its Python ones and its C++ ones driven from Python:
random playouts per second.

Run: pip install -e '.[spiel]' && python bench/openspiel.py [--seconds S]
Prints figures; asserts nothing. Both sides play uniformly random legal moves on one core,
counted per second of process time (other processes share the machine); OpenSpiel's chance
nodes (Kuhn's deal) are sampled from their outcome distribution.

Our side plays as `engine simulate` plays random bots: `pack.new_game(seed, log=False,
undo=False)`, then `Game.playout`. OpenSpiel's side runs its Python game objects
(`python_tic_tac_toe`, `python_kuhn_poker`) through `new_initial_state`, `legal_actions`,
`apply_action`, and its C++ games (`tic_tac_toe`, `kuhn_poker`, pyspiel's own) through the
same calls: issue 34's yardstick, a game in our DSL against OpenSpiel's C++ game driven from
Python as a Python front-end or bot drives it. The two take turns, a sixth of the time
each in each of six rounds: the machine's speed swings within seconds, and that puts the
swings on both alike.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PAIRS = [("tictactoe", "python_tic_tac_toe"), ("kuhn", "python_kuhn_poker")]
CPP_PAIRS = [("tictactoe", "tic_tac_toe"), ("kuhn", "kuhn_poker")]  # pyspiel's C++ games


def ours(name: str, seconds: float) -> float:
    from run import games_per_second  # bench/run.py: the same random playouts per pack
    return games_per_second(ROOT / "bench" / "packs" / name, seconds)[0]


def openspiel(name: str, seconds: float) -> float:
    import pyspiel
    from open_spiel.python import games as _games  # noqa: F401  (registers python_* games)
    game = pyspiel.load_game(name)
    rnd = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rnd.choices(outcomes, probs)[0])
            else:
                state.apply_action(rnd.choice(state.legal_actions()))
        games += 1
    return games / (time.process_time() - start)


def side_by_side(name: str, os_name: str, seconds: float) -> tuple[float, float]:
    """(ours, OpenSpiel's) games/s, taking turns (bench/run.py's `alternating`)."""
    from run import alternating
    got = alternating({"ours": lambda s: ours(name, s), "theirs": lambda s: openspiel(os_name, s)},
                      seconds)
    return got["ours"], got["theirs"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open-spiel is not installed: pip install -e '.[spiel]'")
        return
    print(f"{'game':<12} {'OpenSpiel game':<20} {'ours games/s':>14} {'theirs games/s':>15} "
          f"{'ratio':>7}")
    for ours_name, os_name in PAIRS + CPP_PAIRS:
        a, b = side_by_side(ours_name, os_name, args.seconds)
        print(f"{ours_name:<12} {os_name:<20} {a:>14.0f} {b:>15.0f} {a / b:>7.2f}")


if __name__ == "__main__":
    main()
