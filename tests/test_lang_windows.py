"""Response windows (`window` declarations, `open`): Hannibal §7.4.1 without a leak.

A response card written as a conditional trigger (`after march(s) if exists(c in
hand[other(s)] where c.response): ...`) tells the other side it is held: the game stops only
when it is, and the engine answers a question with one legal answer by itself. A declared
window always stops for the side it names, with a pass option, whatever that side holds;
offers exactly the records its `where` accepts; charges the card played (moves it `to` its
zone) and then runs its `effect` field. These tests prove each of those, and that the other
side's views, visible log, rendered text and refusals are identical whether the decider
holds no answering card, one or five, until a card is played.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from packs_under_test import WINDOWGAME, pack_dirs

from engine.core.errors import IllegalAction, SaveError
from engine.core.game import Game
from engine.core.loader import load_pack
from engine.dsl.build import build_pack
from engine.dsl.errors import render_text
from engine.dsl.formatter import format_source
from engine.dsl.parser import parse_module
from engine.frontends.bots import GreedyBot, RandomBot
from engine.frontends.terminal import HumanPlayer, describe_decision, render_view
from engine.i18n.translations import Catalog

DOCS = Path(__file__).resolve().parent.parent / "docs" / "language.md"

# Blue holds five cards from the records (`holder`); red marches once; the window `intercept`
# opens by itself after the march, the window `counter` by a statement.
RULES = """
type space
type card:
    holder: side?
    response: bool = false
    answers: list of text = []
    reaction: effect?

var last: card? = none
var seen_in: text? = none
var pushed: int = 0

zone hand[s: side] of card private
zone deck of card ordered hidden
zone discard of card

event march(mover: side, at: space)

window intercept(mover: side, at: space):
    by other(mover)
    from c in hand[other(mover)] where "march" in c.answers and at == camp
    to discard
    effect reaction
    prompt "Intercept the march?"
    after march

window counter(s: side):
    by other(s)
    from c in hand[other(s)] where c.response
    to discard

on setup:
    for c in card:
        if c.holder != none:
            move c to hand[c.holder]
        else:
            move c to deck
    emit march(red, camp)
    let c = open counter(red)
    last = c
    let again = ask red "Go on?"
    end game
"""

REACTION = 'reaction: "seen_in = zone_of(self)\\npushed += 1"'


def records(answering: int, response: int = 0, extra: str = "") -> str:
    """Five cards in blue's hand: the first `answering` answer the window `intercept`, the
    first `response` have `response: true`; two more lie in the deck."""
    lines = ["space:", "  - {id: camp}", "card:"]
    for i in range(5):
        fields = [f"id: b{i}", "holder: blue"]
        if i < answering:
            fields += ["answers: [march]", REACTION]
        if i < response:
            fields.append("response: true")
        lines.append("  - {" + ", ".join(fields) + "}")
    lines += ["  - {id: d0, answers: [march]}", "  - {id: d1}", extra]
    return "\n".join(lines) + "\n"


@pytest.fixture
def window_pack(inline_pack):
    def make(answering: int, response: int = 0, rules: str = RULES) -> Any:
        return inline_pack(rules, records(answering, response))
    return make


# ---- the window stops, offers, charges, runs ---------------------------------------------------

def test_the_window_stops_with_only_pass_when_nothing_answers(window_pack) -> None:
    game = window_pack(0).new_game(0)
    d = game.decision
    assert (d.side, d.kind, d.window, d.options, d.optional) == ("blue", "one", "intercept",
                                                                 [], True)
    assert d.prompt == "Intercept the march?"
    assert game.legal_actions() == [None]
    assert game.view("blue")["legal_actions"] == [None]
    game.apply(None)
    d = game.decision  # the window opened by `open counter(red)`: asked with nothing too
    assert (d.side, d.window, d.options) == ("blue", "counter", [])
    game.apply(None)
    assert game.var("last") is None and game.decision.kind == "ask"


def test_a_plain_optional_choice_of_nothing_is_not_asked(inline_pack) -> None:
    """What windows are for: without one, an empty choice is answered by the engine, so
    the other side sees a question exactly when there was something to answer with."""
    leaky = RULES.replace("""on setup:""", """after march(mover, at):
    let c = choose c from hand[other(mover)] by other(mover) where "march" in c.answers optional
    if c != none:
        move c to discard

