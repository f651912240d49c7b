"""Each option explained where it is offered (issue 31): an option that is a card shows its
rules text, and one that is a plain word naming a glossary term (`'march'`, `'pick up'`:
Hannibal's `term` records, content/hannibal/glossary.yaml) shows the term's definition, in the
player's language (`texts:` of content/translations/hannibal.terms.*.yaml, else English),
under the option at the terminal and as the option's `text` on the web page. Ante Portas
offers a card's uses as enum values: their `texts:` (`carthage_mode.march`) explain them."""
from __future__ import annotations

import random

import pytest

from engine.core.loader import load_pack
from engine.frontends.serve import present
from engine.frontends.terminal import HumanPlayer, QuitGame
from engine.frontends.terminal.questions import option_text
from engine.i18n.translations import Catalog

# the words Hannibal's decisions offer (move.rules, strategy.rules, intercept.rules)
OFFERED = ["march", "sea", "pick up", "drop", "inside", "leave", "join", "sally", "stop",
           "ops", "event", "both", "discard", "move", "pcs", "raise", "fight", "step back"]
MARCH = {  # seed 002 §8.2, §8.3.1; the Dutch in our words after seed 002
    "en": "Take the army one space further by land; a pass or strait costs 2 movement points "
          "instead of 1.",
    "nl": "Het leger trekt één veld verder over land; een bergpas of zeeëngte kost 2 "
          "bewegingspunten in plaats van 1."}


@pytest.fixture(scope="module")
def hannibal():
    return load_pack("content/hannibal")


def at_march(pack):
    """Seed 1 after 40 random decisions: Carthage asked what Hannibal does next, in
    Saguntum (the options march, pick up, drop, inside, stop)."""
    g = pack.new_game(1)
    rnd = random.Random(1)
    for _ in range(40):
        g.apply(g.random_action(rnd))
    return g


def shown_at(game, lang: str) -> list[str]:
    lines = iter(["q"])
    shown: list[str] = []
    with pytest.raises(QuitGame):
        HumanPlayer(lang, input=lambda _p: next(lines), output=shown.append).choose(
            game, game.decision.side)
    return shown


@pytest.mark.parametrize("lang, label", [("en", "March on"), ("nl", "Verder trekken")])
def test_the_terminal_explains_march_under_it(hannibal, lang, label):
    g = at_march(hannibal)
    assert g.decision.options[0] == "march"
    option = next(text for text in shown_at(g, lang) if text.startswith("  1) "))
    head, *under = option.splitlines()
    assert head == f"  1) {label}"
    assert all(line.startswith("       ") for line in under)  # indented under the label
    assert " ".join(line.strip() for line in under) == MARCH[lang]


def test_a_word_of_several_is_named_and_explained_by_the_term_it_spells(hannibal):
    """'pick up' is the term `pick_up`: its label and definition, not the word itself."""
    g = at_march(hannibal)
    shown = "\n".join(shown_at(g, "nl"))
    assert "  2) GE's meenemen\n       GE's die in dit veld staan, trekken mee" in shown
    assert "pick up" not in shown


@pytest.mark.parametrize("lang", ["en", "nl"])
def test_the_web_page_gets_the_explanation_as_the_options_text(hannibal, lang):
    cat = Catalog(hannibal, lang)
    assert option_text("march", cat) == MARCH[lang]
    option = present._option("label", "march", cat)
    assert option == {"label": "label", "action": "march", "text": MARCH[lang]}


@pytest.mark.parametrize("lang", ["en", "nl", "ru"])
def test_every_word_offered_has_a_definition_of_its_own_in_each_language(hannibal, lang):
    cat = Catalog(hannibal, lang)
    missing = [word for word in OFFERED if cat.record_of(word) is None
               or cat.own_text(cat.record_of(word), lang) is None]
    assert not missing
    assert cat.value("event") != "event" and cat.value("step back") != "step back"


def test_a_definition_missing_in_a_language_is_said_in_english(hannibal):
    """A glossary term without a `texts:` entry in Dutch (a port: no option) keeps its
    English definition, as a card's text does (content/translations/README.md)."""
    nl = Catalog(hannibal, "nl")
    assert nl.own_text("port", "nl") is None
    assert nl.text("port") == hannibal.records["port"]["definition"] != ""


def test_a_record_is_not_explained_by_the_terms_its_fields_name(hannibal):
    """A space's `kind` (walled_city) and a leader's office name glossary terms: their
    definitions say what those are, not what the space or leader does, so such an option has
    no text; a card keeps its event."""
    cat = Catalog(hannibal, "en")
    assert hannibal.records["capua"]["kind"] == "walled_city"
    assert option_text("capua", cat) == "" and option_text("hannibal", cat) == ""
    card = hannibal.model.by_type["strategy_card"][0]
    assert option_text(card, cat) == cat.text(card) != ""


def test_a_view_in_a_language_carries_the_explanations_of_its_options(hannibal):
    """`Game.view(side, lang=...)["texts"]` (docs/api.md) for front-ends of their own: a word
    offered is explained under the word itself, as its `names` entry is keyed."""
    g = at_march(hannibal)
    texts = g.view(g.decision.side, lang="nl")["texts"]
    assert texts["march"] == MARCH["nl"]
    assert texts["pick up"].startswith("GE's die in dit veld staan")


@pytest.mark.parametrize("lang, label, text", [
    ("en", "march time (face down)", "Lay the card face down under the map: its march time"),
    ("hu", "menetidő (lefordítva)", "A lapot lefordítva a térkép alá teszed: menetideje"),
])
def test_ante_portas_explains_a_cards_uses(lang, label, text):
    """Seed 000, "Egy kör menete" 3 (march time, attached event, immediate event) and
    "Menetidő": Carthage's first question of a round is how to use its card."""
    ante = load_pack("content/ante_portas")
    g = ante.new_game(1)
    rnd = random.Random(1)
    while "use the card as" not in (g.decision.prompt or ""):
        g.apply(g.random_action(rnd))
    assert g.decision.options[0] == "march"
    option = next(t for t in shown_at(g, lang) if t.startswith("  1) "))
    head, *under = option.splitlines()
    assert head == f"  1) {label}"
    assert " ".join(line.strip() for line in under).startswith(text)
    for use in ("attach", "event"):
        assert option_text(use, Catalog(ante, lang))  # Carthage's other uses
    for use in ("army_named", "event_named", "army_secret", "event_secret", "money_secret",
                "morale"):
        assert option_text(use, Catalog(ante, lang))  # and Rome's
