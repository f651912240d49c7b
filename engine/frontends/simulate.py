"""Playing games out with seats (bots or people), one at a time or many in parallel.

`simulate(pack_ref, games, seed, bots)` plays `games` independent games: game i uses seed
`seed + i` and its bots are seeded from that (see `engine.frontends.bots.bot_seed`), so any single
game can be played again with `engine play PACK --seed <seed+i> --bots <same>`, and the
results are the same whatever the number of workers. Win and draw shares come with their
95% Wilson score interval (`wilson`); `Progress` draws a progress bar for long runs.
"""
from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

DEFAULT_MAX_DECISIONS = 100_000
# A worker is handed about this much play at a time (measured as games finish): long enough
# that sending the work and its results costs little, short enough that the bar moves.
CHUNK_SECONDS = 0.2
MAX_CHUNK = 50


def make_seats(pack: Any, specs: list[str], seed: int, **human_options: Any) -> dict[str, Any]:
    """side -> seat for a game with `seed`."""
    from engine.frontends.bots import bot_seed
    from engine.frontends.seats import make_seat
    seats = {}
    for i, (side, spec) in enumerate(zip(pack.sides, specs)):
        opts = human_options if spec == "human" else {}
        seats[side] = make_seat(spec, bot_seed(seed, i), **opts)
    return seats


def play_out(game: Any, seats: dict[str, Any], max_decisions: int = DEFAULT_MAX_DECISIONS,
             invariants: bool = False, on_decision: Any = None) -> bool:
    """Let the seats answer decisions until the game ends (True) or `max_decisions`
    actions have been taken (False). Raises EngineFault, and AssertionError for a failed
    invariant when `invariants` is set."""
    from engine.frontends.bots import UNDONE, RandomBot
    if not invariants and on_decision is None \
            and all(type(seat) is RandomBot for seat in seats.values()):
        # the same game, each side drawing from its bot's generator, without the checks an
        # answer from outside needs (most simulations: random bots only)
        return bool(game.playout({side: seat.rnd for side, seat in seats.items()},
                                 max_decisions))
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
    return bool(game.over)


class InvariantFailed(AssertionError):
    def __init__(self, messages: list[str]):
        super().__init__("invariant failed: " + "; ".join(messages))
        self.messages = messages


def count_turns(pack: Any, log: list[dict[str, Any]], decisions: int) -> int:
    """Turns played: the turn events in the log; for a pack whose board names its turn var
    (pack.yaml `board: {turn: {var: ...}}`), the times that var was set; else the
    occurrences of the pack's `turn_event:`; else decisions."""
    from engine.dsl.boardspec import board_spec
    turn = board_spec(pack.meta.get("board")).get("turn")
    var = turn.get("var") if isinstance(turn, dict) else None
    if var is not None and any(e.get("t") == "set" and e.get("n") == var for e in log):
        return sum(1 for e in log if e.get("t") == "set" and e.get("n") == var)
    name = pack.turn_event
    if name is None:
        return decisions
    return sum(1 for e in log if e.get("t") == "event" and e.get("n") == name)


def fault_record(err: BaseException, game: Any, seed: int) -> dict[str, Any]:
    """A replayable record of a game that went wrong."""
    from engine.core.errors import EngineFault
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


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for z = 1.96) of a proportion of `k` in `n`, as
    (lower, upper) in 0..1; it stays inside 0..1 and is sound for small `n` and for shares
    near 0 or 1, where the normal approximation is not. (0, 1) when `n` is 0."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def share(k: int, n: int) -> dict[str, float]:
    """`k` of `n` as JSON: the share and its 95% Wilson interval, 4 decimals."""
    lower, upper = wilson(k, n)
    return {"rate": round(k / n, 4) if n else 0.0, "lower": round(lower, 4),
            "upper": round(upper, 4)}


def format_share(k: int, n: int) -> str:
    """'61.3% (58.2–64.3%)': a share and its 95% Wilson interval, for people."""
    lower, upper = wilson(k, n)
    return f"{(k / n if n else 0.0):.1%} ({lower:.1%}–{upper:.1%})".replace("%–", "–", 1)


