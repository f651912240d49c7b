"""Plural choices in a pack's sentences: `{n:# CU|# CUs}` in a prompt, a log text or a win
reason chooses the form its count needs (docs/language.md, "Plural forms"), in the rules'
English and in a translation with the forms of its language (Russian three)."""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from engine.dsl.build import build_pack
from engine.dsl.errors import render_text
from engine.dsl.parser import numbered_template, plural_choice, split_template
from engine.i18n import plural_form, plural_forms
from engine.i18n.translations import Catalog, PackInfo, check_translations, read_translation
from engine.i18n.translations.sentences import Count, numbered_text

RULES = """
var left: int = 1
on setup:
    repeat 2:
        log "{left:# movement point|# movement points} left, {left} {left:CU|CUs}"
        let _go = ask red "March {left:# space|# spaces}?"
        left = left + 1
    win red, "red holds {left:# city|# cities}"
"""

SENTENCE = "{left:# movement point|# movement points} left, {left} {left:CU|CUs}"


def diags(b: Any, code: str) -> list[Any]:
    return [d for d in b.diagnostics if d.code == code]


def one(b: Any, code: str) -> Any:
    found = diags(b, code)
    assert found, f"no {code} in:\n{render_text(b.diagnostics)}"
    return found[0]


def test_the_choice_is_split_from_its_expression():
    assert plural_choice("left:# point|# points") == ("left", "# point|# points")
    assert plural_choice("f(\"a:b\")") == ("f(\"a:b\")", None)  # a colon in a string
    assert plural_choice("count(xs where (x: int) => x > 1)") == (
        "count(xs where (x: int) => x > 1)", None)  # a typed lambda's colon
    assert plural_choice("x") == ("x", None)
    parts = split_template("{l} with {n:# CU|# CUs}, {{braces}}")
    assert numbered_template(parts) == "{0} with {1:# CU|# CUs}, {{braces}}"


def test_a_template_without_a_choice_numbers_as_before():
    parts = split_template("{l} marches to {dest} ({count(xs where (x: int) => x > 1)})")
    assert numbered_template(parts) == "{0} marches to {1} ({2})"


def test_a_sentence_chooses_its_form_for_1_and_2(inline_pack):
    pack = inline_pack(RULES)
    g = pack.new_game(0)
    says = [e for e in g.log if e["t"] == "say"]
    assert says[0]["m"] == "{0:# movement point|# movement points} left, {1} {2:CU|CUs}"
    assert says[0]["a"] == [1, 1, 1]
    cat = Catalog(pack, "en", dirs=[])
    assert cat.render(says[0]) == "1 movement point left, 1 CU"
    assert g.decision.prompt == "March {0:# space|# spaces}?" and g.decision.args == [1]
    march = g.decision.prompt
    assert march.format(cat.value(1)) == "March 1 space?"
    g.apply(True)
    says = [e for e in g.log if e["t"] == "say"]
    assert cat.render(says[1]) == "2 movement points left, 2 CUs"
    assert march.format(*map(cat.value, g.decision.args)) == "March 2 spaces?"
    g.apply(False)
    assert g.result is not None
    end = g.log[-1]
    assert cat.reason(None, g.log) == "red holds 3 cities"
    assert end["m"] == "red holds {0:# city|# cities}"


def test_the_terminal_fills_a_prompt_with_a_choice(inline_pack):
    from engine.frontends.terminal import describe_decision
    pack = inline_pack(RULES)
    g = pack.new_game(0)
    assert describe_decision(g.view("red")["decision"], Catalog(pack, "en", dirs=[])) == \
        "red: March 1 space?"


def test_the_plural_rules_come_from_gettext_data():
    """engine.i18n's catalogues carry gettext's Plural-Forms: Russian has three forms."""
    assert plural_forms("en") == plural_forms("nl") == plural_forms("hu") == 2
    assert plural_forms("ru") == 3
    assert [plural_form("ru", n) for n in (1, 2, 5, 11, 21, 22, 25, 0)] == [
        0, 1, 2, 2, 0, 1, 2, 2]
    assert [plural_form("en", n) for n in (0, 1, 2)] == [1, 0, 1]
    assert plural_forms("xx") == 2 and plural_form("xx", 1) == 0  # no catalogue: one/other


