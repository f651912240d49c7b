"""Translations split into parts, strict term ids, coverage, derived names (`names_from`),
disagreeing sources (`disagree:`) and the event log in other languages."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.frontends.cli import main

RULES = """
type city:
    x: int = 0
type road:
    a: city
    b: city
    cost: int = 1
type term_card
var at: city = north
event march(s: side, to: city)

on setup:
    emit march(red, south)
    let c = choose c from city by blue prompt "Where?"
    log "{0} takes {1}", blue, c
    win red
"""

RECORDS = """
city:
  - {id: north, name: North}
  - {id: south, name: South}
  - {id: east}
road:
  - {id: north_south, a: north, b: south}
  - {id: south_east, a: south, b: east}
  - {id: east_north, a: east, b: north, name: "The Old Road"}
term_card:
  - {id: ops_card}
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def make_content(tmp: Path, meta: str = "", records: str = RECORDS) -> Path:
    """content/map_game (pack id `mapg`) with extra pack.yaml lines; returns the pack dir."""
    root = write_pack_files(tmp / "content" / "map_game", RULES, records, pack_id="mapg")
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write("languages: [en, nl, ru]\n" + textwrap.dedent(meta))
    (tmp / "content" / "translations").mkdir(exist_ok=True)
    return root


def tr(root: Path, name: str, text: str) -> Path:
    return write(root.parent / "translations" / name, text)


NL_MAP = """
    pack: mapg
    lang: nl
    names:
      north: {name: "Noord", source: "t"}
      south: {name: "Zuid", source: "t"}
      east: {name: "Oost", source: "t"}
"""
NL_RULES = """
    pack: mapg
    lang: nl
    terms:
      red: {name: "Rood", source: "t"}
      blue: {name: "Blauw", source: "t"}
      at: {name: "positie", source: "t"}
      ops_card: {name: "OK-kaart", source: "t"}
    messages:
      march: {text: "{0} marcheert naar {1}", source: "t"}
      "{0} takes {1}": {text: "{0} neemt {1}", source: "t"}
"""
RU_MAP = """
    pack: mapg
    lang: ru
    names:
      north: {name: "Север", source: "t"}
      south: {name: "Юг", source: "t"}
"""
RU_RULES = """
    pack: mapg
    lang: ru
    terms:
      red: {name: "Красные", source: "t"}
      blue: {name: "Синие", source: "t"}
    messages:
      march: {text: "{0} идут на {1}", source: "t"}
      "{0} takes {1}": {text: "{0} берут {1}", source: "t"}
"""


@pytest.fixture
def parts(tmp_path):
    """The pack with nl and ru translations, each split into a map part and a rules part."""
    root = make_content(tmp_path, "names_from: {road: [a, b]}\n")
    tr(root, "mapg.map.nl.yaml", NL_MAP)
    tr(root, "mapg.rules.nl.yaml", NL_RULES)
    tr(root, "mapg.map.ru.yaml", RU_MAP)
    tr(root, "mapg.rules.ru.yaml", RU_RULES)
    return root


def load(root: Path):
    from engine.core.loader import load_pack
    return load_pack(root)


# ---- parts -------------------------------------------------------------------------------------
def test_parts_validate_clean(parts, capsys):
    assert main(["validate", str(parts)]) == 0
    out = capsys.readouterr().out
    assert "checked 1 pack, 7 files: ok" in out


def test_event_log_in_other_languages_with_parts(parts):
    from engine.i18n.translations import Catalog
    pack = load(parts)
    game = pack.new_game(1)
    game.apply("east")
    assert game.over
    nl, ru = Catalog(pack, "nl"), Catalog(pack, "ru")
    nl_log = [nl.render(e) for e in game.log]
    ru_log = [ru.render(e) for e in game.log]
    assert "Rood marcheert naar Zuid" in nl_log
    assert "Blauw koos Oost" in nl_log and "Blauw neemt Oost" in nl_log
    assert "einde van het spel: Rood wint" in nl_log  # the engine's words: engine/locale
    assert "Красные идут на Юг" in ru_log
    assert "Синие берут east" in ru_log  # no Russian or English name: the id
    assert "игра окончена: побеждает Красные" in ru_log


