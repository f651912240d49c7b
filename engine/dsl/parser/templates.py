"""Templates: the text of a prompt, a log line or a win reason with `{expression}`
placeholders. Split into literal text and placeholders (`split_template`), numbered as the
game keeps them (`numbered_template`), and the placeholders parsed as expressions placed
where they are written (`placeholders`). A placeholder may choose a plural form by its
count (`{left:# movement point|# movement points}`, `plural_choice`): the forms in the order
of the language's plural rule, '#' standing for the number; in the rules (English) two.
"""
from __future__ import annotations

from lark import Token, UnexpectedInput

from engine.dsl import ast as A
from engine.dsl.parser.lark_front import BadDedent
from engine.dsl.parser.reductions import parse
from engine.dsl.parser.tokens import Located, shift, unquote


def split_template(text: str) -> list[tuple[str, str, int]]:
    """The parts of a prompt: ("text", literal, index) and ("arg", expression text, index of
    its first character), where `{expr}` is a placeholder and `{{` / `}}` are braces.
    ValueError(message, index) for a brace that is not closed or not doubled."""
    parts: list[tuple[str, str, int]] = []
    buf: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "{}" and text[i + 1:i + 2] == ch:
            buf.append(ch)
            i += 2
        elif ch == "}":
            raise ValueError("a '}' that closes no placeholder: write '}}' for a brace", i)
        elif ch == "{":
            end = text.find("}", i + 1)
            if end < 0:
                raise ValueError("a '{' whose placeholder is never closed: end it with '}', or "
                                 "write '{{' for a brace", i)
            if not text[i + 1:end].strip():
                raise ValueError("an empty placeholder: write an expression in it, like {x}", i)
            if buf:
                parts.append(("text", "".join(buf), i))
                buf = []
            parts.append(("arg", text[i + 1:end], i + 1))
            i = end + 1
        else:
            buf.append(ch)
            i += 1
    if buf:
        parts.append(("text", "".join(buf), n))
    return parts


def plural_choice(body: str) -> tuple[str, str | None]:
    """A placeholder's expression and its plural choice: "left:# point|# points" ->
    ("left", "# point|# points"); ("x", None) without one. The choice starts at the first
    ':' outside brackets and string literals (an expression has none there: the colon of a
    typed lambda stands in parentheses)."""
    depth, quote, i = 0, False, 0
    while i < len(body):
        ch = body[i]
        if quote:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quote = False
        elif ch == '"':
            quote = True
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == ":" and depth <= 0:
            return body[:i], body[i + 1:]
        i += 1
    return body, None


def plural_forms(choice: str) -> list[str]:
    """The forms of a plural choice, in the order of the language's plural rule ("# point|#
    points": one, other); '#' in a form stands for the number."""
    return choice.split("|")


def choice_problem(choice: str, forms: int | None = 2, lang: str = "the rules' English"
                   ) -> str | None:
    """What is wrong with a plural choice (None: nothing): `forms` is how many its language
    `lang` needs (None: any number from two)."""
    got = plural_forms(choice)
    if "{" in choice:
        return "a plural form cannot hold a brace"
    if any(not f.strip() for f in got):
        return "an empty plural form: write each form, as in {n:# point|# points}"
    if forms is None and len(got) < 2:
        return ("a plural choice needs its language's forms, separated by '|', as in "
                "{n:# point|# points}")
    if forms is not None and len(got) != forms:
        return (f"{len(got)} plural form(s) where {lang} needs {forms}, separated by '|'"
                + (" (one|other, as in {n:# point|# points})" if forms == 2 else ""))
    return None


def counted(text: str) -> list[bool]:
    """For each placeholder of a template, whether it chooses a plural form (its value is
    a count); [] for a template whose braces do not pair."""
    try:
        parts = split_template(text)
    except ValueError:
        return []
    return [plural_choice(t)[1] is not None for kind, t, _i in parts if kind == "arg"]


def numbered_template(parts: list[tuple[str, str, int]]) -> str:
    """A split template (`split_template`) as the game keeps it: its placeholders numbered
    in order, literal braces doubled ("{l} marches to {dest}" -> "{0} marches to {1}"); a
    plural choice stays after its number ("{n:# CU|# CUs}" -> "{2:# CU|# CUs}")."""
    out, n = [], 0
    for kind, t, _i in parts:
        if kind == "arg":
            choice = plural_choice(t)[1]
            out.append(f"{{{n}}}" if choice is None else f"{{{n}:{choice}}}")
            n += 1
        else:
            out.append(t.replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def _raw_columns(tok: Token) -> list[int]:
    """For each character of the string token's text, its column in the source."""
    raw, cols, i = str(tok), [], 1
    while i < len(raw) - 1:
        cols.append((tok.column or 1) + i)
        i += 2 if raw[i] == "\\" else 1
    cols.append((tok.column or 1) + len(raw) - 1)  # the closing quote
    return cols


def placeholders(tok: Token, rules: object, what: str = "prompt") -> tuple[A.Expr, ...]:
    """The expressions of the `{placeholders}` of a prompt or log text, placed where they are
    written; `rules` make the syntax tree (the parser's, engine.dsl.parser.transform)."""
    text = unquote(tok)
    if "{" not in text and "}" not in text:
        return ()
    cols = _raw_columns(tok)
    line = tok.line or 1
    try:
        parts = split_template(text)
    except ValueError as err:
        message, index = err.args
        col = cols[min(index, len(cols) - 1)]
        raise Located(f"bad {what}: {message}", A.Pos(line, col, line, col + 1),
                      "E285") from None
    out = []
    for kind, body, index in parts:
        if kind != "arg":
            continue
        col = cols[index]
        body, choice = plural_choice(body)
        if choice is not None:
            at = index + len(body) + 1
            if not body.strip():
                raise Located(f"bad {what}: a plural choice needs the count it chooses by, "
                              "as in {n:# point|# points}", A.Pos(line, col, line, col + 1),
                              "E285")
            problem = choice_problem(choice)
            if problem is not None:
                start = cols[min(at, len(cols) - 1)]
                end = cols[min(at + len(choice), len(cols) - 1)]
                raise Located(f"bad {what}: {problem}", A.Pos(line, start, line,
                                                               max(end, start + 1)), "E285")
        try:
            expr: A.Expr = parse(body + "\n", "expression", rules)
        except (UnexpectedInput, Located, BadDedent):
            end = col + len(body)
            raise Located(f"bad placeholder {{{body}}}: not an expression", A.Pos(
                line, col, line, end), "E285") from None
        out.append(shift(expr, line - 1, col - 1))
    return tuple(out)
