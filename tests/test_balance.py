"""`engine balance` (engine.frontends.balance): what one game yields, a run's JSON lines and
how a run resumes, the aggregates of hand-made records, the page's escaping, and the command
(tests/test_balance_spec.py checks pack.yaml `balance:`, tests/test_balance_page.py opens a
Hannibal page in Chromium)."""
from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import attrs
import pytest

from engine.core.loader import load_pack
from engine.dsl.balancespec import balance_spec
from engine.frontends.balance import records as R
from engine.frontends.balance.collect import GAMES_FILE, Job, play_record, run_jobs
from engine.frontends.balance.report import Share, apart, summarize
from engine.frontends.cli import main

PACKS = Path(__file__).resolve().parent / "packs"
BALANCEGAME = PACKS / "balancegame"
SPEC = ["random", "random"]


# ---- what one game yields -----------------------------------------------------------------
def test_card_plays_read_from_a_log():
    pack = load_pack(BALANCEGAME)
    spec = balance_spec(pack.model, pack.meta).cards
    say = lambda m, *a: {"t": "say", "m": m, "a": list(a)}  # noqa: E731
    log = [
        {"t": "event", "n": "play", "a": ["red", "one"]},
        say("{0} plays {1} for its points", "red", "one"),
        say("{0} plays {1} for its trick", "red", "one"),
        say("{0} answers with {1}", "blue", "shield"),  # a play of its own
        {"t": "event", "n": "play", "a": ["blue", "two"]},  # nothing says how
        {"t": "set", "n": "round_no", "k": "", "v": 2},
        say("{0} plays {1} for its trick", "red", "one"),  # a later turn: played again
        say("{0} plays {1} for its points", "red", "nothing"),  # no card of the type
    ]
    plays = R.card_plays(log, spec, set(pack.model.by_type["card"]), set(pack.sides),
                         "round_no")
    assert plays == [R.Play("one", "red", "points+trick"), R.Play("shield", "blue", "answer"),
                     R.Play("two", "blue", R.UNKNOWN_USE), R.Play("one", "red", "trick")]


def test_game_value_reads_the_game_as_it_stands():
    pack = load_pack(BALANCEGAME)
    game = pack.new_game(3, log=False, undo=False)
    assert game.value("lead", "red") == 0
    game.playout(random.Random(1))
    lead = game.var("score", "red") - game.var("score", "blue")
    assert (game.value("lead", "red"), game.value("lead", "blue")) == (lead, -lead)
    with pytest.raises(KeyError, match="has no value 'leed'"):
        game.value("leed", "red")


def test_the_first_player_without_an_event_is_who_decided_first():
    log = [{"t": "event", "n": "opens", "a": ["blue"]}, {"t": "choice", "side": "red", "v": 1},
           {"t": "event", "n": "opens", "a": ["red"]}]
    assert R.first_player(log, "opens", 0) == "blue"
    assert R.first_player(log, None, None) == "red"
    assert R.first_player([], None, None) is None


def test_a_game_record_is_complete():
    pack = load_pack(BALANCEGAME)
    record = play_record(pack, 3, SPEC, 10_000, False)
    assert json.loads(json.dumps(record)) == record  # plain JSON
    r = R.GameRecord.from_json(record)
    assert (r.pack_hash, r.bots, r.seed, r.status) == (pack.hash, "random,random", 3, "over")
    assert r.winner in ("red", "blue", None)
    assert r.reason in ("{0} reaches 12", "{0} scores more", "no rule left to run", "rule")
    assert r.reason_args == ([r.winner] if r.winner else [])
    assert r.first in ("red", "blue") and r.turns == 3 and r.decisions > 6
    # three cards a hand, each played or given up to answer a window
    assert len(r.plays) == 6
    assert [row.turn for row in r.track] == [0, 1, 2, 3, None]
    assert set(r.track[-1].values) == {"score|red", "score|blue", "lead|red", "lead|blue",
                                       "round_no"}
    # the last row is the end: the scores the result came from
    end = r.track[-1].values
    if r.reason == "{0} scores more":
        assert end[f"score|{r.winner}"] > end[f"score|{'blue' if r.winner == 'red' else 'red'}"]