def test_terms_command_reads_every_part(parts, capsys):
    assert main(["terms", str(parts), "--lang", "nl", "--json"]) == 0
    terms = {t["id"]: t["name"] for t in json.loads(capsys.readouterr().out)["terms"]}
    assert terms == {"at": "positie", "blue": "Blauw", "ops_card": "OK-kaart", "red": "Rood"}
    assert main(["terms", str(parts), "--lang", "ru", "--json"]) == 0
    terms = {t["id"]: t["name"] for t in json.loads(capsys.readouterr().out)["terms"]}
    # ids of every language; untranslated ones fall back to English, then the id
    assert terms == {"at": "at", "blue": "Синие", "ops_card": "ops_card", "red": "Красные"}


def test_same_key_in_two_parts_is_an_error(parts, capsys):
    second = tr(parts, "mapg.zz.nl.yaml", """
        pack: mapg
        lang: nl
        names:
          south: {name: "Zuiden", source: "t"}
        terms:
          north: {name: "Noorden", source: "t"}
          red: {name: "rood", source: "t"}
    """)
    # the same keys in another language, or in another section, are no clash
    tr(parts, "mapg.zz.ru.yaml", """
        pack: mapg
        lang: ru
        names:
          east: {name: "Восток", source: "t"}
    """)
    assert main(["validate", str(parts)]) == 1
    out = capsys.readouterr().out
    first = parts.parent / "translations" / "mapg.map.nl.yaml"
    assert (f"{second}:4:3: error[E509]: 'south' is given twice in names of mapg (nl): first "
            f"in {first}:5:3") in out
    rules = parts.parent / "translations" / "mapg.rules.nl.yaml"
    assert (f"{second}:7:3: error[E509]: 'red' is given twice in terms of mapg (nl): first in "
            f"{rules}:4:3") in out
    assert "  7 |   red:" in out and "^^^" in out
    assert out.count("E509") == 2  # 'north' as a term beside 'north' as a name is fine


def test_catalog_reads_parts_first_file_wins(parts):
    from engine.i18n.translations import Catalog
    pack = load(parts)
    cat = Catalog(pack, "nl")
    assert cat.name("north") == "Noord" and cat.term("red") == "Rood"
    assert cat.has_language() and not Catalog(pack, "hu").has_language()


# ---- strict terms -------------------------------------------------------------------------------
def test_a_syntax_error_causes_no_follow_on_translation_errors(parts, capsys):
    """A rule that does not parse hides the messages and names it declares: the translations
    that use them are not reported as unknown (issue 14), only the syntax error is."""
    rules = parts / "rules.rules"
    text = rules.read_text(encoding="utf-8")
    rules.write_text(text.replace('log "{0} takes {1}", blue, c', 'log "{0} takes {1}" +'),
                     encoding="utf-8")
    assert main(["validate", str(parts)]) == 1
    out = capsys.readouterr().out
    assert "rules.rules:14:25: error[E100]" in out
    assert out.count("error[") == 1, out
    assert "(in part: some of the pack's files could not be read)" in out


def test_terms_must_be_rules_names_or_record_ids(tmp_path, capsys):
    root = make_content(tmp_path)
    t = tr(root, "mapg.nl.yaml", """
        pack: mapg
        lang: nl
        terms:
          march: {name: "mars", source: "t"}
          city: {name: "stad", source: "t"}
          cost: {name: "kosten", source: "t"}
          red: {name: "rood", source: "t"}
          setup: {name: "opzet", source: "t"}
          ops_card: {name: "OK", source: "t"}
          marsh: {name: "moeras", source: "t"}
          combat_unit: {name: "GE", source: "t"}
    """)
    assert main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"{t}:10:3: error[E508]: unknown term 'marsh' in pack 'mapg'" in out
    assert "did you mean 'march'?" in out
    assert f"{t}:11:3: error[E508]: unknown term 'combat_unit' in pack 'mapg'" in out
    assert out.count("E508") == 2


