"""Read a pack directory into a `PackModel`: pack.yaml, record files and rule files.

Every problem becomes a located diagnostic; loading goes on after an error so that one run
reports all of them.
"""
from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from pathlib import Path
from typing import Any

import attrs

from dsl import ast as A
from dsl import types as T
from dsl.errors import Diagnostic, DslError, did_you_mean, source_line
from dsl.model import (BUILTIN_EVENTS, LIMIT_KEYS, TABLE_TYPE, Disagreement, Effect, FieldInfo, PackModel,
                       Record, Site, Trigger, TypeInfo)
from dsl.parser import parse_effect, parse_module_partial, parse_record_decls
from dsl.yamlload import YList, YMap, load_yaml

SLUG = re.compile(r"^[a-z][a-z0-9_]*$")
_YAML_IDS = re.compile(r"\bid:\s*['\"]?([a-z][a-z0-9_]*)")
PACK_KEYS = {"id": True, "name": True, "version": True, "sides": True, "languages": False,
             "sources": False, "description": False, "options": False, "provenance": False,
             "board": False, "playable": False, "names_from": False, "limits": False}
# Keys every record may carry besides its type's fields.
RECORD_META = ("id", "name", "source", "reconstructed", "note", "disagree")
# Keys of one `disagree:` entry.
DISAGREE_KEYS = ("field", "value", "source", "note")
RESERVED = {"sides", "self", "none", "true", "false", "active_side"}
PACK_FILE_SUFFIXES = (".rules", ".yaml")
# Characters no pack file name may hold: a printed path (or code naming it) would show
# something other than the file. Cc: controls (newline, escape, U+0085); Cf: format
# characters such as the bidi override U+202E; Zl/Zp: U+2028/U+2029 line breaks; Cs: bytes
# that are not UTF-8 (Python keeps them as lone surrogates).
_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


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
    hash: str
    modules: list[A.Module] = attrs.Factory(list)


def pack_hash(files: dict[str, str]) -> str:
    h = hashlib.sha256()
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + files[rel].encode() + b"\0")
    return h.hexdigest()[:16]


def _is_bad_name_char(ch: str) -> bool:
    return unicodedata.category(ch) in _BAD_NAME_CATEGORIES


def has_bad_name_char(name: str) -> bool:
    """Does `name` hold a character that could make it print as something else?"""
    return any(_is_bad_name_char(ch) for ch in name)


def _escape_char(ch: str) -> str:
    if ch in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[ch]
    if not _is_bad_name_char(ch):
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def _link_problem(path: Path, real_root: Path) -> str | None:
    """Why the link `path` may not be followed from a folder whose real path is
    `real_root` (None: it stays inside)."""
    try:
        target = Path(os.path.realpath(path, strict=True))
    except OSError:  # missing target, or a loop of links
        return "leads nowhere (its target is missing, or links loop)"
    if target != real_root and real_root not in target.parents:
        return "leads out of the pack folder"
    return None


def refused_file(path: Path, folder: Path) -> Diagnostic | None:
    """The E328/E329 diagnostic that refuses reading `path` (a file inside `folder`), or
    None when it may be read: for readers outside a pack walk (translation files, a quick
    look at pack.yaml) that must refuse what the pack reader refuses."""
    if has_bad_name_char(path.name):
        return Diagnostic("E328", "a file name with a control, bidi or line-break character "
                          "(shown escaped): it is not read", printable_path(str(path)), 0, 0,
                          suggestion="rename it using letters, digits, '-', '_' and '.'")
    if path.is_symlink():
        why = _link_problem(path, Path(os.path.realpath(folder)))
        if why is not None:
            return Diagnostic("E329", f"symbolic link that {why}: it is not read",
                              printable_path(str(path)), 0, 0,
                              suggestion="put the file itself inside the folder")
    if path.exists() and not path.is_file():  # a FIFO or device would block or never end
        return Diagnostic("E300", "not a regular file: it is not read",
                          printable_path(str(path)), 0, 0)
    return None


def printable_path(path: str) -> str:
    """`path` as it may be printed: unchanged when harmless, else with every control, bidi or
    line-break character (and, so the escapes read one way, every backslash) escaped."""
    if not has_bad_name_char(path):
        return path
    return "".join(_escape_char(ch) for ch in path)


def read_pack(root: Path) -> PackSource:
    """Load a pack directory. Never raises for bad content: see `.diagnostics`."""
    loader = _Loader(root)
    return loader.load()


