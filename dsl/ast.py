"""The syntax tree of a rules file: plain attrs classes, one per construct.

Positions (`at`) are excluded from equality so that `fmt` output, which moves text around,
can be compared with the original tree.
"""
from __future__ import annotations

from typing import Union

import attrs


@attrs.frozen
class Pos:
    line: int = 0
    col: int = 0
    end_line: int = 0
    end_col: int = 0


NOPOS = Pos()


def _at() -> Pos:
    return attrs.field(default=NOPOS, eq=False, repr=False, kw_only=True)


# ---- types ------------------------------------------------------------------------------
@attrs.frozen
class TName:
    name: str
    at: Pos = _at()


@attrs.frozen
class TList:
    elem: "TypeExpr"
    at: Pos = _at()


@attrs.frozen
class TOptional:
    name: str
    at: Pos = _at()


TypeExpr = Union[TName, TList, TOptional]


# ---- expressions ------------------------------------------------------------------------
@attrs.frozen
class Int:
    value: int
    at: Pos = _at()


@attrs.frozen
class Str:
    value: str
    at: Pos = _at()


@attrs.frozen
class Bool:
    value: bool
    at: Pos = _at()


@attrs.frozen
class NoneLit:
    at: Pos = _at()


@attrs.frozen
class Name:
    id: str
    at: Pos = _at()


@attrs.frozen
class KwArg:
    """`name = value`: an argument given by the parameter's name."""

    name: str
    value: "Expr"
    at: Pos = _at()


@attrs.frozen
class Call:
    func: str
    args: tuple["Expr", ...]
    kwargs: tuple[KwArg, ...] = ()  # after the positional ones
    at: Pos = _at()


@attrs.frozen
class Attr:
    obj: "Expr"
    name: str
    at: Pos = _at()


@attrs.frozen
class Index:
    obj: "Expr"
    args: tuple["Expr", ...]
    at: Pos = _at()


@attrs.frozen
class BinOp:
    op: str  # + - * / %
    left: "Expr"
    right: "Expr"
    at: Pos = _at()


@attrs.frozen
class Compare:
    op: str  # == != < <= > >= in "not in"
    left: "Expr"
    right: "Expr"
    at: Pos = _at()


@attrs.frozen
class BoolOp:
    op: str  # and | or
    items: tuple["Expr", ...]
    at: Pos = _at()


@attrs.frozen
class Not:
    expr: "Expr"
    at: Pos = _at()


@attrs.frozen
class Neg:
    expr: "Expr"
    at: Pos = _at()


@attrs.frozen
class ListLit:
    items: tuple["Expr", ...]
    at: Pos = _at()


@attrs.frozen
class Comprehension:
    """`[expr for var in source where cond]`; also `[var in source where cond]` (expr = var)
    and, as a call argument, the generator of an aggregate: `sum(c.ops for c in hand)`."""

    expr: "Expr"
    var: str
    source: "Expr"
    cond: "Expr | None"
    at: Pos = _at()


@attrs.frozen
class IfExp:
    """`then if cond else orelse`."""

    cond: "Expr"
    then: "Expr"
    orelse: "Expr"
    at: Pos = _at()


@attrs.frozen
class Lambda:
    param: str
    body: "Expr"
    at: Pos = _at()


Expr = Union[
    Int, Str, Bool, NoneLit, Name, Call, Attr, Index, BinOp, Compare, BoolOp, Not, Neg,
    ListLit, Comprehension, Lambda, IfExp,
]


# ---- decisions and other actions (right-hand sides that may suspend) --------------------
@attrs.frozen
class Count:
    kind: str  # exact | up_to | range
    low: "Expr | None"
    high: "Expr"
    at: Pos = _at()


@attrs.frozen
class Choose:
    count: Count | None
    var: str
    source: Expr
    by: Expr | None = None
    where: Expr | None = None
    require: Expr | None = None
    optional: bool = False
    prompt: str | None = None
    each: bool = False  # `one at a time`: a single-item decision per pick
    prompt_args: tuple[Expr, ...] = ()  # the `{placeholders}` of the prompt, in order
    at: Pos = _at()


@attrs.frozen
class Ask:
    side: Expr
    prompt: str
    prompt_args: tuple[Expr, ...] = ()
    at: Pos = _at()


@attrs.frozen
class Order:
    items: Expr
    by: Expr
    at: Pos = _at()


@attrs.frozen
class Draw:
    count: Expr
    source: Expr
    dest: Expr
    at: Pos = _at()


Action = Union[Choose, Ask, Order, Draw]
Rhs = Union[Expr, Action]


# ---- statements -------------------------------------------------------------------------
@attrs.frozen
class Let:
    name: str
    value: Rhs
    type: "TypeExpr | None" = None  # `let w: T? = none`
    at: Pos = _at()


@attrs.frozen
class Assign:
    target: Expr
    value: Rhs
    at: Pos = _at()


@attrs.frozen
class AugAssign:
    target: Expr
    op: str  # += -=
    value: Expr
    at: Pos = _at()


@attrs.frozen
class ExprStmt:
    expr: Expr
    at: Pos = _at()


@attrs.frozen
class ActionStmt:
    action: Action
    at: Pos = _at()


