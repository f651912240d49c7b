"""Hannibal: an event that would do nothing now is marked "no effect now" (RULINGS.md H-el-11):
the cards' `idle:` rules (cards.yaml, events_lasting.rules check_idle, strategy.rules card_play),
what the terminal and the web page say, and what the bots choose."""
from __future__ import annotations

import random
import re
from types import SimpleNamespace

from hannibal_play import answer, board, give, options, pack, set_pc, start_turn

from engine.frontends.bots import GreedyBot, RandomBot
from engine.frontends.serve.present import screen
from engine.frontends.terminal import HumanPlayer
from engine.i18n.translations import render_log_entry


def sicilia_revolts(carthaginian=("messana", "panormus"), truce=False):
    """Rome about to choose the use of Sicilia Revolts (card list #2), with a Carthaginian PC
    in these spaces of Sicilia (and a truce holding, card list #64, with `truce`)."""
    g = board()
    for x in carthaginian:
        set_pc(g, x, "carthage")
    if truce:
        g.state["v"]["truce_by"][""] = "truce"
    give(g, "rome", "sicilia_revolts", "tribal_resistance")
    give(g, "carthage", "epidemic")
    start_turn(g, "rome")
    answer(g, "sicilia_revolts")
    return g


def sicilia_revolts_without_control():
    """Carthage holds 2 of the 5 spaces of Sicilia, so it does not control the province and
    the revolt would do nothing."""
    return sicilia_revolts()


def test_an_event_that_would_do_nothing_is_marked():
    g = sicilia_revolts_without_control()
    d = g.decision
    assert "event" in d.options and "ops" in d.options
    assert d.idle == ["event"]
    assert g.view("rome")["decision"]["idle"] == ["event"]


def test_the_mark_goes_with_the_condition():
    """card list #2: with a Carthaginian PC in 3 of 5 spaces (control, no CUs there), the revolt
    removes them: not marked."""
    g = sicilia_revolts(("messana", "panormus", "lilybaeum"))
    assert "event" in options(g) and g.decision.idle == []


def test_no_event_is_idle_while_a_truce_holds():
    """card list #64: any event ends the truce, so while one holds no event does nothing."""
    g = sicilia_revolts(truce=True)
    assert "event" in options(g) and g.decision.idle == []


def test_terminal_and_web_page_say_no_effect_now():
    g = sicilia_revolts_without_control()
    lines: list[str] = []
    seat = HumanPlayer(input=lambda _p: "1", output=lines.append)
    seat.choose(g, "rome")
    text = "\n".join(lines)
    marked = [line for line in text.split("\n") if "(no effect now)" in line]
    assert len(marked) == 1 and "event" in marked[0].lower(), text
    table = SimpleNamespace(game=g, id="t", said={}, tokens={},
                            seats={"rome": "person", "carthage": "random"}, pack_ref="hannibal")
    shown = screen(table, "rome", "en")["decision"]["options"]
    idle = [o for o in shown if o.get("idle")]
    assert [o["action"] for o in idle] == ["event"]
    assert idle[0]["label"].endswith("(no effect now)")
    assert all("(no effect now)" not in o["label"] for o in shown if o["action"] != "event")
    hu = screen(table, "rome", "hu")["decision"]["options"]
    assert any(o["label"].endswith("(most nincs hatása)") for o in hu)


def test_bots_do_not_play_an_event_that_would_do_nothing():
    g = sicilia_revolts_without_control()
    for seed in range(12):
        assert RandomBot(seed).choose(g, "rome") != "event"
        assert g.random_action(random.Random(seed)) != "event"
    for seed in range(3):
        assert GreedyBot(seed).choose(g.clone(), "rome") != "event"


# the sentences with which an event says it did nothing (events_*.rules, siege.rules)
NOTHING = re.compile(r"nothing happens|no effect|has no target|finds no|strikes no one|changes "
                     r"nothing|stays as it is|no PC is flipped|no PC is removed|brings no second|"
                     r"No Carthaginian army stands")


def test_the_marks_agree_with_the_events_over_random_games():
    """At every card play offering an event, in random games: the event played on a copy says it
    does nothing (or, for a forced march, a campaign or Mercenaries Desert with no one to move
    or strike, says nothing at all) exactly when it is marked; a truce ends by any event, so
    then nothing is marked."""
    p = pack()
    marked = 0
    for seed in range(8):
        g = p.new_game(seed, undo=False)
        rnd = random.Random(seed)
        while not g.over:
            d = g.decision
            if d.kind == "one" and "event" in d.options and d.args and len(d.args) > 1:
                c = g.clone()
                start = len(c.log)
                c.apply("event")
                said = [render_log_entry(e, p) for e in c.log[start:] if e["t"] == "say"][1:3]
                truce = any("the truce ends" in line for line in said)
                nothing = not said or any(NOTHING.search(line) for line in said)
                if "event" in d.idle:
                    marked += 1
                    assert nothing, (d.args[1], said)
                elif not truce:
                    assert not any(NOTHING.search(line) for line in said), (d.args[1], said)
            g.apply(g.random_action(rnd))
    assert marked > 20
