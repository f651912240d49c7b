"""The `engine` command line: play, cards, terms, fmt, help and exit codes."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.frontends.cli import main

REPO = Path(__file__).resolve().parent.parent
TINY = REPO / "tests" / "packs" / "tinygame"
ENV = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}

FAULTY_RULES = """
var active: side = red
var score[s: side]: int = 0
event turn(s: side)

on setup:
    repeat 3:
        emit turn(active)
        active = other(active)
    end game

on turn(s):
    log "{0} has {1}", s, score[s]
    let yes = ask s "Crash?"
    if yes:
        let z = score[s] - score[s]
        score[s] += 1 / z
    else:
        score[s] += 2
"""


def write_pack(root: Path, rules: str, pack_id: str = "faulty") -> Path:
    return write_pack_files(root, rules, pack_id=pack_id)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                          text=True, cwd=REPO, env=ENV, input=stdin, timeout=120)


# ---- help and usage -----------------------------------------------------------------------------
def test_help(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for cmd in ("validate", "fmt", "play", "simulate", "cards", "terms"):
        assert cmd in out


def test_each_commands_help_reads_as_written(capsys):
    """A command's text is printed as it is (argparse formats only `%(prog)s`-style text):
    no doubled per cent sign, as `simulate` once showed ("95%% interval")."""
    commands = ("validate", "fmt", "play", "simulate", "cards", "eval", "terms", "schema",
                "serve")
    for cmd in commands:
        assert main([cmd, "--help"]) == 0
        assert "%%" not in capsys.readouterr().out, cmd
    assert main(["simulate", "--help"]) == 0
    assert "95% (Wilson) interval" in " ".join(capsys.readouterr().out.split())


def test_help_is_as_wide_as_columns_says(monkeypatch, capsys):
    # argparse's own rule (shutil.get_terminal_size), without importing shutil
    for columns, widest in (("50", 48), ("120", 118)):
        monkeypatch.setenv("COLUMNS", columns)
        assert main(["cards", "--help"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert max(map(len, lines)) <= widest
        assert max(map(len, lines)) > widest - 12  # the text is long enough to fill it


def test_usage_errors(capsys):
    assert main([]) == 2
    assert main(["frobnicate"]) == 2
    assert main(["play"]) == 2
    assert main(["simulate", str(TINY), "--games", "x"]) == 2
    assert main(["play", str(TINY), "--bots", "random"]) == 0  # one entry = every side
    capsys.readouterr()
    assert main(["play", str(TINY), "--bots", "random,random,random"]) == 2
    assert "one entry per side" in capsys.readouterr().err
    assert main(["play", str(TINY), "--bots", "randon,random"]) == 2
    assert "did you mean 'random'?" in capsys.readouterr().err
    assert main(["play", "/no/such/pack"]) == 2
    assert main(["cards", str(TINY), "--lang", "NOT A LANG"]) == 2


def test_help_is_fast_and_light():
    # the whole of `engine --help`, as `python -m engine` runs it, and then what it imported:
    # no parser, YAML, attrs or runtime, no package metadata (read for --version only), and
    # neither typing nor shutil (which argparse imports for the terminal's width): each was
    # a tenth of the start-up; nor the language server's pygls
    code = ("import runpy, sys; sys.argv = ['engine', '--help']\n"
            "try: runpy.run_module('engine', run_name='__main__')\n"
            "except SystemExit: pass\n"
            "heavy = [m for m in ('lark', 'yaml', 'cattrs', 'attrs', 'dsl', 'engine.dsl.parser', "
            "'engine.core.loader', 'engine.core.game', 'engine.core.runtime', "
            "'importlib.metadata', 'typing', 'shutil', 'pygls', 'lsprotocol') "
            "if m in sys.modules]; print(heavy, file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, env=ENV, check=True).stderr
    assert out.strip() == "[]"
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        r = run("--help")
        best = min(best, time.perf_counter() - start)
        assert r.returncode == 0 and "validate" in r.stdout
    assert best < 2.0  # generous for slow CI; ~40 ms locally


# ---- play ---------------------------------------------------------------------------------------
def test_play_json_replays(capsys):
    from engine.core.game import replay
    from engine.core.loader import load_pack
    assert main(["play", str(TINY), "--seed", "5", "--bots", "random,greedy", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in ("winner", "turns", "decisions", "seed", "actions", "pack", "pack_hash"):
        assert key in out
    assert out["seed"] == 5 and out["pack"] == "tinygame" and out["over"]
    assert out["decisions"] == len(out["actions"])
    assert out["turns"] == 4  # tinygame has 4 `turn` events
    pack = load_pack(TINY)
    assert out["pack_hash"] == pack.hash
    game = replay(pack, out["seed"], out["actions"])
    assert game.over and game.result.winner == out["winner"]


def test_play_is_deterministic(capsys):
    assert main(["play", str(TINY), "--seed", "7"]) == 0
    first = capsys.readouterr().out
    assert main(["play", str(TINY), "--seed", "7"]) == 0
    assert capsys.readouterr().out == first
    assert "turn: red" in first and first.rstrip().splitlines()[-1].startswith("result: ")
    assert "seed 7" in first


def test_play_matches_simulate(capsys):
    from engine.core.loader import load_pack
    from engine.frontends.simulate import run_one
    pack = load_pack(TINY)
    for seed in range(4):
        assert main(["play", str(TINY), "--seed", str(seed), "--bots", "greedy,random",
                     "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        one = run_one(pack, seed, ["greedy", "random"])
        assert (one["winner"], one["decisions"]) == (out["winner"], out["decisions"])


def test_play_max_decisions(capsys):
    assert main(["play", str(TINY), "--seed", "3", "--max-decisions", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "unfinished" and out["decisions"] == 1 and not out["over"]


def test_play_fault(tmp_path, capsys):
    pack = write_pack(tmp_path / "faulty", FAULTY_RULES)
    assert main(["play", str(pack), "--seed", "2", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "fault"
    err = out["error"]
    assert "ZeroDivisionError" in err["message"] and err["seed"] == 2 and err["actions"]
    assert main(["play", str(pack), "--seed", "2"]) == 1
    cap = capsys.readouterr()
    assert "game fault" in cap.err and "Traceback" not in cap.err


def test_play_broken_pack(tmp_path, capsys):
    pack = write_pack(tmp_path / "broken", "on setup:\n    win nobody\n")
    assert main(["play", str(pack)]) == 1
    err = capsys.readouterr().err
    assert "error[E201]" in err and "engine validate" in err


def test_play_human(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    # junk, an out-of-range number, undo with nothing to undo, a save, then play on
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"x\n9\nu\nw {save}\n1\n1\n1\n1\n"))
    assert main(["play", str(TINY), "--seed", "3", "--bots", "human,random"]) == 0
    out = capsys.readouterr().out
    assert "hand (red): three" in out            # own hand shown
    assert "hand (blue): 1 card (hidden)" in out  # the other's only counted
    assert "1) three" in out and "2) pass" in out
    assert "enter a number from 1 to 2" in out
    assert "nothing to undo" in out
    assert f"saved to {save}" in out
    assert "result: red wins" in out
    # the saved game continues where it was; EOF on stdin stops the game cleanly
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", str(TINY), "--load", str(save), "--bots", "human,random"]) == 0
    assert "stopped (0 decisions" in capsys.readouterr().out
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", str(TINY), "--load", str(save), "--bots", "human,random",
                 "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)["status"] == "quit"  # the game itself went to stderr
    assert "1) three" in cap.err


def test_human_undo(tmp_path):
    """Undo goes back to the same side's previous decision."""
    from engine.core.loader import load_pack
    from engine.frontends.bots import UNDONE
    from engine.frontends.terminal import HumanPlayer
    pack = load_pack(write_pack(tmp_path / "two", """
        var n: int = 0
        on setup:
            let a = ask red "First?"
            let b = ask red "Second?"
            if a and b:
                win red
            end game
    """, "twoasks"))
    game = pack.new_game(1)
    lines = iter(["1", "u", "2"])
    printed: list[str] = []
    human = HumanPlayer(input=lambda _p: next(lines), output=printed.append)
    game.apply(human.choose(game, "red"))           # yes
    assert human.choose(game, "red") is UNDONE      # undo the first answer
    assert game.actions == []
    assert human.choose(game, "red") is False       # now 'no'
    assert any("undone" in p for p in printed)
    assert "red: First?" in printed


