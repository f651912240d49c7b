"""Read a pack directory into a `PackModel`: pack.yaml, record files and rule files.

Every problem becomes a located diagnostic; loading goes on after an error so that one run
reports all of them.
"""
from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl import types as T
from engine.dsl.errors import Diagnostic, DslError, did_you_mean, source_line
from engine.dsl.files import (
    digest_texts,
    link_problem,
    printable_path,
    refused_file,
    refused_link,
    shipped_root,
    walk_pack,
)
from engine.dsl.model import (
    BUILTIN_EVENTS,
    LIMIT_KEYS,
    TABLE_TYPE,
    Disagreement,
    Effect,
    FieldInfo,
    PackModel,
    Record,
    Site,
    Trigger,
    TypeInfo,
    Window,
)
from engine.dsl.parser import parse_effect, parse_module_partial, parse_record_decls
from engine.dsl.yamlload import YList, YMap, load_yaml

SLUG = re.compile(r"^[a-z][a-z0-9_]*$")
_YAML_IDS = re.compile(r"\bid:\s*['\"]?([a-z][a-z0-9_]*)")
PACK_KEYS = {"id": True, "name": True, "version": True, "sides": True, "languages": False,
             "sources": False, "description": False, "options": False, "provenance": False,
             "board": False, "playable": False, "names_from": False, "limits": False,
             "imports": False, "glossary": False, "determinize": False, "deal_by": False,
             "turn_event": False, "heuristic": False}
# pack.yaml `deal_by`: how a bot's imagined copy deals the hidden records anew
# (engine.core.determinize)
DEAL_BY = ("type", "side")
# Keys every record may carry besides its type's fields.
RECORD_META = ("id", "name", "source", "reconstructed", "note", "disagree")
# Keys of one `disagree:` entry.
DISAGREE_KEYS = ("field", "value", "source", "note")
RESERVED = {"sides", "self", "none", "true", "false", "active_side"}


def _grammar_keywords() -> frozenset[str]:
    """Words the grammar spells out ("choose", "order", ...): not usable as declared names,
    since a statement starting with one of them reads as that keyword."""
    text = (Path(__file__).parent / "grammar.lark").read_text(encoding="utf-8")
    return frozenset(re.findall(r'"([a-z_]+)"', text))


KEYWORDS = _grammar_keywords()


@attrs.define
class PackSource:
    """What was read from disk, before checking."""

    root: Path
    meta: dict[str, Any]
    model: PackModel
    sources: dict[str, str]  # path -> text, for diagnostics and hashing
    diagnostics: list[Diagnostic]
    hash: str  # of every file read, the imported packs' included
    modules: list[A.Module] = attrs.Factory(list)
    import_roots: list[Path] = attrs.Factory(list)  # the imported packs, in load order
    # where each import was looked for: (a pack.yaml path, whether it was there)
    probes: list[tuple[str, bool]] = attrs.Factory(list)
    # the pack's folder and each imported pack's -> `engine.dsl.files.digest_texts` of what was
    # read
    digests: dict[str, str] = attrs.Factory(dict)


def pack_hash(files: dict[str, str]) -> str:
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + files[rel].encode() + b"\0")
    return h.hexdigest()[:16]


def read_pack(root: Path) -> PackSource:
    """Load a pack directory. Never raises for bad content: see `.diagnostics`."""
    loader = _Loader(root)
    return loader.load()


@attrs.define
class _Part:
    """One pack read into a build: the pack itself, or one it imports (maybe indirectly)."""

    id: str
    root: Path
    meta: YMap | None  # its pack.yaml
    via: Site | None  # the item of the pack's own `imports:` it came through; None: the pack


