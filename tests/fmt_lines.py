"""What a formatted rules file must not hold: `lone_lines`, the lines of one name alone (or
one bracket around one line) where another layout fits: the line before had room for it,
or the last item of the line before would fit beside it (issue 35)."""
from __future__ import annotations

import re

from engine.dsl.formatter import WIDTH

STRING = r'"(?:[^"\\\n]|\\.)*"'
# one word of an expression: a name or a field of one, a number, a string, `(order)`
_WORD = re.compile(rf"(?:\(?[A-Za-z_]\w*\)?(?:\.[A-Za-z_]\w*)*|-?\d+|{STRING}),?")
_CODE = re.compile(rf"(?:{STRING}|[^\"#])*")


def _code(line: str) -> str:
    """The line without its comment."""
    match = _CODE.match(line)
    return (match.group(0) if match else line).rstrip()


def lone_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) of each line, inside a broken statement, that holds one word
    alone, or one opening bracket around a single line, where the line before had room
    for it (for the first item after an opening bracket: where a broken item after it
    could start beside it), or where the line before ends a list of several items (not a
    broken one) whose last would fit beside the word on the word's line: what the
    formatter must not print
    unless nothing else fits. A word alone in brackets, `f(` / `x` / `)`, would take along what
    follows the closing bracket (and lose the brackets if they are parentheses of its
    own, `by (` / `s` / `) prompt`)."""
    lines = [_code(line) for line in text.split("\n")] + [""]
    found = []
    prev = ""
    for no, line in enumerate(lines[:-1], 1):
        s = line.strip()
        if not s:
            continue  # a blank line, or a comment on a line of its own
        opened = prev.endswith(("(", "["))
        after = lines[no].strip()
        # after a closing bracket (`),`), a name would follow a broken item: no layout
        if (opened or prev.endswith((",", "\\"))) and prev.strip()[:1] not in ")]":
            room = len(prev.rstrip("\\ ")) + (0 if opened else 1)
            if _WORD.fullmatch(s):
                if opened and after[:1] in ")]":  # the word and what closes it
                    room += len(after) - 2 * prev.endswith(" (")
                    fits = room + len(s) <= WIDTH
                elif opened:
                    # the first of several items: the formatter joins no item to the line
                    # of the opening bracket; only a broken item after it could share its
                    # line (`0, (` / .. / `)`)
                    indent = len(line) - len(line.lstrip())
                    fits = after.endswith(("(", "[")) and indent + len(s) + 1 + len(after) <= WIDTH
                else:
                    fits = room + len(s) <= WIDTH or _moves_down(prev, line, s)
                if fits:
                    found.append((no, s))
            elif s in ("(", "[") and no + 1 < len(lines):
                close = lines[no + 1].strip()
                # after an opening bracket, the other layout is `(x)` on the bracket's own
                # line (joined to that bracket, the content would hang with its close below)
                if opened:
                    room = len(line) - len(line.lstrip())
                if close[:1] in ")]" and room + len(s) + len(after) + len(close) <= WIDTH:
                    found.append((no, s))
        prev = line
    return found


def _moves_down(prev: str, line: str, word: str) -> bool:
    """Would the last of several items of `prev` (a line ending in `,`) fit beside `word`
    on the word's line (`a, b,` / `c` laid out as `a,` / `b, c`)?"""
    if not prev.endswith(","):
        return False
    items = _items(prev.strip()[:-1])
    indent = len(line) - len(line.lstrip())
    return len(items) > 1 and indent + len(items[-1]) + 2 + len(word) <= WIDTH


def _items(text: str) -> list[str]:
    """The items of a line of a list: split at the commas outside strings and brackets, at
    any depth of nesting (`((a) + b)[c], d` is two items). A bracket that closes one opened
    on an earlier line ends nothing here: the depth stays at 0."""
    items, depth, start = [], 0, 0
    for match in _TOKEN.finditer(text):
        token = match.group(0)
        if token in ("(", "["):
            depth += 1
        elif token in (")", "]"):
            depth = max(depth - 1, 0)
        elif token == "," and depth == 0:
            items.append(text[start:match.start()].strip())
            start = match.end()
    return [*items, text[start:].strip()]


_TOKEN = re.compile(rf"{STRING}|[,()\[\]]")
