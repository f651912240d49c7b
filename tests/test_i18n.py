"""The engine's own words in other languages (engine.i18n, engine/locale; issue 14): the
catalogues are complete and compiled, a game's log in Hungarian, Dutch or Russian has no
English engine word left, and an unknown language falls back to English."""
from __future__ import annotations

import gettext
import io
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from engine import i18n
from engine.core.errors import IllegalAction
from engine.core.loader import load_pack
from engine.frontends.terminal import render_log
from engine.i18n import (
    POT_PATH,
    Po,
    PoEntry,
    PoError,
    languages,
    lazy_ntr,
    lazy_tr,
    mo_bytes,
    mo_path,
    ntr,
    po_path,
    problems,
    read_po,
    template,
    tr,
    write_po,
)
from engine.i18n.translations import Catalog

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "tests" / "packs" / "tinygame"
WORD = re.compile(r"[^\W\d_]+")  # a word of letters (an id like t0_on_setup is one \w token)


def words(text: str) -> set[str]:
    """The words of a template, its placeholders left out."""
    return {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}


# ---- the catalogues ---------------------------------------------------------------------------
def test_a_catalogue_for_every_language_a_shipped_pack_declares():
    declared = set()
    for meta in (REPO / "content").glob("*/pack.yaml"):
        declared |= set(yaml.safe_load(meta.read_text(encoding="utf-8")).get("languages", []))
    assert declared - {"en"} <= set(languages())
    assert {"hu", "nl", "ru"} <= set(languages())


def test_the_template_lists_the_strings_marked_now():
    """engine.pot is what `python -m engine.i18n extract` writes from the source."""
    assert Path(POT_PATH).read_text(encoding="utf-8") == write_po(template())


@pytest.mark.parametrize("lang", languages())
def test_every_marked_string_is_translated_with_the_same_placeholders(lang):
    assert problems(read_po(po_path(lang)), template(), lang) == []


@pytest.mark.parametrize("lang", languages())
def test_committed_mo_is_the_compiled_po(lang):
    """engine.mo is what `python -m engine.i18n compile` writes from engine.po."""
    po = read_po(po_path(lang))
    assert Path(mo_path(lang)).read_bytes() == mo_bytes(po)
    assert Path(po_path(lang)).read_text(encoding="utf-8") == write_po(po)  # stable layout


def test_compiled_catalogue_reads_as_gettext_reads_it():
    """Our .mo writer against the standard library's reader: plural forms included."""
    t = gettext.GNUTranslations(io.BytesIO(Path(mo_path("ru")).read_bytes()))
    assert [t.ngettext("{n} decision", "{n} decisions", n) for n in (1, 3, 5, 21)] == \
        ["{n} решение", "{n} решения", "{n} решений", "{n} решение"]
    assert [ntr("ru", "{n} turn", "{n} turns", n) for n in (1, 2, 11)] == \
        ["1 ход", "2 хода", "11 ходов"]


def test_problems_are_found():
    """The check behind the test above: untranslated, fuzzy, wrong placeholders, stale."""
    pot = Po(i18n.POT_HEADER, [PoEntry("{zone} shuffled"), PoEntry("yes"),
                               PoEntry("{n} card", "{n} cards", msgstr_plural=["", ""])])
    po = Po(i18n.POT_HEADER + "Language: xx\nPlural-Forms: nplurals=2; plural=(n != 1);\n", [
        PoEntry("{zone} shuffled", msgstr="{zona} gemischt"),
        PoEntry("{n} card", "{n} cards", msgstr_plural=["{n} Karte", ""]),
        PoEntry("gone", msgstr="weg")])
    found = "\n".join(problems(po, pot, "xx"))
    assert "missing 'yes'" in found and "not translated: '{n} card'" in found
    assert "placeholders ['zona'], the source ['zone']" in found
    assert "'gone' is no longer marked" in found
    po.entries[1].msgstr_plural = ["{n} Karte", "{n} Karten"]
    po.entries[1].flags = ["fuzzy"]
    assert "not translated: '{n} card'" in "\n".join(problems(po, pot, "xx"))


