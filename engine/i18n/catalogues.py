"""The engine's gettext catalogues, for whoever changes the engine's words: Babel extracts the
marked strings into engine.pot, merges them into each language's engine.po, compiles each into
engine.mo and checks them (`python -m engine.i18n extract|compile|check|init`).

The engine itself only reads the compiled engine.mo files, with the standard library's
`gettext` (engine.i18n): this module, and Babel with it, is never imported at run time.
Babel is the `i18n` extra (`pip install 'engine-dsl[i18n]'`).
"""
from __future__ import annotations

import argparse
import ast
import importlib.metadata
import io
import os
import re
import string
import sys
from collections.abc import Iterator, Sequence
from typing import IO, Any

from babel.core import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir, extract_python
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import PoFileError, read_po, write_po

from engine.i18n import DOMAIN, LOCALE_DIR

ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POT_PATH = os.path.join(LOCALE_DIR, DOMAIN + ".pot")
PROJECT = "engine-dsl"  # the distribution, whose version the catalogues' headers give
# the marker functions of engine.i18n and the (1-based) positions of their message arguments
KEYWORDS: dict[str, tuple[int, ...]] = {
    "tr": (2,), "ntr": (2, 3), "lazy_tr": (1,), "lazy_ntr": (1, 2), "N_": (1,)}
# `# i18n: ...` on the line before a marked call is passed to translators
COMMENT_TAG = "i18n:"
# where the markers are defined (and called with variables): not extracted
MARKERS_FILE = "i18n/__init__.py"
HEADER_COMMENT = ("# The engine's own words (engine.i18n).\n"
                  "# Written by `python -m engine.i18n extract`: translate the msgstr lines only.")
# written without wrapping, so that a diff shows one message per line
WIDTH = 0

MessageId = str | tuple[str, ...] | list[str]


class CatalogueError(ValueError):
    """A marked string that cannot be extracted, or a .po file that cannot be read; the
    message says where."""


# ---- paths --------------------------------------------------------------------------------------
def po_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".po")


def mo_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".mo")


def languages() -> list[str]:
    """The languages with a catalogue (a directory in engine/i18n/locale with an engine.po)."""
    if not os.path.isdir(LOCALE_DIR):
        return []
    return sorted(d for d in os.listdir(LOCALE_DIR) if os.path.isfile(po_path(d)))


# ---- reading and writing ------------------------------------------------------------------------
def read_catalogue(path: str) -> Catalog:
    """A .po or .pot file; CatalogueError (saying where) when it does not parse."""
    with open(path, "rb") as fh:
        try:
            return read_po(fh, domain=DOMAIN, abort_invalid=True)
        except PoFileError as err:
            what = str(err).rpartition(" on ")[0]  # (Babel ends it with the line's index)
            raise CatalogueError(f"{path}:{err.lineno + 1}: {what}") from None


def po_text(catalogue: Catalog) -> str:
    """The text of a .po (or .pot) file: file names without line numbers (they would change
    with every edit of the source), messages no longer marked left out."""
    out = io.BytesIO()
    write_po(out, catalogue, width=WIDTH, include_lineno=False, ignore_obsolete=True)
    return out.getvalue().decode("utf-8")


def mo_bytes(catalogue: Catalog) -> bytes:
    """The compiled .mo file: fuzzy translations are left out (they fall back to the source)."""
    out = io.BytesIO()
    write_mo(out, catalogue)
    return out.getvalue()


# ---- extracting the marked strings --------------------------------------------------------------
def _literal_markers(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
                     options: Any) -> Iterator[tuple[int, str, Any, list[str]]]:
    """Babel's Python extractor, refusing a marker whose message is not a literal string (it
    could not be translated): Babel itself would skip it without a word. A `# i18n:` comment
    is given to every marker on the line after it. Before Python 3.12 an f-string is one
    token to Babel, so the markers inside one are found apart."""
    found: list[Any] = list(extract_python(fileobj, keywords, comment_tags, options))
    if sys.version_info < (3, 12):
        fileobj.seek(0)
        found += _markers_in_fstrings(fileobj.read().decode("utf-8"))
    said: dict[int, list[str]] = {}  # the comment on each line's first marker
    # (Babel types these as its results: they are its extractors' own)
    for lineno, funcname, messages, comments in found:
        # Babel gives a comment to the first marker after it: here to each on its line
        comments = comments or said.get(lineno, [])
        said.setdefault(lineno, comments)
        args = messages if isinstance(messages, tuple) else (messages,)
        for pos in KEYWORDS[funcname]:
            if pos > len(args) or args[pos - 1] is None:
                raise _NotLiteral(f"{lineno}: {funcname}() needs a literal string as "
                                  f"argument {pos}")
        yield lineno, funcname, messages, comments


class _NotLiteral(CatalogueError):
    """A marker whose message is not a literal string (extract says in which file)."""