class _Loader:
    def __init__(self, root: Path):
        self.root = root
        self.real_root = Path(os.path.realpath(root))
        self._meta_map: YMap | None = None
        self.diags: list[Diagnostic] = []
        self.sources: dict[str, str] = {}
        self.rel_sources: dict[str, str] = {}
        self._owner: dict[str, _Part] = {}  # file path -> the pack it belongs to
        self._decl_sites: dict[str, Site] = {}  # declared name -> where
        self._extends: list[tuple[A.TypeDecl, str]] = []
        self.import_roots: list[Path] = []
        self.probes: list[tuple[str, bool]] = []  # (pack.yaml looked for, found) per import
        self._texts: dict[str, list[tuple[str, str]]] = {}  # pack folder -> (file, text)

    def error(self, code: str, message: str, site: Site, suggestion: str | None = None,
              severity: str = "error") -> None:
        if any(d.path == site.path and d.line == site.line and d.col == site.col and site.line
               for d in self.diags):
            return  # one report per spot: the YAML loader may have flagged this value already
        self._report(code, message, site, suggestion, severity)

    def _report(self, code: str, message: str, site: Site, suggestion: str | None = None,
                severity: str = "error") -> None:
        text = self.sources.get(site.path, "")
        self.diags.append(Diagnostic(code, message, site.path, site.line, site.col,
                                     source_line(text, site.line) if site.line else "",
                                     site.end_col, suggestion, severity))

    def warn(self, code: str, message: str, site: Site, suggestion: str | None = None) -> None:
        self.error(code, message, site, suggestion, "warning")

    def _read(self, p: Path, part: _Part | None = None) -> str | None:
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError as err:
            self.diags.append(Diagnostic("E300", f"not UTF-8 text (byte {err.start}): save the "
                                         "file as UTF-8", printable_path(str(p)), 0, 0))
            return None
        except OSError as err:
            self.diags.append(Diagnostic("E300", f"cannot read: {err.strerror}",
                                         printable_path(str(p)), 0, 0))
            return None
        self.sources[str(p)] = text
        folder = self.root if part is None or part.via is None else part.root
        rel = p.relative_to(folder).as_posix()
        self._texts.setdefault(str(folder), []).append((rel, text))
        # an imported pack's files are part of this pack's hash
        self.rel_sources[rel if folder is self.root else f"@{part.id}/{rel}"] = text
        return text

    def load(self) -> PackSource:
        root = self.root
        meta_path = root / "pack.yaml"
        meta: dict[str, Any] = {}
        if meta_path.is_symlink() and not self._link_is_safe(meta_path):
            pass  # reported: not read
        elif not meta_path.is_file():
            self.diags.append(Diagnostic("E300", "not a pack: no pack.yaml here",
                                         printable_path(str(root)), 0, 0))
        else:
            meta = self._meta(meta_path)
        own = _Part(str(meta.get("id", root.name)), root, self._meta_map, None)
        parts = [*self._imports(own), own]
        self.import_roots = [p.root for p in parts[:-1]]
        listed = meta.get("sides")  # a bad value is reported by _meta
        if listed is None and len(parts) > 1:
            listed = _meta_get(parts[0].meta, "sides")  # inherited from the first import
        sides = [s for s in listed if isinstance(s, str)] if isinstance(listed, list) else []
        model = PackModel(id=own.id, sides=sides, root=str(root))
        model.imports = [p.id for p in parts[:-1]]
        self._same_sides(parts, sides, "sides" in meta)
        playable = meta.get("playable", True)
        if not isinstance(playable, bool) and self._meta_map is not None:
            self._at(self._meta_map, "playable", "E304",
                     "'playable' is true or false (false: a data pack with no rules yet)")
        model.playable = playable is not False
        model.types[TABLE_TYPE] = TypeInfo(TABLE_TYPE, {}, Site(str(meta_path)))
        rule_files: list[tuple[Path, _Part]] = []
        record_files: list[tuple[Path, _Part]] = []
        for part in parts:
            files = self._pack_files(part.root) if part.root.is_dir() else []
            part_meta = part.root / "pack.yaml"
            rule_files += [(p, part) for p in sorted(files) if p.name.endswith(".rules")]
            record_files += [(p, part) for p in sorted(files)
                             if p.name.endswith(".yaml") and p != part_meta]
        modules = []
        for p, part in rule_files:
            text = self._read(p, part)
            if text is None:
                continue
            self._owner[str(p)] = part
            module, diags, broken = parse_module_partial(text, str(p))
            modules.append(module)
            self.diags.extend(diags)
            model.poisoned |= broken
        for mod in modules:
            self._declare(model, mod)
            self._provenance(model, mod)
        self._apply_extends(model)
        for part in parts:
            if part.meta is not None and "names_from" in part.meta:
                model.names_from.update(self._names_from(model, part.meta))
            if part.meta is not None and "glossary" in part.meta:
                model.glossary |= self._glossary(model, part.meta)
        if self._meta_map is not None and "board" in self._meta_map:
            self._board(model, self._meta_map)
        if self._meta_map is not None:
            self._play_keys(model, self._meta_map)
        if self._meta_map is not None and "determinize" in self._meta_map:
            self._determinize(model, self._meta_map)
        if self._meta_map is not None and "deal_by" in self._meta_map:
            self._deal_by(self._meta_map)
        raw_records = []
        for p, part in record_files:
            text = self._read(p, part)
            if text is None:
                continue
            self._owner[str(p)] = part
            data, diags = load_yaml(str(p), text)
            self.diags.extend(diags)
            if data is not None:
                raw_records.extend(self._collect_records(model, p, data))
            else:  # unreadable: its ids are unknown, but uses of them are not new errors
                model.poisoned |= set(_YAML_IDS.findall(text))
        for rtype, rec, site in raw_records:
            self._add_record(model, rtype, rec, site)
        for rtype, rec, _site in raw_records:
            self._fill_record(model, rtype, rec)
        for part in parts:
            self._part_provenance(model, part)
        digests = {folder: digest_texts(texts) for folder, texts in self._texts.items()}
        return PackSource(root, meta, model, self.sources, self.diags,
                          pack_hash(self.rel_sources), modules, self.import_roots, self.probes,
                          digests)

    def _part_provenance(self, model: PackModel, part: _Part) -> None:
        """A pack's `provenance:` setting, for its own records and rules."""
        setting = _meta_get(part.meta, "provenance")
        if setting == "required":
            self._require_provenance(model, part)
        elif setting not in (None, "optional") and part.via is None and part.meta is not None:
            self._at(part.meta, "provenance", "E304", "'provenance' is 'required' or 'optional'")

    # ---- imports ------------------------------------------------------------------------
    def _imports(self, own: _Part) -> list[_Part]:
        """The packs `own` imports, directly or through another, each once, every pack after
        those it imports. An import is found by id: the folder of that name next to the
        importing pack, else the shipped pack of that name."""
        order: list[_Part] = []
        done: set[Path] = set()
        chain: list[tuple[Path, str]] = [(self.real_root, own.id)]

        def visit(part: _Part) -> None:
            for name, site in self._import_list(part):
                via = part.via or site
                found = self._find_import(part.root, name)
                if found is None:
                    self.error("E331", f"unknown pack '{name}' in 'imports'", site,
                               did_you_mean(name, _known_packs(part.root)))
                    continue
                real = Path(os.path.realpath(found))
                if any(real == r for r, _ in chain):
                    ids = [i for _, i in chain[[r for r, _ in chain].index(real):]]
                    self.error("E332", "packs import each other in a cycle: "
                               + " -> ".join([*ids, name]), site,
                               "a pack cannot build on a pack that builds on it")
                    continue
                if real in done:
                    continue  # imported through another pack already
                meta = self._import_meta(found, name, site)
                if meta is None:
                    continue
                child = _Part(name, found, meta, via)
                chain.append((real, name))
                visit(child)
                chain.pop()
                done.add(real)
                order.append(child)
        visit(own)
        return order

    def _import_list(self, part: _Part) -> list[tuple[str, Site]]:
        """A pack's `imports:` as (pack id, where it is written); E330 for a bad shape."""
        m = part.meta
        if m is None or "imports" not in m:
            return []
        items = m["imports"]
        if not isinstance(items, YList):
            self._at(m, "imports", "E330", "'imports' is a list of pack ids, e.g. [base_game]")
            return []
        out = []
        for i, name in enumerate(items):
            loc = items.item_loc[i]
            if not isinstance(name, str) or not SLUG.match(name):
                self.error("E330", f"an import is a pack id (a lowercase slug), not {name!r}",
                           _site(loc))
                continue
            out.append((name, _site(loc, name)))
        return out

    def _find_import(self, importer: Path, name: str) -> Path | None:
        candidates = [importer.parent / name]
        shipped = shipped_root()
        if shipped is not None and shipped / name != candidates[0]:
            candidates.append(shipped / name)
        for folder in candidates:
            found = (folder / "pack.yaml").is_file()
            self.probes.append((str(folder / "pack.yaml"), found))
            if found:
                return folder
        return None

    def _import_meta(self, root: Path, name: str, site: Site) -> YMap | None:
        """The pack.yaml of an imported pack (its keys are checked when it is validated
        itself); None, reported at the import, when it cannot be used."""
        path = root / "pack.yaml"
        refused = refused_file(path, root)
        if refused is not None:
            self.error("E337", f"pack '{name}' cannot be imported: {refused.message}", site)
            return None
        part = _Part(name, root, None, site)
        text = self._read(path, part)
        if text is None:
            return None
        data, diags = load_yaml(str(path), text)
        self.diags.extend(diags)
        if not isinstance(data, YMap):
            if not diags:
                self.error("E337", f"pack '{name}' cannot be imported: its pack.yaml is no "
                           "mapping", site)
            return None
        if data.get("id") != name:
            self.error("E337", f"the folder {printable_path(str(root))} holds pack "
                       f"{data.get('id')!r}, not '{name}'", site,
                       "an import names a pack by the id in its pack.yaml, and the pack's "
                       "folder has that name")
            return None
        return data

    def _same_sides(self, parts: list[_Part], sides: list[str], own_sides: bool) -> None:
        """A pack and its imports play with the same sides, in the same order (E334)."""
        own = parts[-1]
        for part in parts[:-1]:
            theirs = _meta_get(part.meta, "sides")
            if not isinstance(theirs, list) or list(theirs) == sides:
                continue
            site = (_site(own.meta.val_loc["sides"]) if own_sides and own.meta is not None
                    else part.via)
            self.error("E334", f"pack '{own.id}' has sides [{', '.join(sides)}], but it imports "
                       f"'{part.id}', whose sides are [{', '.join(map(str, theirs))}]", site,
                       "a pack and the packs it imports play with the same sides, in the same "
                       "order")

    def _cross(self, what: str, name: str, first: Site, second: Site) -> bool:
        """E333 when `name` is defined at `first` and again at `second` in two different
        packs (True: reported). A definition in the pack itself is reported where it is;
        one in an imported pack at the import that brings it in."""
        a, b = self._owner.get(first.path), self._owner.get(second.path)
        if a is None or b is None or a is b:
            return False
        where = second if b.via is None else b.via
        hint = ("rename one of them" + (", or add fields to the imported type with "
                f"'extend type {name}:'" if what == "type" and b.via is None else ""))
        self._report("E333", f"'{name}' is defined in pack '{a.id}' ({first.path}:"
                     f"{first.line}) and again in pack '{b.id}' ({second.path}:{second.line}): "
                     "a pack and the packs it imports share one set of names", where, hint)
        return True

    # ---- finding the files ---------------------------------------------------------------
    def _pack_files(self, root: Path) -> list[Path]:
        """Every file of the pack at `root` that may be read (see `engine.dsl.files.walk_pack`)."""
        found, diags = walk_pack(root)
        self.diags.extend(diags)
        return found

    def _link_is_safe(self, path: Path) -> bool:
        """May the link `path` be followed? Only into the pack (E329 if not): a link out of
        the pack could make the engine read, and print, any file: leak.yaml -> /etc/passwd."""
        why = link_problem(path, self.real_root)
        if why is not None:
            self.diags.append(refused_link(path, why))
            return False
        return True

    # ---- pack.yaml ----------------------------------------------------------------------
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
            if not isinstance(sides, list) or not sides:
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
                           _site(kloc, str(tname)), did_you_mean(str(tname), [
                               t for t in model.types if t != TABLE_TYPE]))
                continue
            items = list(fields) if isinstance(fields, YList) else [fields]
            locs = fields.item_loc if isinstance(fields, YList) else [spec.val_loc[tname]]
            if not items:
                self.error("E323", f"names_from: give '{tname}' at least one field",
                           _site(spec.val_loc[tname]))
                continue
            ok = [self._name_field(model, info, f, loc) for f, loc in zip(items, locs)]
            if all(ok):
                out[tname] = tuple(items)
        return out

    def _name_field(self, model: PackModel, info: TypeInfo, field: Any, loc: Any) -> bool:
        """Is `field` a field of `info` that refers to a record? (E323 if not.)"""
        if not isinstance(field, str):
            self.error("E323", f"names_from: a field name of {info.name}, not {field!r}",
                       _site(loc))
            return False
        f = info.fields.get(field)
        if f is None:
            self.error("E323", f"names_from: {info.name} has no field '{field}'",
                       _site(loc, field), did_you_mean(field, info.fields))
            return False
        if not (isinstance(f.type, str) and f.type in model.types and f.type != TABLE_TYPE):
            shown = T.show(f.type)
            self.error("E323", f"names_from: field '{field}' of {info.name} is "
                       f"{'an' if shown[0] in 'aeiou' else 'a'} {shown}, not a reference to a "
                       "record", _site(loc, field))
            return False
        return True

    def _board(self, model: PackModel, meta: YMap) -> None:
        """pack.yaml `board:` (engine.dsl.boardspec): every name it gives is the pack's (E340)."""
        from engine.dsl.boardspec import BoardCheck

        def error(message: str, node: Any, key: Any, at_key: bool,
                  suggestion: str | None) -> None:
            if isinstance(node, YList):
                loc = node.item_loc[key]
            elif at_key:
                loc = node.key_loc.get(key)
            else:
                loc = node.val_loc.get(key) or node.key_loc.get(key)
            text = key if at_key else node[key]
            self.error("E340", message, _site(loc, text if isinstance(text, str) else None)
                       if loc is not None else Site(str(self.root / "pack.yaml"), 1, 1),
                       suggestion)

        if not model.poisoned:
            BoardCheck(model, error).check(meta, "board", meta["board"])

    def _play_keys(self, model: PackModel, meta: YMap) -> None:
        """pack.yaml `turn_event:` (the event whose count `engine simulate` reports as
        turns) names an event of the pack, and `heuristic:` (what the greedy bot maximises)
        a `value NAME(s: side): int`; else E341 at the name, with a did-you-mean."""
        for key, table, what in (("turn_event", model.events, "event"),
                                 ("heuristic", model.values, "value")):
            if key not in meta:
                continue
            name = meta[key]
            loc = meta.val_loc.get(key) or meta.key_loc[key]
            if not isinstance(name, str) or name in model.poisoned:
                if not isinstance(name, str):
                    self.error("E341", f"'{key}' names {'an' if what == 'event' else 'a'} "
                               f"{what} of the pack, not {name!r}", _site(loc))
                continue
            if name not in table:
                self.error("E341", f"{key}: the pack declares no {what} '{name}'",
                           _site(loc, name), did_you_mean(name, table))
                continue
            if key == "heuristic":
                decl = table[name]
                params = [T.from_ast(p.type) for p in decl.params]
                if params != ["side"] or T.from_ast(decl.type) != "int":
                    self.error("E341", f"heuristic: value '{name}' must be declared "
                               f"'value {name}(s: side): int' (how well side s stands)",
                               _site(loc, name))
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
        model.determinize = (name, _site(loc, name))

    def _deal_by(self, meta: YMap) -> None:
        """pack.yaml `deal_by: type | side` (engine.core.determinize): `side` keeps each side's
        hidden records among the zones of that side when a bot's copy deals them anew (E346)."""
        value = meta["deal_by"]
        if value not in DEAL_BY:
            loc = meta.val_loc.get("deal_by") or meta.key_loc["deal_by"]
            shown = value if isinstance(value, str) else repr(value)
            self.error("E346", f"'deal_by' is one of {', '.join(DEAL_BY)}, not '{shown}'",
                       _site(loc, shown if isinstance(value, str) else None),
                       did_you_mean(shown, DEAL_BY))

    def _at(self, m: YMap, key: str, code: str, message: str) -> None:
        loc = m.val_loc.get(key) or m.key_loc.get(key)
        self.error(code, message, Site(loc.path, loc.line, loc.col) if loc else
                   Site(m.path, m.line, m.col))

    # ---- rule files ---------------------------------------------------------------------
    def _declare(self, model: PackModel, mod: A.Module) -> None:
        path = mod.path
        for d in mod.decls:
            if isinstance(d, A.TriggerDecl):
                model.triggers.append(Trigger(d, path, len(model.triggers)))
                continue
            if isinstance(d, A.CheckDecl):
                model.checks.append((d, path))
                continue
            name = d.name
            if isinstance(d, A.TypeDecl) and d.extend:
                self._extends.append((d, path))  # applied once every pack is declared
                continue
            table = {A.TypeDecl: model.types, A.VarDecl: model.vars, A.ZoneDecl: model.zones,
                     A.EventDecl: model.events, A.ProcDecl: model.procs,
                     A.ValueDecl: model.values, A.GraphDecl: model.graphs,
                     A.WindowDecl: model.windows, A.EnumDecl: model.enums,
                     A.ConstDecl: model.consts}[type(d)]
            site = Site(path, d.at.line, d.at.col)
            if name in RESERVED or name in BUILTIN_EVENTS or name in model.sides:
                self.error("E305", f"'{name}' is reserved", site)
                continue
            if name in KEYWORDS:
                self.error("E305", f"'{name}' is a keyword of the rules language; choose "
                           "another name", site)
                continue
            if name in model.decl_paths:
                if not self._cross(_KINDS[type(d)], name, self._decl_sites[name], site):
                    self.error("E306", f"'{name}' is declared twice (first in "
                               f"{model.decl_paths[name]})", site)
                continue
            model.decl_paths[name] = path
            self._decl_sites[name] = site
            if isinstance(d, A.TypeDecl):
                table[name] = self._type_info(d, path)
            elif isinstance(d, A.WindowDecl):
                table[name] = Window(d, path, window_body(d))
                for opening in d.opens:  # `after e`: a trigger of e that opens the window
                    args = tuple(A.Name(p.name, at=opening.at) for p in d.params)
                    body = (A.ActionStmt(A.Open(name, args, at=opening.at), at=opening.at),)
                    trigger = A.TriggerDecl(opening.kind, opening.event,
                                            tuple(p.name for p in d.params), None, body,
                                            at=opening.at)
                    model.triggers.append(Trigger(trigger, path, len(model.triggers),
                                                  window=name))
            else:
                table[name] = d

    def _apply_extends(self, model: PackModel) -> None:
        """`extend type T:` adds fields to a type, usually one of an imported pack. The
        records of the imported pack cannot give them, so each new field needs a default or
        `?` (E336); an unknown type is E335."""
        for d, path in self._extends:
            site = Site(path, d.at.line, d.at.col)
            info = model.types.get(d.name)
            if info is None or d.name == TABLE_TYPE:
                if d.name not in model.poisoned:
                    self.error("E335", f"'extend type {d.name}': there is no type '{d.name}'"
                               if info is None else "the built-in type 'table' cannot be "
                               "extended", site, did_you_mean(d.name, [
                                   t for t in model.types if t != TABLE_TYPE]))
                continue
            for name, f in self._type_info(d, path).fields.items():
                old = info.fields.get(name)
                if old is not None:
                    self.error("E336", f"type {d.name} already has a field '{name}' (at "
                               f"{old.site.path}:{old.site.line})", f.site)
                elif not f.optional:
                    self.error("E336", f"'{name}' is added to {d.name} by 'extend type': "
                               "records of the pack that declares the type cannot give it, "
                               "so it needs a default ('= ...') or '?'", f.site)
                else:
                    info.fields[name] = f

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
                           _site(loc, str(tname)), did_you_mean(str(tname), [
                               t for t in model.types if t != TABLE_TYPE]))
        return out

    def _require_provenance(self, model: PackModel, part: _Part) -> None:
        """`provenance: required`: every record and rule of the pack `part` says where its
        facts come from."""
        for r in model.records.values():
            if self._owner.get(r.site.path) is not part:
                continue
            if not (r.data.get("source") or r.data.get("reconstructed")):
                self.error("E321", f"{r.type} '{r.id}' has neither 'source:' nor "
                           "'reconstructed:' (this pack requires provenance)", r.site)
        for path, line, what in model.unsourced_rules:
            if self._owner.get(path) is not part:
                continue
            self.error("E322", f"'{what}' has no '# source: ...' or '# reconstructed: ...' line "
                       "above it (this pack requires provenance)", Site(path, line, 1))

    def _provenance(self, model: PackModel, mod: A.Module) -> None:
        """Read `# source: ...` / `# reconstructed: ...` lines right above each declaration."""
        own_line = {line: text.lstrip("#").strip() for line, col, text in mod.comments
                    if col == 1 or not self._code_before(mod.path, line, col)}
        triggers = iter(t for t in model.triggers
                        if t.path == mod.path and t.record is None and t.window is None)
        for d in mod.decls:
            if isinstance(d, A.CheckDecl):
                continue
            key = f"trigger {next(triggers).index}" if isinstance(d, A.TriggerDecl) else \
                f"extend {d.name}" if isinstance(d, A.TypeDecl) and d.extend else d.name
            notes, line = [], d.at.line - 1
            while line in own_line:
                notes.append(own_line[line])
                line -= 1
            found: list[str] = []  # a note goes on over the comment lines below it
            for n in reversed(notes):
                if n.startswith(("source:", "reconstructed:")):
                    found.append(n)
                elif found:
                    found[-1] += " " + n
            if found:
                model.provenance[key] = "; ".join(found)
            else:
                what = key if not key.startswith(("trigger", "extend")) else \
                    f"extend type {d.name}" if key.startswith("extend") else f"{d.kind} {d.event}"
                model.unsourced_rules.append((mod.path, d.at.line, what))

    def _code_before(self, path: str, line: int, col: int) -> bool:
        text = self.sources.get(path, "")
        return bool(source_line(text, line)[:col - 1].strip())

    def _type_info(self, d: A.TypeDecl, path: str) -> TypeInfo:
        fields: dict[str, FieldInfo] = {}
        for f in d.fields:
            site = Site(path, f.at.line, f.at.col)
            if f.name in RECORD_META:
                self.error("E307", f"'{f.name}' is a field every record has already", site)
                continue
            default = None
            if f.default is not None:
                default = literal_value(f.default)
                if default is NOT_LITERAL and not f.var:  # a var field's default is a rule
                    self.error("E308", "a field default must be a literal", site)
                    default = None
            # a var field is optional in YAML: a record may give its starting value there
            fields[f.name] = FieldInfo(f.name, T.from_ast(f.type), isinstance(f.type, A.TOptional)
                                       or f.default is not None or f.var,
                                       None if default is NOT_LITERAL else default, site,
                                       Site(path, f.type.at.line, f.type.at.col), f.var, f)
        return TypeInfo(d.name, fields, Site(path, d.at.line, d.at.col), d.created)

    # ---- record files -------------------------------------------------------------------
    def _collect_records(self, model: PackModel, p: Path, data: Any) -> list[tuple]:
        path = str(p)
        if not isinstance(data, YMap):
            self.error("E310", "a record file maps type names to lists of records "
                       "(e.g. 'card:' followed by '- id: ...')", Site(path, 1, 1))
            return []
        out = []
        for tname, items in data.items():
            kloc = data.key_loc[tname]
            if tname not in model.types:
                self.error("E311", f"unknown record type '{tname}'", Site(path, kloc.line,
                           kloc.col, kloc.col + len(str(tname))),
                           did_you_mean(str(tname), model.types))
                continue
            if not isinstance(items, YList):
                self.error("E310", f"'{tname}' must be a list of records", Site(path, kloc.line,
                           kloc.col))
                continue
            if model.types[tname].created:
                self.error("E273", f"records of type '{tname}' are made in play by rules "
                           f"('create {tname} ...'), not listed in a record file",
                           Site(path, kloc.line, kloc.col, kloc.col + len(str(tname))),
                           f"remove '{tname}:' here, or drop 'created' from 'type {tname}'")
                continue
            for i, rec in enumerate(items):
                loc = items.item_loc[i]
                site = Site(path, loc.line, loc.col)
                if not isinstance(rec, YMap):
                    self.error("E310", "a record is a mapping with an 'id'", site)
                    continue
                out.append((tname, rec, site))
        return out

    def _add_record(self, model: PackModel, tname: str, rec: YMap, site: Site) -> None:
        rid = rec.get("id")
        if isinstance(rid, str):
            model.poisoned.add(rid)  # until it is added below
        if not isinstance(rid, str) or not SLUG.match(rid):
            loc = rec.val_loc.get("id")
            self.error("E312", "a record needs an 'id' that is a lowercase slug like 'north_gate'"
                       if rid is None else f"record id {rid!r} must be a lowercase slug",
                       Site(site.path, loc.line, loc.col) if loc else site)
            return
        loc = rec.val_loc["id"]
        idsite = Site(site.path, loc.line, loc.col, loc.col + len(rid))
        clash = model.records.get(rid)
        if clash is not None and self._cross("record id", rid, clash.site, idsite):
            return
        if clash is not None:
            self.error("E313", f"id '{rid}' is used twice (also a {clash.type} at "
                       f"{clash.site.path}:{clash.site.line})", idsite)
            return
        if rid in model.decl_paths and not model.own_namespace(tname):
            if not self._cross("name", rid, self._decl_sites[rid], idsite):
                self.error("E313", f"id '{rid}' is already the name of a declaration or side",
                           idsite, "tables and glossary terms have names of their own; other "
                           "records share the names of declarations")
            return
        if rid in model.sides or rid in RESERVED:
            self.error("E313", f"id '{rid}' is already the name of a declaration or side", idsite)
            return
        model.poisoned.discard(rid)
        model.records[rid] = Record(rid, tname, {}, idsite)
        model.by_type.setdefault(tname, []).append(rid)

    def _fill_record(self, model: PackModel, tname: str, rec: YMap) -> None:
        rid = rec.get("id")
        record = model.records.get(rid) if isinstance(rid, str) else None
        if record is None or record.type != tname or record.data:
            return
        path = record.site.path
        if tname == TABLE_TYPE:
            return self._fill_table(model, record, rec)
        info = model.types[tname]
        data: dict[str, Any] = {"id": rid}
        for key, value in rec.items():
            kloc = rec.key_loc[key]
            if key in RECORD_META:
                if key != "id":
                    data[key] = value
                continue
            f = info.fields.get(key)
            if f is None:
                self.error("E314", f"{tname} has no field '{key}'",
                           Site(path, kloc.line, kloc.col, kloc.col + len(str(key))),
                           did_you_mean(str(key), [*info.fields, *RECORD_META]))
                continue
            vloc = rec.val_loc[key]
            record.field_sites[key] = Site(path, vloc.line, vloc.col)
            data[key] = self._value(model, f.type, value, rec, key, record, f.optional)
        for f in info.fields.values():
            if f.name not in data and not f.var:  # a var field starts at its default
                if not f.optional:
                    self.error("E315", f"{tname} '{rid}' needs field '{f.name}'", record.site)
                data[f.name] = f.default
        record.data = data
        if "disagree" in rec:
            self._disagree(model, record, rec, [*info.fields, "name"])

    def _value(self, model: PackModel, t: T.Type, value: Any, container: Any, key: Any,
               record: Record, optional: bool) -> Any:
        loc = (container.val_loc.get(key) if isinstance(container, YMap)
               else container.item_loc[key])
        site = Site(loc.path, loc.line, loc.col)
        if value is None:
            if not optional:
                self.error("E316", f"'{key}' needs a value", site)
            return None
        if isinstance(t, tuple):  # list of X
            if not isinstance(value, YList):
                self.error("E316", f"expected a list of {T.show(t[1])}", site)
                return []
            return [self._value(model, t[1], v, value, i, record, False)
                    for i, v in enumerate(value)]
        if t == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                self.error("E316", f"expected a whole number, got {value!r}", site)
            return value
        if t == "bool":
            if not isinstance(value, bool):
                self.error("E316", f"expected true or false, got {value!r}", site)
            return value
        if t == "text":
            if not isinstance(value, str):
                self.error("E316", f"expected text, got {value!r} (quote it)", site)
            return value
        if t == "any":
            fraction = _fraction_in(value)
            if fraction is not None:  # it would reach the game's state, whose numbers are whole
                self.error("E316", f"expected whole numbers, text, true or false, got "
                           f"{fraction!r} (the rules count in whole numbers)", site)
            return value
        if t == "effect":
            return self._effect(model, value, loc, record, str(key))
        if t == "triggers":
            return self._triggers(model, value, loc, record, str(key))
        if t == "side":
            if value not in model.sides:
                self.error("E317", f"unknown side {value!r}", Site(site.path, site.line, site.col,
                           site.col + len(str(value))), did_you_mean(str(value), model.sides))
            return value
        if t in model.enums:
            return self._enum_value(model, t, value, loc)
        if t not in model.types:
            return value  # an undeclared field type: the checker reports the type (E202)
        # a reference to a record of type t
        if not isinstance(value, str):
            self.error("E318", f"expected the id of a {t}, got {_brief(value)}", site)
            return value
        target = model.records.get(value)
        if target is None or target.type != t:
            end = site.col + len(str(value))
            if target is not None:
                self.error("E318", f"'{value}' is a {target.type}, not a {t}",
                           Site(site.path, site.line, site.col, end))
            elif value in model.poisoned:
                pass  # defined in a part of the pack that is already reported as broken
            else:
                self.error("E318", f"unknown {t} '{value}'", Site(site.path, site.line, site.col,
                           end), did_you_mean(str(value), model.by_type.get(t, [])))
        return value

    def _enum_value(self, model: PackModel, t: str, value: Any, loc: Any) -> Any:
        """A value of enum `t`: one of its names, written as plain text (E280 if not)."""
        values = model.enum_values(t)
        if not isinstance(value, str):
            self.error("E280", f"expected one of {t}'s values ({', '.join(values)}), got "
                       f"{_brief(value)}", _site(loc))
        elif value not in values:
            quoted = getattr(loc, "style", None) in ("'", '"')  # point at the text inside
            site = Site(loc.path, loc.line, loc.col + 1, loc.col + 1 + len(value)) if quoted \
                else _site(loc, value)
            self.error("E280", f"'{value}' is not a value of {t} (values: {', '.join(values)})",
                       site, did_you_mean(value, values))
        return value

    def _text_start(self, loc: Any) -> tuple[int, int]:
        """Line and column where the text of a YAML scalar starts in its file."""
        src = self.sources.get(loc.path, "")
        line, col = loc.line, loc.col
        if loc.style in ("|", ">"):
            lines = src.splitlines()
            line = loc.line + 1
            while line <= len(lines) and not lines[line - 1].strip():
                line += 1
            body = lines[line - 1] if line <= len(lines) else ""
            col = len(body) - len(body.lstrip()) + 1
        elif loc.style in ("'", '"'):
            col += 1
        return line, col

    def _effect(self, model: PackModel, text: Any, loc: Any, record: Record, field: str) -> Any:
        if not isinstance(text, str):
            self.error("E316", "an effect is text in the rules language (use '|')",
                       Site(loc.path, loc.line, loc.col))
            return None
        src = self.sources.get(loc.path, "")
        line, col = self._text_start(loc)
        try:
            body = parse_effect(text, loc.path, line, col)
        except DslError as err:
            for d in err.diagnostics:  # show the line as it is in the file
                self.diags.append(attrs.evolve(d, line_text=source_line(src, d.line)))
            return None
        model.effects.append(Effect(record.id, field, record.type, body,
                                    Site(loc.path, line, col)))
        return field  # the record holds the field name; the compiled effect is looked up by id

    def _triggers(self, model: PackModel, text: Any, loc: Any, record: Record, field: str
                  ) -> Any:
        """Trigger declarations written on a record; inside them `self` is the record.
        They run after the triggers of `.rules` files, in record order."""
        if not isinstance(text, str):
            self.error("E316", "triggers are text in the rules language (use '|')",
                       Site(loc.path, loc.line, loc.col))
            return None
        src = self.sources.get(loc.path, "")
        line, col = self._text_start(loc)
        decls, diags = parse_record_decls(text, loc.path, line, col)
        for d in diags:
            self.diags.append(attrs.evolve(d, line_text=source_line(src, d.line)))
        for d in decls:
            if not isinstance(d, A.TriggerDecl):
                self.error("E320", "only triggers (before/on/instead of/after) may be written "
                           f"in a record's '{field}' field", Site(loc.path, d.at.line, d.at.col))
                continue
            model.triggers.append(Trigger(d, loc.path, len(model.triggers), record.id,
                                          record.type))
        return field

    def _fill_table(self, model: PackModel, record: Record, rec: YMap) -> None:
        path = record.site.path
        data: dict[str, Any] = {"id": record.id}
        for key, value in rec.items():
            if key in RECORD_META:
                if key != "id":
                    data[key] = value
            elif key not in ("rows", "columns"):
                kloc = rec.key_loc[key]
                self.error("E314", f"a table has 'rows' and optional 'columns', not '{key}'",
                           Site(path, kloc.line, kloc.col), did_you_mean(str(key),
                           ["rows", "columns", *RECORD_META]))
        rows = rec.get("rows")
        if not isinstance(rows, YMap):
            self.error("E319", "a table needs 'rows': a mapping from row key to a value or a "
                       "list (one per column)", record.site)
            record.data = data
            return
        columns = rec.get("columns")
        ncols = len(columns) if isinstance(columns, list) else None
        for rkey, row in rows.items():
            loc = rows.val_loc[rkey]
            if isinstance(row, list) and ncols is not None and len(row) != ncols:
                self.error("E319", f"row {rkey!r} has {len(row)} entries, the table has {ncols} "
                           "columns", Site(path, loc.line, loc.col))
            for spec in ([rkey] + (list(columns) if isinstance(columns, list) else [])):
                if key_matcher(spec) is None:
                    self.error("E319", f"table key {spec!r} is not a number, a range like '2-4', "
                               "'5+' or '-1' or a name", Site(path, loc.line, loc.col))
        data["rows"] = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict)
                            else v) for k, v in rows.items()}
        data["columns"] = list(columns) if isinstance(columns, list) else None
        record.data = data
        if "disagree" in rec:
            self._disagree(model, record, rec, ["rows", "columns", "name"])

    # ---- disagreeing sources --------------------------------------------------------------
    def _disagree(self, model: PackModel, record: Record, rec: YMap, fields: list[str]) -> None:
        """A record's `disagree:` list: where another source gives a field another value.
        Shape E324, missing `field`/`source` E325, unknown field E326; an entry whose value
        is the record's own is no disagreement (W327). Good entries go to the model."""
        entries = rec.get("disagree")
        loc = rec.val_loc.get("disagree") or rec.key_loc["disagree"]
        if entries is None:
            return
        if not isinstance(entries, YList):
            self.error("E324", "'disagree' is a list of {field: ..., value: ..., source: ..., "
                       "note: ...}", _site(loc))
            return
        for i, entry in enumerate(entries):
            item = _site(entries.item_loc[i])
            if not isinstance(entry, YMap):
                self.error("E324", "a 'disagree' entry is a mapping {field: ..., value: ..., "
                           "source: ..., note: ...}", item)
                continue
            d = self._disagreement(record, entry, item, fields)
            if d is not None:
                model.disagreements.append(d)

    def _disagreement(self, record: Record, entry: YMap, item: Site, fields: list[str]
                      ) -> Disagreement | None:
        good = True
        for key in entry:
            if key not in DISAGREE_KEYS:
                self.error("E324", f"unknown key '{key}' in a 'disagree' entry",
                           _site(entry.key_loc[key], str(key)),
                           did_you_mean(str(key), DISAGREE_KEYS))
                good = False
        for key in ("field", "source"):
            value = entry.get(key)
            if key not in entry:
                self.error("E325", f"a 'disagree' entry needs '{key}:' (" + (
                           "which field the sources disagree on)" if key == "field" else
                           "which source says otherwise)"), item)
                good = False
            elif not isinstance(value, str) or not value.strip():
                self.error("E325", f"'{key}' of a 'disagree' entry must be text",
                           _site(entry.val_loc[key]))
                good = False
        note = entry.get("note")
        if note is not None and not isinstance(note, str):
            self.error("E324", "'note' of a 'disagree' entry must be text",
                       _site(entry.val_loc["note"]))
            good = False
        field = entry.get("field")
        if isinstance(field, str) and field not in fields:
            self.error("E326", f"{record.type} has no field '{field}' to disagree on",
                       _site(entry.val_loc["field"], field), did_you_mean(field, fields))
            good = False
        if not good:
            return None
        own, has_value = record.data.get(field), "value" in entry
        value = _plain(entry.get("value"))
        if has_value and _same(value, own):
            self.warn("W327", f"the 'disagree' entry gives {field} = {show_value(value)}, the "
                      f"{record.type}'s own value: that is no disagreement",
                      _site(entry.val_loc["value"]), "give the other source's value, or "
                      "remove the entry")
            return None
        return Disagreement(record.id, record.type, field, own, value, has_value,
                            entry["source"].strip(), note.strip() if note else None,
                            record.site, item)


