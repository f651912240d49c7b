"""The engine's own words in other languages: gettext catalogues.

A pack translates its names, terms and sentences in YAML (engine.i18n.translations); the few words
the engine adds itself ("shuffled", "game over: {side} wins", a refused action's message) are
in gettext catalogues: engine/locale/<lang>/LC_MESSAGES/engine.po, compiled to engine.mo
beside it, with engine/locale/engine.pot listing every marked string. The language is the
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
in `ntr` the count is `{n}`. Commands (standard library only):

    python -m engine.i18n extract      # marked strings -> engine.pot, merged into each .po
    python -m engine.i18n compile      # each engine.po -> engine.mo
    python -m engine.i18n check        # untranslated entries, placeholders that differ
    python -m engine.i18n init LANG    # a new language's engine.po, from engine.pot

Start-up stays light: `gettext` is imported when a translator is first asked for, and not at
all for English.
"""
from __future__ import annotations

import os
import sys
from typing import Any

DOMAIN = "engine"
SOURCE_LANG = "en"  # the language the marked strings are written in
ENGINE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOCALE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "locale")
POT_PATH = os.path.join(LOCALE_DIR, DOMAIN + ".pot")
# the marker functions and the positions of their message arguments (extraction)
KEYWORDS: dict[str, tuple[int, ...]] = {
    "tr": (1,), "ntr": (1, 2), "lazy_tr": (0,), "lazy_ntr": (0, 1), "N_": (0,)}
PLURAL_FORMS = {  # for `init`: the usual gettext plural rules of some languages
    "hu": "nplurals=2; plural=(n != 1);",
    "nl": "nplurals=2; plural=(n != 1);",
    "de": "nplurals=2; plural=(n != 1);",
    "it": "nplurals=2; plural=(n != 1);",
    "es": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
          "(n%100<10 || n%100>=20) ? 1 : 2);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) "
          "? 1 : 2);",
}

_TRANSLATORS: dict[str, Any] = {}


# ---- at run time --------------------------------------------------------------------------------
def translator(lang: str) -> Any:
    """The (cached) gettext translations of the engine's strings in `lang`: its engine.mo, or
    NullTranslations (the source English) when there is none. `pt-BR` looks for pt_BR, then
    pt."""
    t = _TRANSLATORS.get(lang)
    if t is None:
        import gettext
        code = lang.replace("-", "_")
        t = _TRANSLATORS[lang] = (gettext.NullTranslations() if code == SOURCE_LANG else
                                  gettext.translation(DOMAIN, LOCALE_DIR, languages=[code],
                                                      fallback=True))
    return t


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


class Message:
    """A marked message made where the language is not known (an exception raised by the
    game): `str()` gives it in English, `text(lang)` in another language. An argument may be
    a Message itself."""

    __slots__ = ("singular", "plural", "n", "args")

    def __init__(self, singular: str, plural: str | None, n: int | None, args: dict[str, Any]):
        self.singular, self.plural, self.n, self.args = singular, plural, n, args

    def text(self, lang: str = SOURCE_LANG) -> str:
        args = {k: v.text(lang) if isinstance(v, Message) else v for k, v in self.args.items()}
        if self.plural is None:
            return tr(lang, self.singular).format(**args)
        return ntr(lang, self.singular, self.plural, self.n or 0, **args)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Message({self.text()!r})"


def lazy_tr(message: str, **args: Any) -> Message:
    return Message(message, None, None, args)


def lazy_ntr(singular: str, plural: str, n: int, **args: Any) -> Message:
    return Message(singular, plural, n, args)


# ---- catalogues: .po files ----------------------------------------------------------------------
class PoEntry:
    """One message of a .po file: its source (and plural source), translation (one form, or
    one per plural form), comments, references and flags."""

    def __init__(self, msgid: str, msgid_plural: str | None = None, msgstr: str = "",
                 msgstr_plural: list[str] | None = None):
        self.msgid, self.msgid_plural = msgid, msgid_plural
        self.msgstr = msgstr
        self.msgstr_plural: list[str] = msgstr_plural if msgstr_plural is not None else []
        self.comments: list[str] = []   # "# " translators' own
        self.extracted: list[str] = []  # "#." from the source (`# i18n:` comments)
        self.references: list[str] = []  # "#:" the files that use it
        self.flags: list[str] = []      # "#," e.g. fuzzy
        self.line = 0

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.msgid, self.msgid_plural)

    @property
    def forms(self) -> list[str]:
        return self.msgstr_plural if self.msgid_plural is not None else [self.msgstr]

    @property
    def translated(self) -> bool:
        return "fuzzy" not in self.flags and bool(self.forms) and all(self.forms)