class Progress:
    """A progress bar on stderr for `simulate`: games done of the total, games/s, elapsed and
    remaining time, and the running win shares of each side (`labels`: side -> its name for
    people). Call it with each game's result; close it (or use `with`) at the end."""

    def __init__(self, total: int, labels: dict[str, str], file: Any = None):
        from tqdm import tqdm  # here, not at the top: `engine --help` stays fast

        class Bar(tqdm):  # type: ignore[type-arg]  # (generic in its stubs only)
            # no monitor thread: simulate's workers may be forked after the bar starts
            monitor_interval = 0

        self.labels = labels
        self.wins = dict.fromkeys(labels, 0)
        self.draws = self.other = self.done = 0
        file = file or sys.stderr
        try:  # a terminal that tells no size (a fresh pty: 0 x 0) would show no bar at all
            sized = os.get_terminal_size(file.fileno()).columns > 0
        except (AttributeError, OSError, ValueError):
            sized = False
        size = {"dynamic_ncols": True} if sized else {"nrows": 24}
        self.bar = Bar(total=total, unit="game", file=file, miniters=1, **size)

    def __call__(self, result: dict[str, Any]) -> None:
        self.done += 1
        if result["status"] != "over":
            self.other += 1
        elif result["winner"] is None:
            self.draws += 1
        else:
            self.wins[result["winner"]] = self.wins.get(result["winner"], 0) + 1
        parts = [f"{self.labels.get(side, side)} {k / self.done:.0%}"
                 for side, k in self.wins.items()]
        if self.draws:
            parts.append(f"draws {self.draws / self.done:.0%}")
        if self.other:
            parts.append(f"unfinished or failed {self.other}")
        self.bar.set_postfix_str(", ".join(parts), refresh=False)
        self.bar.update(1)

    def close(self) -> None:
        self.bar.close()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# ---- workers -----------------------------------------------------------------------------------
# Each worker process loads the pack once, in `_start_worker`, and keeps it here with what every
# game of the run shares; `_play_chunk` then plays any number of chunks with it.
_WORKER: dict[str, Any] = {}
# The packs the parent has loaded, by path: a forked worker finds its pack here, parsed and
# compiled already; a spawned one starts empty and loads the pack from its path.
_PARENT_PACKS: dict[str, Any] = {}


def _start_worker(pack_path: str, specs: list[str], max_decisions: int,
                  invariants: bool) -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to report, once
    pack = _PARENT_PACKS.get(pack_path)
    if pack is None:
        from engine.core.loader import load_pack
        pack = load_pack(pack_path)
    _WORKER.update(pack=pack, specs=specs, max_decisions=max_decisions, invariants=invariants)


def _play_chunk(seeds: list[int]) -> tuple[list[dict[str, Any]], float]:
    """The games with these seeds, and the seconds they took."""
    w = _WORKER
    start = time.perf_counter()
    results = [run_one(w["pack"], s, w["specs"], w["max_decisions"], w["invariants"])
               for s in seeds]
    return results, time.perf_counter() - start


def _serve(conn: Any, pack_path: str, specs: list[str], max_decisions: int,
           invariants: bool) -> None:
    """A worker process: plays each chunk of seeds it is sent and sends back what
    `_play_chunk` gives (or the exception it raised), until it is sent None."""
    _start_worker(pack_path, specs, max_decisions, invariants)
    while True:
        try:
            seeds = conn.recv()
        except EOFError:  # the parent is gone
            return
        if seeds is None:
            return
        try:
            out: Any = _play_chunk(seeds)
        except Exception as err:  # the parent raises it
            out = err
        conn.send(out)


def _mp_context() -> Any:
    """fork where it is safe (not macOS, whose system libraries break under it): a forked
    worker starts in milliseconds with the parent's modules and loaded pack, where a spawned
    one imports everything and loads the pack, about a second; elsewhere spawn."""
    import multiprocessing
    fork = "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"
    return multiprocessing.get_context("fork" if fork else "spawn")


