"""The parse tree of an expression, or of a type, into the nodes of `engine.dsl.ast`.

`ExpressionsToAst` is one area of the parser's transformer (`engine.dsl.parser.transform`)
and, on its own, what reads the `{placeholders}` of a prompt (`engine.dsl.parser.templates`).
"""
from __future__ import annotations

from typing import Any

from lark import Token, v_args
from lark.tree import Meta
from lark.visitors import Transformer_NonRecursive

from engine.dsl import ast as A
from engine.dsl.parser.limits import whole_number
from engine.dsl.parser.tokens import Children, Located, node_pos, optional_items, unquote


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


@v_args(meta=True)
class ExpressionsToAst(Transformer_NonRecursive[Token, Any]):
    """The rules of expressions and types, and the start rule of one expression."""

    # Non-recursive: absurdly deep input (10,000 brackets or `not`s) must reach the nesting
    # limits (engine.dsl.parser.limits) as a tree, not end in a RecursionError inside lark.
    def expression(self, meta: Meta, c: Children) -> A.Expr:
        result: A.Expr = c[0]
        return result

    # -- types
    def t_name(self, meta: Meta, c: Children) -> A.TName:
        return A.TName(str(c[0]), at=node_pos(meta))

    def t_list(self, meta: Meta, c: Children) -> A.TList:
        return A.TList(c[0], at=node_pos(meta))

    def t_optional(self, meta: Meta, c: Children) -> A.TOptional:
        return A.TOptional(str(c[0]), at=node_pos(meta))

    # -- operators
    def or_(self, meta: Meta, c: Children) -> A.Expr:
        return c[0] if len(c) == 1 else A.BoolOp("or", tuple(c), at=node_pos(meta))

    def and_(self, meta: Meta, c: Children) -> A.Expr:
        return c[0] if len(c) == 1 else A.BoolOp("and", tuple(c), at=node_pos(meta))

    def if_expr(self, meta: Meta, c: Children) -> A.IfExp:
        return A.IfExp(c[1], c[0], c[2], at=node_pos(meta))

    def not_(self, meta: Meta, c: Children) -> A.Not:
        return A.Not(c[0], at=node_pos(meta))

    def compare(self, meta: Meta, c: Children) -> A.Compare:
        return A.Compare(str(c[1]), c[0], c[2], at=node_pos(meta))

    def in_(self, meta: Meta, c: Children) -> A.Compare:
        return A.Compare("in", c[0], c[1], at=node_pos(meta))

    def not_in(self, meta: Meta, c: Children) -> A.Compare:
        return A.Compare("not in", c[0], c[1], at=node_pos(meta))

    def binop(self, meta: Meta, c: Children) -> A.BinOp:
        return A.BinOp(str(c[1]), c[0], c[2], at=node_pos(meta))

    def neg(self, meta: Meta, c: Children) -> A.Int | A.Neg:
        if isinstance(c[0], A.Int):  # keep -3 a literal so fmt round-trips
            return A.Int(-c[0].value, at=node_pos(meta))
        return A.Neg(c[0], at=node_pos(meta))

    def attr(self, meta: Meta, c: Children) -> A.Attr:
        return A.Attr(c[0], str(c[1]), at=node_pos(meta))

    def index(self, meta: Meta, c: Children) -> A.Index:
        return A.Index(c[0], c[1], at=node_pos(meta))

    # -- atoms
    def int_lit(self, meta: Meta, c: Children) -> A.Int:
        return A.Int(whole_number(str(c[0]), node_pos(meta)), at=node_pos(meta))

    def str_lit(self, meta: Meta, c: Children) -> A.Str:
        return A.Str(unquote(c[0]), at=node_pos(meta))

    def true_lit(self, meta: Meta, c: Children) -> A.Bool:
        return A.Bool(True, at=node_pos(meta))

    def false_lit(self, meta: Meta, c: Children) -> A.Bool:
        return A.Bool(False, at=node_pos(meta))

    def none_lit(self, meta: Meta, c: Children) -> A.NoneLit:
        return A.NoneLit(at=node_pos(meta))

    def name(self, meta: Meta, c: Children) -> A.Name:
        return A.Name(str(c[0]), at=node_pos(meta))

    def call(self, meta: Meta, c: Children) -> A.Call:
        args, kwargs = split_args(c[1])
        return A.Call(str(c[0]), args, kwargs, at=node_pos(meta))

    def list_lit(self, meta: Meta, c: Children) -> A.ListLit:
        return A.ListLit(optional_items(c[0]), at=node_pos(meta))

    def filter_lit(self, meta: Meta, c: Children) -> A.Comprehension:
        return self._filter(meta, c[0], c[1])

    def map_lit(self, meta: Meta, c: Children) -> A.Comprehension:
        return A.Comprehension(c[0], str(c[1]), c[2], c[3], at=node_pos(meta))

    # -- arguments
    def args(self, meta: Meta, c: Children) -> tuple[A.Expr, ...]:
        return tuple(c)

    def callargs(self, meta: Meta, c: Children) -> tuple[A.Expr | A.KwArg, ...]:
        return tuple(c)

    def gen_arg(self, meta: Meta, c: Children) -> tuple[A.Comprehension]:
        return (A.Comprehension(c[0], str(c[1]), c[2], c[3], at=node_pos(meta)),)

    def filter_arg(self, meta: Meta, c: Children) -> tuple[A.Comprehension]:
        return (self._filter(meta, c[0], c[1]),)

    def lambda_(self, meta: Meta, c: Children) -> A.Lambda:
        if len(c) == 3:  # (x: T) => body
            return A.Lambda(str(c[0]), c[2], c[1], at=node_pos(meta))
        return A.Lambda(str(c[0]), c[1], at=node_pos(meta))

    def kwarg(self, meta: Meta, c: Children) -> A.KwArg:
        return A.KwArg(str(c[0]), c[1], at=node_pos(meta))

    def _filter(self, meta: Meta, head: Any, cond: A.Expr) -> A.Comprehension:
        # `x in source where cond`: the head must be a membership test on a plain name
        if not (isinstance(head, A.Compare) and head.op == "in" and isinstance(head.left, A.Name)):
            raise Located("a filter reads `[x in source where condition]`", node_pos(meta),
                          "E104")
        return A.Comprehension(head.left, head.left.id, head.right, cond, at=node_pos(meta))
