"""A TextMate grammar of the rules language, for editors' syntax colouring, made from
`grammar.lark`: every word the grammar spells out (its keywords) and its terminals of
several words (`one at a time`, `at least`), each coloured by what it does.

    python -m engine.dsl.textmate > editors/vscode/syntaxes/rules.tmLanguage.json
    python -m engine.dsl.textmate --check editors/vscode/syntaxes/rules.tmLanguage.json

A word the grammar gains is coloured as a keyword without any change here; `_ROLES` only
says which ones are declarations, control flow, actions, operators or constants.
`tests/test_textmate.py` holds the shipped file equal to what this writes.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

SCOPE = "source.rules"
GRAMMAR = Path(__file__).parent / "grammar.lark"
# keywords by the scope that colours them; a keyword in none is `keyword.other.rules`
_ROLES = {
    "storage.type.declaration": "type var zone event procedure value check invariant graph "
                                "window extend enum const created list of let",
    "keyword.control": "if elif else for while repeat return break continue pass",
    "keyword.other.action": "choose ask order draw open create emit enqueue move shuffle "
                            "destroy reveal modify set win end game log",
    "keyword.operator.word": "and or not in",
    "constant.language": "true false none",
}
_WORDS_ONLY = re.compile(r"[a-z]")  # a terminal of words starts with a lower-case letter
_TERMINAL = re.compile(r"^([A-Z_]+)(?:\.\d+)?:\s*/(.+)/\s*$", re.M)
_QUOTED = re.compile(r'"([a-z_]+)"')
_LANGUAGE_NAMES = ("self", "sides", "active_side")  # names the language gives a meaning


def keywords(text: str) -> list[str]:
    """The words the grammar spells out, in alphabetical order."""
    return sorted(set(_QUOTED.findall(text)))


def phrases(text: str) -> list[str]:
    """The regular expressions of the grammar's terminals made of words (`at least`)."""
    return [m.group(2) for m in _TERMINAL.finditer(text) if _WORDS_ONLY.match(m.group(2))]


def grammar(text: str) -> dict[str, Any]:
    words = keywords(text)
    by_role: dict[str, list[str]] = {}
    for word in words:
        role = next((r for r, ws in _ROLES.items() if word in ws.split()), "keyword.other")
        by_role.setdefault(role, []).append(word)
    patterns: list[dict[str, Any]] = [
        {"include": "#comment"}, {"include": "#string"}, {"include": "#declaration"},
        {"name": "keyword.other.rules",
         "match": r"\b(?:" + "|".join(p.replace("/", r"\/") for p in phrases(text)) + ")"},
    ]
    patterns += [{"name": f"{role}.rules", "match": r"\b(?:" + "|".join(ws) + r")\b"}
                 for role, ws in by_role.items()]
    patterns += [
        {"name": "variable.language.rules",
         "match": r"\b(?:" + "|".join(_LANGUAGE_NAMES) + r")\b"},
        {"name": "constant.numeric.integer.rules", "match": r"\b[0-9]+\b"},
        {"name": "keyword.operator.rules", "match": r"=>|->|==|!=|<=|>=|\+=|-=|\.\.|[-+*/%<>=]"},
    ]
    return {
        "name": "Rules",
        "scopeName": SCOPE,
        "fileTypes": ["rules"],
        "comment": "Written by `python -m engine.dsl.textmate` from engine/dsl/grammar.lark: "
                   "do not edit by hand.",
        "patterns": patterns,
        "repository": {
            "comment": {"name": "comment.line.number-sign.rules", "match": "#.*$"},
            "string": {
                "name": "string.quoted.double.rules", "begin": '"', "end": '"|$',
                "patterns": [
                    {"name": "constant.character.escape.rules", "match": r"\\."},
                    {"name": "meta.interpolation.rules", "match": r"\{[^{}\"]*\}"},
                ],
            },
            "declaration": {
                "match": r"\b(procedure|value|event|window|type|enum|zone|var|const|graph)"
                         r"\s+([A-Za-z_][A-Za-z0-9_]*)",
                "captures": {"1": {"name": "storage.type.declaration.rules"},
                             "2": {"name": "entity.name.function.rules"}},
            },
        },
    }


def render(text: str) -> str:
    return json.dumps(grammar(text), indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.dsl.textmate",
        description="Print the TextMate grammar of the rules language (from grammar.lark).")
    parser.add_argument("--check", metavar="FILE",
                        help="print nothing; exit 1 if FILE is not what would be printed")
    args = parser.parse_args(argv)
    text = render(GRAMMAR.read_text(encoding="utf-8"))
    if args.check is None:
        sys.stdout.write(text)
        return 0
    try:
        current = Path(args.check).read_text(encoding="utf-8") == text
    except OSError:
        current = False
    if not current:
        print(f"{args.check} is not the grammar's: write it again with "
              f"`python -m engine.dsl.textmate > {args.check}`", file=sys.stderr)
    return 0 if current else 1


if __name__ == "__main__":
    sys.exit(main())