class _Pool:
    """`workers` processes, each with its own pipe, that the parent feeds directly: no
    threads and no shared queue in the parent (a ProcessPoolExecutor's manager and feeder
    threads cost the parent about 0.8 ms of CPU per chunk, taken from the workers on a
    machine with a core per worker). Chunks start at one game and then grow to about
    CHUNK_SECONDS of play (a share of what is left, near the end); each worker has two in
    hand, so that it never waits for the parent."""

    IN_HAND = 2

    def __init__(self, seeds: list[int], workers: int):
        self.todo = list(reversed(seeds))
        self.workers = workers
        self.played = self.seconds = 0.0
        self.procs: list[Any] = []
        self.busy: dict[Any, int] = {}  # connection -> chunks it has in hand
        self.told: set[Any] = set()  # the connections sent None: no more chunks

    def start(self, args: tuple[Any, ...]) -> None:
        """Start the workers, each fed as soon as it exists (it plays while the next one
        forks)."""
        ctx = _mp_context()
        for _ in range(self.workers):
            here, there = ctx.Pipe()
            proc = ctx.Process(target=_serve, args=(there, *args), daemon=True)
            proc.start()
            there.close()  # the worker's end: closed here, so that its death reads as EOF
            self.procs.append(proc)
            self.busy[here] = 0
            self.feed(here)

    def feed(self, conn: Any) -> None:
        """Top up `conn`'s worker to IN_HAND chunks while games are left; None once none are."""
        while self.todo and self.busy[conn] < self.IN_HAND:
            # near the end, smaller chunks, so that the workers finish together
            size = (1 if not self.seconds else
                    min(int(CHUNK_SECONDS * self.played / self.seconds), MAX_CHUNK,
                        -(-len(self.todo) // (self.IN_HAND * self.workers))))
            todo = self.todo
            conn.send([todo.pop() for _ in range(min(max(1, size), len(todo)))])
            self.busy[conn] += 1
        if not self.todo and conn not in self.told:
            # told now, a worker exits as soon as its last chunk is sent back, while the
            # others still play: what ending a process costs is not added at the end
            conn.send(None)
            self.told.add(conn)

    def results(self) -> Any:
        """Each chunk's results as a worker sends them; raises what a worker raised, and
        RuntimeError for a worker that died."""
        from multiprocessing.connection import wait
        while any(self.busy.values()):
            # wait answers the objects it is given: the workers' connections
            ready = cast("list[Connection]", wait([c for c, n in self.busy.items() if n]))
            for conn in ready:
                try:
                    got = conn.recv()
                except (EOFError, OSError):  # (a reset, when it died with chunks unread)
                    raise RuntimeError("a simulate worker died") from None
                self.busy[conn] -= 1
                if isinstance(got, BaseException):
                    raise got
                self.played += len(got[0])
                self.seconds += got[1]
                self.feed(conn)
                yield got[0]

    def close(self) -> None:
        """Let the workers finish and wait for them."""
        for conn in set(self.busy) - self.told:
            try:
                conn.send(None)
            except OSError:  # pragma: no cover - a worker that is gone already
                pass
        self._end()

    def stop(self) -> None:
        """End the workers at once (a greedy game in hand may take seconds)."""
        for proc in self.procs:
            proc.terminate()
        self._end()

    def _end(self) -> None:
        """Wait for the workers to end, then let go of their pipes and processes."""
        for proc in self.procs:
            proc.join()
        for conn in self.busy:
            conn.close()
        for proc in self.procs:
            proc.close()


def _play_parallel(pack: Any, pack_path: str, seeds: list[int], specs: list[str],
                   max_decisions: int, invariants: bool, workers: int,
                   on_game: Callable[[dict[str, Any]], None] | None) -> list[dict[str, Any]]:
    """Play the games on `workers` processes (see _Pool)."""
    results: list[dict[str, Any]] = []
    pool = _Pool(seeds, workers)
    _PARENT_PACKS[pack_path] = pack
    try:
        pool.start((pack_path, specs, max_decisions, invariants))
        for chunk_results in pool.results():
            results.extend(chunk_results)
            if on_game is not None:
                for r in chunk_results:
                    on_game(r)
    except BaseException:  # Ctrl-C or a failure: stop now, not after the games in hand
        pool.stop()
        raise
    else:
        pool.close()
    finally:
        _PARENT_PACKS.pop(pack_path, None)
    results.sort(key=lambda r: r["seed"])
    return results


def simulate(pack_ref: Any, games: int, seed: int = 0, bots: str | list[str] = "random",
             workers: int = 1, *, max_decisions: int = DEFAULT_MAX_DECISIONS,
             invariants: bool = False,
             on_game: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    """Play `games` games (game i with seed `seed + i`) and summarise them.

    `pack_ref` is a loaded pack, a shipped pack's name or a pack directory. `bots` is a
    spec like "random,greedy" (one entry per side) or a list of entries; 'human' is not
    allowed. `on_game` is called with each game's result as it finishes (in the order games
    finish: with workers, not the order of seeds), e.g. a `Progress`. Raises ValueError for a
    bad spec, PackError for a broken pack, NotPlayable for a data pack."""
    from engine.core.loader import load_pack
    from engine.dsl.places import resolve_pack
    from engine.frontends.bots import BOT_KINDS
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
    for s in specs:
        if s not in BOT_KINDS:
            raise ValueError(f"simulate plays bots only ({', '.join(BOT_KINDS)}), not '{s}'")
    if games < 0:
        raise ValueError("the number of games cannot be negative")
    seeds = [seed + i for i in range(games)]
    workers = max(1, int(workers))
    start = time.perf_counter()
    if workers == 1 or games <= 1:
        results = []
        for game_seed in seeds:
            results.append(run_one(pack, game_seed, specs, max_decisions, invariants))
            if on_game is not None:
                on_game(results[-1])
    else:
        results = _play_parallel(pack, pack_path, seeds, specs, max_decisions, invariants,
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
        "bots": ",".join(specs), "workers": workers, "max_decisions": max_decisions,
        "wins": wins, "draws": draws, "unfinished": unfinished, "errors": errors,
        "win_rates": {side: share(k, games) for side, k in wins.items()},
        "draw_rate": share(draws, games),
        "mean_decisions": round(total_decisions / games, 3) if games else 0.0,
        "seconds": round(seconds, 4),
        "games_per_second": round(games / seconds, 2) if seconds > 0 else 0.0,
    }
