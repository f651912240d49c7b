"""Packs that build on packs: pack.yaml `imports`, `extend type`, and the own namespace of
tables and glossary terms."""
from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest
from conftest import REPO

from engine.core.errors import PackError, SaveError
from engine.core.game import Game
from engine.core.loader import load_pack
from engine.core.validate import validate
from engine.dsl.build import build_pack
from engine.dsl.formatter import format_source
from engine.dsl.parser import parse_module

PACKS = REPO / "tests" / "packs"


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory, monkeypatch):
    """A cache of this module's own (also tests that warm builds behave as cold ones)."""
    monkeypatch.setenv("ENGINE_DSL_CACHE", str(tmp_path_factory.getbasetemp() / "dsl-cache"))


def joined(*parts: str) -> str:
    """Rules text from parts, each dedented on its own."""
    return "".join(textwrap.dedent(p).lstrip("\n") for p in parts)


def pack(root: Path, meta: str, files: dict[str, str]) -> Path:
    """A pack folder: pack.yaml from `meta` (dedented), then `files`."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pack.yaml").write_text(textwrap.dedent(meta).lstrip(), encoding="utf-8")
    for name, text in files.items():
        (root / name).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def meta(pid: str, *, imports: str | None = None, sides: str | None = "[red, blue]",
         extra: str = "") -> str:
    lines = [f"id: {pid}", f"name: {pid}", "version: 0.1.0"]
    if sides is not None:
        lines.append(f"sides: {sides}")
    if imports is not None:
        lines.append(f"imports: {imports}")
    return "\n".join(lines) + "\n" + extra


BASE_RULES = """
type town:
    supply: int = 0

type term:
    definition: text

value gain(n: int): int = n + 1
"""
BASE_RECORDS = """
town:
  - {id: aton, supply: 2}
  - {id: bree}
term:
  - {id: march, definition: "Moving from town to town."}
table:
  - id: forage
    rows: {"1-3": 0, "4-6": 1}
"""
GAME_RULES = """
var food[s: side]: int = 0
on setup:
    food[red] = gain(aton.supply)
    end game