def test_po_files_read_back_as_written(tmp_path):
    e = PoEntry('say "hi"\\', msgstr="line\nbreak")
    e.comments, e.extracted, e.references = ["checked"], ["for people"], ["engine/x.py"]
    path = tmp_path / "x.po"
    path.write_text(write_po(Po("Language: xx\n", [e])), encoding="utf-8")
    back = read_po(str(path))
    assert back.header == "Language: xx\n"
    assert (back.entries[0].msgid, back.entries[0].msgstr) == ('say "hi"\\', "line\nbreak")
    assert back.entries[0].comments == ["checked"] and back.entries[0].extracted == ["for people"]
    path.write_text('msgid "a"\nmsgstr "b\\q"\n', encoding="utf-8")
    with pytest.raises(PoError, match=r"x.po:2: unknown escape"):
        read_po(str(path))


def test_a_marker_needs_a_literal_string(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "m.py").write_text("text = 'x'\ntr(lang, text)\n", encoding="utf-8")
    with pytest.raises(PoError, match=r"engine/m.py:2: tr\(\) needs a literal string"):
        i18n.extract(str(tmp_path / "engine"))


# ---- at run time ------------------------------------------------------------------------------
def test_unknown_language_falls_back_to_english():
    assert isinstance(i18n.translator("xx"), gettext.NullTranslations)
    assert tr("xx", "{zone} shuffled", zone="deck") == "deck shuffled"
    assert ntr("xx", "{n} turn", "{n} turns", 2) == "2 turns"
    assert tr("hu", "a message no catalogue has") == "a message no catalogue has"
    assert tr("pt-BR", "yes") == "yes"
    pack = load_pack(TINY)
    game = pack.new_game(3)
    rnd = random.Random(3)
    while not game.over:
        game.apply(game.random_action(rnd))
    assert render_log(game.log, Catalog(pack, "xx")) == render_log(game.log, Catalog(pack, "en"))


