"""A failed pack check about records names each failing record's own file:line (issue 8,
hole 12): the designer sees the card whose `target` is wrong, not only the check."""
from __future__ import annotations

from pathlib import Path

from engine.core.validate import validate_paths

RULES = """
var active: side = red
type space
type card:
    target: space?
    power: int
check "every card has a target": every(c.target != none for c in card)
check "powers are positive": every(c in card where c.power > 0)
on setup:
    pass
"""
RECORDS = """
space:
  - id: roma
card:
  - id: good
    target: roma
    power: 1
  - id: aimless
    power: 2
  - id: weak
    target: roma
    power: 0
"""


def test_each_failing_record_is_located(write_pack):
    root = write_pack(RULES, {"cards.yaml": RECORDS})
    diags = [d for d in validate_paths([root]) if d.code == "E400"]
    shown = [(Path(d.path).name, d.line, d.col, d.message) for d in diags]
    assert shown == [
        ("rules.rules", 6, 1, "check failed: every card has a target"),
        ("cards.yaml", 7, 9, "card 'aimless' fails the check: every card has a target"),
        ("rules.rules", 7, 1, "check failed: powers are positive"),
        ("cards.yaml", 11, 12, "card 'weak' fails the check: powers are positive"),
    ]
    assert diags[1].suggestion.endswith("rules.rules:6")
    assert diags[3].line_text.strip() == "power: 0"  # the field the check reads


def test_many_failing_records_are_summed_up(write_pack):
    cards = "card:\n" + "".join(f"  - {{id: c{i}, power: 0}}\n" for i in range(30))
    root = write_pack(RULES, {"cards.yaml": "space:\n  - id: roma\n" + cards})
    diags = [d for d in validate_paths([root]) if d.code == "E400"
             and "powers" in d.message]
    assert len(diags) == 1 + 20 + 1
    assert diags[-1].message == "... and 10 more records fail the check: powers are positive"
