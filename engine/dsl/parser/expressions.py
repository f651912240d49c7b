"""The rules of an expression, or of a type, as nodes of `engine.dsl.ast`: one area of the
parser's rules (`engine.dsl.parser.transform`).
"""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl.parser.limits import whole_number
from engine.dsl.parser.tokens import Children, Located, optional_items, unquote


def split_args(items: Any) -> tuple[tuple[A.Expr, ...], tuple[A.KwArg, ...]]:
    """Positional and keyword arguments of a call; a positional one after a keyword one is
    an error (E283), as the parameter it would fill is unclear."""
    args: list[A.Expr] = []
    kwargs: list[A.KwArg] = []
    for a in optional_items(items):
        if isinstance(a, A.KwArg):
            kwargs.append(a)
        elif kwargs:
            raise Located("a positional argument after a keyword argument: give it by name "
                          "too, or put it first", a.at, "E283")
        else:
            args.append(a)
    return tuple(args), tuple(kwargs)


class ExpressionsToAst:
    """The rules of expressions and types, and the start rule of one expression."""

    def expression(self, at: A.Pos, c: Children) -> A.Expr:
        result: A.Expr = c[0]
        return result

    # -- types
    def t_name(self, at: A.Pos, c: Children) -> A.TName:
        return A.TName(str(c[0]), at=at)

    def t_list(self, at: A.Pos, c: Children) -> A.TList:
        return A.TList(c[0], at=at)

    def t_optional(self, at: A.Pos, c: Children) -> A.TOptional:
        return A.TOptional(str(c[0]), at=at)

    # -- operators
    def or_(self, at: A.Pos, c: Children) -> A.Expr:
        return c[0] if len(c) == 1 else A.BoolOp("or", tuple(c), at=at)

    def and_(self, at: A.Pos, c: Children) -> A.Expr:
        return c[0] if len(c) == 1 else A.BoolOp("and", tuple(c), at=at)

    def if_expr(self, at: A.Pos, c: Children) -> A.IfExp:
        return A.IfExp(c[1], c[0], c[2], at=at)

    def not_(self, at: A.Pos, c: Children) -> A.Not:
        return A.Not(c[0], at=at)

    def compare(self, at: A.Pos, c: Children) -> A.Compare:
        return A.Compare(str(c[1]), c[0], c[2], at=at)

    def in_(self, at: A.Pos, c: Children) -> A.Compare:
        return A.Compare("in", c[0], c[1], at=at)

    def not_in(self, at: A.Pos, c: Children) -> A.Compare:
        return A.Compare("not in", c[0], c[1], at=at)

    def binop(self, at: A.Pos, c: Children) -> A.BinOp:
        return A.BinOp(str(c[1]), c[0], c[2], at=at)

    def neg(self, at: A.Pos, c: Children) -> A.Int | A.Neg:
        if isinstance(c[0], A.Int):  # keep -3 a literal so fmt round-trips
            return A.Int(-c[0].value, at=at)
        return A.Neg(c[0], at=at)

    def attr(self, at: A.Pos, c: Children) -> A.Attr:
        return A.Attr(c[0], str(c[1]), at=at)

    def index(self, at: A.Pos, c: Children) -> A.Index:
        return A.Index(c[0], c[1], at=at)

    # -- atoms
    def int_lit(self, at: A.Pos, c: Children) -> A.Int:
        return A.Int(whole_number(str(c[0]), at), at=at)

    def str_lit(self, at: A.Pos, c: Children) -> A.Str:
        return A.Str(unquote(c[0]), at=at)

    def true_lit(self, at: A.Pos, c: Children) -> A.Bool:
        return A.Bool(True, at=at)

    def false_lit(self, at: A.Pos, c: Children) -> A.Bool:
        return A.Bool(False, at=at)

    def none_lit(self, at: A.Pos, c: Children) -> A.NoneLit:
        return A.NoneLit(at=at)

    def name(self, at: A.Pos, c: Children) -> A.Name:
        return A.Name(str(c[0]), at=at)

    def call(self, at: A.Pos, c: Children) -> A.Call:
        args, kwargs = split_args(c[1])
        return A.Call(str(c[0]), args, kwargs, at=at)

    def list_lit(self, at: A.Pos, c: Children) -> A.ListLit:
        return A.ListLit(optional_items(c[0]), at=at)

    def filter_lit(self, at: A.Pos, c: Children) -> A.Comprehension:
        return self._filter(at, c[0], c[1])

    def map_lit(self, at: A.Pos, c: Children) -> A.Comprehension:
        return A.Comprehension(c[0], str(c[1]), c[2], c[3], at=at)

    # -- arguments
    def args(self, at: A.Pos, c: Children) -> tuple[A.Expr, ...]:
        return tuple(c)

    def callargs(self, at: A.Pos, c: Children) -> tuple[A.Expr | A.KwArg, ...]:
        return tuple(c)

    def gen_arg(self, at: A.Pos, c: Children) -> tuple[A.Comprehension]:
        return (A.Comprehension(c[0], str(c[1]), c[2], c[3], at=at),)

    def filter_arg(self, at: A.Pos, c: Children) -> tuple[A.Comprehension]:
        return (self._filter(at, c[0], c[1]),)

    def lambda_(self, at: A.Pos, c: Children) -> A.Lambda:
        if len(c) == 3:  # (x: T) => body
            return A.Lambda(str(c[0]), c[2], c[1], at=at)
        return A.Lambda(str(c[0]), c[1], at=at)

    def kwarg(self, at: A.Pos, c: Children) -> A.KwArg:
        return A.KwArg(str(c[0]), c[1], at=at)

    def _filter(self, at: A.Pos, head: Any, cond: A.Expr) -> A.Comprehension:
        # `x in source where cond`: the head must be a membership test on a plain name
        if not (isinstance(head, A.Compare) and head.op == "in" and isinstance(head.left, A.Name)):
            raise Located("a filter reads `[x in source where condition]`", at,
                          "E104")
        return A.Comprehension(head.left, head.left.id, head.right, cond, at=at)
