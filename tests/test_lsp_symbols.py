"""The language server's lookups without a client (engine.frontends.lsp): the words of a
line, what a name stands for, its declaration and its uses, hover text and completion, on
a copy of the tiny test pack."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.dsl.workspace import Workspace
from engine.frontends.lsp.completion import candidates
from engine.frontends.lsp.hover import hover_text
from engine.frontends.lsp.packs import OpenPacks, pack_root
from engine.frontends.lsp.symbols import PackIndex
from engine.frontends.lsp.words import prefix_at, rules_words, yaml_words

TINY = Path(__file__).resolve().parent / "packs" / "tinygame"
# a parameter with a zone's name: inside the procedure, `table` is the parameter
SHADOW = """
procedure strongest(table: list of card) -> int:
    return max([c.power for c in table])
"""


@pytest.fixture()
def index(tmp_path: Path) -> PackIndex:
    shutil.copytree(TINY, tmp_path / "tinygame")
    rules = tmp_path / "tinygame" / "rules.rules"
    rules.write_text(rules.read_text(encoding="utf-8") + SHADOW, encoding="utf-8")
    ws = Workspace(tmp_path / "tinygame")
    assert not [d for d in ws.check() if d.is_error]
    assert ws.source is not None
    return PackIndex(ws.source.model, ws.source.sources, ws.result, ws.source.modules)


def _rules(ix: PackIndex) -> str:
    return next(p for p in ix.sources if p.endswith("rules.rules"))


def test_words_skip_comments_and_strings_and_know_members():
    got = [(w.text, w.col, w.owner) for w in rules_words(
        ['log "a.b {x}", c.power + hand[s].power  # d.e', "var v: int in 0..top"])]
    assert got == [("log", 0, None), ("c", 15, None), ("power", 17, "c"), ("hand", 25, None),
                   ("s", 30, None), ("power", 33, ""), ("var", 0, None), ("v", 4, None),
                   ("int", 7, None), ("in", 11, None), ("top", 17, None)]
    # a quoted YAML value is rules text; a YAML comment is not
    assert [w.text for w in yaml_words(['  effect: "score[s] += 1"  # not x'])] == [
        "effect", "score", "s"]
    assert prefix_at(["    c.po"], 0, 8) == ("po", ("c",))
    assert prefix_at(["    x in 0..to"], 0, 14) == ("to", None)  # a range, no member
    assert prefix_at(["  if x.region.or"], 0, 16) == ("or", ("x", "region"))
    assert prefix_at(["  hand[s]."], 0, 10) == ("", ())  # no plain name before the `.`
    assert prefix_at(["  f(x).a."], 0, 9) == ("", ())


def test_a_zone_its_declaration_and_uses_a_local_left_out(index: PackIndex):
    path = _rules(index)
    lines = index.lines(path)
    n = next(i for i, line in enumerate(lines) if line.startswith("zone table"))
    key, _word = index.key_at(path, n, 6)
    assert key == ("zone", "table")
    [decl] = index.definitions(key)
    assert (decl.line, decl.col) == (n, 5)
    uses = [(p.line, lines[p.line].strip()) for p in index.references(key)]
    assert uses == [(p, lines[p].strip()) for p, line in enumerate(lines)
                    if "table" in line and "strongest" not in line
                    and "c in table" not in line]
    last = len(lines) - 1  # `for c in table`: the parameter, not the zone
    assert index.key_at(path, last, lines[last].index("table")) is None


def test_a_record_named_in_a_record_file_and_its_field(index: PackIndex):
    cards = next(p for p in index.sources if p.endswith("cards.yaml"))
    lines = index.lines(cards)
    n = next(i for i, line in enumerate(lines) if "id: two" in line)
    key, _ = index.key_at(cards, n, lines[n].index("two"))
    assert key == ("record", "two")
    text = hover_text(index, key, {})
    assert "card two" in text and "power: 2" in text and "**en**: two" in text.lower()
    key, _ = index.key_at(cards, n + 1, lines[n + 1].index("power"))
    assert key == ("field", "power")  # the YAML key is the field
    refs = index.references(key)
    assert {Path(p.path).name for p in refs} == {"rules.rules", "cards.yaml"}
    assert len([p for p in refs if p.path == cards]) == 3  # one `power:` per card


def test_hover_of_a_procedure_and_completion(index: PackIndex):
    text = hover_text(index, ("proc", "owner_of"), {})
    assert "procedure owner_of(c: card) -> side" in text and "rules.rules:" in text
    model = index.model
    assert [c.label for c in candidates(model, "", ("card",))] == ["one", "three", "two"]
    assert ("power", "field") in {(c.label, c.kind) for c in candidates(model, "p", ())}
    # of a known type, its fields (and every record's id and name); of an int, none
    assert [c.label for c in candidates(model, "", ("c",), "card")] == [
        "effect", "id", "name", "power"]
    assert candidates(model, "", ("n",), "int") == []
    names = {c.label: c.kind for c in candidates(model, "", None)}
    assert names["deck"] == "zone" and names["owner_of"] == "procedure"
    assert names["choose"] == "keyword" and names["one"] == "record"
    assert names["count"] == "function" and names["true"] == "builtin"


def test_open_packs_clear_what_is_fixed(tmp_path: Path):
    shutil.copytree(TINY, tmp_path / "tinygame")
    path = str(tmp_path / "tinygame" / "rules.rules")
    assert pack_root(path) == str(tmp_path / "tinygame")
    assert pack_root(str(tmp_path / "elsewhere.rules")) is None
    packs = OpenPacks()
    text = Path(path).read_text(encoding="utf-8")
    assert packs.change(path, text) == [(path, [])]
    [(file, [d])] = packs.change(path, text.replace("c in hand[red]", "c in hnd[red]"))
    assert file == path and d.suggestion == "did you mean 'hand'?"
    assert packs.change(path, None) == [(path, [])]  # closed: the disk's text, clean again


def test_a_translation_file_not_saved_yet_is_checked_against_its_pack(tmp_path: Path):
    shutil.copytree(TINY, tmp_path / "tinygame")
    (tmp_path / "translations").mkdir()
    path = str(tmp_path / "translations" / "tinygame.en.yaml")  # not on disk
    packs = OpenPacks()
    [(file, diags)] = packs.change(path, "pack: tinygame\nlang: en\nnames:\n"
                                         "  too: {name: Two, source: the test}\n")
    assert file == path
    [d] = [d for d in diags if d.is_error]
    assert d.code == "E501" and d.suggestion == "did you mean 'two'?" and d.line == 4
    assert packs.change(path, None) == [(path, [])]  # closed unsaved: nothing to show
    assert packs.change(str(tmp_path / "translations" / "other.en.yaml"), "x") == []


def test_the_type_before_a_dot_while_the_line_does_not_parse(tmp_path: Path):
    # `c` is a card in the triggers and an int in `plus_one`; the file, then edited: two
    # lines more above, and a `c.` typed in each (the file no longer parses)
    shutil.copytree(TINY, tmp_path / "tinygame")
    path = str(tmp_path / "tinygame" / "rules.rules")
    text = Path(path).read_text(encoding="utf-8") + \
        "\nprocedure plus_one(c: int) -> int:\n    return c + 1\n"
    packs = OpenPacks()
    assert [d.code for _f, ds in packs.change(path, text) for d in ds] == ["W601"]  # unused
    typed = "# one\n# two\n" + text.replace("        move c to table\n",
                                             "        move c to table\n        c.\n") + "    c."
    assert "E100" in [d.code for _f, ds in packs.change(path, typed) for d in ds]
    ix = packs.parsed(path)
    assert ix is not None
    lines = typed.split("\n")
    in_turn, in_plus_one = lines.index("        c."), len(lines) - 1
    assert ix.type_before(path, lines, in_turn, ["c"]) == "card"
    assert ix.type_before(path, lines, in_turn, ["s"]) == "side"
    assert ix.type_before(path, lines, in_turn, ["c", "power"]) == "int"
    assert ix.type_before(path, lines, in_plus_one, ["c"]) == "int"
    assert ix.type_before(path, lines, in_turn, ["active"]) == "side"  # a var
    assert ix.type_before(path, lines, in_turn, ["nothing"]) is None
    assert ix.type_before(path, lines, in_turn, ["c", "nothing"]) is None


def test_engine_lsp_without_pygls_says_how_to_get_it(monkeypatch, capsys):
    import sys

    from engine.frontends.cli import main
    monkeypatch.delitem(sys.modules, "engine.frontends.lsp.server", raising=False)
    monkeypatch.setitem(sys.modules, "pygls.lsp.server", None)  # as if not installed
    assert main(["lsp"]) == 1
    assert "pip install 'engine-dsl[lsp]'" in capsys.readouterr().err
