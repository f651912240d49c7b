"""The rule a response window runs, made of the language's own statements."""
from __future__ import annotations

from engine.dsl import ast as A


def window_body(w: A.WindowDecl) -> tuple[A.Stmt, ...]:
    """The rule a window runs, written with the language's own statements:

        let x = choose x from <source> by <by> where <where> optional prompt <prompt>
        if x != none:
            move x to <to>
            run(x.<effect>)
        return x

    The choice carries the window's name: the engine then asks even when nothing is offered
    (see engine.core.runtime.Runtime.open_window), so the other side cannot tell what is held."""
    at = w.at

    def var() -> A.Name:
        return A.Name(w.var, at=at)

    choose = A.Choose(None, w.var, w.source, by=w.by, where=w.where, optional=True,
                      prompt=w.prompt.value if w.prompt is not None else None, window=w.name,
                      at=w.source.at)
    played: list[A.Stmt] = [A.Move(var(), w.to, at=w.to.at)]
    if w.effect is not None:
        e = w.effect
        run = A.Call("run", (A.Attr(var(), e.id, at=e.at),), at=e.at)
        played.append(A.ExprStmt(run, at=e.at))
    played_test = A.Compare("!=", var(), A.NoneLit(at=at), at=at)
    return (A.Let(w.var, choose, at=w.source.at),
            A.If(((played_test, tuple(played)),), None, at=at),
            A.Return(var(), at=at))

