"""Lowering of expressions: each checked expression as one Python expression over the
state's tables (python_text.PRELUDE), the pack's records and the rule's locals; a value kept
(in a local, var, argument, return or the log) as a copy where it is a zone; calls of
built-ins, values and procedures; graph searches; keys of indexed vars and zones."""
from __future__ import annotations

from typing import Any

from engine.dsl import ast as A
from engine.dsl.check import graph_slots
from engine.dsl.compile.compare import comparison
from engine.dsl.compile.context import Context
from engine.dsl.compile.index import indexed_walk
from engine.dsl.compile.inline import plain_argument
from engine.dsl.compile.python_text import is_str_literal, state_key
from engine.dsl.compile.syntax import is_filter
from engine.dsl.compile.tables import keyed_by_table, static_field
from engine.dsl.compile.unit import CompileUnit
from engine.dsl.parser import numbered_template, split_template

# Built-ins that are one Python expression over their compiled arguments.
TEMPLATES = {
    "abs": "abs({0})", "other": "G.other[{0}]", "roll": "G.roll({0}, {1})",
    "zone_of": "G.loc.get({0})", "top": "first({0})", "first": "first({0})",
    "last": "last({0})", "random_pick": "G.pick({0})", "contents": "list({0})",
    "numbers": "G.numbers({0}, {1})", "take": "list({0}[:max({1}, 0)])",
    "is_revealed": "({0} in G.revealed)", "attribute": "R[{0}].get({1})",
}