_KINDS = {A.TypeDecl: "type", A.VarDecl: "var", A.ZoneDecl: "zone", A.EventDecl: "event",
          A.ProcDecl: "procedure", A.ValueDecl: "value", A.GraphDecl: "graph",
          A.WindowDecl: "window", A.EnumDecl: "enum", A.ConstDecl: "const"}


def _meta_get(meta: YMap | None, key: str) -> Any:
    return meta.get(key) if meta is not None else None


def _known_packs(importer: Path) -> list[str]:
    """Pack ids an import could mean (for did-you-mean): folders next to the importing
    pack that hold a pack.yaml, and the shipped packs."""
    names = []
    for folder in (importer.parent, shipped_root()):
        try:
            names += [e.name for e in os.scandir(folder) if e.is_dir()
                      and os.path.isfile(os.path.join(e.path, "pack.yaml"))]
        except (OSError, TypeError):
            continue
    return sorted(set(names))


def _fraction_in(value: Any) -> float | None:
    """The first fractional number in YAML data (in lists and maps too), or None."""
    if isinstance(value, float):
        return value
    items = value.values() if isinstance(value, dict) else value if isinstance(
        value, list) else ()
    return next((f for f in map(_fraction_in, items) if f is not None), None)


def _site(loc: Any, text: str | None = None) -> Site:
    """A diagnostic site at a YAML location; with `text`, the caret spans it (plain style)."""
    end = loc.col + len(text) if text is not None and getattr(loc, "style", None) is None \
        else None
    return Site(loc.path, loc.line, loc.col, end)