def _markers_in_fstrings(source: str) -> Iterator[tuple[int, str, Any, list[str]]]:
    """The marked calls inside f-strings, as Babel's extractor gives its own: the line, the
    marker, its arguments (None where not a literal string), the `# i18n:` comment on the
    line before."""
    lines = source.splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for call in ast.walk(node):
            if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
                    and call.func.id in KEYWORDS):
                continue
            args = tuple(arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                         else None for arg in call.args)
            before = lines[call.lineno - 2] if call.lineno > 1 else ""
            comment = before.partition("# " + COMMENT_TAG)[2].strip()
            yield (call.lineno, call.func.id, args if len(args) > 1 else args[0],
                   [comment] if comment else [])


def extract(root: str = ENGINE_DIR) -> Catalog:
    """The catalogue template (engine.pot) of the strings marked in the engine's modules
    under `root`, in the order of the files and of their lines, each with the files that use
    it and the `# i18n:` comments on it."""
    template = Catalog(domain=DOMAIN, project=PROJECT, version=_version(),
                       header_comment=HEADER_COMMENT, fuzzy=False)
    prefix = os.path.basename(root)
    # (Babel types a method as its name; a function is taken as well)
    methods: list[tuple[str, Any]] = [(MARKERS_FILE, "ignore"), ("**.py", _literal_markers)]
    reading: list[str] = []  # the file being read, for the message of a _NotLiteral

    def note(filename: str, _method: str, _options: dict[str, Any]) -> None:
        reading[:] = [filename]

    found = extract_from_dir(root, method_map=methods, keywords=KEYWORDS,
                             comment_tags=(COMMENT_TAG,), callback=note,
                             strip_comment_tags=True)
    try:
        for filename, lineno, message, comments, _context in found:
            template.add(message, None, [(f"{prefix}/{filename}", lineno)],
                         auto_comments=comments)
    except _NotLiteral as err:
        raise CatalogueError(f"{prefix}/{reading[0]}:{err}") from None
    return template


def _version() -> str:
    """The engine's version, for the catalogues' Project-Id-Version."""
    try:
        return importlib.metadata.version(PROJECT)
    except importlib.metadata.PackageNotFoundError:  # a source tree not installed
        return "VERSION"


def template() -> Catalog:
    """The template of the strings marked now, dated as engine.pot when its messages are
    those (so that `extract` leaves every file alone while no marked string changes)."""
    fresh = extract()
    if os.path.isfile(POT_PATH):
        written = read_catalogue(POT_PATH)
        if messages_of(written) == messages_of(fresh):
            fresh.creation_date = written.creation_date
    return fresh


def messages_of(catalogue: Catalog) -> list[tuple[Any, ...]]:
    """What a template says of each message (its source, the files using it, the comments to
    translators, the flags), to compare two templates by (their order depends on the Python
    that extracted them: see _literal_markers)."""
    return sorted(((m.id, sorted({f for f, _line in m.locations}), list(m.auto_comments),
                    sorted(m.flags)) for m in catalogue if m.id), key=repr)


def merged(po: Catalog, pot: Catalog) -> tuple[int, int]:
    """Bring `po` up to the template: its translations kept for messages still marked, new
    messages added untranslated (never guessed from a similar one), messages no longer marked
    left out. Returns the number added and the number left out."""
    before = {m.id for m in po if m.id}
    po.update(pot, no_fuzzy_matching=True)
    po.project, po.version = pot.project, pot.version
    after = {m.id for m in po if m.id}
    return len(after - before), len(before - after)


# ---- checking -----------------------------------------------------------------------------------
def placeholders(text: str) -> set[str]:
    """The names of a template's placeholders (`{side}` -> side)."""
    return {field.split(".")[0].split("[")[0] for _l, field, _s, _c in
            string.Formatter().parse(text) if field is not None}


def forms(message: Message) -> list[str]:
    """A message's translation: one text, or one per plural form."""
    if isinstance(message.string, (list, tuple)):
        return list(message.string)
    return [message.string or ""]


def translated(message: Message) -> bool:
    return not message.fuzzy and all(forms(message))


def problems(po: Catalog, pot: Catalog, lang: str) -> list[str]:
    """What is wrong with a language's catalogue against the template: messages marked in
    the engine but missing or untranslated (or fuzzy) there, messages no longer marked, and
    placeholders that differ from the source's. (A plural form too many does not read: see
    read_catalogue; one too few is a form not translated.)"""
    out = []
    where = os.path.relpath(po_path(lang), os.path.dirname(ENGINE_DIR))
    have: dict[MessageId, Message] = {m.id: m for m in po if m.id}
    marked = {m.id for m in pot if m.id}
    for msgid in marked - have.keys():
        out.append(f"{where}: missing {_source(msgid)!r} (run `python -m engine.i18n extract`)")
    for msgid, message in have.items():
        if msgid not in marked:
            out.append(f"{where}:{message.lineno}: {_source(msgid)!r} is no longer marked in "
                       "the engine (run `python -m engine.i18n extract`)")
            continue
        if not translated(message):
            out.append(f"{where}:{message.lineno}: not translated: {_source(msgid)!r}")
        want = set().union(*map(placeholders, _sources(msgid)))
        for form in forms(message):
            if form and placeholders(form) != want:
                out.append(f"{where}:{message.lineno}: the translation of {_source(msgid)!r} "
                           f"has the placeholders {sorted(placeholders(form))}, the source "
                           f"{sorted(want)}")
    if po.locale_identifier is None:
        out.append(f"{where}: the header has no Language")
    return sorted(out)