def test_a_run_writes_json_lines_and_resumes(tmp_path):
    pack = load_pack(BALANCEGAME)
    out = tmp_path / "out"
    job = Job("pack", pack, str(BALANCEGAME), SPEC, list(range(4)))
    got = run_jobs([job], out)
    lines = (out / GAMES_FILE).read_text(encoding="utf-8").splitlines()
    assert [json.loads(line)["seed"] for line in lines] == [0, 1, 2, 3]
    assert [r.seed for r in got[("pack", "random,random")]] == [0, 1, 2, 3]
    # a line cut short (a run stopped while writing) is played again; the rest is kept
    with (out / GAMES_FILE).open("a", encoding="utf-8") as fh:
        fh.write(lines[0][:20])
    played = []
    more = Job("pack", pack, str(BALANCEGAME), SPEC, list(range(7)))
    got = run_jobs([more], out, progress=lambda job, todo: _Bar(played, todo))
    assert played == [[4, 5, 6]]  # only the seeds not done
    assert [r.seed for r in got[("pack", "random,random")]] == list(range(7))
    again = R.read_lines((out / GAMES_FILE).read_text(encoding="utf-8"))
    assert sorted(r.seed for r in again) == list(range(7))
    assert got[("pack", "random,random")][:4] == [R.GameRecord.from_json(json.loads(x))
                                                  for x in lines]
    # the same seeds on two workers: the same games
    other = tmp_path / "workers"
    two = run_jobs([more], other, workers=2)
    assert two == got


class _Bar:
    """A progress bar that notes the seeds it was told of."""

    def __init__(self, played: list[list[int]], todo: int):
        self.seeds: list[int] = []
        played.append(self.seeds)

    def __call__(self, result):
        self.seeds.append(result["seed"])

    def close(self):
        self.seeds.sort()


# ---- the aggregates -------------------------------------------------------------------------
def _record(seed, winner, first, plays=(), reason="{0} wins", turns=3, track=(),
            status="over"):
    return R.GameRecord("h", "random,random", seed, status, winner=winner, reason=reason,
                        decisions=10, turns=turns, first=first,
                        plays=[R.Play(*p) for p in plays],
                        track=[R.TurnValues(t, v) for t, v in track])


def test_aggregates_of_hand_made_records():
    records = [
        _record(0, "red", "red", [("a", "red", "ops"), ("a", "red", "event"),
                                  ("b", "blue", "ops")], track=[(1, {"x": 1.0}),
                                                                (2, {"x": 4.0})]),
        _record(1, "red", "blue", [("a", "blue", "event")], turns=5,
                track=[(1, {"x": 3.0}), (None, {"x": 9.0})]),
        _record(2, "blue", "red", [("b", "red", "ops")], reason="{0} gives up",
                track=[(1, {"x": 2.0})]),
        _record(3, None, "red", [("a", "red", "ops")], reason="draw"),
        _record(4, None, None, status="unfinished", reason="unfinished"),
    ]
    s = summarize(records, ["red", "blue"], "random,random")
    assert s.games == 5 and s.unfinished == 1 and s.errors == 0
    assert s.wins == {"red": Share(2, 5), "blue": Share(1, 5)} and s.draws == Share(1, 5)
    assert s.reasons == {"{0} wins": Share(2, 5), "{0} gives up": Share(1, 5),
                         "draw": Share(1, 5), "unfinished": Share(1, 5)}
    assert s.turns == [3, 5, 3, 3]  # the finished games
    # red played first in 3 finished games and won 1; blue in 1 and lost it
    assert s.first == {"red": Share(1, 3), "blue": Share(0, 1)}
    assert s.first_wins == Share(1, 4)
    cards = {c.card: c for c in s.cards}
    assert [c.card for c in s.cards] == ["a", "b"]  # the most played first
    assert cards["a"].plays == 4 and cards["a"].uses == {"ops": 2, "event": 2}
    # a: red in game 0 (won, twice: once) and game 3 (a draw), blue in game 1 (lost)
    assert cards["a"].won == {"red": Share(1, 2), "blue": Share(0, 1)}
    assert cards["b"].won == {"red": Share(0, 1), "blue": Share(0, 1)}
    assert [(q.turn, q.n, q.q1, q.median, q.q3) for q in s.track["x"]] == [
        (1, 3, 1.5, 2.0, 2.5), (2, 1, 4.0, 4.0, 4.0)]  # the end row is not a turn
    assert s.to_json()["wins"]["red"] == {"k": 2, "n": 5, "rate": 0.4, "lower": 0.1176,
                                          "upper": 0.7693}


