"""The greedy bot against its version of commit a51783c: strength and speed, and the cost of
a clone and of a save and load. Prints figures, asserts nothing.

Run: python bench/greedy.py [--games 400] [--seed 1] [--workers 1] [--self-games 10]
                            [--pack ante_portas] [--new KEY=VALUE ...] [--old KEY=VALUE ...]

1. Copies of a mid-game Hannibal state (and of the pack played), with the log on (as
   `pack.new_game` makes games) and off: `Game.clone()`, the old clone (the whole state
   pickled), and a save and load (`Game.save`, `Game.load` with verify="digest", the load
   a host that trusts its storage does; verify="replay" replays every action).
2. Speed on one core (process time): the new bot against itself and the old one against
   itself, `--self-games` games each, with `engine simulate`'s defaults (log and undo off)
   and with the log on (as `engine play` runs bots: undo is on only for a person), the four
   alternating game by game (`self_play_speed`, which `bench/run.py --compare` uses too).
3. Strength: `--games` games new against old (game i with seed S+i, bots seeded as
   `engine simulate` seeds them; the new bot takes the first side in even games and the
   second in odd ones), the new bot's share of wins with its 95% Wilson score interval (a
   draw counts half; same strength: the interval holds 50% or lies above it), and each
   bot's decisions per second (time spent choosing).

`--new` / `--old` pass options to either bot (e.g. --new depth=2) for experiments.
"""
from __future__ import annotations

import argparse
import os
import pickle
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from run import cpu_ms  # noqa: E402  (bench/run.py)

from engine.frontends.simulate import wilson  # noqa: E402  (the interval `engine simulate` reports)


# ---- the reference: engine/bots.py GreedyBot as of commit a51783c --------------------------
# Frozen for the head-to-head; do not improve it. Only its clone is spelled out here
# (Game.clone of a51783c: the whole state, log included, pickled), since Game.clone has
# changed since; it plays exactly as the bot of a51783c did.
def _clone_a51783c(game: Any) -> Any:
    from engine.core.game import Game
    state = pickle.loads(pickle.dumps(game.rt.s, pickle.HIGHEST_PROTOCOL))
    return Game(game.pack, state, game.seed, list(game.actions), log=game.rt.logging,
                undo=False, limits=game.limits)


def _position_a51783c(game: Any, side: str) -> str:
    view = game.view(side)
    d = view["decision"]
    return repr((view["zones"], view["vars"], view.get("fields"),
                 d and (d.get("side"), d.get("prompt"), d.get("args"), d.get("options"))))