class _Loader:
    def __init__(self, root: Path):
        self.root = root
        self.real_root = Path(os.path.realpath(root))
        self._meta_map: YMap | None = None
        self.diags: list[Diagnostic] = []
        self.sources: dict[str, str] = {}
        self.rel_sources: dict[str, str] = {}

    def error(self, code: str, message: str, site: Site, suggestion: str | None = None,
              severity: str = "error") -> None:
        if any(d.path == site.path and d.line == site.line and d.col == site.col and site.line
               for d in self.diags):
            return  # one report per spot: the YAML loader may have flagged this value already
        text = self.sources.get(site.path, "")
        self.diags.append(Diagnostic(code, message, site.path, site.line, site.col,
                                     source_line(text, site.line) if site.line else "",
                                     site.end_col, suggestion, severity))

    def warn(self, code: str, message: str, site: Site, suggestion: str | None = None) -> None:
        self.error(code, message, site, suggestion, "warning")

    def _read(self, p: Path) -> str | None:
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
        self.rel_sources[p.relative_to(self.root).as_posix()] = text
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
        listed = meta.get("sides")  # a bad value is reported by _meta
        sides = [s for s in listed if isinstance(s, str)] if isinstance(listed, list) else []
        model = PackModel(id=str(meta.get("id", root.name)), sides=sides, root=str(root))
        playable = meta.get("playable", True)
        if not isinstance(playable, bool) and self._meta_map is not None:
            self._at(self._meta_map, "playable", "E304",
                     "'playable' is true or false (false: a data pack with no rules yet)")
        model.playable = playable is not False
        model.types[TABLE_TYPE] = TypeInfo(TABLE_TYPE, {}, Site(str(meta_path)))
        files = self._pack_files() if root.is_dir() else []
        rule_files = sorted(p for p in files if p.name.endswith(".rules"))
        record_files = sorted(p for p in files if p.name.endswith(".yaml") and p != meta_path)
        modules = []
        for p in rule_files:
            text = self._read(p)
            if text is None:
                continue
            module, diags, broken = parse_module_partial(text, str(p))
            modules.append(module)
            self.diags.extend(diags)
            model.poisoned |= broken
        for mod in modules:
            self._declare(model, mod)
            self._provenance(model, mod)
        if self._meta_map is not None and "names_from" in self._meta_map:
            model.names_from = self._names_from(model, self._meta_map)
        raw_records = []
        for p in record_files:
            text = self._read(p)
            if text is None:
                continue
            data, diags = load_yaml(str(p), text)
            self.diags.extend(diags)
            if data is not None:
                raw_records.extend(self._collect_records(model, p, data))
            else:  # unreadable: its ids are unknown, but uses of them are not new errors
                model.poisoned |= set(_YAML_IDS.findall(text))
        for rtype, rec, site in raw_records:
            self._add_record(model, rtype, rec, site)
        for rtype, rec, site in raw_records:
            self._fill_record(model, rtype, rec)
        if meta.get("provenance") == "required":
            self._require_provenance(model)
        elif meta.get("provenance") not in (None, "optional") and self._meta_map is not None:
            self._at(self._meta_map, "provenance", "E304",
                     "'provenance' is 'required' or 'optional'")
        return PackSource(root, meta, model, self.sources, self.diags,
                          pack_hash(self.rel_sources), modules)

    # ---- finding the files ---------------------------------------------------------------
    def _pack_files(self) -> list[Path]:
        """Every `.rules` and `.yaml` file below the root that may be read. Files whose path
        holds a control character are refused (E328), and so are links leading out of the
        pack or nowhere (E329). Links to directories are never walked into: one inside the
        pack leads to files read at their own place anyway (and could loop), one outside
        is refused."""
        found: list[Path] = []
        # (directory, its first badly named directory counting from the root, if any)
        todo: list[tuple[Path, Path | None]] = [(self.root, None)]
        refused_dirs: set[Path] = set()
        while todo:
            folder, bad_dir = todo.pop()
            for entry in self._entries(folder):
                path = Path(entry.path)
                bad = bad_dir or (path if has_bad_name_char(entry.name) else None)
                if entry.is_dir(follow_symlinks=False):
                    todo.append((path, bad))
                    continue
                is_pack_file = entry.name.endswith(PACK_FILE_SUFFIXES)
                if is_pack_file and bad is not None:
                    if bad not in refused_dirs:
                        refused_dirs.add(bad)
                        self._refuse_name(bad, is_dir=bad != path)
                    continue
                if entry.is_symlink():
                    to_dir = os.path.isdir(path)
                    if not (is_pack_file or to_dir):
                        continue  # never read: nothing to refuse
                    if not self._link_is_safe(path) or to_dir:
                        continue
                if is_pack_file and entry.is_file():
                    found.append(path)
        return found

    def _entries(self, folder: Path) -> list[os.DirEntry]:
        try:
            with os.scandir(folder) as it:
                return list(it)
        except OSError as err:
            self.diags.append(Diagnostic("E300", f"cannot read folder: {err.strerror}",
                                         printable_path(str(folder)), 0, 0))
            return []

    def _refuse_name(self, path: Path, is_dir: bool) -> None:
        what = "a folder name" if is_dir else "a file name"
        self.diags.append(Diagnostic(
            "E328", f"{what} with a control, bidi or line-break character (shown escaped): "
            f"{'its files are' if is_dir else 'it is'} not read", printable_path(str(path)), 0,
            0, suggestion="rename it using letters, digits, '-', '_' and '.'"))

    def _link_is_safe(self, path: Path) -> bool:
        """May the link `path` be followed? Only into the pack (E329 if not): a link out of
        the pack could make the engine read, and print, any file: leak.yaml -> /etc/passwd."""
        why = _link_problem(path, self.real_root)
        if why is not None:
            self._refuse_link(path, why)
            return False
        return True

    def _refuse_link(self, path: Path, why: str) -> None:
        self.diags.append(Diagnostic(
            "E329", f"symbolic link that {why}: it is not read", printable_path(str(path)), 0, 0,
            suggestion="put the file itself inside the pack folder"))

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
            if required and key not in data:
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
            table = {A.TypeDecl: model.types, A.VarDecl: model.vars, A.ZoneDecl: model.zones,
                     A.EventDecl: model.events, A.ProcDecl: model.procs,
                     A.ValueDecl: model.values, A.GraphDecl: model.graphs}[type(d)]
            site = Site(path, d.at.line, d.at.col)
            if name in RESERVED or name in BUILTIN_EVENTS or name in model.sides:
                self.error("E305", f"'{name}' is reserved", site)
                continue
            if name in KEYWORDS:
                self.error("E305", f"'{name}' is a keyword of the rules language; choose "
                           "another name", site)
                continue
            if name in model.decl_paths:
                self.error("E306", f"'{name}' is declared twice (first in "
                           f"{model.decl_paths[name]})", site)
                continue
            model.decl_paths[name] = path
            if isinstance(d, A.TypeDecl):
                table[name] = self._type_info(d, path)
            else:
                table[name] = d

    def _require_provenance(self, model: PackModel) -> None:
        """`provenance: required`: every record and rule says where its facts come from."""
        for r in model.records.values():
            if not (r.data.get("source") or r.data.get("reconstructed")):
                self.error("E321", f"{r.type} '{r.id}' has neither 'source:' nor "
                           "'reconstructed:' (this pack requires provenance)", r.site)
        for path, line, what in model.unsourced_rules:
            self.error("E322", f"'{what}' has no '# source: ...' or '# reconstructed: ...' line "
                       "above it (this pack requires provenance)", Site(path, line, 1))

    def _provenance(self, model: PackModel, mod: A.Module) -> None:
        """Read `# source: ...` / `# reconstructed: ...` lines right above each declaration."""
        own_line = {line: text.lstrip("#").strip() for line, col, text in mod.comments
                    if col == 1 or not self._code_before(mod.path, line, col)}
        triggers = iter(t for t in model.triggers if t.path == mod.path and t.record is None)
        for d in mod.decls:
            if isinstance(d, A.CheckDecl):
                continue
            key = f"trigger {next(triggers).index}" if isinstance(d, A.TriggerDecl) else d.name
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
                what = key if not key.startswith("trigger") else f"{d.kind} {d.event}"
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
                if default is NOT_LITERAL:
                    self.error("E308", "a field default must be a literal", site)
                    default = None
            fields[f.name] = FieldInfo(f.name, T.from_ast(f.type), isinstance(f.type, A.TOptional)
                                       or f.default is not None, default, site,
                                       Site(path, f.type.at.line, f.type.at.col))
        return TypeInfo(d.name, fields, Site(path, d.at.line, d.at.col))

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
        if clash is not None:
            self.error("E313", f"id '{rid}' is used twice (also a {clash.type} at "
                       f"{clash.site.path}:{clash.site.line})", idsite)
            return
        if rid in model.decl_paths or rid in model.sides or rid in RESERVED:
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
            if f.name not in data:
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