def _sources(msgid: MessageId) -> Sequence[str]:
    return (msgid,) if isinstance(msgid, str) else msgid


def _source(msgid: MessageId) -> str:
    return _sources(msgid)[0]


def compiled_messages(mo: bytes) -> tuple[list[tuple[Any, Any]], str]:
    """The translations a .mo file holds and its plural rule, to compare .mo files by (their
    headers also name the Babel that wrote them)."""
    catalogue = read_mo(io.BytesIO(mo))
    messages = sorted(((m.id, m.string) for m in catalogue if m.id), key=repr)
    return messages, catalogue.plural_forms


# ---- commands -----------------------------------------------------------------------------------
def _write(path: str, data: bytes | str) -> bool:
    """Write `path` if its content changes; True when it did."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if _read_bytes(path) == raw:
        return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(raw)
    return True


def _read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None


def cmd_extract() -> int:
    pot = template()
    _write(POT_PATH, po_text(pot))
    print(f"{os.path.relpath(POT_PATH)}: {len(pot)} messages")
    for lang in languages():
        po = read_catalogue(po_path(lang))
        added, dropped = merged(po, pot)
        _write(po_path(lang), po_text(po))
        todo = sum(not translated(m) for m in po if m.id)
        print(f"{lang}: {added} new, {dropped} no longer marked, {todo} to translate")
    return 0


def cmd_compile() -> int:
    for lang in languages():
        po = read_catalogue(po_path(lang))
        changed = _write(mo_path(lang), mo_bytes(po))
        done = sum(translated(m) for m in po if m.id)
        print(f"{lang}: {done} of {len(po)} messages translated"
              + (f"; wrote {os.path.relpath(mo_path(lang))}" if changed else "; unchanged"))
    return 0


def cmd_check() -> int:
    pot = template()
    found = []
    if messages_of(read_catalogue(POT_PATH)) != messages_of(pot):
        found.append(f"{os.path.relpath(POT_PATH)} does not list the strings marked now "
                     "(run `python -m engine.i18n extract`)")
    for lang in languages():
        po = read_catalogue(po_path(lang))
        found += problems(po, pot, lang)
        mo = _read_bytes(mo_path(lang))
        if mo is None or compiled_messages(mo) != compiled_messages(mo_bytes(po)):
            found.append(f"{os.path.relpath(mo_path(lang))} is not the compiled engine.po "
                         "(run `python -m engine.i18n compile`)")
    for problem in found:
        print(problem)
    print(f"{len(found)} problem{'s' * (len(found) != 1)} in {len(languages())} catalogues")
    return 1 if found else 0


def cmd_init(lang: str) -> int:
    if not re.fullmatch(r"[a-z]{2,3}(?:_[A-Z]{2})?", lang):
        print(f"'{lang}' is not a language code like 'de' or 'pt_BR'", file=sys.stderr)
        return 2
    if os.path.exists(po_path(lang)):
        print(f"{os.path.relpath(po_path(lang))} exists already: run extract to update it",
              file=sys.stderr)
        return 1
    try:
        locale = Locale.parse(lang)
    except UnknownLocaleError:  # its plural rule comes from Babel's data of the language
        print(f"Babel does not know the language '{lang}'", file=sys.stderr)
        return 2
    pot = template()
    po = Catalog(locale=locale, domain=DOMAIN, header_comment=HEADER_COMMENT, fuzzy=False)
    merged(po, pot)
    _write(po_path(lang), po_text(po))
    print(f"wrote {os.path.relpath(po_path(lang))}: translate every msgstr, then compile")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.i18n",
        description="The engine's gettext catalogues (engine/i18n/locale), with Babel.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("extract", help="list the marked strings in engine.pot and merge them "
                   "into every language's engine.po")
    sub.add_parser("compile", help="compile every engine.po into engine.mo beside it")
    sub.add_parser("check", help="report untranslated messages, placeholders that differ "
                   "and files out of date (exit 1)")
    init = sub.add_parser("init", help="start a language's engine.po from engine.pot")
    init.add_argument("lang", metavar="LANG")
    args = parser.parse_args(argv)
    try:
        if args.command == "init":
            return cmd_init(args.lang)
        return {"extract": cmd_extract, "compile": cmd_compile, "check": cmd_check}[
            args.command]()
    except CatalogueError as err:
        print(err, file=sys.stderr)
        return 1
