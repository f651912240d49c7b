"""The commands that print what a pack holds or what the engine speaks: `engine cards` (its
records and their names), `engine terms` (its glossary), `engine eval` (one of its values)
and `engine schema` (the JSON Schema of the public format or of a pack's records)."""
from __future__ import annotations

import argparse
import textwrap

from engine.frontends.cli.output import (
    EXIT_OK,
    EXIT_PROBLEMS,
    UsageError,
    dump,
    to_stderr,
    to_stdout,
)
from engine.frontends.cli.packs import load, say_read_from

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    from typing import Any

    from engine.core.loader import CompiledPack
    from engine.i18n.translations import Catalog


def _catalog(pack: CompiledPack, lang: str) -> Catalog:
    """The pack's names in `lang`, with a note on stderr when it has no such translation."""
    from engine.i18n.translations import Catalog
    cat = Catalog(pack, lang)
    if lang != "en" and not cat.has_language():
        to_stderr(f"note: no {lang} translation of {pack.id} (looked in "
                  f"{', '.join(str(d) for d in cat.dirs)}); showing English")
    return cat


def _table(rows: list[list[Any]], header: list[str]) -> list[str]:
    """Rows in columns as wide as their widest cell, under a header and a rule."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(row: list[Any]) -> str:
        return "  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip()

    return [line(header), line(["-" * width for width in widths]), *map(line, rows)]


def _record_types(pack: CompiledPack, wanted: list[str] | None) -> list[str]:
    """The record types to list: those asked for (each must exist), or all with records."""
    if not wanted:
        return [rtype for rtype in pack.by_type if pack.by_type[rtype]]
    from engine.dsl.errors import did_you_mean
    for rtype in wanted:
        if rtype not in pack.by_type:
            hint = did_you_mean(rtype, pack.by_type)
            raise UsageError(f"pack {pack.id} has no record type '{rtype}'"
                             + (f" ({hint})" if hint else ""))
    return list(dict.fromkeys(wanted))


def _record_order(record: dict[str, Any]) -> tuple[str, tuple[int, Any], str]:
    """Type, then number (numbered records first; numbers before text), then id."""
    given = record.get("number")
    number = (2, "") if given is None else (0, given) if isinstance(given, int) \
        else (1, str(given))
    return (record["type"], number, record["id"])


def cmd_cards(args: argparse.Namespace) -> int:
    pack = load(args.pack)
    where = say_read_from(pack)
    cat = _catalog(pack, args.lang)
    records = []
    for rtype in _record_types(pack, args.type):
        for rid in pack.by_type[rtype]:
            record: dict[str, Any] = {"type": rtype, "id": rid}
            number = pack.records[rid].get("number")
            if number is not None:
                record["number"] = number
            record.update(name=cat.name(rid), named=cat.is_named(rid),
                          derived=cat.own_name(rid) is None
                          and cat.derived_name(rid) is not None)
            if getattr(args, "text", False):
                record["text"] = cat.text(rid)
            records.append(record)
    records.sort(key=_record_order)
    if args.json:
        to_stdout(dump({"pack": pack.id, "pack_dir": where, "lang": args.lang,
                        "records": records}))
        return EXIT_OK
    rows = [[r["type"], r["id"], r.get("number", ""), r["name"] + ("" if r["named"] else " *")]
            for r in records]
    lines = _table(rows, ["TYPE", "ID", "NUMBER", f"NAME ({args.lang})"])
    for line in lines[:2]:
        to_stdout(line)
    for line, r in zip(lines[2:], records):
        to_stdout(line)
        if r.get("text"):
            for part in textwrap.wrap(r["text"], 88, initial_indent="    ",
                                      subsequent_indent="    "):
                to_stdout(part)
    unnamed = sum(not r["named"] for r in records)
    tail = f"; * = no {args.lang} name yet ({unnamed})" if unnamed else ""
    to_stdout(f"\n{len(records)} record{'s' * (len(records) != 1)}{tail}")
    return EXIT_OK


def cmd_terms(args: argparse.Namespace) -> int:
    pack = load(args.pack)
    where = say_read_from(pack)
    cat = _catalog(pack, args.lang)
    terms = [{"id": tid, "name": cat.term(tid)} for tid in cat.term_ids()]
    if args.json:
        to_stdout(dump({"pack": pack.id, "pack_dir": where, "lang": args.lang,
                        "terms": terms}))
        return EXIT_OK
    if not terms:
        to_stdout(f"{pack.id} has no glossary yet: add 'terms:' to a translation file "
                  f"({pack.id}.<lang>.yaml or {pack.id}.<part>.<lang>.yaml)")
        return EXIT_OK
    for line in _table([[t["id"], t["name"]] for t in terms], ["TERM", f"NAME ({args.lang})"]):
        to_stdout(line)
    return EXIT_OK


def parse_call(text: str) -> tuple[str, list[Any], dict[str, Any]]:
    """`name` or `name(arg, ..., param = arg)` with literal arguments: whole numbers, "text",
    true, false, none, [lists], and bare ids (records, sides). Read with the rules language's
    own parser."""
    from engine.dsl import ast
    from engine.dsl.errors import DslError
    from engine.dsl.formatter import format_expr
    from engine.dsl.pack import NOT_LITERAL, literal_value
    from engine.dsl.parser import parse_effect
    try:
        block = parse_effect(f"let _value = {text.strip()}")
    except DslError:
        block = ()
    node = block[0].value if len(block) == 1 and isinstance(block[0], ast.Let) else None
    if isinstance(node, ast.Name):
        return node.id, [], {}
    if not isinstance(node, ast.Call):
        raise UsageError(f"cannot read {text!r}: write a value and its arguments, like "
                         "'attack_strength(3, north_gate)'")
    given = [*node.args, *(keyword.value for keyword in node.kwargs)]
    values = [literal_value(arg) for arg in given]
    for arg, value in zip(given, values):
        if value is NOT_LITERAL:
            raise UsageError(f"'{format_expr(arg)}' is not a plain argument: use whole "
                             "numbers, \"text\", true, false, none, [lists] or ids")
    positional = len(node.args)
    return node.func, values[:positional], {
        keyword.name: value for keyword, value in zip(node.kwargs, values[positional:])}


def cmd_eval(args: argparse.Namespace) -> int:
    from engine.core.errors import EngineFault
    pack = load(args.pack)
    say_read_from(pack)
    name, call_args, call_kwargs = parse_call(args.expression)
    try:
        result = pack.call_value(name, *call_args, **call_kwargs)
    except KeyError as err:
        raise UsageError(err.args[0]) from None
    except TypeError as err:
        raise UsageError(str(err)) from None
    except EngineFault as err:
        to_stderr(f"engine eval: {err}")
        return EXIT_PROBLEMS
    to_stdout(dump(result, pretty=False))
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    import json
    if args.pack is not None:
        from engine.dsl.recordschema import record_schema
        pack = load(args.pack)
        say_read_from(pack)
        print(json.dumps(record_schema(pack.model), indent=2, ensure_ascii=False))
        return EXIT_OK
    if not args.api:
        raise UsageError("say which schema: --api (views, decisions, actions, log entries "
                         "and saves) or --pack PACK (a pack's record files)")
    from engine.core.schema import api_schema
    print(json.dumps(api_schema(), indent=2, ensure_ascii=False))
    return EXIT_OK
