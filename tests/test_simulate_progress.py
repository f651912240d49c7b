"""`engine simulate` on long runs: the progress bar (on a terminal's stderr only), win shares
with their 95% Wilson intervals, and the same results on any number of workers."""
from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.core.loader import load_pack
from engine.frontends.cli import main
from engine.frontends.simulate import Progress, format_share, share, simulate, wilson
from engine.frontends.simulate import workers as worker_processes

REPO = Path(__file__).resolve().parent.parent
TINY = REPO / "tests" / "packs" / "tinygame"
TESTGAME = REPO / "tests" / "packs" / "testgame"
ENV = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
TIMING = ("seconds", "games_per_second", "workers")  # what may differ between worker counts

# Red may crash the engine (a division by zero) or score: faults, draws and wins all happen.
CRASHES = """
var score[s: side]: int = 0
event turn(s: side)

on setup:
    emit turn(red)
    emit turn(blue)
    if score[red] > score[blue]:
        win red
    if score[blue] > score[red]:
        win blue
    end game

on turn(s):
    let yes = ask s "Crash?"
    if yes and s == red:
        let z = score[s] - score[s]
        score[s] += 1 / z
    if yes:
        score[s] += 2
"""


def run(args: list[str], stderr_tty: bool) -> tuple[int, str, str]:
    """`python -m engine ARGS` with stdout a pipe and stderr a pipe or a terminal (a pty);
    (exit code, stdout, stderr)."""
    cmd = [sys.executable, "-m", "engine", *args]
    if not stderr_tty:
        r = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO, env=ENV, timeout=120)
        return r.returncode, r.stdout, r.stderr
    master, slave = pty.openpty()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave, cwd=REPO, env=ENV)
    os.close(slave)
    err = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the terminal closed: the command has exited
                break
            if not chunk:
                break
            err += chunk
        elif p.poll() is not None:
            break
    os.close(master)
    out = p.stdout.read().decode()
    p.stdout.close()
    return p.wait(timeout=30), out, err.decode(errors="replace")


# ---- intervals ----------------------------------------------------------------------------------
def test_wilson_known_split():
    # 60 of 100: p = .6, z = 1.96 -> centre .5963, half-width .0943
    lower, upper = wilson(60, 100)
    assert (round(lower, 3), round(upper, 3)) == (0.502, 0.691)
    assert share(60, 100) == {"rate": 0.6, "lower": 0.502, "upper": 0.6906}
    assert format_share(60, 100) == "60.0% (50.2–69.1%)"
    # the interval stays within 0..1 at the ends, and says nothing of no games
    assert wilson(0, 10)[0] == 0.0 and round(wilson(0, 10)[1], 3) == 0.278
    assert wilson(10, 10)[1] == 1.0 and round(wilson(10, 10)[0], 3) == 0.722
    assert wilson(0, 0) == (0.0, 1.0)


def test_simulate_reports_shares(tmp_path):
    pack = load_pack(write_pack_files(tmp_path / "crash", CRASHES, pack_id="crash"))
    out = simulate(pack, 40, seed=2, bots="random,random")
    assert out["draws"] and out["errors"] and sum(out["wins"].values())
    for side, k in out["wins"].items():
        assert out["win_rates"][side] == share(k, 40)
    assert out["draw_rate"] == share(out["draws"], 40)


def test_text_summary(capsys):
    assert main(["simulate", str(TINY), "--games", "30", "--seed", "4", "--bots",
                 "random,greedy", "--no-progress"]) == 0
    captured = capsys.readouterr()
    out = simulate(str(TINY), 30, seed=4, bots="random,greedy")
    assert "95% interval" in captured.out
    rows = {line.split()[0]: line.split(None, 1)[1] for line in captured.out.splitlines()
            if line.startswith("  ")}
    for side, k in [*out["wins"].items(), ("draws", out["draws"])]:
        text, count = rows[side].rsplit("  ", 1)
        assert (text.strip(), count) == (format_share(k, 30), f"{k} of 30")
    assert "game/s" not in captured.err  # no bar when asked for none


# ---- workers ------------------------------------------------------------------------------------
def without_timing(text: str) -> dict:
    out = json.loads(text)
    return {k: v for k, v in out.items() if k not in TIMING}


