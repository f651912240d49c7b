"""How well search.rules' `exposed_pc` foretells the isolation phase: prints figures, asserts
nothing (issue 32).

Run: python bench/hannibal_exposure.py [--games N] [--seed S] [--every K] [--reach R,...]

The search bot scores a PC that `exposed_pc` flags as lost (content/hannibal/search.rules),
a one-step reading of seed 002 §15.4 (no line end in its space or next door), because the
rule's own search (isolation.rules `isolated`) costs too much at every rollout's end. This
plays N random games (game i with seed S + i) and, every K answers, reads each PC that is an
isolation candidate and no line end itself, and counts:

- how many the isolation phase would remove now (`isolated`) and how many it would keep;
- of each, how many `exposed_pc` flags: a PC kept but flagged is a false loss, a PC removed
  but not flagged a missed one (`exposed_pc` can miss none: it asks less than `isolated`);
- the same for a look R movement points along the line (`reachable` over `supply_lines` with
  `line_blocked`, as `line_area` searches), for each R of `--reach`.

Measured at ac29239 (`--games 6 --every 80`, rules as Python): 970 PCs, 24 of them
isolated. `exposed_pc` flags all 24 and 279 of the 946 safe ones (92% of its flags are
false). A look along the line flags the 24 and, of the safe ones, 279 at R 1 (the same as
next door), 32 at R 2, 9 at R 3, 6 at R 4 and none at R 6. Searched as Carthage with R 4 and
the political points counted after the flagged PCs are gone: bench/mcts.py, "Tried at ac29239".
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def looked_exposed(game, side: str, x: str, reach: int) -> bool:
    """No line end of `side` within `reach` along the lines from `x` (its own space aside)."""
    rt = game.rt
    graph = rt.pack.graphs["supply_lines"]
    blocked = game.pack.ns["VALUES"]["line_blocked"]
    line_end = game.pack.ns["VALUES"]["line_end"]
    return not any(line_end(rt, side, y)
                   for y in graph.reachable(x, reach, lambda z: blocked(rt, side, z)))


def count(games: int, seed: int, every: int, reaches: list[int]) -> Counter:
    """The counts of the module's docstring over `games` random games from `seed`."""
    from engine.core.loader import load_pack
    pack = load_pack(ROOT / "content" / "hannibal")
    values = pack.ns["VALUES"]
    tally: Counter = Counter()
    for i in range(games):
        game = pack.new_game(seed + i, log=False, undo=False)
        rnd = random.Random(seed + i)
        while not game.over:
            game.playout(rnd, max_decisions=len(game.actions) + every)
            if game.over:
                break
            rt = game.rt
            for x, record in rt.s["f"].items():
                side = record.get("pc")
                if side is None or not values["isolation_candidate"](rt, side, x) \
                        or values["line_end"](rt, side, x):
                    continue
                fate = "isolated" if values["isolated"](rt, side, x) else "safe"
                tally[fate] += 1
                if values["exposed_pc"](rt, side, x):
                    tally["exposed_pc", fate] += 1
                for reach in reaches:
                    if looked_exposed(game, side, x, reach):
                        tally[reach, fate] += 1
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--every", type=int, default=80, help="answers between two readings")
    parser.add_argument("--reach", default="1,2,3,4,6",
                        help="movement points to look along the line, comma-separated")
    args = parser.parse_args(argv)
    reaches = [int(r) for r in args.reach.split(",") if r]
    tally = count(args.games, args.seed, args.every, reaches)
    print(f"{tally['isolated'] + tally['safe']} PCs that are no line end, read every "
          f"{args.every} answers of {args.games} random games (seeds {args.seed}.."
          f"{args.seed + args.games - 1}): {tally['isolated']} isolated, {tally['safe']} safe")
    for key in ["exposed_pc", *reaches]:
        name = key if key == "exposed_pc" else f"a look of {key}"
        print(f"  {name}: flags {tally[key, 'isolated']} of the isolated, "
              f"{tally[key, 'safe']} of the safe")


if __name__ == "__main__":
    main()
