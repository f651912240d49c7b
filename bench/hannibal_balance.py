"""Hannibal's balance between bots: prints figures, asserts nothing (issue 32, item 3).

Run: python bench/hannibal_balance.py [--games N] [--seed S] [--pairings SPEC ...]

For each pairing SPEC (Carthage's bot, Rome's bot: the pack's side order; default
random,random / greedy,greedy / greedy,random / random,greedy) it plays N games (game i with
seed S + i, bots seeded as `engine simulate` seeds them, so a game replays with `engine play
hannibal --seed S+i --bots SPEC`) and prints:

- each side's wins, with the 95% Wilson interval (engine.frontends.simulate.format_share);
- the end reasons, grouped by their text with every number written N ("Carthage cannot
  remove N PCs and sues for peace");
- the mean political points of each side at each turn's victory check (the pack logs them,
  victory.rules `victory_check_phase`: "Rome has {r} political points, Carthage {c}"), and how
  many games reached that turn;
- how the armies were used: the games in which Hannibal entered Italia at least once, and
  the battles per game (the log's "Battle in ..." lines).

The figures before and after the balance audit are in content/hannibal/RULINGS.md, "Balance
audit (issue 32)".

Measured at d1f3785 with the search bot on both sides, `--games 30 --seed 1 --pairings
mcts:100,mcts:100` (rules compiled, load about 3, 2,805 s): Carthage 5/30 = 16.7% (7.3-33.6%),
Rome 25/30 = 83.3% (66.4-92.7%); all 30 on political points after the last turn; Hannibal in
Italia in 1/30 games; 1.3 battles a game; mean points Rome-Carthage 10.0-7.6 after turn 1,
10.3-6.7 after turn 9 (RULINGS.md B-10).
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_PAIRINGS = ("random,random", "greedy,greedy", "greedy,random", "random,greedy")
MARCH = "{0} marches to {1}"
POINTS = "Rome has {0:# political point|# political points}, Carthage {1}"


def italia_spaces() -> set[str]:
    """The spaces of the region Italia (content/hannibal/map.yaml)."""
    import yaml
    data = yaml.safe_load((ROOT / "content" / "hannibal" / "map.yaml").read_text())
    italian = {p["id"] for p in data["province"] if p["region"] == "italia"}
    return {x["id"] for x in data["space"] if x["province"] in italian}


def play(pack, spec: str, games: int, seed: int) -> dict:
    from engine.frontends.seats import parse_seats
    from engine.frontends.simulate import make_seats, play_out
    specs = parse_seats(spec, pack.sides)
    wins: Counter = Counter()
    reasons: Counter = Counter()
    points: dict[int, list[tuple[int, int]]] = {}
    italia = italia_spaces()
    in_italia = battles = 0
    start = time.perf_counter()
    for i in range(games):
        game = pack.new_game(seed + i, log=True, undo=False)
        if not play_out(game, make_seats(pack, specs, seed + i)):
            wins["unfinished"] += 1
            continue
        wins[game.result.winner or "draw"] += 1
        reasons[(game.result.winner, re.sub(r"\d+", "N", game.result.reason))] += 1
        turn = 0
        entered = False
        for e in game.log:
            if e.get("t") != "say":
                continue
            if e.get("m") == POINTS:
                turn += 1
                points.setdefault(turn, []).append(tuple(e["a"]))
            elif e.get("m") == MARCH and e["a"][0] == "hannibal" and e["a"][1] in italia:
                entered = True
            elif e.get("m", "").startswith("Battle in"):
                battles += 1
        in_italia += entered
    return {"spec": ",".join(specs), "games": games, "wins": wins, "reasons": reasons,
            "points": points, "italia": in_italia, "battles": battles,
            "seconds": time.perf_counter() - start}


def report(pack, r: dict) -> str:
    from engine.frontends.simulate import format_share
    n = r["games"]
    carthage_bot, rome_bot = r["spec"].split(",")
    lines = [f"== Carthage {carthage_bot} vs Rome {rome_bot}: {n} games, "
             f"{r['seconds']:.0f} s =="]
    for side in pack.sides:
        lines.append(f"  {side:<9} wins {r['wins'][side]:>4}/{n} = "
                     f"{format_share(r['wins'][side], n)}")
    if r["wins"]["unfinished"] or r["wins"]["draw"]:
        lines.append(f"  unfinished {r['wins']['unfinished']}, draws {r['wins']['draw']}")
    lines.append("  end reasons:")
    for (winner, why), k in r["reasons"].most_common():
        lines.append(f"    {k:>4} {winner:<9} {why}")
    lines.append(f"  Hannibal entered Italia in {r['italia']}/{n} games; "
                 f"{r['battles'] / max(1, n):.1f} battles per game")
    lines.append("  political points at each turn's victory check (mean Rome-Carthage, games):")
    for turn, pts in sorted(r["points"].items()):
        rome = sum(p[0] for p in pts) / len(pts)
        carthage = sum(p[1] for p in pts) / len(pts)
        lines.append(f"    turn {turn}: Rome {rome:4.1f}, Carthage {carthage:4.1f} "
                     f"({len(pts)} games)")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pairings", nargs="*", default=list(DEFAULT_PAIRINGS),
                    help="Carthage's bot,Rome's bot; e.g. greedy,random")
    args = ap.parse_args(argv)
    from engine.core.loader import load_pack
    pack = load_pack(ROOT / "content" / "hannibal")
    for spec in args.pairings:
        print(report(pack, play(pack, spec, args.games, args.seed)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
