"""Calls of procedures, values and built-ins, and how arguments bind to parameters
(by position, then by name; defaults filled in for the compiler).
"""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.builtins import BUILTINS, BuiltinChecker
from engine.dsl.check.scope import Scope
from engine.dsl.errors import did_you_mean
from engine.dsl.types import Type


class CallChecker(BuiltinChecker):
    """Calls and argument binding."""

    def _bind(self, node: A.Call | A.Emit | A.Modify, args: tuple[A.Expr, ...],
              kwargs: tuple[A.KwArg, ...], params: tuple[A.Param, ...], what: str, sc: Scope,
              at: A.Pos) -> None:
        """Match a call's arguments to the parameters: by position, then by name (E283 for
        an unknown name, a parameter given twice, or one left out without a default), and
        keep them in parameter order, defaults filled in, for the compiler."""
        names = [p.name for p in params]
        slots: list[A.Expr | None] = [None] * len(params)
        if len(args) > len(params):
            self.error("E210", f"{what} takes {len(params)} argument(s), got "
                       f"{len(args) + len(kwargs)}", sc.path, at)
        for i, a in enumerate(args):
            if i < len(params):
                slots[i] = a
                self._expect(a, T.from_ast(params[i].type), sc, f"argument {i + 1} of {what}")
            else:
                self._expr(a, sc)
        for k in kwargs:
            if k.name not in names:
                self.error("E283", f"{what} has no parameter '{k.name}' (parameters: "
                           f"{', '.join(names) or 'none'})", sc.path, k.at,
                           did_you_mean(k.name, names))
                self._expr(k.value, sc)
                continue
            i = names.index(k.name)
            if slots[i] is not None:
                self.error("E283", f"'{k.name}' is given twice" + (
                           " (also by position)" if i < len(args) else ""), sc.path, k.at)
                self._expr(k.value, sc)
                continue
            slots[i] = k.value
            self._expect(k.value, T.from_ast(params[i].type), sc, f"argument '{k.name}' of {what}")
        missing = [p.name for p, a in zip(params, slots) if a is None and p.default is None]
        if missing and not kwargs and len(args) <= len(params) and not any(
                p.default is not None for p in params):
            self.error("E210", f"{what} takes {len(params)} argument(s), got {len(args)}",
                       sc.path, at)
        elif missing:
            self.error("E283", f"{what} needs {', '.join(repr(n) for n in missing)}: "
                       f"{'it has' if len(missing) == 1 else 'they have'} no default", sc.path, at)
        self.bound[id(node)] = tuple(a if a is not None else p.default
                                     for p, a in zip(params, slots))

    def _call(self, e: A.Call, sc: Scope, statement: bool) -> Type:
        """A call of a procedure, a value or a built-in, by its name; what it calls is noted
        for the suspension and event-state analyses."""
        m, n = self.model, e.func
        if n in m.procs:
            p = m.procs[n]
            self._bind(e, e.args, e.kwargs, p.params, f"procedure '{n}'", sc, e.at)
            self.calls[sc.fn].add(f"p_{n}")
            self.res[id(e)] = ("proc", n, statement)
            self.proc_calls.append((e, sc.path, statement))
            return T.from_ast(p.returns) if p.returns else "none"
        if n in m.values:
            v = m.values[n]
            self._bind(e, e.args, e.kwargs, v.params, f"value '{n}'", sc, e.at)
            self.res[id(e)] = ("value", n)
            self.uses.setdefault(sc.fn, set()).add(f"value:{n}")
            return T.from_ast(v.type)
        if e.kwargs:  # built-ins take their arguments by position
            if n in BUILTINS:
                self.error("E283", f"'{n}' takes its arguments by position, not by name",
                           sc.path, e.kwargs[0].at)
            for k in e.kwargs:
                self._expr(k.value, sc)
        if n in BUILTINS:
            lo, hi = BUILTINS[n]
            if not lo <= len(e.args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                self.error("E210", f"'{n}' takes {want} argument(s), got {len(e.args)}", sc.path,
                           e.at)
                for a in e.args:
                    if not isinstance(a, A.Lambda):
                        self._expr(a, sc)
                return "any"
            self.res[id(e)] = ("builtin", n)
            return self._builtin(e, sc, statement)
        self._unknown("E206", "procedure or function", n,
                      [*m.procs, *m.values, *BUILTINS], sc.path, e.at)
        for a in e.args:
            if not isinstance(a, A.Lambda):
                self._expr(a, sc)
        return "any"
