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

Codes reported by `check_translations` (used by `engine validate`):
  E500  the file names a pack that is not known
  E501  a name is given for a record id the pack does not have
  W502  an entry without `source`
  E503  the file's shape: not a mapping, missing/mismatched `pack`/`lang`, bad entries
  E505  a message for an event or sentence (log text, win reason, prompt) the pack lacks
  E506  a message template whose placeholders do not fit the event's arguments
  W507  a language the pack's pack.yaml does not list
  E508  a term that is neither a name in the pack's rules nor a record id
  E509  a key given twice for one pack and language, in two files (parts)
  N510  (note) coverage of the pack's records per language
"""
from __future__ import annotations

import re
import string
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.dsl.errors import Diagnostic, did_you_mean, sort_key, source_line
from engine.i18n import N_, tr, translator

if TYPE_CHECKING:
    from engine.dsl.yamlload import Loc, YMap

# `<pack>.<lang>.yaml`, or `<pack>.<part>.<lang>.yaml` when one language is split by topic
FILE_NAME = re.compile(r"^(?P<pack>[a-z][a-z0-9_]*)(?:\.(?P<part>[a-z][a-z0-9_]*))?"
                       r"\.(?P<lang>[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?)\.yaml$")
LANG = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?$")
SECTIONS = {"names": "name", "terms": "name", "messages": "text"}
TOP_KEYS = ("pack", "lang", *SECTIONS, "note", "source")
DEFAULT_LANG = "en"
NAME_JOIN = " – "  # between the names of a derived name (`names_from` with several fields)


# ---- files --------------------------------------------------------------------------------
class Entry:
    """One translated string, with where it was written."""

    __slots__ = ("key", "text", "source", "key_loc", "text_loc")

    def __init__(self, key: str, text: str, source: str | None, key_loc: Loc, text_loc: Loc):
        self.key, self.text, self.source = key, text, source
        self.key_loc, self.text_loc = key_loc, text_loc


class TranslationFile:
    """A parsed translation file. `ok` is False when it could not be read at all."""

    def __init__(self, path: Path, text: str):
        self.path = path
        self.text = text
        self.pack: str | None = None
        self.lang: str | None = None
        self.pack_loc: Loc | None = None
        self.lang_loc: Loc | None = None
        self.sections: dict[str, dict[str, Entry]] = {s: {} for s in SECTIONS}
        self.diagnostics: list[Diagnostic] = []
        self.ok = False

    @property
    def names(self) -> dict[str, Entry]:
        return self.sections["names"]

    @property
    def terms(self) -> dict[str, Entry]:
        return self.sections["terms"]

    @property
    def messages(self) -> dict[str, Entry]:
        return self.sections["messages"]

    def diag(self, code: str, message: str, loc: Loc | None, suggestion: str | None = None,
             end: int | None = None) -> None:
        line, col = (loc.line, loc.col) if loc is not None else (1, 1)
        severity = {"W": "warning", "N": "note"}.get(code[0], "error")
        self.diagnostics.append(Diagnostic(code, message, str(self.path), line, col,
                                           source_line(self.text, line), end, suggestion,
                                           severity))


def name_parts(path: Path) -> tuple[str, str] | None:
    """(pack id, lang) from a file name like `my_game.nl.yaml`, or None."""
    m = FILE_NAME.match(path.name)
    return (m["pack"], m["lang"]) if m else None


def read_translation(path: Path) -> TranslationFile:
    """Parse one translation file; problems of its own shape become its diagnostics."""
    from engine.dsl.files import refused_file
    path = Path(path)
    refused = refused_file(path, path.parent)
    if refused is not None:  # a link to /etc/passwd is neither read nor printed
        tf = TranslationFile(path, "")
        tf.diagnostics.append(refused)
        return tf
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        tf = TranslationFile(path, "")
        tf.diag("E503", f"cannot read translation file: {err}", None)
        return tf
    from engine.dsl.cache import Cache, key_of
    cache = Cache.open()
    key = key_of("translation", str(path), text) if cache is not None else ""
    if cache is not None:
        got = cache.get("translation", key)
        if isinstance(got, TranslationFile):
            return got
    tf = _parse_translation(path, text)
    if cache is not None:
        cache.put("translation", key, tf)
    return tf


def _parse_translation(path: Path, text: str) -> TranslationFile:
    from engine.dsl.yamlload import Loc, YMap, load_yaml
    tf = TranslationFile(path, text)
    data, diags = load_yaml(str(path), text)
    tf.diagnostics.extend(diags)
    if data is None:
        if not diags:
            tf.diag("E503", "empty translation file: it needs 'pack' and 'lang'", None)
        return tf
    if not isinstance(data, YMap):
        tf.diag("E503", "a translation file is a mapping with 'pack', 'lang', 'names', "
                "'terms' and 'messages'", Loc(str(path), 1, 1))
        return tf
    tf.ok = True
    for key in data:
        if key not in TOP_KEYS:
            tf.diag("E503", f"unknown key '{key}' in a translation file", data.key_loc[key],
                    did_you_mean(str(key), TOP_KEYS))
    parts = name_parts(path)
    for key in ("pack", "lang"):
        value = data.get(key)
        loc = data.val_loc.get(key)
        if key not in data:
            tf.diag("E503", f"a translation file needs '{key}'", data.loc)
        elif not isinstance(value, str) or not value:
            tf.diag("E503", f"'{key}' must be text", loc)
        else:
            setattr(tf, key, value)
            setattr(tf, key + "_loc", loc)
            if key == "lang" and not LANG.match(value):
                tf.diag("E503", f"'{value}' is not a language code like 'en' or 'pt-BR'", loc)
    if parts is None:
        tf.diag("E503", "name translation files '<pack>.<lang>.yaml' or "
                f"'<pack>.<part>.<lang>.yaml', not '{path.name}'", Loc(str(path), 1, 1))
    else:
        for key, want in zip(("pack", "lang"), parts):
            got = getattr(tf, key)
            if got is not None and got != want:
                tf.diag("E503", f"'{key}: {got}' does not match the file name '{path.name}'",
                        getattr(tf, key + "_loc"), f"rename the file or write '{key}: {want}'")
    for section, field in SECTIONS.items():
        if section in data:
            _read_section(tf, data, section, field)
    return tf


def _read_section(tf: TranslationFile, data: YMap, section: str, field: str) -> None:
    from engine.dsl.yamlload import YMap
    table = data[section]
    if table is None:
        return
    if not isinstance(table, YMap):
        tf.diag("E503", f"'{section}' maps ids to {{{field}: ..., source: ...}}",
                data.val_loc.get(section))
        return
    out = tf.sections[section]
    for key, value in table.items():
        kloc = table.key_loc[key]
        vloc = table.val_loc[key]
        if not isinstance(key, str):
            tf.diag("E503", f"ids are text, not {key!r}", kloc)
            continue
        source = None
        if isinstance(value, str):
            text, tloc = value, vloc
        elif isinstance(value, YMap):
            for k in value:
                if k not in (field, "source", "note"):
                    tf.diag("E503", f"unknown key '{k}' in a {section} entry", value.key_loc[k],
                            did_you_mean(str(k), (field, "source", "note")))
            text, tloc = value.get(field), value.val_loc.get(field, vloc)
            if not isinstance(text, str):
                tf.diag("E503", f"'{key}' needs '{field}:' with text", vloc)
                continue
            src = value.get("source")
            if src is not None and not isinstance(src, str):
                tf.diag("E503", "'source' must be text", value.val_loc.get("source"))
            source = str(src) if src is not None and str(src).strip() else None
        else:
            tf.diag("E503", f"'{key}' must be text or {{{field}: ..., source: ...}}", vloc)
            continue
        out[key] = Entry(key, text, source, kloc, tloc)


def translation_files(directory: Path, pack_id: str | None = None) -> list[Path]:
    """Translation files in `directory` (optionally only those of one pack), sorted."""
    directory = Path(directory)
    if not directory.is_dir():
        return []
    out = []
    for p in sorted(directory.glob("*.yaml")):
        if not p.is_file():
            continue
        parts = name_parts(p)
        if pack_id is not None and (parts is None or parts[0] != pack_id):
            continue
        out.append(p)
    return out


def translation_dirs(pack_root: Path | None) -> list[Path]:
    """Where translations of the pack at `pack_root` are looked for, in order."""
    dirs = []
    if pack_root is not None:
        dirs.append(Path(pack_root).resolve().parent / "translations")
    try:
        from engine.dsl.places import content_root
        dirs.append(content_root().resolve() / "translations")
    except Exception:  # pragma: no cover - content not installed
        pass
    out: list[Path] = []
    for d in dirs:
        if d not in out:
            out.append(d)
    return out


# ---- what a pack offers to translate ----------------------------------------------------------
class PackInfo:
    """The parts of a pack model that translations refer to."""

    def __init__(self, model: Any, meta: dict[str, Any], root: Path | None = None,
                 partial: bool = False):
        self.id: str = model.id
        self.root = root
        # some of the pack's files could not be read (a syntax error, bad YAML): their
        # declarations are missing, so a name the translations use may well exist
        self.partial = partial
        # of each record, what naming it needs: its English name and its `names_from`
        # fields (plain data, so that validate can keep it in the build cache)
        self.records: dict[str, tuple[str, dict[str, Any]]] = {
            rid: (r.type, {k: r.data[k] for k in ("name", *model.names_from.get(r.type, ()))
                           if k in r.data}) for rid, r in model.records.items()}
        self.languages = [x for x in (meta.get("languages") or []) if isinstance(x, str)]
        self.events = {name: len(e.params) for name, e in model.events.items()}
        self.events.setdefault("setup", 0)
        # what the rules say in words: `log` texts, win reasons and prompts, each by the key
        # it has at play time (`message_key`) -> the number of its placeholders, and as
        # written in the rules (sentences alike but for their placeholders share a key)
        self.sentences: dict[str, int] = {}
        self.written: dict[str, list[str]] = {}
        bodies = [t.decl.body for t in model.triggers] + [p.body for p in model.procs.values()]
        bodies += [e.body for e in model.effects] + [w.body for w in model.windows.values()]
        _collect_sentences(bodies, self.sentences, self.written)
        self.terms = set(model.global_names()) - set(model.records)
        self.terms |= set(self.events) | set(model.sides) | set(model.windows)
        self.terms |= {f for t in model.types.values() for f in t.fields}
        # a field named apart on the records of one type (`card.ops`: "Ops" beside a card,
        # where the term `ops` is the glossary's "Operations (Ops)")
        self.terms |= {f"{name}.{f}" for name, t in model.types.items() for f in t.fields}
        self.terms |= {v.name for e in model.enums.values() for v in e.values}
        # an enum's value named apart from a rules name it shares (`mode.march`, the option,
        # beside the var `march`)
        self.terms |= {f"{name}.{v.name}" for name, e in model.enums.items() for v in e.values}
        self.names_from: dict[str, tuple[str, ...]] = dict(model.names_from)
        self.english: set[str] = {rid for rid, (_t, data) in self.records.items()
                                  if data.get("name")}

    @classmethod
    def of(cls, pack: Any) -> PackInfo:
        """From a compiled pack (engine.core.loader.CompiledPack)."""
        return cls(pack.model, pack.meta, pack.root)


def _collect_sentences(node: Any, out: dict[str, int], written: dict[str, list[str]]
                       ) -> None:
    import attrs

    from engine.dsl import ast as A
    stack = [node]
    while stack:
        n = stack.pop()
        text, args, inline = None, (), True
        if isinstance(n, A.Log):  # values after the text: the text is kept as it is
            text, args, inline = n.message, n.args, n.inline
        elif isinstance(n, (A.Win, A.EndGame)):
            text, args = n.reason, n.args
        elif isinstance(n, (A.Choose, A.Ask)):
            text, args = n.prompt, n.prompt_args
        if text is not None:
            key = compiled_template(text) if inline else text
            out.setdefault(key, len(args))
            if text not in written.setdefault(key, []):
                written[key].append(text)
        if isinstance(n, (tuple, list)):
            stack.extend(n)
        elif attrs.has(type(n)):
            for f in attrs.fields(type(n)):
                if f.name != "at":
                    stack.append(getattr(n, f.name))


# ---- sentences and their keys -----------------------------------------------------------------
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
    from engine.dsl.parser import split_template
    try:
        return [t.strip() for kind, t, _i in split_template(text) if kind == "arg"]
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
    from engine.dsl.parser import split_template
    try:
        parts = split_template(text)
    except ValueError as err:
        raise ValueError(err.args[0]) from None
    out = []
    for kind, t, _i in parts:
        if kind == "text":
            out.append(t.replace("{", "{{").replace("}", "}}"))
        elif t.strip().isdigit():
            out.append(f"{{{t.strip()}}}")
        elif t.strip() in names:
            out.append(f"{{{names.index(t.strip())}}}")
        else:
            raise ValueError(f"{{{t}}} is not a placeholder of the sentence: use "
                             + (", ".join(f"{{{x}}}" for x in dict.fromkeys(names))
                                or "none"))
    return "".join(out)


# ---- checking ---------------------------------------------------------------------------------
def _placeholders(template: str) -> list[Any]:
    return [field for _lit, field, _spec, _conv in string.Formatter().parse(template)
            if field is not None]


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


def coverage(info: PackInfo, files: Iterable[TranslationFile]) -> dict[str, int]:
    """Percent of the pack's records that are named, per language (see `named_records`):
    English first, then the languages of `files` in order."""
    files = [tf for tf in files if tf.pack == info.id and tf.lang]
    langs = [DEFAULT_LANG] + sorted({tf.lang for tf in files} - {DEFAULT_LANG})
    total = len(info.records)
    out = {}
    for lang in langs:
        named = named_records(info, [tf for tf in files if tf.lang == lang], lang)
        out[lang] = 100 * len(named) // total if total else 100
    return out


def named_records(info: PackInfo, files: Iterable[TranslationFile], lang: str) -> set[str]:
    """The records named in `lang` by the given files of that language: by a `names:` or
    `terms:` entry, by their `name:` field (English), or derived (`names_from`) from
    records that are named themselves."""
    own = {rid for tf in files for section in ("names", "terms")
           for rid in tf.sections[section] if rid in info.records}
    if lang == DEFAULT_LANG:
        own |= info.english
    return own | derived_named(info.records, info.names_from, own)


def derived_named(records: dict[str, tuple[str, dict[str, Any]]],
                  names_from: dict[str, tuple[str, ...]], named: set[str]) -> set[str]:
    """Records without a name of their own whose `names_from` fields all refer to named
    records (derived names may build on derived names)."""
    waiting = {rid: [data.get(f) for f in names_from[rtype]]
               for rid, (rtype, data) in records.items()
               if rtype in names_from and rid not in named}
    out: set[str] = set()
    grew = True
    while grew:  # until no more names can be derived (chains of derived names)
        grew = False
        for rid, refs in list(waiting.items()):
            if all(r is not None and (r in named or r in out) for r in refs):
                out.add(rid)
                del waiting[rid]
                grew = True
    return out


def coverage_line(pack_id: str, cov: dict[str, int]) -> str:
    return f"{pack_id}: " + ", ".join(f"{lang} {pct}%" for lang, pct in cov.items())


# ---- lookups at play time -------------------------------------------------------------------
class Catalog:
    """Names, terms and message templates of one pack in one language, with fallbacks."""

    def __init__(self, pack: Any, lang: str, dirs: list[Path] | None = None):
        self.pack = pack
        self.lang = lang
        self.dirs = translation_dirs(getattr(pack, "root", None)) if dirs is None else dirs
        self._tables: dict[str, dict[str, dict[str, str]]] = {}
        self._deriving: set[str] = set()  # records whose derived name is being made
        self._named: set[str] | None = None  # records named in this language (is_named)
        self._enums: dict[str, list[str]] | None = None  # enum value -> its `enum.value` ids

    def _table(self, lang: str) -> dict[str, dict[str, str]]:
        table = self._tables.get(lang)
        if table is None:
            table = {s: {} for s in SECTIONS}
            for p in self._files(lang):
                tf = read_translation(p)
                for section in SECTIONS:
                    for key, e in tf.sections[section].items():
                        text = e.text
                        if section == "messages":  # by the key the game logs it with
                            key = message_key(key)
                            try:
                                text = numbered_text(text, e.key)
                            except ValueError:
                                pass  # engine validate reports it (E506)
                        table[section].setdefault(key, text)
            self._tables[lang] = table
        return table

    def _files(self, lang: str) -> list[Path]:
        """The pack's translation files in `lang` (one file, or several parts), in order,
        then those of the packs it imports (names of their records, their terms)."""
        ids = [self.pack.id, *reversed(getattr(self.pack.model, "imports", []))]
        return [p for pid in ids for d in self.dirs for p in translation_files(Path(d), pid)
                if name_parts(p)[1] == lang]

    def has_language(self, lang: str | None = None) -> bool:
        return bool(self._files(lang or self.lang))

    def _chain(self) -> list[str]:
        return [self.lang] if self.lang == DEFAULT_LANG else [self.lang, DEFAULT_LANG]

    def own_name(self, rid: str, lang: str | None = None) -> str | None:
        """The record's name in `lang` (default: this catalog's) itself: its `names:` entry,
        its `terms:` entry (glossary records), or in English its `name:` field. None when it
        has none there; nothing is derived and nothing falls back."""
        lang = lang or self.lang
        table = self._table(lang)
        got = table["names"].get(rid)
        if got is None:
            got = table["terms"].get(rid)
        if got is None and lang == DEFAULT_LANG:
            data = self.pack.records.get(rid)
            if data and data.get("name"):
                got = str(data["name"])
        return got

    def derived_name(self, rid: str) -> str | None:
        """For a record whose type is in pack.yaml `names_from`: the names (in this
        language) of the records its fields refer to, joined with " – "; else None."""
        refs = self._name_refs(rid)
        if refs is None or any(not isinstance(r, str) for r in refs):
            return None
        self._deriving.add(rid)
        try:
            return NAME_JOIN.join(self.name(r) for r in refs)
        finally:
            self._deriving.discard(rid)

    def _name_refs(self, rid: str) -> list[Any] | None:
        """What a record of a `names_from` type refers to in those fields (ids, or None for
        an empty optional field); None for other records and for one whose derived name is
        being made (a cycle)."""
        rec = self.pack.model.records.get(rid)
        fields = self.pack.model.names_from.get(rec.type) if rec is not None else None
        if not fields or rid in self._deriving:
            return None
        return [self.pack.records[rid].get(f) for f in fields]

    def name(self, rid: str) -> str:
        """The record's name in this language: its own, else derived (`names_from`), else
        its English name, else its id."""
        got = self.own_name(rid)
        if got is None:
            got = self.derived_name(rid)
        if got is None and self.lang != DEFAULT_LANG:
            got = self.own_name(rid, DEFAULT_LANG)
        return rid if got is None else got

    def is_named(self, rid: str) -> bool:
        """Named in this language: a name of its own, or a derived name whose records are
        all named (the rule `engine validate` counts as coverage, `derived_named`)."""
        if self._named is None:
            records = {i: (r.type, self.pack.records[i])
                       for i, r in self.pack.model.records.items()}
            own = {i for i in records if self.own_name(i) is not None}
            self._named = own | derived_named(records, self.pack.model.names_from, own)
        return rid in self._named

    def term(self, tid: str) -> str:
        """A rules term in this language, falling back to English, then (for a glossary
        record) to its name, then to the id."""
        for lang in self._chain():
            got = self._table(lang)["terms"].get(tid)
            if got is not None:
                return got
        if tid in self.pack.records:
            return self.name(tid)
        return tid

    def field_term(self, rtype: str | None, field: str) -> str:
        """A field of a record of type `rtype` in this language: the term `rtype.field` (a
        field named apart on that type's records), else the field's own term; then the same
        in English."""
        ids = (field,) if rtype is None else (f"{rtype}.{field}", field)
        return self._first_term(ids) or self.term(field)

    def _first_term(self, ids: Iterable[str]) -> str | None:
        """The term of the first of `ids` this language names, else the same in English."""
        for lang in self._chain():
            terms = self._table(lang)["terms"]
            for tid in ids:
                got = terms.get(tid)
                if got is not None:
                    return got
        return None

    def message(self, key: str) -> str | None:
        for lang in self._chain():
            got = self._table(lang)["messages"].get(key)
            if got is not None:
                return got
        return None

    def term_ids(self) -> list[str]:
        """Every term id any language file of the pack (or of a pack it imports) gives."""
        ids: set[str] = set()
        for pid in [self.pack.id, *getattr(self.pack.model, "imports", [])]:
            for d in self.dirs:
                for p in translation_files(Path(d), pid):
                    ids.update(read_translation(p).terms)
        return sorted(ids)

    # ---- rendering values and log entries ------------------------------------------------------
    def value(self, v: Any) -> str:
        if v is None:
            return "?"
        if isinstance(v, bool):
            # i18n: the value of a true/false var or field
            return tr(self.lang, "yes") if v else tr(self.lang, "no")
        if isinstance(v, str):
            if v in self.pack.records:
                return self.name(v)
            if v in self.pack.side_set:  # a side first: values are plain text
                return self.term(v)
            if v in self._enum_values():  # its term, or the term of `enum.value` (below)
                return self._enum_term(v)
            kind, hash_, serial = v.partition("#")
            if hash_ and serial.isdigit() and kind in getattr(self.pack, "created", ()):
                return self.term(kind)  # a piece made in play: its kind, not its serial id
            return v
        if isinstance(v, (list, tuple)):
            # i18n: an empty list of cards or pieces
            return _counted([self.value(x) for x in v]) if v else tr(self.lang, "nothing")
        return str(v)

    def _enum_values(self) -> dict[str, list[str]]:
        if self._enums is None:
            enums = getattr(getattr(self.pack, "model", None), "enums", {})
            self._enums = {}
            for name, e in enums.items():
                for v in e.values:
                    self._enums.setdefault(v.name, []).append(f"{name}.{v.name}")
        return self._enums

    def _enum_term(self, v: str) -> str:
        """An enum's value in this language: the term `enum.value` (a value named apart from
        a var or field of the same name), else its own term; then the same in English."""
        return self._first_term((*self._enum_values()[v], v)) or self.term(v)

    def zone(self, key: str | None) -> str:
        if key is None:
            return tr(self.lang, "nowhere")
        name, *args = key.split("|")
        shown = self.term(name)
        return f"{shown} ({', '.join(self.value(a) for a in args)})" if args else shown

    def var(self, name: str, key: str) -> str:
        shown = self.term(name)
        return f"{shown} ({', '.join(self.value(a) for a in key.split('|'))})" if key else shown

    def render(self, entry: dict[str, Any]) -> str:
        """A log entry as a line of text: the pack's words from its translations, the
        engine's own from its gettext catalogue (engine.i18n), both in this language."""
        t = entry.get("t")
        lang = self.lang
        if t in ("event", "say"):
            key = entry["n"] if t == "event" else entry["m"]
            args = [self.value(a) for a in entry.get("a", [])]
            template = self.message(key)
            if template is not None:
                try:
                    return template.format(*args)
                except (IndexError, KeyError, ValueError):
                    pass
            if t == "say":
                if "{" in key:
                    try:
                        return key.format(*args)
                    except (IndexError, KeyError, ValueError):
                        pass
                return f"{key}: {', '.join(args)}" if args else key
            return f"{self.term(key)}: {', '.join(args)}" if args else self.term(key)
        if t == "move":
            what = (tr(lang, "a hidden card") if entry.get("e") is None
                    else self.value(entry["e"]))
            if entry.get("from") is None:
                return tr(lang, "{what} -> {target}", what=what, target=self.zone(entry["to"]))
            return tr(lang, "{what}: {source} -> {target}", what=what,
                      source=self.zone(entry["from"]), target=self.zone(entry["to"]))
        if t == "choice":
            who = self.value(entry["side"])
            if "v" not in entry:
                return tr(lang, "{side} decided", side=who)
            v = entry["v"]
            if v is None:
                return tr(lang, "{side} passed", side=who)
            # i18n: side: a side's name; choice: what it chose (names, or a number)
            return tr(lang, "{side} chose {choice}", side=who, choice=self.value(v))
        if t == "set":
            return tr(lang, "{var} = {value}", var=self.var(entry["n"], entry["k"]),
                      value=self.value(entry["v"]))
        if t in ("create", "destroy"):  # a record made in play, or one leaving the game
            what = (tr(lang, "a hidden piece") if entry.get("e") is None
                    else self.value(entry["e"]))
            where = entry.get("to" if t == "create" else "from")
            if where is None:  # i18n: a piece put into play, or taken out of the game
                return (tr(lang, "{what} made", what=what) if t == "create"
                        else tr(lang, "{what} destroyed", what=what))
            zone = self.zone(where)
            return (tr(lang, "{what} made ({zone})", what=what, zone=zone) if t == "create"
                    else tr(lang, "{what} destroyed ({zone})", what=what, zone=zone))
        if t == "setf":
            # i18n: a field of a card or piece changed: "strength (red army) = 3"
            return tr(lang, "{field} ({record}) = {value}", field=self.term(entry["f"]),
                      record=self.value(entry["e"]), value=self.value(entry["v"]))
        if t == "shuffle":
            return tr(lang, "{zone} shuffled", zone=self.zone(entry["z"]))
        if t == "reveal":
            what = tr(lang, "a card") if entry.get("e") is None else self.value(entry["e"])
            to = entry.get("to")
            if to:
                return tr(lang, "{what} revealed to {side}", what=what, side=self.value(to))
            return tr(lang, "{what} revealed", what=what)
        if t == "roll":
            dice = entry.get("dice", [])
            if len(dice) == 1:
                return tr(lang, "rolled {die}", die=dice[0])
            # i18n: dice: the dice rolled, as in "3 + 5"; total: their sum
            return tr(lang, "rolled {dice} = {total}", dice=" + ".join(map(str, dice)),
                      total=sum(dice))
        if t == "end":
            w = entry.get("winner")
            over = (tr(lang, "game over: {side} wins", side=self.value(w)) if w
                    else tr(lang, "game over: no winner"))
            if "m" in entry:  # the rule's reason, rendered like a log line
                # i18n: a result and the reason the rules give for it
                over = tr(lang, "{result} ({reason})", result=over, reason=self.render(
                    {"t": "say", "m": entry["m"], "a": entry["a"]}))
            return over
        if t == "trigger":
            # i18n: a rule's trace line: the rule's name, the event it answers
            return tr(lang, "(rule {rule} for {event})", rule=entry.get("f"),
                      event=self.term(entry.get("n", "")))
        if t == "done":
            return tr(lang, "(end of {event})", event=self.term(entry.get("n", "")))
        import json
        return json.dumps(entry, sort_keys=True, default=str)


    def reason(self, reason: str | None, log: Iterable[dict[str, Any]] = ()) -> str:
        """Why the game ended, in this language: the reason the rules gave (kept as a
        template in the log's end entry), else the engine's own (`Result.reason`); "" when
        the rule that ended the game gave none."""
        end = next((e for e in reversed(list(log)) if e.get("t") == "end"), None)
        if end is not None and "m" in end:
            return self.render({"t": "say", "m": end["m"], "a": end.get("a", [])})
        if end is not None or reason == NO_REASON:
            return ""
        if reason in ENGINE_REASONS:  # marked below
            return translator(self.lang).gettext(reason)
        return reason or ""

    def outcome(self, winner: str | None, reason: str = "") -> str:
        """Who won and why ("Red wins (Blue has no cards left)", "Red wins" without a
        reason, "no winner"), in this language."""
        lang = self.lang
        if winner:
            if not reason:
                return tr(lang, "{side} wins", side=self.value(winner))
            return tr(lang, "{side} wins ({reason})", side=self.value(winner), reason=reason)
        if not reason:
            return tr(lang, "no winner")
        return tr(lang, "no winner ({reason})", reason=reason)


