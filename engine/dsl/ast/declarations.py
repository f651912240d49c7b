"""Declarations, the top level of a rules file, and `Module`, a parsed file."""
from __future__ import annotations

import attrs

from engine.dsl.ast.expressions import Expr, Lambda, Name, Str
from engine.dsl.ast.positions import Pos, at_field
from engine.dsl.ast.statements import Stmt
from engine.dsl.ast.type_exprs import TypeExpr


@attrs.frozen
class Param:
    name: str
    type: TypeExpr
    default: Expr | None = None  # a constant used when a call leaves the parameter out
    at: Pos = at_field()


@attrs.frozen
class FieldDecl:
    name: str
    type: TypeExpr
    default: Expr | None = None
    var: bool = False  # `var name: T`: changes during play (kept in the game state)
    bounds: tuple[Expr, Expr] | None = None  # var fields only: `in lo..hi`
    at: Pos = at_field()


@attrs.frozen
class TypeDecl:
    name: str
    fields: tuple[FieldDecl, ...]
    extend: bool = False  # `extend type T:`: fields added to a type declared elsewhere
    created: bool = False  # `type T created`: records made by `create`, not listed in YAML
    at: Pos = at_field()


@attrs.frozen
class VarDecl:
    name: str
    params: tuple[Param, ...]
    type: TypeExpr
    bounds: tuple[Expr, Expr] | None = None
    default: Expr | None = None
    visibility: str = "public"  # public | private | hidden
    at: Pos = at_field()


@attrs.frozen
class ZoneDecl:
    name: str
    params: tuple[Param, ...]
    of: str | None = None
    flags: tuple[str, ...] = ()
    at: Pos = at_field()


@attrs.frozen
class EventDecl:
    name: str
    params: tuple[Param, ...]
    # `with rounds: int = 0, ...`: the state of one running instance (`battle.rounds`)
    state: tuple[FieldDecl, ...] = ()
    at: Pos = at_field()


@attrs.frozen
class ProcDecl:
    name: str
    params: tuple[Param, ...]
    returns: TypeExpr | None
    body: tuple[Stmt, ...]
    at: Pos = at_field()


@attrs.frozen
class ValueDecl:
    name: str
    params: tuple[Param, ...]
    type: TypeExpr
    expr: Expr
    at: Pos = at_field()


@attrs.frozen
class CheckDecl:
    message: str
    expr: Expr
    invariant: bool = False
    at: Pos = at_field()


@attrs.frozen
class GraphDecl:
    name: str
    node_type: str
    edge_type: str
    where: Lambda | None = None  # keeps the edges it holds for (a filtered graph)
    at: Pos = at_field()


@attrs.frozen
class TriggerDecl:
    kind: str  # before | after | on | instead
    event: str
    names: tuple[str, ...] | None
    cond: Expr | None
    body: tuple[Stmt, ...]
    at: Pos = at_field()


@attrs.frozen
class WindowOpening:
    """A window's `before e` / `after e` clause: it opens by itself at every event e."""

    kind: str  # before | after
    event: str
    at: Pos = at_field()


@attrs.frozen
class EnumValue:
    name: str
    at: Pos = at_field()


@attrs.frozen
class WindowDecl:
    """`window name(params):` with its clauses: who is asked (`by`), what may answer (`from
    x in source where cond`), where a played record goes (`to`), which of its effect fields
    runs (`effect`), the `prompt`, and the events it opens at by itself."""

    name: str
    params: tuple[Param, ...]
    by: Expr
    var: str
    source: Expr
    where: Expr | None
    to: Expr
    effect: Name | None = None  # the effect field of the played record, by name
    prompt: Str | None = None
    opens: tuple[WindowOpening, ...] = ()
    # (keyword, where the clause is written) in source order, for the formatter
    clauses: tuple[tuple[str, Pos], ...] = attrs.field(default=(), eq=False, repr=False,
                                                       kw_only=True)
    at: Pos = at_field()


@attrs.frozen
class EnumDecl:
    """`enum kind: a, b, c`: a type whose values are those names (plain text at run time)."""

    name: str
    values: tuple[EnumValue, ...]
    at: Pos = at_field()


@attrs.frozen
class ConstDecl:
    """`const name: T = expr`: a pack-level constant, evaluated once when the pack loads."""

    name: str
    type: TypeExpr | None
    expr: Expr
    at: Pos = at_field()


Decl = (
    TypeDecl | VarDecl | ZoneDecl | EventDecl | ProcDecl | ValueDecl | CheckDecl | GraphDecl |
    TriggerDecl | WindowDecl | EnumDecl | ConstDecl
)


@attrs.frozen
class Module:
    path: str
    decls: tuple[Decl, ...]
    comments: tuple[tuple[int, int, str], ...] = attrs.field(default=(), eq=False, repr=False)