def test_a_count_shows_the_form_of_its_language():
    ru = "{0:# очко|# очка|# очков}"
    assert [ru.format(Count(n, "ru")) for n in (1, 2, 5)] == ["1 очко", "2 очка", "5 очков"]
    # an English choice shown in a Russian game (no translation): one for 1, the other else
    en = "{0:# point|# points}"
    assert [en.format(Count(n, "ru")) for n in (1, 2, 5)] == ["1 point", "2 points",
                                                              "5 points"]
    assert "{0}/{0:>3}".format(Count(7, "en")) == "7/  7"
    import copy
    import pickle
    for c in (copy.deepcopy(Count(5, "ru")), pickle.loads(pickle.dumps(Count(5, "ru")))):
        assert ru.format(c) == "5 очков" and c == "5"


def write_ru(root: Path, text: str) -> Path:
    d = root / "translations"
    d.mkdir(exist_ok=True)
    p = d / "inline.ru.yaml"
    p.write_text(textwrap.dedent(f"""\
        pack: inline
        lang: ru
        messages:
          "{SENTENCE}": {{text: "{text}", source: "test"}}
        """), encoding="utf-8")
    return d


def test_a_russian_translation_gives_three_forms(inline_pack, tmp_path):
    pack = inline_pack(RULES)
    d = write_ru(tmp_path, "осталось {left:# очко|# очка|# очков} движения, "
                           "{left:# КЧ|# КЧ|# КЧ}")
    assert check_translations([read_translation(d / "inline.ru.yaml")],
                              {"inline": PackInfo.of(pack)}) == []
    cat = Catalog(pack, "ru", dirs=[d])
    key = "{0:# movement point|# movement points} left, {1} {2:CU|CUs}"
    got = [cat.render({"t": "say", "m": key, "a": [n, n, n]}) for n in (1, 2, 5)]
    assert got == ["осталось 1 очко движения, 1 КЧ", "осталось 2 очка движения, 2 КЧ",
                   "осталось 5 очков движения, 5 КЧ"]
    assert numbered_text("{left:# a|# b|# c}", SENTENCE) == "{0:# a|# b|# c}"


def test_a_translation_with_a_bad_choice_is_e506(inline_pack, tmp_path):
    pack = inline_pack(RULES)
    info = {"inline": PackInfo.of(pack)}
    for text, message in [
        ("{left:# очко|# очков} движения", "2 plural form(s) where the language 'ru' needs 3"),
        ("{left:# очко||# очков}", "an empty plural form"),
    ]:
        d = write_ru(tmp_path, text)
        found = check_translations([read_translation(d / "inline.ru.yaml")], info)
        assert [x.code for x in found] == ["E506"], found
        assert message in found[0].message, found[0].message
        assert found[0].line == 4
    # the first placeholder {left} of the sentence is shown as it is, not counted by
    sentence = "{left} {left:CU|CUs}"
    rules = RULES.replace(SENTENCE, sentence)
    pack = inline_pack(rules)
    d = tmp_path / "translations"
    (d / "inline.ru.yaml").write_text(textwrap.dedent(f"""\
        pack: inline
        lang: ru
        messages:
          "{sentence}": {{text: "{{left:# a|# b|# c}} {{left}}", source: "test"}}
        """), encoding="utf-8")
    found = check_translations([read_translation(d / "inline.ru.yaml")],
                               {"inline": PackInfo.of(pack)})
    assert [x.code for x in found] == ["E506"]
    assert "a plural choice on {0}, which the sentence does not count by: choose a plural " \
           "on {1}" in found[0].message


def test_bad_choices_in_the_rules_are_located(write_pack):
    line = '        log "{left:# movement point|# movement points} left, {left} {left:CU|CUs}"'
    cases = [
        ("{left:# point}", "1 plural form(s) where the rules' English needs 2", "# point}"),
        ("{left:# point|# points|# pointz}", "3 plural form(s) where the rules' English needs 2",
         "# point|"),
        ("{left:# point|}", "an empty plural form", "# point|}"),
        ("{:# point|# points}", "needs the count it chooses by", ":# point"),
    ]
    for choice, message, at in cases:
        rules = RULES.replace("{left:# movement point|# movement points}", choice)
        b = build_pack(write_pack(rules))
        d = one(b, "E285")
        assert message in d.message, (choice, d.message)
        text = line.replace("{left:# movement point|# movement points}", choice)
        assert d.line == 4 and d.col == text.index(at) + 1, (choice, d.col)
    # the count must be a number: E220 at the expression, in its place in the string
    b = build_pack(write_pack(RULES.replace("{left:CU|CUs}", "{red:CU|CUs}")))
    d = one(b, "E220")
    assert "the count of a plural choice must be int" in d.message
    assert (d.line, d.col) == (4, line.index("{left:CU|CUs}") + 2)


