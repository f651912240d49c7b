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
from babel.messages.catalog import Catalog as Catalogue

from engine import i18n
from engine.core.errors import IllegalAction
from engine.core.loader import load_pack
from engine.frontends.terminal import render_log
from engine.i18n import catalogues, lazy_ntr, lazy_tr, ntr, tr
from engine.i18n.catalogues import (
    POT_PATH,
    CatalogueError,
    compiled_messages,
    forms,
    languages,
    messages_of,
    mo_bytes,
    mo_path,
    po_path,
    po_text,
    problems,
    read_catalogue,
    template,
)
from engine.i18n.translations import Catalog

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "tests" / "packs" / "tinygame"
WORD = re.compile(r"[^\W\d_]+")  # a word of letters (an id like t0_on_setup is one \w token)


def words(text: str) -> set[str]:
    """The words of a template, its placeholders left out."""
    return {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}


def without_babel_version(text: str) -> str:
    """A .po file's text but for the header line naming the Babel that wrote it."""
    return "".join(line for line in text.splitlines(True) if "Generated-By: Babel" not in line)


# ---- the catalogues ---------------------------------------------------------------------------
def test_a_catalogue_for_every_language_a_shipped_pack_declares():
    declared = set()
    for meta in (REPO / "content").glob("*/pack.yaml"):
        declared |= set(yaml.safe_load(meta.read_text(encoding="utf-8")).get("languages", []))
    assert declared - {"en"} <= set(languages())
    assert {"hu", "nl", "ru"} <= set(languages())


def test_the_template_lists_the_strings_marked_now():
    """engine.pot is what `python -m engine.i18n extract` writes from the source."""
    written = read_catalogue(POT_PATH)
    assert messages_of(written) == messages_of(template())
    assert without_babel_version(Path(POT_PATH).read_text(encoding="utf-8")) == \
        without_babel_version(po_text(template()))  # dated as it is while nothing changes


@pytest.mark.parametrize("lang", languages())
def test_every_marked_string_is_translated_with_the_same_placeholders(lang):
    assert problems(read_catalogue(po_path(lang)), template(), lang) == []


@pytest.mark.parametrize("lang", languages())
def test_committed_mo_is_the_compiled_po(lang):
    """engine.mo is what `python -m engine.i18n compile` writes from engine.po."""
    po = read_catalogue(po_path(lang))
    assert compiled_messages(Path(mo_path(lang)).read_bytes()) == compiled_messages(mo_bytes(po))
    assert without_babel_version(Path(po_path(lang)).read_text(encoding="utf-8")) == \
        without_babel_version(po_text(po))  # stable layout


def test_compiled_catalogue_reads_as_gettext_reads_it():
    """Babel's .mo files against the standard library's reader: plural forms included."""
    t = gettext.GNUTranslations(io.BytesIO(Path(mo_path("ru")).read_bytes()))
    assert [t.ngettext("{n} decision", "{n} decisions", n) for n in (1, 3, 5, 21)] == \
        ["{n} решение", "{n} решения", "{n} решений", "{n} решение"]
    assert [ntr("ru", "{n} turn", "{n} turns", n) for n in (1, 2, 11)] == \
        ["1 ход", "2 хода", "11 ходов"]


def test_problems_are_found():
    """The check behind the test above: untranslated, fuzzy, wrong placeholders, stale, no
    language."""
    pot = Catalogue()
    for msgid in ("{zone} shuffled", "yes", ("{n} card", "{n} cards")):
        pot.add(msgid)
    po = Catalogue(locale="de")
    po.add("{zone} shuffled", "{zona} gemischt")
    po.add(("{n} card", "{n} cards"), ("{n} Karte", ""))
    po.add("gone", "weg")
    found = "\n".join(problems(po, pot, "de"))
    assert "missing 'yes'" in found and "not translated: '{n} card'" in found
    assert "placeholders ['zona'], the source ['zone']" in found
    assert "'gone' is no longer marked" in found
    assert "no Language" not in found
    po["{n} card"].string = ("{n} Karte", "{n} Karten")
    po["{n} card"].flags.add("fuzzy")
    assert "not translated: '{n} card'" in "\n".join(problems(po, pot, "de"))
    assert "the header has no Language" in "\n".join(problems(Catalogue(), pot, "de"))


