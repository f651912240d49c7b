"""Translations of a pack's names, rules terms and log messages, kept outside the pack.

A translation file lives in a `translations/` directory next to the packs (the shipped ones
in `content/translations/`) and is named `<pack>.<lang>.yaml`, or `<pack>.<part>.<lang>.yaml`
when one language is split by topic (`my_game.cards.nl.yaml`, `my_game.map.nl.yaml`): all
parts of a language are read together, as if they were one file.

    pack: my_game
    lang: nl
    names:            # record id -> name
      spearmen: {name: "Speerdragers", source: "rulebook §4"}
    terms:            # rules term id (type, field, var, zone, event, value, side ... name,
                      # or a glossary record's id) -> name
      combat_unit: {name: "GE", source: "seed 002 §3"}
    messages:         # event name, or a sentence of the rules (a `log` text, a win
                      # reason, a prompt) as written there -> its template
      battle: {text: "Veldslag in {0}", source: "..."}
      "{l} marches to {dest}": {text: "{l} marcheert naar {dest}", source: "..."}

An entry may also be a plain string (`spearmen: "Speerdragers"`); every entry
should say where the translation comes from (`source`), or validation warns. A template fills
numbered placeholders ({0}: the event's first argument, or the first value after a `log`
text); one for a sentence written with named placeholders may use those names.

A record's name in a language: its `names:` entry, else its `terms:` entry (glossary
records), else (English only) its `name:` field; else, for a type in pack.yaml `names_from`,
the names of the records its fields refer to, joined with " – "; else its English name,
else its id. Nothing here knows any particular game.

The modules: files (reading a translation file), sentences (the keys of the rules' sentences),
pack_info (what a pack offers to translate), checks (`engine validate`'s E500-E509), coverage
(N510) and pack_catalog (a pack's words in a language at play time, and rendering with them).
"""
from __future__ import annotations

from engine.i18n.translations.checks import check_translations
from engine.i18n.translations.coverage import coverage, coverage_line, named_records
from engine.i18n.translations.files import (
    DEFAULT_LANG,
    Entry,
    TranslationFile,
    name_parts,
    read_translation,
    translation_dirs,
    translation_files,
)
from engine.i18n.translations.pack_catalog import Catalog, catalog, render_log_entry
from engine.i18n.translations.pack_info import PackInfo
from engine.i18n.translations.sentences import (
    Count,
    compiled_template,
    fill,
    message_key,
    numbered_text,
)

__all__ = [
    "DEFAULT_LANG",
    "Catalog",
    "Count",
    "Entry",
    "PackInfo",
    "TranslationFile",
    "catalog",
    "check_translations",
    "compiled_template",
    "coverage",
    "coverage_line",
    "fill",
    "message_key",
    "name_parts",
    "named_records",
    "numbered_text",
    "read_translation",
    "render_log_entry",
    "translation_dirs",
    "translation_files",
]