"""


def base(tmp_path: Path, name: str = "base", extra: str = "playable: false\n") -> Path:
    return pack(tmp_path / name, meta(name, extra=extra),
                {"base.rules": BASE_RULES, "base.yaml": BASE_RECORDS})


def game(tmp_path: Path, rules: str = GAME_RULES, imports: str = "[base]",
         records: str | None = None, name: str = "game", sides: str | None = None,
         extra: str = "") -> Path:
    files = {"game.rules": rules}
    if records is not None:
        files["game.yaml"] = records
    return pack(tmp_path / name, meta(name, imports=imports, sides=sides, extra=extra), files)


def errors(root: Path) -> list:
    return [d for d in build_pack(root).diagnostics if d.severity == "error"]


def the_error(root: Path, code: str):
    found = [d for d in errors(root) if d.code == code]
    assert len(found) == 1, [d.render() for d in errors(root)]
    return found[0]


def play_out(g: Game, seed: int = 1) -> Game:
    rnd = random.Random(seed)
    while not g.over:
        d = g.decision
        g.apply(g.random_action(rnd), side=d.side, decision=d.id)
    return g


# ---- imports --------------------------------------------------------------------------------
def test_a_playable_pack_over_a_data_pack_in_tests_packs():
    data = load_pack(PACKS / "roadmap")
    assert not data.playable
    p = load_pack(PACKS / "roadgame")
    assert p.playable and p.model.imports == ["roadmap"]
    assert p.sides == ["north", "south"]  # not given: the import's
    assert {"aton", "bree", "caer", "dunn", "forage", "march"} <= set(p.records)
    assert p.records["aton"]["fort"] == 0 and p.records["dunn"]["fort"] == 2  # extend type
    assert p.call_value("march_cost", "aton", "dunn") == 4  # the import's value, our roads
    # the data pack's declarations are located in its own files
    assert p.model.decl_paths["march_cost"].endswith("roadmap/map.rules")
    g = play_out(p.new_game(3))
    assert g.result is not None
    report = validate([PACKS / "roadmap", PACKS / "roadgame"])
    assert report.errors == 0, [d.render() for d in report.diagnostics]


def test_a_pack_over_the_shipped_hannibal_pack(tmp_path):
    root = game(tmp_path, imports="[hannibal]", rules="""
        extend type space:
            visited: bool = false

        var losses: int = 0

        # a procedure named like a table of the imported pack
        procedure naval(s: side):
            losses += 1

        # before the imported game's own set-up (the rules of the imported pack come along)
        before setup:
            losses = attrition_loss(3, 4)
            naval(rome)
            end game

        check "the imported table": lookup(naval, 1) != ""
        check "an imported term": term.mountain_pass.definition != ""
        """)
    p = load_pack(root)
    hannibal = load_pack("hannibal")
    assert p.sides == hannibal.sides and p.model.imports == ["hannibal"]
    assert set(hannibal.records) == set(p.records)
    assert p.call_value("attrition_loss", 3, 4) == hannibal.call_value("attrition_loss", 3, 4)
    assert all(p.records[s]["visited"] is False for s in p.by_type["space"])
    assert p.run_checks() == []
    g = p.new_game(1)
    assert g.over and g.var("losses") == hannibal.call_value("attrition_loss", 3, 4) + 1
    # names of the imported records come from the imported pack's translations
    from engine.i18n.translations import Catalog
    assert Catalog(p, "nl").name("mountain_pass") == Catalog(hannibal, "nl").name("mountain_pass")


def test_a_scenario_over_a_game_saves_and_checks_the_games_version(tmp_path):
    pack(tmp_path / "duel", meta("duel"), {"duel.rules": """
        var score[s: side]: int = 0
        var rounds: int = 3
        event turn(s: side)
        event play()

        on setup:
            emit play()

        on play():
            repeat rounds:
                emit turn(red)
                emit turn(blue)
            if score[red] > score[blue]:
                win red
            end game

        on turn(s):
            let n = choose n from [1, 2, 3] by s
            score[s] += n
        """})
    scenario = pack(tmp_path / "short_duel", meta("short_duel", imports="[duel]", sides=None),
                    {"scenario.rules": """
        # the scenario plays one round, blue starting with a point
        before play():
            rounds = 1
            score[blue] = 1
        """})
    p = load_pack(scenario)
    g = p.new_game(5)
    first = g.decision
    g.apply(g.legal_actions()[0], side=first.side, decision=first.id)
    saved = g.save()
    again = Game.load(load_pack(scenario), saved)
    assert again.state == g.state
    play_out(again)
    assert again.over and len(again.actions) == 2  # one round: the scenario's rule ran
    # the save names the scenario, and its hash covers the game it imports
    (tmp_path / "duel" / "duel.rules").write_text(
        (tmp_path / "duel" / "duel.rules").read_text() + "# a change to the game\n")
    changed = load_pack(scenario)
    assert changed.hash != p.hash
    with pytest.raises(SaveError, match="changed since this game was saved"):
        Game.load(changed, saved)
    with pytest.raises(SaveError, match="saved with pack 'short_duel'"):
        Game.load(load_pack(tmp_path / "duel"), saved)


def test_unknown_import_is_located_with_a_did_you_mean(tmp_path):
    base(tmp_path)
    root = game(tmp_path, imports="[bsae]", sides="[red, blue]")
    d = the_error(root, "E331")
    assert d.path == str(root / "pack.yaml") and d.line == 5 and d.col == 11
    assert "unknown pack 'bsae'" in d.message and "did you mean 'base'?" in d.suggestion


def test_import_cycles_are_located(tmp_path):
    pack(tmp_path / "a", meta("a", imports="[b]"), {})
    pack(tmp_path / "b", meta("b", imports="[c]"), {})
    pack(tmp_path / "c", meta("c", imports="[a]"), {})
    d = the_error(tmp_path / "a", "E332")
    assert d.path == str(tmp_path / "c" / "pack.yaml") and d.line == 5
    assert "a -> b -> c -> a" in d.message
    pack(tmp_path / "self", meta("self", imports="[self]"), {})
    assert "self -> self" in the_error(tmp_path / "self", "E332").message


def test_a_diamond_of_imports_reads_each_pack_once(tmp_path):
    base(tmp_path)
    pack(tmp_path / "left", meta("left", imports="[base]"), {"l.rules": "value l(): int = 1\n"})
    pack(tmp_path / "right", meta("right", imports="[base]"), {"r.rules": "value r(): int = 2\n"})
    root = game(tmp_path, imports="[left, right]")
    p = load_pack(root)
    assert p.model.imports == ["base", "left", "right"]
    assert p.call_value("l") + p.call_value("r") == 3


def test_a_name_defined_in_two_packs_is_located(tmp_path):
    base(tmp_path)
    root = game(tmp_path, rules=GAME_RULES + "value gain(n: int): int = n\n")
    d = the_error(root, "E333")
    assert d.path == str(root / "game.rules") and d.line == 5
    assert "defined in pack 'base'" in d.message and "base.rules:7" in d.message
    # a type: the hint says how to add fields instead
    root = game(tmp_path, rules=GAME_RULES + "type town:\n    x: int\n", name="game2")
    assert "extend type town" in the_error(root, "E333").suggestion
    # a record id, and a record named like an imported declaration
    root = game(tmp_path, records="town:\n  - {id: aton}\n  - {id: gain}\n", name="game3")
    found = [d for d in errors(root) if d.code == "E333"]
    assert [(d.line, "'aton'" in d.message or "'gain'" in d.message) for d in found] == \
        [(2, True), (3, True)]


def test_a_clash_between_two_imported_packs_is_at_the_import(tmp_path):
    base(tmp_path)
    pack(tmp_path / "other", meta("other"), {"o.rules": "value gain(n: int): int = n\n"})
    root = game(tmp_path, imports="[base, other]", sides="[red, blue]")
    d = the_error(root, "E333")
    assert d.path == str(root / "pack.yaml") and d.line == 5 and d.col == 17  # `other`
    assert str(tmp_path / "other" / "o.rules") in d.message


def test_errors_in_an_imported_pack_point_into_its_files(tmp_path):
    pack(tmp_path / "base", meta("base"), {"base.rules": "value v(): int = nothing\n"})
    root = game(tmp_path, rules="value w(): int = v()\n", extra="playable: false\n")
    d = the_error(root, "E201")
    assert d.path == str(tmp_path / "base" / "base.rules") and d.line == 1
    with pytest.raises(PackError):
        load_pack(root)


def test_bad_imports(tmp_path):
    base(tmp_path)
    root = game(tmp_path, imports="base", sides="[red, blue]")
    assert "'imports' is a list of pack ids" in the_error(root, "E330").message
    root = game(tmp_path, imports="[Base]", sides="[red, blue]", name="g2")
    assert "a lowercase slug" in the_error(root, "E330").message
    # a pack and its imports play with the same sides
    root = game(tmp_path, sides="[blue, red]", name="g3")
    d = the_error(root, "E334")
    assert d.line == 4 and "[red, blue]" in d.message
    # the folder of that name holds another pack
    pack(tmp_path / "wrong", meta("right_id"), {})
    root = game(tmp_path, imports="[wrong]", sides="[red, blue]", name="g4")
    assert "holds pack 'right_id'" in the_error(root, "E337").message


def test_validate_reports_a_shared_problem_once(tmp_path):
    pack(tmp_path / "base", meta("base", extra="playable: false\n"),
         {"base.rules": "value v(): int = nothing\n"})
    game(tmp_path, rules="value w(): int = v()\n", extra="playable: false\n")
    report = validate([tmp_path])
    assert report.packs == 2
    assert [d.code for d in report.diagnostics if d.severity == "error"] == ["E201"]


# ---- extend type ----------------------------------------------------------------------------
def test_extend_type_adds_fields_with_defaults(tmp_path):
    base(tmp_path)
    root = game(tmp_path, rules=joined(GAME_RULES, """
        extend type town:
            fort: int = 0
            port: town?
            tags: list of text = []
        value forts(): int = sum(t.fort for t in town)
        """), records="town:\n  - {id: cove, fort: 3, port: aton, tags: [sea]}\n")
    p = load_pack(root)
    assert p.records["aton"] == {"id": "aton", "supply": 2, "fort": 0, "port": None,
                                 "tags": []}
    assert p.records["cove"]["port"] == "aton" and p.call_value("forts") == 3


def test_extend_type_problems(tmp_path):
    base(tmp_path)
    root = game(tmp_path, rules=GAME_RULES + "extend type twon:\n    fort: int = 0\n")
    d = the_error(root, "E335")
    assert d.line == 5 and "did you mean 'town'?" in d.suggestion
    root = game(tmp_path, name="g2", rules=GAME_RULES + "extend type town:\n    supply: int = 1\n"
                "    fort: int\n")
    found = [d for d in errors(root) if d.code == "E336"]
    assert [d.line for d in found] == [6, 7]
    assert "already has a field 'supply'" in found[0].message
    assert "needs a default" in found[1].message
    root = game(tmp_path, name="g3", rules=GAME_RULES + "extend type table:\n    x: int = 0\n")
    assert "cannot be extended" in the_error(root, "E335").message


def test_extend_type_is_formatted_and_parsed():
    text = "extend type town:\n    fort: int = 0  # walls\n    port: town?\n"
    assert format_source(text) == text
    [decl] = parse_module(text).decls
    assert decl.extend and decl.name == "town" and [f.name for f in decl.fields] == ["fort",
                                                                                  "port"]
    assert format_source("extend  type town :\n  fort:int=0\n") == "extend type town:\n" \
        "    fort: int = 0\n"


# ---- namespaces -------------------------------------------------------------------------------
def test_terms_and_tables_do_not_block_other_names(tmp_path):
    root = pack(tmp_path / "p", meta("p", extra="glossary: term\n"), {
        "p.rules": joined(BASE_RULES, """
        var done: int = 0
        procedure march(n: int):
            done += n
        value forage(n: int): int = lookup(forage, n) + lookup(table.forage, n)
        on setup:
            march(forage(5))
            end game
        check "qualified": term.march.definition == "Moving from town to town."
        check "a term is a record": count(term) == 1 and term.march.id == "march"
        """), "p.yaml": BASE_RECORDS})
    p = load_pack(root)
    assert p.new_game().var("done") == 2
    assert p.run_checks() == []


def test_a_table_is_not_a_bare_name_elsewhere(tmp_path):
    root = pack(tmp_path / "p", meta("p", extra="glossary: term\nplayable: false\n"), {
        "p.rules": joined(BASE_RULES, """
        value t(): bool = forage == forage
        value d(): term = march
        value e(): term = term.marhc
        value f(): table = table.forage
        value g(): table = forage
        """), "p.yaml": BASE_RECORDS})
    found = {(d.line, d.col): d for d in errors(root)}
    assert sorted(found) == [(8, 19), (8, 29), (9, 19), (10, 19)]
    assert {d.code for d in found.values()} == {"E339"}
    assert "'forage' is a table" in found[8, 19].message
    assert "table.forage" in found[8, 19].suggestion
    assert "lookup(forage" in found[8, 19].suggestion
    assert "term.march" in found[9, 19].suggestion
    # named as the designer wrote it, not as "unknown term" (issue 31: "unknown rhalf")
    assert found[10, 19].message == "term.marhc: no term record has the id 'marhc'"
    assert "did you mean 'march'?" in found[10, 19].suggestion


def test_without_glossary_a_term_is_an_ordinary_record(tmp_path):
    root = pack(tmp_path / "p", meta("p", extra="playable: false\n"), {
        "p.rules": BASE_RULES + "procedure march():\n    pass\n", "p.yaml": BASE_RECORDS})
    d = the_error(root, "E313")
    assert "id 'march' is already the name of a declaration" in d.message
    root = pack(tmp_path / "q", meta("q", extra="playable: false\nglossary: [trem]\n"), {
        "q.rules": BASE_RULES, "q.yaml": BASE_RECORDS})
    d = the_error(root, "E338")
    assert d.line == 6 and "did you mean 'term'?" in d.suggestion


def test_the_shipped_glossaries_are_their_own_namespace():
    for name in ("hannibal", "sword_of_rome"):
        p = load_pack(name)
        assert p.model.glossary == {"term"} and p.by_type["term"]
        # no term is a global name: a rule may share a term's id (Hannibal's zone `discard`,
        # event `strategy_phase`), and the name is then the rule's, never the term's
        names = p.model.global_names()
        assert all(names.get(t) != "record" for t in p.by_type["term"])