def test_same_json_whatever_the_workers(tmp_path, capsys):
    crash = write_pack_files(tmp_path / "crash", CRASHES, pack_id="crash")
    for pack, bots in ((TINY, "random,greedy"), (TESTGAME, "random,random"),
                       (crash, "random,random")):
        outs = []
        for workers in ("1", "2", "3"):
            main(["simulate", str(pack), "--games", "60", "--seed", "11", "--bots", bots,
                  "--workers", workers, "--json"])
            outs.append(without_timing(capsys.readouterr().out))
        assert outs[0] == outs[1] == outs[2]
    assert outs[0]["errors"]  # the crashes are listed in the same order (by seed) too


def test_forked_workers_do_not_load_the_pack_again(monkeypatch):
    if worker_processes.start_context().get_start_method() != "fork":
        pytest.skip("workers are spawned here: each loads the pack once, in _start_worker")
    pack = load_pack(TESTGAME)
    one = simulate(pack, 30, seed=1, bots="random,random")

    def no_loading(*args, **kwargs):
        raise AssertionError("a worker loaded the pack again")

    import engine.core.loader
    monkeypatch.setattr(engine.core.loader, "load_pack", no_loading)
    two = simulate(pack, 30, seed=1, bots="random,random", workers=2)
    assert {k: v for k, v in two.items() if k not in TIMING} == \
        {k: v for k, v in one.items() if k not in TIMING}


def test_spawned_workers_give_the_same_results(monkeypatch):
    import multiprocessing
    one = simulate(str(TINY), 40, seed=3, bots="random,greedy")
    monkeypatch.setattr(worker_processes, "start_context",
                        lambda: multiprocessing.get_context("spawn"))
    two = simulate(str(TINY), 40, seed=3, bots="random,greedy", workers=2)
    assert {k: v for k, v in two.items() if k not in TIMING} == \
        {k: v for k, v in one.items() if k not in TIMING}


def test_on_game_sees_every_game():
    seen = []
    out = simulate(str(TESTGAME), 25, seed=0, bots="random,random", workers=2,
                   on_game=seen.append)
    assert sorted(r["seed"] for r in seen) == list(range(25))
    assert sum(r.get("winner") == "red" for r in seen) == out["wins"]["red"]


# ---- the progress bar ---------------------------------------------------------------------------
def test_progress_bar_text():
    buf = io.StringIO()
    with Progress(4, {"red": "Red army", "blue": "Blue army"}, file=buf) as bar:
        for r in ({"status": "over", "winner": "red"}, {"status": "over", "winner": None},
                  {"status": "over", "winner": "red"}, {"status": "error"}):
            bar(r)
    last = buf.getvalue().split("\r")[-1]
    assert "4/4" in last and "game/s" in last
    assert "Red army 50%" in last and "Blue army 0%" in last and "draws 25%" in last
    assert "unfinished or failed 1" in last


def test_progress_on_a_terminal_only():
    args = ["simulate", str(TESTGAME), "--games", "40", "--bots", "random,random"]
    code, out, err = run(args + ["--workers", "2"], stderr_tty=True)
    assert code == 0
    assert "40/40" in err and "game/s" in err and "red " in err  # done, speed, shares
    assert "95% interval" in out
    code, out, err = run(args, stderr_tty=False)
    assert code == 0 and "game/s" not in err and "\r" not in err and "95% interval" in out
    code, out, err = run(args + ["--no-progress"], stderr_tty=True)
    assert code == 0 and "game/s" not in err


def test_json_stays_clean_with_progress_forced():
    code, out, err = run(["simulate", str(TESTGAME), "--games", "40", "--workers", "2",
                          "--json", "--progress"], stderr_tty=False)
    assert code == 0 and "40/40" in err
    assert json.loads(out)["games"] == 40  # one JSON object, nothing else


def test_help_loads_no_progress_library():
    code = ("import sys, engine.frontends.cli; engine.frontends.cli.build_parser().format_help(); "
            "print([m for m in ('tqdm', 'engine.frontends.simulate') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, env=ENV, check=True).stdout
    assert out.strip() == "[]"
