"""Bots, `simulate` and the rendering of log entries through translations."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.core.game import replay
from engine.core.loader import load_pack
from engine.frontends.bots import GreedyBot, RandomBot, bot_seed, make_bot
from engine.frontends.cli import main
from engine.frontends.seats import make_seat, parse_seats
from engine.frontends.simulate import run_one, simulate

PACKS = Path(__file__).resolve().parent / "packs"
TINY = PACKS / "tinygame"
TESTGAME = PACKS / "testgame"

KEYS = ("games", "wins", "draws", "errors", "mean_decisions", "games_per_second", "seconds")


def write_pack(root: Path, rules: str, pack_id: str = "p") -> Path:
    return write_pack_files(root, rules, pack_id=pack_id)


ASKS = """
var active: side = red
var score[s: side]: int = 0
event turn(s: side)
invariant "small scores": every(s in sides where score[s] < {limit})

on setup:
    repeat 4:
        emit turn(active)
        active = other(active)
    if score[red] > score[blue]:
        win red
    if score[blue] > score[red]:
        win blue
    end game

on turn(s):
    let yes = ask s "Crash?"
    if yes:
        let z = score[s] - score[s]
        score[s] += 1 / z
    else:
        score[s] += 2
"""


@pytest.fixture(scope="module")
def tiny():
    return load_pack(TINY)


# ---- bots ---------------------------------------------------------------------------------------
def test_make_bot_and_seats():
    assert isinstance(make_bot("random", 1), RandomBot)
    g = make_bot("Greedy", 1)
    assert isinstance(g, GreedyBot) and not g.sees_hidden and not RandomBot.sees_hidden
    assert "determinized" in GreedyBot.__doc__
    assert make_seat("human").interactive
    with pytest.raises(ValueError, match="did you mean 'greedy'"):
        make_bot("gredy")
    with pytest.raises(ValueError, match="did you mean 'human'"):
        make_seat("humna")
    assert isinstance(make_seat("random", 1), RandomBot)
    assert parse_seats("random", ["a", "b"]) == ["random", "random"]
    assert parse_seats("random, greedy", ["a", "b"]) == ["random", "greedy"]
    with pytest.raises(ValueError, match="one entry per side"):
        parse_seats("random,random,random", ["a", "b"])
    assert bot_seed(1, 0) != bot_seed(1, 1) != bot_seed(2, 0)


def test_random_bot_uses_own_rng(tiny):
    game = tiny.new_game(3)
    rng_before = game.save()
    bot = RandomBot(7)
    picks = [bot.choose(game, game.decision.side) for _ in range(20)]
    assert game.save() == rng_before  # choosing changed nothing in the game, dice included
    assert all(p in game.legal_actions() for p in picks)
    again = RandomBot(7)
    assert [again.choose(game, game.decision.side) for _ in range(20)] == picks
    with pytest.raises(ValueError):
        bot.choose(game, "blue" if game.decision.side == "red" else "red")


def test_greedy_reads_without_changing(tiny):
    game = tiny.new_game(3)
    before = game.save()
    action = GreedyBot(1, rollouts=2).choose(game, game.decision.side)
    assert game.save() == before
    assert action in game.legal_actions()


def test_greedy_beats_random():
    out = simulate(TESTGAME, 8, seed=100, bots="greedy,random")
    assert out["errors"] == []
    assert out["wins"]["red"] >= 6


def test_greedy_avoids_faults(tmp_path):
    pack = load_pack(write_pack(tmp_path / "asks", ASKS.replace("{limit}", "100")))
    game = pack.new_game(0)
    assert GreedyBot(0).choose(game, "red") is False  # `yes` crashes: scored as a loss


# ---- simulate -----------------------------------------------------------------------------------
def test_simulate_keys_and_counts(tiny):
    out = simulate(tiny, 40, seed=5, bots="random,random")
    for key in KEYS:
        assert key in out
    assert out["games"] == 40 and out["pack"] == "tinygame" and out["pack_hash"] == tiny.hash
    assert sum(out["wins"].values()) + out["draws"] + out["unfinished"] + len(out["errors"]) == 40
    assert set(out["wins"]) == {"red", "blue"}
    assert out["mean_decisions"] > 0 and out["games_per_second"] > 0
    json.dumps(out)
    # game i is played with seed S+i, just like `run_one` (and `engine play --seed`)
    single = simulate(tiny, 1, seed=5 + 7, bots="random")
    one = run_one(tiny, 12, ["random", "random"])
    assert single["mean_decisions"] == one["decisions"]


def test_simulate_deterministic_and_parallel():
    a = simulate(str(TESTGAME), 30, seed=3, bots="random,random")
    b = simulate(str(TESTGAME), 30, seed=3, bots="random,random", workers=3)
    for key in ("wins", "draws", "errors", "mean_decisions", "unfinished"):
        assert a[key] == b[key]
    assert b["workers"] == 3


def test_simulate_errors_replay(tmp_path):
    from engine.core.errors import EngineFault
    pack = load_pack(write_pack(tmp_path / "asks", ASKS.replace("{limit}", "100")))
    out = simulate(pack, 6, seed=0)
    assert out["errors"]
    for err in out["errors"]:
        assert {"message", "seed", "actions", "pack", "pack_hash"} <= set(err)
        assert err["actions"][-1] is True  # the crashing answer
        with pytest.raises(EngineFault):
            replay(pack, err["seed"], err["actions"])


def test_simulate_invariants_and_limits(tmp_path):
    pack = load_pack(write_pack(tmp_path / "asks", ASKS.replace("{limit}", "3")))
    out = simulate(pack, 10, seed=0, invariants=True)
    kinds = {e["kind"] for e in out["errors"]}
    assert "invariant" in kinds
    inv = next(e for e in out["errors"] if e["kind"] == "invariant")
    assert "small scores" in inv["message"] and inv["seed"] is not None
    out = simulate(pack, 10, seed=0, max_decisions=1)
    assert out["unfinished"] + len(out["errors"]) == 10


def test_simulate_rejects_humans(tiny):
    with pytest.raises(ValueError):
        simulate(tiny, 1, bots="human,random")


def test_simulate_cli(capsys):
    assert main(["simulate", str(TINY), "--games", "20", "--seed", "1", "--bots",
                 "random,greedy", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for key in KEYS:
        assert key in out
    assert out["games"] == 20 and out["bots"] == "random,greedy"
    assert main(["simulate", str(TINY), "--bots", "human,random"]) == 2


def test_simulate_cli_errors_exit_1(tmp_path, capsys):
    pack = write_pack(tmp_path / "asks", ASKS.replace("{limit}", "100"))
    assert main(["simulate", str(pack), "--games", "4", "--workers", "2", "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert len(out["errors"]) >= 1


# ---- log rendering ------------------------------------------------------------------------------
def test_render_log_entry_generic(tiny):
    from engine.i18n.translations import render_log_entry
    r = lambda e: render_log_entry(e, tiny, "en")  # noqa: E731
    assert r({"t": "event", "n": "turn", "a": ["red"]}) == "turn: red"
    assert r({"t": "event", "n": "setup", "a": []}) == "setup"
    assert r({"t": "move", "e": "one", "from": "deck", "to": "hand|red"}) == \
        "one: deck -> hand (red)"
    assert r({"t": "move", "e": None, "from": None, "to": "deck"}) == "a hidden card -> deck"
    assert r({"t": "choice", "side": "red", "v": None}) == "red passed"
    assert r({"t": "choice", "side": "red", "v": ["one", "two"]}) == "red chose one, two"
    assert r({"t": "choice", "side": "blue"}) == "blue decided"
    assert r({"t": "set", "n": "score", "k": "red", "v": 4}) == "score (red) = 4"
    assert r({"t": "roll", "dice": [3, 5]}) == "rolled 3 + 5 = 8"
    assert r({"t": "reveal", "e": "one", "to": "blue"}) == "one revealed to blue"
    assert r({"t": "end", "winner": None}) == "game over: no winner"
    assert r({"t": "say", "m": "{0} scores", "a": ["red"]}) == "red scores"
    assert r({"t": "say", "m": "hello", "a": ["red", 2]}) == "hello: red, 2"
    assert r({"t": "shuffle", "z": "deck"}) == "deck shuffled"


def test_render_log_entry_translated(tmp_path):
    import shutil

    from engine.i18n.translations import PackInfo, render_log_entry
    pack_dir = shutil.copytree(TINY, tmp_path / "c" / "tinygame")
    (tmp_path / "c" / "translations").mkdir()
    (tmp_path / "c" / "translations" / "tinygame.hu.yaml").write_text(textwrap.dedent("""
        pack: tinygame
        lang: hu
        names:
          one: {name: "Egy", source: "t"}
        terms:
          red: {name: "piros", source: "t"}
        messages:
          turn: {text: "{0} köre", source: "t"}
    """), encoding="utf-8")
    pack = load_pack(pack_dir)
    assert render_log_entry({"t": "event", "n": "turn", "a": ["red"]}, pack, "hu") == "piros köre"
    assert render_log_entry({"t": "choice", "side": "red", "v": "one"}, pack, "hu") == \
        "piros választása: Egy"
    # other languages fall back to English names (the engine's words are Dutch)
    assert render_log_entry({"t": "choice", "side": "red", "v": "one"}, pack, "nl") == \
        "red koos one"
    info = PackInfo.of(pack)
    assert info.events == {"turn": 1, "setup": 0} and "three" in info.records
