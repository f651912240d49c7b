"""The words a pack's files may not use as names, and the keys they may use: the slug
shape of ids, pack.yaml's keys, the keys every record may carry, the reserved names and
the grammar's keywords.
"""
from __future__ import annotations

import re
from pathlib import Path

SLUG = re.compile(r"^[a-z][a-z0-9_]*$")
PACK_KEYS = {"id": True, "name": True, "version": True, "sides": True, "languages": False,
             "sources": False, "description": False, "options": False, "provenance": False,
             "board": False, "playable": False, "names_from": False, "limits": False,
             "imports": False, "glossary": False, "determinize": False, "deal_by": False,
             "turn_event": False, "heuristic": False, "search_heuristic": False,
             "search_minimax": False, "balance": False,
             "unread": False}
# pack.yaml `deal_by`: how a bot's imagined copy deals the hidden records anew
# (engine.core.determinize)
DEAL_BY = ("type", "side")
# Keys every record may carry besides its type's fields.
RECORD_META = ("id", "name", "source", "reconstructed", "note", "disagree")
# Keys of one `disagree:` entry.
DISAGREE_KEYS = ("field", "value", "source", "note")
RESERVED = {"sides", "self", "none", "true", "false", "active_side"}



def _grammar_keywords() -> frozenset[str]:
    """Words the grammar spells out ("choose", "order", ...): not usable as declared names,
    since a statement starting with one of them reads as that keyword."""
    text = (Path(__file__).parent.parent / "grammar.lark").read_text(encoding="utf-8")
    return frozenset(re.findall(r'"([a-z_]+)"', text))


KEYWORDS = _grammar_keywords()
