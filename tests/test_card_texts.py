"""A record's rules text (a card's event): the English from the pack's `text`/`event` field of
type text or a translation file's `texts:`, the other languages from `texts:`, shown by
`engine cards --text`, in the terminal's cards section, and checked by `engine validate`."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.core.loader import load_pack
from engine.frontends.cli import main
from engine.frontends.terminal import render_view
from engine.i18n.translations import Catalog

RULES = """
type card:
    number: int
    event: text
type effect_card:
    event: text?
on setup:
    win red
"""

RECORDS = """
card:
  - {id: scouts, number: 1, name: Scouts, event: "Look at the top card of the deck."}
  - {id: levy, number: 2, name: Levy, event: "Raise two units."}
"""


def make(tmp: Path, *translations: tuple[str, str]) -> Path:
    """content/text_game (pack id `textg`) and its translation files; returns the pack dir."""
    root = write_pack_files(tmp / "content" / "text_game", RULES, RECORDS, pack_id="textg")
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write("languages: [en, nl]\n")
    folder = tmp / "content" / "translations"
    folder.mkdir()
    for name, text in translations:
        (folder / name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


NL = """
pack: textg
lang: nl
texts:
  scouts: {text: "Bekijk de bovenste kaart van de stapel.", source: "t"}
"""


def test_catalog_text_in_english_and_a_translation(tmp_path):
    pack = load_pack(make(tmp_path, ("textg.nl.yaml", NL)))
    en, nl = Catalog(pack, "en"), Catalog(pack, "nl")
    assert en.text("scouts") == "Look at the top card of the deck."
    assert nl.text("scouts") == "Bekijk de bovenste kaart van de stapel."
    assert nl.text("levy") == "Raise two units."  # no Dutch text: the English one
    assert en.text("red") == ""


def test_validate_flags_a_text_for_an_unknown_record(tmp_path, capsys):
    root = make(tmp_path, ("textg.nl.yaml", NL + '  scout: {text: "x", source: "t"}\n'))
    assert main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    where = root.parent / "translations" / "textg.nl.yaml"
    assert f"{where}:5:3: error[E501]: pack 'textg' has no record 'scout' to give a text" in out
    assert "did you mean 'scouts'?" in out


def test_validate_refuses_a_text_entry_without_text(tmp_path, capsys):
    root = make(tmp_path, ("textg.nl.yaml", "pack: textg\nlang: nl\ntexts:\n"
                           "  scouts: {name: \"x\", source: \"t\"}\n"))
    assert main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    assert "error[E503]: unknown key 'name' in a texts entry" in out


# ---- Hannibal -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def hannibal():
    return load_pack("hannibal")


def test_every_hannibal_card_has_an_english_text(hannibal):
    """seed 002, "Vertaling van de Operatie- en Gebeurteniskaarten" (64 strategy cards) and
    §11.4-§11.7 (the battle-card kinds)."""
    en = Catalog(hannibal, "en")
    cards = hannibal.by_type["strategy_card"]
    assert len(cards) == 64
    for rid in [*cards, *hannibal.by_type["battle_card"]]:
        assert len(en.text(rid)) > 20, rid
    assert "Reserve" in en.text("frontal_assault_03")
    assert "joker" in en.text("reserve_01")


def test_cards_command_shows_dutch_texts(capsys):
    assert main(["cards", "hannibal", "--text", "--lang", "nl", "--type",
                 "battle_card_type"]) == 0
    out = capsys.readouterr().out
    assert "Dubbele omsingeling" in out
    assert "wordt zonder dobbelen de aanvaller" in out
    assert main(["cards", "hannibal", "--text", "--lang", "nl", "--json", "--type",
                 "battle_card_type"]) == 0
    data = json.loads(capsys.readouterr().out)
    texts = {r["id"]: r["text"] for r in data["records"]}
    assert texts["reserve"].startswith("Joker")
    assert main(["cards", "hannibal", "--json", "--type", "battle_card_type"]) == 0
    assert "text" not in json.loads(capsys.readouterr().out)["records"][0]


def test_terminal_cards_section_shows_a_cards_text(hannibal):
    g = hannibal.new_game(1)
    side = next(s for s in hannibal.sides
                if any(isinstance(z, list) and z and isinstance(z[0], str)
                       and z[0] in hannibal.records
                       and hannibal.model.records[z[0]].type == "strategy_card"
                       for z in g.view(s)["zones"].values()))
    view = g.view(side)
    hand = next(z for z in view["zones"].values() if isinstance(z, list) and z
                and hannibal.model.records.get(z[0]) is not None
                and hannibal.model.records[z[0]].type == "strategy_card")
    cat = Catalog(hannibal, "en")
    text = " ".join(render_view(view, cat, board=hannibal.meta.get("board")).split())
    card = hand[0]
    assert cat.name(card) in text
    assert " ".join(cat.text(card).split()) in text


def test_a_view_in_a_language_gives_its_cards_texts(hannibal):
    g = hannibal.new_game(1)
    plain = g.view("rome")
    assert "texts" not in plain  # (a view without a language: what digests and saves see)
    view = g.view("rome", lang="nl")
    hand = [c for z in view["zones"].values() if isinstance(z, list) for c in z
            if hannibal.model.records.get(c) is not None
            and hannibal.model.records[c].type == "strategy_card"]
    assert hand
    cat = Catalog(hannibal, "nl")
    for card in hand:
        assert view["texts"][card] == cat.text(card)
    assert set(view["texts"]) <= set(view["names"])
@pytest.mark.parametrize("lang", ["nl", "ru"])
def test_every_hannibal_card_has_a_text_in_the_sources_languages(hannibal, lang):
    """seed 002's card list: every strategy card's event, in Dutch and Russian words of our
    own (Russian terms from seed 003), and every battle-card kind (seed 002 §11.4-§11.7)."""
    en, cat = Catalog(hannibal, "en"), Catalog(hannibal, lang)
    for rid in [*hannibal.by_type["strategy_card"], *hannibal.by_type["battle_card_type"]]:
        assert cat.own_text(rid) is not None, rid
        assert cat.text(rid) != en.text(rid), rid
    assert "ВЧ" in Catalog(hannibal, "ru").text("gallic_recruits")




# ---- Ante Portas (reconstructed texts: seed 000 prints no card list) ----------------------
def test_every_ante_portas_half_has_an_english_and_a_hungarian_text():
    pack = load_pack("ante_portas")
    en, hu = Catalog(pack, "en"), Catalog(pack, "hu")
    halves = [*pack.by_type["rhalf"], *pack.by_type["chalf"]]
    assert len(halves) == 38
    for rid in halves:
        assert en.own_text(rid), rid
        assert hu.own_text(rid) and hu.own_text(rid) != en.own_text(rid), rid
    assert en.text("trasimene_fog") == "Attached to the battle: the Roman infantry is halved."


def test_an_ante_portas_card_shows_both_halves_texts():
    pack = load_pack("ante_portas")
    card = next(c for c in pack.by_type["card"] if pack.records[c].get("carthaginian"))
    data = pack.records[card]
    for lang in ("en", "hu"):
        cat = Catalog(pack, lang)
        assert cat.text(card) == (f"{cat.name(data['roman'])}: {cat.text(data['roman'])} / "
                                  f"{cat.name(data['carthaginian'])}: "
                                  f"{cat.text(data['carthaginian'])}")
    one = next(c for c in pack.by_type["card"] if not pack.records[c].get("carthaginian"))
    en = Catalog(pack, "en")
    assert en.text(one) == en.text(pack.records[one]["roman"])  # one half: its text alone


def test_a_terminal_option_that_is_a_card_shows_its_text_below_it(hannibal):
    # seed 002 (Hannibal rules), §6: a strategy card is played for its event or its ops; the
    # person deciding reads each card's event (our words) under the option that plays it
    from engine.frontends.terminal import HumanPlayer, option_text
    g = hannibal.new_game(1)
    side = g.decider
    legal = g.view(side)["legal_actions"]
    card = next(a for a in legal if isinstance(a, str))
    shown: list[str] = []
    answers = iter(["1"])
    human = HumanPlayer(lang="nl", input=lambda _p: next(answers), output=shown.append)
    assert human.choose(g, side) == legal[0]
    cat = Catalog(hannibal, "nl")
    block = next(s for s in shown if s.startswith("  1) "))
    head, *under = block.split("\n")
    assert head.startswith(f"  1) {cat.name(card)}")
    assert under and all(line.startswith("       ") and line.strip() for line in under)
    assert " ".join(line.strip() for line in under) == " ".join(cat.text(card).split())
    assert option_text(card, cat) == cat.text(card) != Catalog(hannibal, "en").text(card)
    # an option that is no card (pass) has no text: one line
    none = next(s for s in shown if s.startswith(f"  {len(legal)}) "))
    assert None in legal and "\n" not in none and option_text(None, cat) == ""


def test_the_web_pages_screen_gives_card_texts_in_the_hand_options_and_log(hannibal):
    # seed 002 (Hannibal rules) §6: a strategy card is played for its event or its ops; the
    # server's screen (engine.frontends.serve.present) gives each card's text where it shows
    # the card: the hand's lines, an option that plays it, a log line that names it
    from types import SimpleNamespace

    from engine.frontends.serve.present import screen
    g = hannibal.new_game(1)
    side = g.decider
    table = SimpleNamespace(game=g, id="g", said={}, seats=dict.fromkeys(hannibal.sides, "person"),
                            tokens={}, pack_ref="hannibal")
    cat = Catalog(hannibal, "nl")
    got = screen(table, side, "nl")
    cards = got["board"][-1]
    hand = g.zone("hand", side)
    assert len(cards["texts"]) == len(cards["lines"])
    assert {cat.text(c) for c in hand} == {t for t in cards["texts"] if t}
    shown = dict(zip(cards["lines"], cards["texts"]))
    assert all(any(line.startswith(cat.name(c)) or f"× {cat.name(c)}" in line
                   and shown[line] == cat.text(c) for line in shown) for c in hand)
    options = got["decision"]["options"]
    card = options[0]["action"]
    assert options[0]["text"] == cat.text(card) and "text" not in options[-1]
    g.apply(card, side, got["decision"]["id"])
    for _ in range(10):  # on to where the log says how the card is played
        got = screen(table, side, "nl")
        if any(got["log_parts"]):
            break
        g.apply(g.legal_actions()[0])
    at = next(i for i, parts in enumerate(got["log_parts"]) if parts)
    parts = got["log_parts"][at]
    assert "".join(words for words, _ in parts) == got["log"][at]
    assert [cat.name(card), cat.text(card)] in parts
    assert all(parts[i][1] == "" for i in range(len(parts)) if parts[i][0] != cat.name(card))


def test_an_enum_value_offered_may_have_a_text(tmp_path, capsys):
    """What a card's use does (Ante Portas' `carthage_mode.march`): `texts:` of an enum's
    value, bare or named apart, validates, and is the option's text in the player's language
    (either key), else in English; a key that is neither a record nor an enum value is still
    E501."""
    rules = RULES + "enum use: keep, toss\n"
    root = write_pack_files(tmp_path / "content" / "text_game", rules, RECORDS, pack_id="textg")
    folder = tmp_path / "content" / "translations"
    folder.mkdir()
    (folder / "textg.en.yaml").write_text(
        'pack: textg\nlang: en\ntexts:\n  use.keep: {text: "Keep it.", source: "t"}\n'
        '  toss: {text: "Throw it away.", source: "t"}\n', encoding="utf-8")
    (folder / "textg.nl.yaml").write_text(
        'pack: textg\nlang: nl\ntexts:\n  keep: {text: "Houd hem.", source: "t"}\n',
        encoding="utf-8")
    assert main(["validate", str(root), "--quiet"]) == 0, capsys.readouterr().out
    pack = load_pack(root)
    en, nl = Catalog(pack, "en"), Catalog(pack, "nl")
    assert en.option_text("keep") == "Keep it."  # `use.keep` before the bare value
    assert nl.option_text("keep") == "Houd hem."  # the player's language first
    assert nl.option_text("toss") == "Throw it away."  # no Dutch text: the English one
    assert en.option_text("scouts") == en.text("scouts") and en.option_text("nothing") == ""
    (folder / "textg.nl.yaml").write_text(
        'pack: textg\nlang: nl\ntexts:\n  use.kept: {text: "x", source: "t"}\n',
        encoding="utf-8")
    assert main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    assert "pack 'textg' has no record 'use.kept' to give a text" in out
    assert "did you mean 'use.keep'?" in out
