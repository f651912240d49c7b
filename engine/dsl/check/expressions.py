"""Expressions: the type of each, what each name refers to, text read as an enum's value."""
from __future__ import annotations

from abc import ABC, abstractmethod

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.events import EventStateChecker
from engine.dsl.check.scope import Scope
from engine.dsl.errors import did_you_mean
from engine.dsl.types import Type


class ExpressionChecker(EventStateChecker, ABC):
    """The types of expressions and what their names refer to."""

    @abstractmethod
    def _call(self, e: A.Call, sc: Scope, statement: bool) -> Type:
        """The type of the call `e`, its arguments checked (engine.dsl.check.calls, which
        builds on this class: a call is an expression made of expressions)."""

    def _expect(self, e: A.Expr, want: Type, sc: Scope, what: str) -> Type:
        """The type of `e`, which must fit `want` (E220); `what` names it in the message.
        Any value is a truth value; where a table is expected, a table's id names it."""
        if want == "table" and isinstance(e, A.Name) and self._table_id(e.id, sc):
            self.res[id(e)] = ("const", e.id)  # where a table is expected, tables are named
            return self._set(e, "table")
        got = self._coerce(e, want, sc)
        if got is not None:
            return got
        got = self._expr(e, sc)
        if want == "bool":
            return got  # any value is usable as a truth value; none and 0 are false
        if not T.compatible(want, got):
            self.error("E220", f"{what} must be {T.show(want)}, got {T.show(got)}", sc.path, e.at)
        return got

    def _table_id(self, n: str, sc: Scope) -> bool:
        rec = self.model.records.get(n)
        return rec is not None and rec.type == "table" and sc.lookup(n) is None

    @staticmethod
    def _texty(e: A.Expr) -> bool:
        """Is `e` text written out: a string, a list of them, or a choice between them?"""
        if isinstance(e, A.Str):
            return True
        if isinstance(e, A.ListLit):
            return bool(e.items) and all(ExpressionChecker._texty(i) for i in e.items)
        if isinstance(e, A.IfExp):
            return ExpressionChecker._texty(e.then) and ExpressionChecker._texty(e.orelse)
        return False

    def _coerce(self, e: A.Expr, want: Type, sc: Scope) -> Type | None:
        """Where a value of enum E is expected, a string literal is one of E's values
        (E280 with a did-you-mean if not); so are the items of a list literal where a
        list of E is expected. Returns the type given, or None when `e` is no such literal."""
        enum = self._enum(want)
        if enum is not None and isinstance(e, A.Str):
            values = self.model.enum_values(enum)
            if e.value not in values:
                self.error("E280", f"'{e.value}' is not a value of {enum} (values: "
                           f"{', '.join(values)})", sc.path, e.at, did_you_mean(e.value, values))
            return self._set(e, enum)
        if isinstance(e, A.IfExp) and (enum is not None or self._enum(T.elem(want))) \
                and (self._texty(e.then) or self._texty(e.orelse)):
            self._expect(e.cond, "bool", sc, "a condition")
            for branch in (e.then, e.orelse):
                self._expect(branch, want, sc, "a branch")
            return self._set(e, want)
        if isinstance(e, A.ListLit) and isinstance(want, tuple) and want[0] == "list" \
                and self._enum(want[1]) and self._texty(e):
            for item in e.items:
                self._coerce(item, want[1], sc)
            return self._set(e, ("list", want[1]))
        return None

    def _expr(self, e: A.Expr, sc: Scope, statement: bool = False) -> Type:
        """The type of `e` (a call made as a statement when `statement`), noted for the
        compiler."""
        return self._set(e, self._expr_type(e, sc, statement))

    def _expr_type(self, e: A.Expr, sc: Scope, statement: bool) -> Type:
        """The type of `e`, by its form."""
        match e:
            case A.Int():
                return "int"
            case A.Str():
                return "text"
            case A.Bool():
                return "bool"
            case A.NoneLit():
                return "none"
            case A.Name():
                return self._name(e, sc)
            case A.Index():
                return self._index(e, sc)
            case A.Attr():
                return self._attr(e, sc)
            case A.Call():
                return self._call(e, sc, statement)
            case A.BinOp():
                return self._binop(e, sc)
            case A.Compare():
                return self._compare(e, sc)
            case A.BoolOp():
                for i in e.items:
                    self._expr(i, sc)
                return "bool"
            case A.Not():
                self._expr(e.expr, sc)
                return "bool"
            case A.Neg():
                t = self._expr(e.expr, sc)
                if t not in ("int", "any"):
                    self.error("E220", f"'-' needs an int, got {T.show(t)}", sc.path, e.at)
                return "int"
            case A.ListLit():
                items: Type = "none"
                for i in e.items:
                    items = T.unify(items, self._expr(i, sc))
                return ("list", "any" if items == "none" else items)
            case A.Comprehension():
                sc.vars.append({e.var: self._loop_elem(e.source, sc)})
                if e.cond is not None:
                    self._expect(e.cond, "bool", sc, "a filter")
                out = self._expr(e.expr, sc)
                sc.vars.pop()
                return ("list", out)
            case A.IfExp():
                self._expect(e.cond, "bool", sc, "a condition")
                return T.unify(self._expr(e.then, sc), self._expr(e.orelse, sc))
            case A.Lambda():
                self.error("E228", "'x => ...' is only allowed as an argument of a graph query "
                           "or sort", sc.path, e.at)
                return "any"
        raise AssertionError(f"unknown expression {e!r}")  # pragma: no cover

    def _binop(self, e: A.BinOp, sc: Scope) -> Type:
        """Arithmetic on ints; `+` also joins lists and texts."""
        lt, rt = self._expr(e.left, sc), self._expr(e.right, sc)
        if e.op == "+" and isinstance(lt, tuple) and isinstance(rt, tuple):
            return ("list", T.unify(lt[1], rt[1]))
        if e.op == "+" and lt == rt == "text":
            return "text"
        for t, side in ((lt, e.left), (rt, e.right)):
            if t not in ("int", "any"):
                self.error("E220", f"'{e.op}' needs ints, got {T.show(t)}", sc.path, side.at)
        return "int"

    def _compare(self, e: A.Compare, sc: Scope) -> Type:
        """A comparison that can be true: membership in a list or zone of a fitting type,
        equality of fitting types, order of ints."""
        p = sc.path
        lt, rt = self._compared(e, sc)
        if e.op in ("in", "not in"):
            et = T.elem(rt)
            if et is None:
                self.error("E225", f"'{e.op}' needs a list or zone on the right, got "
                           f"{T.show(rt)}", p, e.right.at)
            elif not T.compatible(et, lt) and not T.compatible(lt, et):
                self.error("E220", f"{T.show(lt)} is never in {T.show(rt)}", p, e.at)
        elif e.op in ("==", "!="):
            if not (T.compatible(lt, rt) or T.compatible(rt, lt)):
                self.error("E220", f"comparing {T.show(lt)} with {T.show(rt)} is always "
                           f"{'false' if e.op == '==' else 'true'}", p, e.at)
        else:
            for t, side in ((lt, e.left), (rt, e.right)):
                if t not in ("int", "any"):
                    self.error("E220", f"'{e.op}' needs ints, got {T.show(t)}", p, side.at)
        return "bool"

    def _compared(self, e: A.Compare, sc: Scope) -> tuple[Type, Type]:
        """The types of both sides of a comparison: text written out on one side is read
        as values of the enum on the other (`s.kind == "plain"`, `k in ["a", "b"]`)."""
        member = e.op in ("in", "not in")
        if self._texty(e.right) and not self._texty(e.left):
            lt = self._expr(e.left, sc)
            want = ("list", lt) if member else lt
            rt = self._coerce(e.right, want, sc)
            return lt, rt if rt is not None else self._expr(e.right, sc)
        if self._texty(e.left) and not self._texty(e.right):
            rt = self._expr(e.right, sc)
            want_left = T.elem(rt) if member else rt
            left = self._coerce(e.left, want_left, sc) if want_left is not None else None
            return left if left is not None else self._expr(e.left, sc), rt
        return self._expr(e.left, sc), self._expr(e.right, sc)

    def _loop_elem(self, source: A.Expr, sc: Scope) -> Type:
        """The type of the loop variable over `source` (a list or zone)."""
        src = self._expr(source, sc)
        et = T.elem(src)
        if et is None:
            self.error("E225", f"cannot loop over {T.show(src)}", sc.path, source.at)
            return "any"
        return et

    def _name(self, e: A.Name, sc: Scope) -> Type:
        """What a bare name refers to, in order: a local, a const, an enum (all its values),
        `self`, a var, a zone, a side, a record, a type (all its records), a graph,
        `sides`; or why it is none of them."""
        m, n = self.model, e.id
        local = sc.lookup(n)
        if local is not None:
            self.res[id(e)] = ("local", n)
            sc.mark_read(n)
            return local
        if n in m.consts:
            self.res[id(e)] = ("kconst", n)
            return self._const_type(n)
        if n in m.enums:
            self.res[id(e)] = ("enum_all", n)
            return ("list", n)
        if n == "self" and sc.self_record is not None:
            self.res[id(e)] = ("const", sc.self_record)
            return sc.self_type or "any"
        if n in m.vars:
            v = m.vars[n]
            if v.params:
                self.error("E211", f"var '{n}' needs {len(v.params)} index(es): {n}[...]",
                           sc.path, e.at)
            self.res[id(e)] = ("var", n)
            return T.from_ast(v.type)
        if n in m.zones:
            z = m.zones[n]
            if z.params:
                self.error("E211", f"zone '{n}' needs {len(z.params)} index(es): {n}[...]",
                           sc.path, e.at)
            self.res[id(e)] = ("zone", n)
            return ("zone", z.of or "any")
        if n in m.sides:
            self.res[id(e)] = ("const", n)
            return "side"
        if n in m.records and not m.own_namespace(m.records[n].type):
            self.res[id(e)] = ("const", n)
            return m.records[n].type
        if n in m.types:
            self.res[id(e)] = ("all", n)
            return ("list", n)
        if n in m.graphs:
            self.res[id(e)] = ("const", n)
            return "graph"
        if n == "sides":
            self.res[id(e)] = ("sides",)
            return ("list", "side")
        if n in m.events:
            state = m.events[n].state
            self.error("E262", f"'{n}' is an event, not a value" + (
                f": read its state as {n}.{state[0].name}" if state else ""), sc.path, e.at)
            return "any"
        if n in m.records and (n not in m.procs and n not in m.values):
            t = m.records[n].type
            what = ("a table: its id names it only where a table is expected" if t == "table"
                    else f"a glossary term ({t}): terms are no names in rules")
            self.error("E339", f"'{n}' is {what}", sc.path, e.at,
                       f"write {t}.{n}" + (f", or name it where a table is expected: "
                                           f"lookup({n}, ...)" if t == "table" else ""))
            return "any"
        if n in m.procs or n in m.values:
            self.error("E212", f"'{n}' is a {'procedure' if n in m.procs else 'value'}: call it "
                       f"as {n}(...)", sc.path, e.at)
            return "any"
        self._unknown("E201", "name", n, [*sc.names(), *m.global_names(), "sides"], sc.path, e.at)
        return "any"

    def _const_type(self, name: str) -> Type:
        """The type of const `name`, checking its declaration the first time it is asked."""
        if name in self.const_types:
            return self.const_types[name]
        decl, path = self.model.consts[name], self.model.decl_paths[name]
        if name in self._const_busy:
            chain = " -> ".join(self._const_busy[self._const_busy.index(name):] + [name])
            self.error("E282", f"const '{name}' is defined by itself ({chain})", path, decl.at)
            return "any"
        self._const_busy.append(name)
        sc = self._scope(f"const:{name}", path, ())
        if decl.type is not None:
            self._check_type_expr(decl.type, path)
            t = T.from_ast(decl.type)
            self._expect(decl.expr, t, sc, f"const '{name}'")
        else:
            t = self._expr(decl.expr, sc)
            if t == "none":
                self.error("E282", f"give const '{name}' a type: const {name}: T? = none", path,
                           decl.at)
                t = "any"
        self._const_busy.pop()
        self.constant_exprs.append((decl.expr, path, f"const '{name}'", "E282"))
        self.const_types[name] = t
        return t

    def _indexed_var(self, name: str) -> bool:
        """Is `name[...]` an index into the var (not an item of a list held in it)?"""
        v = self.model.vars[name]
        return bool(v.params) or not isinstance(T.from_ast(v.type), tuple)

    def _index_args(self, e: A.Index, sc: Scope) -> None:
        for a in e.args:
            self._expr(a, sc)

    def _index(self, e: A.Index, sc: Scope) -> Type:
        """`var[i]`, `zone[i]` by their indexes, or an item of a list."""
        m = self.model
        if isinstance(e.obj, A.Name) and sc.lookup(e.obj.id) is None:
            n = e.obj.id
            if n in m.vars and self._indexed_var(n):
                v = m.vars[n]
                self._args(e.args, [T.from_ast(p.type) for p in v.params], f"var '{n}'", sc, e.at)
                self.res[id(e)] = ("var", n)
                return T.from_ast(v.type)
            if n in m.zones:
                z = m.zones[n]
                self._args(e.args, [T.from_ast(p.type) for p in z.params], f"zone '{n}'", sc,
                           e.at)
                self.res[id(e)] = ("zone", n)
                return ("zone", z.of or "any")
        t = self._expr(e.obj, sc)
        self._index_args(e, sc)
        if isinstance(t, tuple) and t[0] == "list" and len(e.args) == 1:
            if self.types.get(id(e.args[0])) not in ("int", "any"):
                self.error("E220", "a list index must be an int", sc.path, e.args[0].at)
            self.res[id(e)] = ("list_index",)
            item: Type = t[1]
            return item
        if t != "any":
            self.error("E213", f"cannot index {T.show(t)}", sc.path, e.at)
        self.res[id(e)] = ("list_index",)
        return "any"

    def _attr(self, e: A.Attr, sc: Scope) -> Type:
        """`x.name`: event state, `type.id`, an enum's value, or a field of a record."""
        event = self._event_ref(e, sc)
        if event is not None:
            return self._ev_field(e, event, sc, write=False)
        qualified = self._qualified(e, sc)
        if qualified is not None:
            return qualified
        o = e.obj
        if isinstance(o, A.Name) and o.id in self.model.enums and sc.lookup(o.id) is None:
            values = self.model.enum_values(o.id)  # `kind.plain`: a value of enum `kind`
            if e.name not in values:
                self.error("E280", f"enum {o.id} has no value '{e.name}' (values: "
                           f"{', '.join(values)})", sc.path, e.at, did_you_mean(e.name, values))
            self.res[id(e)] = ("enum_value", e.name)
            return o.id
        t = self._expr(e.obj, sc)
        if e.name in ("id", "name") and isinstance(t, str) and t in self.model.types:
            return "text"  # `name` is the record's English name, or its id
        if t == "any":
            return "any"
        info = self.model.types.get(t) if isinstance(t, str) else None
        if info is None:
            self.error("E214", f"{T.show(t)} has no fields (looking for '.{e.name}')"
                       f"{self._shadow_note(e, sc)}", sc.path, e.at)
            return "any"
        f = info.fields.get(e.name)
        if f is None:
            self._unknown("E205", f"field of {t}", e.name, [*info.fields, "id", "name"], sc.path,
                          e.at, extra=self._shadow_note(e, sc))
            return "any"
        if f.var:
            self.res[id(e)] = ("field", t, e.name)  # `x.f[i] = v` stores the new list back
        return f.type

    def _qualified(self, e: A.Attr, sc: Scope) -> Type | None:
        """`type.id`: the record `id` of that type (how rules name tables and glossary
        terms outside their own places); None when `e` is no such form."""
        obj, types = e.obj, self.model.types
        if not (isinstance(obj, A.Name) and obj.id in types and sc.lookup(obj.id) is None
                and e.name not in ("id", "name")):
            return None
        rec = self.model.records.get(e.name)
        self._set(obj, ("list", obj.id))
        self.res[id(obj)] = ("all", obj.id)
        self.not_read.add(id(obj))  # names one record of the type, not all of them
        if rec is None or rec.type != obj.id:
            if e.name not in self.model.poisoned:  # else: reported where it is broken
                self.error("E339", f"{obj.id}.{e.name}: no {obj.id} record has the id "
                           f"'{e.name}'", sc.path, e.at,
                           did_you_mean(e.name, self.model.by_type.get(obj.id, [])))
            return "any"
        self.res[id(e)] = ("const", e.name)
        return obj.id

    def _args(self, args: tuple[A.Expr, ...], want: list[Type], what: str, sc: Scope,
              at: A.Pos) -> list[Type]:
        """Arguments by position only, each of the type wanted (E210 for a wrong count)."""
        if len(args) != len(want):
            self.error("E210", f"{what} takes {len(want)} argument(s), got {len(args)}",
                       sc.path, at)
        got = []
        for i, a in enumerate(args):
            if i < len(want):
                got.append(self._expect(a, want[i], sc, f"argument {i + 1} of {what}"))
            else:
                got.append(self._expr(a, sc))
        return got
