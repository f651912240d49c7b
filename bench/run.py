"""Benchmarks: prints figures, asserts nothing.
Run: python bench/run.py [--seconds S] [PACK ...]

For each playable pack (the shipped ones and the test packs, or those named; data packs,
`playable: false`, are skipped): full random games per second on one core (log and undo off,
played by `Game.playout` as `engine simulate` plays random bots), decisions per second,
`engine validate` time (cold: no compile cache; warm: cached), and `engine --help` start-up.

`python bench/run.py --compare` prints instead every figure of issue 16 side by side, each
with the ratio it is judged by and its target, in about 2-3 minutes: random games per second
for Ante Portas and Hannibal, by `Game.playout`, answer by answer as a front-end plays and
by index as a bot answers in a simulation (`Game.apply_index`), with log and undo off
("bare") and with the defaults of `pack.new_game()` (log and undo on),
the same games alternating (`bare_and_defaults`); a mid-game Hannibal's save, load and
clone; the greedy bot's decisions per second against the frozen bot of commit a51783c, log
off and on (bench/greedy.py); `engine simulate` of 400 Ante Portas games on 2 workers
against 1 (bench/simulate_workers.py: wall clock, with the CPU, the load average and the
cores other processes kept busy meanwhile); the bench packs (tic-tac-toe, Kuhn poker and the
Ante Portas slice ap_battle), by `Game.playout`, answer by answer and by index, against their
hand-written Python references (bench/handwritten.py; OpenSpiel's too when installed:
bench/openspiel.py); and `engine --help` start-up. Times are process time except where said.
`--skip PART ...` leaves parts out (see --help). Other helpers share the machine: run it
when it is idle, or run it twice.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def packs(names: list[str]) -> list[Path]:
    from engine.dsl.places import content_root, find_packs, resolve_pack
    if names:
        return [resolve_pack(n) for n in names]
    return (find_packs(content_root()) + find_packs(ROOT / "tests" / "packs")
            + find_packs(ROOT / "bench" / "packs"))


def pack_ref(name: str) -> str:
    """A bench pack (bench/packs/) by its name, else `name` as given: a shipped pack's name
    or a path (what load_pack takes)."""
    bench = ROOT / "bench" / "packs" / name
    return str(bench) if bench.is_dir() else name


def play_game(pack: Any, seed: int, rnd: random.Random, defaults: bool = False,
              apply: bool = False, index: bool = False) -> Any:
    """Game `seed` of `pack` played out at random from `rnd`, log and undo off unless
    `defaults`: by `Game.playout`, as `engine simulate` plays random bots, or (`apply`) by
    `apply` of each `random_action`, as a front-end answers, or (`index`) by `apply_index`
    of each `random_index`, as a bot answers in a simulation (the same game each way). The
    bench's one way of playing a game (run.py, bytecodes.py, instructions.py)."""
    game = pack.new_game(seed=seed, log=defaults, undo=defaults)
    if index:
        while not game.over:
            i = game.random_index(rnd)
            if i is None:  # a multi-choice: drawn by random_action
                game.apply(game.random_action(rnd))
            else:
                game.apply_index(i)
        return game
    if not apply:
        game.playout(rnd)
    while not game.over:
        game.apply(game.random_action(rnd))
    return game


def games_per_second(path: Path, seconds: float, defaults: bool = False, apply: bool = False,
                     index: bool = False) -> tuple[float, float, int]:
    """(games/s, decisions/s, games) of random play (`play_game`: game i with seed i, one
    `random.Random(0)`). Per second of this process's CPU time: other processes share the
    machine."""
    from engine.core.loader import load_pack
    pack = load_pack(path)
    rnd = random.Random(0)
    games = decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        decisions += len(play_game(pack, games, rnd, defaults, apply, index).actions)
        games += 1
    elapsed = time.process_time() - start
    return games / elapsed, decisions / elapsed, games


def validate_seconds(path: Path, cold: bool) -> float:
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if cold:
            env["XDG_CACHE_HOME"] = cache
        cmd = [sys.executable, "-m", "engine", "validate", str(path)]
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=False)
        return time.perf_counter() - start


