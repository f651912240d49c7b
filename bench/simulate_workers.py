"""`simulate` on 1 and on W workers, side by side: prints figures, asserts nothing.

Run: python bench/simulate_workers.py [PACK] [--games N] [--bots SPEC] [--workers W] [--repeat R]

Loads the pack once, then plays the same N games (seeds 0..N-1) R times on 1 worker and R
times on W workers, interleaved so that other load on the machine falls on both alike, and
prints games/s (best and median of the R runs, from the start of the pool to the last
result) and the ratio W workers / 1 worker. It also checks that both give the same results.
The machine's load average is printed before and after: on a busy machine the wall-clock
figures vary, so it also prints the CPU seconds each run used (this process and its workers):
what W workers cost beyond 1 is the price of the pool (starting it, sending work and results).
On Linux it also prints how many cores the machine's other processes kept busy during the
runs (from /proc/stat): with one core of other work on a 2-core machine, 2 workers share
2 cores with it and cannot reach much beyond 4/3 of 1 worker, whatever simulate does. And
where processes fork, it times the same games on 1 and W bare forked processes (an equal
share each, no pool) in the same rounds: the speed-up the machine itself gives W processes,
which simulate's cannot exceed (on a virtual machine whose cores slow each other down, less
than W).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SAME = ("wins", "draws", "unfinished", "errors", "mean_decisions")


def cpu_seconds() -> float:
    """CPU time of this process and of its finished workers."""
    import resource
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def busy_seconds() -> float | None:
    """CPU seconds the whole machine has spent busy (Linux: /proc/stat), else None."""
    try:
        with open("/proc/stat", encoding="ascii") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")  # not idle, iowait


def others_cores(fn: Any) -> tuple[Any, float, float | None]:
    """fn()'s value, the CPU seconds it used (this process and its finished workers) and the
    cores the machine's other processes kept busy meanwhile on average (None: not known)."""
    import time
    machine, mine, start = busy_seconds(), cpu_seconds(), time.perf_counter()
    value = fn()
    used, wall = cpu_seconds() - mine, time.perf_counter() - start
    others = None if machine is None else max(0.0, busy_seconds() - machine - used) / wall
    return value, used, others


def bare_processes(pack: Any, games: int, bots: str, n: int) -> float | None:
    """Games/s (wall clock) of `n` forked processes that play the same games, an equal share
    each, with nothing of simulate's pool (no chunks, no results sent back): what this
    machine gives n processes at all, the ceiling of simulate on n workers. None without
    os.fork."""
    import time

    from engine.frontends.seats import parse_seats
    from engine.frontends.simulate import DEFAULT_MAX_DECISIONS, run_one
    if not hasattr(os, "fork"):
        return None
    specs = parse_seats(bots, pack.sides)
    start = time.perf_counter()
    pids = []
    for k in range(n):
        pid = os.fork()
        if pid == 0:  # a child: its share, then out at once (no cleanup of the parent's)
            code = 0
            try:
                for seed in range(k, games, n):
                    run_one(pack, seed, specs, DEFAULT_MAX_DECISIONS, False)
            except BaseException:
                code = 1
            os._exit(code)
        pids.append(pid)
    failed = [pid for pid in pids if os.waitpid(pid, 0)[1] != 0]
    if failed:
        raise RuntimeError(f"{len(failed)} of the bare processes failed")
    return games / (time.perf_counter() - start)


def side_by_side(pack: Any, games: int = 400, bots: str = "random,random", workers: int = 2,
                 repeat: int = 5) -> dict[str, Any]:
    """`simulate` of `games` games on 1 and on `workers` workers, `repeat` times each,
    interleaved: per worker count the wall-clock games/s of each run and the CPU seconds it
    used (this process and its workers) and the cores other processes kept busy meanwhile
    (see `others_cores`), and the games/s of as many bare processes (`bare_processes`, in
    the same rounds; None without fork); whether both gave the same results; the load
    average before and after."""
    from engine.frontends.simulate import simulate
    out: dict[str, Any] = {"rates": {1: [], workers: []}, "cpu": {1: [], workers: []},
                           "others": {1: [], workers: []}, "bare": {1: [], workers: []},
                           "load": [os.getloadavg()]}
    firsts: dict[int, dict] = {}
    for _ in range(repeat):
        for w in out["rates"]:
            result, used, others = others_cores(lambda w=w: simulate(pack, games, 0, bots, w))
            out["cpu"][w].append(used)
            out["others"][w].append(others)
            out["rates"][w].append(result["games_per_second"])
            firsts.setdefault(w, result)
            out["bare"][w].append(bare_processes(pack, games, bots, w))
    out["same"] = all(firsts[1][k] == firsts[workers][k] for k in SAME)
    out["load"].append(os.getloadavg())
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pack", nargs="?", default="ante_portas")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--bots", default="random,random")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    from engine.core.loader import load_pack
    pack = load_pack(args.pack)
    print(f"{pack.id}: {args.games} games, bots {args.bots}, {os.cpu_count()} CPUs, "
          f"load average {load(os.getloadavg())}")
    out = side_by_side(pack, args.games, args.bots, args.workers, args.repeat)
    rates, cpu = out["rates"], out["cpu"]
    for w, r in rates.items():
        print(f"  {w} worker{'s' * (w != 1)}: best {max(r):.0f} games/s, "
              f"median {statistics.median(r):.0f} ({', '.join(f'{x:.0f}' for x in r)}); "
              f"CPU {statistics.median(cpu[w]):.3f} s (median)")
    one, many = rates[1], rates[args.workers]
    print(f"  ratio {args.workers} / 1: best {max(many) / max(one):.2f}x, median "
          f"{statistics.median(many) / statistics.median(one):.2f}x; same results: "
          f"{'yes' if out['same'] else 'NO'}; load average {load(out['load'][-1])}")
    print(f"  other processes kept busy (cores, median): {others(out['others'])}")
    medians = bare_medians(out["bare"])
    if medians is not None:
        print(f"  {args.workers} / 1 bare processes playing the same games, no pool (median): "
              f"{medians[1] / medians[0]:.2f}x, what this machine gives {args.workers} "
              "processes at all")
    return 0


def bare_medians(bare: dict[int, list[float | None]]) -> tuple[float, float] | None:
    """The median games/s of 1 bare process and of the workers' number of them (None: not
    measured, the machine does not fork)."""
    one, many = bare[1], bare[max(bare)]
    if None in one or None in many:
        return None
    return statistics.median(one), statistics.median(many)


def others(by_workers: dict[int, list[float | None]]) -> str:
    """'0.02 (1 worker), 1.01 (2 workers)': the cores other processes kept busy during the
    runs of each worker count (median), '?' where /proc/stat is not there."""
    parts = []
    for w, xs in by_workers.items():
        known = [x for x in xs if x is not None]
        figure = f"{statistics.median(known):.2f}" if known else "?"
        parts.append(f"{figure} ({w} worker{'s' * (w != 1)})")
    return ", ".join(parts)


def load(average: tuple[float, ...]) -> str:
    return " ".join(f"{x:.2f}" for x in average)


if __name__ == "__main__":
    sys.exit(main())