on setup:""").replace("    after march\n", "")
    quiet = inline_pack(leaky, records(0)).new_game(0)
    asked = inline_pack(leaky, records(1)).new_game(0)
    assert quiet.decision.window == "counter"  # the plain choice was skipped
    assert asked.decision.window is None and asked.decision.options == ["b0"]
    assert quiet.view("red")["decision"] != asked.view("red")["decision"]


@pytest.mark.parametrize("answering", [1, 3, 5])
def test_exactly_the_answering_cards_are_offered(window_pack, answering) -> None:
    game = window_pack(answering, response=2).new_game(0)
    assert game.decision.options == [f"b{i}" for i in range(answering)]  # "march" in answers
    assert game.legal_actions() == [*game.decision.options, None]
    game.apply(None)
    assert game.decision.options == ["b0", "b1"]  # the bool field `response`
    assert "d0" not in game.decision.options  # answers too, but lies in the deck


def test_the_played_card_is_charged_then_its_effect_runs(window_pack) -> None:
    game = window_pack(2, response=1).new_game(0)
    game.apply("b1", side="blue", decision=game.decision.id)
    assert game.zone("discard") == ["b1"] and "b1" not in game.zone("hand", "blue")
    assert game.var("seen_in") == "discard"  # moved before its effect ran
    assert game.var("pushed") == 1
    moves = [e for e in game.log if e["t"] == "move" and e["e"] == "b1"]
    assert moves[-1]["to"] == "discard"
    game.apply("b0")  # counter: no effect clause; `open` gives back the card played
    assert game.var("last") == "b0" and game.zone("discard") == ["b1", "b0"]
    assert game.var("pushed") == 1


def test_a_window_effect_may_ask_in_turn(inline_pack) -> None:
    rules = RULES.replace("var pushed: int = 0", "var pushed: int = 0\nvar sure: bool = false")
    recs = records(1).replace(REACTION, 'reaction: "sure = ask blue \\"Sure?\\""')
    game = inline_pack(rules, recs).new_game(0)
    game.apply("b0")
    assert game.decision.kind == "ask" and game.decision.side == "blue"
    game.apply(True)
    assert game.var("sure") is True and game.decision.window == "counter"


# ---- what the other side sees ------------------------------------------------------------------

def red_sees(game: Game) -> tuple[Any, str]:
    view = game.view("red")
    return view, render_view(view, Catalog(game.pack, "en"))


@pytest.mark.parametrize("window", ["intercept", "counter"])
def test_the_other_side_sees_the_same_whatever_the_decider_holds(window_pack, window) -> None:
    """Blue holds 0, 1 or 5 cards answering the window: red's view (decision, zones, log),
    what a terminal shows red, the refusals red gets and the spectator's view are the same."""
    seen = []
    for answering in (0, 1, 5):
        game = window_pack(answering, response=answering).new_game(0)
        if window == "counter":
            game.apply(None)
        d = game.decision
        assert d.window == window and len(d.options) == answering
        refusals = []
        for call in (lambda game=game: game.validate("nonsense"),
                     lambda game=game: game.validate("d1"),
                     lambda game=game, d=d: game.apply("b0", side="red", decision=d.id),
                     lambda game=game: game.validate("b0", side="red"),
                     lambda game=game: game.validate(None, side="red")):
            with pytest.raises(IllegalAction) as err:
                call()
            refusals.append(str(err.value))
        seen.append((red_sees(game), game.view(None), refusals, game.can_undo("red")))
    assert seen[0] == seen[1] == seen[2]
    (view, _text), _spectator, refusals, _undo = seen[0]
    prompt = "Intercept the march?" if window == "intercept" else None
    assert view["decision"] == {"side": "blue", "kind": "one", "window": window,
                                "prompt": prompt}
    assert view["legal_actions"] == []
    assert not any(re.search(r"\d+ options", r) for r in refusals)


