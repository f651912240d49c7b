"""Two versions of the engine timed in one run, taking turns: is this one slower than that?
Run: python bench/compare_trees.py OTHER [--rounds N] [--seconds S]

OTHER is a commit (checked out in a temporary worktree) or a folder holding a checkout. Each
figure is measured in a fresh process of each tree in turn, `--rounds` times (taking turns
puts the machine's swings, a third within seconds here, on both alike), and the ratio this
tree / the other is the median of the rounds' ratios. The figures, through the public API
only (`from engine import load_pack, Game`), which every version has: random games per
second of Ante Portas and Hannibal played answer by answer (`apply` of each random action)
with the defaults (log and undo on) and bare (both off), as bench/run.py plays them, and a
mid-game Hannibal's save and load (verify="digest"). Process time. Prints figures, asserts
nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in each tree's own interpreter: the figure named by argv[1] for argv[2] seconds.
PROBE = r'''
import json, random, sys, time
from engine import Game, load_pack
figure, seconds = sys.argv[1], float(sys.argv[2])

def games_per_second(name, log):
    pack = load_pack(name)
    rnd = random.Random(0)
    games, spent = 0, 0.0
    while spent < seconds:
        start = time.process_time()
        game = pack.new_game(seed=games, log=log, undo=log)
        while not game.over:
            game.apply(game.random_action(rnd))
        spent += time.process_time() - start
        games += 1
    return games / spent

def save_load_ms():
    pack = load_pack("hannibal")
    game = pack.new_game(seed=1)
    rnd = random.Random(1)
    for _ in range(150):
        if game.over:
            break
        game.apply(game.random_action(rnd))
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(20):
            Game.load(pack, game.save(), verify="digest")
        best = min(best, (time.process_time() - start) / 20)
    return best * 1000

pack, _, mode = figure.partition(":")
value = save_load_ms() if pack == "saveload" else games_per_second(pack, mode == "defaults")
print(json.dumps(value))
'''

FIGURES = {  # name -> (label, higher is better)
    "ante_portas:defaults": ("Ante Portas games/s, log+undo on", True),
    "ante_portas:bare": ("Ante Portas games/s, log+undo off", True),
    "hannibal:defaults": ("Hannibal games/s, log+undo on", True),
    "hannibal:bare": ("Hannibal games/s, log+undo off", True),
    "saveload": ("Hannibal mid-game save + load, ms", False),
}


def measure(tree: Path, figure: str, seconds: float) -> float:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ENGINE_CONTENT")}
    env["PYTHONPATH"] = str(tree)
    run = subprocess.run([sys.executable, "-c", PROBE, figure, str(seconds)], cwd=tree,
                         env=env, capture_output=True, text=True, check=True)
    return float(json.loads(run.stdout))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", help="a commit, or a folder holding another checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--figures", nargs="*", default=list(FIGURES), choices=list(FIGURES))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(args.other)
        if not other.is_dir():
            other = Path(tmp) / "other"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "-q", "--detach",
                            str(other), args.other], check=True)
        try:
            for tree in (ROOT, other):  # untimed: fills each tree's compile cache
                measure(tree, "saveload", 0.0)
            print(f"this tree {ROOT} / the other {args.other}: {args.rounds} rounds of "
                  f"{args.seconds:g} s a figure, taking turns; load average "
                  f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            for figure in args.figures:
                label, higher = FIGURES[figure]
                mine, theirs, ratios = [], [], []
                for _ in range(args.rounds):
                    a = measure(ROOT, figure, args.seconds)
                    b = measure(other, figure, args.seconds)
                    mine.append(a)
                    theirs.append(b)
                    ratios.append(a / b if higher else b / a)
                print(f"{label:<38} this {statistics.median(mine):9.2f}  other "
                      f"{statistics.median(theirs):9.2f}  speed this/other "
                      f"{statistics.median(ratios):.3f}x", flush=True)
        finally:
            if other.parent == Path(tmp):
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(other)], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
