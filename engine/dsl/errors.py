"""User-facing diagnostics: one shape for every problem a pack author can cause.

Codes are chosen by the module that reports them; this module only knows how
to hold, order and print them (as compiler-style text or as JSON).
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

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

    def to_json(self) -> dict[str, Any]:
        return attrs.asdict(self)


class DslError(Exception):
    """Raised when a pack cannot be used; carries every diagnostic found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(render_text(self.diagnostics))

    def __str__(self) -> str:
        return render_text(self.diagnostics)

    def __reduce__(self) -> tuple[type[DslError], tuple[list[Diagnostic]]]:
        # pickle by diagnostics, not by the rendered text
        return (type(self), (self.diagnostics,))


_CLOSE_ENOUGH = 0.6  # difflib's similarity ratio a suggestion needs


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """Suggest the closest candidate (case-insensitive), or None if none is close."""
    best = _closest(name, frozenset(candidates))
    return None if best is None else f"did you mean '{best}'?"


@functools.lru_cache(maxsize=4096)
def _closest(name: str, candidates: frozenset[str]) -> str | None:
    """The candidate with the highest difflib ratio to `name` (at least _CLOSE_ENOUGH; of equal
    scores the alphabetically first). A broken pack asks this for hundreds of names against
    pools of hundreds, so cheap upper bounds of the ratio (lengths, then shared letters) skip
    most candidates before the costly comparison; the answer is the same as comparing all."""
    target = name.lower()
    letters = tuple(Counter(target).items())
    best: tuple[float, str] | None = None
    # Lengths closest to the name's first: their bound is highest, so a good match found
    # there rules out the far lengths without looking at their words.
    for length, words in sorted(_pool(candidates), key=lambda b: abs(b[0] - len(target))):
        total = len(target) + length
        if total == 0 or not _may_tie(2.0 * min(len(target), length) / total, best):
            continue  # further lengths may not be worse on the other side, so go on
        for cand, low, cand_letters in words:
            if cand == name:
                continue  # the name itself is no suggestion
            if not _beats(2.0 * _shared_letters(letters, cand_letters) / total, cand, best):
                continue
            score = difflib.SequenceMatcher(None, target, low).ratio()
            if _beats(score, cand, best):
                best = (score, cand)
    return None if best is None else best[1]


def _may_tie(bound: float, best: tuple[float, str] | None) -> bool:
    return bound >= (_CLOSE_ENOUGH if best is None else best[0])


def _beats(score: float, cand: str, best: tuple[float, str] | None) -> bool:
    """Is `cand` with `score` a better suggestion than `best`? Of equal scores the
    alphabetically first wins, whatever order the candidates come in."""
    if best is None:
        return score >= _CLOSE_ENOUGH
    return score > best[0] or (score == best[0] and cand < best[1])


def _shared_letters(letters: tuple[tuple[str, int], ...], other: Counter[str]) -> int:
    """How many letters two words have in common, counting repeats: no sequence of matching
    blocks (what difflib's ratio counts) can be longer. A plain loop: Counter's `&` is slower."""
    shared = 0
    for ch, n in letters:
        m = other.get(ch)
        if m:
            shared += n if n < m else m
    return shared


_Word = tuple[str, str, Counter[str]]  # a candidate, its lower-case form and that form's letters


@functools.lru_cache(maxsize=64)
def _pool(candidates: frozenset[str]) -> tuple[tuple[int, tuple[_Word, ...]], ...]:
    """The candidates grouped by the length of their lower-case form. The checker asks with a
    new set for each scope (the pack's names plus the scope's locals), so each word's letters
    are counted once (`_word`), not once per set."""
    by_length: dict[int, list[_Word]] = {}
    for c in candidates:
        word = _word(c)
        by_length.setdefault(len(word[1]), []).append(word)
    return tuple((n, tuple(words)) for n, words in by_length.items())


@functools.lru_cache(maxsize=1 << 15)
def _word(candidate: str) -> _Word:
    low = candidate.lower()
    return candidate, low, Counter(low)


def sort_key(d: Diagnostic) -> tuple[str, int, int]:
    return (d.path, d.line, d.col)


def render_text(diags: Iterable[Diagnostic]) -> str:
    """All diagnostics in the given order, separated by blank lines."""
    return "\n\n".join(d.render() for d in diags)


def json_data(diags: Iterable[Diagnostic]) -> dict[str, Any]:
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
    lines = _lines_of(text)
    return lines[line - 1] if line <= len(lines) else ""


@functools.lru_cache(maxsize=8)
def _lines_of(text: str) -> tuple[str, ...]:
    # Kept for the last few texts: a broken pack asks for hundreds of lines of one file.
    return tuple(split_lines(text))
