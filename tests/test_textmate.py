"""The TextMate grammar of the VS Code folder (editors/vscode) is the one
`python -m engine.dsl.textmate` writes from grammar.lark, and it colours every keyword."""
from __future__ import annotations

import json
import re
from pathlib import Path

from engine.dsl import textmate
from engine.dsl.pack import KEYWORDS

REPO = Path(__file__).resolve().parent.parent
SHIPPED = REPO / "editors" / "vscode" / "syntaxes" / "rules.tmLanguage.json"


def test_the_shipped_grammar_is_current():
    text = textmate.GRAMMAR.read_text(encoding="utf-8")
    assert SHIPPED.read_text(encoding="utf-8") == textmate.render(text), (
        "write it again: python -m engine.dsl.textmate > editors/vscode/syntaxes/"
        "rules.tmLanguage.json")
    assert textmate.main(["--check", str(SHIPPED)]) == 0


def test_check_refuses_a_stale_file(tmp_path, capsys):
    stale = tmp_path / "rules.tmLanguage.json"
    stale.write_text(SHIPPED.read_text(encoding="utf-8").replace("choose|", ""),
                     encoding="utf-8")
    assert textmate.main(["--check", str(stale)]) == 1
    assert "python -m engine.dsl.textmate >" in capsys.readouterr().err


def test_every_keyword_is_coloured():
    grammar = json.loads(SHIPPED.read_text(encoding="utf-8"))
    matches = [re.compile(p["match"]) for p in grammar["patterns"] if "match" in p]
    for word in KEYWORDS:
        scopes = [p["name"] for p in grammar["patterns"]
                  if "match" in p and re.compile(p["match"]).fullmatch(word)]
        assert scopes, f"keyword {word!r} is not coloured"
    # the grammar's phrases of several words, spaced as a designer may space them
    for phrase in ("one at a time", "no  effect when", "always asked", "at least", "at most"):
        assert any(m.fullmatch(phrase) for m in matches), phrase
    assert re.compile(grammar["repository"]["comment"]["match"]).match("# source: seed 1")
