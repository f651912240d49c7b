"""The benchmarks' own behaviour (bench/): the hand-written references play the bench packs'
games, and the figures of `bench/run.py --compare` come from the games they say they play.
The figures themselves are printed, never asserted (speed is measured, not tested)."""
from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.loader import load_pack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import bytecodes  # noqa: E402
import execution_model  # noqa: E402
import fit_weights  # noqa: E402
import greedy  # noqa: E402
import handwritten  # noqa: E402
import hannibal_exposure  # noqa: E402
import instructions  # noqa: E402
import leak_soak  # noqa: E402
import run  # noqa: E402
import simulate_workers  # noqa: E402


@pytest.mark.parametrize("name", sorted(handwritten.GAMES))
def test_each_hand_written_reference_plays_its_packs_games(name):
    """Game i with seed i, one Random(0) for all moves: the same winner after the same number
    of asked decisions, game after game (one game out of step throws the rest off too)."""
    assert handwritten.same_results(name, 300)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**40), moves=st.integers(0, 2**32))
def test_the_ante_portas_slice_and_its_reference_agree_on_any_seed(seed, moves):
    """bench/packs/ap_battle (seed 000, "Menetidő", "Kör végi csata", "Róma ostroma") and
    its hand-written Python: the same game's dice and the same moves give the same winner
    after the same decisions, and the pack's game ends as the rules say: Carthage wins only
    by taking Rome, with cards in hand."""
    pack = load_pack(ROOT / "bench" / "packs" / "ap_battle")
    game = pack.new_game(seed=seed, log=False, undo=False)
    rnd = random.Random(moves)
    while not game.over:
        game.apply(game.random_action(rnd))
    mine = handwritten.ApBattle(seed)
    asked = handwritten.drive(mine, random.Random(moves))
    assert (game.result.winner, len(game.actions)) == (mine.winner, asked)
    hand = game.rt.z["hand|carthage"]
    assert (game.result.winner == "carthage") == bool(hand)


def test_the_ante_portas_slice_uses_the_packs_card_numbers():
    """The slice's cards are Ante Portas's (content/ante_portas/cards.yaml): where each
    starts, where Rome sends it, and the numbers of its halves."""
    import yaml
    src = yaml.safe_load((ROOT / "content/ante_portas/cards.yaml").read_text(encoding="utf-8"))
    halves = {h["id"]: h for h in src["rhalf"] + src["chalf"]}
    handwritten.ApBattle.load()
    assert [c.id for c in handwritten.ApBattle.CARDS] == [c["id"] for c in src["card"]]
    for card, c in zip(handwritten.ApBattle.CARDS, src["card"]):
        roman, carthaginian = halves[c["roman"]], halves.get(c.get("carthaginian"), {})
        assert (card.start, card.to, card.r_inf, card.r_cav, card.march, card.c_inf) == (
            c["start"], c["target"], roman["infantry"], roman["cavalry"],
            carthaginian.get("march", 0), carthaginian.get("infantry", 0))


def test_bare_and_defaults_alternate_the_same_games():
    """Both sides of the bare-vs-defaults figure play the same games: log and undo change
    no move of the random player."""
    bare, full, games, same = run.bare_and_defaults(ROOT / "bench" / "packs" / "ap_battle",
                                                    0.1)
    assert games >= 1 and bare > 0 and full > 0
    assert same


@pytest.mark.parametrize("name", ["ap_battle", "kuhn", "tictactoe"])
def test_play_by_index_plays_the_games_of_apply(name):
    """The compared figure by apply_index of each random_index plays the games of apply of
    each random_action and of Game.playout: the same draws, the same answers."""
    pack = load_pack(ROOT / "bench" / "packs" / name)
    games = [[run.play_game(pack, seed, random.Random(seed), **how).actions
              for seed in range(20)] for how in ({}, {"apply": True}, {"index": True})]
    assert games[0] == games[1] == games[2]