def test_an_end_reason_shows_what_its_games_share():
    from engine.frontends.balance.run import reason_label
    from engine.i18n.translations import Catalog
    records = [_record(0, "red", "red", reason="{0} leads by {1:# point|# points}"),
               _record(1, "red", "red", reason="{0} leads by {1:# point|# points}"),
               _record(2, "blue", "red", reason="{0} gives up")]
    records = [attrs.evolve(r, reason_args=args) for r, args in
               zip(records, [["red", 1], ["red", 3], ["blue"]])]
    s = summarize(records, ["red", "blue"], "random,random")
    assert s.reason_fixed == {"{0} leads by {1:# point|# points}": {0: "red"},
                              "{0} gives up": {0: "blue"}}
    cat = Catalog(load_pack(BALANCEGAME), "en")
    assert reason_label("{0} leads by {1:# point|# points}", cat, {0: "red"}) == \
        "red leads by …"
    assert reason_label("{0} leads by {1:# point|# points}", cat, {0: "blue", 1: 1}) == \
        "blue leads by 1 point"
    assert reason_label("{{0}} is {0}", cat, {}) == "{0} is …"


def test_two_shares_are_apart_when_their_intervals_are():
    assert apart(Share(90, 100), Share(50, 100))
    assert not apart(Share(55, 100), Share(50, 100))
    assert not apart(Share(1, 1), Share(0, 0))  # nothing measured on one side


# ---- the page and the command -------------------------------------------------------------
def test_the_page_escapes_what_the_pack_says(tmp_path):
    root = tmp_path / "evil"
    shutil.copytree(BALANCEGAME, root)
    text = (root / "pack.yaml").read_text(encoding="utf-8")
    (root / "pack.yaml").write_text(text.replace(
        "name: Tally (engine balance test game)",
        'name: "<script>alert(1)</script> & <b>bold</b>"'), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["balance", str(root), "--games", "3", "--out", str(out),
                 "--no-progress"]) == 0
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "<script" not in page and "<b>bold" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;" in page


def test_the_page_highlights_what_differs_beyond_chance():
    from engine.frontends.balance.page import Names, Section, Version, page
    a = summarize([_record(i, "red", "red") for i in range(30)], ["red", "blue"], "x,y")
    b = summarize([_record(i, "blue", "red") for i in range(30)], ["red", "blue"], "x,y")
    versions = [Version("A", "one", "here", "1"), Version("B", "two", "there", "2")]
    names = Names({"red": "Red", "blue": "Blue"}, {}, {"{0} wins": "… wins"}, [])
    text = page("t", versions, "f", ["red", "blue"], names, [Section("x,y", "s", [a, b], {})])
    red = text[text.index("<tr><td>Red</td>"):].split("</tr>")[0]
    assert red.count('class="num diff"') == 2  # 100% against 0%: both cells highlighted
    same = text[text.index("<tr><td>… wins</td>"):].split("</tr>")[0]
    assert "diff" not in same  # every game ended so in both


def test_engine_balance_writes_the_page_and_compares(tmp_path, capsys):
    other = tmp_path / "other"
    shutil.copytree(BALANCEGAME, other)
    # the edit of one card: ten scores 30 for its points
    (other / "cards.yaml").write_text((BALANCEGAME / "cards.yaml").read_text(
        encoding="utf-8").replace("{id: ten, power: 10}", "{id: ten, power: 30}"),
        encoding="utf-8")
    out = tmp_path / "out"
    code = main(["balance", str(BALANCEGAME), "--games", "40", "--bots", "random,random",
                 "--bots", "greedy,random", "--compare", str(other), "--out", str(out),
                 "--no-progress"])
    assert code == 0
    said = capsys.readouterr()
    assert f"wrote {out / 'index.html'}" in said.out
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [p["bots"] for p in report["pairings"]] == ["random,random", "greedy,random"]
    assert [v["label"] for v in report["versions"]] == ["A", "B"]
    assert len((out / GAMES_FILE).read_text(encoding="utf-8").splitlines()) == 4 * 40
    pngs = sorted(p.name for p in out.glob("*.png"))
    assert pngs == sorted(f"{kind}_{n}.png" for kind in ("wins", "reasons", "length", "first",
                                                          "track", "cards") for n in (1, 2))
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.count("<img ") == 12 and "Bots greedy,random" in page
    # the games that reach 12 are all won by red, those ended by the scores by either side
    assert "red reaches 12" in page and "… scores more" in page


def test_engine_balance_refuses_people_and_other_sides(tmp_path):
    out = str(tmp_path / "out")
    assert main(["balance", str(BALANCEGAME), "--bots", "human,random", "--out", out]) == 2
    assert main(["balance", str(BALANCEGAME), "--compare", str(PACKS / "roadgame"),
                 "--out", out, "--games", "1"]) == 2
