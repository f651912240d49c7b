"""The rules of statements as nodes of `engine.dsl.ast`: blocks, assignments,
the actions that ask a player (choose, ask, order, ...), the moves of records, lasting
modifiers and their durations, control flow. One area of the parser's rules
(`engine.dsl.parser.transform`).
"""
from __future__ import annotations

from typing import Any

from lark import Token

from engine.dsl import ast as A
from engine.dsl.parser.expressions import split_args
from engine.dsl.parser.limits import whole_number
from engine.dsl.parser.templates import placeholders
from engine.dsl.parser.tokens import (
    Children,
    Located,
    optional_items,
    token_pos,
    unquote,
)


def _count(tok: Token | None) -> int:
    """How many times a duration's event must happen (`2 times`); 1 when not said."""
    if tok is None:
        return 1
    return whole_number(str(tok), token_pos(tok))


class StatementsToAst:
    """The rules of statements and actions."""

    def block(self, at: A.Pos, c: Children) -> tuple[A.Stmt, ...]:
        return tuple(c)

    # -- assignments
    def let_stmt(self, at: A.Pos, c: Children) -> A.Let:
        return A.Let(str(c[0]), c[2], c[1], at=at)

    def assign_stmt(self, at: A.Pos, c: Children) -> A.Assign:
        return A.Assign(c[0], c[1], at=at)

    def aug_stmt(self, at: A.Pos, c: Children) -> A.AugAssign:
        return A.AugAssign(c[0], str(c[1]), c[2], at=at)

    def expr_stmt(self, at: A.Pos, c: Children) -> A.ExprStmt:
        return A.ExprStmt(c[0], at=at)

    def action_stmt(self, at: A.Pos, c: Children) -> A.ActionStmt:
        return A.ActionStmt(c[0], at=at)

    # -- choices: a count, then options, each a (keyword, value) pair
    def count_exact(self, at: A.Pos, c: Children) -> A.Count:
        return A.Count("exact", None, c[0], at=at)

    def count_up_to(self, at: A.Pos, c: Children) -> A.Count:
        return A.Count("up_to", None, c[0], at=at)

    def count_range(self, at: A.Pos, c: Children) -> A.Count:
        return A.Count("range", c[0], c[1], at=at)

    def opt_by(self, at: A.Pos, c: Children) -> tuple[str, Any]:
        return ("by", c[0])

    def opt_where(self, at: A.Pos, c: Children) -> tuple[str, Any]:
        return ("where", c[0])

    def opt_require(self, at: A.Pos, c: Children) -> tuple[str, Any]:
        return ("require", c[0])

    def opt_optional(self, at: A.Pos, c: Children) -> tuple[str, Any]:
        return ("optional", True)

    def opt_prompt(self, at: A.Pos, c: Children) -> tuple[str, Any]:
        return ("prompt", (unquote(c[0]), placeholders(c[0], self)))

    def opt_each(self, at: A.Pos, c: Children) -> tuple[str, Any]:
        return ("each", True)

    def opt_idle(self, at: A.Pos, c: Children) -> tuple[str, Any]:
        return ("idle", c[1])  # (c[0]: the `no effect when` terminal)

    def opt_asked(self, at: A.Pos, c: Children) -> tuple[str, Any]:
        return ("asked", True)

    def choose(self, at: A.Pos, c: Children) -> A.Choose:
        count, var, source, *opts = c
        kw: dict[str, Any] = {}
        for key, value in opts:
            if key in kw:
                raise Located(f"'{key}' given twice in one choice", at, "E103")
            kw[key] = value
        if "prompt" in kw:
            kw["prompt"], kw["prompt_args"] = kw["prompt"]
        return A.Choose(count, str(var), source, at=at, **kw)

    # -- the other actions
    def ask(self, at: A.Pos, c: Children) -> A.Ask:
        return A.Ask(c[0], unquote(c[1]), placeholders(c[1], self), at=at)

    def order(self, at: A.Pos, c: Children) -> A.Order:
        return A.Order(c[0], c[1], at=at)

    def draw(self, at: A.Pos, c: Children) -> A.Draw:
        return A.Draw(c[0], c[1], c[2], at=at)

    def open_window(self, at: A.Pos, c: Children) -> A.Open:
        return A.Open(str(c[0]), optional_items(c[1]), at=at)

    def field_init(self, at: A.Pos, c: Children) -> A.FieldInit:
        return A.FieldInit(str(c[0]), c[1], at=at)

    def field_inits(self, at: A.Pos, c: Children) -> tuple[A.FieldInit, ...]:
        names = [f.name for f in c]
        for i, f in enumerate(c):
            if f.name in names[:i]:
                raise Located(f"field '{f.name}' given twice", f.at, "E103")
        return tuple(c)

    def create(self, at: A.Pos, c: Children) -> A.Create:
        typ, inits, place, dest = c
        return A.Create(str(typ), optional_items(inits), dest, str(place) if place else None,
                        at=at)

    # -- records and events
    def place(self, at: A.Pos, c: Children) -> str:
        return str(c[0])  # `top` or `bottom` of a zone

    def destroy_stmt(self, at: A.Pos, c: Children) -> A.Destroy:
        return A.Destroy(c[0], at=at)

    def emit_stmt(self, at: A.Pos, c: Children) -> A.Emit:
        args, kwargs = split_args(c[1])
        return A.Emit(str(c[0]), args, False, kwargs, at=at)

    def enqueue_stmt(self, at: A.Pos, c: Children) -> A.Emit:
        args, kwargs = split_args(c[1])
        return A.Emit(str(c[0]), args, True, kwargs, at=at)

    def move_stmt(self, at: A.Pos, c: Children) -> A.Move:
        what, place, dest = c
        return A.Move(what, dest, str(place) if place else None, at=at)

    def shuffle_stmt(self, at: A.Pos, c: Children) -> A.Shuffle:
        return A.Shuffle(c[0], at=at)

    def reveal_stmt(self, at: A.Pos, c: Children) -> A.Reveal:
        return A.Reveal(c[0], c[1], at=at)

    # -- lasting changes and their durations
    def until_end(self, at: A.Pos, c: Children) -> A.Duration:
        outermost, event, count, _times = c
        return A.Duration("end_of", str(event), count=_count(count),
                          outermost=outermost is not None, at=at)

    def until_start(self, at: A.Pos, c: Children) -> A.Duration:
        event, count, _times = c
        return A.Duration("start_of", str(event), count=_count(count), at=at)

    def until(self, at: A.Pos, c: Children) -> A.Duration:
        if len(c) == 1:
            one: A.Duration = c[0]
            return one
        return A.Duration("any", items=tuple(c), at=at)

    def while_holds(self, at: A.Pos, c: Children) -> A.Duration:
        return A.Duration("while", None, c[0], at=at)

    def op_by(self, at: A.Pos, c: Children) -> str:
        return "by"

    def op_to(self, at: A.Pos, c: Children) -> str:
        return "to"

    def op_least(self, at: A.Pos, c: Children) -> str:
        return "least"

    def op_most(self, at: A.Pos, c: Children) -> str:
        return "most"

    def modify_stmt(self, at: A.Pos, c: Children) -> A.Modify:
        key, arguments, op, amount, duration = c
        args, kwargs = split_args(arguments)
        return A.Modify(str(key), args, amount, duration, op, kwargs, at=at)

    def set_stmt(self, at: A.Pos, c: Children) -> A.SetUntil:
        return A.SetUntil(c[0], c[1], c[2], at=at)

    # -- the end of a game, of a rule; the log
    def win_stmt(self, at: A.Pos, c: Children) -> A.Win:
        reason = c[1] if len(c) > 1 else None
        if reason is None:
            return A.Win(c[0], at=at)
        args = placeholders(reason, self, "reason")
        return A.Win(c[0], unquote(reason), args, at=at)

    def end_stmt(self, at: A.Pos, c: Children) -> A.EndGame:
        reason = c[0] if c else None
        if reason is None:
            return A.EndGame(at=at)
        return A.EndGame(unquote(reason), placeholders(reason, self, "reason"), at=at)

    def return_stmt(self, at: A.Pos, c: Children) -> A.Return:
        return A.Return(c[0], at=at)

    def log_stmt(self, at: A.Pos, c: Children) -> A.Log:
        # values after the text: a positional template ("{} takes {}") or a label; none: the
        # text's own {placeholders}, as in a prompt
        if len(c) > 1:
            return A.Log(unquote(c[0]), tuple(c[1:]), at=at)
        inline = placeholders(c[0], self, "log text")
        return A.Log(unquote(c[0]), inline, inline=bool(inline), at=at)

    def pass_stmt(self, at: A.Pos, c: Children) -> A.Pass:
        return A.Pass(at=at)

    def break_stmt(self, at: A.Pos, c: Children) -> A.Break:
        return A.Break(at=at)

    def continue_stmt(self, at: A.Pos, c: Children) -> A.Continue:
        return A.Continue(at=at)

    # -- control flow
    def elif_clause(self, at: A.Pos, c: Children) -> tuple[A.Expr, tuple[A.Stmt, ...]]:
        return (c[0], c[1])

    def else_clause(self, at: A.Pos, c: Children) -> tuple[A.Stmt, ...]:
        body: tuple[A.Stmt, ...] = c[0]
        return body

    def if_stmt(self, at: A.Pos, c: Children) -> A.If:
        cond, body, *rest = c
        orelse = rest.pop() if rest else None
        branches = ((cond, body),) + tuple(rest)
        return A.If(branches, orelse, at=at)

    def for_stmt(self, at: A.Pos, c: Children) -> A.For:
        return A.For(str(c[0]), c[1], c[2], c[3], at=at)

    def while_stmt(self, at: A.Pos, c: Children) -> A.While:
        return A.While(c[0], c[1], at=at)

    def repeat_stmt(self, at: A.Pos, c: Children) -> A.Repeat:
        return A.Repeat(c[0], c[1], at=at)