def test_greedy_self_play_speed_times_both_bots_both_ways():
    """Every (bot, log) pair plays the games asked, and its bot's choosing is timed."""
    speed = greedy.self_play_speed(str(ROOT / "bench" / "packs" / "tictactoe"), games=2)
    assert sorted(speed) == [("new", False), ("new", True), ("old", False), ("old", True)]
    for r in speed.values():
        assert r["games"] == 2 and r["choices"] > 0 and r["choosing"] > 0
        assert r["decisions"] >= r["choices"]


def test_simulate_workers_side_by_side_gives_both_runs_the_same_results():
    out = simulate_workers.side_by_side(load_pack(ROOT / "bench" / "packs" / "kuhn"), 40,
                                        workers=2, repeat=1)
    assert out["same"]
    assert [len(out["rates"][w]) for w in (1, 2)] == [1, 1]
    assert all(cpu > 0 for w in (1, 2) for cpu in out["cpu"][w])
    assert all(x is None or x >= 0 for w in (1, 2) for x in out["others"][w])
    assert simulate_workers.others({1: [0.5], 2: [None]}) == "0.50 (1 worker), ? (2 workers)"
    # the bare processes played in the same rounds, where the machine forks
    bare = out["bare"]
    assert all(x is None or x > 0 for w in (1, 2) for x in bare[w])
    medians = simulate_workers.bare_medians(bare)
    assert medians is None or medians == (bare[1][0], bare[2][0])


def test_bare_processes_report_a_failed_child(monkeypatch):
    """A bare process whose games fail is an error, not a fast figure."""
    import engine.frontends.simulate
    pack = load_pack(ROOT / "bench" / "packs" / "kuhn")
    if not hasattr(os, "fork"):
        assert simulate_workers.bare_processes(pack, 4, "random", 2) is None
        return
    assert simulate_workers.bare_processes(pack, 4, "random", 2) > 0

    def broken(*_args: object) -> None:
        raise RuntimeError("a game that breaks")
    monkeypatch.setattr(engine.frontends.simulate, "run_one", broken)  # (the forks inherit it)
    with pytest.raises(RuntimeError, match="2 of the bare processes failed"):
        simulate_workers.bare_processes(pack, 4, "random", 2)


def test_instructions_plays_the_games_it_counts():
    """bench/instructions.py's script plays a bench pack named as such (and a shipped pack
    by name): its run, without valgrind, ends cleanly (check=True raises otherwise)."""
    assert instructions.pack_ref("kuhn") == str(ROOT / "bench" / "packs" / "kuhn")
    assert instructions.pack_ref("ante_portas") == "ante_portas"
    for new_only, playout in (("0", "1"), ("0", "0"), ("1", "1")):
        assert instructions.collected([instructions.pack_ref("kuhn"), "2", "3", new_only, "0",
                                       playout], valgrind=False) == 0
    # and the hand-written references, by the names handwritten.py gives them
    assert set(instructions.HAND_WRITTEN) == set(handwritten.GAMES)
    for name in instructions.HAND_WRITTEN:
        assert instructions.collected([name, "2", "3"], valgrind=False,
                                      script=instructions.HAND) == 0


def test_bytecodes_counts_the_games_it_plays_and_names_their_rules():
    """bench/bytecodes.py traces the same games as played untraced (the same decisions), and
    names the pack's code by its rules: a rule by kind, name and place, a line by the rule
    line its generated code carries."""
    pack = load_pack(ROOT / "bench" / "packs" / "tictactoe")
    untraced = bytecodes.play(pack, 3, 4, False, random.Random(1))
    funcs, lines, decisions = bytecodes.counted(pack, 3, 4, False, random.Random(1))
    assert decisions == untraced > 0
    assert bytecodes.play(pack, 3, 4, False, random.Random(1), apply=True) == untraced
    applied, _, _ = bytecodes.counted(pack, 3, 4, False, random.Random(1), apply=True)
    assert "game.py: apply" in {bytecodes.label(pack, f, n) for f, n in applied}
    assert "game.py: apply" not in {bytecodes.label(pack, f, n) for f, n in funcs}
    assert sum(funcs.values()) == sum(lines.values()) > 0
    names = {bytecodes.label(pack, f, n) for f, n in funcs}
    assert "procedure won (rules.rules:10)" in names and "loop.py: run" in names
    where = {bytecodes.rule_line(pack, f, n, line) for f, n, line in lines}
    assert {"rules.rules:10", "rules.rules:14", "rules.rules:15"} <= where
    assert bytecodes.rule_line(pack, "/x/engine/runtime.py", "run", 200) is None


