"""The parser's entry points: a whole `.rules` file, an effect field, a record's trigger
declarations; and the comments of a file (kept by the formatter).

After a syntax error the parser resumes at the next top-level declaration (a line that
starts in column 1), so one run reports every broken declaration of a file.
"""
from __future__ import annotations

import re
from typing import Any

import attrs
from lark import UnexpectedInput

from engine.dsl import ast as A
from engine.dsl.errors import Diagnostic, DslError
from engine.dsl.parser.lark_front import BadDedent, lark_parser, with_newline
from engine.dsl.parser.limits import limit_problems
from engine.dsl.parser.reductions import parse
from engine.dsl.parser.syntax_errors import dedent_diag, located_diag, syntax_diag
from engine.dsl.parser.tokens import Located, shift
from engine.dsl.parser.transform import RULES

# Among the broken names: an `on setup:` handler that does not parse. No name has a space, so
# this never hides a real one; the checker then does not also say the handler is missing.
BROKEN_SETUP = "on setup"


def parse_module(text: str, path: str = "<rules>") -> A.Module:
    """Parse a whole `.rules` file; raise DslError listing every syntax error."""
    module, diags, _broken = parse_module_partial(text, path)
    if diags:
        raise DslError(diags)
    return module


def parse_module_partial(text: str, path: str = "<rules>"
                         ) -> tuple[A.Module, list[Diagnostic], set[str]]:
    """The declarations that parse, a diagnostic for each one that does not, and the names
    the broken ones declare: one broken declaration must not hide the rest of the file from
    the checker, nor make every use of its name a second error."""
    decls, diags = _parse_with_recovery(text, path)
    broken: set[str] = set()
    if diags:
        bad_lines = {d.line for d in diags}
        for start, chunk in _top_level_chunks(text):
            end = start + chunk.count("\n") + 1
            if any(start < ln <= end for ln in bad_lines):
                m = _DECL_NAME.match(chunk)
                if m:
                    broken.add(m.group(1))
                elif _SETUP_HANDLER.match(chunk):
                    broken.add(BROKEN_SETUP)
    return A.Module(path, tuple(decls), extract_comments(text)), diags, broken


_DECL_NAME = re.compile(r"\s*(?:type|var|zone|event|procedure|value|graph|window|enum|const)\s+"
                        r"([A-Za-z_]\w*)")
_SETUP_HANDLER = re.compile(r"\s*on\s+setup\b")


def parse_effect(text: str, path: str = "<effect>", line: int = 1, col: int = 1
                 ) -> tuple[A.Stmt, ...]:
    """Parse a statement block embedded in a record field starting at (line, col) of `path`."""
    try:
        stmts: tuple[A.Stmt, ...] = _parsed(with_newline(text), "effect")
    except UnexpectedInput as err:
        d = syntax_diag(err, path, text, line - 1)
        raise DslError([_shift_diag(d, col - 1)]) from None
    except Located as err:
        raise DslError([located_diag(err, path, text, line - 1, col - 1)]) from None
    except BadDedent as err:
        raise DslError([dedent_diag(err, path, text, line - 1, col - 1)]) from None
    problem = next((p for p in limit_problems(list(stmts), 1, text) if p is not None), None)
    if problem is not None:
        raise DslError([located_diag(problem, path, text, line - 1, col - 1)])
    return shift(stmts, line - 1, col - 1)


def parse_record_decls(text: str, path: str, line: int, col: int
                       ) -> tuple[list[A.Decl], list[Diagnostic]]:
    """Declarations written in a record field that starts at (line, col) of `path`."""
    decls, diags = _parse_with_recovery(text, path)
    decls = [shift(d, line - 1, col - 1) for d in decls]
    diags = [attrs.evolve(d, line=d.line + line - 1, col=d.col + col - 1,
                          end_col=d.end_col + col - 1 if d.end_col else None) for d in diags]
    return decls, diags