# ---- coverage -----------------------------------------------------------------------------------
def test_coverage_counts_terms_and_derived_names(parts, capsys):
    # 7 records. en: north, south, east_north (name:), north_south (derived from named
    # cities) = 4; south_east is not: east has no English name.
    # nl: 3 cities, ops_card (terms:), 3 roads derived = 7. ru: 2 cities + north_south = 3.
    assert main(["validate", str(parts)]) == 0
    out = capsys.readouterr().out
    assert "note[N510]: translation coverage mapg: en 57%, nl 100%, ru 42%" in out
    assert main(["validate", "--format", "json", str(parts)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["coverage"] == {"mapg": {"en": 57, "nl": 100, "ru": 42}}


def test_coverage_without_names_from(tmp_path, capsys):
    root = make_content(tmp_path)
    tr(root, "mapg.map.nl.yaml", NL_MAP)
    tr(root, "mapg.rules.nl.yaml", NL_RULES)
    assert main(["validate", "--format", "json", str(root)]) == 0
    assert json.loads(capsys.readouterr().out)["coverage"] == {"mapg": {"en": 42, "nl": 57}}


# ---- derived names -----------------------------------------------------------------------------
def test_derived_names(parts):
    from engine.i18n.translations import Catalog
    pack = load(parts)
    en, nl, ru = (Catalog(pack, lang) for lang in ("en", "nl", "ru"))
    assert en.name("north_south") == "North – South"
    assert en.name("south_east") == "South – east"
    assert en.name("east_north") == "The Old Road"  # a name of its own wins
    assert nl.name("north_south") == "Noord – Zuid"
    assert nl.name("east_north") == "Oost – Noord"  # derived in nl before English
    assert ru.name("south_east") == "Юг – east"
    assert nl.is_named("south_east") and not ru.is_named("south_east")
    assert en.is_named("east_north") and not en.is_named("south_east")
    assert nl.own_name("north_south") is None and nl.derived_name("north_south")


def test_cards_json_marks_named_and_derived(parts, capsys):
    assert main(["cards", str(parts), "--lang", "ru", "--json", "--type", "road",
                 "--type", "city"]) == 0
    records = json.loads(capsys.readouterr().out)["records"]
    assert [r["id"] for r in records] == ["east", "north", "south", "east_north",
                                          "north_south", "south_east"]
    rec = {r["id"]: r for r in records}
    assert rec["north_south"] == {"type": "road", "id": "north_south", "name": "Север – Юг",
                                  "named": True, "derived": True}
    assert not rec["south_east"]["named"] and not rec["east"]["named"]
    assert rec["north"]["named"] and not rec["north"]["derived"]


def test_derived_names_in_a_cycle_end(tmp_path):
    from engine.i18n.translations import Catalog
    root = write_pack_files(tmp_path / "loop", """
        type place:
            near: place
        on setup:
            win red
    """, """
        place:
          - {id: here, near: there}
          - {id: there, near: here}
    """, pack_id="loop")
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write("names_from: {place: near}\n")
    cat = Catalog(load(root), "en")
    assert cat.name("here") == "here"
    assert not cat.is_named("here")


@pytest.mark.parametrize("spec, message, col", [
    ("{rood: [a, b]}", "names_from: unknown record type 'rood'", 14),
    ("{road: [a, c]}", "names_from: road has no field 'c'", 24),
    ("{road: [a, cost]}", "names_from: field 'cost' of road is an int, not a reference to a "
     "record", 24),
    ("{road: []}", "names_from: give 'road' at least one field", 20),
    ("[road]", "'names_from' maps a record type to a field", 13),
])
def test_names_from_errors(tmp_path, capsys, spec, message, col):
    root = make_content(tmp_path, f"names_from: {spec}\n")
    assert main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"{root / 'pack.yaml'}:6:{col}: error[E323]: {message}" in out
    if "rood" in spec:
        assert "did you mean 'road'?" in out


# ---- disagreeing sources ------------------------------------------------------------------------
DISAGREE = RECORDS.replace("""  - {id: north_south, a: north, b: south}
""", """  - id: north_south
    a: north
    b: south
    cost: 2
    disagree:
      - {field: cost, value: 3, source: "Livy XXI.4", note: "in winter"}
      - {field: b, value: east, source: "Polybius"}
      - {field: name, value: "Via Nova", source: "a map"}
      - {field: a, source: "Appian"}
""")


def test_disagreements(tmp_path, capsys):
    root = make_content(tmp_path, records=DISAGREE)
    path = root / "records.yaml"
    assert main(["validate", str(root)]) == 0
    out = capsys.readouterr().out
    assert "mapg: 4 disagreements between sources (engine validate --disagreements lists " \
           "them)" in out
    assert "N520" not in out
    assert main(["validate", "--disagreements", str(root)]) == 0
    out = capsys.readouterr().out
    at = "note[N520]: road 'north_south'"  # located at each entry
    assert f"{path}:11:9: {at}.cost: this pack uses 2; Livy XXI.4 says 3 (in winter)" in out
    assert f"{path}:12:9: {at}.b: this pack uses south; Polybius says east" in out
    assert f"{path}:13:9: {at}.name: this pack uses none; a map says Via Nova" in out
    assert f"{path}:14:9: {at}.a: this pack uses north; Appian disagrees" in out
    assert "  14 |       - {field: a, source: \"Appian\"}" in out
    assert "checked 1 pack, 3 files: ok" in out
    assert main(["validate", "--format", "json", str(root)]) == 0
    found = json.loads(capsys.readouterr().out)["disagreements"]
    assert found[0] == {"pack": "mapg", "type": "road", "id": "north_south", "field": "cost",
                        "ours": 2, "theirs": 3, "source": "Livy XXI.4", "note": "in winter",
                        "path": str(path), "line": 11, "col": 9,
                        "message": "road 'north_south'.cost: this pack uses 2; Livy XXI.4 "
                                   "says 3 (in winter)"}
    assert "theirs" not in found[3]


def test_disagree_problems(tmp_path, capsys):
    bad = RECORDS.replace("  - {id: east}\n", """  - id: east
    x: 4
    disagree:
      - {field: xx, value: 5, source: "Livy"}
      - {field: x, value: 5}
      - {value: 5, source: "Livy"}
      - {field: x, value: 4, source: "Livy"}
      - {field: x, value: 3, source: "Livy", page: 4}
      - just text
""").replace("  - {id: north, name: North}\n", """  - id: north
    disagree: {field: x, value: 1, source: "Livy"}
""")
    root = make_content(tmp_path, records=bad)
    path = root / "records.yaml"
    assert main(["validate", "--format", "json", str(root)]) == 1
    data = json.loads(capsys.readouterr().out)
    got = {(d["line"], d["col"], d["code"]) for d in data["diagnostics"]}
    assert got == {(3, 15, "E324"), (8, 17, "E326"), (9, 9, "E325"), (10, 9, "E325"),
                   (11, 27, "W327"), (12, 46, "E324"), (13, 9, "E324")}
    assert main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    assert f"{path}:8:17: error[E326]: city has no field 'xx' to disagree on" in out
    assert "did you mean 'x'?" in out
    assert f"{path}:9:9: error[E325]: a 'disagree' entry needs 'source:'" in out
    assert f"{path}:10:9: error[E325]: a 'disagree' entry needs 'field:'" in out
    assert f"{path}:11:27: warning[W327]: the 'disagree' entry gives x = 4, the city's own " \
           "value: that is no disagreement" in out
    assert "unknown key 'page' in a 'disagree' entry" in out
    assert "disagreements between sources" not in out  # none of them is a good one


def test_tables_may_disagree_too(tmp_path, capsys):
    records = RECORDS + """table:
  - id: losses
    rows: {1: 0, 2: 1}
    disagree:
      - {field: rows, value: {1: 0, 2: 2}, source: "second edition"}
      - {field: cells, value: 1, source: "x"}
"""
    root = make_content(tmp_path, records=records)
    assert main(["validate", "--disagreements", str(root)]) == 1
    out = capsys.readouterr().out
    assert "note[N520]: table 'losses'.rows: this pack uses {1: 0, 2: 1}; second edition says " \
           "{1: 0, 2: 2}" in out
    assert "error[E326]: table has no field 'cells' to disagree on" in out


def test_table_rows_with_mixed_keys_may_disagree(tmp_path, capsys):
    # rows keyed by numbers and ranges: comparing them with the record's own must not crash
    records = RECORDS + """table:
  - id: losses
    columns: [1, "2-3"]
    rows:
      1: [0, 1]
      "2-4": [1, 2]
    disagree:
      - {field: rows, value: {1: [0, 1], "2-4": [1, 3]}, source: "second edition"}
      - {field: rows, value: {1: [0, 1], "2-4": [1, 2]}, source: "first edition"}
      - {field: columns, value: [1, 2], source: "x"}
"""
    root = make_content(tmp_path, records=records)
    assert main(["validate", "--disagreements", str(root)]) == 0
    out = capsys.readouterr().out
    assert "E300" not in out
    assert "note[N520]: table 'losses'.rows: this pack uses {1: [0, 1], 2-4: [1, 2]}; second " \
           "edition says {1: [0, 1], 2-4: [1, 3]}" in out
    assert "warning[W327]: the 'disagree' entry gives rows = " in out  # the first edition's
    assert "note[N520]: table 'losses'.columns: this pack uses [1, 2-3]; x says [1, 2]" in out


def test_disagree_value_compares_as_data():
    from engine.dsl.pack.values import same
    assert same({1: [0, 1], "2-4": [True]}, {"2-4": [True], 1: [0, 1]})
    assert not same(1, True) and not same(2, "2") and not same([1], [1, 1])
    assert not same({1: 0}, {"1": 0}) and same(None, None) and not same(None, 0)


# ---- sentences: named placeholders, win reasons, prompts ----------------------------------------
SAYING = """
type city
var steps: int = 0

on setup:
    let c = choose c from city by blue prompt "Where does {red} go?"
    steps += 2
    log "{blue} marches to {c} in {steps} steps"
    log "{0} holds {1}", red, c
    win red, "{c} falls after {steps} steps"
"""
SAYING_NL = """
    pack: saying
    lang: nl
    names:
      east: {name: "Oost", source: "t"}
    terms:
      red: {name: "Rood", source: "t"}
      blue: {name: "Blauw", source: "t"}
    messages:
      "Where does {red} go?": {text: "Waar gaat {red} heen?", source: "t"}
      "{blue} marches to {c} in {steps} steps":
        {text: "In {steps} stappen trekt {blue} naar {c}", source: "t"}
      "{0} holds {1}": {text: "{0} houdt {1}", source: "t"}
      "{c} falls after {steps} steps": {text: "{c} valt na {1} stappen", source: "t"}
"""


@pytest.fixture
def saying(tmp_path):
    """A pack whose sentences, win reason and prompt are written with named placeholders, and
    their Dutch translations (the names reordered, or numbered)."""
    root = write_pack_files(tmp_path / "content" / "saying", SAYING,
                            "city:\n  - {id: east, name: East}\n  - {id: west, name: West}\n",
                            pack_id="saying")
    tr(root, "saying.nl.yaml", SAYING_NL)
    return root


def test_named_sentences_are_translated_at_play_time(saying, capsys):
    """A `log` text with its own {names}, a win reason and a prompt: validate and the game
    key their translations alike (the numbered text the game logs), so each one validated is
    also the one shown."""
    from engine.frontends.terminal import describe_decision
    from engine.i18n.translations import Catalog
    assert main(["validate", str(saying)]) == 0
    assert "error" not in capsys.readouterr().out
    pack = load(saying)
    game = pack.new_game(1)
    nl = Catalog(pack, "nl")
    assert describe_decision(game.view("blue")["decision"], nl) == "Blauw: Waar gaat Rood heen?"
    game.apply("east")
    lines = [nl.render(e) for e in game.log if e["t"] in ("say", "end")]
    assert lines == ["In 2 stappen trekt Blauw naar Oost", "Rood houdt Oost",
                     "einde van het spel: Rood wint (Oost valt na 2 stappen)"]
    assert nl.outcome("red", nl.reason(game.result.reason, game.log)) == \
        "Rood wint (Oost valt na 2 stappen)"
    assert game.result.reason == "East falls after 2 steps"  # the pack's own language


def test_a_sentence_translated_by_its_numbered_key_is_found_too(saying, capsys):
    path = saying.parent / "translations" / "saying.nl.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"{blue} marches to {c} in {steps} steps"',
                                 '"{0} marches to {1} in {2} steps"').replace(
        "In {steps} stappen trekt {blue} naar {c}", "In {2} stappen trekt {0} naar {1}"),
        encoding="utf-8")
    assert main(["validate", str(saying)]) == 0, capsys.readouterr().out
    from engine.i18n.translations import Catalog
    pack = load(saying)
    game = pack.new_game(1)
    game.apply("east")
    assert "In 2 stappen trekt Blauw naar Oost" in [Catalog(pack, "nl").render(e)
                                                   for e in game.log]