def swap_cards(state: dict[str, Any], a: str, b: str) -> dict[str, Any]:
    """The state of the world where the shuffle put card `b` where it put `a`, and `a` where
    it put `b` (zones, places, log): the same game, other cards hidden in the same places."""
    text = re.sub(rf'"({a}|{b})"', lambda m: f'"{b if m.group(1) == a else a}"',
                  json.dumps(state))
    return json.loads(text)


ANSWERS_MARCH = {"ambush_party", "rockslide", "double_agent"}


def two_worlds(seed: int) -> tuple[Game, Game, str, str]:
    """Windowgame with `seed` (world A: no card answering a march in blue's hand) and world
    B, the same game with a plain card of blue's hand swapped with a march-answering card
    deep in the hidden deck: (A, B, the plain card, the response card)."""
    p = load_pack(WINDOWGAME)
    game = p.new_game(seed, undo=False)
    hand, deck = game.zone("hand", "blue"), game.zone("deck")
    if set(hand) & ANSWERS_MARCH or not set(deck) & ANSWERS_MARCH:
        raise LookupError
    plain = hand[0]
    response = [c for c in deck if c in ANSWERS_MARCH][-1]
    if deck.index(response) < len(deck) // 2:
        raise LookupError  # near the top: drawn soon, and the worlds part visibly
    other = Game(p, swap_cards(game.state, plain, response), seed, [], undo=False)
    return game, other, plain, response


def test_two_worlds_look_the_same_to_the_mover_until_the_card_is_played() -> None:
    """Windowgame, played in two worlds that differ only in whether blue holds a card
    answering red's march: red's views (and the spectator's), what a terminal shows red and
    the log red sees are identical at every decision, through windows that blue answers
    with nothing to play in one world and passes with a card in hand in the other, until
    blue plays the card; from then on red sees it."""
    for seed in range(50):
        try:
            a, b, plain, response = two_worlds(seed)
        except LookupError:
            continue
        if play_two_worlds(a, b, plain, response):
            return
    raise AssertionError("no seed gave two worlds in which blue could play a response")


def play_two_worlds(a: Game, b: Game, plain: str, response: str) -> bool:
    """Play both worlds alike until blue plays `response` in world B; True if it did after
    passing at least one window with it in hand while blue in world A had nothing."""
    passed_with_card = empty_in_a = 0
    while not a.over:
        assert red_sees(a) == red_sees(b), f"red's views differ after {len(a.actions)} actions"
        assert a.view(None) == b.view(None)
        da, db = a.decision, b.decision
        assert (da.side, da.kind, da.window, da.prompt) == (db.side, db.kind, db.window,
                                                            db.prompt)
        if da.side == "red":
            assert da.options == db.options  # red's own cards: the same in both worlds
            action = None if da.window else da.options[0]
            a.apply(action)
            b.apply(action)
            continue
        if da.window is None:  # blue's own play: a card it holds in both worlds
            action = next(c for c in da.options if c in db.options and c not in (plain, response))
            a.apply(action)
            b.apply(action)
            continue
        empty_in_a += da.window == "ambush" and not da.options
        if da.window == "ambush" and response in db.options and empty_in_a:
            if passed_with_card:
                return played_the_card(a, b, response)
            passed_with_card += 1
        a.apply(None)
        b.apply(None)
    return False


def played_the_card(a: Game, b: Game, response: str) -> bool:
    before = len(b.view("red")["log"])
    a.apply(None)
    b.apply(response)
    seen_a, seen_b = a.view("red"), b.view("red")
    assert seen_a != seen_b
    new = seen_b["log"][before:]
    assert {"t": "move", "e": response, "from": "hand|blue", "to": "discard"} in new
    assert response in seen_b["zones"]["discard"] and response not in seen_a["zones"]["discard"]
    return True


# ---- bots, the terminal, saves -----------------------------------------------------------------