def test_play_lang(tmp_path, capsys):
    content = tmp_path / "content"
    pack = shutil.copytree(TINY, content / "tinygame")
    tr = content / "translations"
    tr.mkdir()
    (tr / "tinygame.nl.yaml").write_text(textwrap.dedent("""
        pack: tinygame
        lang: nl
        names:
          three: {name: "Drie", source: "test"}
        terms:
          red: {name: "Rood", source: "test"}
          hand: {name: "Hand", source: "test"}
        messages:
          turn: {text: "Beurt van {0}", source: "test"}
    """), encoding="utf-8")
    assert main(["play", str(pack), "--seed", "3", "--lang", "nl"]) == 0
    out = capsys.readouterr().out
    assert "Beurt van Rood" in out and "Drie" in out and "Hand (Rood)" in out
    assert "uitslag: Rood wint" in out  # the engine's own words too (engine/locale)


# ---- cards and terms ----------------------------------------------------------------------------
@pytest.fixture
def translated(tmp_path):
    content = tmp_path / "content"
    pack = shutil.copytree(TINY, content / "tinygame")
    rules = pack / "rules.rules"
    rules.write_text(rules.read_text().replace("    power: int\n", "    power: int\n"
                                               "    number: int?\n"))
    cards = pack / "cards.yaml"
    cards.write_text(cards.read_text().replace("power: 2\n", "power: 2\n    number: 12\n"
                                               "    name: Two of a kind\n"))
    (content / "translations").mkdir()
    (content / "translations" / "tinygame.ru.yaml").write_text(textwrap.dedent("""
        pack: tinygame
        lang: ru
        names:
          one: {name: "Один", source: "test"}
        terms:
          score: {name: "очки", source: "test"}
          deck: {name: "колода", source: "test"}
    """), encoding="utf-8")
    return pack


