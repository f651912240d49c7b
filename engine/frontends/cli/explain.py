"""`engine explain CARD`: one record as a designer looks it up: its fields, the rules text of
its effects (and where the procedures they call are written), its name and text in each of
the pack's languages, and every line of the pack's rules that names it."""
from __future__ import annotations

import argparse
import re
import textwrap

from engine.frontends.cli.output import EXIT_OK, UsageError, dump, to_stdout
from engine.frontends.cli.packs import load, say_read_from

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    from typing import Any

    from engine.core.loader import CompiledPack

WIDTH = 88  # of wrapped text, indented under its heading
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def cmd_explain(args: argparse.Namespace) -> int:
    pack, rid = _find(args.card, args.pack)
    where = say_read_from(pack)
    found = explain(pack, rid, [args.lang] if args.lang else _languages(pack))
    if args.json:
        to_stdout(dump({"pack": pack.id, "pack_dir": where, **found}))
        return EXIT_OK
    for line in _text(found):
        to_stdout(line)
    return EXIT_OK


def _find(card: str, pack_ref: str | None) -> tuple[CompiledPack, str]:
    """The pack holding the record `card` (an id, or an English name in any case) and its id:
    in the pack named, else in the one shipped pack that has it."""
    from engine.dsl.errors import did_you_mean
    if pack_ref is not None:
        candidates = [load(pack_ref)]
    else:
        from engine.dsl.places import content_root, find_packs
        candidates = [load(str(root)) for root in find_packs(content_root())]
    hits = [(pack, rid) for pack in candidates for rid in [_record_id(pack, card)] if rid]
    if len(hits) > 1:
        raise UsageError(f"'{card}' is a record of several packs ("
                         f"{', '.join(p.id for p, _ in hits)}): say which with --pack")
    if not hits:
        ids = [rid for pack in candidates for rid in pack.records]
        hint = did_you_mean(card, ids)
        inside = candidates[0].id if pack_ref is not None else "any shipped pack"
        raise UsageError(f"no record '{card}' in {inside}" + (f" ({hint})" if hint else "")
                         + "; `engine cards PACK` lists them")
    return hits[0]


def _record_id(pack: CompiledPack, card: str) -> str | None:
    if card in pack.records:
        return card
    from engine.i18n.translations import Catalog
    cat = Catalog(pack, "en")
    wanted = card.casefold()
    return next((rid for rid in pack.records if cat.name(rid).casefold() == wanted), None)


def _languages(pack: CompiledPack) -> list[str]:
    langs = pack.meta.get("languages")
    return [str(x) for x in langs] if isinstance(langs, list) and langs else ["en"]


def explain(pack: CompiledPack, rid: str, langs: list[str]) -> dict[str, Any]:
    """What `engine explain` shows of the record `rid`, as JSON-ready data."""
    from engine.i18n.translations import Catalog
    model = pack.model
    rec = model.records[rid]
    info = model.types.get(rec.type)
    rules = [f.name for f in (info.fields.values() if info else [])
             if f.type in ("effect", "triggers") and rec.data.get(f.name)]
    effects = _written(rec.site.path, rec.type, rid, rules)
    fields = {k: v for k, v in rec.data.items() if k not in rules and k != "id"}
    words: dict[str, dict[str, Any]] = {}
    for lang in langs:
        cat = Catalog(pack, lang)
        words[lang] = {"name": cat.name(rid), "text": cat.text(rid),
                       "own_name": cat.own_name(rid, lang) is not None}
    return {"type": rec.type, "id": rid, "path": _shown(rec.site.path), "line": rec.site.line,
            "fields": fields, "effects": effects,
            "calls": _calls(model, effects), "languages": words,
            "mentions": _mentions(model, rid)}


def _written(path: str, rtype: str, rid: str, fields: list[str]) -> dict[str, str]:
    """The rules text of the record's effect and trigger fields as its file has them (the
    pack holds them compiled)."""
    if not fields:
        return {}
    from engine.dsl.yamlload import load_yaml
    data, _diags = load_yaml(path, _read(path))
    records = data.get(rtype) if isinstance(data, dict) else None
    entry = next((r for r in records or [] if isinstance(r, dict) and r.get("id") == rid), {})
    return {f: entry[f] for f in fields if isinstance(entry.get(f), str)}


def _calls(model: Any, effects: dict[str, str]) -> list[dict[str, Any]]:
    """The procedures and values an effect names, each where it is declared."""
    out = []
    names = dict.fromkeys(w for text in effects.values() for w in _WORD.findall(text))
    for name in names:
        decl = model.procs.get(name) or model.values.get(name)
        if decl is not None:
            out.append({"name": name, "path": _shown(model.decl_paths[name]),
                        "line": decl.at.line})
    return out


def _mentions(model: Any, rid: str) -> list[dict[str, Any]]:
    """Every line of the pack's rules files that has `rid` as a word, comments included."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(rid)}(?![A-Za-z0-9_])")
    out = []
    for path in sorted(set(model.decl_paths.values())):
        text = _read(path)
        for number, line in enumerate(text.splitlines(), 1):
            if word.search(line):
                out.append({"path": _shown(path), "line": number, "text": line.strip()})
    return out


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeError):
        return ""  # a file the pack was read from and has gone since: nothing to show


def _shown(path: str) -> str:
    """A path as a designer types it: relative to the current directory when under it."""
    from pathlib import Path
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def _text(found: dict[str, Any]) -> list[str]:
    out = [f"{found['type']} {found['id']}  ({found['path']}:{found['line']})"]
    for key, value in found["fields"].items():
        out += _wrapped(f"{key}: {_value(value)}", "  ")
    for key, text in found["effects"].items():
        out.append(f"{key} (rules):")
        out += ["    " + line for line in text.strip().splitlines()]
    if found["calls"]:
        out.append("which calls:")
        out += [f"    {c['name']}  {c['path']}:{c['line']}" for c in found["calls"]]
    out.append("in each language:")
    for lang, words in found["languages"].items():
        mark = "" if words["own_name"] else "  (no name of its own in this language)"
        out.append(f"  {lang}: {words['name']}{mark}")
        if words["text"]:
            out += _wrapped(words["text"], "      ", hang="")
    mentions = found["mentions"]
    out.append(f"named in the rules: {len(mentions)} line{'s' * (len(mentions) != 1)}"
               + (":" if mentions else ""))
    out += [f"  {m['path']}:{m['line']}: {m['text']}" for m in mentions]
    return out


def _value(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _wrapped(text: str, indent: str, hang: str = "  ") -> list[str]:
    """`text` wrapped under `indent`, its later lines indented by `hang` more."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent,
                         subsequent_indent=indent + hang) or [indent]

