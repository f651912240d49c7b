"""Which strategy-card events random games play: prints a report, asserts nothing.

Run: python bench/event_coverage.py [--games N] [--seed S] [--workers W] [PACK]

Plays N full random games of a pack (game i with seed S+i, log on, undo off) and counts,
for each card of the pack's card type, how often its event was played: the pack's own
sentences tell it ("... plays {card} as an event", "... answered with {card}, played as an
event"), so the count is what a person reading the log would count. Prints one line per
card, the cards never played, the games' results and the time taken.
"""
from __future__ import annotations

import argparse
import collections
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# the sentences of a pack that say a card was played as an event, and where the card is
EVENT_SENTENCES = {"{0} plays {1} as an event": 1, "{0} answered with {1}, played as an event": 1}


def play(args: tuple[str, int, int]) -> tuple[collections.Counter, collections.Counter, int]:
    """Games seed..seed+n-1: the events played, the winners, the faults."""
    from engine.core.errors import EngineError
    from engine.core.loader import load_pack
    pack_name, seed, n = args
    pack = load_pack(pack_name)
    played: collections.Counter = collections.Counter()
    results: collections.Counter = collections.Counter()
    faults = 0
    for i in range(seed, seed + n):
        game = pack.new_game(seed=i, log=True, undo=False)
        rnd = random.Random(i)
        try:
            while not game.over:
                game.apply(game.random_action(rnd))
        except EngineError:
            faults += 1
            continue
        results[game.result.winner] += 1
        for e in game.log:
            where = EVENT_SENTENCES.get(e.get("m", "")) if e.get("t") == "say" else None
            if where is not None:
                played[e["a"][where]] += 1
    return played, results, faults


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", nargs="?", default="hannibal")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--card-type", default="strategy_card")
    args = ap.parse_args(argv)
    from engine.core.loader import load_pack
    from engine.i18n.translations import Catalog
    pack = load_pack(args.pack)
    cat = Catalog(pack, "en")
    cards = sorted((pack.records[rid] for rid in pack.by_type[args.card_type]),
                   key=lambda r: r.get("number") or 0)
    start = time.perf_counter()
    w = max(1, args.workers)
    share = [(args.pack, args.seed + k * (args.games // w), args.games // w
              + (args.games % w if k == w - 1 else 0)) for k in range(w)]
    played: collections.Counter = collections.Counter()
    results: collections.Counter = collections.Counter()
    faults = 0
    with ProcessPoolExecutor(w) as ex:
        for p, r, f in ex.map(play, share):
            played.update(p)
            results.update(r)
            faults += f
    took = time.perf_counter() - start
    never = []
    print(f"{args.pack}: {args.games} random games (seeds {args.seed}.."
          f"{args.seed + args.games - 1}), {took:.0f} s on {w} workers; faults: {faults}; "
          f"winners: {dict(results)}")
    for c in cards:
        cid = c["id"]
        n = played.get(cid, 0)
        if n == 0:
            never.append(cid)
        print(f"  #{c.get('number', ''):>2} {cat.value(cid):<48} {n:>6}")
    print(f"cards whose event was played at least once: {len(cards) - len(never)} of "
          f"{len(cards)}")
    if never:
        print("never played: " + ", ".join(cat.value(c) for c in never))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
