"""The engine's own words in other languages, at run time: the markers and gettext.

A pack translates its names, terms and sentences in YAML (engine.i18n.translations); the few words
the engine adds itself ("shuffled", "game over: {side} wins", a refused action's message) are
in gettext catalogues: engine/i18n/locale/<lang>/LC_MESSAGES/engine.po, compiled to engine.mo
beside it, with engine/i18n/locale/engine.pot listing every marked string. The language is the
one the pack's catalog is read in (`--lang`); a language without a catalogue, and a message
a catalogue lacks, stay in the source English.

Marking a string (the message must be a literal, so that `extract` finds it):

    from engine.i18n import tr, ntr
    tr(lang, "{zone} shuffled", zone=shown)                  # translated, then formatted
    ntr(lang, "{n} decision", "{n} decisions", n)            # the plural form for n
    lazy_tr("{action} is not an option", action=...)         # a Message: the language is
    lazy_ntr(singular, plural, n, ...)                       #   chosen later (.text(lang))
    N_("no rule left to run")                                # marked only: tr() it later

Placeholders are named (`{side}`, not `{0}`) so that a translation may put them in any order;
in `ntr` the count is `{n}`. A `# i18n: ...` comment on the line before a marked call is
passed to translators. The catalogues are kept with Babel (engine.i18n.catalogues, the `i18n`
extra), never imported at run time:

    python -m engine.i18n extract      # marked strings -> engine.pot, merged into each .po
    python -m engine.i18n compile      # each engine.po -> engine.mo
    python -m engine.i18n check        # untranslated entries, placeholders that differ
    python -m engine.i18n init LANG    # a new language's engine.po, from engine.pot

A pack's sentences choose a plural form by a count (`{n:# CU|# CUs}`) with the same data:
`plural_forms(lang)` and `plural_form(lang, n)` read the Plural-Forms header of the engine's
catalogue in `lang` (one and other where there is none).

Start-up stays light: `gettext` is imported when a translator is first asked for, and not at
all for English.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from gettext import NullTranslations

__all__ = ["DOMAIN", "LOCALE_DIR", "SOURCE_LANG", "Message", "N_", "lazy_ntr", "lazy_tr", "ntr",
           "plural_form", "plural_forms", "tr", "translator"]

DOMAIN = "engine"
SOURCE_LANG = "en"  # the language the marked strings are written in
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")

_TRANSLATORS: dict[str, NullTranslations] = {}


# ---- at run time --------------------------------------------------------------------------------
def translator(lang: str) -> NullTranslations:
    """The (cached) gettext translations of the engine's strings in `lang`: its engine.mo, or
    NullTranslations (the source English) when there is none. `pt-BR` looks for pt_BR, then
    pt."""
    found = _TRANSLATORS.get(lang)
    if found is None:
        import gettext
        code = lang.replace("-", "_")
        found = _TRANSLATORS[lang] = (
            gettext.NullTranslations() if code == SOURCE_LANG else
            gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True))
    return found


def plural_forms(lang: str) -> int:
    """How many plural forms a noun counted in `lang` has (English 2, Russian 3): gettext's
    `nplurals` from the Plural-Forms header of the engine's catalogue in `lang`; 2 (one,
    other) for a language without one."""
    header = translator(lang).info().get("plural-forms", "")
    for part in header.split(";"):
        key, _eq, value = part.strip().partition("=")
        if key.strip() == "nplurals" and value.strip().isdigit():
            return int(value.strip())
    return 2


def plural_form(lang: str, n: int) -> int:
    """Which of `lang`'s plural forms goes with the count `n` (0 the first): the catalogue's
    plural rule (gettext's Plural-Forms), else one for 1 and the other for the rest."""
    rule = getattr(translator(lang), "plural", None)
    return int(rule(abs(n))) if rule is not None else int(abs(n) != 1)


def N_(message: str) -> str:
    """Marks `message` for the catalogue without translating it (translate it with `tr`
    where the language is known)."""
    return message


def tr(lang: str, message: str, **args: Any) -> str:
    """`message` in `lang`, its named placeholders filled with `args` (none: not formatted)."""
    text = message if lang == SOURCE_LANG else translator(lang).gettext(message)
    return text.format(**args) if args else text


def ntr(lang: str, singular: str, plural: str, n: int, **args: Any) -> str:
    """The form of `singular`/`plural` for the count `n` in `lang`, filled with n and `args`."""
    if lang == SOURCE_LANG:
        text = singular if n == 1 else plural
    else:
        text = translator(lang).ngettext(singular, plural, n)
    return text.format(n=n, **args)


@attrs.define(eq=False)
class Message:
    """A marked message made where the language is not known (an exception raised by the
    game): `str()` gives it in English, `text(lang)` in another language. An argument may be
    a Message itself."""

    singular: str
    plural: str | None  # None: not counted (lazy_tr)
    count: int | None  # the n of a counted message (lazy_ntr)
    args: dict[str, Any]

    def text(self, lang: str = SOURCE_LANG) -> str:
        args = {name: value.text(lang) if isinstance(value, Message) else value
                for name, value in self.args.items()}
        if self.plural is None:
            return tr(lang, self.singular).format(**args)
        return ntr(lang, self.singular, self.plural, self.count or 0, **args)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Message({self.text()!r})"


def lazy_tr(message: str, **args: Any) -> Message:
    """`message`, translated when its language is known (`Message.text`)."""
    return Message(message, None, None, args)


def lazy_ntr(singular: str, plural: str, n: int, **args: Any) -> Message:
    """The form of `singular`/`plural` for `n`, translated when its language is known."""
    return Message(singular, plural, n, args)