def test_bots_answer_windows() -> None:
    """Random and greedy bots play windowgame through: they pass and play in windows,
    always a legal answer, knowing only what their side sees (the greedy bot as documented)."""
    p = load_pack(WINDOWGAME)
    plays = passes = 0
    for seed in range(6):
        game = p.new_game(seed, undo=False)
        bots = {"red": RandomBot(seed), "blue": GreedyBot(seed, depth=1, branch=3)
                if seed % 2 else RandomBot(seed + 100)}
        while not game.over:
            d = game.decision
            action = bots[d.side].choose(game, d.side)
            assert action in game.legal_actions()
            if d.window is not None:
                plays += action is not None
                passes += action is None
            game.apply(action, side=d.side, decision=d.id)
    assert plays and passes


def test_the_terminal_offers_pass(window_pack) -> None:
    game = window_pack(1).new_game(0)
    shown: list[str] = []
    answers = iter(["2"])
    seat = HumanPlayer(input=lambda _prompt: next(answers), output=shown.append)
    assert seat.choose(game, "blue") is None
    text = "\n".join(shown)
    assert "blue: Intercept the march?" in text and "2) pass (choose nothing)" in text
    assert "1) b0" in text
    game.apply(None)
    cat = Catalog(game.pack, "en")
    assert describe_decision(game.view("red")["decision"], cat) == \
        "blue: respond (counter): play a card or pass"


def test_a_game_saved_in_a_window_loads_and_goes_on_identically(window_pack) -> None:
    p = window_pack(2, response=1)
    game = p.new_game(3)
    text = game.save()
    assert json.loads(text)["state"]["decision"]["window"] == "intercept"
    loaded = Game.load(p, text)
    assert loaded.decision == game.decision and loaded.decision.window == "intercept"
    for g in (game, loaded):
        g.apply("b1")
        g.apply(None)
    assert loaded.state == game.state
    data = json.loads(text)
    data["state"]["decision"]["window"] = "nowhere"
    with pytest.raises(SaveError, match=r"state\.decision\.window"):
        Game.load(p, json.dumps(data), verify="digest")


def test_windowgame_is_played_by_the_property_tests() -> None:
    assert WINDOWGAME in pack_dirs()


# ---- the language: checks, formatting, docs ----------------------------------------------------

def build(write_pack, rules: str, recs: str | None = None):
    return build_pack(write_pack(rules, recs if recs is not None else records(1)))


def error(write_pack, rules: str, code: str) -> Any:
    b = build(write_pack, rules)
    found = [d for d in b.diagnostics if d.code == code]
    assert found, f"no {code} in:\n{render_text(b.diagnostics)}"
    return found[0]


def line_of(rules: str, text: str) -> int:
    """The line of rules.rules (as the inline pack writes it) where `text` starts."""
    return rules.lstrip("\n")[:rules.lstrip("\n").index(text)].count("\n") + 1


def test_the_example_pack_checks_clean(write_pack) -> None:
    b = build(write_pack, RULES)
    assert b.ok, render_text(b.diagnostics)


@pytest.mark.parametrize("clause", ["by other(s)", "from c in hand[other(s)]", "to discard"])
def test_a_window_needs_by_from_and_to(write_pack, clause) -> None:
    counter = RULES.index("window counter")
    at = RULES.index(clause, counter)
    rules = RULES[:at - 4] + RULES[RULES.index("\n", at) + 1:]
    d = error(write_pack, rules, "E265")
    assert f"needs a '{clause.split()[0]}' clause" in d.message
    assert d.line == line_of(RULES, "window counter")


def test_a_clause_given_twice_is_an_error(write_pack) -> None:
    rules = RULES.replace("    to discard\n", "    to discard\n    to deck\n", 1)
    d = error(write_pack, rules, "E265")
    assert "'to' given twice in window 'intercept'" in d.message
    assert d.line == line_of(rules, "    to deck")


def test_a_window_offers_records(write_pack) -> None:
    rules = RULES.replace("from c in hand[other(s)] where c.response",
                          "from c in sides where c == s")
    d = error(write_pack, rules, "E266")
    assert "offers side values" in d.message and d.line == line_of(rules, "from c in sides")


def test_open_names_a_window(write_pack) -> None:
    d = error(write_pack, RULES.replace("open counter(red)", "open countr(red)"), "E267")
    assert "unknown window 'countr'" in d.message and d.suggestion == "did you mean 'counter'?"
    d = error(write_pack, RULES.replace("open counter(red)", "open counter(red, camp)"), "E210")
    assert "window 'counter' takes 1 argument(s), got 2" in d.message