class Po:
    """A .po (or .pot) file: its header entry (msgid "") and its messages, in order."""

    def __init__(self, header: str, entries: list[PoEntry]):
        self.header, self.entries = header, entries

    def header_field(self, name: str) -> str | None:
        for line in self.header.splitlines():
            key, _, value = line.partition(":")
            if key.strip().lower() == name.lower():
                return value.strip()
        return None

    def nplurals(self) -> int:
        import re
        m = re.search(r"nplurals\s*=\s*(\d+)", self.header_field("Plural-Forms") or "")
        return int(m[1]) if m else 2


class PoError(ValueError):
    """A .po file that cannot be read; the message says where."""


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"'}


def _unquote(text: str, where: str) -> str:
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, not {text!r}")
    out, i, body = [], 0, text[1:-1]
    while i < len(body):
        c = body[i]
        if c == "\\":
            nxt = body[i + 1:i + 2]
            if nxt not in _ESCAPES:
                raise PoError(f"{where}: unknown escape \\{nxt}")
            out.append(_ESCAPES[nxt])
            i += 2
        elif c == '"':
            raise PoError(f"{where}: a quote inside a string must be written \\\"")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _quote(text: str) -> str:
    return '"' + (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                  .replace("\t", "\\t").replace("\r", "\\r")) + '"'


