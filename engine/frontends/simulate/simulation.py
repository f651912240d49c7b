"""`simulate`: many independent bot games of a pack, one at a time or on worker processes,
and their summary (wins, draws, unfinished and failed games, speed)."""
from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.frontends.simulate.playing import DEFAULT_MAX_DECISIONS, run_one
from engine.frontends.simulate.shares import share
from engine.frontends.simulate.workers import play_parallel

BACKENDS = ("local", "ray")  # where the games are played: this machine's processes, or Ray


def backend_problem(backend: str, address: str | None) -> str | None:
    """What is wrong with where games are to be played (`simulate` and `balance`), or None."""
    if backend not in BACKENDS:
        return f"no backend {backend!r} (backends: {', '.join(BACKENDS)})"
    if address is not None and backend != "ray":
        return "--address names a Ray cluster: give it with --backend ray"
    return None


def simulate(pack_ref: Any, games: int, seed: int = 0, bots: str | list[str] = "random",
             workers: int = 1, *, max_decisions: int = DEFAULT_MAX_DECISIONS,
             invariants: bool = False,
             on_game: Callable[[dict[str, Any]], None] | None = None,
             backend: str = "local", address: str | None = None) -> dict[str, Any]:
    """Play `games` games (game i with seed `seed + i`) and summarise them.

    `pack_ref` is a loaded pack, a shipped pack's name or a pack directory. `bots` is a
    spec like "random,greedy" (one entry per side) or a list of entries; 'human' is not
    allowed. `on_game` is called with each game's result as it finishes (in the order games
    finish: with workers, not the order of seeds), e.g. a `Progress`. `backend` "local" plays
    on this machine's processes, "ray" on `workers` Ray actors (a local Ray instance, or the
    cluster at `address`): the same results for the same seeds. Raises ValueError for a bad
    spec or backend, PackError for a broken pack, NotPlayable for a data pack."""
    from engine.core.loader import load_pack
    from engine.dsl.places import resolve_pack
    from engine.frontends.bots import BOT_KINDS, is_bot_spec
    from engine.frontends.seats import parse_seats

    if isinstance(pack_ref, (str, Path)):
        pack_path = str(resolve_pack(pack_ref).resolve())
        pack = load_pack(pack_path)
    else:
        pack = pack_ref
        pack_path = str(Path(pack.root).resolve())
    from engine.core.game import require_playable
    require_playable(pack)
    specs = parse_seats(bots, pack.sides)
    for kind in specs:
        if not is_bot_spec(kind):
            raise ValueError(f"simulate plays bots only ({', '.join(BOT_KINDS)}), not '{kind}'")
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    problem = backend_problem(backend, address)
    if problem is not None:
        raise ValueError(problem)
    seeds = [seed + i for i in range(games)]
    workers = max(1, int(workers))
    start = time.perf_counter()
    if backend == "ray":
        from engine.frontends.simulate.ray_backend import play_ray
        results = play_ray(pack, pack_path, seeds, specs, max_decisions, invariants, workers,
                           on_game, address)
    elif workers == 1 or games <= 1:
        results = []
        for game_seed in seeds:
            results.append(run_one(pack, game_seed, specs, max_decisions, invariants))
            if on_game is not None:
                on_game(results[-1])
    else:
        results = play_parallel(pack, pack_path, seeds, specs, max_decisions, invariants,
                                 workers, on_game)
    seconds = time.perf_counter() - start
    wins = dict.fromkeys(pack.sides, 0)
    draws = unfinished = 0
    errors = []
    for r in results:
        if r["status"] == "over":
            if r["winner"] is None:
                draws += 1
            else:
                wins[r["winner"]] = wins.get(r["winner"], 0) + 1
        elif r["status"] == "unfinished":
            unfinished += 1
        else:
            errors.append(r["error"])
    total_decisions = sum(r["decisions"] for r in results)
    return {
        "pack": pack.id, "pack_hash": pack.hash, "games": games, "seed": seed,
        "bots": ",".join(specs), "workers": workers, "backend": backend,
        "max_decisions": max_decisions,
        "wins": wins, "draws": draws, "unfinished": unfinished, "errors": errors,
        "win_rates": {side: share(k, games) for side, k in wins.items()},
        "draw_rate": share(draws, games),
        "mean_decisions": round(total_decisions / games, 3) if games else 0.0,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else 0.0,
        "compiled": compiled_parts(pack),
    }


def compiled_parts(pack: Any) -> list[str]:
    """What of the engine ran compiled to C (README, "Faster: compiled to C"): "rules"
    (`engine compile PACK`), "runtime" (`ENGINE_COMPILE=1 pip install`); none by default."""
    from engine.core.loader import runtime_compiled
    return [part for part, on in (("rules", pack.rules_compiled),
                                  ("runtime", runtime_compiled())) if on]
