"""Reading a pack directory (`read_pack`): pack.yaml, the packs it imports, rule files,
record files, in that order, into a `PackSource`. The reading is done by areas
(`ImportsReader`, `MetaReader`, `RulesReader`, `ProvenanceReader`, `RecordsReader`), which
`_Loader` combines; `load` is the order they run in.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl.errors import Diagnostic
from engine.dsl.files import digest_texts, printable_path
from engine.dsl.model import TABLE_TYPE, PackModel, Site, TypeInfo
from engine.dsl.pack.declarations import RulesReader
from engine.dsl.pack.imports import ImportsReader
from engine.dsl.pack.meta import MetaReader
from engine.dsl.pack.provenance import ProvenanceReader
from engine.dsl.pack.reader import Part, meta_get
from engine.dsl.pack.records import RecordsReader
from engine.dsl.parser.memo import ParseMemo
from engine.dsl.yamlload import load_yaml

_YAML_IDS = re.compile(r"\bid:\s*['\"]?([a-z][a-z0-9_]*)")


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


def read_pack(root: Path, overlay: dict[str, str] | None = None,
              memo: ParseMemo | None = None) -> PackSource:
    """Load a pack directory. Never raises for bad content: see `.diagnostics`. `overlay`
    gives texts to read instead of some files' contents, by absolute path (an editor's
    unsaved buffers), and `memo` the files parsed before (engine.dsl.workspace)."""
    loader = _Loader(root, overlay, memo)
    return loader.load()


class _Loader(ImportsReader, MetaReader, RulesReader, ProvenanceReader, RecordsReader):
    """Every area of the reading of one pack; `load` runs them in order."""

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
        own = Part(str(meta.get("id", root.name)), root, self._meta_map, None)
        parts = [*self._imports(own), own]
        self.import_roots = [p.root for p in parts[:-1]]
        listed = meta.get("sides")  # a bad value is reported by _meta
        if listed is None and len(parts) > 1:
            listed = meta_get(parts[0].meta, "sides")  # inherited from the first import
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
        rule_files: list[tuple[Path, Part]] = []
        record_files: list[tuple[Path, Part]] = []
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
            module, diags, broken = self._parse_rules(text, str(p))
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
        if self._meta_map is not None:
            self._play_keys(model, self._meta_map)
        if self._meta_map is not None and "determinize" in self._meta_map:
            self._determinize(model, self._meta_map)
        if self._meta_map is not None and "search_minimax" in self._meta_map:
            self._search_minimax(self._meta_map)
        if self._meta_map is not None and "deal_by" in self._meta_map:
            self._deal_by(self._meta_map)
        if self._meta_map is not None and "unread" in self._meta_map:
            model.unread = self._unread(self._meta_map)
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
        if self._meta_map is not None and "board" in self._meta_map:
            self._board(model, self._meta_map)  # after the records: it reads their positions
        if self._meta_map is not None and "balance" in self._meta_map:
            self._balance(model, self._meta_map)
        for part in parts:
            self._part_provenance(model, part)
        digests = {folder: digest_texts(texts) for folder, texts in self._texts.items()}
        return PackSource(root, meta, model, self.sources, self.diags,
                          pack_hash(self.rel_sources), modules, self.import_roots, self.probes,
                          digests)