@attrs.frozen
class Emit:
    event: str
    args: tuple[Expr, ...]
    queued: bool = False
    kwargs: tuple[KwArg, ...] = ()
    at: Pos = _at()


@attrs.frozen
class Move:
    what: Expr
    dest: Expr
    place: str | None = None  # top | bottom
    at: Pos = _at()


@attrs.frozen
class Shuffle:
    zone: Expr
    at: Pos = _at()


@attrs.frozen
class Reveal:
    what: Expr
    to: Expr | None = None
    at: Pos = _at()


@attrs.frozen
class Duration:
    kind: str  # end_of | start_of | while
    event: str | None = None
    cond: Expr | None = None
    at: Pos = _at()


@attrs.frozen
class Modify:
    key: str
    args: tuple[Expr, ...]
    amount: Expr
    duration: Duration | None = None
    kwargs: tuple[KwArg, ...] = ()
    at: Pos = _at()


@attrs.frozen
class Win:
    side: Expr
    at: Pos = _at()


@attrs.frozen
class EndGame:
    at: Pos = _at()


@attrs.frozen
class Return:
    value: Expr | None = None
    at: Pos = _at()


@attrs.frozen
class Log:
    message: str
    args: tuple[Expr, ...] = ()
    at: Pos = _at()


@attrs.frozen
class Pass:
    at: Pos = _at()


@attrs.frozen
class Break:
    at: Pos = _at()


@attrs.frozen
class Continue:
    at: Pos = _at()


@attrs.frozen
class If:
    branches: tuple[tuple[Expr, tuple["Stmt", ...]], ...]
    orelse: tuple["Stmt", ...] | None = None
    at: Pos = _at()


@attrs.frozen
class For:
    var: str
    source: Expr
    where: Expr | None
    body: tuple["Stmt", ...]
    at: Pos = _at()


@attrs.frozen
class While:
    cond: Expr
    body: tuple["Stmt", ...]
    at: Pos = _at()


@attrs.frozen
class Repeat:
    count: Expr
    body: tuple["Stmt", ...]
    at: Pos = _at()


Stmt = Union[
    Let, Assign, AugAssign, ExprStmt, ActionStmt, Emit, Move, Shuffle, Reveal, Modify, Win,
    EndGame, Return, Log, Pass, Break, Continue, If, For, While, Repeat,
]


# ---- declarations -----------------------------------------------------------------------
@attrs.frozen
class Param:
    name: str
    type: TypeExpr
    default: Expr | None = None  # a constant used when a call leaves the parameter out
    at: Pos = _at()


@attrs.frozen
class FieldDecl:
    name: str
    type: TypeExpr
    default: Expr | None = None
    at: Pos = _at()


@attrs.frozen
class TypeDecl:
    name: str
    fields: tuple[FieldDecl, ...]
    at: Pos = _at()


@attrs.frozen
class VarDecl:
    name: str
    params: tuple[Param, ...]
    type: TypeExpr
    bounds: tuple[Expr, Expr] | None = None
    default: Expr | None = None
    visibility: str = "public"  # public | private | hidden
    at: Pos = _at()


@attrs.frozen
class ZoneDecl:
    name: str
    params: tuple[Param, ...]
    of: str | None = None
    flags: tuple[str, ...] = ()
    at: Pos = _at()


@attrs.frozen
class EventDecl:
    name: str
    params: tuple[Param, ...]
    at: Pos = _at()


@attrs.frozen
class ProcDecl:
    name: str
    params: tuple[Param, ...]
    returns: TypeExpr | None
    body: tuple[Stmt, ...]
    at: Pos = _at()


@attrs.frozen
class ValueDecl:
    name: str
    params: tuple[Param, ...]
    type: TypeExpr
    expr: Expr
    at: Pos = _at()


@attrs.frozen
class CheckDecl:
    message: str
    expr: Expr
    invariant: bool = False
    at: Pos = _at()


@attrs.frozen
class GraphDecl:
    name: str
    node_type: str
    edge_type: str
    at: Pos = _at()


@attrs.frozen
class TriggerDecl:
    kind: str  # before | after | on | instead
    event: str
    names: tuple[str, ...] | None
    cond: Expr | None
    body: tuple[Stmt, ...]
    at: Pos = _at()


@attrs.frozen
class EnumValue:
    name: str
    at: Pos = _at()


@attrs.frozen
class EnumDecl:
    """`enum kind: a, b, c`: a type whose values are those names (plain text at run time)."""

    name: str
    values: tuple[EnumValue, ...]
    at: Pos = _at()


@attrs.frozen
class ConstDecl:
    """`const name: T = expr`: a pack-level constant, evaluated once when the pack loads."""

    name: str
    type: TypeExpr | None
    expr: Expr
    at: Pos = _at()


Decl = Union[
    TypeDecl, VarDecl, ZoneDecl, EventDecl, ProcDecl, ValueDecl, CheckDecl, GraphDecl,
    TriggerDecl, EnumDecl, ConstDecl,
]


@attrs.frozen
class Module:
    path: str
    decls: tuple[Decl, ...]
    comments: tuple[tuple[int, int, str], ...] = attrs.field(default=(), eq=False, repr=False)
