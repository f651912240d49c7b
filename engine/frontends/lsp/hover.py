"""What the language server shows on hover, as Markdown: a record's fields, its rules text
and its name and text in each of the pack's languages (as `engine explain` finds them); a
procedure's, value's or event's signature; any other declaration's line; each with the
rule it cites (its `# source:` or `# reconstructed:` comment) and where it is written; a
built-in's signature and what it gives (engine.dsl.builtins)."""
from __future__ import annotations

import os
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl.builtins import BUILTINS
from engine.dsl.formatter import format_expr, format_type
from engine.dsl.model import PackModel
from engine.dsl.types import show
from engine.frontends.lookup import in_languages, languages, plain, rule_fields, written
from engine.frontends.lsp.symbols import Key, PackIndex

_FENCE = "```"


@attrs.frozen
class _PackView:
    """What engine.i18n's Catalog reads of a pack (a compiled pack has the same names)."""

    id: str
    root: str
    model: PackModel
    records: dict[str, dict[str, Any]]


def hover_text(ix: PackIndex, key: Key, meta: dict[str, Any]) -> str:
    kind, name = key[0], key[-1]
    m = ix.model
    if kind == "record":
        return _record(ix, name, meta)
    if kind == "type":
        info = m.types[name]
        lines = [f"{f.name}: {show(f.type)}{'?' if f.optional else ''}"
                 + (" (var)" if f.var else "") for f in info.fields.values()]
        count = len(m.by_type.get(name, []))
        return _block(f"type {name}", *("    " + x for x in lines)) + \
            f"\n{count} record{'s' * (count != 1)}" + _where(ix, key)
    if kind == "field":
        owners = [t for t, info in m.types.items() if name in info.fields]
        lines = [f"{t}.{name}: {show(m.types[t].fields[name].type)}" for t in owners]
        return _block(*lines) + _where(ix, key)
    if kind == "enum_value":
        return _block(f"{key[1]}.{name}") + f"\na value of enum `{key[1]}`" + _where(ix, key)
    if kind == "event_state":
        state = next(f for f in m.events[key[1]].state if f.name == name)
        return _block(f"{key[1]}.{name}: {format_type(state.type)}") + \
            f"\nthe state of a running `{key[1]}`" + _where(ix, key)
    if kind == "side":
        return _block(f"side {name}") + "\none of the pack's sides"
    if kind == "builtin":
        b = BUILTINS[name]
        return _block(b.signature) + f"\n{b.doc}\n\n*built-in*"
    decl = ix.declaration(key)
    if decl is None:
        return ""
    cited = m.provenance.get(name)
    return _block(_signature(ix, key, decl)) + (f"\n\n{cited}" if cited else "") + \
        _where(ix, key)


def _signature(ix: PackIndex, key: Key, decl: Any) -> str:
    """A procedure's, value's or event's signature; the first line of anything else."""
    if isinstance(decl, A.ProcDecl):
        ret = f" -> {format_type(decl.returns)}" if decl.returns is not None else ""
        return f"procedure {decl.name}({_params(decl.params)}){ret}"
    if isinstance(decl, A.ValueDecl):
        return f"value {decl.name}({_params(decl.params)}): {format_type(decl.type)}"
    if isinstance(decl, A.EventDecl):
        state = ", ".join(f"{f.name}: {format_type(f.type)}" for f in decl.state)
        return f"event {decl.name}({_params(decl.params)})" + (f" with {state}" if state else "")
    place = ix.definitions(key)
    return ix.lines(place[0].path)[place[0].line].strip() if place else key[-1]


def _params(params: tuple[A.Param, ...]) -> str:
    return ", ".join(f"{p.name}: {format_type(p.type)}"
                     + (f" = {format_expr(p.default)}" if p.default is not None else "")
                     for p in params)


def _record(ix: PackIndex, rid: str, meta: dict[str, Any]) -> str:
    m = ix.model
    rec = m.records[rid]
    rules = rule_fields(m, rec)
    fields = [f"{k}: {plain(v)}" for k, v in rec.data.items()
              if k not in rules and k not in ("id", "source")]
    out = [_block(f"{rec.type} {rid}", *("    " + x for x in fields))]
    for field, text in written(rec.site.path, rec.type, rid, rules).items():
        out.append(f"{field}:\n" + _block(*text.strip().splitlines()))
    view = _PackView(m.id, m.root, m, {r: x.data for r, x in m.records.items()})
    for lang, words in in_languages(view, rid, languages(meta)).items():
        own = "" if words["own_name"] else " (no name of its own)"
        out.append(f"**{lang}**: {words['name']}{own}"
                   + (f" — {words['text']}" if words["text"] else ""))
    if rec.data.get("source"):
        out.append(f"source: {rec.data['source']}")
    return "\n\n".join(out) + _where(ix, ("record", rid))


def _block(*lines: str) -> str:
    return "\n".join((f"{_FENCE}rules", *lines, _FENCE))


def _where(ix: PackIndex, key: Key) -> str:
    places = ix.definitions(key)
    if not places:
        return ""
    shown = ", ".join(f"{os.path.relpath(p.path, ix.model.root)}:{p.line + 1}"
                      for p in places[:3])
    return f"\n\n*{shown}*"
