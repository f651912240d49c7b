"""Win rates of bots against each other: prints figures, asserts nothing.

Run: python bench/winrates.py PACK [--games N] [--seed S] [--bots SPEC ...]

For each bots SPEC (one entry per side in the pack's side order, e.g. greedy,random; the
default plays greedy,random / random,greedy / greedy,greedy / random,random) it plays N
games (game i with seed S + i, bots seeded as `engine simulate` seeds them, so one game
replays with `engine play PACK --seed S+i --bots SPEC`) and prints, per side, the share of
games won with its 95% Wilson score interval (engine.frontends.simulate.wilson, as `engine
simulate` reports it), then draws (with their interval), unfinished games and faults, the
mean decisions and turns per game (`--turn-event`, else 'turn' or 'round' events, else
decisions) and games per second on one core. The greedy bot plays fair (it decides on
determinized copies of the game: engine.core.determinize).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_BOTS = ("greedy,random", "random,greedy", "greedy,greedy", "random,random")


def play(pack, spec: str, games: int, seed: int, max_decisions: int,
         turn_event: str | None = None) -> dict:
    from engine.frontends.seats import parse_seats
    from engine.frontends.simulate import count_turns, make_seats, play_out
    specs = parse_seats(spec, pack.sides)
    wins = dict.fromkeys(pack.sides, 0)
    draws = unfinished = faults = decisions = turns = 0
    start = time.perf_counter()
    for i in range(games):
        game = pack.new_game(seed + i, log=True, undo=False)  # the log counts the turns
        try:
            over = play_out(game, make_seats(pack, specs, seed + i), max_decisions)
        except Exception as err:  # a fault is counted and shown, the run goes on
            faults += 1
            print(f"  fault in game {seed + i}: {type(err).__name__}: {err}"[:200])
            continue
        decisions += len(game.actions)
        turns += (sum(1 for e in game.log if e.get("t") == "event" and e.get("n") == turn_event)
                  if turn_event else count_turns(pack, game.log, len(game.actions)))
        if not over:
            unfinished += 1
        elif game.result.winner is None:
            draws += 1
        else:
            wins[game.result.winner] += 1
    seconds = time.perf_counter() - start
    played = max(1, games - faults)
    return {"bots": ",".join(specs), "games": games, "wins": wins, "draws": draws,
            "unfinished": unfinished, "faults": faults, "decisions": decisions / played,
            "turns": turns / played, "seconds": seconds, "gps": games / seconds}


def report(pack, r: dict) -> str:
    from engine.frontends.simulate import format_share
    n = r["games"]
    sides = [f"{side} ({spec}) {r['wins'][side]}/{n} = {format_share(r['wins'][side], n)}"
             for side, spec in zip(pack.sides, r["bots"].split(","))]
    return (f"{r['bots']:<14} " + "; ".join(sides)
            + f"; draws {r['draws']}/{n} = {format_share(r['draws'], n)}"
            + f", unfinished {r['unfinished']}, faults {r['faults']}"
            + f"; {r['decisions']:.0f} decisions, {r['turns']:.1f} turns per game"
            + f"; {r['gps']:.2f} games/s ({r['seconds']:.0f} s)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", nargs="*", default=list(DEFAULT_BOTS),
                    help="one SPEC per pairing, e.g. greedy,random random,greedy")
    ap.add_argument("--max-decisions", type=int, default=100_000)
    ap.add_argument("--turn-event", help="the event that counts turns (default: 'turn' or "
                    "'round'; decisions when the pack has neither)")
    args = ap.parse_args(argv)
    from engine.core.loader import load_pack
    pack = load_pack(args.pack)
    print(f"{pack.id}: {args.games} games per pairing from seed {args.seed}; "
          f"win share (95% Wilson interval)")
    for spec in args.bots:
        r = play(pack, spec, args.games, args.seed, args.max_decisions, args.turn_event)
        print(report(pack, r), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
