"""Statements: assignments, the moves of records, events, lasting changes and their
durations, the end of a game, the log, control flow.
"""
from __future__ import annotations

import attrs

from engine.dsl.ast.actions import Action, Rhs
from engine.dsl.ast.expressions import Expr, KwArg
from engine.dsl.ast.positions import Pos, at_field
from engine.dsl.ast.type_exprs import TypeExpr


@attrs.frozen
class Let:
    name: str
    value: Rhs
    type: TypeExpr | None = None  # `let w: T? = none`
    at: Pos = at_field()


@attrs.frozen
class Assign:
    target: Expr
    value: Rhs
    at: Pos = at_field()


@attrs.frozen
class AugAssign:
    target: Expr
    op: str  # += -=
    value: Expr
    at: Pos = at_field()


@attrs.frozen
class ExprStmt:
    expr: Expr
    at: Pos = at_field()


@attrs.frozen
class ActionStmt:
    action: Action
    at: Pos = at_field()


@attrs.frozen
class Emit:
    event: str
    args: tuple[Expr, ...]
    queued: bool = False
    kwargs: tuple[KwArg, ...] = ()
    at: Pos = at_field()


@attrs.frozen
class Move:
    what: Expr
    dest: Expr
    place: str | None = None  # top | bottom
    at: Pos = at_field()


@attrs.frozen
class Shuffle:
    zone: Expr
    at: Pos = at_field()


@attrs.frozen
class Destroy:
    """`destroy x`: x (a record of a created type, or a list of them) leaves the game."""

    what: Expr
    at: Pos = at_field()


@attrs.frozen
class Reveal:
    what: Expr
    to: Expr | None = None
    at: Pos = at_field()


@attrs.frozen
class Duration:
    kind: str  # end_of | start_of | while | any (`until A or B`: the items)
    event: str | None = None
    cond: Expr | None = None
    count: int = 1  # `until end of turn 2 times`: the second end of a turn
    outermost: bool = False  # `until end of outermost battle`
    items: tuple[Duration, ...] = ()
    at: Pos = at_field()


@attrs.frozen
class Modify:
    key: str
    args: tuple[Expr, ...]
    amount: Expr  # what `by`, `to`, `at least` or `at most` is followed by
    duration: Duration | None = None
    op: str = "by"  # by | to | least | most
    kwargs: tuple[KwArg, ...] = ()
    at: Pos = at_field()


@attrs.frozen
class SetUntil:
    """`set target = value until ...`: an assignment undone when the duration ends."""

    target: Expr
    value: Expr
    duration: Duration
    at: Pos = at_field()


@attrs.frozen
class Win:
    side: Expr
    reason: str | None = None  # why the game ended, a template like a log text
    args: tuple[Expr, ...] = ()  # the reason's {placeholders}
    at: Pos = at_field()


@attrs.frozen
class EndGame:
    reason: str | None = None  # why the game ended, a template like a log text
    args: tuple[Expr, ...] = ()  # the reason's {placeholders}
    at: Pos = at_field()


@attrs.frozen
class Return:
    value: Expr | None = None
    at: Pos = at_field()


@attrs.frozen
class Log:
    message: str
    args: tuple[Expr, ...] = ()
    inline: bool = False  # the args are the {placeholders} of the message
    at: Pos = at_field()


@attrs.frozen
class Pass:
    at: Pos = at_field()


@attrs.frozen
class Break:
    at: Pos = at_field()


@attrs.frozen
class Continue:
    at: Pos = at_field()


@attrs.frozen
class If:
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...] | None = None
    at: Pos = at_field()


@attrs.frozen
class For:
    var: str
    source: Expr
    where: Expr | None
    body: tuple[Stmt, ...]
    at: Pos = at_field()


@attrs.frozen
class While:
    cond: Expr
    body: tuple[Stmt, ...]
    at: Pos = at_field()


@attrs.frozen
class Repeat:
    count: Expr
    body: tuple[Stmt, ...]
    at: Pos = at_field()


Stmt = (
    Let | Assign | AugAssign | ExprStmt | ActionStmt | Emit | Move | Shuffle | Reveal | Modify |
    SetUntil | Win | EndGame | Return | Log | Pass | Break | Continue | If | For | While | Repeat |
    Destroy
)
