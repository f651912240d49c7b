"""Declarations that are not rules with a body: enums, vars, record fields, zones, events (their
parameters and state fields), values and the pack's checks."""
from __future__ import annotations

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.check.constants import ConstantChecker
from engine.dsl.errors import did_you_mean
from engine.dsl.model import FieldInfo, TypeInfo


class DeclarationChecker(ConstantChecker):
    """Each declaration of the pack that holds no statements, in its own scope."""

    def _check_enum(self, decl: A.EnumDecl, path: str) -> None:
        """An enum names each of its values once (E281)."""
        seen: set[str] = set()
        for v in decl.values:
            if v.name in seen:
                self.error("E281", f"'{v.name}' is a value of enum '{decl.name}' twice", path,
                           v.at)
            seen.add(v.name)

    def _check_var(self, name: str, decl: A.VarDecl) -> None:
        """A var: its type, default and bounds; indexes without defaults; a private var is
        indexed by the side that may see it first."""
        path = self.model.decl_paths[name]
        sc = self._scope(f"var:{name}", path, decl.params)
        t = T.from_ast(decl.type)
        self._check_type_expr(decl.type, path)
        if decl.default is not None:
            self._expect(decl.default, t, sc, "the default")
        if decl.bounds:
            for b in decl.bounds:
                self._expect(b, "int", self._scope(f"var:{name}", path, ()), "a bound")
        self._no_defaults(decl.params, path, f"var '{name}'")
        if decl.visibility == "private" and not self._first_param_is_side(decl.params):
            self.error("E230", f"private var '{name}' needs a first parameter of type side "
                       "(whose side may see it)", path, decl.at)

    def _first_param_is_side(self, params: tuple[A.Param, ...]) -> bool:
        return bool(params) and T.from_ast(params[0].type) == "side"

    def _check_fields(self, info: TypeInfo) -> None:
        """The fields of record type `info`, those kept in the game state besides."""
        for f in info.fields.values():
            self._check_field_type(f)
            if f.var or info.created:
                self._check_state_field(info, f)

    def _check_field_type(self, f: FieldInfo) -> None:
        """A record field's type names a base type, a declared record type or an enum; the
        default of an enum field is one of its values."""
        t = f.type
        while isinstance(t, tuple):  # list of X
            t = t[1]
        if t not in T.BASE and t not in self.model.types and t not in self.model.enums:
            site = f.type_site or f.site
            self._unknown("E202", "type", t, [*T.BASE, *self.model.types, *self.model.enums],
                          site.path, site)
        if t in self.model.enums and f.default is not None:
            values = self.model.enum_values(t)
            for v in f.default if isinstance(f.default, list) else [f.default]:
                if v not in values:
                    self.error("E280", f"the default {v!r} is not a value of {t} (values: "
                               f"{', '.join(values)})", f.site.path, f.site,
                               did_you_mean(str(v), values))

    def _check_state_field(self, info: TypeInfo, f: FieldInfo) -> None:
        """A field kept in the game state (a `var` field, or any field of a created type):
        plain data of a checked type; a var field's default and bounds are rules read with
        `self` the record."""
        site = f.type_site or f.site
        if f.type in ("effect", "triggers"):
            what = f"var field '{f.name}'" if f.var else f"field '{f.name}' of created type " \
                f"'{info.name}'"
            self.error("E274", f"{what} cannot hold {f.type}: rules are written in record "
                       "files, which records made in play do not have", site.path, site)
            return
        decl = f.decl
        if decl is None:
            return
        sc = self._scope(f"field:{info.name}.{f.name}", site.path, ())
        sc.bind("self", info.name)
        if decl.default is not None and f.var:
            self._expect(decl.default, f.type, sc, "the default")
        if decl.bounds is not None:
            if f.type != "int":
                self.error("E274", f"bounds need an int field; '{f.name}' is "
                           f"{T.show(f.type)}", site.path, decl.bounds[0].at)
            for b in decl.bounds:
                self._expect(b, "int", sc, "a bound")

    def _check_zone(self, name: str, zone: A.ZoneDecl) -> None:
        """A zone: indexes without defaults, each a side, an entity type or an enum (every
        zone is made at setup); what it holds; a private zone is indexed by a side first."""
        model = self.model
        path = model.decl_paths[name]
        self._no_defaults(zone.params, path, f"zone '{name}'")
        for p in zone.params:
            self._check_type_expr(p.type, path)
            if T.from_ast(p.type) not in ["side", *model.types, *model.enums]:
                self.error("E231", f"zone parameter '{p.name}' must be a side, an entity "
                           "type or an enum, so that every zone can be made at setup", path,
                           p.at)
        if zone.of and zone.of not in model.types:
            self._unknown("E202", "type", zone.of, model.types, path, zone.at)
        if "private" in zone.flags and not self._first_param_is_side(zone.params):
            self.error("E230", f"private zone '{name}' needs a first parameter of type side",
                       path, zone.at)

    def _check_event(self, name: str, event: A.EventDecl) -> None:
        """An event: its parameters' types and defaults, and its state fields."""
        path = self.model.decl_paths[name]
        for p in event.params:
            self._check_type_expr(p.type, path)
        self._param_defaults(event.params, path, f"event '{name}'")
        if event.state:
            self._event_state(name, event, path)

    def _event_state(self, name: str, e: A.EventDecl, path: str) -> None:
        """The `with` fields of an event: known types, once each, defaults that fit."""
        sc = self._scope(f"xstate:{name}", path, ())  # the parameters' types are checked
        sc.vars[0].update({p.name: T.from_ast(p.type) for p in e.params})
        sc.no_evstate = ("a state's defaults are computed before the event starts, where its "
                         "state does not exist yet")
        seen: set[str] = set()
        for f in e.state:
            self._check_type_expr(f.type, path)
            t = T.from_ast(f.type)
            if f.name in seen:
                self.error("E260", f"event '{name}' declares state field '{f.name}' twice", path,
                           f.at)
            seen.add(f.name)
            if t in ("effect", "triggers"):
                self.error("E260", f"an event's state holds game data, not {t}", path, f.type.at)
            if f.default is not None:
                self._expect(f.default, t, sc, f"the default of {name}.{f.name}")

    def _check_value(self, name: str, value: A.ValueDecl) -> None:
        """A value: its expression has its declared type; its parameters' defaults."""
        path = self.model.decl_paths[name]
        sc = self._scope(f"value:{name}", path, value.params)
        self._expect(value.expr, T.from_ast(value.type), sc, "the value")
        self._param_defaults(value.params, path, f"value '{name}'")

    def _pack_check(self, decl: A.CheckDecl, path: str) -> None:
        """A `check` of the pack's data: a condition."""
        sc = self._scope("check", path, ())
        self._expect(decl.expr, "bool", sc, "a check")