def help_seconds(runs: int = 5) -> float:
    """`engine --help`'s wall time, best of `runs`, as a user's second run has it: with the
    modules' bytecode written by an untimed first run (a machine that sets
    PYTHONDONTWRITEBYTECODE would otherwise time the compiling of engine/cli.py too)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cmd = [sys.executable, "-m", "engine", "--help"]
    best = float("inf")
    for run in range(runs + 1):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=False)
        if run == 0:
            continue
        best = min(best, time.perf_counter() - start)
    return best


def alternating(rates: dict[str, Any], seconds: float, slices: int = 6) -> dict[str, float]:
    """name -> games/s of each of `rates` (name -> a function of seconds giving games/s),
    measured in turns of seconds/slices each, `slices` rounds, and averaged: the machine's
    speed swings by a third within seconds here, and taking turns puts its swings on all
    alike, so their ratios hold where figures measured one after the other did not."""
    got = dict.fromkeys(rates, 0.0)
    for _ in range(slices):
        for name, rate in rates.items():
            got[name] += rate(seconds / slices) / slices
    return got


def mid_game(name: str, decisions: int = 150, seed: int = 1) -> Any:
    """A game of pack `name` after `decisions` random decisions (log and undo on)."""
    from engine.core.loader import load_pack
    game = load_pack(name).new_game(seed=seed)
    rnd = random.Random(seed)
    for _ in range(decisions):
        if game.over:
            break
        game.apply(game.random_action(rnd))
    return game


def cpu_ms(fn: Any, calls: int, rounds: int) -> float:
    """CPU milliseconds one call of `fn` takes: the best of `rounds` rounds of `calls`."""
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - start) / calls)
    return best * 1000


def bare_and_defaults(path: Path, seconds: float) -> tuple[float, float, int, bool]:
    """(games/s bare, games/s with the defaults, games, the same games?) of random play,
    alternating game by game: game i (seed i) played with log and undo off, then the same
    game (its own `random.Random(0)` stream for each) with the defaults of `pack.new_game()`
    (log and undo on), the process time of each accumulated, until the two took `seconds`
    each on average, after one untimed game each way. Alternating puts other load on the
    machine on both alike; the last value says whether both played the same games (winner
    and decisions of each)."""
    from engine.core.loader import load_pack
    pack = load_pack(path)
    for defaults in (False, True):  # untimed: the first game makes what later games reuse
        game = pack.new_game(seed=0, log=defaults, undo=defaults)
        warm = random.Random(1)
        while not game.over:
            game.apply(game.random_action(warm))
    rnd = {False: random.Random(0), True: random.Random(0)}
    spent = {False: 0.0, True: 0.0}
    games = 0
    same = True
    while spent[False] + spent[True] < 2 * seconds:
        ends = []
        for defaults in (False, True):
            start = time.process_time()
            game = pack.new_game(seed=games, log=defaults, undo=defaults)
            while not game.over:
                game.apply(game.random_action(rnd[defaults]))
            spent[defaults] += time.process_time() - start
            ends.append((game.result.winner, len(game.actions)))
        same = same and ends[0] == ends[1]
        games += 1
    return games / spent[False], games / spent[True], games, same


PARTS = ("games", "snapshots", "greedy", "workers", "dsl", "help")


def compare(seconds: float, skip: tuple[str, ...] = ()) -> None:
    """The figures of issue 16, each with its ratio and target (see the module's text);
    the parts named in `skip` (of PARTS) are left out."""
    from engine.core.game import Game
    sys.path.insert(0, str(ROOT / "bench"))
    import handwritten
    print(f"python {sys.version.split()[0]}, one core, load average "
          f"{', '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores "
          "(shared: run it idle); times are process time unless said")
    def row(label: str, value: str, ratio: str = "", target: str = "") -> None:
        print(f"{label:<50} {value:>13} {ratio:>14}   {target}", flush=True)

    print(f"{'figure':<50} {'measured':>13} {'ratio':>14}   target")
    for name in ("ante_portas", "hannibal") if "games" not in skip else ():
        path = resolve(name)
        got = alternating({"played": lambda s, path=path: games_per_second(path, s)[0],
                           "answered": lambda s, path=path: games_per_second(
                               path, s, apply=True)[0],
                           "indexed": lambda s, path=path: games_per_second(
                               path, s, index=True)[0]},
                          seconds)
        row(f"{name} random games/s, Game.playout", f"{got['played']:.1f}",
            f"/ apply {got['played'] / got['answered']:.2f}x",
            ("Hannibal >= 50 games/s on one core" if name == "hannibal" else
             "as engine simulate plays random bots") + " (taking turns with apply)")
        indexed_row(row, got["indexed"], got["answered"], f"{got['indexed']:.1f}")
        bare, full, games, same = bare_and_defaults(path, seconds)
        row(f"{name} random games/s, log+undo off", f"{bare:.1f}",
            target="(apply of each random_action, as a front-end answers)")
        row(f"{name} random games/s, log+undo on", f"{full:.1f}",
            f"off/on {bare / full:.2f}x",
            f"defaults within 1.5x of bare ({games} games each, alternating"
            + (")" if same else "; GAMES DIFFER)"))
    if "snapshots" not in skip:
        game = mid_game("hannibal")
        text = game.save()
        save_ms = cpu_ms(game.save, 20, 5)
        load_ms = cpu_ms(lambda: Game.load(game.pack, text, verify="digest"), 20, 5)
        replay_ms = cpu_ms(lambda: Game.load(game.pack, text), 5, 3)
        clone_ms = cpu_ms(game.clone, 200, 5)
        row("hannibal mid-game save + load (digest), ms", f"{save_ms + load_ms:.2f}",
            f"{save_ms:.2f} + {load_ms:.2f}", "save+load <= 2 ms")
        row("hannibal mid-game load (replay), ms", f"{replay_ms:.2f}", "",
            "(replays every action)")
        row("hannibal mid-game clone, ms", f"{clone_ms:.3f}", "", "clone <= 0.2 ms")
    if "greedy" not in skip:
        compare_greedy(row, seconds)
    if "workers" not in skip:
        compare_workers(row)
    if "dsl" not in skip:
        for name, goal in {"tictactoe": 0.6, "kuhn": 0.5, "ap_battle": 0.5}.items():
            path = ROOT / "bench" / "packs" / name
            got = alternating({
                "ours": lambda s, path=path: games_per_second(path, s)[0],
                "answered": lambda s, path=path: games_per_second(path, s, apply=True)[0],
                "indexed": lambda s, path=path: games_per_second(path, s, index=True)[0],
                "hand": lambda s, name=name: handwritten.games_per_second(name, s)}, seconds)
            ours, answered, hand = got["ours"], got["answered"], got["hand"]
            same = handwritten.same_results(name, 500)
            row(f"{name} games/s: DSL / hand-written", f"{ours:.0f} / {hand:.0f}",
                f"{ours / hand:.2f}x", f"DSL >= {goal}x hand-written (Game.playout; "
                "taking turns)" + ("" if same else " (RESULTS DIFFER)"))
            row("  the same, by apply of each random_action", f"{answered:.0f} / {hand:.0f}",
                f"{answered / hand:.2f}x", "(as a front-end answers)")
            indexed_row(row, got["indexed"], answered, f"{got['indexed']:.0f} / {hand:.0f}")
        compare_openspiel(row, seconds)
    if "help" not in skip:
        row("engine --help start-up, ms", f"{help_seconds() * 1000:.0f}", "",
            "(wall clock, whole process, best of 5)")


def indexed_row(row: Any, indexed: float, answered: float, value: str) -> None:
    """The row of random play by `apply_index` of each `random_index` (games/s `indexed`),
    judged against `apply` of each `random_action` (`answered`), taking turns with it."""
    row("  the same, by apply_index of each random_index", value,
        f"/ apply {indexed / answered:.2f}x", "(as a bot answers in engine simulate)")


def compare_greedy(row: Any, seconds: float) -> None:
    """The greedy bot's decisions per second of process time, against the frozen bot of
    commit a51783c, both playing Ante Portas against themselves (bench/greedy.py)."""
    import greedy
    speed = greedy.self_play_speed("ante_portas", seconds=4 * seconds)
    for log, how, filed in ((False, "log off (simulate)", 129),
                            (True, "log on (engine play)", 31)):
        new, old = (speed[kind, log] for kind in ("new", "old"))
        n, o = new["choices"] / new["choosing"], old["choices"] / old["choosing"]
        row(f"greedy decisions/s new / old, {how}", f"{n:.0f} / {o:.0f}",
            f"{n / o:.1f}x", f">= 10x the old bot (a51783c; {new['games']} "
            f"game{'s' * (new['games'] != 1)} each, "
            f"alternating); the issue's {filed}/s: {n / filed:.1f}x")


def compare_workers(row: Any, games: int = 400, repeat: int = 3) -> None:
    """`simulate` on 2 workers against 1 (bench/simulate_workers.py): wall clock, as a
    parallel figure must be, with the CPU it took and the load average around it."""
    import statistics

    import simulate_workers

    from engine.core.loader import load_pack
    out = simulate_workers.side_by_side(load_pack("ante_portas"), games, workers=2,
                                        repeat=repeat)
    one, two = (statistics.median(out["rates"][w]) for w in (1, 2))
    cpu1, cpu2 = (statistics.median(out["cpu"][w]) for w in (1, 2))
    row(f"ante_portas simulate {games} games: 2 / 1 workers", f"{two:.0f} / {one:.0f}",
        f"{two / one:.2f}x", f">= 1.8x (wall clock games/s, median of {repeat}"
        + ("" if out["same"] else "; RESULTS DIFFER") + ")")
    row("  CPU s of a run: 2 / 1 workers", f"{cpu2:.2f} / {cpu1:.2f}", f"{cpu2 / cpu1:.2f}x",
        "(this process and its workers; load average "
        + " then ".join(f"{x[0]:.1f}" for x in out["load"]) + f" on {os.cpu_count()} cores)")
    row("  cores other processes kept busy meanwhile", "", "",
        simulate_workers.others(out["others"]) + " (median; wall clock suffers beyond 0)")
    medians = simulate_workers.bare_medians(out["bare"])
    if medians is not None:
        bare1, bare2 = medians
        row("  2 / 1 bare processes, no pool (the ceiling)", f"{bare2:.0f} / {bare1:.0f}",
            f"{bare2 / bare1:.2f}x", "(the same games, forked, an equal share each: what this "
            "machine gives 2 processes)")


def compare_openspiel(row: Any, seconds: float) -> None:
    """The bench packs' games/s against OpenSpiel's Python games and its C++ ones driven
    from Python, taking turns."""
    import importlib.util
    if importlib.util.find_spec("pyspiel") is None:
        row("DSL / OpenSpiel Python games", "-", "", "open-spiel not installed "
            "(pip install open-spiel; bench/openspiel.py)")
        return
    import openspiel
    for name, os_name in openspiel.PAIRS:
        ours, theirs = openspiel.side_by_side(name, os_name, seconds)
        row(f"{name} games/s: DSL / OpenSpiel Python", f"{ours:.0f} / {theirs:.0f}",
            f"{ours / theirs:.2f}x", "DSL >= 2x OpenSpiel's Python games (taking turns)")
    targets = {"kuhn": "1.0", "tictactoe": "0.6"}  # issue 34
    for name, os_name in openspiel.CPP_PAIRS:
        ours, theirs = openspiel.side_by_side(name, os_name, seconds)
        row(f"{name} games/s: DSL / OpenSpiel C++", f"{ours:.0f} / {theirs:.0f}",
            f"{ours / theirs:.2f}x", f"DSL >= {targets[name]}x OpenSpiel's C++ game driven "
            "from Python (taking turns)")


def resolve(name: str) -> Path:
    from engine.dsl.places import resolve_pack
    return resolve_pack(name)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("packs", nargs="*")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per pack for play")
    ap.add_argument("--compare", action="store_true",
                    help="the figures of issue 16 side by side, with ratios and targets")
    ap.add_argument("--skip", nargs="+", choices=PARTS, default=[], metavar="PART",
                    help=f"with --compare, leave out these parts ({', '.join(PARTS)})")
    args = ap.parse_args()
    if args.compare:
        compare(args.seconds, tuple(args.skip))
        return
    print(f"python {sys.version.split()[0]}, one core")
    print(f"engine --help: {help_seconds() * 1000:.0f} ms (best of 5, whole process)")
    print(f"{'pack':<14} {'games/s':>10} {'decisions/s':>12} {'games':>7} "
          f"{'validate cold':>14} {'validate warm':>14}")
    from engine.dsl.places import is_playable
    for path in packs(args.packs):
        if not is_playable(path):
            print(f"{path.name:<14} skipped: a data pack (playable: false), no game to play")
            continue
        gps, dps, n = games_per_second(path, args.seconds)
        cold = validate_seconds(path, cold=True)
        warm = validate_seconds(path, cold=False)
        print(f"{path.name:<14} {gps:>10.1f} {dps:>12.0f} {n:>7} {cold * 1000:>11.0f} ms "
              f"{warm * 1000:>11.0f} ms")


if __name__ == "__main__":
    main()
