"""Playing games out with seats (bots or people), one at a time or many in parallel.

`simulate(pack_ref, games, seed, bots)` plays `games` independent games: game i uses seed
`seed + i` and its bots are seeded from that (see `engine.bots.bot_seed`), so any single
game can be played again with `engine play PACK --seed <seed+i> --bots <same>`.
"""
from __future__ import annotations

import time
from pathlib import Path
from typing import Any

DEFAULT_MAX_DECISIONS = 100_000
TURN_EVENTS = ("turn", "round")


def make_seats(pack: Any, specs: list[str], seed: int, **human_options: Any) -> dict[str, Any]:
    """side -> seat for a game with `seed`."""
    from engine.bots import bot_seed, make_bot
    seats = {}
    for i, (side, spec) in enumerate(zip(pack.sides, specs)):
        opts = human_options if spec == "human" else {}
        seats[side] = make_bot(spec, bot_seed(seed, i), **opts)
    return seats


def play_out(game: Any, seats: dict[str, Any], max_decisions: int = DEFAULT_MAX_DECISIONS,
             invariants: bool = False, on_decision: Any = None) -> bool:
    """Let the seats answer decisions until the game ends (True) or `max_decisions`
    actions have been taken (False). Raises EngineFault, and AssertionError for a failed
    invariant when `invariants` is set."""
    from engine.bots import UNDONE
    while not game.over and len(game.actions) < max_decisions:
        d = game.decision
        if d is None:  # pragma: no cover - a running game always waits for someone
            break
        action = seats[d.side].choose(game, d.side)
        if action is UNDONE:
            continue
        game.apply(action, side=d.side, decision=d.id)
        if invariants:
            failed = game.check_invariants()
            if failed:
                raise InvariantFailed(failed)
        if on_decision is not None:
            on_decision(game)
    return game.over


class InvariantFailed(AssertionError):
    def __init__(self, messages: list[str]):
        super().__init__("invariant failed: " + "; ".join(messages))
        self.messages = messages


def turn_event(pack: Any) -> str | None:
    """The event that counts turns: 'turn' or 'round' when the pack declares one."""
    for name in TURN_EVENTS:
        if name in pack.model.events:
            return name
    return None


def count_turns(pack: Any, log: list[dict[str, Any]], decisions: int) -> int:
    """Turns played: the turn events in the log; for a pack whose board names its turn var
    (pack.yaml `board: {turn: {var: ...}}`), the times that var was set; else decisions."""
    from dsl.boardspec import board_spec
    turn = board_spec(pack.meta.get("board")).get("turn")
    var = turn.get("var") if isinstance(turn, dict) else None
    if var is not None and any(e.get("t") == "set" and e.get("n") == var for e in log):
        return sum(1 for e in log if e.get("t") == "set" and e.get("n") == var)
    name = turn_event(pack)
    if name is None:
        return decisions
    return sum(1 for e in log if e.get("t") == "event" and e.get("n") == name)


def fault_record(err: BaseException, game: Any, seed: int) -> dict[str, Any]:
    """A replayable record of a game that went wrong."""
    from engine.errors import EngineFault
    if isinstance(err, EngineFault):
        info = err.replay_info()
        info["kind"] = "fault"
    else:
        info = {"message": f"{type(err).__name__}: {err}", "pack": game.pack.id if game else None,
                "pack_hash": game.pack.hash if game else None, "seed": seed,
                "actions": list(game.actions) if game else [],
                "kind": "invariant" if isinstance(err, InvariantFailed) else "crash"}
    if info.get("seed") is None:
        info["seed"] = seed
    if info.get("actions") is None:
        info["actions"] = list(game.actions) if game is not None else []
    return info


def run_one(pack: Any, seed: int, specs: list[str], max_decisions: int = DEFAULT_MAX_DECISIONS,
            invariants: bool = False) -> dict[str, Any]:
    """Play one all-bot game without log or undo; a small JSON-ready summary."""
    game = None
    try:
        game = pack.new_game(seed, log=False, undo=False)
        seats = make_seats(pack, specs, seed)
        finished = play_out(game, seats, max_decisions, invariants)
    except Exception as err:  # any failure is reported with what replays it
        return {"seed": seed, "status": "error", "decisions": len(game.actions) if game else 0,
                "error": fault_record(err, game, seed)}
    if not finished:
        return {"seed": seed, "status": "unfinished", "decisions": len(game.actions)}
    return {"seed": seed, "status": "over", "winner": game.result.winner,
            "decisions": len(game.actions)}


def _batch(pack_path: str, seeds: list[int], specs: list[str], max_decisions: int,
           invariants: bool) -> list[dict[str, Any]]:
    """Worker entry point: loads the pack by path (spawn-safe) and plays a batch."""
    from engine.loader import load_pack
    pack = load_pack(pack_path)
    return [run_one(pack, s, specs, max_decisions, invariants) for s in seeds]


def _chunks(seeds: list[int], workers: int) -> list[list[int]]:
    size = max(1, min(500, len(seeds) // (workers * 4) or 1))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def simulate(pack_ref: Any, games: int, seed: int = 0, bots: str | list[str] = "random",
             workers: int = 1, *, max_decisions: int = DEFAULT_MAX_DECISIONS,
             invariants: bool = False) -> dict[str, Any]:
    """Play `games` games (game i with seed `seed + i`) and summarise them.

    `pack_ref` is a loaded pack, a shipped pack's name or a pack directory. `bots` is a
    spec like "random,greedy" (one entry per side) or a list of entries; 'human' is not
    allowed. Raises ValueError for a bad spec, PackError for a broken pack, NotPlayable for
    a data pack."""
    from engine.bots import BOT_KINDS, parse_seats
    from engine.loader import load_pack, resolve_pack

    if isinstance(pack_ref, (str, Path)):
        pack_path = str(resolve_pack(pack_ref).resolve())
        pack = load_pack(pack_path)
    else:
        pack = pack_ref
        pack_path = str(Path(pack.root).resolve())
    from engine.game import require_playable
    require_playable(pack)
    specs = parse_seats(bots, pack.sides)
    for s in specs:
        if s not in BOT_KINDS:
            raise ValueError(f"simulate plays bots only ({', '.join(BOT_KINDS)}), not '{s}'")
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    seeds = [seed + i for i in range(games)]
    workers = max(1, int(workers))
    start = time.perf_counter()
    if workers == 1 or games <= 1:
        results = [run_one(pack, s, specs, max_decisions, invariants) for s in seeds]
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        ctx = multiprocessing.get_context("spawn")
        results = []
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as ex:
            futures = [ex.submit(_batch, pack_path, chunk, specs, max_decisions, invariants)
                       for chunk in _chunks(seeds, workers)]
            for f in futures:
                results.extend(f.result())
    seconds = time.perf_counter() - start
    wins = {side: 0 for side in pack.sides}
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
        "bots": ",".join(specs), "workers": workers, "max_decisions": max_decisions,
        "wins": wins, "draws": draws, "unfinished": unfinished, "errors": errors,
        "mean_decisions": round(total_decisions / games, 3) if games else 0.0,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else 0.0,
    }