def test_a_translation_may_name_only_its_sentences_placeholders(saying, capsys):
    path = saying.parent / "translations" / "saying.nl.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("In {steps} stappen trekt {blue} naar {c}",
                                 "{blue} trekt naar {dest}").replace(
        '"Where does {red} go?"', '"Where does {blue} go?"'), encoding="utf-8")
    assert main(["validate", str(saying)]) == 1
    out = capsys.readouterr().out
    assert ("error[E506]: bad message template: {dest} is not a placeholder of the sentence: "
            "use {blue}, {c}, {steps}") in out
    assert ("error[E505]: pack 'saying' has no event, log text, win reason or prompt "
            "'Where does {blue} go?'") in out and "did you mean 'Where does {red} go?'" in out


def test_an_enum_value_is_named_apart_from_a_var_of_its_name(tmp_path, capsys):
    """`mode.march` names the value `march` of the enum `mode` (an option) apart from the var
    `march`; without it, the value takes the term `march` as before; a side keeps its own."""
    from engine.frontends.terminal import action_label
    from engine.i18n.translations import Catalog
    root = write_pack_files(tmp_path / "content" / "modes", """
        enum mode: march, rest, red
        var march: int = 0
        on setup:
            let m = choose m from [mode.march, mode.rest] by red prompt "How?"
            if m == "march":
                march += 3
            end game
    """, pack_id="modes")
    tr(root, "modes.nl.yaml", """
        pack: modes
        lang: nl
        terms:
          march: {name: "marstijd", source: "t"}
          mode.march: {name: "marcheren", source: "t"}
          mode.red: {name: "rood (stand)", source: "t"}
          red: {name: "Rood", source: "t"}
    """)
    assert main(["validate", str(root)]) == 0, capsys.readouterr().out
    pack = load(root)
    nl = Catalog(pack, "nl")
    d = pack.new_game(1).view("red")["decision"]
    assert [action_label(o, nl, d["kind"]) for o in d["options"]] == ["marcheren", "rest"]
    assert nl.term("march") == "marstijd" and nl.value("red") == "Rood"
    assert Catalog(pack, "en").value("march") == "march"


