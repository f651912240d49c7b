"""Lowering of statements that never wait for a player: structured Python statements, their
expressions' walks written as loops (engine.dsl.compile.loops), each line marked with the
rule's line (`# @L<n>`) so that a fault can name it; assignments to locals, vars, fields and
list items; modifiers and their durations; the right-hand sides that act (create, draw)."""
from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from engine.dsl import ast as A
from engine.dsl.compile.context import Context
from engine.dsl.compile.loops import LoopCompiler
from engine.dsl.compile.python_text import PRELUDE, tuple_code
from engine.dsl.compile.syntax import free_locals, resolved_kind
from engine.dsl.types import elem

# a loop of the resumable function around a statement: (continue pc, break pc)
Goto = tuple[int, int] | None


class StatementCompiler(LoopCompiler):
    """Statements that never wait, as Python statements."""

    def stmts(self, body: Iterable[A.Stmt], ctx: Context, lines: list[str], ind: int,
              loops: int, goto: Goto = None) -> None:
        """Compile statements that never suspend. `loops` counts enclosing Python loops;
        `goto` is (continue pc, break pc) of an enclosing lowered loop, used when loops == 0."""
        for s in body:
            self.stmt(s, ctx, lines, ind, loops, goto)

    def stmt(self, s: A.Stmt, ctx: Context, lines: list[str], ind: int, loops: int,
             goto: Goto) -> None:
        first = len(lines)
        self._stmt(s, ctx, lines, ind, loops, goto)
        if len(lines) > first and s.at.line:
            lines[first] += f"  # @L{s.at.line}"

    def _stmt(self, s: A.Stmt, ctx: Context, lines: list[str], ind: int, loops: int,
              goto: Goto) -> None:
        pad = "    " * ind
        emit = lines.append
        if isinstance(s, A.Let):
            emit(f"{pad}{ctx.local(s.name)} = {self._rhs_lowered(s.value, ctx, lines, pad)}")
        elif isinstance(s, A.Assign):
            self.assign(s.target, self._rhs_lowered(s.value, ctx, lines, pad), ctx, lines, pad)
        elif isinstance(s, A.AugAssign):
            current = self.expr(s.target, ctx)
            amount = self.expr(s.value, ctx)
            self.assign(s.target, f"{current} {s.op[0]} {amount}", ctx, lines, pad)
        elif isinstance(s, A.ExprStmt):
            emit(f"{pad}{self.expr(s.expr, ctx)}")
        elif isinstance(s, A.ActionStmt):
            emit(f"{pad}{self.rhs(s.action, ctx)}")
        elif isinstance(s, A.Emit):
            args = tuple_code([self.value(a, ctx) for a in self.args_of(s)])
            if s.queued:
                emit(f"{pad}G.enqueue({s.event!r}, {args})")
            elif self.has_state(s.event):
                emit(f"{pad}G.emit_now_x({s.event!r}, {args})")
            else:
                emit(f"{pad}G.emit_now({s.event!r}, {args})")
        elif isinstance(s, A.Move):
            what = self.expr(s.what, ctx)
            fn = "move_all" if self._many(s.what) else "move"
            emit(f"{pad}G.{fn}({what}, {self.zone_key(s.dest, ctx)}, {s.place!r})")
        elif isinstance(s, A.Destroy):
            what = self.expr(s.what, ctx)
            emit(f"{pad}G.{'destroy_all' if self._many(s.what) else 'destroy'}({what})")
        elif isinstance(s, A.Shuffle):
            emit(f"{pad}G.shuffle({self.zone_key(s.zone, ctx)})")
        elif isinstance(s, A.Reveal):
            what = self.expr(s.what, ctx)
            many = self._many(s.what)
            to = self.expr(s.to, ctx) if s.to is not None else "None"
            emit(f"{pad}G.reveal({what if many else '[' + what + ']'}, {to})")
        elif isinstance(s, A.Modify):
            self._modify(s, ctx, lines, pad)
        elif isinstance(s, A.SetUntil):
            self._set_until(s, ctx, lines, pad)
        elif isinstance(s, (A.Win, A.EndGame)):
            side = self.expr(s.side, ctx) if isinstance(s, A.Win) else "None"
            if s.reason is None:
                emit(f"{pad}G.win({side})")
            else:
                template, args = self.prompt(s.reason, s.args, ctx)
                emit(f"{pad}G.win({side}, {template}, {args})")
        elif isinstance(s, A.Return):
            value = self._rhs_lowered(s.value, ctx, lines, pad) if s.value is not None \
                else "None"
            if ctx.resumable:
                emit(f"{pad}F['rv'] = {value}")
                emit(f"{pad}return 0")
            else:
                emit(f"{pad}return {value}")
        elif isinstance(s, A.Log) and s.inline:
            template, args = self.prompt(s.message, s.args, ctx)
            emit(f"{pad}G.say({template}, {args})")
        elif isinstance(s, A.Log):
            args = ", ".join(self.value(a, ctx) for a in s.args)
            emit(f"{pad}G.say({s.message!r}, [{args}])")
        elif isinstance(s, A.Pass):
            emit(f"{pad}pass")
        elif isinstance(s, (A.Break, A.Continue)):
            if loops == 0 and goto is not None:
                target = goto[0] if isinstance(s, A.Continue) else goto[1]
                emit(f"{pad}pc = {target}")
                emit(f"{pad}continue")
            else:
                emit(f"{pad}{'break' if isinstance(s, A.Break) else 'continue'}")
        elif isinstance(s, A.If):
            for i, (cond, body) in enumerate(s.branches):
                test = self.lowered(cond, ctx, lines, pad) if i == 0 else self.expr(cond, ctx)
                emit(f"{pad}{'if' if i == 0 else 'elif'} {test}:")
                self._sub(body, ctx, lines, ind + 1, loops, goto)
            if s.orelse:
                emit(f"{pad}else:")
                self._sub(s.orelse, ctx, lines, ind + 1, loops, goto)
        elif isinstance(s, A.For):
            var = ctx.local(s.var)
            emit(f"{pad}for {var} in G.loop({self.lowered(s.source, ctx, lines, pad)}):")
            if s.where is not None:
                test = self.lowered(s.where, ctx, lines, pad + "    ")
                emit(f"{pad}    if not ({test}):")
                emit(f"{pad}        continue")
            self._sub(s.body, ctx, lines, ind + 1, loops + 1, goto)
        elif isinstance(s, A.While):
            emit(f"{pad}while {self.expr(s.cond, ctx)}:")
            emit(f"{pad}    G.tick()")
            self._sub(s.body, ctx, lines, ind + 1, loops + 1, goto)
        elif isinstance(s, A.Repeat):
            emit(f"{pad}for _ in range(G.count({self.expr(s.count, ctx)})):")
            self._sub(s.body, ctx, lines, ind + 1, loops + 1, goto)
        else:  # pragma: no cover
            raise AssertionError(s)

    def _many(self, what: A.Expr) -> bool:
        """Is `what` a list of records (else one record)?"""
        return elem(self.checked.types.get(id(what), "any")) is not None

    def _rhs_lowered(self, r: A.Rhs, ctx: Context, lines: list[str], pad: str) -> str:
        """`rhs`, with the walks of a plain expression written as loops (`lowered`). In a
        rule that may wait too: a statement that does not wait runs within one call of the
        function, so the loops' names and temporaries are Python's own there."""
        if isinstance(r, (A.Create, A.Draw, A.Choose, A.Ask, A.Order, A.Open)) \
                or not self.walks(r):
            return self.rhs(r, ctx)
        code = self.lowered(r, ctx, lines, pad)
        value_type = self.checked.types.get(id(r))
        return f"list({code})" if isinstance(value_type, tuple) and value_type[0] == "zone" \
            else code

    def _sub(self, body: Iterable[A.Stmt], ctx: Context, lines: list[str], ind: int,
             loops: int, goto: Goto) -> None:
        count = len(lines)
        self.stmts(body, ctx, lines, ind, loops, goto)
        if len(lines) == count:
            lines.append("    " * ind + "pass")

    def assign(self, target: A.Expr, value: str, ctx: Context, lines: list[str],
               pad: str) -> None:
        res = self.checked.res.get(id(target))
        if res is None:
            raise AssertionError(f"unresolved target {target!r}")
        if res[0] == "local":
            lines.append(f"{pad}{ctx.local(res[1])} = {value}")
            return
        if res[0] == "evstate":
            lines.append(f"{pad}G.evset({res[1]!r}, {res[2]!r}, {value})")
            return
        if res[0] == "field":
            obj = self.expr(cast(A.Attr, target).obj, ctx)
            decl = self.model.types[res[1]].fields[res[2]].decl
            if decl is not None and decl.bounds is not None:
                bounds_fn = self.field_bounds(res[1], res[2], decl.bounds)
                lines.append(f"{pad}G.setf_bounded({obj}, {res[2]!r}, {value}, {bounds_fn})")
            else:
                lines.append(f"{pad}G.setf({obj}, {res[2]!r}, {value})")
            return
        if res[0] == "list_index":
            # Lists are values: `xs[i] = v` makes a new list and stores it back, so a list
            # shared by two locals (or by a local and the log) never changes behind one.
            item = cast(A.Index, target)
            obj = self.expr(item.obj, ctx)
            new = f"replaced({obj}, {self.expr(item.args[0], ctx)}, {value})"
            if resolved_kind(self.checked, item.obj) in ("local", "var", "list_index",
                                                                "evstate", "field"):
                self.assign(item.obj, new, ctx, lines, pad)
            else:
                lines.append(f"{pad}{obj}[{self.expr(item.args[0], ctx)}] = {value}")
            return
        name = res[1]
        decl_var = self.model.vars[name]
        key = self.key(target.args, ctx) if isinstance(target, A.Index) else "''"
        if decl_var.bounds:
            value = f"G.clamp({name!r}, {value})"
        lines.append(f"{pad}G.set({name!r}, {key}, {value})")

    def _modify(self, s: A.Modify, ctx: Context, lines: list[str], pad: str) -> None:
        key = self.key(self.args_of(s), ctx)
        # an override is kept (a zone read now is copied), an amount is a number
        amount = self.value(s.amount, ctx) if s.op == "to" else self.expr(s.amount, ctx)
        duration = self._duration(s.duration, s, ctx)
        lines.append(f"{pad}G.modify({s.key!r}, {key}, {amount}, {duration}, {s.op!r})")

    def _set_until(self, s: A.SetUntil, ctx: Context, lines: list[str], pad: str) -> None:
        target = s.target
        name = self.checked.res[id(target)][1]
        key = self.key(target.args, ctx) if isinstance(target, A.Index) else "''"
        value = self.value(s.value, ctx)
        if self.model.vars[name].bounds:
            value = f"G.clamp({name!r}, {value})"
        duration = self._duration(s.duration, s, ctx)
        lines.append(f"{pad}G.set_until({name!r}, {key}, {value}, {duration})")

    def _duration(self, d: A.Duration | None, s: A.Stmt, ctx: Context) -> str:
        """The duration as a literal for the runtime (engine.core.runtime.Runtime.duration)."""
        if d is None:
            return "None"
        if d.kind == "any":
            return "('any', [" + ", ".join(self._duration(i, s, ctx) for i in d.items) + "])"
        if d.kind == "end_of":
            return f"('end', {d.event!r}, {d.outermost!r}, {d.count!r})"
        if d.kind == "start_of":
            return f"('start', {d.event!r}, {d.count!r})"
        # the condition is a named function over the locals captured now (data, not code)
        cond = d.cond
        if cond is None:  # pragma: no cover - the parser gives `while` its condition
            raise AssertionError(d)
        fn = self.fresh("while_")
        names = sorted(free_locals(self.checked, cond))
        while_ctx = Context(False, names)
        self.site(fn, s.at.line)
        self.extra += [f"def {fn}(G, C):", PRELUDE]
        self.extra += [f"    l_{n} = C[{n!r}]" for n in names]
        self.extra += [f"    return {self.expr(cond, while_ctx)}  # @L{s.at.line}", ""]
        captured = "{" + ", ".join(f"{n!r}: {ctx.local(n)}" for n in names) + "}"
        return f"('while', {fn!r}, {captured})"

    def field_bounds(self, type_name: str, field: str, bounds: tuple[A.Expr, A.Expr]) -> str:
        """The name of `fbounds_...(G, self)`, the bounds of a bounded field, made once."""
        fn = f"fbounds_{len(type_name)}_{type_name}_{field}"  # the length keeps a_b/c, a/b_c apart
        if fn not in self.field_bound_fns:
            self.field_bound_fns.add(fn)
            low, high = (self.expr(b, Context(False, ["self"])) for b in bounds)
            self.site(fn, bounds[0].at.line)
            self.extra += [f"def {fn}(G, l_self):", PRELUDE,
                           f"    return ({low}, {high})  # @L{bounds[0].at.line}", ""]
        return fn

    def rhs(self, r: A.Rhs, ctx: Context) -> str:
        if isinstance(r, A.Create):
            given = "{" + ", ".join(f"{f.name!r}: {self.value(f.value, ctx)}"
                                    for f in r.fields) + "}"
            dest = self.zone_key(r.dest, ctx) if r.dest is not None else "None"
            return f"G.create({r.type!r}, {given}, {dest}, {r.place!r})"
        if isinstance(r, A.Draw):
            return (f"G.draw({self.expr(r.count, ctx)}, {self.zone_key(r.source, ctx)}, "
                    f"{self.zone_key(r.dest, ctx)})")
        if isinstance(r, (A.Choose, A.Ask, A.Order, A.Open)):  # pragma: no cover
            raise AssertionError("a decision outside a suspending function")
        return self.value(r, ctx)
