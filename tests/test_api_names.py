"""Names are public: `pack.name_of(id, lang)` names whatever a view carries (records, sides,
enum values, zones, vars, events), and `game.view(side, lang=...)` carries a `names` map of
the ids in it. Ante Portas in English and Hungarian (content/translations/ante_portas.*)."""
from __future__ import annotations

import random

import pytest

from engine.core.loader import load_pack


@pytest.fixture(scope="module")
def ap():
    return load_pack("ante_portas")


@pytest.mark.parametrize("id, en, hu", [
    ("card_01", "Consul Scipio", "Scipio konzul"),  # a record
    ("rome", "Rome", "Róma"),  # a side
    ("march", "march time (face down)", "menetidő (lefordítva)"),  # the enum value, as offered
    ("hand", "hand", "kéz"),  # a zone
    # a zone English has no term for: its id
    ("marched", "marched", "menetidőként lerakott lapok"),
])
def test_name_of_in_english_and_hungarian(ap, id, en, hu):
    assert ap.name_of(id) == ap.name_of(id, "en") == en
    assert ap.name_of(id, "hu") == hu


def test_a_language_without_the_name_falls_back_to_english(ap):
    assert ap.name_of("card_01", "nl") == "Consul Scipio"


def test_an_unknown_id_is_a_key_error_with_a_suggestion(ap):
    with pytest.raises(KeyError, match="pack 'ante_portas' has no id 'card_1'; did you mean "
                       "'card_01'"):
        ap.name_of("card_1", strict=True)


def test_records_made_in_play_are_named_by_their_type():
    stack = load_pack("tests/packs/stackgame")
    made = next(t for t in stack.created)
    assert stack.name_of(f"{made}#1") == stack.name_of(made)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_view_names_every_id_it_holds(ap, lang):
    game = ap.new_game(2)
    rnd = random.Random(2)
    for _ in range(12):
        game.apply(game.random_action(rnd))
    side = game.decider
    view = game.view(side, lang=lang)
    names = view["names"]
    assert view["lang"] == lang
    plain = game.view(side)
    assert {k: v for k, v in view.items() if k not in ("names", "lang", "texts")} == plain
    for key in view["zones"]:
        for part in key.split("|"):
            assert names[part] == ap.name_of(part, lang)
    for option in view["decision"]["options"]:
        if isinstance(option, str):
            assert names[option] == ap.name_of(option, lang)
    assert names[side] == ap.name_of(side, lang)
    assert all(names[e["e"]] for e in view["log"] if e.get("e"))
    # only ids: a log entry's own keys ('t', 'a', 'e') are no names
    assert not {"t", "a", "e", "n"} & set(names)
    if lang == "hu":
        assert names["rome"] == "Róma" and names["hand"] == "kéz"


def test_a_plain_word_option_is_named_not_a_key_error():
    """Issue 31: `pack.name_of('move')` raised KeyError for a word a decision offers (Hannibal
    offers 'move' / 'pcs' for a card's ops, content/hannibal/strategy.rules): a word is named
    by its term, else is itself made readable."""
    tiny = load_pack("tests/packs/tinygame")
    assert "move" not in tiny.name_ids  # a word, not an id the pack declares
    assert tiny.name_of("move") == tiny.name_of("move", "en") == "move"
    assert tiny.name_of("pick_up") == tiny.name_of("pick  up") == "pick up"  # made readable
    assert load_pack("ante_portas").name_of("hold_fast", "nl") == "hold fast"
    with pytest.raises(KeyError):
        tiny.name_of("move", strict=True)


# Hannibal's move and card-use options (content/hannibal/move.rules `on march`, strategy.rules,
# intercept.rules): seed 002 §7.3, §8, §9, §16.2; labels in content/translations/hannibal.terms.*
@pytest.mark.parametrize("word, en, nl, ru", [
    ("march", "March on", "Verder trekken", "Идти дальше"),
    ("drop", "Drop CUs", "GE's achterlaten", "Оставить ВЧ"),
    # a verb as the others (the term stays "inside the walls" for a leader's field)
    ("inside", "Go inside the walls", "Binnen de muren gaan", "Укрыться за стенами"),
    ("leave", "Leave a subordinate", "Onderaanvoerder achterlaten", "Оставить подчинённого"),
    ("stop", "End the move", "Beweging beëindigen", "Закончить движение"),
    ("move", "Move a leader", "Bevelhebber verplaatsen", "Двигать полководца"),
    ("pcs", "Place PCs with the ops", "PK's plaatsen met de OK", "Выставить ПК за ОЧ"),
    ("pick up", "Pick up CUs", "GE's meenemen", "Забрать ВЧ"),  # by the id pick_up
    ("step back", "Step back", "Terugwijken", "Отойти назад"),
    ("event", "Play the event", "Gebeurtenis", "Сыграть событие"),  # a card's use (strategy.rules)
])
def test_hannibal_option_words_have_labels_and_explanations(word, en, nl, ru):
    hannibal = load_pack("hannibal")
    assert (hannibal.name_of(word), hannibal.name_of(word, "nl"),
            hannibal.name_of(word, "ru")) == (en, nl, ru)
    term = hannibal.records["_".join(word.split())]  # its glossary record: the explanation
    assert len(term["definition"].split()) >= 8


def _strings(x):
    if isinstance(x, str):
        yield from x.split("|")
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)


@pytest.mark.parametrize("pack_id, seed", [("hannibal", 5), ("ante_portas", 7)])
def test_every_option_of_every_decision_has_a_readable_name(pack_id, seed):
    """Issue 31: a view's `names` fell back to raw ids and missed plain-word options. Over a
    random game, every text in every decision's options is named, and no name is a raw id
    (an underscore-joined word)."""
    pack = load_pack(pack_id)
    game = pack.new_game(seed)
    rnd = random.Random(seed)
    seen = 0
    for _ in range(300):
        if game.over:
            break
        view = game.view(game.decider, lang="en")
        names = view["names"]
        for text in _strings(view["decision"]["options"]):
            seen += 1
            assert text in names, text
            assert names[text] and "_" not in names[text], (text, names[text])
        game.apply(game.random_action(rnd))
    assert seen > 50


def test_record_types_have_english_names(ap):
    """Issue 31: Ante Portas' card halves were named by their type ids ('rhalf') in English
    (seed 000 "Esemény kártyák": a card's Roman and Carthaginian halves)."""
    assert ap.name_of("rhalf") == "Roman half of a card"
    assert ap.name_of("chalf") == "Carthaginian half of a card"
    assert ap.name_of("rhalf", "hu") == "római esemény"
