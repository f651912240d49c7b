"""The records of a pack's YAML files: each under a declared type, with an id of its own,
its fields checked against the type (numbers, text, sides, enum values, references to
other records), effects and triggers parsed as rules, tables' rows and columns.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.errors import DslError, did_you_mean, source_line
from engine.dsl.model import TABLE_TYPE, Effect, PackModel, Record, Site, Trigger
from engine.dsl.pack.disagreements import DisagreementReader
from engine.dsl.pack.reader import site_at
from engine.dsl.pack.table_keys import key_matcher
from engine.dsl.pack.values import brief, fraction_in
from engine.dsl.pack.words import RECORD_META, RESERVED, SLUG
from engine.dsl.parser import parse_record_decls
from engine.dsl.yamlload import YList, YMap


class RecordsReader(DisagreementReader):
    """The record files: records, their fields, effects, triggers and tables."""

    def _collect_records(self, model: PackModel, p: Path, data: Any
                         ) -> list[tuple[str, YMap, Site]]:
        path = str(p)
        if not isinstance(data, YMap):
            self.error("E310", "a record file maps type names to lists of records "
                       "(e.g. 'card:' followed by '- id: ...')", Site(path, 1, 1))
            return []
        out = []
        for tname, items in data.items():
            kloc = data.key_loc[tname]
            if tname not in model.types:
                self.error("E311", f"unknown record type '{tname}'", Site(path, kloc.line,
                           kloc.col, kloc.col + len(str(tname))),
                           did_you_mean(str(tname), model.types))
                continue
            if not isinstance(items, YList):
                self.error("E310", f"'{tname}' must be a list of records", Site(path, kloc.line,
                           kloc.col))
                continue
            if model.types[tname].created:
                self.error("E273", f"records of type '{tname}' are made in play by rules "
                           f"('create {tname} ...'), not listed in a record file",
                           Site(path, kloc.line, kloc.col, kloc.col + len(str(tname))),
                           f"remove '{tname}:' here, or drop 'created' from 'type {tname}'")
                continue
            for i, rec in enumerate(items):
                loc = items.item_loc[i]
                site = Site(path, loc.line, loc.col)
                if not isinstance(rec, YMap):
                    self.error("E310", "a record is a mapping with an 'id'", site)
                    continue
                out.append((tname, rec, site))
        return out

    def _add_record(self, model: PackModel, tname: str, rec: YMap, site: Site) -> None:
        rid = rec.get("id")
        if isinstance(rid, str):
            model.poisoned.add(rid)  # until it is added below
        if not isinstance(rid, str) or not SLUG.match(rid):
            loc = rec.val_loc.get("id")
            self.error("E312", "a record needs an 'id' that is a lowercase slug like 'north_gate'"
                       if rid is None else f"record id {rid!r} must be a lowercase slug",
                       Site(site.path, loc.line, loc.col) if loc else site)
            return
        loc = rec.val_loc["id"]
        idsite = Site(site.path, loc.line, loc.col, loc.col + len(rid))
        clash = model.records.get(rid)
        if clash is not None and self._cross("record id", rid, clash.site, idsite):
            return
        if clash is not None:
            self.error("E313", f"id '{rid}' is used twice (also a {clash.type} at "
                       f"{clash.site.path}:{clash.site.line})", idsite)
            return
        if rid in model.decl_paths and not model.own_namespace(tname):
            if not self._cross("name", rid, self._decl_sites[rid], idsite):
                self.error("E313", f"id '{rid}' is already the name of a declaration or side",
                           idsite, "tables and glossary terms have names of their own; other "
                           "records share the names of declarations")
            return
        if rid in model.sides or rid in RESERVED:
            self.error("E313", f"id '{rid}' is already the name of a declaration or side", idsite)
            return
        model.poisoned.discard(rid)
        model.records[rid] = Record(rid, tname, {}, idsite)
        model.by_type.setdefault(tname, []).append(rid)

    def _fill_record(self, model: PackModel, tname: str, rec: YMap) -> None:
        rid = rec.get("id")
        record = model.records.get(rid) if isinstance(rid, str) else None
        if record is None or record.type != tname or record.data:
            return
        path = record.site.path
        if tname == TABLE_TYPE:
            return self._fill_table(model, record, rec)
        info = model.types[tname]
        data: dict[str, Any] = {"id": rid}
        for key, value in rec.items():
            kloc = rec.key_loc[key]
            if key in RECORD_META:
                if key != "id":
                    data[key] = value
                continue
            f = info.fields.get(key)
            if f is None:
                self.error("E314", f"{tname} has no field '{key}'",
                           Site(path, kloc.line, kloc.col, kloc.col + len(str(key))),
                           did_you_mean(str(key), [*info.fields, *RECORD_META]))
                continue
            vloc = rec.val_loc[key]
            record.field_sites[key] = Site(path, vloc.line, vloc.col)
            data[key] = self._value(model, f.type, value, rec, key, record, f.optional)
        for f in info.fields.values():
            if f.name not in data and not f.var:  # a var field starts at its default
                if not f.optional:
                    self.error("E315", f"{tname} '{rid}' needs field '{f.name}'", record.site)
                data[f.name] = f.default
        record.data = data
        if "disagree" in rec:
            self._disagree(model, record, rec, [*info.fields, "name"])

    def _value(self, model: PackModel, t: T.Type, value: Any, container: Any, key: Any,
               record: Record, optional: bool) -> Any:
        loc = (container.val_loc[key] if isinstance(container, YMap)
               else container.item_loc[key])
        site = Site(loc.path, loc.line, loc.col)
        if value is None:
            if not optional:
                self.error("E316", f"'{key}' needs a value", site)
            return None
        if isinstance(t, tuple):  # list of X
            if not isinstance(value, YList):
                self.error("E316", f"expected a list of {T.show(t[1])}", site)
                return []
            return [self._value(model, t[1], v, value, i, record, False)
                    for i, v in enumerate(value)]
        if t == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                self.error("E316", f"expected a whole number, got {value!r}", site)
            return value
        if t == "bool":
            if not isinstance(value, bool):
                self.error("E316", f"expected true or false, got {value!r}", site)
            return value
        if t == "text":
            if not isinstance(value, str):
                self.error("E316", f"expected text, got {value!r} (quote it)", site)
            return value
        if t == "any":
            fraction = fraction_in(value)
            if fraction is not None:  # it would reach the game's state, whose numbers are whole
                self.error("E316", f"expected whole numbers, text, true or false, got "
                           f"{fraction!r} (the rules count in whole numbers)", site)
            return value
        if t == "effect":
            return self._effect(model, value, loc, record, str(key))
        if t == "triggers":
            return self._triggers(model, value, loc, record, str(key))
        if t == "side":
            if value not in model.sides:
                self.error("E317", f"unknown side {value!r}", Site(site.path, site.line, site.col,
                           site.col + len(str(value))), did_you_mean(str(value), model.sides))
            return value
        if t in model.enums:
            return self._enum_value(model, t, value, loc)
        if t not in model.types:
            return value  # an undeclared field type: the checker reports the type (E202)
        # a reference to a record of type t
        if not isinstance(value, str):
            self.error("E318", f"expected the id of a {t}, got {brief(value)}", site)
            return value
        target = model.records.get(value)
        if target is None or target.type != t:
            end = site.col + len(str(value))
            if target is not None:
                self.error("E318", f"'{value}' is a {target.type}, not a {t}",
                           Site(site.path, site.line, site.col, end))
            elif value in model.poisoned:
                pass  # defined in a part of the pack that is already reported as broken
            else:
                self.error("E318", f"{self._where(record, key)}: no {t} record has the id "
                           f"'{value}'", Site(site.path, site.line, site.col, end),
                           did_you_mean(str(value), model.by_type.get(t, [])))
        return value

    @staticmethod
    def _where(record: Record, key: Any) -> str:
        """The record and field a value is written in, as its designer wrote them: `card
        'c1' field 'roman'` (an item of a list field is named by its field)."""
        field = key if isinstance(key, str) else next(reversed(record.field_sites), None)
        at = f"{record.type} '{record.id}'"
        return f"{at} field '{field}'" if field is not None else at

    def _enum_value(self, model: PackModel, t: str, value: Any, loc: Any) -> Any:
        """A value of enum `t`: one of its names, written as plain text (E280 if not)."""
        values = model.enum_values(t)
        if not isinstance(value, str):
            self.error("E280", f"expected one of {t}'s values ({', '.join(values)}), got "
                       f"{brief(value)}", site_at(loc))
        elif value not in values:
            quoted = getattr(loc, "style", None) in ("'", '"')  # point at the text inside
            site = Site(loc.path, loc.line, loc.col + 1, loc.col + 1 + len(value)) if quoted \
                else site_at(loc, value)
            self.error("E280", f"'{value}' is not a value of {t} (values: {', '.join(values)})",
                       site, did_you_mean(value, values))
        return value

    def _text_start(self, loc: Any) -> tuple[int, int]:
        """Line and column where the text of a YAML scalar starts in its file."""
        src = self.sources.get(loc.path, "")
        line, col = loc.line, loc.col
        if loc.style in ("|", ">"):
            lines = src.splitlines()
            line = loc.line + 1
            while line <= len(lines) and not lines[line - 1].strip():
                line += 1
            body = lines[line - 1] if line <= len(lines) else ""
            col = len(body) - len(body.lstrip()) + 1
        elif loc.style in ("'", '"'):
            col += 1
        return line, col

    def _effect(self, model: PackModel, text: Any, loc: Any, record: Record, field: str) -> Any:
        if not isinstance(text, str):
            self.error("E316", "an effect is text in the rules language (use '|')",
                       Site(loc.path, loc.line, loc.col))
            return None
        src = self.sources.get(loc.path, "")
        line, col = self._text_start(loc)
        try:
            body = self._parse_effect(text, loc.path, line, col)
        except DslError as err:
            for d in err.diagnostics:  # show the line as it is in the file
                self.diags.append(attrs.evolve(d, line_text=source_line(src, d.line)))
            return None
        model.effects.append(Effect(record.id, field, record.type, body,
                                    Site(loc.path, line, col)))
        return field  # the record holds the field name; the compiled effect is looked up by id

    def _triggers(self, model: PackModel, text: Any, loc: Any, record: Record, field: str
                  ) -> Any:
        """Trigger declarations written on a record; inside them `self` is the record.
        They run after the triggers of `.rules` files, in record order."""
        if not isinstance(text, str):
            self.error("E316", "triggers are text in the rules language (use '|')",
                       Site(loc.path, loc.line, loc.col))
            return None
        src = self.sources.get(loc.path, "")
        line, col = self._text_start(loc)
        decls, diags = parse_record_decls(text, loc.path, line, col)
        for diag in diags:
            self.diags.append(attrs.evolve(diag, line_text=source_line(src, diag.line)))
        for d in decls:
            if not isinstance(d, A.TriggerDecl):
                self.error("E320", "only triggers (before/on/instead of/after) may be written "
                           f"in a record's '{field}' field", Site(loc.path, d.at.line, d.at.col))
                continue
            model.triggers.append(Trigger(d, loc.path, len(model.triggers), record.id,
                                          record.type))
        return field

    def _fill_table(self, model: PackModel, record: Record, rec: YMap) -> None:
        path = record.site.path
        data: dict[str, Any] = {"id": record.id}
        for key, value in rec.items():
            if key in RECORD_META:
                if key != "id":
                    data[key] = value
            elif key not in ("rows", "columns"):
                kloc = rec.key_loc[key]
                self.error("E314", f"a table has 'rows' and optional 'columns', not '{key}'",
                           Site(path, kloc.line, kloc.col), did_you_mean(str(key),
                           ["rows", "columns", *RECORD_META]))
        rows = rec.get("rows")
        if not isinstance(rows, YMap):
            self.error("E319", "a table needs 'rows': a mapping from row key to a value or a "
                       "list (one per column)", record.site)
            record.data = data
            return
        columns = rec.get("columns")
        ncols = len(columns) if isinstance(columns, list) else None
        for rkey, row in rows.items():
            loc = rows.val_loc[rkey]
            if isinstance(row, list) and ncols is not None and len(row) != ncols:
                self.error("E319", f"row {rkey!r} has {len(row)} entries, the table has {ncols} "
                           "columns", Site(path, loc.line, loc.col))
            for spec in ([rkey] + (list(columns) if isinstance(columns, list) else [])):
                if key_matcher(spec) is None:
                    self.error("E319", f"table key {spec!r} is not a number, a range like '2-4', "
                               "'5+' or '-1' or a name", Site(path, loc.line, loc.col))
        data["rows"] = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict)
                            else v) for k, v in rows.items()}
        data["columns"] = list(columns) if isinstance(columns, list) else None
        record.data = data
        if "disagree" in rec:
            self._disagree(model, record, rec, ["rows", "columns", "name"])

