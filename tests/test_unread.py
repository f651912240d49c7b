"""Dead data (issue 35, part 4): `engine validate` warns on a procedure never called (W601),
a hidden var never read (W602), a const never read (W603) and a record no rule or record reads
(W604; tables W605, glossary terms W606); pack.yaml `unread:` keeps one on purpose (E348 for
a name of nothing, W607 for one that is read after all); `--strict` makes warnings errors."""
from __future__ import annotations

from pathlib import Path

from engine.core.validate import validate
from engine.dsl.build import build_pack
from engine.dsl.errors import render_text
from engine.frontends.cli import main

REPO = Path(__file__).resolve().parent.parent

RULES = """
type card:
    power: int
    partner: card?

var score: int = 0
var written_only: int = 0 hidden
const unused_k: int = 3
const used_k: int = 2

procedure helper():
    score += used_k + ace.power

procedure orphan():
    written_only = 1

on setup:
    helper()
    written_only = score
    end game
"""

CARDS = """
card:
  - {id: ace, power: 1, partner: two}
  - {id: two, power: 2}
  - {id: three, power: 3}
"""


def warned(root: Path) -> list[tuple[str, str, int]]:
    b = build_pack(root)
    assert b.ok or {d.code for d in b.diagnostics if d.is_error} == {"E348"}, \
        render_text(b.diagnostics)
    return sorted((d.code, Path(d.path).name, d.line) for d in b.diagnostics
                  if d.code.startswith(("W60", "E348")))


def test_each_kind_of_dead_data_is_warned_at_its_declaration(write_pack):
    root = write_pack(RULES, CARDS)
    assert warned(root) == [
        ("W601", "rules.rules", 13),  # orphan: no rule calls it
        ("W602", "rules.rules", 6),  # written_only: written twice, read nowhere
        ("W603", "rules.rules", 7),  # unused_k
        ("W604", "records.yaml", 4),  # three: ace is named, two is ace's partner
    ]
    b = build_pack(root)
    record = next(d for d in b.diagnostics if d.code == "W604")
    assert record.severity == "warning"
    assert record.message.startswith("card 'three' is never read")
    assert record.line_text.strip().startswith("- {id: three")
    assert "unread: {three: why}" in (record.suggestion or "")


def test_going_through_a_type_reads_all_its_records(write_pack):
    rules = RULES.replace("score += used_k + ace.power",
                          "score += used_k + sum(c.power for c in card)")
    assert [w[0] for w in warned(write_pack(rules, CARDS))] == ["W601", "W602", "W603"]


def test_names_in_pack_yaml_are_read(write_pack):
    rules = RULES.replace("procedure orphan():", "procedure orphan(s: side):")
    root = write_pack(rules, CARDS)
    with (root / "pack.yaml").open("a", encoding="utf-8") as fh:
        fh.write("determinize: orphan\n")  # the procedure the bots' copies call
    assert [w[0] for w in warned(root)] == ["W602", "W603", "W604"]


def test_unread_in_pack_yaml_keeps_data_on_purpose_and_is_checked(write_pack):
    root = write_pack(RULES, CARDS)
    with (root / "pack.yaml").open("a", encoding="utf-8") as fh:
        fh.write("unread:\n"
                 "  card: \"the box's cards, for people\"\n"
                 "  unused_k: \"kept for the next edition\"\n"
                 "  score: \"stale: the rules read it\"\n"
                 "  ghost: \"no such thing\"\n")
    assert warned(root) == [
        ("E348", "pack.yaml", 9),  # ghost names nothing of the pack
        ("W601", "rules.rules", 13),
        ("W602", "rules.rules", 6),
        ("W607", "pack.yaml", 8),  # score is read after all
    ]


def test_an_unread_entry_without_a_reason_is_refused(write_pack):
    root = write_pack(RULES, CARDS)
    with (root / "pack.yaml").open("a", encoding="utf-8") as fh:
        fh.write("unread: {card: \"\"}\n")
    b = build_pack(root)
    assert [d.message for d in b.diagnostics if d.code == "E348"] == [
        "unread: 'card' needs the reason it is kept, as text"]


def test_strict_makes_warnings_errors(write_pack, capsys):
    root = write_pack(RULES, CARDS)
    assert validate([root]).errors == 0
    assert validate([root], strict=True).errors == 4
    assert main(["validate", str(root)]) == 0
    assert main(["validate", "--strict", str(root)]) == 1
    out = capsys.readouterr().out
    assert "error[W601]: procedure 'orphan' is never called" in out
    assert out.rstrip().endswith("4 errors")


def test_the_shipped_packs_have_no_dead_data_but_where_they_say_why():
    found = [d for d in validate([REPO / "content" / "hannibal",
                                  REPO / "content" / "ante_portas"]).diagnostics
             if d.code.startswith("W60")]
    assert found == [], render_text(found)
