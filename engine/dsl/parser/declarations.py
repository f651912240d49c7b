"""The rules of declarations as nodes of `engine.dsl.ast`: a file's list of them, types
and their fields, vars, zones, events, procedures, values, checks, enums, consts, graphs,
response windows and triggers. One area of the parser's rules (`engine.dsl.parser.transform`).
"""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl.parser.tokens import (
    Children,
    Located,
    optional_items,
    token_pos,
    unquote,
)

# a response window's clause: (keyword, value, where it is written)
_Clause = tuple[str, Any, A.Pos]


class DeclarationsToAst:
    """The rules of declarations, and the start rules of a file and of an effect."""

    # -- the start rules: a file, an effect
    def start(self, at: A.Pos, items: Children) -> list[A.Decl]:
        return [i for i in items if i is not None]

    def effect(self, at: A.Pos, items: Children) -> tuple[A.Stmt, ...]:
        return tuple(i for i in items if i is not None)

    # -- parameters and fields
    def param(self, at: A.Pos, c: Children) -> A.Param:
        return A.Param(str(c[0]), c[1], c[2], at=at)

    def params(self, at: A.Pos, c: Children) -> tuple[A.Param, ...]:
        return tuple(c)

    def params_br(self, at: A.Pos, c: Children) -> tuple[A.Param, ...]:
        params: tuple[A.Param, ...] = c[0]
        return params

    def names(self, at: A.Pos, c: Children) -> tuple[str, ...]:
        return tuple(str(n) for n in c)

    def field_decl(self, at: A.Pos, c: Children) -> A.FieldDecl:
        return A.FieldDecl(str(c[0]), c[1], c[2], at=at)

    def var_field(self, at: A.Pos, c: Children) -> A.FieldDecl:
        name, typ, bounds, default = c
        return A.FieldDecl(str(name), typ, default, True, bounds, at=at)

    def created(self, at: A.Pos, c: Children) -> bool:
        return True

    def bounds(self, at: A.Pos, c: Children) -> tuple[A.Expr, A.Expr]:
        return (c[0], c[1])

    def visibility(self, at: A.Pos, c: Children) -> str:
        return str(c[0])

    zone_flag = trigger_kind = w_when = visibility

    # -- declarations
    def type_decl(self, at: A.Pos, c: Children) -> A.TypeDecl:
        return A.TypeDecl(str(c[0]), tuple(c[2:]), created=bool(c[1]), at=at)

    def extend_decl(self, at: A.Pos, c: Children) -> A.TypeDecl:
        return A.TypeDecl(str(c[0]), tuple(c[1:]), extend=True, at=at)

    def var_decl(self, at: A.Pos, c: Children) -> A.VarDecl:
        name, params, typ, bounds, default, vis = c
        return A.VarDecl(str(name), optional_items(params), typ, bounds, default,
                         str(vis) if vis else "public", at=at)

    def zone_decl(self, at: A.Pos, c: Children) -> A.ZoneDecl:
        name, params, of, *flags = c
        return A.ZoneDecl(str(name), optional_items(params), str(of) if of else None,
                          tuple(str(f) for f in flags), at=at)

    def event_decl(self, at: A.Pos, c: Children) -> A.EventDecl:
        return A.EventDecl(str(c[0]), optional_items(c[1]), optional_items(c[2]),
                           at=at)

    def event_block(self, at: A.Pos, c: Children) -> A.EventDecl:
        return A.EventDecl(str(c[0]), optional_items(c[1]), tuple(c[2:]), at=at)

    def ev_fields(self, at: A.Pos, c: Children) -> tuple[A.FieldDecl, ...]:
        return tuple(c)

    def ev_field_line(self, at: A.Pos, c: Children) -> A.FieldDecl:
        field: A.FieldDecl = c[0]
        return field

    def ev_field(self, at: A.Pos, c: Children) -> A.FieldDecl:
        return A.FieldDecl(str(c[0]), c[1], c[2], at=at)

    def proc_decl(self, at: A.Pos, c: Children) -> A.ProcDecl:
        return A.ProcDecl(str(c[0]), optional_items(c[1]), c[2], c[3], at=at)

    def value_decl(self, at: A.Pos, c: Children) -> A.ValueDecl:
        return A.ValueDecl(str(c[0]), optional_items(c[1]), c[2], c[3], at=at)

    def check_decl(self, at: A.Pos, c: Children) -> A.CheckDecl:
        return A.CheckDecl(unquote(c[0]), c[1], False, at=at)

    def invariant_decl(self, at: A.Pos, c: Children) -> A.CheckDecl:
        return A.CheckDecl(unquote(c[0]), c[1], True, at=at)

    def enum_value(self, at: A.Pos, c: Children) -> A.EnumValue:
        return A.EnumValue(str(c[0]), at=at)

    def enum_values(self, at: A.Pos, c: Children) -> tuple[A.EnumValue, ...]:
        return tuple(c)

    def enum_decl(self, at: A.Pos, c: Children) -> A.EnumDecl:
        return A.EnumDecl(str(c[0]), c[1], at=at)

    def enum_block(self, at: A.Pos, c: Children) -> A.EnumDecl:
        return A.EnumDecl(str(c[0]), tuple(v for line in c[1:] for v in line),
                          at=at)

    def const_decl(self, at: A.Pos, c: Children) -> A.ConstDecl:
        return A.ConstDecl(str(c[0]), c[1], c[2], at=at)

    def graph_decl(self, at: A.Pos, c: Children) -> A.GraphDecl:
        return A.GraphDecl(str(c[0]), str(c[1]), str(c[2]), c[3], at=at)

    # -- response windows
    def w_by(self, at: A.Pos, c: Children) -> _Clause:
        return ("by", c[0], at)

    def w_from(self, at: A.Pos, c: Children) -> _Clause:
        return ("from", (str(c[0]), c[1], c[2]), at)

    def w_to(self, at: A.Pos, c: Children) -> _Clause:
        return ("to", c[0], at)

    def w_effect(self, at: A.Pos, c: Children) -> _Clause:
        return ("effect", A.Name(str(c[0]), at=token_pos(c[0])), at)

    def w_prompt(self, at: A.Pos, c: Children) -> _Clause:
        return ("prompt", A.Str(unquote(c[0]), at=token_pos(c[0])), at)

    def w_opens(self, at: A.Pos, c: Children) -> _Clause:
        return ("opens", A.WindowOpening(str(c[0]), str(c[1]), at=at),
                at)

    def window_decl(self, at: A.Pos, c: Children) -> A.WindowDecl:
        name, params, *clauses = c
        kw: dict[str, Any] = {}
        opens = []
        for key, value, spot in clauses:
            if key == "opens":
                opens.append(value)
            elif key in kw:
                raise Located(f"'{key}' given twice in window '{name}'", spot, "E265")
            else:
                kw[key] = value
        for key in ("by", "from", "to"):
            if key not in kw:
                raise Located(f"window '{name}' needs a '{key}' clause (a window says who is "
                              "asked: by, what answers it: from x in ..., and where a played "
                              "card goes: to)", at, "E265")
        var, source, where = kw["from"]
        return A.WindowDecl(str(name), optional_items(params), kw["by"], var, source, where,
                            kw["to"], kw.get("effect"), kw.get("prompt"), tuple(opens),
                            clauses=tuple((key, spot) for key, _v, spot in clauses),
                            at=at)

    # -- triggers
    def trigger_decl(self, at: A.Pos, c: Children) -> A.TriggerDecl:
        kind, event, names, cond, body = c
        return A.TriggerDecl(str(kind), str(event), names, cond, body, at=at)

    def instead_decl(self, at: A.Pos, c: Children) -> A.TriggerDecl:
        event, names, cond, body = c
        return A.TriggerDecl("instead", str(event), names, cond, body, at=at)
