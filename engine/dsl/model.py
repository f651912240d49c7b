"""The pack's symbol table: declarations from `.rules` files and records from YAML files.

Built once per pack by `engine.dsl.pack`, then read by the checker and the compiler.
"""
from __future__ import annotations

from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl.types import Type


@attrs.define
class Site:
    """Where something was written, for diagnostics."""

    path: str
    line: int = 0
    col: int = 0
    end_col: int | None = None


@attrs.define
class FieldInfo:
    name: str
    type: Type
    optional: bool
    default: Any
    site: Site
    type_site: Site | None = None  # where the field's type is written
    var: bool = False  # `var`: its value changes in play and lives in the game state
    decl: Any = None  # the FieldDecl (a var field's default and bounds are expressions)


@attrs.define
class TypeInfo:
    name: str
    fields: dict[str, FieldInfo]
    site: Site
    created: bool = False  # `type T created`: records made by rules in play, not in YAML

    @property
    def var_fields(self) -> list[str]:
        return [f.name for f in self.fields.values() if f.var]

    @property
    def in_state(self) -> bool:
        """Do records of this type keep fields in the game state (`G.f`)?"""
        return self.created or any(f.var for f in self.fields.values())


@attrs.define
class Record:
    id: str
    type: str
    data: dict[str, Any]
    site: Site
    field_sites: dict[str, Site] = attrs.Factory(dict)


@attrs.define
class Effect:
    """A statement block written in a record field (type `effect`)."""

    record: str
    field: str
    type: str
    body: tuple[A.Stmt, ...]
    site: Site

    @property
    def fn(self) -> str:
        # the field's length keeps names apart: field a__b on c and field a on b__c differ
        return f"x{len(self.field)}_{self.field}_{self.record}"


@attrs.define
class Trigger:
    decl: A.TriggerDecl
    path: str
    index: int  # order of declaration across the pack
    record: str | None = None  # written in this record's `triggers` field: `self` is it
    record_type: str | None = None
    window: str | None = None  # made by this window's `before e` / `after e` clause

    @property
    def fn(self) -> str:
        return f"t{self.index}_{self.decl.kind}_{self.decl.event}"


@attrs.define
class Window:
    """A `window` declaration and the rule it runs, made from its clauses (engine.dsl.pack):
    ask `by` (always, with a pass option) for one of the offered records; move the one
    played `to` its zone, run its `effect` field, and return it (none on a pass)."""

    decl: A.WindowDecl
    path: str
    body: tuple[A.Stmt, ...]

    @property
    def fn(self) -> str:
        return f"w_{self.decl.name}"


@attrs.define
class Disagreement:
    """A record's `disagree:` entry: another source gives `field` another value."""

    record: str
    type: str
    field: str  # a field of the record's type, or "name"
    own: Any  # the value this pack uses
    value: Any  # what the other source says (None: nothing / none)
    has_value: bool  # False when the entry gives no `value:` at all
    source: str
    note: str | None
    site: Site  # the record (its id)
    entry: Site  # the `disagree:` entry itself


