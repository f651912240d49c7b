"""The sentences of a pack's rules (`log` texts, win reasons, prompts) and their keys: the
numbered form the game logs a sentence by, and a translation's template put in that form;
a number shown in one (`Count`), which chooses the plural form a template asks of it."""
from __future__ import annotations

from engine.i18n import plural_form, plural_forms


class Count(str):
    """A number as a sentence shows it, in a language: `{0}` shows it as it is, a plural
    choice `{0:# point|# points}` (the forms in the order of the language's plural rule,
    '#' the number) shows the form for it. A choice with another number of forms than the
    language has is the rules' English: one for 1, the other for the rest."""

    n: int
    lang: str

    def __new__(cls, n: int, lang: str) -> Count:
        self = super().__new__(cls, str(n))
        self.n, self.lang = n, lang
        return self

    def __getnewargs__(self) -> tuple[int, str]:  # type: ignore[override]
        return self.n, self.lang  # a copy (copy, pickle) is a count in the same language

    def __format__(self, spec: str) -> str:
        if "|" not in spec:
            return str.__format__(str(self), spec)
        forms = spec.split("|")
        if len(forms) == plural_forms(self.lang):
            index = plural_form(self.lang, self.n)
        else:
            index = int(abs(self.n) != 1)
        return forms[min(index, len(forms) - 1)].replace("#", str(self))


def fill(template: str, values: list[object], lang: str = "en") -> str:
    """A numbered template filled with plain values as they are (record ids, numbers), a
    count taking the plural form a choice asks of it ("{0:# CU|# CUs}", [1] -> "1 CU")."""
    return template.format(*(Count(v, lang) if isinstance(v, int) and not isinstance(v, bool)
                             else v for v in values))


def compiled_template(text: str) -> str:
    """A sentence of the rules (a `log` text that holds its own `{placeholders}`, a win
    reason, a prompt) as the game keeps it: its placeholders numbered in order, by the same
    engine.dsl.parser.numbered_template the compiler uses ("{l} marches to {dest}" -> "{0} marches
    to {1}")."""
    from engine.dsl.parser import numbered_template, split_template
    if "{" not in text and "}" not in text:
        return text
    try:
        parts = split_template(text)
    except ValueError:
        return text
    if not any(kind == "arg" for kind, _t, _i in parts):
        return "".join(t for _kind, t, _i in parts)
    return numbered_template(parts)


def _fields(text: str) -> list[str] | None:
    """The placeholders of a template, in order ("{l} to {0}" -> ["l", "0"]); None when its
    braces do not pair."""
    from engine.dsl.parser import plural_choice, split_template
    try:
        return [plural_choice(t)[0].strip() for kind, t, _i in split_template(text)
                if kind == "arg"]
    except ValueError:
        return None


def message_key(key: str) -> str:
    """The key a `messages:` entry is looked up by at play time: a sentence written with
    named placeholders, as the rules write it ("{l} marches to {dest}"), by its numbered
    form ("{0} marches to {1}"); an event name or a template with numbered placeholders
    ("{0} takes {1}") as it is."""
    fields = _fields(key)
    if not fields or all(f.isdigit() for f in fields):
        return key
    return compiled_template(key)


def numbered_text(text: str, key: str) -> str:
    """A translation's template with numbered placeholders: one that names the placeholders
    of its sentence's key ("{dest} bereikt door {l}" for "{l} marches to {dest}") gets
    their numbers ("{1} bereikt door {0}"). ValueError for a name the key does not have."""
    names = _fields(key) or []
    if not any(f and not f.isdigit() for f in names) or "{" not in text:
        return text
    from engine.dsl.parser import plural_choice, split_template
    try:
        parts = split_template(text)
    except ValueError as err:
        raise ValueError(err.args[0]) from None
    out = []
    for kind, t, _i in parts:
        field, choice = plural_choice(t)
        field = field.strip()
        after = "" if choice is None else f":{choice}"
        if kind == "text":
            out.append(t.replace("{", "{{").replace("}", "}}"))
        elif field.isdigit():
            out.append(f"{{{field}{after}}}")
        elif field in names:
            out.append(f"{{{names.index(field)}{after}}}")
        else:
            raise ValueError(f"{{{field}}} is not a placeholder of the sentence: use "
                             + (", ".join(f"{{{x}}}" for x in dict.fromkeys(names))
                                or "none"))
    return "".join(out)
