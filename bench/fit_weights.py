"""Fit a search heuristic's weights to game outcomes: prints figures, asserts nothing.

Run: python bench/fit_weights.py PACK --terms T1,T2,... [--games N] [--seed S]
     [--workers W] [--bots greedy,greedy] [--current W1,W2,...] [--scale T1=8]
     [--save FILE | --load FILE] [--by-turn]

Plays N games of PACK (game i with seed S + i, the bots seeded as `engine simulate` seeds
them) and at the first decision of each turn (the pack's `balance: turn:` var) reads each
term for each side: a pack value of one side (`value T(s: side)`), a number, a truth or a
list (counted). It fits a logistic regression of "the first side won" on the differences
(first side minus second) over the positions of three games in four (L2 1.0), and prints
each term's weight, scaled so the `--scale` term has the weight given (a heuristic's units),
and the log loss on the other games' positions: fitted, a constant only, and `--current`
weights (the heuristic as it stands, its scale fitted) when given. Needs numpy.
`--save FILE` writes each game's winner and positions as a JSON line as it ends; `--load
FILE` fits on those (any of the terms saved) without playing: games of a search bot take
minutes each. `--by-turn` adds each term times the turn's number, for weights that change
over the game.

Positions of one game are not independent and the bots' play decides which positions
occur: a weight fitted here says what went with winning in these games, a starting point
for a heuristic's weights to be measured by bench/mcts.py, not a proof.

Measured at the commit after 0be756c (greedy games, rules as Python):
  python bench/fit_weights.py hannibal --games 202 --seed 1000 --terms political_points,\
  provinces_in_reach,provinces_at_risk,pcs,cus_on_map,leaders_on_map,siege_points,\
  capital_threat,exposed_pcs --current 8,2,-2,1,2,3,2,-10,-1 --scale political_points=8
  1,372 positions, Carthage won 10.5% of them. Scaled to a political point of 8 (on 3/4 of
  the games, on all): a province in reach +5.0, +4.6; one held by one PC +1.3, +0.6; a PC
  -0.04, -0.2; a CU +0.3, +0.2; a leader on the map -5.8, -4.4; a siege point +9.8, +3.9;
  the capital's threat -1.7, -2.3; an exposed PC +0.7, +0.4. Held-out log loss 0.281
  fitted, 0.328 for the weights search.rules had (--current), 0.356 a constant. So a PC and
  a CU went with winning a tenth as much as those weights gave them, a province in reach
  twice as much; search.rules took the fitted weights where they were stable (RULINGS.md
  H-bot-2), and bench/mcts.py measures the result.
Measured at the commit after e484a0b, on games of the search bot (mcts:100 as Carthage
against greedy Rome, seeds 2000-2059, --save: 23 minutes on 2 workers), the same terms:
  478 positions, Carthage won 48.5% of them (greedy Carthage: 10.5%). Scaled to a political
  point of 40 (on 3/4, on all): a province in reach +30, +37; one held by one PC -5, +2; a
  PC +1, +11; a CU +1, -1; a leader on the map +12, +30; a siege point -24, -8; the capital's
  threat +26, +86; an exposed PC -2, -8. Held-out log loss 0.581 fitted, 0.717 a constant,
  0.803 for search.rules' weights. 15 games held out decide these figures: --load fits with
  fewer terms swing from 0.56 to 0.69 (political points alone 0.578). With --by-turn a
  political point is worth more each turn (-0.19 + 0.27 a turn, a unit), a province in reach
  about the same all game (0.59 + 0.07 a turn).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_PACKS: dict[str, tuple[Any, str | None]] = {}  # pack ref -> (pack, its turn var)


def _number(x: Any) -> float:
    if isinstance(x, (list, tuple)):
        return float(len(x))
    return float(x)


def positions(pack_ref: str, seed: int, specs: list[str], terms: list[str]
              ) -> tuple[str | None, list[list[float]]]:
    """The winner of one game and, at each turn's first decision, each term's difference
    (first side minus second)."""
    from engine.core.loader import load_pack
    from engine.dsl.balancespec import balance_spec
    from engine.dsl.places import resolve_pack
    from engine.frontends.simulate.playing import make_seats
    got = _PACKS.get(pack_ref)
    if got is None:  # (once per worker: it plays many games)
        pack = load_pack(resolve_pack(pack_ref))
        got = _PACKS[pack_ref] = (pack, balance_spec(pack.model, pack.meta).turn)
    pack, turn_var = got
    if turn_var is None:
        raise SystemExit(f"{pack_ref} names no turn var (pack.yaml balance: turn:)")
    first, second = pack.sides[:2]
    seats = make_seats(pack, specs, seed)
    game = pack.new_game(seed, log=False, undo=False)
    rows, turn = [], None
    while not game.over:
        d = game.decision
        now = game.var(turn_var)
        if now != turn:
            turn = now
            rows.append([_number(game.value(t, first)) - _number(game.value(t, second))
                         for t in terms])
        game.apply(seats[d.side].choose(game, d.side))
    return game.result.winner, rows


def fit(x: Any, y: Any, lam: float) -> Any:
    """Logistic regression by Newton's method; the last weight is the intercept."""
    import numpy as np
    xb = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(xb.shape[1])
    ridge = lam * np.diag(np.r_[np.ones(len(w) - 1), 0.0])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(xb @ w)))
        grad = xb.T @ (p - y) + ridge @ w
        hess = (xb * (p * (1 - p))[:, None]).T @ xb + ridge
        w = w - np.linalg.solve(hess, grad)
    return w


