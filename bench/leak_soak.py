"""Hidden information at scale: whole random games, every viewer's view searched for what it
may not know. Prints figures, asserts nothing; the exit code is 1 when anything leaked.

Run: python bench/leak_soak.py PACK [--games N] [--seed S] [--workers W] [--every K]
(a pack by name or path)

tests/test_leaks.py checks a few games of each pack up to their 150th decision, which keeps
the suite fast. This plays N whole games (game i with seed S + i, its moves drawn as that
test draws them) and, at every K-th decision and at the end, gives each side and the
spectator the same search: their view as data and as rendered for a person at a terminal
(the log with rule traces, the decision, its actions), against what `Knowledge` works out
from the full log that the viewer may not know. It prints each leak found (seed, decision,
viewer, the ids) and each crash, and the games checked a second. `--every 1` checks every
decision; a Hannibal game then takes several seconds, since a view carries the whole log.
Needs the test extras (the search lives in the tests).

Measured at 00d2b7e (2 workers, this 2-core machine, rules compiled), seeds from 0:
  ante_portas --games 2000 --every 1: no leak, no crash; 140 s, 14.3 games/s
  hannibal --games 200 --every 10: no leak, no crash; 109 s, 1.84 games/s
  sword_of_rome --games 200 --every 10: no leak, no crash; 80 s, 2.49 games/s
"""
from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

Finding = tuple[int, int, str, list[str], list[str]]  # seed, decision, viewer, data, text


def check_game(path: str, seed: int, every: int) -> Finding | None:
    """The first leak (or crash: viewer "crash") of the random game of `seed`, or None."""
    import test_leaks as T  # (in the worker: its imports are the tests')
    p = T.pack(Path(path))
    know = None
    asked = 0
    try:
        for game in T.random_game(p, seed, limit=None):
            asked = len(game.actions)
            know = know or T.Knowledge(game)
            know.update()
            if asked % every == 0 or game.over:
                for viewer in know.viewers:
                    data, text = T.view_leaks(p, game.view(viewer), know.secret(viewer))
                    if data or text:
                        return seed, asked, str(viewer), sorted(data), sorted(text)
    except Exception as err:  # a crash is a finding too, with what replays it
        return seed, asked, "crash", [repr(err)], []
    return None


def _check(args: tuple[str, int, int]) -> Finding | None:
    return check_game(*args)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pack")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--every", type=int, default=1, help="check every K-th decision")
    a = ap.parse_args(argv)
    from engine.dsl.places import resolve_pack
    path = str(resolve_pack(a.pack))
    jobs = [(path, seed, max(1, a.every)) for seed in range(a.seed, a.seed + a.games)]
    start, found = time.perf_counter(), []
    with get_context("fork").Pool(a.workers) as pool:
        for got in pool.imap_unordered(_check, jobs, chunksize=4):
            if got is not None:
                found.append(got)
                seed, asked, viewer, data, text = got
                what = "crashed" if viewer == "crash" else f"the view of {viewer} shows"
                print(f"seed {seed}, decision {asked}: {what} {data or ''} {text or ''}",
                      flush=True)
    took = time.perf_counter() - start
    print(f"{a.games} games of {Path(path).name} (seeds {a.seed} to {a.seed + a.games - 1}), "
          f"every {a.every} decision(s) checked: {len(found)} with a leak or crash; "
          f"{took:.0f} s, {a.games / took:.2f} games/s on {a.workers} worker(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