@pytest.mark.parametrize("lang, said, asked", [
    ("nl", ["Spelronde 1", "plaatst een PK in ", " speelt "], "speel een strategiekaart"),
    ("ru", ["Ход 1", "ставит ПК в область ", " играет карту «"], "сыграйте карту стратегии"),
])
def test_hannibal_sentences_show_in_dutch_and_russian(lang, said, asked):
    """Hannibal's rules write their sentences with named placeholders ('{s} places a PC in
    {x}'): the translations keyed so (content/translations/hannibal.sentences.*.yaml) are
    the ones a game shows, in its log and its questions."""
    import random

    from engine.frontends.terminal import describe_decision
    from engine.i18n.translations import Catalog
    pack = load(Path(__file__).resolve().parents[1] / "content" / "hannibal")
    cat = Catalog(pack, lang)
    game = pack.new_game(1)
    rnd = random.Random(1)
    questions = set()
    while not game.over and len(game.actions) < 150:
        questions.add(describe_decision(game.view(game.decision.side)["decision"], cat))
        game.apply(game.random_action(rnd))
    text = "\n".join(cat.render(e) for e in game.log if e["t"] == "say")
    for phrase in said:
        assert phrase in text, phrase
    assert any(asked in q for q in questions), sorted(questions)[:5]
