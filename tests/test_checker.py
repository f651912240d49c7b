"""Checker diagnostics: every mistake is reported located, with a suggestion where a name is
close to a known one, and all of a pack's mistakes come out of one run."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.dsl.build import build_pack
from engine.dsl.errors import render_text

BASE_RULES = """
type space:
    label: text = ""
type card:
    power: int
    home: space
    effect: effect?
var active: side = red
var score[s: side]: int in 0..10 = 0
zone deck of card ordered hidden
zone hand[s: side] of card private
event turn(s: side)
procedure best(s: side) -> card:
    return first(hand[s])
on setup:
    move c1 to deck
"""

BASE_RECORDS = """
space:
  - {id: capua}
  - {id: roma}
card:
  - {id: c1, power: 1, home: capua}
  - {id: c2, power: 2, home: roma}
"""


def build(write_pack, rules: str = BASE_RULES, records: Any = BASE_RECORDS, **kw):
    root = write_pack(rules, records, **kw)
    return root, build_pack(root)


def codes(b) -> list[str]:
    return [d.code for d in b.diagnostics]


def one(b, code: str):
    found = [d for d in b.diagnostics if d.code == code]
    assert found, f"no {code} in:\n{render_text(b.diagnostics)}"
    return found[0]


def test_base_pack_is_clean(write_pack):
    _root, b = build(write_pack)
    assert b.ok, render_text(b.diagnostics)
    # only the dead data of a pack this small (tests/test_unread.py): a card and a procedure
    # the rules the tests add may read
    assert sorted((d.code, d.message.split(":")[0]) for d in b.diagnostics) == [
        ("W601", "procedure 'best' is never called"), ("W604", "card 'c2' is never read")]


def test_a_bad_reference_names_the_record_and_field_as_written(write_pack):
    """Issue 31: the validator said "unknown rhalf 'x'" (the type's name alone, seen in
    Ante Portas' card.roman): it now says which record and field hold the id, in a plain
    field and in an item of a list field."""
    rules = BASE_RULES.replace("    home: space\n", "    home: space\n    near: list of space?\n")
    records = BASE_RECORDS.replace("{id: c1, power: 1, home: capua}",
                                   "{id: c1, power: 1, home: capua, near: [roma, rmoa]}")
    _root, b = build(write_pack, rules, records)
    d = one(b, "E318")
    assert d.message == "card 'c1' field 'near': no space record has the id 'rmoa'"
    assert d.suggestion == "did you mean 'roma'?"
    assert "unknown space" not in render_text(b.diagnostics)


def test_misspelled_ids_in_a_rule_and_in_yaml_in_one_run(write_pack):
    root, b = build(write_pack, BASE_RULES + "    log \"x\", romaa\n",
                    BASE_RECORDS.replace("home: roma}", "home: capau}"))
    assert not b.ok
    text = render_text(b.diagnostics)
    yaml_d = one(b, "E318")
    rule_d = one(b, "E201")
    assert (Path(yaml_d.path).name, yaml_d.line, yaml_d.col) == ("records.yaml", 6, 30)
    assert yaml_d.suggestion == "did you mean 'capua'?"
    assert (Path(rule_d.path).name, rule_d.line, rule_d.col) == ("rules.rules", 16, 14)
    assert rule_d.suggestion == "did you mean 'roma'?"
    assert (f"{root / 'records.yaml'}:6:30: error[E318]: card 'c2' field 'home': "
            "no space record has the id 'capau'") in text
    assert f"{root / 'rules.rules'}:16:14: error[E201]: unknown name 'romaa'" in text
    assert "= help: did you mean 'roma'?" in text
    # the caret sits under the name
    assert "^^^^^" in text


@pytest.mark.parametrize("line, code, words", [
    ("let x = other(red, blue)", "E210", "'other' takes 1"),
    ("let x = best(red, blue)", "E210", "procedure 'best' takes 1"),
    ("emit turn()", "E210", "event 'turn' takes 1"),
    ("score[red, blue] += 1", "E210", "var 'score' takes 1"),
    ("score += 1", "E211", "score"),
    ("let x = count(c1, c2)", "E210", "'count' takes 1"),
    ("score[red] += \"many\"", "E220", "needs an int"),
    ("let x = 1 + c1", "E220", "'+' needs ints"),
    ("win 3", "E220", "'win' must be side"),
    ("emit turn(c1)", "E220", "argument 1 of event 'turn' must be side"),
    ("let x = c1 == red", "E220", "always false"),
    ("move 3 to deck", "E222", "'move' needs cards"),
    ("let x = c1.powr", "E205", "unknown field of card 'powr'"),
    ("let x = c1.home.lable", "E205", "unknown field of space 'lable'"),
    ("c1.power = 3", "E226", "record fields are data"),
    ("nothing = 3", "E226", "cannot assign to 'nothing'"),
    ("break", "E224", "'break' outside a loop"),
    ("continue", "E224", "'continue' outside a loop"),
    ("let x = blocks(3)", "E206", "unknown procedure or function 'blocks'"),
    ("emit turnn(red)", "E203", "unknown event 'turnn'"),
    ("modify scor(red) by 1", "E204", "unknown value 'scor'"),
    ("let x = neighbors(roads, capua)", "E207", "unknown graph 'roads'"),
    ("let x = 3.power", "E214", "has no fields"),
    ("return 3", "E223", "declares no return type"),
    ("for x in 3:\n        pass", "E225", "cannot loop over int"),
    ("run(c1.power)", "E229", "not an effect field"),
])
def test_rule_errors(write_pack, line, code, words):
    _root, b = build(write_pack, BASE_RULES + "    " + line + "\n")
    d = one(b, code)
    assert words in d.message, d.render()
    assert Path(d.path).name == "rules.rules" and d.line == 16 and d.col >= 5
    assert not b.ok


@pytest.mark.parametrize("line, suggestion", [
    ("let x = c1.powr", "did you mean 'power'?"),
    ("emit turnn(red)", "did you mean 'turn'?"),
    ("let x = bestt(red)", "did you mean 'best'?"),
    ("score[red] += scroe[blue]", "did you mean 'score'?"),
])
def test_did_you_mean(write_pack, line, suggestion):
    _root, b = build(write_pack, BASE_RULES + "    " + line + "\n")
    assert [d.suggestion for d in b.diagnostics if d.severity == "error"] == [suggestion]


def test_wrong_trigger_arity(write_pack):
    _root, b = build(write_pack, BASE_RULES + "on turn(s, extra):\n    pass\n")
    d = one(b, "E210")
    assert "the trigger names 2" in d.message and d.line == 16


def test_missing_by_without_active(write_pack):
    rules = BASE_RULES.replace("var active: side = red\n", "") + \
        "    let c = choose c from hand[red]\n"
    _root, b = build(write_pack, rules)
    d = one(b, "E227")
    assert "by <side>" in d.message and d.line == 15
    rules_ok = rules.replace("from hand[red]", "from hand[red] by blue")
    _root, b = build(write_pack, rules_ok)
    assert b.ok, render_text(b.diagnostics)


def test_private_var_needs_side_parameter(write_pack):
    rules = BASE_RULES + "var secret[c: card]: int = 0 private\nvar plain: int = 0 private\n"
    _root, b = build(write_pack, rules)
    found = [d for d in b.diagnostics if d.code == "E230"]
    assert [d.line for d in found] == [16, 17]
    assert "first parameter of type side" in found[0].message


def test_private_zone_needs_side_parameter(write_pack):
    _root, b = build(write_pack, BASE_RULES + "zone secret of card private\n")
    assert one(b, "E230").line == 16


def test_no_setup_handler(write_pack):
    _root, b = build(write_pack, BASE_RULES.replace("on setup:\n    move c1 to deck\n", ""))
    assert "E250" in codes(b)


def test_record_file_errors(write_pack):
    records = {"records.yaml": BASE_RECORDS + """
cards:
  - {id: c3, power: 3, home: roma}
""", "more.yaml": """
card:
  - {id: c4, powr: 4, home: roma}
  - {id: c1, power: 5, home: roma}
  - {id: c5, power: many, home: roma}
  - {id: c6, home: roma}
  - {id: c7, power: 1, home: c1}
"""}
    root, b = build(write_pack, records=records)
    got = {(Path(d.path).name, d.code, d.line) for d in b.diagnostics}
    assert ("records.yaml", "E311", 8) in got   # unknown record type, did you mean 'card'
    assert ("more.yaml", "E314", 2) in got      # unknown field, did you mean 'power'
    assert ("more.yaml", "E315", 2) in got      # ... so the required field is missing
    assert ("records.yaml", "E313", 5) in got   # duplicate id (more.yaml is read first)
    assert ("more.yaml", "E316", 4) in got      # not a number
    assert ("more.yaml", "E315", 5) in got      # missing field
    assert ("more.yaml", "E318", 6) in got      # a card where a space is needed
    by_code = {d.code: d for d in b.diagnostics}
    assert by_code["E311"].suggestion == "did you mean 'card'?"
    assert by_code["E314"].suggestion == "did you mean 'power'?"
    assert "used twice" in by_code["E313"].message
    assert "more.yaml:3" in by_code["E313"].message   # where the other one is
    assert "'c1' is a card, not a space" in by_code["E318"].message
    assert not b.ok


def test_yaml_errors_are_located(write_pack):
    _root, b = build(write_pack, records=BASE_RECORDS + "  - {id: c3, power: 03, home: roma}\n"
                     "  - {id: c3, power: 3, power: 4, home: roma}\n")
    got = {d.code for d in b.diagnostics}
    assert {"E002", "E004"} <= got


def test_duplicate_declaration(write_pack):
    _root, b = build(write_pack, BASE_RULES + "var score: int = 0\n")
    d = one(b, "E306")
    assert "declared twice" in d.message and d.line == 16


def test_effect_field_errors_point_into_yaml(write_pack):
    records = BASE_RECORDS.replace(
        "{id: c2, power: 2, home: roma}",
        "{id: c2, power: 2, home: roma, effect: \"score[red] += slef.power\"}")
    root, b = build(write_pack, records=records)
    d = one(b, "E201")
    assert Path(d.path) == root / "records.yaml" and d.line == 6
    assert d.suggestion == "did you mean 'self'?"


def test_pack_check_failure(write_pack):
    from engine.core.loader import load_pack
    from engine.core.validate import validate_paths
    rules = BASE_RULES + ('check "three cards": count(card) == 3\n'
                          'check "two spaces": count(space) == 2\n')
    root, b = build(write_pack, rules)
    assert b.ok
    failed = load_pack(root).run_checks()
    assert [(m, line) for m, _got, _path, line in failed] == [("three cards", 16)]
    diags = [d for d in validate_paths([root]) if d.code == "E400"]
    assert len(diags) == 1
    d = diags[0]
    assert d.message == "check failed: three cards" and d.line == 16 and d.col == 1
    assert Path(d.path) == root / "rules.rules"


def test_testgame_checks_pass(testgame):
    assert testgame.run_checks() == []


@pytest.mark.parametrize("line", [
    "if pick(red) == 2:\n        pass",
    "score[red] += pick(blue)",
    "let x = pick(red) + 1",
    "log \"x\", pick(red)",
    "for i in [pick(red)]:\n        pass",
])
def test_asking_procedure_only_on_its_own(write_pack, line):
    rules = BASE_RULES + """    PLACE
procedure pick(s: side) -> int:
    let k = choose k from [1, 2, 3] by s
    return k
""".replace("PLACE", line)
    _root, b = build(write_pack, rules)
    d = one(b, "E233")
    assert "'pick' may ask a player" in d.message and d.line == 16


def test_asking_procedure_on_its_own_is_fine(write_pack):
    rules = BASE_RULES + """    let a = pick(red)
    score[red] = pick(blue)
    pick(red)
procedure pick(s: side) -> int:
    let k = choose k from [1, 2, 3] by s
    return k
"""
    _root, b = build(write_pack, rules)
    assert b.ok, render_text(b.diagnostics)


# ---- provenance -------------------------------------------------------------------------------

def test_required_provenance_reports_unsourced_records_and_rules(write_pack):
    from engine.dsl.build import build_pack
    root = write_pack("""
        type card:
            power: int
        # source: rulebook §3
        var score: int = 0
        # reconstructed: the rulebook gives no number
        event turn(s: side)
        on setup:
            end game
    """, """
        card:
          - {id: c1, power: 1, source: "rulebook §4"}
          - {id: c2, power: 2}
    """)
    meta = root / "pack.yaml"
    meta.write_text(meta.read_text() + "provenance: required\n")
    build = build_pack(root)
    got = sorted((d.code, d.line) for d in build.diagnostics if d.code in ("E321", "E322"))
    assert got == [("E321", 3), ("E322", 1), ("E322", 7)]
    model = build.source.model
    assert model.provenance == {"score": "source: rulebook §3",
                                "turn": "reconstructed: the rulebook gives no number"}
    assert model.provenance_counts() == (1, 2, 2, 4)


def test_keywords_cannot_be_declared_names(write_pack):
    from engine.dsl.build import build_pack
    build = build_pack(write_pack("""
        var order: int = 0
        on setup:
            let choose = 1
            end game
    """))
    got = sorted((d.code, d.line) for d in build.diagnostics)
    assert got == [("E234", 3), ("E305", 1)]
