"""The syntax tree of a rules file: plain attrs classes, one per construct.

Positions (`at`) are excluded from equality so that `fmt` output, which moves text around,
can be compared with the original tree.
"""
from __future__ import annotations

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
    elem: TypeExpr
    at: Pos = _at()


@attrs.frozen
class TOptional:
    name: str
    at: Pos = _at()


TypeExpr = TName | TList | TOptional


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
    value: Expr
    at: Pos = _at()


@attrs.frozen
class Call:
    func: str
    args: tuple[Expr, ...]
    kwargs: tuple[KwArg, ...] = ()  # after the positional ones
    at: Pos = _at()


@attrs.frozen
class Attr:
    obj: Expr
    name: str
    at: Pos = _at()


@attrs.frozen
class Index:
    obj: Expr
    args: tuple[Expr, ...]
    at: Pos = _at()


@attrs.frozen
class BinOp:
    op: str  # + - * / %
    left: Expr
    right: Expr
    at: Pos = _at()


@attrs.frozen
class Compare:
    op: str  # == != < <= > >= in "not in"
    left: Expr
    right: Expr
    at: Pos = _at()


@attrs.frozen
class BoolOp:
    op: str  # and | or
    items: tuple[Expr, ...]
    at: Pos = _at()


@attrs.frozen
class Not:
    expr: Expr
    at: Pos = _at()


@attrs.frozen
class Neg:
    expr: Expr
    at: Pos = _at()


@attrs.frozen
class ListLit:
    items: tuple[Expr, ...]
    at: Pos = _at()


@attrs.frozen
class Comprehension:
    """`[expr for var in source where cond]`; also `[var in source where cond]` (expr = var)
    and, as a call argument, the generator of an aggregate: `sum(c.ops for c in hand)`."""

    expr: Expr
    var: str
    source: Expr
    cond: Expr | None
    at: Pos = _at()


@attrs.frozen
class IfExp:
    """`then if cond else orelse`."""

    cond: Expr
    then: Expr
    orelse: Expr
    at: Pos = _at()


@attrs.frozen
class Lambda:
    """`param => body`; `(param: type) => body` says the parameter's type (checked)."""

    param: str
    body: Expr
    type: TypeExpr | None = None
    at: Pos = _at()


Expr = (
    Int | Str | Bool | NoneLit | Name | Call | Attr | Index | BinOp | Compare | BoolOp | Not |
    Neg | ListLit | Comprehension | Lambda | IfExp
)


# ---- decisions and other actions (right-hand sides that may suspend) --------------------
@attrs.frozen
class Count:
    kind: str  # exact | up_to | range
    low: Expr | None
    high: Expr
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
    window: str | None = None  # set only in the choice a `window` declaration makes
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


@attrs.frozen
class Open:
    """`open w(args)`: open response window w; its value is the record played, or none."""

    window: str
    args: tuple[Expr, ...]
    at: Pos = _at()


@attrs.frozen
class FieldInit:
    """`name = value` in `create T with ...`."""

    name: str
    value: Expr
    at: Pos = _at()


@attrs.frozen
class Create:
    """`create T with f = v, ... to [top of] zone`: a new record of a created type; its
    value is the new record's id."""

    type: str
    fields: tuple[FieldInit, ...] = ()
    dest: Expr | None = None
    place: str | None = None  # top | bottom
    at: Pos = _at()


Action = Choose | Ask | Order | Draw | Open | Create
ACTIONS = (Choose, Ask, Order, Draw, Open, Create)  # for isinstance: the right-hand sides that act
Rhs = Expr | Action


# ---- statements -------------------------------------------------------------------------
@attrs.frozen
class Let:
    name: str
    value: Rhs
    type: TypeExpr | None = None  # `let w: T? = none`
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
class Destroy:
    """`destroy x`: x (a record of a created type, or a list of them) leaves the game."""

    what: Expr
    at: Pos = _at()


@attrs.frozen
class Reveal:
    what: Expr
    to: Expr | None = None
    at: Pos = _at()


@attrs.frozen
class Duration:
    kind: str  # end_of | start_of | while | any (`until A or B`: the items)
    event: str | None = None
    cond: Expr | None = None
    count: int = 1  # `until end of turn 2 times`: the second end of a turn
    outermost: bool = False  # `until end of outermost battle`
    items: tuple[Duration, ...] = ()
    at: Pos = _at()


@attrs.frozen
class Modify:
    key: str
    args: tuple[Expr, ...]
    amount: Expr  # what `by`, `to`, `at least` or `at most` is followed by
    duration: Duration | None = None
    op: str = "by"  # by | to | least | most
    kwargs: tuple[KwArg, ...] = ()
    at: Pos = _at()


@attrs.frozen
class SetUntil:
    """`set target = value until ...`: an assignment undone when the duration ends."""

    target: Expr
    value: Expr
    duration: Duration
    at: Pos = _at()


@attrs.frozen
class Win:
    side: Expr
    reason: str | None = None  # why the game ended, a template like a log text
    args: tuple[Expr, ...] = ()  # the reason's {placeholders}
    at: Pos = _at()


@attrs.frozen
class EndGame:
    reason: str | None = None  # why the game ended, a template like a log text
    args: tuple[Expr, ...] = ()  # the reason's {placeholders}
    at: Pos = _at()


@attrs.frozen
class Return:
    value: Expr | None = None
    at: Pos = _at()


@attrs.frozen
class Log:
    message: str
    args: tuple[Expr, ...] = ()
    inline: bool = False  # the args are the {placeholders} of the message
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
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    orelse: tuple[Stmt, ...] | None = None
    at: Pos = _at()


@attrs.frozen
class For:
    var: str
    source: Expr
    where: Expr | None
    body: tuple[Stmt, ...]
    at: Pos = _at()


@attrs.frozen
class While:
    cond: Expr
    body: tuple[Stmt, ...]
    at: Pos = _at()


@attrs.frozen
class Repeat:
    count: Expr
    body: tuple[Stmt, ...]
    at: Pos = _at()


Stmt = (
    Let | Assign | AugAssign | ExprStmt | ActionStmt | Emit | Move | Shuffle | Reveal | Modify |
    SetUntil | Win | EndGame | Return | Log | Pass | Break | Continue | If | For | While | Repeat |
    Destroy
)


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
    var: bool = False  # `var name: T`: changes during play (kept in the game state)
    bounds: tuple[Expr, Expr] | None = None  # var fields only: `in lo..hi`
    at: Pos = _at()


@attrs.frozen
class TypeDecl:
    name: str
    fields: tuple[FieldDecl, ...]
    extend: bool = False  # `extend type T:`: fields added to a type declared elsewhere
    created: bool = False  # `type T created`: records made by `create`, not listed in YAML
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
    # `with rounds: int = 0, ...`: the state of one running instance (`battle.rounds`)
    state: tuple[FieldDecl, ...] = ()
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
    where: Lambda | None = None  # keeps the edges it holds for (a filtered graph)
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
class WindowOpening:
    """A window's `before e` / `after e` clause: it opens by itself at every event e."""

    kind: str  # before | after
    event: str
    at: Pos = _at()


@attrs.frozen
class EnumValue:
    name: str
    at: Pos = _at()


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


Decl = (
    TypeDecl | VarDecl | ZoneDecl | EventDecl | ProcDecl | ValueDecl | CheckDecl | GraphDecl |
    TriggerDecl | WindowDecl | EnumDecl | ConstDecl
)


@attrs.frozen
class Module:
    path: str
    decls: tuple[Decl, ...]
    comments: tuple[tuple[int, int, str], ...] = attrs.field(default=(), eq=False, repr=False)
