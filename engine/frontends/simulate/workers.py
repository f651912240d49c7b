"""Playing a run's games on worker processes: each with its own pipe, fed chunks of seeds by
the parent; forked where that is safe (the parent's loaded pack comes along), else spawned."""
from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from engine.frontends.simulate.playing import run_one

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

# A worker is handed about this much play at a time (measured as games finish): long enough
# that sending the work and its results costs little, short enough that the bar moves.
CHUNK_SECONDS = 0.2
MAX_CHUNK = 50

# One game played on a worker: (pack, seed, specs, max_decisions, invariants) -> a JSON-ready
# dict with at least "seed" and "status" (and "winner" when over), as `run_one` gives
PlayOne = Callable[[Any, int, list[str], int, bool], dict[str, Any]]

# Each worker process loads the pack once, in `_start_worker`, and keeps it here with what every
# game of the run shares; `_play_chunk` then plays any number of chunks with it.
_WORKER: dict[str, Any] = {}
# The packs the parent has loaded, by path: a forked worker finds its pack here, parsed and
# compiled already; a spawned one starts empty and loads the pack from its path.
_PARENT_PACKS: dict[str, Any] = {}


def _start_worker(pack_path: str, specs: list[str], max_decisions: int,
                  invariants: bool, play: PlayOne = run_one) -> None:
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to report, once
    pack = _PARENT_PACKS.get(pack_path)
    if pack is None:
        from engine.core.loader import load_pack
        pack = load_pack(pack_path)
    _WORKER.update(pack=pack, specs=specs, max_decisions=max_decisions, invariants=invariants,
                   play=play)


def _play_chunk(seeds: list[int]) -> tuple[list[dict[str, Any]], float]:
    """The games with these seeds, and the seconds they took."""
    run = _WORKER
    start = time.perf_counter()
    play = run["play"]
    results = [play(run["pack"], seed, run["specs"], run["max_decisions"], run["invariants"])
               for seed in seeds]
    return results, time.perf_counter() - start


def _serve(conn: Any, pack_path: str, specs: list[str], max_decisions: int,
           invariants: bool, play: PlayOne = run_one) -> None:
    """A worker process: plays each chunk of seeds it is sent and sends back what
    `_play_chunk` gives (or the exception it raised), until it is sent None."""
    _start_worker(pack_path, specs, max_decisions, invariants, play)
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


def start_context() -> Any:
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
        ctx = start_context()
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


def play_parallel(pack: Any, pack_path: str, seeds: list[int], specs: list[str],
                   max_decisions: int, invariants: bool, workers: int,
                   on_game: Callable[[dict[str, Any]], None] | None,
                   play: PlayOne = run_one) -> list[dict[str, Any]]:
    """Play the games on `workers` processes (see _Pool), each game by `play` (a function
    of the module level, so that a spawned worker finds it by name: `run_one`'s summary, or
    what another front-end keeps of a game)."""
    results: list[dict[str, Any]] = []
    pool = _Pool(seeds, workers)
    _PARENT_PACKS[pack_path] = pack
    try:
        pool.start((pack_path, specs, max_decisions, invariants, play))
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
