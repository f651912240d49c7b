"""Playing a run's games on a Ray cluster (`--backend ray [--address ADDRESS]`, the `ray`
extra): one actor per worker, each loading the pack once and playing batches of seeds sent
as Ray tasks; the results are the local pool's (a game is its seed), sorted by seed.

The pack travels with the work as its files (and those of the packs it imports from beside
it), written once into a temporary directory on each worker's machine: a cluster needs no
shared file system, and every worker plays the very pack the run was started with, not the
version its own machine has installed.
"""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

# A batch of seeds per task: enough play to outweigh a task's cost (about a millisecond),
# few enough that the work spreads over the actors and the progress bar moves.
BATCH = 8


def pack_files(pack: Any, pack_path: str) -> dict[str, bytes]:
    """The files of the pack and of the packs it imports from beside it (path relative to
    their common parent -> bytes), generated caches left out."""
    root = Path(pack_path)
    dirs = [root] + [root.parent / name for name in pack.model.imports
                     if (root.parent / name / "pack.yaml").is_file()]
    return {str(p.relative_to(root.parent)): p.read_bytes()
            for d in dirs for p in sorted(d.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


class PackPlayer:
    """What a Ray actor holds: the pack, loaded once from its files, and what every game of
    the run shares."""

    def __init__(self, name: str, files: dict[str, bytes], specs: list[str],
                 max_decisions: int, invariants: bool, play: Any = None) -> None:
        import tempfile

        from engine.core.loader import load_pack
        top = Path(tempfile.mkdtemp(prefix="engine-pack-"))
        for rel, data in files.items():
            (top / rel).parent.mkdir(parents=True, exist_ok=True)
            (top / rel).write_bytes(data)
        self.pack = load_pack(top / name)
        self.specs = specs
        self.max_decisions = max_decisions
        self.invariants = invariants
        if play is None:
            from engine.frontends.simulate.playing import run_one
            play = run_one
        self.play_one = play  # what one game yields: simulate's result, or a balance record

    def play(self, seeds: list[int]) -> list[dict[str, Any]]:
        return [self.play_one(self.pack, seed, self.specs, self.max_decisions, self.invariants)
                for seed in seeds]


def play_ray(pack: Any, pack_path: str, seeds: list[int], specs: list[str],
             max_decisions: int, invariants: bool, workers: int,
             on_game: Callable[[dict[str, Any]], None] | None,
             address: str | None = None, play: Any = None) -> list[dict[str, Any]]:
    """Play the games on `workers` Ray actors: on a local Ray instance started for the run
    (and stopped after it), or on the cluster at `address` ("auto": the one this machine
    belongs to); each game by `play` (a module's function, as the local pool takes it;
    default: simulate's `run_one`)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--backend ray needs Ray: pip install 'engine-dsl[ray]'") from None
    started = not ray.is_initialized()
    if started:
        if address is None:  # a local instance with a CPU for each worker
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    try:
        files = ray.put(pack_files(pack, pack_path))  # once in the object store, for all
        actor: Any = ray.remote(num_cpus=1)(PackPlayer)  # (Ray's types do not follow .remote)
        players = [actor.remote(Path(pack_path).name, files, specs, max_decisions, invariants,
                                play) for _ in range(workers)]
        batches = [seeds[i:i + BATCH] for i in range(0, len(seeds), BATCH)]
        pending: dict[Any, Any] = {}  # a task -> the actor playing it
        idle = list(players)
        results: list[dict[str, Any]] = []
        while batches or pending:
            while batches and idle:  # each actor one batch at a time: none waits on another
                player = idle.pop()
                pending[player.play.remote(batches.pop(0))] = player
            done, _ = ray.wait(list(pending), num_returns=1)
            for task in done:
                idle.append(pending.pop(task))
                for r in ray.get(task):
                    results.append(r)
                    if on_game is not None:
                        on_game(r)
        for player in players:
            ray.kill(player)
    finally:
        if started:
            ray.shutdown()
    results.sort(key=lambda r: r["seed"])
    return results

