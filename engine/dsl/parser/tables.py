"""The parse tables of `engine/dsl/grammar.lark`, shipped beside it (`grammar.tables.json`),
so that no first run builds them (lark takes a fifth of a second; its own cache lives in
the build cache's folder, which starts empty). The file is what lark's cache holds, as JSON:
the grammar's digest and lark's version come with it, and tables of another grammar or
another lark are never used (the parser is built as before).

    python -m engine.dsl.parser           # write the file after changing the grammar
    python -m engine.dsl.parser --check   # exit 1 if it is not the grammar's

(lark numbers the states differently from one run to the next, so two writes of the same
grammar differ in their text: the digest is what says whose tables they are.)
`tests/test_parser.py` checks that the shipped file is the grammar's, and that the parser
read from it parses as the one built from the grammar.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import lark

HERE = Path(__file__).resolve().parent.parent
GRAMMAR = HERE / "grammar.lark"
TABLES = HERE / "grammar.tables.json"


def grammar_digest() -> str:
    return hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()


def shipped() -> tuple[dict[str, Any], dict[str, Any]] | None:
    """lark's (data, memo) of the parser from the shipped file; None when there is none,
    or it is not this grammar's or this lark's."""
    try:
        blob = json.loads(TABLES.read_text(encoding="utf-8"), object_pairs_hook=_keys)
    except (OSError, ValueError):
        return None
    if not isinstance(blob, dict) or blob.get("grammar") != grammar_digest() \
            or blob.get("lark") != lark.__version__:
        return None
    return blob["data"], blob["memo"]


def _keys(pairs: list[tuple[str, Any]]) -> dict[Any, Any]:
    # JSON's keys are text: lark's tables number their states, tokens and shared parts
    return {int(k) if k.isdigit() else k: v for k, v in pairs}


def tables_text(parser: lark.Lark) -> str:
    """The file for `parser` (built from the grammar, not from tables)."""
    data, memo = parser.memo_serialize([lark.lexer.TerminalDef, lark.grammar.Rule])
    # what is given again when the tables are loaded, and is no data
    data["options"] = {k: v for k, v in data["options"].items()
                       if k not in ("postlex", "import_paths", "source_path", "cache")}
    blob = {"grammar": grammar_digest(), "lark": lark.__version__, "data": data, "memo": memo}
    return json.dumps(blob, sort_keys=True, separators=(",", ":")) + "\n"
