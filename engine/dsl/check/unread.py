"""Dead data: what a pack declares or lists that nothing reads (warnings W601-W607).

Run on a pack that checked without errors, over the checker's annotations: a procedure no
rule calls (W601), a hidden var no rule reads (W602: players see the others), a const no
rule reads (W603), a record no rule names, no record refers to and whose type no rule goes
through (W604; a table W605, a glossary term W606). pack.yaml reads too: a name written
there (a board's var, a `determinize` procedure, a type the map draws) is read. What a pack
keeps on purpose is listed in pack.yaml `unread: {NAME: why}` (a declaration, a record id
or a record type); an `unread:` entry whose name is read after all is W607, one that names
nothing E348.
Only the pack's own files are reported, not those of the packs it imports, and nothing of a
data pack (`playable: false`), whose data is for the packs that import it.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.result import CheckResult
from engine.dsl.errors import Diagnostic, did_you_mean, source_line
from engine.dsl.model import TABLE_TYPE, PackModel, Site

# pack.yaml keys that say what a thing is, not read it: `unread` keeps, `glossary` says which
# types are terms for people, `names_from` how records are named
_NOT_READS = ("unread", "glossary", "names_from")


class _Reads:
    """What the rules, the records and pack.yaml of a pack read, by kind."""

    def __init__(self, model: PackModel, result: CheckResult, meta: dict[str, Any]) -> None:
        self.procs: set[str] = set()
        self.vars: set[str] = set()
        self.consts: set[str] = set()
        self.records: set[str] = set()  # record ids named or referred to
        self.types: set[str] = set()  # record types gone through: all their records read
        for node, res in result.res.items():
            if node in result.not_read:
                continue
            kind = res[0]
            if kind == "proc":
                self.procs.add(res[1])
            elif kind == "var":
                self.vars.add(res[1])
            elif kind == "kconst":
                self.consts.add(res[1])
            elif kind == "const":
                self.records.add(res[1])
            elif kind == "all":
                self.types.add(res[1])
        for graph in model.graphs.values():  # a graph is made of all its types' records
            self.types |= {graph.node_type, graph.edge_type}
        for trigger in model.triggers:  # a record with triggers acts by itself
            if trigger.record is not None:
                self.records.add(trigger.record)
        for rec in model.records.values():
            self.records |= set(_references(model, rec.type, rec.data))
        if model.determinize is not None:
            self.procs.add(model.determinize[0])
        # pack.yaml: the board, balance, heuristic ... name them (`unread:` keeps, not reads)
        named = set(_words({k: v for k, v in meta.items() if k not in _NOT_READS}))
        self.procs |= named
        self.vars |= named
        self.types |= named & set(model.types)
        self.records |= named


def _references(model: PackModel, type_name: str, data: dict[str, Any]) -> Iterator[str]:
    """The record ids a record's reference fields hold."""
    info = model.types.get(type_name)
    if info is None:
        return
    for name, value in data.items():
        field = info.fields.get(name)
        if field is None:
            continue
        target = T.elem(field.type) if isinstance(field.type, tuple) else field.type
        if target not in model.types:
            continue
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str):
                yield item


def _words(node: Any) -> Iterator[str]:
    """Every text in a YAML tree, keys included."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _words(key)
            yield from _words(value)
    elif isinstance(node, list):
        for item in node:
            yield from _words(item)


class _Report:
    def __init__(self, model: PackModel, sources: dict[str, str]) -> None:
        self.model = model
        self.sources = sources
        self.root = Path(model.root)
        self.diags: list[Diagnostic] = []

    def own(self, path: str) -> bool:
        """Is `path` a file of this pack (not of a pack it imports)?"""
        return Path(path).is_relative_to(self.root)

    def warn(self, code: str, message: str, path: str, at: A.Pos | Site, keys: tuple[str, ...]
             ) -> None:
        """A warning for something nothing reads, unless `unread:` keeps one of `keys`."""
        if any(k in self.model.unread for k in keys) or not self.own(path):
            return
        end = at.end_col if isinstance(at, Site) or at.end_line == at.line else None
        self.diags.append(Diagnostic(
            code, message, path, at.line, at.col, source_line(self.sources.get(path, ""),
                                                              at.line), end,
            "read it in a rule, remove it, or keep it in pack.yaml `unread: {"
            f"{keys[0]}: why}}`", severity="warning"))


def unread(model: PackModel, result: CheckResult, meta: dict[str, Any],
           sources: dict[str, str]) -> list[Diagnostic]:
    """The dead-data warnings of a pack that checked (`sources`: every file's text by path),
    and the problems of its pack.yaml `unread:` entries."""
    reads = _Reads(model, result, meta)
    out = _Report(model, sources)
    if not model.playable:  # a data pack's declarations and records are for its importers
        return _kept(model, reads)
    paths = model.decl_paths
    for name, proc in model.procs.items():
        if name not in reads.procs:
            out.warn("W601", f"procedure '{name}' is never called", paths[name], proc.at,
                     (name,))
    for name, var in model.vars.items():  # a var a player sees is read by the views
        if name not in reads.vars and var.visibility == "hidden":
            out.warn("W602", f"var '{name}' is never read: no rule reads it and, hidden, no "
                     "player sees it", paths[name], var.at, (name,))
    for name, const in model.consts.items():
        if name not in reads.consts:
            out.warn("W603", f"const '{name}' is never read", paths[name], const.at, (name,))
    for rid, rec in model.records.items():
        if rid in reads.records or rec.type in reads.types:
            continue
        code = "W606" if rec.type in model.glossary else "W605" if rec.type == TABLE_TYPE \
            else "W604"
        what = "glossary term" if code == "W606" else rec.type
        out.warn(code, f"{what} '{rid}' is never read: no rule names it or goes through the "
                 f"{rec.type} records, and no record refers to it", rec.site.path, rec.site,
                 (rid, rec.type))
    out.diags += _kept(model, reads)
    return out.diags


def _kept(model: PackModel, reads: _Reads) -> list[Diagnostic]:
    """E348 for an `unread:` name that names nothing of the pack; W607 for one whose
    declaration or records are read after all (the entry is stale)."""
    diags = []
    known = {*model.procs, *model.vars, *model.consts, *model.records, *model.types}
    for name, site in model.unread.items():
        if name not in known:
            diags.append(Diagnostic("E348", f"unread: '{name}' is no procedure, var, const, "
                                    "record or record type of the pack", site.path, site.line,
                                    site.col, end_col=site.end_col,
                                    suggestion=did_you_mean(name, known)))
        elif _read(model, reads, name):
            diags.append(Diagnostic("W607", f"unread: '{name}' is read after all: remove it "
                                    "from `unread:`", site.path, site.line, site.col,
                                    end_col=site.end_col, severity="warning"))
    return diags


def _read(model: PackModel, reads: _Reads, name: str) -> bool:
    """Is the declaration, record or record type `name` read by something (a type: all of
    its records)?"""
    if name in model.types:
        return name in reads.types or all(r in reads.records for r in model.by_type.get(name, []))
    if name in model.records:
        return name in reads.records or model.records[name].type in reads.types
    return name in reads.procs | reads.vars | reads.consts