# the reasons engine.core.runtime gives a result when the rules give none
ENGINE_REASONS = (
    N_("no rule left to run"),
)
NO_REASON = "rule"  # a result's reason when the rule that ended the game gave none: not shown

_CATALOGS: dict[tuple[int, str], Catalog] = {}


def catalog(pack: Any, lang: str = DEFAULT_LANG) -> Catalog:
    """The (cached) catalog of a loaded pack in `lang`."""
    key = (id(pack), lang)
    cat = _CATALOGS.get(key)
    if cat is None or cat.pack is not pack:
        cat = _CATALOGS[key] = Catalog(pack, lang)
    return cat


def _counted(labels: list[str]) -> str:
    """Labels in order, a run of equal ones said once with its count ("8 × CU")."""
    out: list[str] = []
    i = 0
    while i < len(labels):
        j = i
        while j < len(labels) and labels[j] == labels[i]:
            j += 1
        out.append(labels[i] if j - i == 1 else f"{j - i} × {labels[i]}")
        i = j
    return ", ".join(out)


def clear_cache() -> None:
    _CATALOGS.clear()


def record_name(pack: Any, rid: str, lang: str = DEFAULT_LANG) -> str:
    return catalog(pack, lang).name(rid)


def render_log_entry(entry: dict[str, Any], pack: Any, lang: str = DEFAULT_LANG) -> str:
    """One log entry as a line of text in `lang` (generic English where untranslated)."""
    return catalog(pack, lang).render(entry)
