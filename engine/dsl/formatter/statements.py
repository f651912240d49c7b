"""Statements as documents: a simple statement on its line (`simple_stmt_doc`), the
header of a block statement or declaration up to its colon (`header_doc`), the actions,
counts and durations inside them, parameters and fields.
"""
from __future__ import annotations

from collections.abc import Iterable

from engine.dsl import ast as A
from engine.dsl.formatter.documents import JOINT, Brackets, Chain, Doc, Joint, Text
from engine.dsl.formatter.expressions import (
    P_POSTFIX,
    P_SUM,
    S,
    call_args,
    expr_doc,
    format_type,
    listing,
    quote,
)


def params_docs(params: Iterable[A.Param]) -> list[str | Doc]:
    """A declaration's parameters; a default value may break inside its brackets."""
    return [S(f"{p.name}: {format_type(p.type)} = ", p.default) if p.default is not None
            else f"{p.name}: {format_type(p.type)}" for p in params]


def _action(a: A.Action) -> Doc:
    if isinstance(a, A.Choose):
        parts: list[str | Doc | A.Expr | Joint] = ["choose "]
        if a.count is not None:
            parts += [_count(a.count), " "]
        parts += [f"{a.var} from ", a.source]
        # each option is a joint: a long choice goes on over lines, one option or more a line
        for word, opt in (("by", a.by), ("where", a.where), ("require", a.require)):
            if opt is not None:
                parts += [JOINT, f" {word} ", opt]
        if a.optional:
            parts += [JOINT, " optional"]
        if a.each:
            parts += [JOINT, " one at a time"]
        if a.idle is not None:
            parts += [JOINT, " no effect when ", a.idle]
        if a.asked:
            parts += [JOINT, " always asked"]
        if a.prompt is not None:
            parts += [JOINT, f" prompt {quote(a.prompt)}"]
        return S(*parts)
    if isinstance(a, A.Ask):
        return S("ask ", a.side, f" {quote(a.prompt)}")
    if isinstance(a, A.Order):
        return S("order ", a.items, " by ", a.by)
    if isinstance(a, A.Draw):
        return S("draw ", a.count, " from ", a.source, " to ", a.dest)
    if isinstance(a, A.Open):
        return S("open ", listing(f"{a.window}(", a.args, ")"))
    if isinstance(a, A.Create):
        parts = [f"create {a.type}"]
        for i, f in enumerate(a.fields):
            parts += [" with " if i == 0 else ", ", f"{f.name} = ", f.value]
        if a.dest is not None:
            parts += [f" to {a.place} of " if a.place else " to ", a.dest]
        return S(*parts)
    raise TypeError(f"not an action: {a!r}")


def _count(c: A.Count) -> Doc:
    high = expr_doc(c.high, P_SUM)
    if c.kind == "exact":
        return high
    if c.kind == "up_to":
        return S("up to ", high)
    if c.kind == "range":
        assert c.low is not None
        return S(expr_doc(c.low, P_SUM), " to ", high)
    raise ValueError(f"unknown count kind {c.kind!r}")


def _rhs(v: A.Rhs) -> Doc:
    return _action(v) if isinstance(v, A.ACTIONS) else expr_doc(v)


def _duration(d: A.Duration) -> Doc:
    """A duration with its leading space: ` until end of turn or reshuffle`, ` while c`."""
    if d.kind == "while":
        assert d.cond is not None
        return S(" while ", d.cond)
    items = [Text(_until_item(i)) for i in (d.items if d.kind == "any" else (d,))]
    if len(items) == 1:
        return Text(" until " + items[0].flat)
    # a list too long for its line breaks in parentheses, one item a line: `until (` .. `)`
    return S(" until ", Chain("or", items[0], [("or", x) for x in items[1:]]))


def _until_item(d: A.Duration) -> str:
    times = "" if d.count == 1 else f" {d.count} times"
    if d.kind == "end_of":
        return f"end of {'outermost ' if d.outermost else ''}{d.event}{times}"
    if d.kind == "start_of":
        return f"{d.event}{times}"
    raise ValueError(f"unknown duration kind {d.kind!r}")


_MODIFY_OPS = {"by": "by", "to": "to", "least": "at least", "most": "at most"}


