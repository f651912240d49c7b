"""Optimisation pass: walks written as loops. In Python 3.11 a comprehension or generator is
a function of its own, created and called each time: for the short lists rules walk, that
costs more than the walk. So a formula is written as statements where it walks a list
(`count`, `exists`, `every`, `sum` of a comprehension, list comprehensions, the options of
`choose ... where`, and the small values unfolded in place, engine.dsl.compile.inline):
plain loops into temporaries, with `and`, `or` and `if ... else` around them written as
`if` statements, so that what is read, and the steps charged (G.walk, the same calls in
the same order), are exactly those of the expression."""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl.compile.context import Context
from engine.dsl.compile.expressions import ExpressionCompiler
from engine.dsl.compile.hoist import forget, hoist_value_calls, hoist_var_tables
from engine.dsl.compile.python_text import is_plain
from engine.dsl.compile.syntax import bound_names, is_filter, resolved_kind
from engine.dsl.compile.uncharged import MAX_UNCHARGED, static_length

# Aggregates of a comprehension written as loops, and how deep the loops and `if`s may
# nest (Python refuses more than 20 nested loops in one function).
LOWERED_AGGREGATES = frozenset({"count", "exists", "every", "sum"})
MAX_LOWERED_DEPTH = 12


class LoopCompiler(ExpressionCompiler):
    """Expressions whose walks are written as loops, into lines that run before them."""

    def lowered(self, e: A.Expr, ctx: Context, lines: list[str], pad: str) -> str:
        """Code for `e` that may need `lines` (at indent `pad`) to run first."""
        if not self.optimize or pad.count("    ") > MAX_LOWERED_DEPTH or not self.walks(e):
            return self.expr(e, ctx)
        if isinstance(e, A.Comprehension):
            if e.var in ctx.python_locals:  # its loop would overwrite the outer name
                return self.expr(e, ctx)
            return self._lowered_walk(e, "list", ctx, lines, pad)
        if isinstance(e, A.Call) and e.func in LOWERED_AGGREGATES \
                and resolved_kind(self.checked, e) == "builtin":
            args = self.args_of(e)
            if len(args) == 1 and isinstance(args[0], A.Comprehension) \
                    and args[0].var not in ctx.python_locals:
                mode = e.func
                if mode == "count" and args[0].cond is None:
                    return self.expr(e, ctx)  # len() of the whole list
                if mode == "sum" and self.checked.types.get(id(e)) != "int":
                    return self.expr(e, ctx)
                return self._lowered_walk(args[0], mode, ctx, lines, pad)
            return self.expr(e, ctx)
        if isinstance(e, A.Call) and e.func in self.unfolded_values \
                and resolved_kind(self.checked, e) == "value" \
                and id(e) not in self.hoisted:
            return self._unfolded(e, ctx, lines, pad)
        if isinstance(e, A.BoolOp):
            return self._lowered_boolop(e, ctx, lines, pad)
        if isinstance(e, A.IfExp):
            temporary = self.temp()
            lines.append(f"{pad}if ({self.lowered(e.cond, ctx, lines, pad)}):")
            inner = pad + "    "
            lines.append(f"{inner}{temporary} = {self.lowered(e.then, ctx, lines, inner)}")
            lines.append(f"{pad}else:")
            lines.append(f"{inner}{temporary} = {self.lowered(e.orelse, ctx, lines, inner)}")
            return temporary
        if isinstance(e, A.Not):
            return f"(not {self.lowered(e.expr, ctx, lines, pad)})"
        if isinstance(e, (A.Compare, A.BinOp)):
            left = self.lowered(e.left, ctx, lines, pad)
            if self.walks(e.right) and not is_plain(left):
                temporary = self.temp()  # read before the right side, as the expression does
                lines.append(f"{pad}{temporary} = {left}")
                left = temporary
            right = self.lowered(e.right, ctx, lines, pad)
            if isinstance(e, A.Compare):
                return self.compare(e.op, left, right)
            return self.binop(e, left, right)
        return self.expr(e, ctx)

    def walks(self, e: Any) -> bool:
        """Does the expression walk a list (hold a comprehension, or call a value written out
        in place) outside a lambda? Such parts are written as statements (`lowered`)."""
        if isinstance(e, A.Comprehension):
            return True
        if isinstance(e, A.Lambda):
            return False  # a graph search's test: read once per space, stays an expression
        if isinstance(e, A.Call) and e.func in self.unfolded_values \
                and resolved_kind(self.checked, e) == "value":
            return True
        if isinstance(e, tuple):
            return any(self.walks(item) for item in e)
        if hasattr(e, "__attrs_attrs__"):
            return any(self.walks(getattr(e, field.name)) for field in e.__attrs_attrs__
                       if field.name != "at")
        return False

    def _unfolded(self, e: A.Call, ctx: Context, lines: list[str], pad: str) -> str:
        """A call of a small value that walks, written out in place (unfolded values): its
        arguments read in order into temporaries, then its formula as statements. The same
        reads and steps as the call; no Python call."""
        decl = self.model.values[e.func]
        bound = {f"l_{n}" for n in bound_names(decl.expr)}  # the formula's own walks' names
        names = {}
        for param, arg in zip(decl.params, self.args_of(e)):
            code = self.lowered(arg, ctx, lines, pad)
            if not (is_plain(code) and code not in bound):
                temporary = self.temp()  # read once, into a name the formula cannot overwrite
                lines.append(f"{pad}{temporary} = {code}")
                code = temporary
            names[param.name] = code
        return self.lowered(decl.expr, Context(False, ctx.python_locals, names), lines, pad)

    def _lowered_boolop(self, e: A.BoolOp, ctx: Context, lines: list[str], pad: str) -> str:
        """`a and b`: b is read only when a holds (`or`: when it does not); the result is
        the last item read, as Python's own `and` / `or` give."""
        temporary = self.temp()
        groups: list[list[A.Expr]] = [[]]  # items without walks run together in one expression
        for item in e.items:
            if self.walks(item) and groups[-1]:
                groups.append([])
            groups[-1].append(item)
        test = f"if {temporary}:" if e.op == "and" else f"if not {temporary}:"
        for i, group in enumerate(groups):
            if i:
                lines.append(f"{pad}{test}")
                pad += "    "
            codes = [self.lowered(group[0], ctx, lines, pad)]
            codes += [self.expr(x, ctx) for x in group[1:]]
            code = codes[0] if len(codes) == 1 else "(" + f" {e.op} ".join(codes) + ")"
            lines.append(f"{pad}{temporary} = {code}")
        return temporary

    def _lowered_walk(self, comp: A.Comprehension, mode: str, ctx: Context, lines: list[str],
                      pad: str) -> str:
        """A comprehension as a loop: its list ("list"), or count, exists, every or sum of it
        (as `call` compiles them: `exists`/`every` of the filter form test its condition)."""
        result = self.temp()
        inner = ctx.inner(comp.var)
        src = self.lowered(comp.source, ctx, lines, pad)
        start = {"list": "[]", "count": "0", "sum": "0", "exists": "False", "every": "True"}
        lines.append(f"{pad}{result} = {start[mode]}")
        hoisted = hoist_value_calls(self, comp, lines, pad)
        tables = hoist_var_tables(self, (comp.cond, comp.expr), lines, pad)
        # `every` of the filter form tests its condition: it keeps nothing out
        walk = f"G.walk({src})" if mode == "every" and is_filter(comp) else \
            self.walk_code(comp, ctx, src)
        bound = static_length(self.model, self.checked, self.created, comp.source) \
            if self.optimize else None
        if walk.startswith("G.walk(") and bound is not None:
            # the pack's own list (nothing changes it: no copy) and at most `bound` items
            walk = src
            if bound > MAX_UNCHARGED or self.walks((comp.cond, comp.expr)):
                items = self.temp()
                lines += [f"{pad}{items} = {src}",
                          f"{pad}G.left -= len({items}) + 1",
                          f"{pad}if G.left < 0: G.over_budget()"]
                walk = items
        elif walk.startswith("G.walk("):  # G.walk written out: the list, charged up front
            items = self.temp()
            lines.append(f"{pad}{items} = {src}")
            if not src.startswith(("Z[", "PZ[", "G.all(")) \
                    and not self._gives_list(comp.source):  # these give lists
                lines.append(f"{pad}if type({items}) is not list: {items} = list({items})")
            lines += [f"{pad}G.left -= len({items}) + 1",
                      f"{pad}if G.left < 0: G.over_budget()"]
            walk = items
        lines.append(f"{pad}for l_{comp.var} in {walk}:")
        body = pad + "    "
        test: A.Expr | None = comp.cond
        value: A.Expr | None = comp.expr
        if mode in ("exists", "every") and is_filter(comp):
            test, value = None, comp.cond  # the filter form's condition is the test
            if mode == "exists":
                test, value = comp.cond, None
        if test is not None:
            lines.append(f"{body}if not ({self.lowered(test, inner, lines, body)}):")
            lines.append(f"{body}    continue")
        if mode == "list":
            lines.append(f"{body}{result}.append({self._lowered_item(value, inner, lines, body)})")
        elif mode == "count":
            lines.append(f"{body}{result} += 1")
        elif mode == "sum":
            lines.append(f"{body}{result} += {self._lowered_item(value, inner, lines, body)}")
        elif mode == "exists":
            if value is not None:
                lines.append(f"{body}if not ({self.lowered(value, inner, lines, body)}):")
                lines.append(f"{body}    continue")
            lines.append(f"{body}{result} = True")
            lines.append(f"{body}break")
        else:  # every
            lines.append(f"{body}if not ({self._lowered_item(value, inner, lines, body)}):")
            lines.append(f"{body}    {result} = False")
            lines.append(f"{body}    break")
        forget(self, hoisted, tables)
        return result

    def _lowered_item(self, value: A.Expr | None, ctx: Context, lines: list[str],
                      pad: str) -> str:
        """`lowered` of a walk's item, which only `exists` of the filter form leaves out."""
        if value is None:  # pragma: no cover - every mode but `exists` has an item
            raise AssertionError("a walk without an item")
        return self.lowered(value, ctx, lines, pad)

    def _gives_list(self, source: A.Expr) -> bool:
        """Is `source` a graph search that gives a new list (engine.core.graph.Graph)?"""
        return isinstance(source, A.Call) and source.func in ("neighbors", "reachable") \
            and resolved_kind(self.checked, source) == "builtin"

    def options_loop(self, var: str, where: A.Expr, src: str, ctx: Context) -> tuple[list[str],
                                                                                     str]:
        """The options of `choose var from src where cond`, as a loop (a list comprehension
        is a function made and called each time): the same reads and steps (the items are
        not charged, as the comprehension's are not). Returns its lines (indented from the
        block's own level) and the temporary holding the options."""
        inner = Context(True, ctx.python_locals | {var})
        out = self.temp()
        lines = [f"{out} = []"]
        tables = hoist_var_tables(self, where, lines, "")
        lines.append(f"for l_{var} in {src}:")
        test = self.lowered(where, inner, lines, "    ")
        lines += [f"    if {test}:", f"        {out}.append(l_{var})"]
        forget(self, [], tables)
        return lines, out