@attrs.define
class PackModel:
    id: str
    sides: list[str]
    root: str = ""  # the pack directory; generated code names files relative to it
    playable: bool = True  # pack.yaml `playable: false`: records and checks only, no game yet
    types: dict[str, TypeInfo] = attrs.Factory(dict)
    records: dict[str, Record] = attrs.Factory(dict)
    by_type: dict[str, list[str]] = attrs.Factory(dict)
    vars: dict[str, A.VarDecl] = attrs.Factory(dict)
    zones: dict[str, A.ZoneDecl] = attrs.Factory(dict)
    events: dict[str, A.EventDecl] = attrs.Factory(dict)
    procs: dict[str, A.ProcDecl] = attrs.Factory(dict)
    values: dict[str, A.ValueDecl] = attrs.Factory(dict)
    graphs: dict[str, A.GraphDecl] = attrs.Factory(dict)
    windows: dict[str, Window] = attrs.Factory(dict)
    enums: dict[str, A.EnumDecl] = attrs.Factory(dict)
    consts: dict[str, A.ConstDecl] = attrs.Factory(dict)
    checks: list[tuple[A.CheckDecl, str]] = attrs.Factory(list)
    triggers: list[Trigger] = attrs.Factory(list)
    effects: list[Effect] = attrs.Factory(list)
    decl_paths: dict[str, str] = attrs.Factory(dict)  # global name -> file declaring it
    # names defined in a part of the pack that failed to load: their uses are not reported
    poisoned: set[str] = attrs.Factory(set)
    # where each rule's facts come from: "# source: ..." / "# reconstructed: ..." comment
    # lines right above a declaration; key = its name, or "trigger <index>"
    provenance: dict[str, str] = attrs.Factory(dict)
    unsourced_rules: list[tuple[str, int, str]] = attrs.Factory(list)  # (path, line, what)
    # pack.yaml `names_from`: record type -> the reference fields its records are named after
    names_from: dict[str, tuple[str, ...]] = attrs.Factory(dict)
    disagreements: list[Disagreement] = attrs.Factory(list)  # records' `disagree:` entries
    imports: list[str] = attrs.Factory(list)  # pack.yaml `imports`, with theirs, in load order
    glossary: set[str] = attrs.Factory(set)  # pack.yaml `glossary`: types of terms for people
    # pack.yaml `determinize`: the procedure that re-makes hidden choices in a bot's imagined
    # copy of the game (engine.core.determinize), and where it is named
    determinize: tuple[str, Site] | None = None
    # pack.yaml `unread`: names (declarations, record ids, record types) kept on purpose
    # though no rule reads them, each where it is named (no W6xx warning for them)
    unread: dict[str, Site] = attrs.Factory(dict)

    def own_namespace(self, record_type: str) -> bool:
        """Are records of this type out of the names rules use (tables, glossary terms)?
        Their ids may equal a declaration's name; rules reach them as `type.id`, and a
        table's id also where a table is expected (`lookup(attrition, ...)`)."""
        return record_type == TABLE_TYPE or record_type in self.glossary

    def enum_values(self, name: str) -> list[str]:
        """The values of enum `name`, in their order."""
        return [v.name for v in self.enums[name].values]

    def provenance_counts(self) -> tuple[int, int, int, int]:
        """(records with a source or reconstruction note, records, rules with one, rules)."""
        records = list(self.records.values())
        sourced = sum(1 for r in records if r.data.get("source") or r.data.get("reconstructed"))
        rules = len(self.provenance) + len(self.unsourced_rules)
        return sourced, len(records), len(self.provenance), rules

    @property
    def created_types(self) -> list[str]:
        return [t for t, info in self.types.items() if info.created]

    @property
    def has_record_state(self) -> bool:
        """Does any record keep fields in the game state (var fields, created types)?"""
        return any(info.in_state for info in self.types.values())

    def global_names(self) -> dict[str, str]:
        """Every name a rule may use, with what it is (for lookups and did-you-mean)."""
        names: dict[str, str] = {}
        records = [r for r, rec in self.records.items() if not self.own_namespace(rec.type)]
        for kind, table in (("side", self.sides), ("record", records),
                            ("type", self.types), ("var", self.vars), ("zone", self.zones),
                            ("procedure", self.procs), ("value", self.values),
                            ("graph", self.graphs), ("enum", self.enums),
                            ("const", self.consts)):
            for n in table:
                names.setdefault(n, kind)
        return names


# pack.yaml `limits:` keys (engine.core.limits.Limits has one field each).
LIMIT_KEYS = ("steps", "frames", "depth", "list_size")

# Built-in record types every pack has.
TABLE_TYPE = "table"
BUILTIN_EVENTS = {"setup": ()}  # emitted once when a game starts
