"""The parse tree of statements into the nodes of `engine.dsl.ast`: blocks, assignments,
the actions that ask a player (choose, ask, order, ...), the moves of records, lasting
modifiers and their durations, control flow. One area of the parser's transformer
(`engine.dsl.parser.transform`).
"""
from __future__ import annotations

from typing import Any

from lark import Token, v_args
from lark.tree import Meta
from lark.visitors import Transformer_NonRecursive

from engine.dsl import ast as A
from engine.dsl.parser.expressions import split_args
from engine.dsl.parser.limits import whole_number
from engine.dsl.parser.templates import placeholders
from engine.dsl.parser.tokens import (
    Children,
    Located,
    node_pos,
    optional_items,
    token_pos,
    unquote,
)


def _count(tok: Token | None) -> int:
    """How many times a duration's event must happen (`2 times`); 1 when not said."""
    if tok is None:
        return 1
    return whole_number(str(tok), token_pos(tok))


@v_args(meta=True)
class StatementsToAst(Transformer_NonRecursive[Token, Any]):
    """The rules of statements and actions."""

    def block(self, meta: Meta, c: Children) -> tuple[A.Stmt, ...]:
        return tuple(c)

    # -- assignments
    def let_stmt(self, meta: Meta, c: Children) -> A.Let:
        return A.Let(str(c[0]), c[2], c[1], at=node_pos(meta))

    def assign_stmt(self, meta: Meta, c: Children) -> A.Assign:
        return A.Assign(c[0], c[1], at=node_pos(meta))

    def aug_stmt(self, meta: Meta, c: Children) -> A.AugAssign:
        return A.AugAssign(c[0], str(c[1]), c[2], at=node_pos(meta))

    def expr_stmt(self, meta: Meta, c: Children) -> A.ExprStmt:
        return A.ExprStmt(c[0], at=node_pos(meta))

    def action_stmt(self, meta: Meta, c: Children) -> A.ActionStmt:
        return A.ActionStmt(c[0], at=node_pos(meta))

    # -- choices: a count, then options, each a (keyword, value) pair
    def count_exact(self, meta: Meta, c: Children) -> A.Count:
        return A.Count("exact", None, c[0], at=node_pos(meta))

    def count_up_to(self, meta: Meta, c: Children) -> A.Count:
        return A.Count("up_to", None, c[0], at=node_pos(meta))

    def count_range(self, meta: Meta, c: Children) -> A.Count:
        return A.Count("range", c[0], c[1], at=node_pos(meta))

    def opt_by(self, meta: Meta, c: Children) -> tuple[str, Any]:
        return ("by", c[0])

    def opt_where(self, meta: Meta, c: Children) -> tuple[str, Any]:
        return ("where", c[0])

    def opt_require(self, meta: Meta, c: Children) -> tuple[str, Any]:
        return ("require", c[0])

    def opt_optional(self, meta: Meta, c: Children) -> tuple[str, Any]:
        return ("optional", True)

    def opt_prompt(self, meta: Meta, c: Children) -> tuple[str, Any]:
        return ("prompt", (unquote(c[0]), placeholders(c[0])))

    def opt_each(self, meta: Meta, c: Children) -> tuple[str, Any]:
        return ("each", True)

    def opt_idle(self, meta: Meta, c: Children) -> tuple[str, Any]:
        return ("idle", c[1])  # (c[0]: the `no effect when` terminal)

    def opt_asked(self, meta: Meta, c: Children) -> tuple[str, Any]:
        return ("asked", True)

    def choose(self, meta: Meta, c: Children) -> A.Choose:
        count, var, source, *opts = c
        kw: dict[str, Any] = {}
        for key, value in opts:
            if key in kw:
                raise Located(f"'{key}' given twice in one choice", node_pos(meta), "E103")
            kw[key] = value
        if "prompt" in kw:
            kw["prompt"], kw["prompt_args"] = kw["prompt"]
        return A.Choose(count, str(var), source, at=node_pos(meta), **kw)

    # -- the other actions
    def ask(self, meta: Meta, c: Children) -> A.Ask:
        return A.Ask(c[0], unquote(c[1]), placeholders(c[1]), at=node_pos(meta))

    def order(self, meta: Meta, c: Children) -> A.Order:
        return A.Order(c[0], c[1], at=node_pos(meta))

    def draw(self, meta: Meta, c: Children) -> A.Draw:
        return A.Draw(c[0], c[1], c[2], at=node_pos(meta))

    def open_window(self, meta: Meta, c: Children) -> A.Open:
        return A.Open(str(c[0]), optional_items(c[1]), at=node_pos(meta))

    def field_init(self, meta: Meta, c: Children) -> A.FieldInit:
        return A.FieldInit(str(c[0]), c[1], at=node_pos(meta))

    def field_inits(self, meta: Meta, c: Children) -> tuple[A.FieldInit, ...]:
        names = [f.name for f in c]
        for i, f in enumerate(c):
            if f.name in names[:i]:
                raise Located(f"field '{f.name}' given twice", f.at, "E103")
        return tuple(c)

    def create(self, meta: Meta, c: Children) -> A.Create:
        typ, inits, place, dest = c
        return A.Create(str(typ), optional_items(inits), dest, str(place) if place else None,
                        at=node_pos(meta))

    # -- records and events
    def place(self, meta: Meta, c: Children) -> str:
        return str(c[0])  # `top` or `bottom` of a zone

    def destroy_stmt(self, meta: Meta, c: Children) -> A.Destroy:
        return A.Destroy(c[0], at=node_pos(meta))

    def emit_stmt(self, meta: Meta, c: Children) -> A.Emit:
        args, kwargs = split_args(c[1])
        return A.Emit(str(c[0]), args, False, kwargs, at=node_pos(meta))

    def enqueue_stmt(self, meta: Meta, c: Children) -> A.Emit:
        args, kwargs = split_args(c[1])
        return A.Emit(str(c[0]), args, True, kwargs, at=node_pos(meta))

    def move_stmt(self, meta: Meta, c: Children) -> A.Move:
        what, place, dest = c
        return A.Move(what, dest, str(place) if place else None, at=node_pos(meta))

    def shuffle_stmt(self, meta: Meta, c: Children) -> A.Shuffle:
        return A.Shuffle(c[0], at=node_pos(meta))

    def reveal_stmt(self, meta: Meta, c: Children) -> A.Reveal:
        return A.Reveal(c[0], c[1], at=node_pos(meta))

    # -- lasting changes and their durations
    def until_end(self, meta: Meta, c: Children) -> A.Duration:
        outermost, event, count, _times = c
        return A.Duration("end_of", str(event), count=_count(count),
                          outermost=outermost is not None, at=node_pos(meta))

    def until_start(self, meta: Meta, c: Children) -> A.Duration:
        event, count, _times = c
        return A.Duration("start_of", str(event), count=_count(count), at=node_pos(meta))

    def until(self, meta: Meta, c: Children) -> A.Duration:
        if len(c) == 1:
            one: A.Duration = c[0]
            return one
        return A.Duration("any", items=tuple(c), at=node_pos(meta))

    def while_holds(self, meta: Meta, c: Children) -> A.Duration:
        return A.Duration("while", None, c[0], at=node_pos(meta))

    def op_by(self, meta: Meta, c: Children) -> str:
        return "by"

    def op_to(self, meta: Meta, c: Children) -> str:
        return "to"

    def op_least(self, meta: Meta, c: Children) -> str:
        return "least"

    def op_most(self, meta: Meta, c: Children) -> str:
        return "most"

    def modify_stmt(self, meta: Meta, c: Children) -> A.Modify:
        key, arguments, op, amount, duration = c
        args, kwargs = split_args(arguments)
        return A.Modify(str(key), args, amount, duration, op, kwargs, at=node_pos(meta))

    def set_stmt(self, meta: Meta, c: Children) -> A.SetUntil:
        return A.SetUntil(c[0], c[1], c[2], at=node_pos(meta))

    # -- the end of a game, of a rule; the log
    def win_stmt(self, meta: Meta, c: Children) -> A.Win:
        reason = c[1] if len(c) > 1 else None
        if reason is None:
            return A.Win(c[0], at=node_pos(meta))
        args = placeholders(reason, "reason")
        return A.Win(c[0], unquote(reason), args, at=node_pos(meta))

    def end_stmt(self, meta: Meta, c: Children) -> A.EndGame:
        reason = c[0] if c else None
        if reason is None:
            return A.EndGame(at=node_pos(meta))
        return A.EndGame(unquote(reason), placeholders(reason, "reason"), at=node_pos(meta))

    def return_stmt(self, meta: Meta, c: Children) -> A.Return:
        return A.Return(c[0], at=node_pos(meta))

    def log_stmt(self, meta: Meta, c: Children) -> A.Log:
        # values after the text: a positional template ("{} takes {}") or a label; none: the
        # text's own {placeholders}, as in a prompt
        if len(c) > 1:
            return A.Log(unquote(c[0]), tuple(c[1:]), at=node_pos(meta))
        inline = placeholders(c[0], "log text")
        return A.Log(unquote(c[0]), inline, inline=bool(inline), at=node_pos(meta))

    def pass_stmt(self, meta: Meta, c: Children) -> A.Pass:
        return A.Pass(at=node_pos(meta))

    def break_stmt(self, meta: Meta, c: Children) -> A.Break:
        return A.Break(at=node_pos(meta))

    def continue_stmt(self, meta: Meta, c: Children) -> A.Continue:
        return A.Continue(at=node_pos(meta))

    # -- control flow
    def elif_clause(self, meta: Meta, c: Children) -> tuple[A.Expr, tuple[A.Stmt, ...]]:
        return (c[0], c[1])

    def else_clause(self, meta: Meta, c: Children) -> tuple[A.Stmt, ...]:
        body: tuple[A.Stmt, ...] = c[0]
        return body

    def if_stmt(self, meta: Meta, c: Children) -> A.If:
        cond, body, *rest = c
        orelse = rest.pop() if rest else None
        branches = ((cond, body),) + tuple(rest)
        return A.If(branches, orelse, at=node_pos(meta))

    def for_stmt(self, meta: Meta, c: Children) -> A.For:
        return A.For(str(c[0]), c[1], c[2], c[3], at=node_pos(meta))

    def while_stmt(self, meta: Meta, c: Children) -> A.While:
        return A.While(c[0], c[1], at=node_pos(meta))

    def repeat_stmt(self, meta: Meta, c: Children) -> A.Repeat:
        return A.Repeat(c[0], c[1], at=node_pos(meta))