def simple_stmt_doc(s: A.Stmt) -> Doc | str:
    """A statement that has no block: `S(...)` of its text and expressions (a plain string
    prints as it is, never broken)."""
    if isinstance(s, A.Let):
        typed = f": {format_type(s.type)}" if s.type is not None else ""
        return S(f"let {s.name}{typed} = ", _rhs(s.value))
    if isinstance(s, A.Assign):
        return S(expr_doc(s.target, P_POSTFIX), " = ", _rhs(s.value))
    if isinstance(s, A.AugAssign):
        return S(expr_doc(s.target, P_POSTFIX), f" {s.op} ", s.value)
    if isinstance(s, A.ExprStmt):
        return S(s.expr)
    if isinstance(s, A.ActionStmt):
        return _action(s.action)
    if isinstance(s, A.Emit):
        return S(f"{'enqueue' if s.queued else 'emit'} ",
                 Brackets(f"{s.event}(", call_args(s.args, s.kwargs), ")", wrap=False))
    if isinstance(s, A.Move):
        place = f"{s.place} of " if s.place else ""
        return S("move ", s.what, f" to {place}", s.dest)
    if isinstance(s, A.Shuffle):
        return S("shuffle ", s.zone)
    if isinstance(s, A.Destroy):
        return S("destroy ", s.what)
    if isinstance(s, A.Reveal):
        return S("reveal ", s.what, *((" to ", s.to) if s.to is not None else ()))
    if isinstance(s, A.Modify):
        return S("modify ", Brackets(f"{s.key}(", call_args(s.args, s.kwargs), ")", wrap=False),
                 f" {_MODIFY_OPS[s.op]} ", s.amount,
                 *((_duration(s.duration),) if s.duration is not None else ()))
    if isinstance(s, A.SetUntil):
        return S("set ", expr_doc(s.target, P_POSTFIX), " = ", s.value, _duration(s.duration))
    if isinstance(s, A.Win):
        if s.reason is not None:
            return S("win ", s.side, f", {quote(s.reason)}")
        return S("win ", s.side)
    if isinstance(s, A.EndGame):
        return "end game" if s.reason is None else f"end game, {quote(s.reason)}"
    if isinstance(s, A.Return):
        return "return" if s.value is None else S("return ", s.value)
    if isinstance(s, A.Log) and s.inline:
        return f"log {quote(s.message)}"
    if isinstance(s, A.Log):
        return S(f"log {quote(s.message)}", *(x for a in s.args for x in (", ", a)))
    if isinstance(s, A.Pass):
        return "pass"
    if isinstance(s, A.Break):
        return "break"
    if isinstance(s, A.Continue):
        return "continue"
    raise TypeError(f"not a simple statement: {s!r}")


def field_doc(f: A.FieldDecl) -> Doc:
    parts: list[str | Doc | A.Expr] = [f"{'var ' if f.var else ''}{f.name}: {format_type(f.type)}"]
    if f.bounds is not None:
        parts += [" in ", expr_doc(f.bounds[0], P_SUM), "..", expr_doc(f.bounds[1], P_SUM)]
    if f.default is not None:
        parts += [" = ", f.default]
    return S(*parts)


def header_doc(s: A.Stmt | A.Decl) -> Doc:
    """The first line of a block statement or declaration, up to its colon."""
    if isinstance(s, A.For):
        return S(f"for {s.var} in ", s.source,
                 *((" where ", s.where) if s.where is not None else ()), ":")
    if isinstance(s, A.While):
        return S("while ", s.cond, ":")
    if isinstance(s, A.Repeat):
        return S("repeat ", s.count, ":")
    if isinstance(s, A.ProcDecl):
        ret = f" -> {format_type(s.returns)}" if s.returns is not None else ""
        return S("procedure ", listing(f"{s.name}(", params_docs(s.params), ")"), f"{ret}:")
    if isinstance(s, A.TriggerDecl):
        head = "instead of" if s.kind == "instead" else s.kind
        event = listing(f"{s.event}(", s.names, ")") if s.names is not None else s.event
        return S(f"{head} ", event, *((" if ", s.cond) if s.cond is not None else ()), ":")
    raise TypeError(f"no block header: {s!r}")

