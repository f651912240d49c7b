"""The checks of translation files against the packs they name (`engine validate`).

Codes:
  E500  the file names a pack that is not known
  E501  a name or a text is given for a record id the pack does not have
  W502  an entry without `source`
  E503  the file's shape: not a mapping, missing/mismatched `pack`/`lang`, bad entries (reported
        by engine.i18n.translations.files as the file is read)
  E505  a message for an event or sentence (log text, win reason, prompt) the pack lacks
  E506  a message template whose placeholders do not fit the event's arguments
  W507  a language the pack's pack.yaml does not list
  E508  a term that is neither a name in the pack's rules nor a record id
  E509  a key given twice for one pack and language, in two files (parts)
  N510  (note) coverage of the pack's records per language (engine.i18n.translations.coverage)
"""
from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any

from engine.dsl.errors import Diagnostic, did_you_mean, sort_key
from engine.i18n import plural_forms
from engine.i18n.translations.files import SECTIONS, Entry, TranslationFile
from engine.i18n.translations.pack_info import PackInfo
from engine.i18n.translations.sentences import message_key, numbered_text


def _placeholders(template: str) -> list[Any]:
    return [field for _lit, field, _spec, _conv in string.Formatter().parse(template)
            if field is not None]


def _choices(template: str) -> list[tuple[str, str]]:
    """The plural choices of a numbered template: (placeholder, its forms)."""
    return [(field, spec) for _lit, field, spec, _conv in string.Formatter().parse(template)
            if field is not None and spec and "|" in spec]


def _choice_problem(choice: tuple[str, str], key: str, lang: str | None) -> str | None:
    """What is wrong with a translation's plural choice on placeholder `choice[0]`: it must
    be on a count the sentence chooses a plural by, with the forms its language needs."""
    from engine.dsl.parser import choice_problem, counted
    field, spec = choice
    counts = counted(key)
    if not field.isdigit() or int(field) >= len(counts) or not counts[int(field)]:
        numbered = [f"{{{i}}}" for i, c in enumerate(counts) if c]
        return (f"a plural choice on {{{field}}}, which the sentence does not count by: "
                "choose a plural on " + (", ".join(numbered) or "none of its placeholders")
                + " (those the rules choose a plural by)")
    if lang is None:
        return choice_problem(spec, None)
    return choice_problem(spec, plural_forms(lang), f"the language '{lang}'")


def check_translations(files: Iterable[TranslationFile], packs: dict[str, PackInfo]
                       ) -> list[Diagnostic]:
    """Diagnostics for translation files against the packs they name (by id)."""
    out: list[Diagnostic] = []
    for tf in files:
        out.extend(tf.diagnostics)
        tf.diagnostics = []
        if not tf.ok or tf.pack is None:
            continue
        info = packs.get(tf.pack)
        if info is None:
            end = tf.pack_loc.col + len(tf.pack) if tf.pack_loc and tf.pack_loc.style is None \
                else None
            tf.diag("E500", f"unknown pack '{tf.pack}'", tf.pack_loc,
                    did_you_mean(tf.pack, packs), end)
            out.extend(tf.diagnostics)
            tf.diagnostics = []
            continue
        if tf.lang and info.languages and tf.lang not in info.languages:
            tf.diag("W507", f"pack '{info.id}' does not list language '{tf.lang}' in pack.yaml "
                    f"(languages: {', '.join(info.languages)})", tf.lang_loc)
        if getattr(info, "partial", False):
            continue  # unknown-name errors would be follow-on errors of the pack's own
        for key, e in tf.names.items():
            if key not in info.records:
                tf.diag("E501", f"pack '{info.id}' has no record '{key}'", e.key_loc,
                        did_you_mean(key, info.records), e.key_loc.col + len(key))
        for key, e in tf.texts.items():
            if key not in info.records and key not in info.enum_values:
                tf.diag("E501", f"pack '{info.id}' has no record '{key}' to give a text",
                        e.key_loc, did_you_mean(key, [*info.records, *info.enum_values]),
                        _key_end(e))
        for key, e in tf.terms.items():
            if key not in info.terms and key not in info.records:
                tf.diag("E508", f"unknown term '{key}' in pack '{info.id}': a term is a name "
                        "in the rules (type, field, var, zone, event, value, side ...) or a "
                        "record id", e.key_loc, did_you_mean(key, [*info.terms, *info.records]),
                        _key_end(e))
        for key, e in tf.messages.items():
            arity = info.events.get(key, info.sentences.get(message_key(key)))
            if message_key(key) != key and key not in info.written.get(message_key(key), ()):
                arity = None  # its placeholders are named: by the names the rules use
            if arity is None:
                tf.diag("E505", f"pack '{info.id}' has no event, log text, win reason or "
                        f"prompt '{key}'", e.key_loc,
                        did_you_mean(key, [*info.events, *(t for ts in info.written.values()
                                                           for t in ts)]),
                        e.key_loc.col + len(key) if e.key_loc.style is None else None)
                continue
            try:
                fields = _placeholders(numbered_text(e.text, key))
                for f in fields:
                    if f == "" or not f.isdigit():
                        raise ValueError(f"use numbered placeholders like {{0}} (or the "
                                         f"sentence's own names), not {{{f}}}")
                    if int(f) >= arity:
                        raise ValueError(f"placeholder {{{f}}} but '{key}' has {arity} "
                                         f"argument(s)")
                for choice in _choices(numbered_text(e.text, key)):
                    problem = _choice_problem(choice, key, tf.lang)
                    if problem is not None:
                        raise ValueError(problem)
            except ValueError as err:
                tf.diag("E506", f"bad message template: {err}", e.text_loc)
        for section in SECTIONS:
            for key, e in tf.sections[section].items():
                if e.source is None:
                    tf.diag("W502", f"'{key}' has no source: say where this translation comes "
                            "from", e.key_loc, None, e.key_loc.col + len(key))
        out.extend(tf.diagnostics)
        tf.diagnostics = []
    out.extend(_duplicates(files, packs))
    return sorted(out, key=sort_key)


def _key_end(e: Entry) -> int | None:
    """Where the caret under an entry's key ends (plain keys only)."""
    return e.key_loc.col + len(e.key) if e.key_loc.style is None else None


def _duplicates(files: Iterable[TranslationFile], packs: dict[str, PackInfo]
                ) -> list[Diagnostic]:
    """E509: a key given in two files (parts) of one pack and language, in one section.
    The file that sorts first keeps it; the other is reported, naming the first."""
    out: list[Diagnostic] = []
    first: dict[tuple[str, str, str, str], tuple[TranslationFile, Entry]] = {}
    for tf in sorted(files, key=lambda f: str(f.path)):
        if not tf.ok or tf.pack not in packs or tf.lang is None:
            continue
        for section in SECTIONS:
            for key, e in tf.sections[section].items():
                seen = first.setdefault((tf.pack, tf.lang, section, key), (tf, e))
                if seen[0] is tf:
                    continue
                where = f"{seen[0].path}:{seen[1].key_loc.line}:{seen[1].key_loc.col}"
                tf.diag("E509", f"'{key}' is given twice in {section} of {tf.pack} ({tf.lang}): "
                        f"first in {where}", e.key_loc, "keep one of them (each key belongs "
                        "in one part)", _key_end(e))
        out.extend(tf.diagnostics)
        tf.diagnostics = []
    return out
