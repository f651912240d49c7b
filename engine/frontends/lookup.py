"""Looking a record up in a pack's model, for a designer: its rules text as its file has it,
the procedures and values that text calls, the lines of the rules that name it, and its
name and text in each language. `engine explain` prints these; the language server's hover
shows them."""
from __future__ import annotations

import re

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    from typing import Any

    from engine.dsl.model import PackModel, Record

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def languages(meta: dict[str, Any]) -> list[str]:
    """The pack's languages (pack.yaml `languages`), English when it says none."""
    langs = meta.get("languages")
    return [str(x) for x in langs] if isinstance(langs, list) and langs else ["en"]


def rule_fields(model: PackModel, rec: Record) -> list[str]:
    """The record's fields that hold rules (effects, triggers) and are given."""
    info = model.types.get(rec.type)
    return [f.name for f in (info.fields.values() if info else [])
            if f.type in ("effect", "triggers") and rec.data.get(f.name)]


def in_languages(pack: Any, rid: str, langs: list[str]) -> dict[str, dict[str, Any]]:
    """The record's name and text in each language, and whether the name is its own there
    (not derived, not fallen back to English). `pack` is what engine.i18n's Catalog reads:
    a compiled pack, or anything with its `id`, `root`, `model` and `records`."""
    from engine.i18n.translations import Catalog
    words: dict[str, dict[str, Any]] = {}
    for lang in langs:
        cat = Catalog(pack, lang)
        words[lang] = {"name": cat.name(rid), "text": cat.text(rid),
                       "own_name": cat.own_name(rid, lang) is not None}
    return words


def written(path: str, rtype: str, rid: str, fields: list[str]) -> dict[str, str]:
    """The rules text of the record's effect and trigger fields as its file has it (the
    pack holds them compiled)."""
    if not fields:
        return {}
    from engine.dsl.yamlload import load_yaml
    data, _diags = load_yaml(path, read(path))
    records = data.get(rtype) if isinstance(data, dict) else None
    entry = next((r for r in records or [] if isinstance(r, dict) and r.get("id") == rid), {})
    return {f: entry[f] for f in fields if isinstance(entry.get(f), str)}


def calls(model: PackModel, effects: dict[str, str]) -> list[dict[str, Any]]:
    """The procedures and values an effect names, each where it is declared."""
    out = []
    names = dict.fromkeys(w for text in effects.values() for w in WORD.findall(text))
    for name in names:
        decl = model.procs.get(name) or model.values.get(name)
        if decl is not None:
            out.append({"name": name, "path": shown(model.decl_paths[name]),
                        "line": decl.at.line})
    return out


def mentions(model: PackModel, rid: str) -> list[dict[str, Any]]:
    """Every line of the pack's rules files that has `rid` as a word, comments included."""
    word = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(rid)}(?![A-Za-z0-9_])")
    out = []
    for path in sorted(set(model.decl_paths.values())):
        text = read(path)
        for number, line in enumerate(text.splitlines(), 1):
            if word.search(line):
                out.append({"path": shown(path), "line": number, "text": line.strip()})
    return out


def read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeError):
        return ""  # a file the pack was read from and has gone since: nothing to show


def shown(path: str) -> str:
    """A path as a designer types it: relative to the current directory when under it."""
    from pathlib import Path
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p)


def plain(value: Any) -> str:
    """A record's field value as a designer writes it (lists in brackets, `none`)."""
    if isinstance(value, list):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