class ExpressionCompiler(CompileUnit):
    """Expressions as Python expressions."""

    def value(self, e: A.Expr, ctx: Context) -> str:
        """An expression whose value is kept (in a local, var, argument, return or the log):
        a zone is copied, so the value does not change when cards move later, and a saved
        game holds no list shared between a zone and a frame."""
        code = self.expr(e, ctx)
        value_type = self.checked.types.get(id(e))
        if isinstance(value_type, tuple) and value_type[0] == "zone":
            return f"list({code})"
        return code

    def keypart(self, e: A.Expr, ctx: Context) -> str:
        """Code for one key part as text: sides and record ids already are text."""
        code = self.expr(e, ctx)
        part_type = self.checked.types.get(id(e))
        if part_type in ("side", "text") or (isinstance(part_type, str) and (
                part_type in self.model.types or part_type in self.model.enums)):
            return code if is_str_literal(code) else f"({code})"
        return f"str({code})"

    def key(self, args: tuple[A.Expr, ...], ctx: Context) -> str:
        """Code for the state key of an indexed var or zone with index arguments `args`."""
        return state_key([self.keypart(arg, ctx) for arg in args])

    def zone_key(self, e: A.Expr, ctx: Context) -> str:
        res = self.checked.res.get(id(e))
        if res and res[0] == "zone":
            if isinstance(e, A.Index):
                if self.optimize and keyed_by_table(self.model, self.checked, res[1], e.args):
                    self.zone_key_tables.add(res[1])
                    return f"ZK_{res[1]}[{self.expr(e.args[0], ctx)}]"
                return state_key([repr(res[1])] + [self.keypart(a, ctx) for a in e.args])
            return repr(res[1])
        # a zone key held in a local or returned by zone_of()
        return self.expr(e, ctx)

    def field_home(self, record_type: Any, name: str) -> str:
        """Where `x.name` is read, for x of checker type `record_type`: 'R' (the pack's
        records), 'F' (the game state) or 'any' (unknown type: looked up at run time)."""
        info = self.model.types.get(record_type) if isinstance(record_type, str) else None
        if info is None:
            return "any" if name in self.state_fields else "R"
        field = info.fields.get(name)
        return "F" if info.created or (field is not None and field.var) else "R"

    def prompt(self, text: str | None, args: tuple[A.Expr, ...],
               ctx: Context) -> tuple[str, str]:
        """Code for a decision's prompt and for the values of its placeholders: the prompt as
        a template with numbered placeholders ("Intercept with {0}?"), or plain text."""
        if text is None or ("{" not in text and "}" not in text):
            return repr(text), "None"
        parts = split_template(text)
        if not args:
            return repr("".join(t for _kind, t, _i in parts)), "None"
        return (repr(numbered_template(parts)),
                "[" + ", ".join(self.value(a, ctx) for a in args) + "]")

    def expr(self, e: A.Expr, ctx: Context) -> str:
        checked = self.checked
        if isinstance(e, (A.Int, A.Str, A.Bool)):
            return repr(e.value)
        if isinstance(e, A.NoneLit):
            return "None"
        if isinstance(e, A.Name):
            res = checked.res[id(e)]
            kind = res[0]
            if kind == "local":
                return ctx.local(res[1])
            if kind == "var":
                return f"{self.var_table(res[1])}['']"
            if kind == "zone":
                return f"{self.zones_table(res[1])}[{res[1]!r}]"
            if kind == "const":
                return repr(res[1])
            if kind == "all":
                if res[1] in self.created:
                    return f"G.pieces({res[1]!r})"  # a copy: the list changes in play
                return f"G.all({res[1]!r})"
            if kind == "sides":
                return "G.sides"
            if kind == "kconst":
                return f"K_{res[1]}"
            if kind == "enum_all":
                return repr(self.model.enum_values(res[1]))
            raise AssertionError(res)
        if isinstance(e, A.Index):
            res = checked.res[id(e)]
            if res[0] == "var":
                return f"{self.var_table(res[1])}[{self.key(e.args, ctx)}]"
            if res[0] == "zone":
                return f"{self.zones_table(res[1])}[{self.zone_key(e, ctx)}]"
            return f"{self.expr(e.obj, ctx)}[{self.expr(e.args[0], ctx)}]"
        if isinstance(e, A.Attr):
            return self._attribute(e, ctx)
        if isinstance(e, A.BinOp):
            return self.binop(e, self.expr(e.left, ctx), self.expr(e.right, ctx))
        if isinstance(e, A.Compare):
            return self.compare(e.op, self.expr(e.left, ctx), self.expr(e.right, ctx))
        if isinstance(e, A.BoolOp):
            return "(" + f" {e.op} ".join(self.expr(i, ctx) for i in e.items) + ")"
        if isinstance(e, A.Not):
            return f"(not {self.expr(e.expr, ctx)})"
        if isinstance(e, A.Neg):
            return f"(-{self.expr(e.expr, ctx)})"
        if isinstance(e, A.ListLit):
            return "[" + ", ".join(self.expr(i, ctx) for i in e.items) + "]"
        if isinstance(e, A.IfExp):
            return (f"({self.expr(e.then, ctx)} if {self.expr(e.cond, ctx)} "
                    f"else {self.expr(e.orelse, ctx)})")
        if isinstance(e, A.Comprehension):
            return "[" + self.generator(e, ctx) + "]"
        if isinstance(e, A.Call):
            return self.call(e, ctx)
        raise AssertionError(e)  # pragma: no cover

    def _attribute(self, e: A.Attr, ctx: Context) -> str:
        res = self.checked.res.get(id(e))
        if res is not None and res[0] == "evstate":
            return f"G.evget({res[1]!r}, {res[2]!r})"
        if res is not None and res[0] in ("const", "enum_value"):  # `type.id`, `kind.hill`
            return repr(res[1])
        obj = self.expr(e.obj, ctx)
        if e.name == "id":
            return obj
        obj_type = self.checked.types.get(id(e.obj))
        if self.state_types:
            if e.name == "name" and (obj_type in self.created
                                     or self.created and obj_type == "any"):
                return obj if obj_type in self.created else f"G.name_of({obj})"
            home = self.field_home(obj_type, e.name)
            if home == "F":
                return f"GF[{obj}][{e.name!r}]"
            if home == "any":
                return f"G.field({obj}, {e.name!r})"
        if e.name == "name":
            return f"R[{obj}].get('name') or {obj}"
        if self.optimize and static_field(self.model, obj_type, e.name):
            self.field_tables.add(e.name)
            return f"RF_{e.name}[{obj}]"
        return f"R[{obj}][{e.name!r}]"

    def binop(self, e: A.BinOp, left: str, right: str) -> str:
        if e.op == "*":  # the one operator that can grow a number past any bound fast
            return f"imul({left}, {right})"
        if e.op == "+" and self.checked.types.get(id(e)) != "int":
            return f"G.cat({left}, {right})"  # lists and text: capped in size
        op = "//" if e.op == "/" else e.op
        return f"({left} {op} {right})"

    def compare(self, op: str, left: str, right: str) -> str:
        return comparison(op, left, right, self.optimize)

    def walk_code(self, comp: A.Comprehension, ctx: Context, src: str) -> str:
        """What a comprehension that keeps only the items its condition holds for walks:
        G.walk(src) (the list, charged one step an item), or, over all the records of a type
        when the condition keeps only those whose var field equals a value it reads once,
        just those records (G.having, engine.dsl.compile.index)."""
        found = indexed_walk(self.model, self.checked, self.created, comp) \
            if self.optimize else None
        if found is None:
            return f"G.walk({src})"
        type_name, field, value = found
        return f"G.having({type_name!r}, {field!r}, {self.expr(value, ctx)})"

    def iterable(self, e: A.Expr, ctx: Context) -> str:
        """The source of a generator: Python allows no `:=` there, so the value calls in it
        kept for a walk around it (engine.dsl.compile.hoist) are called as they are."""
        kept, self.hoisted = self.hoisted, {}
        try:
            return self.expr(e, ctx)
        finally:
            self.hoisted = kept

    def generator(self, e: A.Comprehension, ctx: Context, value: str | None = None) -> str:
        inner = ctx.inner(e.var)
        src = self.walk_code(e, ctx, self.iterable(e.source, ctx))
        out = f"{value if value is not None else self.expr(e.expr, inner)} for l_{e.var} in {src}"
        if e.cond is not None:
            out += f" if {self.expr(e.cond, inner)}"
        return out

    def _graph_call(self, e: A.Call, ctx: Context) -> str:
        """engine.core.graph.Graph's methods take (ends..., [kinds,] blocked node, blocked
        edge)."""
        args, func = e.args, e.func
        graph = args[0]
        if not isinstance(graph, A.Name):  # pragma: no cover - the checker allows no other
            raise AssertionError(graph)
        first = graph_slots(func)[0]
        out = [self.expr(a, ctx) for a in args[1:first]]
        preds: list[A.Expr | None] = list(args[first:])
        if func == "neighbors":  # neighbors(g, x, kinds, edge) or neighbors(g, x, node, edge)
            kinds = preds.pop(0) if preds and not isinstance(preds[0], A.Lambda) else None
            out.append(self.expr(kinds, ctx) if kinds is not None else "None")
            if kinds is not None and preds:
                preds.insert(0, None)  # no node predicate
        out += [self.lambda_code(a, ctx) if isinstance(a, A.Lambda)
                else "None" if a is None else self.expr(a, ctx) for a in preds]
        while len(out) >= first and out[-1] == "None":  # trailing absent predicates
            out.pop()
        return f"G.graphs[{graph.id!r}].{func}({', '.join(out)})"

    def lambda_code(self, lam: A.Lambda, ctx: Context) -> str:
        inner = ctx.inner(lam.param)
        return f"(lambda l_{lam.param}: {self.expr(lam.body, inner)})"

    def call(self, e: A.Call, ctx: Context) -> str:
        res = self.checked.res.get(id(e))
        args = self.args_of(e)
        if res is None:  # pragma: no cover - the checker resolved every call
            raise AssertionError(e)
        if res[0] == "proc":
            return f"p_{e.func}(G{''.join(', ' + self.value(a, ctx) for a in args)})"
        if res[0] == "value":
            return self._value_call(e, args, ctx)
        func = e.func

        def arg(i: int) -> str:
            return self.expr(args[i], ctx)
        first: Any = args[0] if args else None
        if func == "attribute" and self.state_types:
            return f"G.attribute({arg(0)}, {arg(1)})"  # state fields too
        if func in TEMPLATES:
            return TEMPLATES[func].format(*(arg(i) for i in range(len(args))))
        if func == "count":
            if isinstance(first, A.Comprehension) and first.cond is not None:
                return f"sum({self.generator(first, ctx, '1')})"
            return f"len({arg(0)})"
        if func == "sum":
            if isinstance(first, A.Comprehension):
                return f"sum({self.generator(first, ctx)})"
            return f"sum({arg(0)})"
        if func in ("min", "max"):
            if len(args) == 1:
                inner = self.generator(first, ctx) if isinstance(first, A.Comprehension) \
                    else arg(0)
                return f"{func}(({inner}), default=None)"  # a generator needs its own parens
            return f"{func}({', '.join(arg(i) for i in range(len(args)))})"
        if func == "exists":  # exists(x in xs where c); exists(test for x in xs where c)
            if isinstance(first, A.Comprehension):
                return f"any({self.generator(first, ctx, 'True' if is_filter(first) else None)})"
            return f"bool({arg(0)})"
        if func == "every":  # every(x in xs where test); every(test for x in xs where c)
            if isinstance(first, A.Comprehension) and is_filter(first) \
                    and first.cond is not None:
                inner_ctx = ctx.inner(first.var)
                return (f"all({self.expr(first.cond, inner_ctx)} for l_{first.var} in "
                        f"G.walk({self.iterable(first.source, ctx)}))")
            if isinstance(first, A.Comprehension):
                return f"all({self.generator(first, ctx)})"
            return f"all({arg(0)})"
        if func == "lookup":
            column = arg(2) if len(args) == 3 else "None"
            return f"G.lookup({arg(0)}, {arg(1)}, {column})"
        if func in ("neighbors", "distance", "path", "reachable", "edge"):
            return self._graph_call(e, ctx)
        if func == "sort":
            if len(args) == 2:
                return f"sorted({arg(0)}, key={self.lambda_code(args[1], ctx)})"
            return f"sorted({arg(0)})"
        if func == "run":
            return f"G.run_effect_now({self.expr(first.obj, ctx)}, {first.name!r})"
        raise AssertionError(func)  # pragma: no cover

    def _value_call(self, e: A.Call, args: tuple[Any, ...], ctx: Context) -> str:
        if e.func in self.inlined_values and id(e) not in self.hoisted \
                and all(plain_argument(self.checked, a) for a in args):
            # A small value that reads only fields, vars and locals, called with locals
            # and literals: its formula in place of the call (the same reads; no call).
            decl = self.model.values[e.func]
            names = {p.name: self.expr(a, ctx) for p, a in zip(decl.params, args)}
            return f"({self.expr(decl.expr, Context(False, substitutions=names))})"
        call = f"v_{e.func}(G{''.join(', ' + self.expr(a, ctx) for a in args)})"
        temporary = self.hoisted.get(id(e))
        if temporary is None:
            return call
        return f"({temporary} if {temporary} is not ... else ({temporary} := {call}))"
