"""pack.yaml: its keys (E302/E303), the pack's id and sides, and the settings that name
things of the pack's rules: `limits`, `names_from`, `board`, `balance`, `turn_event`,
`heuristic`, `search_heuristic`, `search_minimax`, `determinize`, `deal_by`, `glossary`,
`unread`.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.dsl import types as T
from engine.dsl.errors import did_you_mean
from engine.dsl.model import LIMIT_KEYS, TABLE_TYPE, PackModel, Site, TypeInfo
from engine.dsl.pack.reader import PackReader, site_at
from engine.dsl.pack.words import DEAL_BY, PACK_KEYS, SLUG
from engine.dsl.yamlload import YList, YMap, load_yaml


class MetaReader(PackReader):
    """pack.yaml and its settings."""

    def _meta(self, path: Path) -> dict[str, Any]:
        text = self._read(path)
        if text is None:
            return {}
        data, diags = load_yaml(str(path), text)
        self.diags.extend(diags)
        if data is None:
            return {}
        if not isinstance(data, YMap):
            self.error("E301", "pack.yaml must be a mapping (id, name, version, sides, ...)",
                       Site(str(path), 1, 1))
            return {}
        self._meta_map = data
        for key in data:
            if key not in PACK_KEYS:
                loc = data.key_loc[key]
                self.error("E302", f"unknown pack.yaml key '{key}'", Site(str(path), loc.line,
                           loc.col), did_you_mean(str(key), PACK_KEYS))
        for key, required in PACK_KEYS.items():
            if required and key not in data and not (key == "sides" and "imports" in data):
                self.error("E303", f"pack.yaml needs '{key}'", Site(str(path), 1, 1))
        sides = data.get("sides")
        if "sides" in data:
            if not isinstance(sides, YList) or not sides:
                self._at(data, "sides", "E304", "'sides' must be a list of side ids")
            else:
                for i, s in enumerate(sides):
                    if not isinstance(s, str) or not SLUG.match(s):
                        loc = sides.item_loc[i]
                        self.error("E304", f"side id {s!r} must be a lowercase slug",
                                   Site(str(path), loc.line, loc.col))
        if "id" in data and not (isinstance(data["id"], str) and SLUG.match(data["id"])):
            self._at(data, "id", "E304", "pack id must be a lowercase slug like 'my_game'")
        if "limits" in data:
            self._limits(data)
        return dict(data)

    def _limits(self, data: YMap) -> None:
        """`limits: {steps: N, ...}`: known keys, whole numbers of at least 1 (E304)."""
        limits = data["limits"]
        if not isinstance(limits, YMap):
            self._at(data, "limits", "E304", "'limits' is a mapping of limit names to whole "
                     f"numbers ({', '.join(LIMIT_KEYS)})")
            return
        for key, value in limits.items():
            if key not in LIMIT_KEYS:
                loc = limits.key_loc[key]
                self.error("E304", f"unknown limit '{key}' (limits: {', '.join(LIMIT_KEYS)})",
                           Site(loc.path, loc.line, loc.col), did_you_mean(str(key), LIMIT_KEYS))
            elif isinstance(value, bool) or not isinstance(value, int) or value < 1:
                self._at(limits, key, "E304", f"limit '{key}' must be a whole number of at "
                         f"least 1, not {value!r}")

    def _names_from(self, model: PackModel, meta: YMap) -> dict[str, tuple[str, ...]]:
        """pack.yaml `names_from: {type: field | [field, ...]}`: records of the type with no
        name of their own in a language are named after the records those fields refer to.
        Every type and field must exist and each field must refer to a record (E323)."""
        spec = meta.get("names_from")
        if spec is None:
            return {}
        if not isinstance(spec, YMap):
            self._at(meta, "names_from", "E323", "'names_from' maps a record type to a field "
                     "(or a list of fields) that refer to records, e.g. {road: [a, b]}")
            return {}
        out: dict[str, tuple[str, ...]] = {}
        for tname, fields in spec.items():
            kloc = spec.key_loc[tname]
            info = model.types.get(tname) if isinstance(tname, str) else None
            if tname in model.poisoned:
                continue  # declared in a rules file that is already reported as broken
            if info is None or tname == TABLE_TYPE:
                self.error("E323", f"names_from: unknown record type '{tname}'",
                           site_at(kloc, str(tname)), did_you_mean(str(tname), [
                               t for t in model.types if t != TABLE_TYPE]))
                continue
            items = list(fields) if isinstance(fields, YList) else [fields]
            locs = fields.item_loc if isinstance(fields, YList) else [spec.val_loc[tname]]
            if not items:
                self.error("E323", f"names_from: give '{tname}' at least one field",
                           site_at(spec.val_loc[tname]))
                continue
            ok = [self._name_field(model, info, f, loc) for f, loc in zip(items, locs)]
            if all(ok):
                out[tname] = tuple(items)
        return out

    def _name_field(self, model: PackModel, info: TypeInfo, field: Any, loc: Any) -> bool:
        """Is `field` a field of `info` that refers to a record? (E323 if not.)"""
        if not isinstance(field, str):
            self.error("E323", f"names_from: a field name of {info.name}, not {field!r}",
                       site_at(loc))
            return False
        f = info.fields.get(field)
        if f is None:
            self.error("E323", f"names_from: {info.name} has no field '{field}'",
                       site_at(loc, field), did_you_mean(field, info.fields))
            return False
        if not (isinstance(f.type, str) and f.type in model.types and f.type != TABLE_TYPE):
            shown = T.show(f.type)
            self.error("E323", f"names_from: field '{field}' of {info.name} is "
                       f"{'an' if shown[0] in 'aeiou' else 'a'} {shown}, not a reference to a "
                       "record", site_at(loc, field))
            return False
        return True

    def _board(self, model: PackModel, meta: YMap) -> None:
        """pack.yaml `board:` (engine.dsl.boardspec): every name it gives is the pack's (E340)."""
        from engine.dsl.boardspec import BoardCheck
        if not model.poisoned:
            BoardCheck(model, self._located("E340")).check(meta, "board", meta["board"])

    def _balance(self, model: PackModel, meta: YMap) -> None:
        """pack.yaml `balance:` (engine.dsl.balancespec): what `engine balance` reads of a
        game names the pack's vars, values, events, types and `log` sentences (E347)."""
        from engine.dsl.balancespec import BalanceCheck
        if not model.poisoned:
            BalanceCheck(model, self._located("E347")).check(meta, "balance", meta["balance"])

    def _located(self, code: str) -> Any:
        """The error callback of a pack.yaml section's checker: a problem at a key or an item
        of the section (or at a record's field: a `Site`) becomes `code` there."""

        def error(message: str, node: Any, key: Any, at_key: bool,
                  suggestion: str | None) -> None:
            if isinstance(node, Site):  # a record's field (board `map: position:`)
                self.error(code, message, node, suggestion)
                return
            if isinstance(node, YList):
                loc = node.item_loc[key]
            elif at_key:
                loc = node.key_loc.get(key)
            else:
                loc = node.val_loc.get(key) or node.key_loc.get(key)
            text = key if at_key else node[key]
            self.error(code, message, site_at(loc, text if isinstance(text, str) else None)
                       if loc is not None else Site(str(self.root / "pack.yaml"), 1, 1),
                       suggestion)

        return error

    def _play_keys(self, model: PackModel, meta: YMap) -> None:
        """pack.yaml `turn_event:` (the event whose count `engine simulate` reports as
        turns) names an event of the pack, and `heuristic:` (what the greedy bot maximises)
        and `search_heuristic:` (what the search bot scores with) each a
        `value NAME(s: side): int`; else E341 at the name, with a did-you-mean."""
        for key, table, what in (("turn_event", model.events, "event"),
                                 ("heuristic", model.values, "value"),
                                 ("search_heuristic", model.values, "value")):
            if key not in meta:
                continue
            name = meta[key]
            loc = meta.val_loc.get(key) or meta.key_loc[key]
            if not isinstance(name, str) or name in model.poisoned:
                if not isinstance(name, str):
                    self.error("E341", f"'{key}' names {'an' if what == 'event' else 'a'} "
                               f"{what} of the pack, not {name!r}", site_at(loc))
                continue
            if name not in table:
                self.error("E341", f"{key}: the pack declares no {what} '{name}'",
                           site_at(loc, name), did_you_mean(name, table))
                continue
            if what == "value":
                decl = model.values[name]
                params = [T.from_ast(p.type) for p in decl.params]
                if params != ["side"] or T.from_ast(decl.type) != "int":
                    self.error("E341", f"{key}: value '{name}' must be declared "
                               f"'value {name}(s: side): int' (how well side s stands)",
                               site_at(loc, name))

    def _search_minimax(self, meta: YMap) -> None:
        """pack.yaml `search_minimax: P`: the percent, a whole number from 0 to 100, of the
        best line's heuristic score that the search bot weighs against its rollouts' mean
        reward (engine.frontends.search); anything else is E349 at the value. Whole, since
        a fraction in the pack's data would make every save take the slow path
        (engine.core.saves.canonical_json.fractions_possible)."""
        value = meta["search_minimax"]
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
            loc = meta.val_loc.get("search_minimax") or meta.key_loc["search_minimax"]
            shown = value if isinstance(value, str) else repr(value)
            self.error("E349", f"'search_minimax' is a whole number from 0 to 100 (the percent "
                       f"of the best line's score in the search), not {shown}",
                       site_at(loc, shown if isinstance(value, str) else None))

    def _determinize(self, model: PackModel, meta: YMap) -> None:
        """pack.yaml `determinize: PROCEDURE`: the procedure that re-makes hidden choices in
        a bot's imagined copy (engine.core.determinize). Its name is kept with its place; the
        checker, which knows the procedures and which of them may ask a player, checks it
        (E345)."""
        name = meta["determinize"]
        loc = meta.val_loc.get("determinize") or meta.key_loc["determinize"]
        if not isinstance(name, str) or not name:
            self._at(meta, "determinize", "E345", "'determinize' names a procedure of the "
                     "pack, e.g. determinize: imagine for procedure imagine(s: side)")
            return
        model.determinize = (name, site_at(loc, name))

    def _deal_by(self, meta: YMap) -> None:
        """pack.yaml `deal_by: type | side` (engine.core.determinize): `side` keeps each side's
        hidden records among the zones of that side when a bot's copy deals them anew (E346)."""
        value = meta["deal_by"]
        if value not in DEAL_BY:
            loc = meta.val_loc.get("deal_by") or meta.key_loc["deal_by"]
            shown = value if isinstance(value, str) else repr(value)
            self.error("E346", f"'deal_by' is one of {', '.join(DEAL_BY)}, not '{shown}'",
                       site_at(loc, shown if isinstance(value, str) else None),
                       did_you_mean(shown, DEAL_BY))

    def _unread(self, meta: YMap) -> dict[str, Site]:
        """pack.yaml `unread: {NAME: why, ...}`: what the pack keeps though no rule reads it
        (engine.dsl.check.unread), each with the reason (E348 for another shape; the names
        are checked against the pack once its records are read)."""
        spec = meta["unread"]
        if not isinstance(spec, YMap):
            self._at(meta, "unread", "E348", "'unread' maps names to why they are kept, e.g. "
                     "unread: {term: \"words for people, shown by the glossary\"}")
            return {}
        out = {}
        for name, why in spec.items():
            loc = spec.key_loc[name]
            if not isinstance(name, str) or not isinstance(why, str) or not why.strip():
                self.error("E348", f"unread: {name!r} needs the reason it is kept, as text",
                           site_at(loc, str(name)))
                continue
            out[name] = site_at(loc, name)
        return out

    def _glossary(self, model: PackModel, meta: YMap) -> set[str]:
        """pack.yaml `glossary: type | [type, ...]`: record types whose records are terms
        for people (E338 for an unknown type)."""
        spec = meta["glossary"]
        items = list(spec) if isinstance(spec, YList) else [spec]
        locs = spec.item_loc if isinstance(spec, YList) else [meta.val_loc["glossary"]]
        out = set()
        for tname, loc in zip(items, locs):
            if isinstance(tname, str) and tname in model.types and tname != TABLE_TYPE:
                out.add(tname)
            elif tname not in model.poisoned:
                self.error("E338", f"glossary: unknown record type {tname!r}",
                           site_at(loc, str(tname)), did_you_mean(str(tname), [
                               t for t in model.types if t != TABLE_TYPE]))
        return out

