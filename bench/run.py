"""Benchmarks: prints figures, asserts nothing. Run: python bench/run.py [--seconds S] [PACK ...]

For each playable pack (the shipped ones and the test packs, or those named; data packs,
`playable: false`, are skipped): full random games per second on one core (log and undo
off, as in `engine simulate`), decisions per second, `engine validate` time (cold: no
compile cache; warm: cached), and `engine --help` start-up.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def packs(names: list[str]) -> list[Path]:
    from engine.loader import content_root, find_packs, resolve_pack
    if names:
        return [resolve_pack(n) for n in names]
    return (find_packs(content_root()) + find_packs(ROOT / "tests" / "packs")
            + find_packs(ROOT / "bench" / "packs"))


def games_per_second(path: Path, seconds: float) -> tuple[float, float, int]:
    from engine.loader import load_pack
    pack = load_pack(path)
    rnd = random.Random(0)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = pack.new_game(seed=games, log=False, undo=False)
        while not game.over:
            game.apply(game.random_action(rnd))
            decisions += 1
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, decisions / elapsed, games


def validate_seconds(path: Path, cold: bool) -> float:
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["XDG_CACHE_HOME"] = cache
        cmd = [sys.executable, "-m", "engine", "validate", str(path)]
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=False)
        return time.perf_counter() - start


def help_seconds(runs: int = 5) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "engine", "--help"], cwd=ROOT,
                       capture_output=True, check=False)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("packs", nargs="*")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per pack for play")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, one core")
    print(f"engine --help: {help_seconds() * 1000:.0f} ms (best of 5, whole process)")
    print(f"{'pack':<14} {'games/s':>10} {'decisions/s':>12} {'games':>7} "
          f"{'validate cold':>14} {'validate warm':>14}")
    from engine.loader import is_playable
    for path in packs(args.packs):
        if not is_playable(path):
            print(f"{path.name:<14} skipped: a data pack (playable: false), no game to play")
            continue
        gps, dps, n = games_per_second(path, args.seconds)
        cold = validate_seconds(path, cold=True)
        warm = validate_seconds(path, cold=False)
        print(f"{path.name:<14} {gps:>10.1f} {dps:>12.0f} {n:>7} {cold * 1000:>11.0f} ms "
              f"{warm * 1000:>11.0f} ms")


if __name__ == "__main__":
    main()
