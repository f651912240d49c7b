"""Benchmarks: prints figures, asserts nothing. Run: python bench/run.py [--seconds S] [PACK ...]

For each playable pack (the shipped ones and the test packs, or those named; data packs,
`playable: false`, are skipped): full random games per second on one core (log and undo
off, as in `engine simulate`), decisions per second, `engine validate` time (cold: no
compile cache; warm: cached), and `engine --help` start-up.

`python bench/run.py --compare` prints instead the figures of issue 16 side by side, each
with the ratio it is judged by and its target: random games per second with log and undo
off ("bare") and with the defaults of `pack.new_game()` (log and undo on) for Ante Portas
and Hannibal, a mid-game Hannibal's save, load and clone, the bench packs against their
hand-written Python references (bench/handwritten.py; OpenSpiel's too when installed:
bench/openspiel.py), and `engine --help` start-up. Other helpers share the machine: run it
when it is idle, or run it twice.
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def packs(names: list[str]) -> list[Path]:
    from engine.loader import content_root, find_packs, resolve_pack
    if names:
        return [resolve_pack(n) for n in names]
    return (find_packs(content_root()) + find_packs(ROOT / "tests" / "packs")
            + find_packs(ROOT / "bench" / "packs"))


def games_per_second(path: Path, seconds: float, defaults: bool = False
                     ) -> tuple[float, float, int]:
    """(games/s, decisions/s, games) of random play; log and undo off unless `defaults`.
    Per second of this process's CPU time: other processes share the machine."""
    from engine.loader import load_pack
    pack = load_pack(path)
    rnd = random.Random(0)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = pack.new_game(seed=games, log=defaults, undo=defaults)
        while not game.over:
            game.apply(game.random_action(rnd))
            decisions += 1
        games += 1
    elapsed = time.process_time() - start
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


def mid_game(name: str, decisions: int = 150, seed: int = 1) -> Any:
    """A game of pack `name` after `decisions` random decisions (log and undo on)."""
    from engine.loader import load_pack
    game = load_pack(name).new_game(seed=seed)
    rnd = random.Random(seed)
    for _ in range(decisions):
        if game.over:
            break
        game.apply(game.random_action(rnd))
    return game


def cpu_ms(fn: Any, calls: int, rounds: int) -> float:
    """CPU milliseconds one call of `fn` takes: the best of `rounds` rounds of `calls`."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls)
    return best * 1000


def ms_each(fn: Any, seconds: float) -> float:
    """Milliseconds one call of `fn` takes (the best of rounds of repeated calls)."""
    best = float("inf")
    end = time.perf_counter() + seconds
    while True:
        start = time.perf_counter()
        n = 0
        while time.perf_counter() - start < min(0.2, seconds):
            fn()
            n += 1
        best = min(best, (time.perf_counter() - start) / n)
        if time.perf_counter() >= end:
            return best * 1000


def compare(seconds: float) -> None:
    """The figures of issue 16, each with its ratio and target (see the module's text)."""
    from engine.game import Game
    sys.path.insert(0, str(ROOT / "bench"))
    import handwritten
    print(f"python {sys.version.split()[0]}, one core, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} (2 cores shared: run it idle)")
    def row(label: str, value: str, ratio: str = "", target: str = "") -> None:
        print(f"{label:<44} {value:>12} {ratio:>14}   {target}", flush=True)

    print(f"{'figure':<44} {'measured':>12} {'ratio':>14}   target")
    for name in ("ante_portas", "hannibal"):
        bare = games_per_second(resolve(name), seconds)[0]
        full = games_per_second(resolve(name), seconds, defaults=True)[0]
        row(f"{name} random games/s, log+undo off", f"{bare:.1f}",
            target="Hannibal >= 50 games/s on one core" if name == "hannibal" else "")
        row(f"{name} random games/s, log+undo on", f"{full:.1f}",
            f"off/on {bare / full:.2f}x", "defaults within 1.5x of bare")
    game = mid_game("hannibal")
    text = game.save()
    save_ms = ms_each(game.save, seconds / 2)
    load_ms = ms_each(lambda: Game.load(game.pack, text, verify="digest"), seconds / 2)
    replay_ms = ms_each(lambda: Game.load(game.pack, text), seconds / 2)
    clone_ms = ms_each(game.clone, seconds / 2)
    row("hannibal mid-game save + load (digest), ms", f"{save_ms + load_ms:.2f}",
        f"{save_ms:.2f} + {load_ms:.2f}", "save+load <= 2 ms")
    row("hannibal mid-game load (replay), ms", f"{replay_ms:.2f}", "", "(replays every action)")
    row("hannibal mid-game clone, ms", f"{clone_ms:.3f}", "", "clone <= 0.2 ms")
    targets = {"tictactoe": 0.5, "kuhn": 0.7}
    for name, goal in targets.items():
        ours = games_per_second(ROOT / "bench" / "packs" / name, seconds)[0]
        hand = handwritten.games_per_second(name, seconds)
        same = handwritten.same_results(name, 500)
        row(f"{name} games/s: DSL / hand-written", f"{ours:.0f} / {hand:.0f}",
            f"{ours / hand:.2f}x", f"DSL >= {goal}x hand-written"
            + ("" if same else " (RESULTS DIFFER)"))
    try:
        import openspiel
        import pyspiel  # noqa: F401
        for ours_name, os_name in openspiel.PAIRS:
            ours = games_per_second(ROOT / "bench" / "packs" / ours_name, seconds)[0]
            theirs = openspiel.openspiel(os_name, seconds)
            row(f"{ours_name} games/s: DSL / OpenSpiel Python", f"{ours:.0f} / {theirs:.0f}",
                f"{ours / theirs:.2f}x", "DSL >= 2x OpenSpiel's Python games")
    except ImportError:
        row("DSL / OpenSpiel Python games", "-", "", "open-spiel not installed "
            "(pip install open-spiel; bench/openspiel.py)")
    row("engine --help start-up, ms", f"{help_seconds() * 1000:.0f}", "", "(whole process)")


def resolve(name: str) -> Path:
    from engine.loader import resolve_pack
    return resolve_pack(name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("packs", nargs="*")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per pack for play")
    ap.add_argument("--compare", action="store_true",
                    help="the figures of issue 16 side by side, with ratios and targets")
    args = ap.parse_args()
    if args.compare:
        compare(args.seconds)
        return
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