def test_po_files_read_back_as_written(tmp_path):
    po = Catalogue(locale="de")
    po.add('say "hi"\\', "line\nbreak", locations=[("engine/x.py", 3)],
           user_comments=["checked"], auto_comments=["for people"])
    path = tmp_path / "x.po"
    path.write_text(po_text(po), encoding="utf-8")
    assert "#: engine/x.py\n" in path.read_text(encoding="utf-8")  # no line numbers
    back = read_catalogue(str(path))
    assert back.locale_identifier == "de"
    message = back['say "hi"\\']
    assert forms(message) == ["line\nbreak"]
    assert message.user_comments == ["checked"] and message.auto_comments == ["for people"]
    path.write_text('msgid "a"\nmsgstr "b"\nmsg "c"\n', encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"x.po:3: Unknown or misformatted keyword$"):
        read_catalogue(str(path))


def test_extracting_the_marked_strings(tmp_path):
    """Every marker, its message's files and the `# i18n:` comment on the line before (for
    each marker on its line), markers inside f-strings too."""
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "m.py").write_text(
        "# i18n: the answers\n"
        "said = tr(lang, 'yes') if v else tr(lang, 'no')\n"
        "count = ntr(lang, '{n} card', '{n} cards', n)\n"
        "later = lazy_ntr('{n} turn', '{n} turns', n, side=lazy_tr('{side} wins', side=s))\n"
        "shown = f\"{tr(lang, 'none')} {N_('left')}\"\n", encoding="utf-8")
    (tmp_path / "engine" / "n.py").write_text("tr(lang, 'no')\n", encoding="utf-8")
    pot = catalogues.extract(str(tmp_path / "engine"))
    got = {m.id: (sorted(f for f, _line in m.locations), m.auto_comments) for m in pot if m.id}
    assert got == {
        "yes": (["engine/m.py"], ["the answers"]),
        "no": (["engine/m.py", "engine/n.py"], ["the answers"]),
        ("{n} card", "{n} cards"): (["engine/m.py"], []),
        ("{n} turn", "{n} turns"): (["engine/m.py"], []),
        "{side} wins": (["engine/m.py"], []),
        "none": (["engine/m.py"], []),
        "left": (["engine/m.py"], []),
    }


def test_a_marker_needs_a_literal_string(tmp_path):
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "m.py").write_text("text = 'x'\ntr(lang, text)\n", encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"engine/m.py:2: tr\(\) needs a literal string"):
        catalogues.extract(str(tmp_path / "engine"))


def test_a_language_is_merged_and_started(tmp_path, monkeypatch, capsys):
    """`extract` keeps a language's translations and adds new messages untranslated; `init`
    starts a language with Babel's plural rule for it."""
    pot = template()
    po = read_catalogue(po_path("nl"))
    del po["yes"]
    po.add("gone", "weg")
    assert catalogues.merged(po, pot) == (1, 1)
    assert forms(po["yes"]) == [""] and "gone" not in po
    assert po["no"].string == read_catalogue(po_path("nl"))["no"].string != ""
    monkeypatch.setattr(catalogues, "LOCALE_DIR", str(tmp_path))
    assert catalogues.main(["init", "pl"]) == 0
    started = read_catalogue(po_path("pl"))
    assert started.num_plurals == 3 and len(started) == len(pot)
    assert not any(catalogues.translated(m) for m in started if m.id)
    assert catalogues.main(["init", "pl"]) == 1  # not twice
    assert catalogues.main(["init", "qq"]) == 2  # a language Babel does not know
    assert "Babel does not know the language 'qq'" in capsys.readouterr().err


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

    def text(self, rid):  # a card's rules text is the pack's words too
        return self._noted(super().text(rid))

    def value(self, v):
        got = super().value(v)
        return self._noted(got) if isinstance(v, str) else got

    def render(self, entry):
        got = super().render(entry)
        return self._noted(got) if entry.get("t") in ("say", "event") else got


def _english_left(lines: list[str], cat: _Recording, lang: str) -> list[str]:
    """Lines with an English word of the engine's catalogue in them, once the pack's own
    texts are taken out: the words of the source strings that no translation uses."""
    pot = read_catalogue(POT_PATH)
    source = set().union(*(words(text) for m in pot if m.id
                           for text in ((m.id,) if isinstance(m.id, str) else m.id)))
    translated = set().union(*(words(form) for m in read_catalogue(po_path(lang)) if m.id
                               for form in forms(m)))
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
