"""Expressions: literals, names, calls, operators, lists, comprehensions, lambdas."""
from __future__ import annotations

import attrs

from engine.dsl.ast.positions import Pos, at_field
from engine.dsl.ast.type_exprs import TypeExpr


@attrs.frozen
class Int:
    value: int
    at: Pos = at_field()


@attrs.frozen
class Str:
    value: str
    at: Pos = at_field()


@attrs.frozen
class Bool:
    value: bool
    at: Pos = at_field()


@attrs.frozen
class NoneLit:
    at: Pos = at_field()


@attrs.frozen
class Name:
    id: str
    at: Pos = at_field()


@attrs.frozen
class KwArg:
    """`name = value`: an argument given by the parameter's name."""

    name: str
    value: Expr
    at: Pos = at_field()


@attrs.frozen
class Call:
    func: str
    args: tuple[Expr, ...]
    kwargs: tuple[KwArg, ...] = ()  # after the positional ones
    at: Pos = at_field()


@attrs.frozen
class Attr:
    obj: Expr
    name: str
    at: Pos = at_field()


@attrs.frozen
class Index:
    obj: Expr
    args: tuple[Expr, ...]
    at: Pos = at_field()


@attrs.frozen
class BinOp:
    op: str  # + - * / %
    left: Expr
    right: Expr
    at: Pos = at_field()


@attrs.frozen
class Compare:
    op: str  # == != < <= > >= in "not in"
    left: Expr
    right: Expr
    at: Pos = at_field()


@attrs.frozen
class BoolOp:
    op: str  # and | or
    items: tuple[Expr, ...]
    at: Pos = at_field()


@attrs.frozen
class Not:
    expr: Expr
    at: Pos = at_field()


@attrs.frozen
class Neg:
    expr: Expr
    at: Pos = at_field()


@attrs.frozen
class ListLit:
    items: tuple[Expr, ...]
    at: Pos = at_field()


@attrs.frozen
class Comprehension:
    """`[expr for var in source where cond]`; also `[var in source where cond]` (expr = var)
    and, as a call argument, the generator of an aggregate: `sum(c.ops for c in hand)`."""

    expr: Expr
    var: str
    source: Expr
    cond: Expr | None
    at: Pos = at_field()


@attrs.frozen
class IfExp:
    """`then if cond else orelse`."""

    cond: Expr
    then: Expr
    orelse: Expr
    at: Pos = at_field()


@attrs.frozen
class Lambda:
    """`param => body`; `(param: type) => body` says the parameter's type (checked)."""

    param: str
    body: Expr
    type: TypeExpr | None = None
    at: Pos = at_field()


Expr = (
    Int | Str | Bool | NoneLit | Name | Call | Attr | Index | BinOp | Compare | BoolOp | Not |
    Neg | ListLit | Comprehension | Lambda | IfExp
)
