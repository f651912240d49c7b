"""Actions, the right-hand sides that do more than compute: choose, ask, order, open a
window, create a record, draw.
"""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.calls import CallChecker
from engine.dsl.check.idle import unseen_reads
from engine.dsl.check.scope import Scope
from engine.dsl.parser.templates import counted
from engine.dsl.types import Type


class ActionChecker(CallChecker):
    """Actions: what asks a player (noted for the suspension analysis) and what makes records."""

    def _rhs(self, r: A.Rhs, sc: Scope) -> Type:
        """The type of a right-hand side: an action, or an expression (a call as a statement)."""
        if isinstance(r, A.Choose):
            return self._choose(r, sc)
        if isinstance(r, A.Open):
            return self._open(r, sc)
        if isinstance(r, A.Ask):
            self._decider(r.side, sc)
            self.direct_suspend.add(sc.fn)
            self._prompt_args(r.prompt_args, sc, r.prompt)
            return "bool"
        if isinstance(r, A.Order):
            t = self._expr(r.items, sc)
            self._decider(r.by, sc)
            self.direct_suspend.add(sc.fn)
            et = T.elem(t)
            if et is None:
                self.error("E225", f"cannot order {T.show(t)}", sc.path, r.items.at)
            return ("list", et or "any")
        if isinstance(r, A.Create):
            return self._create(r, sc)
        if isinstance(r, A.Draw):
            self._expect(r.count, "int", sc, "'draw'")
            src = self._expr(r.source, sc)
            dst = self._expr(r.dest, sc)
            for z, at in ((src, r.source.at), (dst, r.dest.at)):
                if not (isinstance(z, tuple) and z[0] == "zone"):
                    self.error("E222", f"'draw' needs zones, got {T.show(z)}", sc.path, at)
            return ("list", src[1] if isinstance(src, tuple) else "any")
        return self._expr(r, sc, statement=True)

    def _rhs_as(self, r: A.Rhs, want: Type, sc: Scope) -> Type:
        """The type of a right-hand side that should be `want`: a text literal becomes a
        value of an enum there (E280 if it is none of its values)."""
        if isinstance(r, A.ACTIONS):
            return self._rhs(r, sc)
        got = self._coerce(r, want, sc)
        return got if got is not None else self._rhs(r, sc)

    def _open(self, o: A.Open, sc: Scope) -> Type:
        """`open WINDOW(args)`: what the window returns; whoever opens one may wait."""
        w = self.model.windows.get(o.window)
        if w is None:
            self._unknown("E267", "window", o.window, self.model.windows, sc.path, o.at)
            for a in o.args:
                self._expr(a, sc)
            return "any"
        self._args(o.args, [T.from_ast(p.type) for p in w.decl.params],
                   f"window '{o.window}'", sc, o.at)
        self.calls[sc.fn].add(w.fn)  # a window always asks: whoever opens one may wait
        return self.window_types.get(o.window, "any")

    def _create(self, c: A.Create, sc: Scope) -> Type:
        """`create T {fields} in zone`: a record of a created type, every field without a
        default given, each of its type."""
        p = sc.path
        info = self.model.types.get(c.type)
        for fi in c.fields:
            self._expr(fi.value, sc)
        if c.dest is not None:
            self._zone_dest(c.dest, c.type, sc, "create")
        if info is None:
            self._unknown("E202", "type", c.type, [t for t, i in self.model.types.items()
                                                    if i.created] or self.model.types, p, c.at)
            return "any"
        if not info.created:
            self.error("E270", f"records of type '{c.type}' come from the pack's record files; "
                       f"only a type declared 'type {c.type} created' has records made in play",
                       p, c.at)
            return c.type
        given = set()
        for fi in c.fields:
            f = info.fields.get(fi.name)
            given.add(fi.name)
            if f is None:
                self._unknown("E205", f"field of {c.type}", fi.name, info.fields, p, fi.at)
            elif not T.compatible(f.type, self.types.get(id(fi.value), "any")):
                self.error("E220", f"field '{fi.name}' of {c.type} is {T.show(f.type)}, got "
                           f"{T.show(self.types.get(id(fi.value), 'any'))}", p, fi.value.at)
        missing = [f.name for f in info.fields.values()
                   if not f.optional and f.name not in given]
        if missing:
            self.error("E272", f"'create {c.type}' needs {', '.join(missing)} (field"
                       f"{'s' * (len(missing) > 1)} without a default)", p, c.at)
        return c.type

    def _zone_dest(self, dest: A.Expr, holds: str, sc: Scope, verb: str) -> None:
        """The zone `verb` puts a record of type `holds` in."""
        z = self._expr(dest, sc)
        if not (isinstance(z, tuple) and z[0] == "zone") and z != "any":
            self.error("E222", f"'{verb}' needs a zone to put it in, got {T.show(z)}", sc.path,
                       dest.at)
        elif isinstance(z, tuple) and z[1] not in ("any", holds):
            self.error("E220", f"a zone of {z[1]} cannot hold a {holds}", sc.path, dest.at)

    def _prompt_args(self, args: tuple[A.Expr, ...], sc: Scope, text: str | None) -> None:
        """The values of a template's placeholders (a prompt, a log text, a reason): one
        that chooses a plural form by its value (`{n:# CU|# CUs}`) must be a number."""
        counts = counted(text) if text is not None and args else []
        for i, a in enumerate(args):
            if i < len(counts) and counts[i]:
                self._expect(a, "int", sc, "the count of a plural choice")
            else:
                self._expr(a, sc)

    def _decider(self, e: A.Expr | None, sc: Scope) -> None:
        if e is not None:
            self._expect(e, "side", sc, "the deciding side ('by')")

    def _choose(self, c: A.Choose, sc: Scope) -> Type:
        """`choose [count] x from source [by side] [where ...] [require ...] [no effect when
        ...] [always asked]`: an item, or a list of them with a count; it asks a player."""
        self.direct_suspend.add(sc.fn)
        src = self._expr(c.source, sc)
        et = T.elem(src)
        if et is None:
            self.error("E225", f"cannot choose from {T.show(src)}", sc.path, c.source.at)
            et = "any"
        if c.by is None:
            if "active" not in self.model.vars:
                self.error("E227", "say who decides with 'by <side>' (or declare 'var active: "
                           "side')", sc.path, c.at)
        else:
            self._decider(c.by, sc)
        if c.count is not None:
            if c.count.low is not None:
                self._expect(c.count.low, "int", sc, "a count")
            self._expect(c.count.high, "int", sc, "a count")
        elif c.each:
            self.error("E286", "'one at a time' picks several items: give the count, as in "
                       f"'choose 3 {c.var} from ... one at a time' or 'choose up to 3 ...'",
                       sc.path, c.at)
        if c.asked and c.each:
            self.error("E288", "'always asked' is for a choice asked once: each pick of a "
                       "one-at-a-time choice is offered on its own", sc.path, c.at)
        self._prompt_args(c.prompt_args, sc, c.prompt)
        if c.where is not None:
            sc.vars.append({c.var: et})
            self._expect(c.where, "bool", sc, "a 'where' filter")
            sc.vars.pop()
        if c.idle is not None:
            if c.count is not None:  # which pick of a set would do nothing is not per option
                self.error("E287", "'no effect when' marks the options of a choice of one "
                           "item: a choice with a count cannot say which of its sets do "
                           "nothing", sc.path, c.idle.at)
            sc.vars.append({c.var: et})
            self._expect(c.idle, "bool", sc, "a 'no effect when' condition")
            decider = c.by if c.by is not None else A.Name("active")
            for what, at in unseen_reads(self.model, c.idle, decider,
                                         lambda n: sc.lookup(n) is not None):
                self.warn("W289", f"the 'no effect when' condition reads the {what}, which "
                          "the deciding side may not see: the marks would tell it",
                          sc.path, at)
            sc.vars.pop()
        result: Type = et if c.count is None else ("list", et)
        if c.require is not None:
            sc.vars.append({c.var: result})
            self._expect(c.require, "bool", sc, "a 'require' condition")
            sc.vars.pop()
        return result
