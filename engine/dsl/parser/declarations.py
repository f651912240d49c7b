"""The parse tree of declarations into the nodes of `engine.dsl.ast`: a file's list of
them, types and their fields, vars, zones, events, procedures, values, checks, enums,
consts, graphs, response windows and triggers. One area of the parser's transformer
(`engine.dsl.parser.transform`).
"""
from __future__ import annotations

from typing import Any

from lark import Token, v_args
from lark.tree import Meta
from lark.visitors import Transformer_NonRecursive

from engine.dsl import ast as A
from engine.dsl.parser.tokens import (
    Children,
    Located,
    node_pos,
    optional_items,
    token_pos,
    unquote,
)

# a response window's clause: (keyword, value, where it is written)
_Clause = tuple[str, Any, A.Pos]


@v_args(meta=True)
class DeclarationsToAst(Transformer_NonRecursive[Token, Any]):
    """The rules of declarations, and the start rules of a file and of an effect."""

    # -- the start rules: a file, an effect
    def start(self, meta: Meta, items: Children) -> list[A.Decl]:
        return [i for i in items if i is not None]

    def effect(self, meta: Meta, items: Children) -> tuple[A.Stmt, ...]:
        return tuple(i for i in items if i is not None)

    # -- parameters and fields
    def param(self, meta: Meta, c: Children) -> A.Param:
        return A.Param(str(c[0]), c[1], c[2], at=node_pos(meta))

    def params(self, meta: Meta, c: Children) -> tuple[A.Param, ...]:
        return tuple(c)

    def params_br(self, meta: Meta, c: Children) -> tuple[A.Param, ...]:
        params: tuple[A.Param, ...] = c[0]
        return params

    def names(self, meta: Meta, c: Children) -> tuple[str, ...]:
        return tuple(str(n) for n in c)

    def field_decl(self, meta: Meta, c: Children) -> A.FieldDecl:
        return A.FieldDecl(str(c[0]), c[1], c[2], at=node_pos(meta))

    def var_field(self, meta: Meta, c: Children) -> A.FieldDecl:
        name, typ, bounds, default = c
        return A.FieldDecl(str(name), typ, default, True, bounds, at=node_pos(meta))

    def created(self, meta: Meta, c: Children) -> bool:
        return True

    def bounds(self, meta: Meta, c: Children) -> tuple[A.Expr, A.Expr]:
        return (c[0], c[1])

    def visibility(self, meta: Meta, c: Children) -> str:
        return str(c[0])

    zone_flag = trigger_kind = w_when = visibility

    # -- declarations
    def type_decl(self, meta: Meta, c: Children) -> A.TypeDecl:
        return A.TypeDecl(str(c[0]), tuple(c[2:]), created=bool(c[1]), at=node_pos(meta))

    def extend_decl(self, meta: Meta, c: Children) -> A.TypeDecl:
        return A.TypeDecl(str(c[0]), tuple(c[1:]), extend=True, at=node_pos(meta))

    def var_decl(self, meta: Meta, c: Children) -> A.VarDecl:
        name, params, typ, bounds, default, vis = c
        return A.VarDecl(str(name), optional_items(params), typ, bounds, default,
                         str(vis) if vis else "public", at=node_pos(meta))

    def zone_decl(self, meta: Meta, c: Children) -> A.ZoneDecl:
        name, params, of, *flags = c
        return A.ZoneDecl(str(name), optional_items(params), str(of) if of else None,
                          tuple(str(f) for f in flags), at=node_pos(meta))

    def event_decl(self, meta: Meta, c: Children) -> A.EventDecl:
        return A.EventDecl(str(c[0]), optional_items(c[1]), optional_items(c[2]),
                           at=node_pos(meta))

    def event_block(self, meta: Meta, c: Children) -> A.EventDecl:
        return A.EventDecl(str(c[0]), optional_items(c[1]), tuple(c[2:]), at=node_pos(meta))

    def ev_fields(self, meta: Meta, c: Children) -> tuple[A.FieldDecl, ...]:
        return tuple(c)

    def ev_field_line(self, meta: Meta, c: Children) -> A.FieldDecl:
        field: A.FieldDecl = c[0]
        return field

    def ev_field(self, meta: Meta, c: Children) -> A.FieldDecl:
        return A.FieldDecl(str(c[0]), c[1], c[2], at=node_pos(meta))

    def proc_decl(self, meta: Meta, c: Children) -> A.ProcDecl:
        return A.ProcDecl(str(c[0]), optional_items(c[1]), c[2], c[3], at=node_pos(meta))

    def value_decl(self, meta: Meta, c: Children) -> A.ValueDecl:
        return A.ValueDecl(str(c[0]), optional_items(c[1]), c[2], c[3], at=node_pos(meta))

    def check_decl(self, meta: Meta, c: Children) -> A.CheckDecl:
        return A.CheckDecl(unquote(c[0]), c[1], False, at=node_pos(meta))

    def invariant_decl(self, meta: Meta, c: Children) -> A.CheckDecl:
        return A.CheckDecl(unquote(c[0]), c[1], True, at=node_pos(meta))

    def enum_value(self, meta: Meta, c: Children) -> A.EnumValue:
        return A.EnumValue(str(c[0]), at=node_pos(meta))

    def enum_values(self, meta: Meta, c: Children) -> tuple[A.EnumValue, ...]:
        return tuple(c)

    def enum_decl(self, meta: Meta, c: Children) -> A.EnumDecl:
        return A.EnumDecl(str(c[0]), c[1], at=node_pos(meta))

    def enum_block(self, meta: Meta, c: Children) -> A.EnumDecl:
        return A.EnumDecl(str(c[0]), tuple(v for line in c[1:] for v in line),
                          at=node_pos(meta))

    def const_decl(self, meta: Meta, c: Children) -> A.ConstDecl:
        return A.ConstDecl(str(c[0]), c[1], c[2], at=node_pos(meta))

    def graph_decl(self, meta: Meta, c: Children) -> A.GraphDecl:
        return A.GraphDecl(str(c[0]), str(c[1]), str(c[2]), c[3], at=node_pos(meta))

    # -- response windows
    def w_by(self, meta: Meta, c: Children) -> _Clause:
        return ("by", c[0], node_pos(meta))

    def w_from(self, meta: Meta, c: Children) -> _Clause:
        return ("from", (str(c[0]), c[1], c[2]), node_pos(meta))

    def w_to(self, meta: Meta, c: Children) -> _Clause:
        return ("to", c[0], node_pos(meta))

    def w_effect(self, meta: Meta, c: Children) -> _Clause:
        return ("effect", A.Name(str(c[0]), at=token_pos(c[0])), node_pos(meta))

    def w_prompt(self, meta: Meta, c: Children) -> _Clause:
        return ("prompt", A.Str(unquote(c[0]), at=token_pos(c[0])), node_pos(meta))

    def w_opens(self, meta: Meta, c: Children) -> _Clause:
        return ("opens", A.WindowOpening(str(c[0]), str(c[1]), at=node_pos(meta)),
                node_pos(meta))

    def window_decl(self, meta: Meta, c: Children) -> A.WindowDecl:
        name, params, *clauses = c
        kw: dict[str, Any] = {}
        opens = []
        for key, value, at in clauses:
            if key == "opens":
                opens.append(value)
            elif key in kw:
                raise Located(f"'{key}' given twice in window '{name}'", at, "E265")
            else:
                kw[key] = value
        for key in ("by", "from", "to"):
            if key not in kw:
                raise Located(f"window '{name}' needs a '{key}' clause (a window says who is "
                              "asked: by, what answers it: from x in ..., and where a played "
                              "card goes: to)", node_pos(meta), "E265")
        var, source, where = kw["from"]
        return A.WindowDecl(str(name), optional_items(params), kw["by"], var, source, where,
                            kw["to"], kw.get("effect"), kw.get("prompt"), tuple(opens),
                            clauses=tuple((key, at) for key, _v, at in clauses),
                            at=node_pos(meta))

    # -- triggers
    def trigger_decl(self, meta: Meta, c: Children) -> A.TriggerDecl:
        kind, event, names, cond, body = c
        return A.TriggerDecl(str(kind), str(event), names, cond, body, at=node_pos(meta))

    def instead_decl(self, meta: Meta, c: Children) -> A.TriggerDecl:
        event, names, cond, body = c
        return A.TriggerDecl("instead", str(event), names, cond, body, at=node_pos(meta))
