"""The code the compiler generates, before and after a change, on the same engine: random play
(log and undo off) with the pack compiled by git revision REV's compiler (A) and by this
checkout's (B), in one process, alternating round by round, timed in process CPU time. The
engine is this checkout's for both, so only the generated code differs; on a shared machine
the median of the paired rounds' ratios is the figure to read. First it checks that both
play the same games (log, state and result, apart from the step count, on a few seeds,
with undo on for every other one).

Run: python bench/codegen_ab.py REV [PACK ...] [--games N] [--rounds R] [--seeds S]
(packs by name or path; the default: tic-tac-toe, Kuhn, Ante Portas and Hannibal)
"""
from __future__ import annotations

import argparse
import gc
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core.loader import instantiate  # noqa: E402
from engine.dsl.build import Build, module_filename  # noqa: E402
from engine.dsl.check import check  # noqa: E402
from engine.dsl.compile import compile_pack  # noqa: E402
from engine.dsl.pack import read_pack  # noqa: E402
from engine.dsl.places import resolve_pack  # noqa: E402

DEFAULT = {"bench/packs/tictactoe": 1000, "bench/packs/kuhn": 2000, "ante_portas": 100,
           "hannibal": 10}
# run in the other commit's tree (its engine/ and dsl/), whose compiler is
# `engine.dsl.compile`, or before 2026-12 `engine.dsl.compiler` or `dsl.compiler`: the first
# of them found in that tree (not in this checkout, which is on the path too)
_DUMP = ("import importlib, os, sys\n"
         "here = os.path.realpath(os.getcwd()) + os.sep\n"
         "def own(name):\n"
         "    try: module = importlib.import_module(name)\n"
         "    except ImportError: return False\n"
         "    return os.path.realpath(module.__file__).startswith(here)\n"
         "name = next(n for n in ('engine.dsl.compile', 'engine.dsl.compiler', 'dsl.compiler')\n"
         "            if own(n))\n"
         "lang = name.rsplit('.', 1)[0]\n"
         "read_pack = importlib.import_module(lang + '.pack').read_pack\n"
         "try: check = importlib.import_module(lang + '.check').check\n"
         "except ImportError: check = importlib.import_module(lang + '.checker').check\n"
         "compile_pack = importlib.import_module(name).compile_pack\n"
         "s = read_pack(__import__('pathlib').Path(sys.argv[1]))\n"
         "sys.stdout.write(compile_pack(s.model, check(s.model, s.sources)))\n")


def code_at(rev: str, packs: list[Path]) -> dict[Path, str]:
    """Each pack compiled by the compiler of git revision `rev` (its engine/ and dsl/, in a
    copy, ahead of this checkout on the path)."""
    tree = subprocess.run(["git", "ls-tree", "--name-only", rev], cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout.split()
    tar = subprocess.run(["git", "archive", rev, *(p for p in ("dsl", "engine") if p in tree)],
                         cwd=ROOT, capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        with tarfile.open(fileobj=BytesIO(tar)) as archive:
            archive.extractall(tmp, filter="data")
        return {p: subprocess.run([sys.executable, "-c", _DUMP, str(p)], cwd=tmp,
                                  env={"PYTHONPATH": f"{tmp}:{ROOT}",
                                       "PYTHONDONTWRITEBYTECODE": "1"},
                                  capture_output=True, text=True, check=True).stdout
                for p in packs}


def play(pack: Any, games: int) -> None:
    rnd = random.Random(0)
    for seed in range(games):
        game = pack.new_game(seed=seed, log=False, undo=False)
        while not game.over:
            game.apply(game.random_action(rnd))


def same_games(a: Any, b: Any, seeds: int) -> bool:
    for seed in range(seeds):
        ends = []
        for pack in (a, b):
            game = pack.new_game(seed=seed, undo=seed % 2 == 0)
            rnd = random.Random(seed)
            while not game.over:
                game.apply(game.random_action(rnd))
            ends.append({k: v for k, v in game.state.items() if k != "steps"})
        if ends[0] != ends[1]:
            return False
    return True


def compare(path: Path, old_code: str, games: int, rounds: int, seeds: int) -> None:
    src = read_pack(path)
    result = check(src.model, src.sources)
    packs = [instantiate(Build(src, result, code, [],
                               compile(code, module_filename(src, code), "exec")))
             for code in (old_code, compile_pack(src.model, result))]
    same = same_games(packs[0], packs[1], seeds)
    for pack in packs:
        play(pack, 1)  # the first game builds what later ones reuse
    spent: list[list[float]] = [[], []]
    for r in range(rounds):
        for i in ((0, 1) if r % 2 == 0 else (1, 0)):
            gc.collect()
            start = time.process_time()
            play(packs[i], games)
            spent[i].append(time.process_time() - start)
    ratios = sorted(a / b for a, b in zip(*spent))
    rate = [games * rounds / sum(s) for s in spent]
    print(f"{path.name:<12} A {rate[0]:8.1f} games/s  B {rate[1]:8.1f} games/s  B/A median "
          f"{statistics.median(ratios):.3f} (quartiles {ratios[len(ratios) // 4]:.3f}-"
          f"{ratios[3 * len(ratios) // 4]:.3f}, {rounds} rounds of {games})  same games: "
          f"{'yes' if same else 'NO'}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rev", help="git revision whose compiler makes A")
    ap.add_argument("packs", nargs="*", help="packs (names or paths)")
    ap.add_argument("--games", type=int, help="games per round (default: per pack)")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--seeds", type=int, default=10, help="seeds checked for the same games")
    args = ap.parse_args()
    names = args.packs or list(DEFAULT)
    paths = {n: resolve_pack(n) if "/" not in n else Path(n).resolve() for n in names}
    old = code_at(args.rev, list(paths.values()))
    for name, path in paths.items():
        compare(path, old[path], args.games or DEFAULT.get(name, 100), args.rounds,
                args.seeds)


if __name__ == "__main__":
    main()