def read_po(path: str) -> Po:
    """Parse a .po or .pot file (no message contexts; obsolete `#~` entries are left out)."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    entries: list[PoEntry] = []
    header: str | None = None
    cur: dict[str, Any] = {}
    comments: dict[str, list[str]] = {"#": [], "#.": [], "#:": [], "#,": []}
    field: str | None = None
    start = 0

    def finish() -> None:
        nonlocal header, cur, field
        if "msgid" not in cur:
            if cur:
                raise PoError(f"{path}:{start}: a message without msgid")
            return
        if cur["msgid"] == "" and "msgid_plural" not in cur:
            header = cur.get("msgstr", "")
        else:
            plural = sorted((k, v) for k, v in cur.items() if isinstance(k, int))
            e = PoEntry(cur["msgid"], cur.get("msgid_plural"), cur.get("msgstr", ""),
                        [v for _k, v in plural] if "msgid_plural" in cur else None)
            e.comments, e.extracted = comments["#"], comments["#."]
            e.references = [r for line in comments["#:"] for r in line.split()]
            e.flags = [f.strip() for line in comments["#,"] for f in line.split(",")]
            e.line = start
            entries.append(e)
        cur, field = {}, None
        for k in comments:
            comments[k] = []

    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        where = f"{path}:{n}"
        if not line:
            finish()
            continue
        if line.startswith("#~"):
            continue
        if line.startswith("#"):
            if "msgid" in cur:
                finish()
            kind = line[:2] if line[:2] in ("#.", "#:", "#,") else "#"
            comments[kind].append(line[len(kind):].strip())
            continue
        if line.startswith('"'):
            if field is None:
                raise PoError(f"{where}: a string continues no msgid or msgstr")
            cur[field] += _unquote(line, where)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgctxt":
            raise PoError(f"{where}: message contexts (msgctxt) are not used by the engine")
        if keyword == "msgid" and "msgid" in cur:
            finish()
        if keyword in ("msgid", "msgid_plural", "msgstr"):
            field = keyword
        elif keyword.startswith("msgstr[") and keyword.endswith("]") and keyword[7:-1].isdigit():
            field = int(keyword[7:-1])  # type: ignore[assignment]
        else:
            raise PoError(f"{where}: expected msgid, msgid_plural or msgstr, not {keyword!r}")
        if not cur:
            start = n
        if field in cur:
            raise PoError(f"{where}: {keyword} given twice")
        cur[field] = _unquote(rest.strip(), where)
    finish()
    return Po(header or "", entries)


def _string_lines(keyword: str, text: str) -> list[str]:
    """`keyword "text"`, or for text with line breaks the conventional `keyword ""` and one
    quoted line per line."""
    parts = text.splitlines(keepends=True)
    if len(parts) <= 1:
        return [f"{keyword} {_quote(text)}"]
    return [f'{keyword} ""', *map(_quote, parts)]


def write_po(po: Po) -> str:
    """The text of a .po file (unwrapped lines, so that a diff shows one message per line)."""
    out = _string_lines("msgid", "") + _string_lines("msgstr", po.header)
    for e in po.entries:
        out.append("")
        out += [f"# {c}".rstrip() for c in e.comments]
        out += [f"#. {c}" for c in e.extracted]
        out += [f"#: {r}" for r in e.references]
        if e.flags:
            out.append("#, " + ", ".join(e.flags))
        out += _string_lines("msgid", e.msgid)
        if e.msgid_plural is None:
            out += _string_lines("msgstr", e.msgstr)
        else:
            out += _string_lines("msgid_plural", e.msgid_plural)
            for i, form in enumerate(e.msgstr_plural):
                out += _string_lines(f"msgstr[{i}]", form)
    return "\n".join(out) + "\n"


# ---- compiling: .po -> .mo ----------------------------------------------------------------------
def mo_bytes(po: Po) -> bytes:
    """The GNU .mo file of a catalogue: the header and every translated message (untranslated
    and fuzzy ones are left out, as msgfmt does, so that they fall back to the source),
    sorted, little-endian, without a hash table."""
    import struct
    messages = {b"": po.header.encode("utf-8")}
    for e in po.entries:
        if not e.translated:
            continue
        key = e.msgid if e.msgid_plural is None else e.msgid + "\0" + e.msgid_plural
        messages[key.encode("utf-8")] = "\0".join(e.forms).encode("utf-8")
    keys = sorted(messages)
    ids = strs = b""
    spans = []
    for k in keys:
        spans.append((len(ids), len(k), len(strs), len(messages[k])))
        ids += k + b"\0"
        strs += messages[k] + b"\0"
    n = len(keys)
    id_start = 7 * 4 + 16 * n  # after the header and the two tables
    str_start = id_start + len(ids)
    table: list[int] = []
    for id_off, id_len, _s, _l in spans:
        table += [id_len, id_start + id_off]
    for _i, _il, str_off, str_len in spans:
        table += [str_len, str_start + str_off]
    head = struct.pack("<7I", 0x950412DE, 0, n, 7 * 4, 7 * 4 + 8 * n, 0, 0)
    return head + struct.pack(f"<{len(table)}I", *table) + ids + strs


# ---- extracting the marked strings --------------------------------------------------------------
def extract(root: str = ENGINE_DIR) -> list[PoEntry]:
    """The marked strings of the engine's modules (see KEYWORDS), in the order of the files
    and of their lines, each once, with the files that use it. A marker whose message is not
    a literal string is an error: it could not be translated. A `# i18n: ...` comment on the
    line before a marked call (or on its line) is passed to translators."""
    import ast
    found: dict[tuple[str, str | None], PoEntry] = {}
    problems: list[str] = []
    base = os.path.dirname(root)
    for path in _python_files(root):
        if os.path.abspath(path) == os.path.abspath(__file__):
            continue  # the markers' own definitions
        rel = os.path.relpath(path, base).replace(os.sep, "/")
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
        lines = source.splitlines()
        calls = [n for n in ast.walk(ast.parse(source, path)) if isinstance(n, ast.Call)]
        for call in sorted(calls, key=lambda c: (c.lineno, c.col_offset)):
            f = call.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else None
            if name not in KEYWORDS:
                continue
            texts = []
            for pos in KEYWORDS[name]:
                arg = call.args[pos] if pos < len(call.args) else None
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    problems.append(f"{rel}:{call.lineno}: {name}() needs a literal string as "
                                    f"argument {pos + 1}")
                    break
                texts.append(arg.value)
            else:
                key = (texts[0], texts[1] if len(texts) > 1 else None)
                e = found.get(key)
                if e is None:
                    e = found[key] = PoEntry(*key)
                    if key[1] is not None:
                        e.msgstr_plural = ["", ""]
                    if any(placeholders(t) for t in texts):
                        e.flags = ["python-brace-format"]
                if rel not in e.references:
                    e.references.append(rel)
                for ln in (call.lineno - 1, call.lineno):
                    line = lines[ln - 1] if 1 <= ln <= len(lines) else ""
                    note = line.partition("# i18n:")[2].strip()
                    if note and note not in e.extracted:
                        e.extracted.append(note)
    if problems:
        raise PoError("\n".join(problems))
    return list(found.values())


def _python_files(root: str) -> list[str]:
    out = []
    for d, dirs, files in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith((".", "__")))
        out += [os.path.join(d, f) for f in sorted(files) if f.endswith(".py")]
    return out


POT_HEADER = ("Project-Id-Version: engine\n"
              "MIME-Version: 1.0\n"
              "Content-Type: text/plain; charset=UTF-8\n"
              "Content-Transfer-Encoding: 8bit\n")


def template() -> Po:
    """The catalogue template (engine.pot) of the strings marked now."""
    return Po(POT_HEADER, extract())


def merged(po: Po, pot: Po) -> tuple[Po, int, int]:
    """`po` brought up to the template: its translations (and translators' comments) kept
    for messages still marked, new messages added untranslated, messages no longer marked
    left out. Returns the new catalogue, the number added and the number left out."""
    old = {e.key: e for e in po.entries}
    out, added = [], 0
    n = po.nplurals()
    for t in pot.entries:
        e = PoEntry(t.msgid, t.msgid_plural)
        e.extracted, e.references = list(t.extracted), list(t.references)
        prev = old.get(t.key)
        if prev is None:
            added += 1
            if t.msgid_plural is not None:
                e.msgstr_plural = [""] * n
            e.flags = list(t.flags)
        else:
            e.msgstr, e.msgstr_plural = prev.msgstr, list(prev.msgstr_plural)
            e.comments, e.flags = list(prev.comments), list(prev.flags)
        out.append(e)
    dropped = len(set(old) - {t.key for t in pot.entries})
    return Po(po.header, out), added, dropped


def languages() -> list[str]:
    """The languages with a catalogue (a directory in engine/locale with an engine.po)."""
    if not os.path.isdir(LOCALE_DIR):
        return []
    return sorted(d for d in os.listdir(LOCALE_DIR)
                  if os.path.isfile(po_path(d)))


def po_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".po")


def mo_path(lang: str) -> str:
    return os.path.join(LOCALE_DIR, lang, "LC_MESSAGES", DOMAIN + ".mo")


# ---- checking -----------------------------------------------------------------------------------
def placeholders(text: str) -> set[str]:
    """The names of a template's placeholders (`{side}` -> side)."""
    import string
    return {field.split(".")[0].split("[")[0] for _l, field, _s, _c in
            string.Formatter().parse(text) if field is not None}


def problems(po: Po, pot: Po, lang: str) -> list[str]:
    """What is wrong with a language's catalogue against the template: messages marked in
    the engine but missing or untranslated (or fuzzy) there, messages no longer marked, the
    wrong number of plural forms, and placeholders that differ from the source's."""
    out = []
    where = os.path.relpath(po_path(lang), os.path.dirname(ENGINE_DIR))
    have = {e.key: e for e in po.entries}
    for t in pot.entries:
        e = have.get(t.key)
        if e is None:
            out.append(f"{where}: missing {t.msgid!r} (run `python -m engine.i18n extract`)")
        elif not e.translated:
            out.append(f"{where}:{e.line}: not translated: {t.msgid!r}")
    for key, e in have.items():
        if key not in {t.key for t in pot.entries}:
            out.append(f"{where}:{e.line}: {e.msgid!r} is no longer marked in the engine "
                       "(run `python -m engine.i18n extract`)")
            continue
        want = placeholders(e.msgid)
        if e.msgid_plural is not None:
            if len(e.msgstr_plural) != po.nplurals():
                out.append(f"{where}:{e.line}: {e.msgid!r} has {len(e.msgstr_plural)} plural "
                           f"forms; Plural-Forms says {po.nplurals()}")
            want |= placeholders(e.msgid_plural)
        for form in e.forms:
            if form and placeholders(form) != want:
                out.append(f"{where}:{e.line}: the translation of {e.msgid!r} has the "
                           f"placeholders {sorted(placeholders(form))}, the source "
                           f"{sorted(want)}")
    for k in ("Language", "Plural-Forms"):
        if po.header_field(k) is None:
            out.append(f"{where}: the header has no {k}")
    return out


# ---- commands -----------------------------------------------------------------------------------
def _write(path: str, data: bytes | str) -> bool:
    """Write `path` if its content changes; True when it did."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        with open(path, "rb") as fh:
            if fh.read() == raw:
                return False
    except FileNotFoundError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(raw)
    return True


def cmd_extract() -> int:
    pot = template()
    _write(POT_PATH, write_po(pot))
    print(f"{os.path.relpath(POT_PATH)}: {len(pot.entries)} messages")
    for lang in languages():
        new, added, dropped = merged(read_po(po_path(lang)), pot)
        _write(po_path(lang), write_po(new))
        todo = sum(not e.translated for e in new.entries)
        print(f"{lang}: {added} new, {dropped} no longer marked, {todo} to translate")
    return 0


def cmd_compile() -> int:
    for lang in languages():
        po = read_po(po_path(lang))
        changed = _write(mo_path(lang), mo_bytes(po))
        done = sum(e.translated for e in po.entries)
        print(f"{lang}: {done} of {len(po.entries)} messages translated"
              + (f"; wrote {os.path.relpath(mo_path(lang))}" if changed else "; unchanged"))
    return 0


def cmd_check() -> int:
    pot = template()
    found = [p for lang in languages() for p in problems(read_po(po_path(lang)), pot, lang)]
    for lang in languages():
        if mo_bytes(read_po(po_path(lang))) != _read_bytes(mo_path(lang)):
            found.append(f"{os.path.relpath(mo_path(lang))} is not the compiled engine.po "
                         "(run `python -m engine.i18n compile`)")
    for p in found:
        print(p)
    print(f"{len(found)} problem{'s' * (len(found) != 1)} in {len(languages())} catalogues")
    return 1 if found else 0


def _read_bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except FileNotFoundError:
        return None


def cmd_init(lang: str, plural_forms: str | None) -> int:
    import re
    if not re.fullmatch(r"[a-z]{2,3}(?:_[A-Z]{2})?", lang):
        print(f"'{lang}' is not a language code like 'de' or 'pt_BR'", file=sys.stderr)
        return 2
    if os.path.exists(po_path(lang)):
        print(f"{os.path.relpath(po_path(lang))} exists already: run extract to update it",
              file=sys.stderr)
        return 1
    forms = plural_forms or PLURAL_FORMS.get(lang.split("_")[0])
    if forms is None:
        print(f"no plural rule known for '{lang}': give --plural-forms (see the gettext "
              "manual, 'Plural forms')", file=sys.stderr)
        return 2
    po, _added, _dropped = merged(Po(POT_HEADER + f"Language: {lang}\nPlural-Forms: {forms}\n",
                                     []), template())
    _write(po_path(lang), write_po(po))
    print(f"wrote {os.path.relpath(po_path(lang))}: translate every msgstr, then compile")
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="python -m engine.i18n",
                                description="The engine's gettext catalogues (engine/locale).")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("extract", help="list the marked strings in engine.pot and merge them "
                   "into every language's engine.po")
    sub.add_parser("compile", help="compile every engine.po into engine.mo beside it")
    sub.add_parser("check", help="report untranslated messages, placeholders that differ "
                   "and .mo files out of date (exit 1)")
    i = sub.add_parser("init", help="start a language's engine.po from engine.pot")
    i.add_argument("lang", metavar="LANG")
    i.add_argument("--plural-forms", metavar="RULE",
                   help='the gettext plural rule, e.g. "nplurals=2; plural=(n != 1);"')
    args = p.parse_args(argv)
    try:
        if args.command == "init":
            return cmd_init(args.lang, args.plural_forms)
        return {"extract": cmd_extract, "compile": cmd_compile, "check": cmd_check}[
            args.command]()
    except PoError as err:
        print(err, file=sys.stderr)
        return 1
