"""engine.dsl.pack.provenance: how a rule without provenance is named, whatever its name."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.dsl.pack import read_pack


def test_unsourced_rules_are_named_by_kind_not_by_name(write_pack: Callable[..., Path]) -> None:
    # names that start like "trigger N" or "extend T" keys are plain names: reading the pack
    # once failed on `var trigger_count` (a var has no trigger kind)
    root = write_pack("""
        type card
        extend type card:
            extra: int = 0
        var trigger_count: int = 0
        var extended: int = 0
        on setup:
            end game
    """)
    source = read_pack(root)
    assert source.model.unsourced_rules == [
        (str(root / "rules.rules"), 1, "card"),
        (str(root / "rules.rules"), 2, "extend type card"),
        (str(root / "rules.rules"), 4, "trigger_count"),
        (str(root / "rules.rules"), 5, "extended"),
        (str(root / "rules.rules"), 6, "on setup"),
    ]
