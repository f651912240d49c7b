"""A pack's translation files: where they are, their names (`<pack>[.<part>].<lang>.yaml`), and
reading one into its entries, with the diagnostics of its own shape (E503)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from engine.dsl.errors import Diagnostic, did_you_mean, source_line

if TYPE_CHECKING:
    from engine.dsl.yamlload import Loc, YMap

# `<pack>.<lang>.yaml`, or `<pack>.<part>.<lang>.yaml` when one language is split by topic
FILE_NAME = re.compile(r"^(?P<pack>[a-z][a-z0-9_]*)(?:\.(?P<part>[a-z][a-z0-9_]*))?"
                       r"\.(?P<lang>[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?)\.yaml$")
LANG = re.compile(r"^[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?$")
SECTIONS = {"names": "name", "terms": "name", "messages": "text", "texts": "text"}
# the fields of a record that hold its rules text in English (a card's event; a glossary
# term's definition, shown with an option the term names), in this order
TEXT_FIELDS = ("text", "event", "definition")
TOP_KEYS = ("pack", "lang", *SECTIONS, "note", "source")
DEFAULT_LANG = "en"


@attrs.define(eq=False)
class Entry:
    """One translated string, with where it was written."""

    key: str
    text: str
    source: str | None  # where the translation comes from (None: not said, W502)
    key_loc: Loc
    text_loc: Loc


def _empty_sections() -> dict[str, dict[str, Entry]]:
    return {section: {} for section in SECTIONS}


@attrs.define(eq=False)
class TranslationFile:
    """A parsed translation file. `ok` is False when it could not be read at all."""

    path: Path
    text: str
    pack: str | None = None
    lang: str | None = None
    pack_loc: Loc | None = None
    lang_loc: Loc | None = None
    sections: dict[str, dict[str, Entry]] = attrs.Factory(_empty_sections)  # key -> entry
    diagnostics: list[Diagnostic] = attrs.Factory(list)
    ok: bool = False

    @property
    def names(self) -> dict[str, Entry]:
        return self.sections["names"]

    @property
    def terms(self) -> dict[str, Entry]:
        return self.sections["terms"]

    @property
    def messages(self) -> dict[str, Entry]:
        return self.sections["messages"]

    @property
    def texts(self) -> dict[str, Entry]:
        """record id -> its rules text (a card's event) in this language"""
        return self.sections["texts"]

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


def read_translation(path: Path, text: str | None = None) -> TranslationFile:
    """Parse one translation file (`text`: what an editor holds of it, unsaved; None: what
    the file holds); problems of its own shape become its diagnostics."""
    from engine.dsl.files import refused_file
    path = Path(path)
    refused = refused_file(path, path.parent)
    if refused is not None:  # a link to /etc/passwd is neither read nor printed
        tf = TranslationFile(path, "")
        tf.diagnostics.append(refused)
        return tf
    try:
        if text is None:
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
            given, tloc = value.get(field), value.val_loc.get(field, vloc)
            if not isinstance(given, str):
                tf.diag("E503", f"'{key}' needs '{field}:' with text", vloc)
                continue
            text = given
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
