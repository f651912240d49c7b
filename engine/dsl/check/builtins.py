"""The built-in functions of the rules language: their arity and the types of their
arguments and results.
"""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.builtins import FUNCTIONS
from engine.dsl.check.graphs import GraphChecker
from engine.dsl.check.scope import Scope
from engine.dsl.types import Type

# name -> (min args, max args), from the public list (engine.dsl.builtins); the types are
# checked in `_builtin`
BUILTINS: dict[str, tuple[int, int]] = {b.name: b.args for b in FUNCTIONS if b.args}


class BuiltinChecker(GraphChecker):
    """Calls of built-in functions (graph queries: engine.dsl.check.graphs)."""

    def _builtin(self, e: A.Call, sc: Scope, statement: bool) -> Type:
        """The type of a call of built-in `e.func`, whose number of arguments is right."""
        n, args = e.func, e.args
        match n:
            case "run":
                return self._run_effect(e, sc, statement)
            case "count" | "exists" | "every" | "sum":
                return self._aggregate(e, sc)
            case "top" | "first" | "last" | "random_pick":
                return self._one_item(e, sc)
            case "sort" | "take":
                return self._some_items(e, sc)
            case "contents":
                t = self._expr(args[0], sc)
                if not (isinstance(t, tuple) and t[0] == "zone"):
                    self.error("E222", f"'contents' needs a zone, got {T.show(t)}", sc.path,
                               args[0].at)
                    return ("list", "any")
                return ("list", t[1])
            case "min" | "max":
                return self._min_max(e, sc)
            case "abs":
                self._expect(args[0], "int", sc, "'abs'")
                return "int"
            case "other":
                self._expect(args[0], "side", sc, "'other'")
                if len(self.model.sides) != 2:
                    self.error("E215", "'other' needs a game of exactly two sides", sc.path,
                               e.at)
                return "side"
            case "roll":
                for a in args:
                    self._expect(a, "int", sc, "'roll'")
                return "int"
            case "lookup":
                self._expect(args[0], "table", sc, "the table of 'lookup'")
                for a in args[1:]:
                    self._expr(a, sc)
                return "any"
            case "neighbors" | "distance" | "path" | "reachable" | "edge":
                return self._graph_call(e, sc)
            case "zone_of":
                self._expr(args[0], sc)
                return "text"
            case "numbers":
                self._expect(args[0], "int", sc, "the first number")
                self._expect(args[1], "int", sc, "the last number")
                return ("list", "int")
            case "is_revealed":
                self._expr(args[0], sc)
                return "bool"
            case "attribute":
                self._expr(args[0], sc)
                self._expect(args[1], "text", sc, "a field name")
                return "any"
        raise AssertionError(n)  # pragma: no cover

    def _run_effect(self, e: A.Call, sc: Scope, statement: bool) -> Type:
        """`run(card.field)`: the statements in an effect field of a record."""
        a = e.args[0]
        if not (isinstance(a, A.Attr)):
            self.error("E229", "'run' takes an effect field: run(card.event)", sc.path, a.at)
            return "none"
        rt = self._expr(a.obj, sc)
        info = self.model.types.get(rt) if isinstance(rt, str) else None
        f = info.fields.get(a.name) if info else None
        if f is None or f.type != "effect":
            self.error("E229", f"'{a.name}' is not an effect field of {T.show(rt)}", sc.path,
                       a.at)
            return "none"
        self.runs_effect.setdefault(sc.fn, set()).add(a.name)
        self.res[id(e)] = ("builtin", "run", statement, a.name)
        return "none"

    def _aggregate(self, e: A.Call, sc: Scope) -> Type:
        """`count`, `exists`, `every` of a list or zone; `sum` of a list of ints."""
        n, arg = e.func, e.args[0]
        t = self._expr(arg, sc)
        if n == "sum":
            if T.elem(t) not in ("int", "any"):
                self.error("E225", f"'sum' needs a list of ints, got {T.show(t)}", sc.path,
                           arg.at)
            return "int"
        if T.elem(t) is None:
            self.error("E225", f"'{n}' needs a list or zone, got {T.show(t)}", sc.path, arg.at)
        return "int" if n == "count" else "bool"

    def _one_item(self, e: A.Call, sc: Scope) -> Type:
        """`top`, `first`, `last`, `random_pick`: an item of a list or zone."""
        arg = e.args[0]
        t = self._expr(arg, sc)
        et = T.elem(t)
        if et is None:
            self.error("E225", f"'{e.func}' needs a list or zone, got {T.show(t)}", sc.path,
                       arg.at)
            return "any"
        return et

    def _some_items(self, e: A.Call, sc: Scope) -> Type:
        """`take(items, n)` (of a list or zone) and `sort(items, key)` (of a list): a list
        of the items' type."""
        n, args = e.func, e.args
        t = self._expr(args[0], sc)
        if n == "take":
            self._expect(args[1], "int", sc, "how many to take")
        et = T.elem(t)
        if et is None:
            wanted = "a list" if n == "sort" else "a list or zone"
            self.error("E225", f"'{n}' needs {wanted}, got {T.show(t)}", sc.path, args[0].at)
            et = "any"
        if n == "sort" and len(args) == 2:
            self._lambda(args[1], et, sc, "int", "function",
                         "'sort' gives its function each item of the list")
        return ("list", et)

    def _min_max(self, e: A.Call, sc: Scope) -> Type:
        """`min`/`max` of one list, or of several ints."""
        n, args = e.func, e.args
        if len(args) == 1:
            t = self._expr(args[0], sc)
            et = T.elem(t)
            if et is None:
                self.error("E225", f"'{n}' of one argument needs a list, got {T.show(t)}",
                           sc.path, args[0].at)
                return "any"
            return et
        for a in args:
            self._expect(a, "int", sc, f"an argument of '{n}'")
        return "int"
