"""The words of a pack's files as an editor points at them: each name of a line with its
column, outside comments and strings, and whether it follows a `.` (a field, an enum's
value, a record of a type: `x.name`). Positions are 0-based, columns in characters."""
from __future__ import annotations

import re
from collections.abc import Iterator

import attrs

# a string (skipped), a comment (ends the line), a range's `..` (no member after it), a dot,
# a name, a number or any other mark
_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"?|#.*|\.\.|\.|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\S')
# in YAML a comment starts a line or follows a space; `#` elsewhere is part of the value
_YAML_COMMENT = re.compile(r"(?:^|\s)#.*")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@attrs.frozen
class Word:
    text: str
    line: int  # 0-based
    col: int  # 0-based, in characters
    owner: str | None = None  # the name before the `.` of `owner.text`; "" when not a name
    member: bool = False  # follows a `.`

    @property
    def end(self) -> int:
        return self.col + len(self.text)


def rules_words(lines: list[str]) -> Iterator[Word]:
    """The names of a rules file, outside comments and strings."""
    for number, line in enumerate(lines):
        yield from _line_words(line, number)


def _line_words(line: str, number: int) -> Iterator[Word]:
    before: str | None = None  # the last token, to tell `a.b` from `a .. b`
    owner: str | None = None
    for m in _TOKEN.finditer(line):
        tok = m.group()
        if tok.startswith("#"):
            return
        if tok == ".":
            owner, before = (before if before and _NAME.fullmatch(before) else ""), "."
            continue
        if _NAME.fullmatch(tok):
            member = before == "."
            yield Word(tok, number, m.start(), owner if member else None, member)
        owner, before = None, tok


def yaml_words(lines: list[str]) -> Iterator[Word]:
    """The names of a YAML file, outside comments (rules text in a field included)."""
    for number, line in enumerate(lines):
        yield from _line_words(_yaml_code(line), number)


def _yaml_code(line: str) -> str:
    """A YAML line without its comment, its quotes blanked: a quoted value is read as
    rules text (`event: "sway([gauls])"`), its columns kept."""
    cut = _YAML_COMMENT.search(line)
    return (line[:cut.start()] if cut else line).replace('"', " ").replace("'", " ")


def words_of(path: str, lines: list[str]) -> Iterator[Word]:
    return yaml_words(lines) if path.endswith((".yaml", ".yml")) else rules_words(lines)


def word_at(path: str, lines: list[str], line: int, col: int) -> Word | None:
    """The name at (line, col), or the one that ends there (the cursor right after it)."""
    if not 0 <= line < len(lines):
        return None
    row = _yaml_code(lines[line]) if path.endswith((".yaml", ".yml")) else lines[line]
    for w in _line_words(row, line):
        if w.col <= col <= w.end:
            return w
    return None


def prefix_at(lines: list[str], line: int, col: int) -> tuple[str, tuple[str, ...] | None]:
    """What is typed before (line, col): the name begun there, and the names of `a.b.`
    right before it (`("a", "b")`; empty when what comes before the `.` is no plain name,
    `hand[s].`; None when no `.`)."""
    row = lines[line][:col] if 0 <= line < len(lines) else ""
    begun = _BEGUN.search(row)
    prefix = begun.group() if begun else ""
    before = row[:len(row) - len(prefix)].rstrip()
    if not before.endswith(".") or before.endswith(".."):  # `lo..hi`: a range, no member
        return prefix, None
    owner = _CHAIN.search(before[:-1])
    if owner is None or before[:owner.start()].rstrip().endswith((".", ")", "]")):
        return prefix, ()
    return prefix, tuple(n.strip() for n in owner.group().split("."))


_BEGUN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
_CHAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)*\s*$")