class ReferenceGreedyBot:
    """engine.frontends.bots.GreedyBot of commit a51783c (the old bot, for the head-to-head)."""

    name = "greedy-a51783c"
    sees_hidden = False
    interactive = False

    def __init__(self, seed: int = 0, *, rollouts: int = 4, max_actions: int = 30,
                 max_decisions: int = 2000, depth: int = 3, branch: int = 6,
                 worlds: int = 1, budget: int = 600):
        self.seed = seed
        self.rnd = random.Random(seed)
        self._seen: tuple[int, set[str]] = (0, set())
        self.budget = budget
        self._left = budget
        self.worlds = max(1, worlds)
        self.depth = depth
        self.branch = branch
        self.rollouts = rollouts
        self.max_actions = max_actions
        self.max_decisions = max_decisions

    def candidates(self, game: Any, limit: int | None = None) -> list[Any]:
        d = game.decision
        cap = limit or self.max_actions
        if d.kind in ("one", "ask"):
            legal = game.legal_actions()
            if len(legal) > cap:
                legal = self.rnd.sample(legal, cap)
            return legal
        out: list[Any] = []
        seen: set[str] = set()
        for _ in range(cap * 3):
            a = game.random_action(self.rnd)
            key = repr(a)
            if key not in seen:
                seen.add(key)
                out.append(a)
                if len(out) >= cap:
                    break
        return out

    def choose(self, game: Any, side: str) -> Any:
        d = game.decision
        if d is None or d.side != side:
            raise ValueError(f"{side} has no decision to make")
        cands = self.candidates(game)
        if len(cands) == 1:
            return cands[0]
        worlds = [game.determinized(side, self.rnd) for _ in range(self.worlds)]
        best: list[Any] = []
        best_score: Any = (False, float("-inf"))
        if self._seen[0] != id(game):
            self._seen = (id(game), set())
        seen = self._seen[1]
        seen.add(_position_a51783c(game, side))
        share = max(1, self.budget // (len(cands) * len(worlds)))
        for action in cands:
            score = 0.0
            for w in worlds:
                self._left = share
                score += self.evaluate(w, side, action)
            score = (not self._returns(worlds[0], side, action, seen), score / len(worlds))
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return self.rnd.choice(best)

    @staticmethod
    def _returns(world: Any, side: str, action: Any, seen: set[str]) -> bool:
        from engine.core.errors import EngineError
        try:
            after = _clone_a51783c(world)
            after.apply(action)
        except EngineError:
            return False
        return not after.over and _position_a51783c(after, side) in seen

    def evaluate(self, game: Any, side: str, action: Any, depth: int | None = None) -> float:
        from engine.core.errors import EngineError
        heuristic = game.pack.ns["VALUES"].get("heuristic")
        depth = self.depth if depth is None else depth
        self._left -= 1
        try:
            after = _clone_a51783c(game)
            after.rt.logging = False
            after.apply(action)
        except EngineError:
            return float("-inf") if heuristic else 0.0
        if heuristic is not None:
            if after.over:
                w = after.result.winner
                return 0.0 if w is None else float("inf") if w == side else float("-inf")
            if depth > 0 and self._left > 0 and after.decision.side == side:
                return max(self.evaluate(after, side, a, depth - 1)
                           for a in self.candidates(after, self.branch))
            return float(heuristic(after.rt, side))
        if after.over:
            return self._score(after, side)
        total = 0.0
        for i in range(self.rollouts):
            g = after if i == self.rollouts - 1 else _clone_a51783c(after)
            total += self._rollout(g, side)
        return total / self.rollouts

    def _rollout(self, g: Any, side: str) -> float:
        from engine.core.errors import EngineError
        n = 0
        try:
            while not g.over and n < self.max_decisions:
                g.apply(g.random_action(self.rnd))
                n += 1
        except EngineError:
            return 0.0
        return self._score(g, side) if g.over else 0.5

    @staticmethod
    def _score(g: Any, side: str) -> float:
        w = g.result.winner
        return 0.5 if w is None else 1.0 if w == side else 0.0


# ---- figures ---------------------------------------------------------------------------------
def mid_game(pack: Any, seed: int = 1, log: bool = True) -> Any:
    """A game with undo on (and the log, unless `log` is False), played by random moves to
    half the length of the same game played out."""
    rnd = random.Random(seed)
    whole = pack.new_game(seed, log=False, undo=False)
    while not whole.over:
        whole.apply(whole.random_action(rnd))
    game = pack.new_game(seed, log=log)
    rnd = random.Random(seed)
    for _ in range(len(whole.actions) // 2):
        game.apply(game.random_action(rnd))
    return game


def snapshot_figures(names: list[str]) -> None:
    from engine.core.game import Game
    from engine.core.loader import load_pack
    for name in names:
        pack = load_pack(name)
        for log in (True, False):
            game = mid_game(pack, log=log)
            text = game.save()
            load = lambda pack=pack, text=text, log=log: Game.load(  # noqa: E731
                pack, text, log=log, verify="digest")
            old = lambda game=game: _clone_a51783c(game)  # noqa: E731
            print(f"{pack.id} mid-game ({len(game.actions)} actions, log "
                  + (f"on: {len(game.log)} entries" if log else "off")
                  + f", save {len(text) / 1000:.0f} kB): clone "
                  f"{cpu_ms(game.clone, 200, 5):.3f} ms"
                  f" (old pickled clone {cpu_ms(old, 200, 5):.3f} ms); save "
                  f"{cpu_ms(game.save, 20, 5):.2f} ms + load {cpu_ms(load, 20, 5):.2f} ms",
                  flush=True)


class Timed:
    """A seat that counts the process time its bot spends choosing."""

    def __init__(self, bot: Any):
        self.bot = bot
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, game: Any, side: str) -> Any:
        start = time.process_time()
        try:
            return self.bot.choose(game, side)
        finally:
            self.seconds += time.process_time() - start
            self.decisions += 1


def make(kind: str, seed: int, options: dict[str, Any]) -> Any:
    from engine.frontends.bots import GreedyBot
    return (GreedyBot if kind == "new" else ReferenceGreedyBot)(seed, **options)


def play_games(pack_ref: str, indices: list[int], seed: int, kinds: tuple[str, str] | None,
               new_opts: dict, old_opts: dict, log: bool) -> dict[str, Any]:
    """Play games `indices` (kinds None: the head-to-head; else the kinds of the two seats);
    wins and time per kind."""
    from engine.core.loader import load_pack
    from engine.frontends.bots import bot_seed
    from engine.frontends.simulate import play_out
    pack = load_pack(pack_ref)
    out: dict[str, Any] = {"new_wins": 0.0, "games": 0, "decisions": 0, "seconds": 0.0,
                           "time": {"new": 0.0, "old": 0.0}, "choices": {"new": 0, "old": 0},
                           "unfinished": 0}
    for i in indices:
        start = time.process_time()
        game = pack.new_game(seed + i, log=log, undo=False)
        seat_kinds = kinds or (("new", "old") if i % 2 == 0 else ("old", "new"))
        seats = {side: Timed(make(k, bot_seed(seed + i, n), new_opts if k == "new" else old_opts))
                 for n, (side, k) in enumerate(zip(pack.sides, seat_kinds))}
        over = play_out(game, seats)
        out["seconds"] += time.process_time() - start
        out["games"] += 1
        out["decisions"] += len(game.actions)
        for side, k in zip(pack.sides, seat_kinds):
            out["time"][k] += seats[side].seconds
            out["choices"][k] += seats[side].decisions
        if not over:
            out["unfinished"] += 1
            out["new_wins"] += 0.5
            continue
        w = game.result.winner
        if w is None:
            out["new_wins"] += 0.5
        elif seat_kinds[pack.sides.index(w)] == "new":
            out["new_wins"] += 1
    return out


def run(pack_ref: str, indices: list[int], seed: int, kinds: Any, new_opts: dict,
        old_opts: dict, log: bool, workers: int) -> dict[str, Any]:
    if workers <= 1:
        return play_games(pack_ref, indices, seed, kinds, new_opts, old_opts, log)
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    chunks = [indices[w::workers] for w in range(workers)]
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as ex:
        parts = list(ex.map(play_games, [pack_ref] * workers, chunks, [seed] * workers,
                            [kinds] * workers, [new_opts] * workers, [old_opts] * workers,
                            [log] * workers))
    total = parts[0]
    for p in parts[1:]:
        for k in ("new_wins", "games", "decisions", "seconds", "unfinished"):
            total[k] += p[k]
        for k in ("new", "old"):
            total["time"][k] += p["time"][k]
            total["choices"][k] += p["choices"][k]
    total["seconds"] /= workers  # process time per core
    return total


def self_play_speed(pack_ref: str, seed: int = 1, games: int | None = None,
                    seconds: float | None = None, new_opts: dict | None = None,
                    old_opts: dict | None = None) -> dict[tuple[str, bool], dict[str, float]]:
    """Each bot against itself with the log off (as `engine simulate` plays) and on (as
    `engine play` runs bots; undo is on only for a person), on one core: game i (seed S+i) is
    played new-log-off, old-log-off, new-log-on, old-log-on in turn, so that other load on
    the machine falls on all four alike, until `games` games of each or until `seconds` of
    process time have passed (at least one game each). Per (kind, log): the decisions its
    bot chose, the process seconds it spent choosing, games, decisions played and the games'
    process seconds."""
    keys = [(kind, log) for log in (False, True) for kind in ("new", "old")]
    out = {k: {"choices": 0, "choosing": 0.0, "games": 0, "decisions": 0, "seconds": 0.0}
           for k in keys}
    start = time.process_time()
    i = 0
    while not (games is not None and i >= games
               or seconds is not None and time.process_time() - start >= seconds):
        for kind, log in keys:
            r = play_games(pack_ref, [i], seed, (kind, kind), new_opts or {}, old_opts or {}, log)
            acc = out[kind, log]
            acc["choices"] += r["choices"][kind]
            acc["choosing"] += r["time"][kind]
            acc["games"] += 1
            acc["decisions"] += r["decisions"]
            acc["seconds"] += r["seconds"]
        i += 1
        if games is None and seconds is None:
            break
    return out


def _options(pairs: list[str]) -> dict[str, Any]:
    out = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        out[key] = int(value)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pack", default="ante_portas")
    ap.add_argument("--games", type=int, default=400, help="head-to-head games (0: none)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--self-games", type=int, default=10, help="games of each self-play")
    ap.add_argument("--snapshot-packs", nargs="*", default=["hannibal", "ante_portas"])
    ap.add_argument("--new", nargs="*", default=[], metavar="KEY=VALUE")
    ap.add_argument("--old", nargs="*", default=[], metavar="KEY=VALUE")
    args = ap.parse_args(argv)
    new_opts, old_opts = _options(args.new), _options(args.old)
    print(f"python {sys.version.split()[0]}; load average {os.getloadavg()[0]:.2f} "
          f"on {os.cpu_count()} cores; times are process time", flush=True)
    snapshot_figures(args.snapshot_packs)
    if args.self_games:
        speed = self_play_speed(args.pack, args.seed, args.self_games, None, new_opts, old_opts)
        for (kind, log), r in speed.items():
            print(f"{kind} vs {kind}, {r['games']} games, log {'on' if log else 'off'}: "
                  f"{r['games'] / r['seconds']:.2f} games/s, "
                  f"{r['choices'] / r['choosing']:.0f} decisions/s choosing "
                  f"({r['decisions'] / r['games']:.0f} decisions a game)", flush=True)
    if args.games:
        r = run(args.pack, list(range(args.games)), args.seed, None, new_opts, old_opts,
                False, args.workers)
        lo, hi = wilson(r["new_wins"], r["games"])
        print(f"new vs old, {r['games']} games from seed {args.seed} (sides swapped every "
              f"game): the new bot wins {r['new_wins']:g} = {r['new_wins'] / r['games']:.1%} "
              f"[95% {lo:.1%}-{hi:.1%}]; unfinished {r['unfinished']}; decisions/s choosing: "
              f"new {r['choices']['new'] / r['time']['new']:.0f}, "
              f"old {r['choices']['old'] / r['time']['old']:.0f}; "
              f"{r['games'] / r['seconds']:.2f} games/s", flush=True)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