_COMMENT = re.compile(r'"(?:[^"\\\n]|\\.)*"|(#[^\n]*)')


def extract_comments(text: str) -> tuple[tuple[int, int, str], ...]:
    """(line, col, text) of every comment; strings are skipped so '#' inside them is kept."""
    out = []
    for no, line in enumerate(text.split("\n"), 1):  # line numbers as the lexer counts them
        for m in _COMMENT.finditer(line):
            if m.group(1):
                out.append((no, m.start(1) + 1, m.group(1).rstrip("\r")))
                break
    return tuple(out)


def _parsed(text: str, start: str) -> Any:
    """The syntax tree of `text` (see `reductions.parse`). A syntax error anywhere in it
    comes before a rule's own mistake: the tree is built as the text is read, so a rule can
    find its mistake before the parser has read the text after it."""
    try:
        return parse(text, start, RULES)
    except Located:
        lark_parser().parse(text, start=start)  # raises the syntax error, if there is one
        raise


# ---- recovery ---------------------------------------------------------------------------
def _parse_chunk(text: str, path: str, line_offset: int
                 ) -> tuple[list[A.Decl] | None, Diagnostic | None]:
    """The declarations of `text` (a file, or one declaration starting on line
    `line_offset + 1`), or None and the syntax error."""
    try:
        decls: list[A.Decl] = _parsed(with_newline(text), "start")
        return decls, None
    except UnexpectedInput as err:
        return None, syntax_diag(err, path, text, line_offset)
    except Located as err:
        return None, located_diag(err, path, text, line_offset, 0)
    except BadDedent as err:
        return None, dedent_diag(err, path, text, line_offset, 0)


def _within_limits(decls: list[A.Decl], path: str, text: str, line_offset: int
                   ) -> tuple[list[A.Decl], list[Diagnostic]]:
    """The declarations that keep to the nesting limits (moved to their place in the file),
    and a diagnostic for each one that does not."""
    ok, diags = [], []
    for decl, problem in zip(decls, limit_problems(list(decls), 0, text)):
        if problem is None:
            ok.append(shift(decl, line_offset, 0))
        else:
            diags.append(located_diag(problem, path, text, line_offset, 0))
    return ok, diags


def _parse_with_recovery(text: str, path: str) -> tuple[list[A.Decl], list[Diagnostic]]:
    decls, diag = _parse_chunk(text, path, 0)
    if decls is not None:
        return _within_limits(decls, path, text, 0)
    # Parse each top-level declaration on its own to find every error in the file.
    found: list[A.Decl] = []
    diags: list[Diagnostic] = []
    for start, chunk in _top_level_chunks(text):
        got, d = _parse_chunk(chunk, path, start)
        if got is None:
            if d is not None:
                diags.append(d)
            continue
        ok, bad = _within_limits(got, path, chunk, start)
        found.extend(ok)
        diags.extend(bad)
    return found, diags or ([diag] if diag is not None else [])


def _top_level_chunks(text: str) -> list[tuple[int, str]]:
    """Split a file at lines that start in column 1 (declarations), keeping line numbers."""
    # only "\n" ends a line, as for the lexer (str.splitlines also splits at \f, \x1c, ...)
    lines = re.findall(r"[^\n]*\n|[^\n]+\Z", text)
    # a closing bracket in column 1 ends a declaration's bracketed expression (the formatter
    # writes long ones so): it starts no declaration of its own
    starts = [i for i, ln in enumerate(lines)
              if ln[:1] not in ("", " ", "\t", "\n", "\r", "#", ")", "]", "}")]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    bounds = starts + [len(lines)]
    return [(a, "".join(lines[a:b])) for a, b in zip(bounds, bounds[1:]) if a < b]


def _shift_diag(d: Diagnostic, dc: int) -> Diagnostic:
    """`d` moved `dc` columns right: an effect's first line starts at its YAML column."""
    return attrs.evolve(d, col=d.col + dc, end_col=(d.end_col + dc) if d.end_col else None)