# ---- the packs' sentences ----------------------------------------------------------------
MOVE = "{0} in {1} with {2:# CU|# CUs}, {3:# movement point|# movement points} left: what next?"


def _pack(name: str) -> Any:
    from engine.core.loader import load_pack
    return load_pack(Path(__file__).resolve().parent.parent / "content" / name)


def test_hannibals_sentences_agree_with_their_counts():
    """Hannibal's move prompt (seed 002 §8: a leader's movement points) and the battle's loss
    line (seed 002 §11.9) say "1 CU", "1 movement point", "1 round"; Russian (seed 003
    "Движение (стр. 12)") gives three forms."""
    from engine.frontends.terminal import describe_decision
    pack = _pack("hannibal")
    en, ru = Catalog(pack, "en"), Catalog(pack, "ru")
    d = {"kind": "one", "side": "carthage", "prompt": MOVE, "args": ["hannibal", "saguntum"]}
    shown = [describe_decision({**d, "args": [*d["args"], n, n]}, en) for n in (1, 2)]
    assert shown == ["Carthage: Hannibal in Saguntum with 1 CU, 1 movement point left: what next?",
                     "Carthage: Hannibal in Saguntum with 2 CUs, 2 movement points left: "
                     "what next?"]
    got = [describe_decision({**d, "args": [*d["args"], 4, n]}, ru) for n in (1, 2, 5)]
    assert [g.split(", ")[-1] for g in got] == [
        "осталось 1 очко передвижения. Что дальше?", "осталось 2 очка передвижения. Что дальше?",
        "осталось 5 очков передвижения. Что дальше?"]
    nl = Catalog(pack, "nl")
    got = [describe_decision({**d, "args": [*d["args"], 4, n]}, nl) for n in (1, 2)]
    assert [g.split(", ")[-1] for g in got] == ["nog 1 bewegingspunt: wat nu?",
                                                "nog 2 bewegingspunten: wat nu?"]
    loss = "After {0:# round|# rounds} of battle, one die roll sets both sides' losses: {1}"
    assert [en.render({"t": "say", "m": loss, "a": [n, 4]}) for n in (1, 2)] == [
        "After 1 round of battle, one die roll sets both sides' losses: 4",
        "After 2 rounds of battle, one die roll sets both sides' losses: 4"]
    pcs = "{0}: {1:# political point|# political points} behind, remove that many PCs"
    assert [ru.render({"t": "say", "m": pcs, "a": ["rome", n]}) for n in (1, 2, 5)] == [
        f"{ru.value('rome')}: отставание на {n} политическ{e}; снимите столько же ПК"
        for n, e in ((1, "ое очко"), (2, "их очка"), (5, "их очков"))]


def test_ante_portas_says_one_round():
    """Ante Portas ends after its last round (seed 000, "Győzelem"): "After 1 round"."""
    pack = _pack("ante_portas")
    en, hu = Catalog(pack, "en"), Catalog(pack, "hu")
    end = {"t": "say", "m": "After {0:# round|# rounds} Hannibal's campaign is spent"}
    assert [en.render({**end, "a": [n]}) for n in (1, 2)] == [
        "After 1 round Hannibal's campaign is spent",
        "After 2 rounds Hannibal's campaign is spent"]
    assert hu.render({**end, "a": [2]}) == "2 kör után Hannibál hadjárata kifulladt"
    battle = {"t": "say", "m": "Battle at {0}: Rome {1} infantry, {2} cavalry; Hannibal "
              "{3:# card|# cards}"}
    assert [en.render({**battle, "a": ["roma", 3, 2, n]}).rsplit("; ", 1)[1] for n in (1, 2)] \
        == ["Hannibal 1 card", "Hannibal 2 cards"]
    assert hu.render({**battle, "a": ["roma", 3, 2, 1]}).endswith("Hannibál 1 lap")


def test_the_formatter_keeps_a_plural_choice():
    from engine.dsl.formatter import format_source
    src = format_source(textwrap.dedent(RULES).lstrip("\n"))
    assert f'log "{SENTENCE}"' in src and format_source(src) == src