def test_compared_figures_take_turns_and_average_them():
    """run.alternating gives each rate the same share of each round, in turns, and their
    mean: figures side by side see the machine's swings alike."""
    calls = []

    def rate(name, value):
        def measured(seconds):
            calls.append((name, seconds))
            return value + len(calls)  # (each call a different figure)
        return measured

    got = run.alternating({"a": rate("a", 100.0), "b": rate("b", 10.0)}, 3.0, slices=3)
    assert calls == [("a", 1.0), ("b", 1.0)] * 3
    assert got == {"a": 100.0 + (1 + 3 + 5) / 3, "b": 10.0 + (2 + 4 + 6) / 3}


@pytest.mark.parametrize("os_name", ["python_tic_tac_toe", "python_kuhn_poker", "tic_tac_toe",
                                     "kuhn_poker"])
def test_openspiel_comparison_plays_whole_games_of_each_game_it_names(os_name):
    # issue 34 judges the DSL against OpenSpiel's C++ games driven from Python, besides its
    # Python ones: each is one the bench pairs with one of our packs, and plays
    pytest.importorskip("pyspiel")
    import openspiel
    paired = {theirs: ours for ours, theirs in openspiel.PAIRS + openspiel.CPP_PAIRS}
    assert (ROOT / "bench" / "packs" / paired[os_name] / "pack.yaml").is_file()
    assert openspiel.openspiel(os_name, 0.02) > 0


def test_the_hand_lowered_rule_plays_the_games_of_the_generated_one():
    """bench/execution_model.py's `lowering` times tic-tac-toe's setup rule written by hand
    as the approved design would compile it: it plays the very games of the generated one,
    so its figure compares the same work."""
    from engine.core.loader import instantiate
    from engine.dsl.build import build_pack
    pack = instantiate(build_pack(ROOT / "bench" / "packs" / "tictactoe"))  # (its own)
    scratch: dict = {}
    exec(compile(execution_model.STRUCTURED_TICTACTOE, "<structured>", "exec"), pack.ns,
         scratch)
    machine = pack.ns["FUNCS"]["t0_on_setup"]
    played = execution_model.games(pack, range(40))
    pack.ns["FUNCS"]["t0_on_setup"] = scratch["t0_on_setup"]
    assert scratch["t0_on_setup"] is not machine
    assert execution_model.games(pack, range(40)) == played


def test_the_weight_fit_finds_the_weights_outcomes_were_drawn_with():
    """bench/fit_weights.py's regression: outcomes drawn with known weights give them back
    (the second term, which decides nothing, near 0), and it beats a constant held out."""
    import numpy as np
    rnd = np.random.default_rng(3)
    x = rnd.normal(size=(4000, 2)) * [2.0, 3.0]
    y = (rnd.random(4000) < 1 / (1 + np.exp(-(0.8 * x[:, 0] - 0.5)))).astype(float)
    w = fit_weights.fit(x[:3000], y[:3000], 1.0)
    assert abs(w[0] - 0.8) < 0.1 and abs(w[1]) < 0.05 and abs(w[2] + 0.5) < 0.15
    base = np.array([np.log(y[:3000].mean() / (1 - y[:3000].mean()))])
    assert fit_weights.log_loss(w, x[3000:], y[3000:]) \
        < fit_weights.log_loss(base, np.zeros((1000, 0)), y[3000:])


