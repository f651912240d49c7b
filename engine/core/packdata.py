"""`PackData`: what a running game reads of a compiled pack. Its ids, records, keys, compiled
rules (`ns`), trigger plans, graphs and tables, limits, which zones each side sees, and the
names of its ids for people. engine.core.loader builds one (a `CompiledPack`, which also
starts games and evaluates the pack's values and checks); the game, its runtime, views,
saves and copies read it, and annotate a pack with this class."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:  # (types only: a pack's parts are built by engine.core.loader)
    from collections.abc import Iterable

    from engine.core.graph import Graph
    from engine.core.limits import Limits
    from engine.core.tables import Table
    from engine.dsl.model import PackModel

# A trigger's plan for one event: its rules before, instead of, on and after it.
Plan = tuple[list[Any], list[Any], list[Any], list[Any]]


@attrs.define(eq=False)
class PackData:
    """A compiled pack's parts (see the module's docstring); never changed once loaded but
    for the graphs a pack's `where` filters choose, as it loads."""

    id: str
    name: str
    version: str
    sides: list[str]
    meta: dict[str, Any]
    hash: str
    root: Path
    model: PackModel
    code: str
    ns: dict[str, Any]
    records: dict[str, dict[str, Any]]
    by_type: dict[str, list[str]]
    zone_keys: list[str]
    var_keys: dict[str, list[tuple[str, tuple[str, ...]]]]  # var -> (key, its indices)
    graphs: dict[str, Graph]
    tables: dict[str, Table]
    other: dict[str, str]
    side_set: frozenset[str]
    plans: dict[str, Plan]  # event -> before, instead, on, after
    visible_zones: dict[str | None, frozenset[str]]  # side (None: observer) -> zone keys
    limits: Limits  # pack.yaml `limits:`, or the defaults
    rule_labels: dict[str, str]  # generated function -> what a designer calls that rule
    # Records with fields in the game state (see `record_state`): none in most packs.
    record_state: bool = False  # the state has "f" (record fields in play)
    created: frozenset[str] = frozenset()  # types whose records rules make (`create`)
    var_field_types: tuple[str, ...] = ()  # pack record types with var fields
    # created type -> ("z" or "v", zone or var name, its parameter types) for every zone and
    # var indexed by that type: their keys come and go with the records
    keyed: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = attrs.Factory(dict)
    # sha256 (16 hex digits) of `code`, the rules as the compiler wrote them, and of the
    # engine that runs them (engine.dsl.cache.toolchain_hash: every engine and dsl source file): a
    # save keeps it, since its waiting rules (the state's stack) are places in that code,
    # run as that engine runs them
    code_hash: str = ""
    # the file name `code` runs under, which tracebacks name (engine.dsl.build.module_filename,
    # or engine.dsl.native.source_name for the rules compiled to C)
    code_file: str = ""

    # ---- what front-ends and bots read of the pack ---------------------------------------------
    @property
    def rules_compiled(self) -> bool:
        """Whether the rules run compiled to C (`engine compile`, engine.dsl.native)."""
        return bool(self.code_file) and not self.code_file.startswith("<pack ")

    @property
    def playable(self) -> bool:
        """False for a data pack (`playable: false`): records, tables and checks, no game."""
        return self.model.playable

    @property
    def turn_event(self) -> str | None:
        """The event whose count is the game's turns (pack.yaml `turn_event:`), or None."""
        return self.meta.get("turn_event")

    @property
    def heuristic(self) -> str | None:
        """The name of the `value NAME(s: side): int` the greedy bot maximises (pack.yaml
        `heuristic:`), or None; `Game.heuristic(side)` evaluates it."""
        return self.meta.get("heuristic")

    @property
    def search_heuristic(self) -> str | None:
        """The name of the `value NAME(s: side): int` the search bot scores its cut-off
        rollouts with (pack.yaml `search_heuristic:`, else `heuristic:`), or None;
        `Game.search_heuristic(side)` evaluates it."""
        return self.meta.get("search_heuristic") or self.heuristic

    @property
    def search_minimax(self) -> float:
        """The weight, 0 to 1, the search bot gives the heuristic's score of the best line
        found below an answer against its rollouts' mean reward (pack.yaml
        `search_minimax:` in percent, default 0: the mean alone; engine.frontends.search)."""
        return int(self.meta.get("search_minimax", 0)) / 100

    # ---- names for people ---------------------------------------------------------------------
    @functools.cached_property
    def enum_ids(self) -> frozenset[str]:
        """Every value of the pack's enums."""
        return frozenset(v for e in self.model.enums for v in self.model.enum_values(e))

    @functools.cached_property
    def name_ids(self) -> frozenset[str]:
        """Every id `name_of` names: records, sides, enum values, and the names of zones, vars,
        events, record types and their fields."""
        m = self.model
        fields = {f for t in m.types.values() for f in t.fields}
        return frozenset((*self.records, *self.sides, *self.enum_ids, *m.zones, *m.vars, *m.events,
                          *m.types, *fields))

    def name_of(self, id: str, lang: str | None = None, *, strict: bool = False) -> str:
        """The name of `id` for people, in `lang` (default English; a name the language
        lacks falls back to English, then to the id made readable): a record's name, or the
        term of a side, an enum value, a zone, var, event, record type or field (an enum
        value that is also a declaration's name is named as the value, as a decision offers
        it). A record made in play (`unit#3`) is named by its type. A plain word a decision
        offers (`'move'`, `'pick up'`) is named by the pack's term for it if any (a word of
        several is named by the id it spells with underscores, `pick_up`: a glossary term),
        else is the word itself made readable (`step_back` -> `step back`). (`pack.name` is the
        pack's own name.) With `strict=True`, an id the pack does not declare is a KeyError
        (with a did-you-mean) instead."""
        from engine.i18n.translations import DEFAULT_LANG, catalog
        cat = catalog(self, lang or DEFAULT_LANG)
        kind, hash_, serial = id.partition("#") if isinstance(id, str) else ("", "", "")
        if hash_ and serial.isdigit() and kind in self.created:
            return cat.term(kind)
        if not isinstance(id, str) or id not in self.name_ids:
            if strict or not isinstance(id, str):
                from engine.dsl.errors import did_you_mean
                hint = did_you_mean(str(id), sorted(self.name_ids))
                raise KeyError(f"pack '{self.id}' has no id {id!r}"
                               + (f"; {hint}" if hint else ""))
            spelled = "_".join(id.split())  # 'pick up' is named by the id `pick_up`
            if spelled != id and spelled in self.name_ids:
                return self.name_of(spelled, lang)
            return cat.term(id)  # a word: its term, else the word made readable
        if id in self.records:
            return cat.name(id)
        if id in self.side_set or id in self.enum_ids:  # an option before a declaration
            return cat.value(id)
        return cat.term(id)

    def names_in(self, data: Any, lang: str | None = None) -> dict[str, str]:
        """id -> `name_of(id, lang)` for every id in `data` (a view, a decision, a log
        entry: any JSON), zone and var keys taken apart at `|`; every text a decision
        offers (under `options` or `legal_actions`), a plain word too, is named. The keys
        of a view's `vars`, `zones` and `fields` are ids; other keys are the format's own,
        not ids."""
        out: dict[str, str] = {}
        ids = self.name_ids
        created = self.created

        def visit(x: Any, keyed: bool = False, offered: bool = False) -> None:
            if isinstance(x, str):
                for part in x.split("|") if "|" in x else (x,):
                    if part not in out and (offered or part in ids or "#" in part
                                            and part.partition("#")[0] in created):
                        out[part] = self.name_of(part, lang)
            elif isinstance(x, list):
                for v in x:
                    visit(v, offered=offered)
            elif isinstance(x, dict):
                for k, v in x.items():
                    if keyed:
                        visit(k)
                    visit(v, keyed and k in self.model.vars or k in ("vars", "zones",
                                                                     "fields")
                          or keyed and k in self.records,
                          offered or k in OFFERED_KEYS)
        visit(data)
        return out

    def texts_of(self, ids: Iterable[str], lang: str | None = None) -> dict[str, str]:
        """id -> the record's rules text in `lang` (a card's event, a glossary term's
        definition: `Catalog.text`), for the records among `ids` that have one, and the words
        among them that spell one (`'pick up'`: the term `pick_up`, as the option is named)."""
        from engine.i18n.translations import DEFAULT_LANG, catalog
        cat = catalog(self, lang or DEFAULT_LANG)
        out: dict[str, str] = {}
        for rid in ids:
            record = cat.record_of(rid)
            if record is not None:
                text = cat.text(record)
                if text:
                    out[rid] = text
        return out

    # ---- visibility -------------------------------------------------------------------------
    def can_see_zone(self, side: str | None, key: str) -> bool:
        """May `side` see the contents of zone `key`? (None = an observer.)"""
        visible = self.visible_zones.get(side)
        return key in visible if visible is not None else _zone_visible(self.model, side, key)

    def var_visible(self, side: str | None, name: str, key: str) -> bool:
        vis = self.model.vars[name].visibility
        if vis == "hidden":
            return False
        if vis == "private":
            return side is not None and key.split("|")[0] == side
        return True


