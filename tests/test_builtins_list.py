"""The public list of the language's built-ins (engine.dsl.builtins): the checker takes the
functions' numbers of arguments from it, docs/language.md's table is written from it and
current, and the examples of the docs' queries call the built-ins it lists, each of them."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.dsl import builtins as B
from engine.dsl.check import BUILTINS as CHECKED
from engine.dsl.pack.words import RESERVED

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"


def test_the_docs_table_is_written_from_the_list():
    text = DOC.read_text(encoding="utf-8")
    assert B.with_table(text) == text, "run python -m engine.dsl.builtins"
    assert B.main(["--check"]) == 0
    table = text[text.index(B.BEGIN):text.index(B.END)]
    for b in B.FUNCTIONS + B.VALUES:
        signature = b.signature.replace("|", "\\|")
        assert f"| `{signature}` | " in table, b.name


def test_the_table_is_found_stale(tmp_path):
    text = DOC.read_text(encoding="utf-8")
    stale = text.replace("| `abs(x: int) -> int` |", "| `abs(x) -> int` |")
    assert stale != text and B.with_table(stale) == text


def test_the_checker_counts_the_arguments_the_list_gives():
    assert {b.name: b.args for b in B.FUNCTIONS} == CHECKED
    assert all(b.function for b in B.FUNCTIONS) and not any(b.function for b in B.VALUES)


def test_the_values_are_the_reserved_names():
    # `active_side` is reserved for the engine's own use: no rule reads it
    assert {b.name for b in B.VALUES} == RESERVED - {"active_side"}


@pytest.fixture(scope="module")
def queries() -> str:
    """The code block of the docs' queries (## Expressions)."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## Expressions"):text.index("## Types and names")]
    return section[section.index("Queries:"):]


def test_the_docs_queries_call_the_listed_built_ins(queries):
    block = queries[queries.index("```"):queries.index("```", queries.index("```") + 3)]
    called = set(re.findall(r"\b([a-z_]+)\(", block))
    # hand_size and strength: the docs' example of a pack's own value and procedure; `run`
    # is a statement, shown with the statements
    assert called - {"hand_size", "strength"} == {b.name for b in B.FUNCTIONS} - {"run"}
    text = DOC.read_text(encoding="utf-8")
    statements = text[text.index("## Statements"):text.index("### Modifiers and durations")]
    assert "\nrun(c.effect) " in statements
