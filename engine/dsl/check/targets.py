"""Assignment targets: locals, vars, items of lists, var fields of records, event state."""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.actions import ActionChecker
from engine.dsl.check.scope import Scope
from engine.dsl.errors import did_you_mean
from engine.dsl.types import Type


class TargetChecker(ActionChecker):
    """What the left-hand side of `=`, `+=` and `set ... until` is, and its type."""

    def _target(self, t: A.Expr, sc: Scope) -> Type | None:
        """The type `t` holds, or None when it cannot be assigned (reported)."""
        p = sc.path
        if isinstance(t, A.Name):
            local = sc.lookup(t.id)
            if local is not None:
                self.res[id(t)] = ("local", t.id)
                return local
            var = self.model.vars.get(t.id)
            if var is not None:
                if var.params:
                    self.error("E211", f"var '{t.id}' takes {len(var.params)} index(es): "
                               f"{t.id}[...]", p, t.at)
                self.res[id(t)] = ("var", t.id)
                self.not_read.add(id(t))
                return T.from_ast(var.type)
            self.error("E226", f"cannot assign to '{t.id}': declare it with 'let' or 'var'", p,
                       t.at, did_you_mean(t.id, [*sc.names(), *self.model.vars]))
            return None
        if (isinstance(t, A.Index) and isinstance(t.obj, A.Name) and t.obj.id in self.model.vars
                and sc.lookup(t.obj.id) is None and self._indexed_var(t.obj.id)):
            self._expr(t, sc)
            self.not_read.add(id(t))
            return T.from_ast(self.model.vars[t.obj.id].type)
        if isinstance(t, A.Index):
            lt = self._expr(t.obj, sc)
            if isinstance(t.obj, A.Attr) and self.res.get(id(t.obj), ("",))[0] != "field" \
                    and isinstance(self.types.get(id(t.obj.obj)), str) \
                    and self.types[id(t.obj.obj)] in self.model.types:
                return self._field_target(t.obj, sc, self.types[id(t.obj.obj)])  # fixed
            if isinstance(lt, tuple) and lt[0] == "list":
                self._index_args(t, sc)
                self.res[id(t)] = ("list_index",)
                item: Type = lt[1]
                return item
        if isinstance(t, A.Attr):
            event = self._event_ref(t, sc)
            if event is not None:
                return self._set(t, self._ev_field(t, event, sc, write=True))
            return self._field_target(t, sc)
        self.error("E226", "cannot assign to this expression", p, t.at)
        return None

    def _field_target(self, t: A.Attr, sc: Scope, rt: Type | None = None) -> Type | None:
        """`x.f = ...`: f must be a `var` field of x's record type (rt: x's type, when
        already known)."""
        p = sc.path
        if rt is None:
            rt = self._expr(t.obj, sc)
        info = self.model.types.get(rt) if isinstance(rt, str) else None
        if info is None:
            if rt != "any":
                self.error("E214", f"{T.show(rt)} has no fields (looking for '.{t.name}')", p,
                           t.at)
            else:
                self.error("E226", f"cannot tell which record type this is, so '.{t.name}' "
                           "cannot be assigned: read it into a local of a known type first", p,
                           t.at)
            return None
        f = info.fields.get(t.name)
        if f is None:
            self._unknown("E205", f"field of {rt}", t.name, [*info.fields, "id", "name"], p,
                          t.at, extra=self._shadow_note(t, sc))
            return None
        if not f.var:
            self.error("E226", f"record fields are data and cannot change during a game: "
                       f"'{t.name}' of {rt} is fixed", p, t.at,
                       f"declare it 'var {t.name}: {T.show(f.type)}' in type {rt} to change "
                       "it in play")
            return None
        self.res[id(t)] = ("field", rt, t.name)
        return f.type