def test_unknown_language_on_the_command_line(capsys):
    from engine.frontends.cli import main
    assert main(["play", str(TINY), "--seed", "3", "--lang", "xx"]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("result: ")


def test_result_line_in_the_language(capsys):
    from engine.frontends.cli import main
    assert main(["play", str(TINY), "--seed", "3", "--lang", "ru"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last.startswith("итог: ") and "зерно 3" in last, last
    assert main(["play", str(TINY), "--seed", "3", "--lang", "hu", "--max-decisions", "1"]) == 0
    last = capsys.readouterr().out.rstrip().splitlines()[-1]
    assert last == "leállítva 1 döntés után (--max-decisions), véletlenmag: 3"


def test_refused_action_in_a_language():
    """A Game's IllegalAction is English as text and in the catalogue's language by
    `.text(lang)`, its parts (the options, counted by plural forms) translated too."""
    pack = load_pack(TINY)
    game = pack.new_game(3)
    with pytest.raises(IllegalAction) as err:
        game.validate("no such option")
    english = str(err.value)
    assert "is not one of the" in english and err.value.text("en") == english
    assert "nem tartozik ezek közé" in err.value.text("hu")
    assert err.value.text("xx") == english
    m = lazy_tr("{action} is not one of {options}", action="'x'",
                options=lazy_ntr("the {n} option (give side= to see it listed)",
                                 "the {n} options (give side= to see them listed)", 5))
    assert m.text("ru") == "'x' не входит в 5 вариантов (передайте side=, чтобы увидеть их)"
    assert str(m) == "'x' is not one of the 5 options (give side= to see them listed)"


def test_help_stays_light():
    """`engine --help` reads no catalogue (start-up time; argparse imports gettext itself,
    engine.i18n reads a catalogue only when a language other than English is used)."""
    code = ("import sys, engine.frontends.cli; engine.frontends.cli.build_parser().format_help(); "
            "print([m for m in ('engine.i18n', 'engine.i18n.translations') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, check=True).stdout
    assert out.strip() == "[]"


# ---- a whole game's log -----------------------------------------------------------------------
class _Recording(Catalog):
    """The pack's catalog, noting every text the pack supplies (names, terms, its sentences,
    raw ids), so that what is left of a line is the engine's own words."""

    def __init__(self, pack, lang):
        super().__init__(pack, lang)
        self.from_pack: set[str] = set()

    def _noted(self, text):
        self.from_pack.add(str(text))
        return text

    def name(self, rid):
        return self._noted(super().name(rid))

    def term(self, tid):
        return self._noted(super().term(tid))

    def value(self, v):
        got = super().value(v)
        return self._noted(got) if isinstance(v, str) else got

    def render(self, entry):
        got = super().render(entry)
        return self._noted(got) if entry.get("t") in ("say", "event") else got


def _english_left(lines: list[str], cat: _Recording, lang: str) -> list[str]:
    """Lines with an English word of the engine's catalogue in them, once the pack's own
    texts are taken out: the words of the source strings that no translation uses."""
    pot = read_po(POT_PATH)
    source = set().union(*(words(e.msgid) | words(e.msgid_plural or "") for e in pot.entries))
    translated = set().union(*(words(f) for e in read_po(po_path(lang)).entries
                               for f in e.forms))
    english = source - translated
    assert {"shuffled", "chose", "winner"} <= english
    out = []
    for line in lines:
        rest = line
        for text in sorted(cat.from_pack, key=len, reverse=True):
            if text:
                rest = rest.replace(text, " ")
        left = {w.lower() for w in re.findall(r"\w+", rest)} & english
        if left:
            out.append(f"{line!r}: {sorted(left)}")
    return out


def _played(pack_name: str, seed: int, decisions: int):
    pack = load_pack(pack_name)
    game = pack.new_game(seed)
    rnd = random.Random(seed)
    while not game.over and len(game.actions) < decisions:
        game.apply(game.random_action(rnd))
    return pack, game


@pytest.mark.parametrize("pack_name, lang, seed, decisions, said", [
    ("ante_portas", "hu", 1, 100_000, ["megkeverve", "választása:", "vége a játéknak"]),
    ("hannibal", "nl", 1, 300, ["geschud", " koos ", "gegooid: "]),
    ("hannibal", "ru", 2, 300, ["перемешано: ", " выбирает: ", "бросок: ", "в игру вводится"]),
])
def test_a_game_log_has_no_english_engine_word(pack_name, lang, seed, decisions, said):
    """A seeded game rendered as the terminal renders it (every entry, rule traces too) in a
    pack's language: no word of the engine's source English is left."""
    pack, game = _played(pack_name, seed, decisions)
    cat = _Recording(pack, lang)
    lines = render_log(game.log, cat, trace=True)
    assert _english_left(lines, cat, lang) == []
    text = "\n".join(lines)
    for phrase in said:  # the engine's words were there to translate
        assert phrase in text, phrase
    english = _Recording(pack, "en")
    # the check bites
    assert _english_left(render_log(game.log, english, trace=True), english, lang)


# ---- a whole game at the terminal --------------------------------------------------------------
def _at_the_terminal(pack_name: str, lang: str, seed: int, decisions: int, every: int,
                     monkeypatch) -> tuple[list[str], _Recording]:
    """What a person playing in `lang` reads at the terminal in a seeded random game: every
    `every` decisions, the decider's screen, question and options, and the answers to a
    wrong number, `u` (nothing to undo), `s` without a file, `?` and `l` (paged, with its
    prompt); at the end, each side's last screen and its whole log."""
    from engine.frontends.terminal import HumanPlayer, QuitGame, human, render_log, render_view
    pack = load_pack(pack_name)
    cat = _Recording(pack, lang)
    cat._noted(pack.name)
    monkeypatch.setattr(human, "seat_catalog", lambda _game, _lang: cat)
    game = pack.new_game(seed, undo=False)
    rnd = random.Random(seed)
    shown: list[str] = []
    board = pack.meta.get("board")
    sentences = (board or {}).get("log") == "sentences"

    def answer(prompt: str) -> str:
        shown.append(prompt)
        return next(answers)

    while not game.over and len(game.actions) < decisions:
        if len(game.actions) % every == 0:
            d = game.decision
            if d.prompt:  # the rules' question: the pack's words (translated or not)
                text = cat.message(d.prompt) or d.prompt
                cat._noted(text.format(*[cat.value(a) for a in d.args]) if d.args else text)
            answers = iter(["x", "u", "s", "?", "l", "", "q", "q"])
            seat = HumanPlayer(lang, input=answer, output=shown.append, height=5)
            with pytest.raises(QuitGame):
                seat.choose(game, d.side)
        game.apply(game.random_action(rnd))
    for side in pack.sides:
        view = game.view(side)
        shown.append(render_view(view, cat, board=board))
        shown.extend(render_log(view["log"], cat, sentences=sentences))
    # each text on one line: a name wrapped over two lines is still found as the pack's
    return [" ".join(text.split()) for text in shown], cat


@pytest.mark.parametrize("pack_name, lang, seed, decisions, every, said", [
    ("ante_portas", "hu", 3, 100_000, 5, ["legutóbbi döntésed óta:", "parancsok:", "lap (rejtve)",
                                        "nincs mit visszavonni", "-- tovább: ", "eredmény: "]),
    ("hannibal", "nl", 1, 300, 25, ["sinds je laatste beslissing:", "landkaart:", "commando's:",
                                    "geef een getal van 1 tot en met"]),
    ("hannibal", "ru", 2, 300, 25, ["после вашего последнего решения:", "на карте:",
                                    "команды:", "введите число от 1 до"]),
])
def test_the_terminal_has_no_english_engine_word(pack_name, lang, seed, decisions, every, said,
                                                 monkeypatch):
    """engine.frontends.terminal in a pack's language: the screens (board, map, cards, the log
    since the last decision), the questions and options, the prompt's hints and answers, the help,
    the pager and the result hold no word of the engine's source English."""
    lines, cat = _at_the_terminal(pack_name, lang, seed, decisions, every, monkeypatch)
    assert _english_left(lines, cat, lang) == []
    text = "\n".join(lines)
    for phrase in said:
        assert phrase in text, phrase
    if pack_name == "ante_portas":  # the whole game, to its end
        assert "eredmény: " in text and "győzött" in text
        english, en_cat = _at_the_terminal(pack_name, "en", seed, decisions, every, monkeypatch)
        assert len(_english_left(english, en_cat, lang)) > 20  # the check bites


def test_a_result_without_a_reason_says_who_won_and_no_more():
    """A rule that ends the game without a reason (`win red`): "red wins", never "(rule)";
    the terminal's result line and the command line's say it alike (Catalog.outcome)."""
    from engine.frontends.terminal import render_view
    pack = load_pack(TINY)
    side = pack.sides[0]
    view = {"pack": pack.id, "side": None, "log": [{"t": "end", "winner": side}],
            "result": {"winner": side, "reason": "rule"}}
    for lang, head in (("en", "result: "), ("hu", "eredmény: "), ("ru", "итог: ")):
        cat = Catalog(pack, lang)
        assert cat.reason("rule", view["log"]) == ""
        line = render_view(view, cat).splitlines()[-1]
        assert line == head + tr(lang, "{side} wins", side=cat.value(side)), line
    cat = Catalog(pack, "nl")
    assert cat.outcome(None, cat.reason("no rule left to run")) == \
        "geen winnaar (geen regel meer om uit te voeren)"
    assert cat.outcome(None, "") == "geen winnaar"
