"""User-facing diagnostics: one shape for every problem a pack author can cause.

Codes are chosen by the module that reports them; this module only knows how
to hold, order and print them (as compiler-style text or as JSON).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Iterable

import attrs

SEVERITIES = ("error", "warning", "note")

# The line breaks YAML recognises; splitting the same way keeps our line
# numbers in step with the parser's marks (plain "\n" files are unaffected).
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")


@attrs.frozen
class Diagnostic:
    code: str  # e.g. "E201"; codes are defined by callers
    message: str
    path: str  # file path as given
    line: int  # 1-based; 0 when unknown
    col: int  # 1-based; 0 when unknown
    line_text: str = ""  # the offending source line (without newline)
    end_col: int | None = None  # caret span end (exclusive, 1-based)
    suggestion: str | None = None  # e.g. "did you mean 'north_gate'?"
    severity: str = attrs.field(default="error", validator=attrs.validators.in_(SEVERITIES))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def location(self) -> str:
        """`path:line:col`, dropping the parts that are unknown (0)."""
        if self.line <= 0:
            return self.path
        if self.col <= 0:
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.col}"

    def render(self) -> str:
        out = [f"{self.location()}: {self.severity}[{self.code}]: {self.message}"]
        if self.line_text and self.line > 0:
            num = str(self.line)
            gutter = " " * (len(num) + 2)
            out.append(f"  {num} | {self.line_text}".rstrip())
            if self.col > 0:
                width = max(1, (self.end_col or 0) - self.col)
                # Copy tabs from the source so the caret lines up in a terminal.
                lead = "".join(
                    "\t" if ch == "\t" else " " for ch in self.line_text[: self.col - 1]
                )
                lead += " " * (self.col - 1 - len(lead))
                out.append(f"{gutter} | {lead}{'^' * width}")
        if self.suggestion:
            out.append(f"  = help: {self.suggestion}")
        return "\n".join(out)

    def to_json(self) -> dict:
        return attrs.asdict(self)


class DslError(Exception):
    """Raised when a pack cannot be used; carries every diagnostic found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(render_text(self.diagnostics))

    def __str__(self) -> str:
        return render_text(self.diagnostics)

    def __reduce__(self):  # pickle by diagnostics, not by the rendered text
        return (type(self), (self.diagnostics,))


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """Suggest the closest candidate (case-insensitive), or None if none is close."""
    target = name.lower()
    best: tuple[float, str] | None = None
    for cand in sorted(set(candidates)):
        if cand == name:
            continue  # the name itself is no suggestion
        score = difflib.SequenceMatcher(None, target, cand.lower()).ratio()
        # Strictly greater keeps the alphabetically first of equal scores.
        if score >= 0.6 and (best is None or score > best[0]):
            best = (score, cand)
    return None if best is None else f"did you mean '{best[1]}'?"


def sort_key(d: Diagnostic) -> tuple[str, int, int]:
    return (d.path, d.line, d.col)


def render_text(diags: Iterable[Diagnostic]) -> str:
    """All diagnostics in the given order, separated by blank lines."""
    return "\n\n".join(d.render() for d in diags)


def json_data(diags: Iterable[Diagnostic]) -> dict:
    """Diagnostics and their counts as plain data (what `render_json` prints)."""
    diags = list(diags)
    return {
        "diagnostics": [d.to_json() for d in diags],
        "errors": sum(d.severity == "error" for d in diags),
        "warnings": sum(d.severity == "warning" for d in diags),
    }


def render_json(diags: Iterable[Diagnostic], **extra: object) -> str:
    """Diagnostics as JSON; `extra` adds top-level keys (e.g. coverage)."""
    return json.dumps({**json_data(diags), **extra}, indent=2, ensure_ascii=False, default=str)


def split_lines(text: str) -> list[str]:
    """Source lines as YAML counts them; a final line break ends no extra line."""
    lines = _LINE_BREAK.split(text)
    if len(lines) > 1 and lines[-1] == "":
        lines.pop()
    return lines


def position_of(text: str, index: int) -> tuple[int, int]:
    """1-based (line, col) of the character at `index` in `text`."""
    before = _LINE_BREAK.split(text[:index])
    return len(before), len(before[-1]) + 1


def source_line(text: str, line: int) -> str:
    """The 1-based `line` of `text` without its line break ("" if out of range)."""
    if line < 1:
        return ""
    lines = split_lines(text)
    return lines[line - 1] if line <= len(lines) else ""
