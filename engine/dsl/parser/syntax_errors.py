"""Syntax errors as diagnostics a designer can act on: lark's exceptions translated into
words ("unexpected end of line; expected a name, ..."), pointed at the right place (the
line an indented block starts on, the bracket that is never closed), and moved to where
the parsed text stands in its file.
"""
from __future__ import annotations

import re
from typing import cast

from lark import UnexpectedInput
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from engine.dsl.errors import Diagnostic, source_line
from engine.dsl.parser.lark_front import BadDedent, lark_parser
from engine.dsl.parser.tokens import Located

_TOKEN_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "end of file",
    "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '/' or '%'",
    "AUG_OP": "'+=' or '-='", "AT_LEAST": "'at least'", "AT_MOST": "'at most'",
    "TIMES": "'times'", "ONE_AT_A_TIME": "'one at a time'",
    "NO_EFFECT_WHEN": "'no effect when'", "ALWAYS_ASKED": "'always asked'",
}


def _describe(term: str) -> str:
    if term in _TOKEN_WORDS:
        return _TOKEN_WORDS[term]
    try:
        pattern = lark_parser().get_terminal(term).pattern
        if pattern.type == "str":
            return f"'{pattern.value}'"
    except KeyError:
        pass
    return term.lower()


def _expected_list(expected: set[str]) -> str:
    words = sorted({_describe(t) for t in expected if not t.startswith("__")})
    if len(words) > 8:
        return ", ".join(words[:8]) + ", ..."
    return ", ".join(words)


def syntax_diag(err: UnexpectedInput, path: str, text: str, line_offset: int) -> Diagnostic:
    """E100 for what lark could not parse in `text` (which starts on line
    `line_offset + 1` of `path`)."""
    line, col = err.line or 1, err.column or 1
    if isinstance(err, UnexpectedToken):
        tok = err.token
        at_eof = tok.type == "_DEDENT" and not text[tok.end_pos or 0:].strip()
        if tok.type == "$END" or at_eof:
            what = "unexpected end of file"
        elif tok.type == "_NL":
            what = "unexpected end of line"
        elif tok.type == "_INDENT":
            what = "unexpected indentation"
        elif tok.type == "_DEDENT":
            what = "unexpected end of block"
        else:
            what = f"unexpected {str(tok)!r}"
        message = f"{what}; expected {_expected_list(err.expected)}"
        end_col = (tok.end_column or col + 1) if tok.type not in ("_NL", "$END") else col + 1
        if tok.type == "_NL" or at_eof:  # point at the end of the line, not the next one
            line, col = tok.line or line, tok.column or col
            end_col = col + 1
        elif tok.type in ("_INDENT", "_DEDENT"):
            # The token borrows the place of the line break before it, which can be lines
            # above (blank lines and comments): point at the first token of the indented line.
            line, col = tok.end_line or line, tok.end_column or col
            end_col = col + _first_token_length(source_line(text, line), col)
    elif isinstance(err, UnexpectedCharacters):
        at = cast(int, err.pos_in_stream)  # lark's class says None: for this error, never
        ch = text[at] if at < len(text) else "?"
        message = f"unexpected character {ch!r}"
        if ch == "'":
            message += "; strings use double quotes"
        end_col = col + 1
    elif isinstance(err, UnexpectedEOF):
        message, end_col = "unexpected end of file", col + 1
    else:  # pragma: no cover - lark raises only the three above
        message, end_col = str(err), col + 1
    if "DedentError" in type(err).__name__:
        message = "inconsistent indentation"
    pos: int | None = getattr(err, "pos_in_stream", None)
    if isinstance(err, UnexpectedToken) and err.token.start_pos is not None:
        pos = err.token.start_pos
    opened = _unclosed_bracket(text, pos if pos is not None else len(text))
    at_end = isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type in ("$END", "_DEDENT", "_INDENT"))
    if opened is not None and (opened[0] < line or at_end):  # the real mistake is further up
        bline, bcol, ch = opened
        return Diagnostic("E100", f"'{ch}' is never closed", path, bline + line_offset, bcol,
                          source_line(text, bline), bcol + 1,
                          f"close it with '{_CLOSE[ch]}' before the end of line "
                          f"{bline + line_offset}")
    return Diagnostic("E100", message, path, line + line_offset, col,
                      source_line(text, line), end_col)


_CLOSE = {"(": ")", "[": "]"}
_FIRST_TOKEN = re.compile(r"\w+|\S")


def _first_token_length(line_text: str, col: int) -> int:
    m = _FIRST_TOKEN.match(line_text, col - 1)
    return len(m.group()) if m else 1


def _unclosed_bracket(text: str, upto: int) -> tuple[int, int, str] | None:
    """The innermost bracket still open at `upto`: (line, col, char), skipping strings and
    comments."""
    stack: list[tuple[int, int, str]] = []
    line, col, i = 1, 1, 0
    in_str = in_comment = False
    while i < min(upto, len(text)):
        ch = text[i]
        if ch == "\n":
            line, col, in_comment, in_str = line + 1, 0, False, False
        elif in_comment:
            pass
        elif in_str:
            if ch == "\\":
                i, col = i + 1, col + 1
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch == "#":
            in_comment = True
        elif ch in "([":
            stack.append((line, col, ch))
        elif ch in ")]" and stack:
            stack.pop()
        i, col = i + 1, col + 1
    return stack[-1] if stack else None


def dedent_diag(err: BadDedent, path: str, text: str, line_offset: int, col_offset: int
                ) -> Diagnostic:
    """E101 for a line indented like no enclosing block."""
    return Diagnostic("E101", str(err), path, err.line + line_offset, err.col + col_offset,
                      source_line(text, err.line), err.col + col_offset + 1,
                      "indent it like the block it belongs to")


def located_diag(err: Located, path: str, text: str, line_offset: int, col_offset: int
                 ) -> Diagnostic:
    at = err.at
    return Diagnostic(err.code, err.message, path, at.line + line_offset, at.col + col_offset,
                      source_line(text, at.line),
                      at.end_col + col_offset if at.end_line == at.line else None)