def log_loss(w: Any, x: Any, y: Any) -> float:
    import numpy as np
    xb = np.hstack([x, np.ones((len(x), 1))])
    p = np.clip(1.0 / (1.0 + np.exp(-(xb @ w))), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def _played(args: argparse.Namespace, specs: list[str], terms: list[str]
            ) -> Iterator[tuple[str | None, list[list[float]]]]:
    """Each game's winner and positions, played on the pool (and saved when asked)."""
    out = args.save.open("w") if args.save else None
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(positions, args.pack, args.seed + i, specs, terms)
                   for i in range(args.games)]
        for i, future in enumerate(futures):
            winner, rows = future.result()
            if out:
                out.write(json.dumps({"seed": args.seed + i, "bots": args.bots,
                                      "winner": winner, "terms": terms, "rows": rows}) + "\n")
                out.flush()
            yield winner, rows
    if out:
        out.close()


def _saved(path: Path, terms: list[str]) -> Iterator[tuple[str | None, list[list[float]]]]:
    """Each saved game's winner and its positions, the columns of `terms`."""
    for line in path.read_text().splitlines():
        game = json.loads(line)
        missing = [t for t in terms if t not in game["terms"]]
        if missing:
            raise SystemExit(f"{path}: no {', '.join(missing)} saved (terms: "
                             f"{','.join(game['terms'])})")
        cols = [game["terms"].index(t) for t in terms]
        yield game["winner"], [[row[c] for c in cols] for row in game["rows"]]


def main(argv: list[str] | None = None) -> None:
    import numpy as np
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack")
    parser.add_argument("--terms", required=True)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--bots", default="greedy,greedy")
    parser.add_argument("--current", help="the weights as they stand, one a term")
    parser.add_argument("--scale", help="TERM=WEIGHT the others are scaled to")
    parser.add_argument("--save", type=Path, help="write the games' positions (JSON lines)")
    parser.add_argument("--load", type=Path, help="fit on positions --save wrote, no play")
    parser.add_argument("--by-turn", action="store_true",
                        help="add each term times the turn's number (weights that change)")
    args = parser.parse_args(argv)
    terms = args.terms.split(",")
    specs = args.bots.split(",")
    from engine.core.loader import load_pack
    from engine.dsl.places import resolve_pack
    first = load_pack(resolve_pack(args.pack)).sides[0]
    played = list(_saved(args.load, terms) if args.load else _played(args, specs, terms))
    xs, ys, games = [], [], []
    for i, (winner, rows) in enumerate(played):
        for turn, row in enumerate(rows[1:], 2):  # (the first turn's start is the set-up)
            xs.append(row + [v * turn for v in row] if args.by_turn else row)
            ys.append(1.0 if winner == first else 0.0)
            games.append(i)
    if args.by_turn:
        terms = terms + [f"{t}*turn" for t in terms]
    x, y, g = np.array(xs), np.array(ys), np.array(games)
    if not 0 < y.mean() < 1:
        print(f"{args.pack}: every position of the {len(played)} games went one way: play more")
        return
    held = g % 4 == 0
    print(f"{args.pack}: {len(played)} games ({args.load or args.bots}), {len(y)} positions, "
          f"{first} won {y.mean():.1%} of them")
    w = fit(x[~held], y[~held], 1.0)
    whole = fit(x, y, 1.0)
    ref, unit = (args.scale.split("=") if args.scale else (terms[0], "1"))
    k = terms.index(ref)
    for name, part, all_ in zip(terms, w[:-1], whole[:-1]):
        scaled, scaled_all = float(unit) * part / w[k], float(unit) * all_ / whole[k]
        print(f"  {name:24s} {part:+.4f} a unit; scaled ({ref} = {unit}): "
              f"{scaled:+.2f} on 3/4, {scaled_all:+.2f} on all")
    base = math.log(y[~held].mean() / (1 - y[~held].mean()))
    print(f"held-out log loss: fitted {log_loss(w, x[held], y[held]):.3f}, a constant "
          f"{log_loss(np.array([base]), np.zeros((held.sum(), 0)), y[held]):.3f}", end="")
    if args.current:
        cur = np.array([float(v) for v in args.current.split(",")])
        cur = np.r_[cur, np.zeros(x.shape[1] - len(cur))]  # (no turn terms of its own)
        score = (x @ cur)[:, None]
        scale = fit(score[~held], y[~held], 0.0)
        print(f", the current weights {log_loss(scale, score[held], y[held]):.3f}", end="")
    print()


if __name__ == "__main__":
    main()