def _plain(value: Any) -> Any:
    """YAML data as plain lists and dicts."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _same(a: Any, b: Any) -> bool:
    """Equal as data, telling true from 1 and 2 from "2" (mappings may mix key kinds,
    as table rows do: `1:` and `"2-4":`)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (bool, int, float, str)) and isinstance(b, (bool, int, float, str)):
        return isinstance(a, bool) == isinstance(b, bool) and \
            isinstance(a, str) == isinstance(b, str) and a == b
    return a == b


def show_value(value: Any) -> str:
    """A value as a designer writes it: none, true, 3, text, [a, b]."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {show_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _brief(value: Any, width: int = 60) -> str:
    """`show_value`, cut short: a message should not repeat a whole list."""
    shown = show_value(value)
    return shown if len(shown) <= width else shown[:width - 3] + "..."


# Bounded digits: int() refuses more than 4,300, and no table needs more than a few.
_RANGE = re.compile(r"^\s*(-?\d{1,18})\s*(?:-\s*(-?\d{1,18})|(\+))?\s*$")


def key_matcher(spec: Any) -> tuple | None:
    """A table key: 3 -> (3, 3); '2-4' -> (2, 4); '5+' -> (5, None); 'name' -> ('=', name)."""
    if isinstance(spec, bool):
        return None
    if isinstance(spec, int):
        return (spec, spec)
    if isinstance(spec, str):
        m = _RANGE.match(spec)
        if m:
            lo = int(m.group(1))
            hi = int(m.group(2)) if m.group(2) else (None if m.group(3) else lo)
            return (lo, hi)
        if SLUG.match(spec):
            return ("=", spec)
    return None


NOT_LITERAL = object()


def window_body(w: A.WindowDecl) -> tuple[A.Stmt, ...]:
    """The rule a window runs, written with the language's own statements:

        let x = choose x from <source> by <by> where <where> optional prompt <prompt>
        if x != none:
            move x to <to>
            run(x.<effect>)
        return x

    The choice carries the window's name: the engine then asks even when nothing is offered
    (see engine.core.runtime.Runtime.open_window), so the other side cannot tell what is held."""
    at = w.at

    def var() -> A.Name:
        return A.Name(w.var, at=at)

    choose = A.Choose(None, w.var, w.source, by=w.by, where=w.where, optional=True,
                      prompt=w.prompt.value if w.prompt is not None else None, window=w.name,
                      at=w.source.at)
    played: list[A.Stmt] = [A.Move(var(), w.to, at=w.to.at)]
    if w.effect is not None:
        e = w.effect
        run = A.Call("run", (A.Attr(var(), e.id, at=e.at),), at=e.at)
        played.append(A.ExprStmt(run, at=e.at))
    played_test = A.Compare("!=", var(), A.NoneLit(at=at), at=at)
    return (A.Let(w.var, choose, at=w.source.at),
            A.If(((played_test, tuple(played)),), None, at=at),
            A.Return(var(), at=at))


def literal_value(e: A.Expr) -> Any:
    """The value a literal expression stands for (ids as text), or NOT_LITERAL."""
    if isinstance(e, (A.Int, A.Str, A.Bool)):
        return e.value
    if isinstance(e, A.NoneLit):
        return None
    if isinstance(e, A.Name):  # a side or record id; checked with the other names
        return e.id
    if isinstance(e, A.ListLit):
        items = [literal_value(i) for i in e.items]
        return NOT_LITERAL if NOT_LITERAL in items else items
    return NOT_LITERAL
