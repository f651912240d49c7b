"""The declarations of a pack's rule files into its model: each name declared once (and
not a reserved word, a keyword or a side), types with their fields, windows with the rule
and triggers they make, `extend type` applied once every pack is declared.
"""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.errors import did_you_mean
from engine.dsl.model import (
    BUILTIN_EVENTS,
    TABLE_TYPE,
    FieldInfo,
    PackModel,
    Site,
    Trigger,
    TypeInfo,
    Window,
)
from engine.dsl.pack.reader import PackReader
from engine.dsl.pack.values import NOT_LITERAL, literal_value
from engine.dsl.pack.windows import window_body
from engine.dsl.pack.words import KEYWORDS, RECORD_META, RESERVED

_KINDS = {A.TypeDecl: "type", A.VarDecl: "var", A.ZoneDecl: "zone", A.EventDecl: "event",
          A.ProcDecl: "procedure", A.ValueDecl: "value", A.GraphDecl: "graph",
          A.WindowDecl: "window", A.EnumDecl: "enum", A.ConstDecl: "const"}


class RulesReader(PackReader):
    """The declarations of the rule files, into the model."""

    def _declare(self, model: PackModel, mod: A.Module) -> None:
        path = mod.path
        for d in mod.decls:
            if isinstance(d, A.TriggerDecl):
                model.triggers.append(Trigger(d, path, len(model.triggers)))
                continue
            if isinstance(d, A.CheckDecl):
                model.checks.append((d, path))
                continue
            name = d.name
            if isinstance(d, A.TypeDecl) and d.extend:
                self._extends.append((d, path))  # applied once every pack is declared
                continue
            tables: dict[type, dict[str, Any]] = {
                A.TypeDecl: model.types, A.VarDecl: model.vars, A.ZoneDecl: model.zones,
                A.EventDecl: model.events, A.ProcDecl: model.procs,
                A.ValueDecl: model.values, A.GraphDecl: model.graphs,
                A.WindowDecl: model.windows, A.EnumDecl: model.enums,
                A.ConstDecl: model.consts}
            table = tables[type(d)]
            site = Site(path, d.at.line, d.at.col)
            if name in RESERVED or name in BUILTIN_EVENTS or name in model.sides:
                self.error("E305", f"'{name}' is reserved", site)
                continue
            if name in KEYWORDS:
                self.error("E305", f"'{name}' is a keyword of the rules language; choose "
                           "another name", site)
                continue
            if name in model.decl_paths:
                if not self._cross(_KINDS[type(d)], name, self._decl_sites[name], site):
                    self.error("E306", f"'{name}' is declared twice (first in "
                               f"{model.decl_paths[name]})", site)
                continue
            model.decl_paths[name] = path
            self._decl_sites[name] = site
            if isinstance(d, A.TypeDecl):
                table[name] = self._type_info(d, path)
            elif isinstance(d, A.WindowDecl):
                table[name] = Window(d, path, window_body(d))
                for opening in d.opens:  # `after e`: a trigger of e that opens the window
                    args = tuple(A.Name(p.name, at=opening.at) for p in d.params)
                    body = (A.ActionStmt(A.Open(name, args, at=opening.at), at=opening.at),)
                    trigger = A.TriggerDecl(opening.kind, opening.event,
                                            tuple(p.name for p in d.params), None, body,
                                            at=opening.at)
                    model.triggers.append(Trigger(trigger, path, len(model.triggers),
                                                  window=name))
            else:
                table[name] = d

    def _apply_extends(self, model: PackModel) -> None:
        """`extend type T:` adds fields to a type, usually one of an imported pack. The
        records of the imported pack cannot give them, so each new field needs a default or
        `?` (E336); an unknown type is E335."""
        for d, path in self._extends:
            site = Site(path, d.at.line, d.at.col)
            info = model.types.get(d.name)
            if info is None or d.name == TABLE_TYPE:
                if d.name not in model.poisoned:
                    self.error("E335", f"'extend type {d.name}': there is no type '{d.name}'"
                               if info is None else "the built-in type 'table' cannot be "
                               "extended", site, did_you_mean(d.name, [
                                   t for t in model.types if t != TABLE_TYPE]))
                continue
            for name, f in self._type_info(d, path).fields.items():
                old = info.fields.get(name)
                if old is not None:
                    self.error("E336", f"type {d.name} already has a field '{name}' (at "
                               f"{old.site.path}:{old.site.line})", f.site)
                elif not f.optional:
                    self.error("E336", f"'{name}' is added to {d.name} by 'extend type': "
                               "records of the pack that declares the type cannot give it, "
                               "so it needs a default ('= ...') or '?'", f.site)
                else:
                    info.fields[name] = f

    def _type_info(self, d: A.TypeDecl, path: str) -> TypeInfo:
        fields: dict[str, FieldInfo] = {}
        for f in d.fields:
            site = Site(path, f.at.line, f.at.col)
            if f.name in RECORD_META:
                self.error("E307", f"'{f.name}' is a field every record has already", site)
                continue
            default = None
            if f.default is not None:
                default = literal_value(f.default)
                if default is NOT_LITERAL and not f.var:  # a var field's default is a rule
                    self.error("E308", "a field default must be a literal", site)
                    default = None
            # a var field is optional in YAML: a record may give its starting value there
            fields[f.name] = FieldInfo(f.name, T.from_ast(f.type), isinstance(f.type, A.TOptional)
                                       or f.default is not None or f.var,
                                       None if default is NOT_LITERAL else default, site,
                                       Site(path, f.type.at.line, f.type.at.col), f.var, f)
        return TypeInfo(d.name, fields, Site(path, d.at.line, d.at.col), d.created)

