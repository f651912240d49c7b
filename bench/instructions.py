"""Machine instructions per game, counted by valgrind's callgrind: a figure other load on the
machine does not move, for choosing between two versions of a hot path when timings on a
shared machine swing by 20% from run to run. Prints figures, asserts nothing.

Run: python bench/instructions.py [PACK ...] [--games N] [--warm W] [--new-only] [--defaults]
[--hand] (packs by name or path; the default: the bench packs tic-tac-toe, Kuhn and
ap_battle; --hand: their hand-written references too, and the ratio --compare times)

Each figure takes two runs under callgrind, with the same `--warm` games played first and
then 0 or `--games` more: their difference over `--games` is what one game costs, without
start-up (imports, loading the pack). The games are those of `bench/run.py` (game i with
seed i, one `random.Random(0)`, log and undo off unless `--defaults`); `--new-only` makes
new games without playing them (`pack.new_game`). One untimed run first fills the compile
cache, which two runs under valgrind would otherwise differ by; all run with one string
hash (PYTHONHASHSEED=0), so a figure comes out the same every time. Needs valgrind
(Debian's package `valgrind`); about 30 s a figure.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from handwritten import GAMES as HAND_WRITTEN  # noqa: E402  (the packs with a reference)
from run import pack_ref  # noqa: E402  (bench/run.py)

# The played games, as a script (argv: pack, warm, games, new-only, defaults, playout); its
# process must have nothing to do but them. Played by `Game.playout` or, as front-ends play,
# by `apply` of each `random_action`: the same games.
PLAY = """
import random, sys
sys.path.insert(0, "bench")
from run import play_game
from engine.core.loader import load_pack
pack = load_pack(sys.argv[1])
warm, games = int(sys.argv[2]), int(sys.argv[3])
new_only, defaults, playout = sys.argv[4] == "1", sys.argv[5] == "1", sys.argv[6] == "1"
rnd = random.Random(0)
for g in range(warm + games):
    if new_only:
        pack.new_game(seed=g, log=defaults, undo=defaults)
    else:
        play_game(pack, g, rnd, defaults, apply=not playout)
"""


# The same games played by the pack's hand-written reference (bench/handwritten.py; argv:
# its name, warm, games): instructions of both give the speed ratio of bench/run.py --compare
# without the 15-25% that timings of one run swing by here.
HAND = """
import random, sys
sys.path.insert(0, "bench")
import handwritten
name, warm, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rnd = random.Random(0)
for g in range(warm + games):
    handwritten.play(name, g, rnd)
"""


def collected(args: list[str], valgrind: bool, script: str = PLAY) -> int:
    """Instructions of one run of `script` (0 without valgrind: the cache-filling run)."""
    cmd = [sys.executable, "-c", script, *args]
    if valgrind:
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd]
    # one string hash for both runs: set and dict probing (so the count) varies with it
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    if not valgrind:
        return 0
    got = re.search(r"Collected : (\d+)", out.stderr)
    if got is None:
        raise RuntimeError(f"no instruction count from callgrind:\n{out.stderr[-2000:]}")
    return int(got.group(1))


def per_game(pack: str, games: int, warm: int, new_only: bool, defaults: bool,
             playout: bool = True) -> float:
    flags = ["1" if new_only else "0", "1" if defaults else "0", "1" if playout else "0"]
    collected([pack, "1", "0", *flags], valgrind=False)
    base = collected([pack, str(warm), "0", *flags], valgrind=True)
    total = collected([pack, str(warm), str(games), *flags], valgrind=True)
    return (total - base) / games


def hand_per_game(name: str, games: int, warm: int) -> float:
    """Instructions a game of bench pack `name`'s hand-written reference, counted as
    `per_game` counts the pack's."""
    base = collected([name, str(warm), "0"], valgrind=True, script=HAND)
    total = collected([name, str(warm), str(games)], valgrind=True, script=HAND)
    return (total - base) / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("packs", nargs="*", default=["tictactoe", "kuhn", "ap_battle"])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--warm", type=int, default=1000,
                    help="games played first, not counted (kept starts are made by then)")
    ap.add_argument("--new-only", action="store_true", help="new games only, not played")
    ap.add_argument("--defaults", action="store_true", help="log and undo on")
    ap.add_argument("--apply", action="store_true",
                    help="play by apply(random_action(...)) rather than Game.playout")
    ap.add_argument("--hand", action="store_true",
                    help="also count a bench pack's hand-written reference (bench/handwritten.py)"
                    " and print the pack's speed against it: its instructions over the pack's")
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)")
        return
    what = "new game" if args.new_only else "game"
    for name in args.packs:
        n = per_game(pack_ref(name), args.games, args.warm, args.new_only, args.defaults,
                     not args.apply)
        print(f"{name:<14} {n:>14,.0f} instructions a {what} ({args.games} after {args.warm})",
              flush=True)
        if args.hand and not args.new_only and not args.defaults and name in HAND_WRITTEN:
            h = hand_per_game(name, args.games, args.warm)
            print(f"{'  hand-written':<14} {h:>14,.0f} instructions a game: the pack runs at "
                  f"{h / n:.2f}x its speed", flush=True)


if __name__ == "__main__":
    main()
