"""The resumable-state transform: a rule that may wait for a player (a choice, or a call of
something that chooses) compiles to a state machine, the way compilers lower async
functions. Its locals live in the frame's `L` dict and its resume point in `F["pc"]`, so a
suspended game is plain data; it returns DONE (0), SUSPEND (1) or PUSHED (2) to the
engine's run loop (engine.core.runtime). Statements that do not wait are compiled as in a
plain function (engine.dsl.compile.statements), within the block they fall in."""
from __future__ import annotations

import re
from collections.abc import Iterable

from engine.dsl import ast as A
from engine.dsl.compile.context import Context
from engine.dsl.compile.python_text import (
    PRELUDE,
    is_plain,
    last_argument,
    prelude,
    tuple_code,
)
from engine.dsl.compile.statements import Goto, StatementCompiler
from engine.dsl.compile.syntax import free_locals, may_suspend
from engine.dsl.compile.visibility import (
    may_lie_in_zones,
    values_may_lie_in_zones,
    zone_seen_by,
)

# The end of the line that calls a rule that may wait (`_call_and_resume`): a block ending
# so goes on at the next resume point, which it set as `pc`, by the tests that follow.
CALLED = "return _code"


class ResumableFunction:
    """Lower one suspending function into numbered blocks dispatched on `pc`."""

    def __init__(self, compiler: StatementCompiler, fn: str, params: list[str]):
        self.compiler = compiler
        self.fn = fn
        self.params = params
        self.blocks: list[list[str]] = [[]]
        self.current = 0
        self.ctx = Context(True)

    def new(self) -> int:
        self.blocks.append([])
        return len(self.blocks) - 1

    def line(self, text: str) -> None:
        self.blocks[self.current].append(text)

    def jump(self, target: int) -> None:
        self.line(f"pc = {target}")
        self.line("continue")

    def build(self, body: tuple[A.Stmt, ...]) -> None:
        self.lower(body, None)
        self.line("return 0")
        out = self.compiler.out
        self.compiler.site(self.fn, body[0].at.line if body else 0)
        out.append(f"def {self.fn}(G, F):")
        out += prelude([line for block in self.blocks for line in block], "")
        out.append("    L = F['L']")
        out.append("    pc = F['pc']")
        out.append("    while True:")
        # One flat `if` per block, not an elif chain: Python compiles elif chains
        # recursively, and a rule with thousands of decisions would exceed its limits. Every
        # block ends by returning or jumping, so it never falls into the next test.
        for i, block in enumerate(self.blocks):
            out.append(f"        if pc == {i}:")
            block = _fall_through(block, i)
            for line in block:
                out.append("            " + line)
            last = block[-1].split("  # @L")[0] if block else ""
            if not (last == "continue" or last.startswith(("return ", "pc = "))
                    or last.endswith(CALLED)):
                out.append("            continue")
        out.append("        G.fault(f'no resume point {pc!r} in this rule')")
        out.append("")

    def lower(self, body: Iterable[A.Stmt], loop: Goto) -> None:
        for s in body:
            if not may_suspend(s, self.compiler.checked):
                lines: list[str] = []
                self.compiler.stmt(s, self.ctx, lines, 0, 0, loop)
                self.blocks[self.current].extend(lines)
            else:
                self.lower_stmt(s, loop)

    def _target(self, target: A.Expr | str | None, value: str) -> None:
        if target is None:
            return
        if isinstance(target, str):
            self.line(f"{self.ctx.local(target)} = {value}")
            return
        lines: list[str] = []
        self.compiler.assign(target, value, self.ctx, lines, "")
        self.blocks[self.current].extend(lines)

    def lower_stmt(self, s: A.Stmt, loop: Goto) -> None:
        compiler, ctx = self.compiler, self.ctx
        if s.at.line:
            self.line(f"# @L{s.at.line}")
        if isinstance(s, (A.Let, A.Assign, A.ActionStmt, A.ExprStmt)):
            self._lower_value(s)
            return
        if isinstance(s, A.Return) and s.value is not None:
            # `return f(...)` of a procedure that waits (or of a choice): the value into a
            # local of the frame first, as `let x = f(...)` then `return x` would
            kept = self.compiler.fresh("_rv")
            self._lower_wait(s.value, kept)
            self.line(f"F['rv'] = L.pop({kept!r})")
            self.line("return 0")
            return
        if isinstance(s, A.Emit):
            args = tuple_code([compiler.value(a, ctx) for a in compiler.args_of(s)])
            nxt = self.new()
            self.line(f"F['pc'] = {nxt}")
            push = "push_event_x" if compiler.has_state(s.event) else "push_event"
            self.line(f"G.{push}({s.event!r}, {args})")
            self.line("return 2")
            self.current = nxt
            return
        if isinstance(s, A.If):
            self._lower_if(s, loop)
            return
        if isinstance(s, (A.For, A.Repeat)):
            self._lower_for(s)
            return
        if isinstance(s, A.While):
            head, end = self.new(), self.new()
            self.jump(head)
            self.current = head
            self.line(f"if not ({compiler.expr(s.cond, ctx)}):")
            self.line(f"    pc = {end}")
            self.line("    continue")
            self.line("G.tick()")
            self.lower(s.body, (head, end))
            self.jump(head)
            self.current = end
            return
        raise AssertionError(f"cannot lower {s!r}")  # pragma: no cover

    def _lower_value(self, s: A.Let | A.Assign | A.ActionStmt | A.ExprStmt) -> None:
        """A statement whose right-hand side waits: a decision, an open window, a call of a
        procedure that may, or an effect run."""
        value = s.action if isinstance(s, A.ActionStmt) else (
            s.expr if isinstance(s, A.ExprStmt) else s.value)
        target: A.Expr | str | None = (s.name if isinstance(s, A.Let) else
                                       s.target if isinstance(s, A.Assign) else None)
        self._lower_wait(value, target)

    def _lower_wait(self, value: A.Rhs, target: A.Expr | str | None) -> None:
        """`value`, which waits, its result (if any) into `target` when it is done."""
        compiler, ctx = self.compiler, self.ctx
        if isinstance(value, A.Choose) and value.each:
            self.each(value, target)
            return
        if isinstance(value, (A.Choose, A.Ask, A.Order)):
            picked = self.decision(value)
            nxt = self.new()
            if picked is None:
                self.line(f"F['pc'] = {nxt}")
                self.line("return 1")
            else:  # answered here in a playout (G.pick1, G.pick_decide): on at `nxt`, below
                self.line(f"if not {picked}:")
                self.line(f"    F['pc'] = {nxt}")
                self.line("    return 1")
                self.line(f"pc = {nxt}")
            self.current = nxt
            self._target(target, "F.pop('in')")
            return
        if isinstance(value, A.Open):  # a window: called like a procedure that asks
            window = compiler.model.windows[value.window]
            self._call_and_resume(window.fn, window.decl.params, value.args, target)
            return
        if isinstance(value, A.Call):
            res = compiler.checked.res[id(value)]
            if res[0] == "proc":
                self._call_and_resume(f"p_{value.func}", compiler.model.procs[value.func].params,
                                      compiler.args_of(value), target)
                return
            if res[0] == "builtin" and res[1] == "run":
                effect = value.args[0]
                if not isinstance(effect, A.Attr):  # pragma: no cover - checked: `run x.f`
                    raise AssertionError(effect)
                nxt = self.new()
                self.line(f"F['pc'] = {nxt}")
                self.line(f"if G.push_effect({compiler.expr(effect.obj, ctx)}, "
                          f"{effect.name!r}):")
                self.line("    return 2")
                self.jump(nxt)
                self.current = nxt
                self._target(target, "None")
                return
        raise AssertionError(f"cannot lower {value!r}")  # pragma: no cover

    def _lower_if(self, s: A.If, loop: Goto) -> None:
        compiler, ctx = self.compiler, self.ctx
        end = self.new()
        starts = []
        for i, (cond, body) in enumerate(s.branches):
            block = self.new()
            starts.append((block, body))
            self.line(f"{'if' if i == 0 else 'elif'} {compiler.expr(cond, ctx)}:")
            self.line(f"    pc = {block}")
            self.line("    continue")
        orelse = None
        if s.orelse:
            orelse = self.new()
        self.jump(orelse if orelse is not None else end)
        if orelse is not None and s.orelse:
            starts.append((orelse, s.orelse))
        for block, body in starts:
            self.current = block
            self.lower(body, loop)
            self.jump(end)
        self.current = end

    def _lower_for(self, s: A.For | A.Repeat) -> None:
        """A loop that may wait: its items and position in the frame's locals."""
        compiler, ctx = self.compiler, self.ctx
        items, position = compiler.fresh("_it"), compiler.fresh("_ix")
        if isinstance(s, A.For):
            self.line(f"L[{items!r}] = G.loop({compiler.expr(s.source, ctx)})")
        else:
            self.line(f"L[{items!r}] = list(range(G.count({compiler.expr(s.count, ctx)})))")
        self.line(f"L[{position!r}] = 0")
        head, end = self.new(), self.new()
        self.jump(head)
        self.current = head
        self.line(f"if L[{position!r}] >= len(L[{items!r}]):")
        self.line(f"    pc = {end}")
        self.line("    continue")
        if isinstance(s, A.For):
            self.line(f"{ctx.local(s.var)} = L[{items!r}][L[{position!r}]]")
        self.line(f"L[{position!r}] += 1")
        if isinstance(s, A.For) and s.where is not None:
            self.line(f"if not ({compiler.expr(s.where, ctx)}):")
            self.line(f"    pc = {head}")
            self.line("    continue")
        self.lower(s.body, (head, end))
        self.jump(head)
        self.current = end
        self.line(f"L.pop({items!r}, None)")
        self.line(f"L.pop({position!r}, None)")

    def each(self, d: A.Choose, target: A.Expr | str | None) -> None:
        """`choose n x from ... one at a time`: the picks so far live in a local of the frame
        (plain data); each pass asks for one more item, or ends with the list of them."""
        compiler, ctx = self.compiler, self.ctx
        _kind, by, src, low, high, require = self._choice(d)
        prompt, args = compiler.prompt(d.prompt, d.prompt_args, ctx)
        key = compiler.fresh("_each")
        self.line(f"L[{key!r}] = G.each_start({by}, {src}, {low}, {high}, {require}, {args})")
        head = self.new()
        self.jump(head)
        self.current = head
        self.line(f"if not G.each_step(F, L[{key!r}], {prompt}):")
        self.line(f"    F['pc'] = {head}")
        self.line("    return 1")
        if target is None:
            self.line(f"L.pop({key!r})")
        else:
            self._target(target, f"L.pop({key!r})['picked']")

    def _call_and_resume(self, fn: str, params: Iterable[A.Param], args: Iterable[A.Expr],
                         target: A.Expr | str | None) -> None:
        """Push rule `fn` as a frame (it may ask a player) and go on here when it returns,
        its value (if any) into `target`."""
        compiler, ctx = self.compiler, self.ctx
        bound = "{" + ", ".join(f"{param.name!r}: {compiler.value(arg, ctx)}"
                                for param, arg in zip(params, args)) + "}"
        nxt = self.new()
        # run at once, in this Python call (G.call_now): on at `nxt` when it ends without
        # waiting (the tests of the blocks between fall through to it), or its code (waiting,
        # pushed) to the run loop, which resumes it and then this frame at `nxt`
        self.line(f"F['pc'] = pc = {nxt}")
        self.line(f"if _code := G.call_now(F, {fn!r}, {bound}): {CALLED}")
        self.current = nxt
        self._target(target, "F.pop('rv', None)")

    def decision(self, d: A.Choose | A.Ask | A.Order) -> str | None:
        """Ask for decision `d`: its line written; or, for a choice of one item with no
        condition and for a question, which a playout answers where it is asked, the call
        that asks it (`G.pick1`, `G.pick_decide`: True when answered) returned for the
        caller to write."""
        compiler, ctx = self.compiler, self.ctx
        if isinstance(d, A.Ask):
            prompt, args = compiler.prompt(d.prompt, d.prompt_args, ctx)
            return (f"G.pick_decide(F, 'ask', {compiler.expr(d.side, ctx)}, [True, False], 1, "
                    f"1, False, {prompt}{last_argument(args)}{self._args_shown(d, args)})")
        if isinstance(d, A.Order):
            self.line(f"G.decide(F, 'order', {compiler.expr(d.by, ctx)}, "
                      f"list({compiler.expr(d.items, ctx)}), 0, 0, False, None, None)")
            return None
        kind, by, src, low, high, require = self._choice(d)
        prompt, args = compiler.prompt(d.prompt, d.prompt_args, ctx)
        # asked even with nothing offered (see engine.dsl.pack.window_body)
        if d.window is not None:
            self.line(f"G.open_window(F, {d.window!r}, {by}, {src}, {prompt})")
            return None
        # options of a type no zone holds, or from a zone the decider sees, are never hidden
        # from the decider: not looked up
        model, checked = compiler.model, compiler.checked
        zoned = ", zoned=False" if not may_lie_in_zones(model, checked, d.source) \
            or compiler.optimize and zone_seen_by(model, checked, d.source, d.by) else ""
        marks, by, src = self._marks(d, by, src)
        if kind == "one" and require == "None":
            if args == "None" and zoned and not marks:  # the commonest: nothing else to it
                return f"G.pick1(F, {by}, {src}, {d.optional!r}, {prompt})"
            return (f"G.pick_decide(F, 'one', {by}, {src}, {low}, {high}, {d.optional!r}, "
                    f"{prompt}{last_argument(args)}{zoned}{self._args_shown(d, args)}"
                    f"{marks})")
        self.line(f"G.decide(F, {kind!r}, {by}, {src}, {low}, {high}, {d.optional!r}, "
                  f"{prompt}, {require}{last_argument(args)}{zoned}{self._args_shown(d, args)}"
                  f"{marks})")
        return None

    def _marks(self, d: A.Choose, by: str, src: str) -> tuple[str, str, str]:
        """G.decide's `idle=` (the options `no effect when` holds for, worked out here, only
        at this decision) and `asked=True` (`always asked`), and the decider and options,
        put in temporaries first when the idle options are read from them."""
        marks = ", asked=True" if d.asked else ""
        if d.idle is None:
            return marks, by, src
        compiler, ctx = self.compiler, self.ctx
        if not is_plain(by):  # the decider is read before the options, as it was
            temporary = compiler.temp()
            self.line(f"{temporary} = {by}")
            by = temporary
        if not is_plain(src):
            options = compiler.temp()
            self.line(f"{options} = {src}")
            src = options
        inner = Context(True, ctx.python_locals | {d.var})
        test = compiler.expr(d.idle, inner)
        return f", idle=[l_{d.var} for l_{d.var} in {src} if {test}]{marks}", by, src

    def _args_shown(self, d: A.Choose | A.Ask, args: str) -> str:
        """`args_zoned=False` for G.decide when no value the prompt names can lie in a zone
        (the decider is shown the records a prompt names: none to look up then)."""
        compiler = self.compiler
        if args == "None" or not compiler.optimize \
                or values_may_lie_in_zones(compiler.model, compiler.checked, d.prompt_args):
            return ""
        return ", args_zoned=False"

    def _choice(self, d: A.Choose) -> tuple[str, str, str, str, str, str]:
        """Code for a choice's kind, decider, options, counts and `require` condition."""
        compiler, ctx = self.compiler, self.ctx
        by = compiler.expr(d.by, ctx) if d.by is not None \
            else f"{compiler.vars_table('active')}['active']['']"
        src = compiler.expr(d.source, ctx)
        if d.where is not None and compiler.optimize:
            if not (is_plain(by) or re.fullmatch(r"PV\['\w+'\]\[''\]", by)):
                temporary = compiler.temp()  # the decider is read before the options, as it was
                self.line(f"{temporary} = {by}")
                by = temporary
            lines, src = compiler.options_loop(d.var, d.where, src, ctx)
            for line in lines:
                self.line(line)
        elif d.where is not None:
            inner = Context(True, ctx.python_locals | {d.var})
            src = f"[l_{d.var} for l_{d.var} in {src} if {compiler.expr(d.where, inner)}]"
        elif isinstance(d.source, A.ListLit):
            pass  # a new list already
        else:
            src = f"list({src})"
        if d.count is None:
            low, high, kind = "1", "1", "one"
        elif d.count.kind == "exact":
            low = high = compiler.expr(d.count.high, ctx)
            kind = "many"
        elif d.count.kind == "up_to":
            low, high, kind = "0", compiler.expr(d.count.high, ctx), "many"
        else:
            if d.count.low is None:  # pragma: no cover - the parser gives a range both ends
                raise AssertionError(d.count)
            low, high = compiler.expr(d.count.low, ctx), compiler.expr(d.count.high, ctx)
            kind = "many"
        return kind, by, src, low, high, self._require(d)

    def _require(self, d: A.Choose) -> str:
        """The choice's `require` condition: a named function over the locals captured now
        and the picks (data, not code), or None."""
        compiler, ctx = self.compiler, self.ctx
        if d.require is None:
            return "None"
        fn = compiler.fresh("require_")
        names = sorted(free_locals(compiler.checked, d.require) - {d.var})
        require_ctx = Context(False, names + [d.var])
        compiler.site(fn, d.require.at.line)
        compiler.extra += [f"def {fn}(G, C, l_{d.var}):", PRELUDE]
        compiler.extra += [f"    l_{n} = C[{n!r}]" for n in names]
        compiler.extra += [f"    return {compiler.expr(d.require, require_ctx)}  "
                           f"# @L{d.require.at.line}", ""]
        return f"({fn!r}, {{{', '.join(f'{n!r}: {ctx.local(n)}' for n in names)}}})"


def _fall_through(block: list[str], index: int) -> list[str]:
    """Block `index` without the `continue` of its last jump when that jump goes forward: the
    flat tests that follow it reach the target block without starting from the first."""
    if len(block) >= 2 and block[-1] == "continue" and block[-2].startswith("pc = ") \
            and int(block[-2][5:]) > index:
        return block[:-1]
    return block
