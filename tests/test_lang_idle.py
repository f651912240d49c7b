"""`no effect when` (the options of a choice that do nothing now) and `always asked` (a
decision asked even with one answer): parsing, checking, formatting, the decision they make,
saves, what front-ends say and what bots choose."""
from __future__ import annotations

from typing import Any

from engine.dsl.build import build_pack
from engine.dsl.errors import render_text
from engine.dsl.formatter.printer import format_source
from engine.frontends.bots import GreedyBot, RandomBot
from engine.frontends.terminal import HumanPlayer, action_label
from engine.i18n.translations import Catalog

IDLE = """
type space:
    worth: int
var got: list of space = []
var last: space? = none
on setup:
    for _ in [1, 2, 3]:
        let c = choose c from space by red where c not in got no effect when c.worth == 0 \\
            prompt "Pick a space"
        got = got + [c]
    last = choose c from [s in space where s.worth == 1] by blue always asked
    end game
"""

SPACES = """
space:
  - {id: s0, worth: 0}
  - {id: s1, worth: 1}
  - {id: s2, worth: 0}
  - {id: s3, worth: 2}
"""


def test_the_decision_says_which_options_do_nothing(inline_pack):
    g = inline_pack(IDLE, SPACES).new_game(0)
    d = g.decision
    assert d.options == ["s0", "s1", "s2", "s3"] and d.idle == ["s0", "s2"]
    assert g.view("red")["decision"]["idle"] == ["s0", "s2"]
    assert "idle" not in g.view("blue")["decision"]  # another side's decision: no options
    g.apply("s1")
    assert g.decision.idle == ["s0", "s2"]
    g.apply("s3")
    assert g.decision.options == ["s0", "s2"] and g.decision.idle == ["s0", "s2"]


def test_always_asked_asks_with_one_answer(inline_pack):
    g = inline_pack(IDLE, SPACES).new_game(0)
    for s in ("s1", "s3", "s0"):
        g.apply(s)
    d = g.decision  # one space is worth 1: asked all the same
    assert (d.side, d.options, d.idle) == ("blue", ["s1"], [])
    g.apply("s1")
    assert g.over and g.var("last") == "s1"


def test_saves_keep_the_marks(inline_pack):
    from engine.core.game import Game
    pack = inline_pack(IDLE, SPACES)
    g = pack.new_game(0)
    again = Game.load(pack, g.save())
    assert again.decision.idle == ["s0", "s2"]
    for s in ("s1", "s3", "s0"):
        g.apply(s)
    again = Game.load(pack, g.save())
    assert again.decision.options == ["s1"]
    again.apply("s1")
    assert again.over


def test_bots_choose_an_idle_option_only_when_nothing_else_is_legal(inline_pack):
    pack = inline_pack(IDLE, SPACES)
    for seed in range(20):
        for bot in (RandomBot(seed), GreedyBot(seed, rollouts=1)):
            g = pack.new_game(seed)
            picks = []
            while not g.over:
                side = g.decision.side
                a = bot.choose(g, side)
                if side == "red":
                    picks.append(a)
                g.apply(a)
            # s1 and s3 first (they do something), then one of the idle ones, all there is
            assert sorted(picks[:2]) == ["s1", "s3"] and picks[2] in ("s0", "s2")
        g = pack.new_game(seed)
        g.playout(__import__("random").Random(seed))
        assert sorted(g.var("got")[:2]) == ["s1", "s3"]


def test_front_ends_say_no_effect_now(inline_pack):
    pack = inline_pack(IDLE, SPACES)
    g = pack.new_game(0)
    cat = Catalog(pack, "en")
    idle = g.decision.idle
    assert action_label("s0", cat, "one", idle=idle) == "s0 (no effect now)"
    assert action_label("s1", cat, "one", idle=idle) == "s1"
    assert action_label("s0", Catalog(pack, "nl"), "one", idle=idle) == "s0 (nu geen effect)"
    lines: list[str] = []
    seat = HumanPlayer(input=lambda _p: "2", output=lines.append)
    assert seat.choose(g, "red") == "s1"
    text = "\n".join(lines)
    assert "1) s0 (no effect now)" in text and "2) s1\n" in text
    from types import SimpleNamespace

    from engine.frontends.serve.present import screen
    table = SimpleNamespace(game=g, id="t", said={}, seats={"red": "person", "blue": "random"},
                            tokens={}, pack_ref="idle")
    shown = screen(table, "red", "en")
    options = {o["action"]: o for o in shown["decision"]["options"]}
    assert options["s0"]["label"] == "s0 (no effect now)" and options["s0"]["idle"] is True
    assert "idle" not in options["s1"]


def build(write_pack, rules: str, records: Any = None):
    return build_pack(write_pack(rules, records))


def codes(b) -> list[str]:
    return [d.code for d in b.diagnostics]


def test_checker_errors(write_pack):
    b = build(write_pack, IDLE.replace("c.worth == 0", "c.wrth == 0"), SPACES)
    assert b.diagnostics, "an unknown field in the condition"  # (c is bound in it)
    assert build(write_pack, IDLE, SPACES).diagnostics == []
    b = build(write_pack, IDLE.replace("let c = choose c from", "let c = choose 1 c from"),
              SPACES)
    assert "E287" in codes(b), render_text(b.diagnostics)
    b = build(write_pack, IDLE.replace(
        "choose c from [s in space where s.worth == 1] by blue always asked",
        "choose up to 1 c from [s in space where s.worth == 1] by blue one at a time "
        "always asked"), SPACES)
    assert "E288" in codes(b), render_text(b.diagnostics)
    e287 = next(d for d in b.diagnostics if d.code == "E288")
    assert "one-at-a-time" in e287.message


def test_formatter_keeps_the_clauses():
    src = ("on setup:\n"
           "    let c = choose c from space by red no effect when c.worth == 0 always asked "
           "prompt \"Pick\"\n")
    out = format_source(src)
    assert "no effect when c.worth == 0 always asked prompt \"Pick\"" in out
    assert format_source(out) == out


def test_optimised_and_plain_agree(write_pack):
    from tests.compile_passes import assert_same_games, both_ways
    fast, plain = both_ways(write_pack(IDLE, SPACES))
    assert plain.new_game(0).decision.idle == ["s0", "s2"]
    assert_same_games(fast, plain)


HIDDEN = """
type space:
    worth: int
zone hand[s: side] of space private
zone pile of space hidden
var secret[s: side]: int = 0 private
on setup:
    let c = choose c from space by red no effect when COND
    end game
"""


def test_a_condition_that_reads_what_the_decider_cannot_see_is_warned(write_pack):
    def warned(cond: str) -> list[str]:
        b = build(write_pack, HIDDEN.replace("COND", cond), SPACES)
        assert not [d for d in b.diagnostics if d.severity == "error"], \
            render_text(b.diagnostics)
        return [d.message for d in b.diagnostics if d.code == "W289"]

    assert warned("c in hand[red] or secret[red] > 0") == []  # the decider's own
    assert warned("count(pile) == 0 and count(hand[blue]) > 1") == []  # sizes are seen
    assert warned("c in pile")[0].startswith("the 'no effect when' condition reads the hidden "
                                             "zone 'pile'")
    assert "private zone 'hand'" in warned("c in hand[blue]")[0]
    assert "private var 'secret'" in warned("secret[blue] > 0")[0]