OFFERED_KEYS = frozenset({"options", "legal_actions"})  # what a decision offers, in a view


def visible_keys(model: PackModel, side: str | None, zone_keys: list[str],
                 created: frozenset[str]) -> frozenset[str]:
    """The zone keys `side` (None: an observer) sees of `zone_keys`, the keys of a pack
    that has types whose records rules make (`created`) judged when asked."""
    keys = frozenset(k for k in zone_keys if _zone_visible(model, side, k))
    return _VisibleKeys(keys, model, side, frozenset(zone_keys)) if created else keys


class _VisibleKeys(frozenset[str]):
    """The zone keys a side sees, in a pack with records made in play: a key made with such
    a record (none exists at setup) is judged by its zone's declaration when asked."""

    model: PackModel
    side: str | None
    static: frozenset[str]  # every zone key that exists from the start

    def __new__(cls, keys: frozenset[str], model: PackModel, side: str | None,
                static: frozenset[str]) -> _VisibleKeys:
        self = super().__new__(cls, keys)
        self.model, self.side, self.static = model, side, static
        return self

    def __contains__(self, key: object) -> bool:
        return frozenset.__contains__(self, key) or (
            isinstance(key, str) and key not in self.static
            and key.partition("|")[0] in self.model.zones
            and _zone_visible(self.model, self.side, key))


def _zone_visible(model: PackModel, side: str | None, key: str) -> bool:
    """The visibility rule of a zone key: hidden to all, private to its first index, or
    public. Every zone key but those of records made in play exists from the start, so
    PackData keeps the answers (see _VisibleKeys for the others)."""
    name, _, rest = key.partition("|")
    flags = model.zones[name].flags
    if "hidden" in flags:
        return False
    if "private" in flags:
        return side is not None and rest.split("|")[0] == side
    return True