def test_cards(translated, capsys):
    assert main(["cards", str(translated)]) == 0
    out = capsys.readouterr().out
    assert "TYPE" in out and "Two of a kind" in out and "12" in out
    assert main(["cards", str(translated), "--lang", "ru", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rec = {r["id"]: r for r in data["records"]}
    assert rec["one"]["name"] == "Один" and rec["one"]["named"]
    assert rec["two"]["name"] == "Two of a kind" and not rec["two"]["named"]
    assert rec["two"]["number"] == 12 and rec["three"]["name"] == "three"
    assert "number" not in rec["one"]  # only records that have one
    assert rec["one"]["type"] == "card"
    # numbered records first, then by id
    assert [r["id"] for r in data["records"]] == ["two", "one", "three"]
    assert main(["cards", str(translated), "--json"]) == 0
    rec = {r["id"]: r for r in json.loads(capsys.readouterr().out)["records"]}
    assert rec["two"]["named"] and not rec["one"]["named"]  # English: the `name:` field
    assert main(["cards", str(translated), "--lang", "hu"]) == 0
    assert "no hu translation" in capsys.readouterr().err
    assert main(["cards", str(translated), "--type", "crad"]) == 2
    assert "did you mean 'card'?" in capsys.readouterr().err


def test_terms(translated, capsys):
    assert main(["terms", str(translated), "--lang", "ru"]) == 0
    out = capsys.readouterr().out
    assert "колода" in out and "очки" in out
    assert main(["terms", str(translated), "--lang", "en", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {t["id"]: t["name"] for t in data["terms"]} == {"deck": "deck", "score": "score"}


# ---- fmt ----------------------------------------------------------------------------------------
def test_fmt(tmp_path, capsys):
    from engine.dsl.formatter import format_source
    d = tmp_path / "rules"
    d.mkdir()
    ugly = "var   n: int=1\non setup:\n    n+=1\n"
    (d / "a.rules").write_text(ugly)
    pretty = format_source(ugly, str(d / "a.rules"))
    assert pretty != ugly
    (d / "b.rules").write_text(pretty)
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    cap = capsys.readouterr()
    assert cap.out.strip() == str(d / "a.rules")
    assert (d / "a.rules").read_text() == ugly  # --check changes nothing
    assert main(["fmt", str(tmp_path)]) == 0
    assert (d / "a.rules").read_text() == pretty
    assert main(["fmt", "--check", str(d / "a.rules"), str(d / "b.rules")]) == 0
    (d / "c.rules").write_text("on setup: (\n")
    assert main(["fmt", str(d / "c.rules")]) == 1
    assert f"{d / 'c.rules'}:1:" in capsys.readouterr().err
    assert main(["fmt", str(tmp_path / "missing.rules")]) == 2


# ---- through a real process ---------------------------------------------------------------------
def test_subprocess_validate_and_play(tmp_path):
    pack = shutil.copytree(TINY, tmp_path / "tiny")
    (pack / "more.yaml").write_text("card:\n  - id: four\n    power: 1\n    power: 2\n")
    r = run("validate", str(pack))
    assert r.returncode == 1 and "error[E002]" in r.stdout and "Traceback" not in r.stderr
    r = run("play", str(TINY), "--seed", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["seed"] == 1
    r = run("play", str(TINY), "--seed", "1", "--bots", "human,random", stdin="1\n1\n1\n")
    assert r.returncode == 0 and "result:" in r.stdout


def test_human_many_choice(tmp_path):
    """With many legal answers the person picks options by number."""
    from engine.core.loader import load_pack
    from engine.frontends.terminal import HumanPlayer
    root = write_pack(tmp_path / "many", """
        type card:
            power: int
        zone pool of card
        on setup:
            for c in card:
                move c to pool
            let got = choose up to 3 c from pool by red
            if count(got) == 2:
                win red
            end game
    """, "many")
    (root / "cards.yaml").write_text("card:\n" + "".join(
        f"  - id: c{i}\n    power: {i}\n" for i in range(10)), encoding="utf-8")
    pack = load_pack(root)
    game = pack.new_game(0)
    assert len(game.legal_actions()) > 40
    lines = iter(["0 1", "1 1", "2 5"])
    printed: list[str] = []
    action = HumanPlayer(input=lambda _p: next(lines), output=printed.append).choose(game, "red")
    assert action == ["c1", "c4"]
    assert any("option numbers" in p for p in printed)
    assert any("not allowed" in p for p in printed)  # "1 1" picks c0 twice
    game.apply(action)
    assert game.result.winner == "red"