def test_the_weight_fit_reads_each_term_at_each_turns_start():
    """bench/fit_weights.py reads a pack's values of one side at the first decision of each
    turn (the pack's balance turn var), as the first side's minus the second's, lists
    counted: Hannibal's first side, Carthage, starts 7 political points to Rome's 9 (seed 002
    §18.2's example)."""
    winner, rows = fit_weights.positions(
        str(ROOT / "content" / "hannibal"), 3, ["random", "random"],
        ["political_points", "leaders_on_map", "exposed_pcs"])
    assert winner in ("rome", "carthage", None)
    assert len(rows) >= 2 and rows[0][0] == -2.0
    assert all(len(row) == 3 and all(isinstance(v, float) for v in row) for row in rows)


def test_the_weight_fit_fits_saved_positions_again_without_playing(tmp_path, capsys):
    """bench/fit_weights.py --save writes each game's positions as it ends; --load fits on
    them (a subset of the terms saved, with --by-turn the terms times the turn) and prints
    the same fit as the run that played them."""
    saved = tmp_path / "positions.jsonl"
    pack, terms = str(ROOT / "content" / "hannibal"), "political_points,exposed_pcs"
    fit_weights.main([pack, "--terms", terms, "--games", "4", "--seed", "5",
                      "--bots", "greedy,random", "--save", str(saved)])
    played = capsys.readouterr().out
    lines = [json.loads(line) for line in saved.read_text().splitlines()]
    assert [g["seed"] for g in lines] == [5, 6, 7, 8]
    assert "log loss" in played and len({g["winner"] for g in lines}) == 2
    assert all(g["terms"] == terms.split(",") and g["rows"] for g in lines)
    fit_weights.main([pack, "--terms", terms, "--load", str(saved)])
    assert capsys.readouterr().out.split("\n")[1:] == played.split("\n")[1:]
    fit_weights.main([pack, "--terms", "exposed_pcs", "--load", str(saved), "--by-turn"])
    assert "exposed_pcs*turn" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no pcs saved"):
        fit_weights.main([pack, "--terms", "pcs", "--load", str(saved)])


def test_the_exposure_probe_counts_what_the_isolation_phase_would_remove():
    """bench/hannibal_exposure.py: `exposed_pc` asks less than `isolated` (seed 002 §15.4), so
    it flags every PC the isolation phase would remove; a look along the line as far as the
    isolation phase searches (isolation.rules `line_reach`) flags exactly those; and a look
    next door (1) flags what `exposed_pc` flags, which looks there."""
    whole = load_pack(ROOT / "content" / "hannibal").new_game(0).value("line_reach")
    tally = hannibal_exposure.count(2, 0, 80, [1, whole])
    assert tally["isolated"] > 0 and tally["safe"] > 0
    assert tally["exposed_pc", "isolated"] == tally["isolated"]
    assert tally[whole, "isolated"] == tally["isolated"] and tally[whole, "safe"] == 0
    assert tally[1, "isolated"] == tally["isolated"]
    assert tally[1, "safe"] == tally["exposed_pc", "safe"] > 0


def test_the_leak_soak_checks_whole_games_and_reports_what_a_view_shows():
    """bench/leak_soak.py: whole games of the leak test pack pass, and a view that shows the
    whole state (every hidden hand) is reported at the first decision, with the viewer and
    the ids, and the run's exit code says so."""
    leakgame = str(ROOT / "tests" / "packs" / "leakgame")
    assert leak_soak.main([leakgame, "--games", "6"]) == 0
    from engine.core.game import Game
    view = Game.view

    def telling(self, viewer=None):
        return {**view(self, viewer), "told": self.state["z"]}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Game, "view", telling)
        seed, asked, viewer, data, _text = leak_soak.check_game(leakgame, 3, 5)
        assert (seed, asked, viewer) == (3, 0, "red") and data
        assert leak_soak.main([leakgame, "--games", "2"]) == 1
