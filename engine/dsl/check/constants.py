"""Constants: parameter defaults and consts must not read the game, and consts are
evaluated in an order where each comes after those it needs (E282, E284).
"""
from __future__ import annotations

from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.calls import CallChecker


class ConstantChecker(CallChecker):
    """Parameter defaults, what makes an expression not constant, and the order of consts."""

    def _param_defaults(self, params: tuple[A.Param, ...], path: str, what: str) -> None:
        """Defaults are constants of the parameter's type; none may be missing after one."""
        defaulted = None
        for p in params:
            if p.default is None:
                if defaulted is not None:
                    self.error("E284", f"parameter '{p.name}' of {what} needs a default too, "
                               f"as '{defaulted}' before it has one", path, p.at)
                continue
            defaulted = p.name
            sc = self._scope(f"default:{what}", path, ())
            self._expect(p.default, T.from_ast(p.type), sc, f"the default of '{p.name}'")
            self.constant_exprs.append((p.default, path, f"the default of '{p.name}'", "E284"))

    def _no_defaults(self, params: tuple[A.Param, ...], path: str, what: str) -> None:
        """The indexes of a var or zone have no defaults (E284)."""
        for p in params:
            if p.default is not None:
                self.error("E284", f"an index of {what} has no default: every key exists from "
                           "the start", path, p.default.at)

    def _check_constants(self) -> None:
        """Consts and parameter defaults are worked out without a game: they may not read
        vars, zones or dice, call procedures, or call values that do (or that `modify`
        changes)."""
        for expr, path, what, code in self.constant_exprs:
            found = self._state_read(expr, set())
            if found is not None:
                node, why = found
                self.error(code, f"{what} must be a constant, but {why}", path, node.at,
                           "use literals, consts, records, sides, tables and values that read "
                           "no game state")

    _STATE_BUILTINS = {"roll": "rolls dice", "random_pick": "picks at random",
                       "zone_of": "reads where a card lies",
                       "is_revealed": "reads what is revealed", "contents": "reads a zone",
                       "run": "runs an effect"}

    def _state_read(self, node: Any, seen: set[str]) -> tuple[Any, str] | None:
        """The first part of an expression that depends on the game: (node, why), or None.
        Locals are not: a const or default has none but those of its comprehensions, and a
        value's are its parameters."""
        if isinstance(node, tuple):
            for x in node:
                got = self._state_read(x, seen)
                if got is not None:
                    return got
            return None
        if not attrs.has(type(node)):
            return None
        res = self.res.get(id(node)) if isinstance(node, (A.Name, A.Index, A.Call)) else None
        if res is not None:
            kind = res[0]
            if kind in ("var", "zone"):
                return node, f"it reads {kind} '{res[1]}'"
            if kind == "proc":
                return node, f"it calls procedure '{node.func}'"
            if kind == "builtin" and res[1] in self._STATE_BUILTINS:
                return node, f"'{res[1]}' {self._STATE_BUILTINS[res[1]]}"
            if kind == "value":
                name = res[1]
                if name in self.modified:
                    return node, f"value '{name}' can be changed by 'modify'"
                if name not in seen:
                    seen.add(name)
                    if self._state_read(self.model.values[name].expr, seen) is not None:
                        return node, f"value '{name}' reads the game state"
                args = self.bound.get(id(node), node.args)
                return self._state_read(tuple(a for a in args if a is not None), seen)
        for f in attrs.fields(type(node)):
            if f.name != "at":
                got = self._state_read(getattr(node, f.name), seen)
                if got is not None:
                    return got
        return None

    def _const_order(self) -> list[str]:
        """Consts in an order where each comes after the consts it needs (also through the
        values it calls), for evaluation when the pack loads; a cycle is E282."""
        deps = {n: self._const_deps(d.expr, set()) for n, d in self.model.consts.items()}
        order: list[str] = []
        state: dict[str, int] = {}  # 1 visiting, 2 done

        def visit(n: str, chain: list[str]) -> None:
            if state.get(n) == 2:
                return
            if state.get(n) == 1:
                cycle = chain[chain.index(n):] + [n]
                self.error("E282", f"const '{n}' depends on itself ({' -> '.join(cycle)})",
                           self.model.decl_paths[n], self.model.consts[n].at)
                return
            state[n] = 1
            for d in sorted(deps.get(n, ())):
                visit(d, chain + [n])
            state[n] = 2
            order.append(n)
        for n in self.model.consts:
            visit(n, [])
        return order

    def _const_deps(self, node: Any, seen: set[str]) -> set[str]:
        """The consts an expression needs, directly and through the values it calls."""
        out: set[str] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if isinstance(n, tuple):
                stack.extend(n)
                continue
            if not attrs.has(type(n)):
                continue
            res = self.res.get(id(n)) if isinstance(n, (A.Name, A.Call)) else None
            if res is not None and res[0] == "kconst":
                out.add(res[1])
            elif res is not None and res[0] == "value":
                stack.extend(a for a in self.bound.get(id(n), ()) if a is not None)
                if res[1] not in seen:
                    seen.add(res[1])
                    stack.append(self.model.values[res[1]].expr)
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)) if f.name != "at")
        return out
