"""Lambda arguments (`x => ...`, `(x: T) => ...`) of graph queries, `sort` and graph filters."""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.expressions import ExpressionChecker
from engine.dsl.check.scope import Scope
from engine.dsl.types import Type


class LambdaChecker(ExpressionChecker):
    """A lambda's parameter type, from where it is passed, and its body."""

    def _lambda(self, lam: A.Expr, param_t: Type, sc: Scope, want: Type,
                what: str = "function", hint: str | None = None) -> None:
        """A lambda argument: its parameter has the type of what the caller passes it
        (`param_t`); an annotation `(x: T) => ...` must agree with that."""
        if not isinstance(lam, A.Lambda):
            self.error("E228", "expected 'x => condition' here", sc.path, lam.at)
            self._expr(lam, sc)
            return
        if lam.type is not None:
            said = self._annotation(lam, param_t, sc, what, hint)
            if said is not None:  # the same, more precise, or reported: check the body by it
                param_t = said
        sc.vars.append({lam.param: param_t})
        self._expect(lam.body, want, sc, f"the {what}")
        sc.vars.pop()

    def _annotation(self, lam: A.Lambda, param_t: Type, sc: Scope, what: str,
                    hint: str | None) -> Type | None:
        """The type an annotated lambda says its parameter has, reported (E245) when it is
        not what the lambda receives there; None when the annotation names no known type."""
        assert lam.type is not None
        self._check_type_expr(lam.type, sc.path)
        said = T.from_ast(lam.type)
        base = said
        while isinstance(base, tuple):
            base = base[1]
        if base not in T.BASE and base not in self.model.types:
            return None  # reported above
        if not T.compatible(said, param_t):
            self.error("E245", f"this {what} receives {_with_article(param_t)}, not "
                       f"{_with_article(said)}", sc.path, lam.type.at, hint)
        return said


def _with_article(t: Type) -> str:
    """`a side`, `an int`: a type named in a sentence."""
    text = T.show(t)
    return ("an " if text[:1] in "aeiou" else "a ") + text