def test_an_automatic_opening_needs_the_events_parameters(write_pack) -> None:
    rules = RULES.replace("window intercept(mover: side, at: space):",
                          "window intercept(mover: side):")
    d = error(write_pack, rules, "E268")
    assert "the event has parameters (mover: side, at: space), the window (mover: side)" \
        in d.message and d.line == line_of(rules, "    after march")
    rules = RULES.replace("    after march\n", "    after mrach\n")
    d = error(write_pack, rules, "E203")
    assert d.suggestion == "did you mean 'march'?"
    assert d.line == line_of(rules, "    after mrach")


@pytest.mark.parametrize("old, new, code, message", [
    ("effect reaction", "effect raection", "E229", "'raection' is not an effect field of card"),
    ("    to discard\n", "    to last\n", "E222", "'move' needs a zone to move to"),
    ("by other(mover)", "by 3", "E220", "must be side, got int"),
    ('"march" in c.answers', "c.nope", "E205", "unknown field of card 'nope'"),
])
def test_the_clauses_are_checked_like_the_rule_they_make(write_pack, old, new, code,
                                                        message) -> None:
    rules = RULES.replace(old, new, 1)
    d = error(write_pack, rules, code)
    assert message in d.message and d.line == line_of(rules, new.strip())


def test_a_window_is_a_name_of_the_pack(write_pack) -> None:
    d = error(write_pack, RULES.replace("var pushed: int = 0", "var counter: int = 0"), "E306")
    assert "'counter' is declared twice" in d.message


def test_windows_format_and_parse_back() -> None:
    text = ("window w(s: side, n: int):  # a response\n"
            "    # who is asked\n"
            "    by  other( s )\n"
            "    from c in hand[other(s)]   where c.power>n and c.response  # offered\n"
            "    to discard\n"
            "    effect reaction\n"
            '    prompt "Respond?"\n'
            "    after march\n"
            "    before battle\n"
            "\n"
            "on setup:\n"
            "    let c = open w(red, 1+2)\n"
            "    open   w(blue, 0)\n")
    out = format_source(text)
    assert out == ("window w(s: side, n: int):  # a response\n"
                   "    # who is asked\n"
                   "    by other(s)\n"
                   "    from c in hand[other(s)] where c.power > n and c.response  # offered\n"
                   "    to discard\n"
                   "    effect reaction\n"
                   '    prompt "Respond?"\n'
                   "    after march\n"
                   "    before battle\n"
                   "\n"
                   "on setup:\n"
                   "    let c = open w(red, 1 + 2)\n"
                   "    open w(blue, 0)\n")
    assert parse_module(out) == parse_module(text) and format_source(out) == out


def docs_blocks() -> list[str]:
    """The rules examples of the docs' "Response windows" section."""
    docs = DOCS.read_text(encoding="utf-8")
    section = docs.split("## Response windows", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```\n(.*?)```", section, re.S)


def test_the_docs_example_is_valid_and_formatted(inline_pack) -> None:
    blocks = docs_blocks()
    assert len(blocks) == 2
    for rules in blocks:
        assert format_source(rules) == rules
    pack = inline_pack("\n".join(blocks) + """
on setup:
    move c1 to hand[blue]
    move c2 to hand[blue]
    emit march(red, capua)
    emit battle(red, capua)
    end game
""", """
space:
  - {id: capua}
card:
  - {id: c1, response: true, reaction: "log \\"ambushed\\""}
  - {id: c2}
""")
    game = pack.new_game(0)
    assert game.decision.window == "intercept" and game.decision.options == ["c1"]
    game.apply(None)  # after march: passed; now the `open` in `on battle`
    assert game.decision.window == "intercept"
    game.apply("c1")
    assert game.over and game.zone("discard") == ["c1"]
    said = [(e["m"], e["a"]) for e in game.log if e["t"] == "say"]
    assert said == [("ambushed", []), ("the battle is interrupted by", ["c1"])]
