"""`engine explain CARD`: one record as a designer looks it up: its fields, the rules text of
its effects (and where the procedures they call are written), its name and text in each of
the pack's languages, and every line of the pack's rules that names it."""
from __future__ import annotations

import argparse
import textwrap

from engine.frontends.cli.output import EXIT_OK, UsageError, dump, to_stdout
from engine.frontends.cli.packs import load, say_read_from
from engine.frontends.lookup import (
    calls,
    in_languages,
    languages,
    mentions,
    plain,
    rule_fields,
    shown,
    written,
)

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    from typing import Any

    from engine.core.loader import CompiledPack

WIDTH = 88  # of wrapped text, indented under its heading


def cmd_explain(args: argparse.Namespace) -> int:
    pack, rid = _find(args.card, args.pack)
    where = say_read_from(pack)
    found = explain(pack, rid, [args.lang] if args.lang else languages(pack.meta))
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


def explain(pack: CompiledPack, rid: str, langs: list[str]) -> dict[str, Any]:
    """What `engine explain` shows of the record `rid`, as JSON-ready data."""
    model = pack.model
    rec = model.records[rid]
    rules = rule_fields(model, rec)
    effects = written(rec.site.path, rec.type, rid, rules)
    fields = {k: v for k, v in rec.data.items() if k not in rules and k != "id"}
    return {"type": rec.type, "id": rid, "path": shown(rec.site.path), "line": rec.site.line,
            "fields": fields, "effects": effects,
            "calls": calls(model, effects), "languages": in_languages(pack, rid, langs),
            "mentions": mentions(model, rid)}


def _text(found: dict[str, Any]) -> list[str]:
    out = [f"{found['type']} {found['id']}  ({found['path']}:{found['line']})"]
    for key, value in found["fields"].items():
        out += _wrapped(f"{key}: {plain(value)}", "  ")
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


def _wrapped(text: str, indent: str, hang: str = "  ") -> list[str]:
    """`text` wrapped under `indent`, its later lines indented by `hang` more."""
    return textwrap.wrap(text, WIDTH, initial_indent=indent,
                         subsequent_indent=indent + hang) or [indent]

