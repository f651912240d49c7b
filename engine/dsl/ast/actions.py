"""Decisions and other actions: the right-hand sides that may suspend the game to ask a
player (`choose`, `ask`, `order`), draw, open a window, or create a record.
"""
from __future__ import annotations

import attrs

from engine.dsl.ast.expressions import Expr
from engine.dsl.ast.positions import Pos, at_field


@attrs.frozen
class Count:
    kind: str  # exact | up_to | range
    low: Expr | None
    high: Expr
    at: Pos = at_field()


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
    window: str | None = None  # set only in the choice a `window` declaration makes
    each: bool = False  # `one at a time`: a single-item decision per pick
    idle: Expr | None = None  # `no effect when`: which options do nothing now
    asked: bool = False  # `always asked`: never answered for the decider
    prompt_args: tuple[Expr, ...] = ()  # the `{placeholders}` of the prompt, in order
    at: Pos = at_field()


@attrs.frozen
class Ask:
    side: Expr
    prompt: str
    prompt_args: tuple[Expr, ...] = ()
    at: Pos = at_field()


@attrs.frozen
class Order:
    items: Expr
    by: Expr
    at: Pos = at_field()


@attrs.frozen
class Draw:
    count: Expr
    source: Expr
    dest: Expr
    at: Pos = at_field()


@attrs.frozen
class Open:
    """`open w(args)`: open response window w; its value is the record played, or none."""

    window: str
    args: tuple[Expr, ...]
    at: Pos = at_field()


@attrs.frozen
class FieldInit:
    """`name = value` in `create T with ...`."""

    name: str
    value: Expr
    at: Pos = at_field()


@attrs.frozen
class Create:
    """`create T with f = v, ... to [top of] zone`: a new record of a created type; its
    value is the new record's id."""

    type: str
    fields: tuple[FieldInit, ...] = ()
    dest: Expr | None = None
    place: str | None = None  # top | bottom
    at: Pos = at_field()


Action = Choose | Ask | Order | Draw | Open | Create
ACTIONS = (Choose, Ask, Order, Draw, Open, Create)  # for isinstance: the right-hand sides that act
Rhs = Expr | Action
