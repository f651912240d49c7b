"""The packs a pack imports (pack.yaml `imports:`): found by id next to the pack or among
the shipped packs, each read once, in an order where every pack comes after those it
imports; cycles, unknown ids and packs that cannot be imported are reported.
"""
from __future__ import annotations

import os
from pathlib import Path

from engine.dsl.errors import did_you_mean
from engine.dsl.files import printable_path, refused_file, shipped_root
from engine.dsl.model import Site
from engine.dsl.pack.reader import PackReader, Part, meta_get, site_at
from engine.dsl.pack.words import SLUG
from engine.dsl.yamlload import YList, YMap, load_yaml


class ImportsReader(PackReader):
    """The packs a pack imports."""

    def _imports(self, own: Part) -> list[Part]:
        """The packs `own` imports, directly or through another, each once, every pack after
        those it imports. An import is found by id: the folder of that name next to the
        importing pack, else the shipped pack of that name."""
        order: list[Part] = []
        done: set[Path] = set()
        chain: list[tuple[Path, str]] = [(self.real_root, own.id)]

        def visit(part: Part) -> None:
            for name, site in self._import_list(part):
                via = part.via or site
                found = self._find_import(part.root, name)
                if found is None:
                    self.error("E331", f"unknown pack '{name}' in 'imports'", site,
                               did_you_mean(name, known_packs(part.root)))
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
                child = Part(name, found, meta, via)
                chain.append((real, name))
                visit(child)
                chain.pop()
                done.add(real)
                order.append(child)
        visit(own)
        return order

    def _import_list(self, part: Part) -> list[tuple[str, Site]]:
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
                           site_at(loc))
                continue
            out.append((name, site_at(loc, name)))
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
        part = Part(name, root, None, site)
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

    def _same_sides(self, parts: list[Part], sides: list[str], own_sides: bool) -> None:
        """A pack and its imports play with the same sides, in the same order (E334)."""
        own = parts[-1]
        for part in parts[:-1]:
            theirs = meta_get(part.meta, "sides")
            if not isinstance(theirs, list) or list(theirs) == sides:
                continue
            site = (site_at(own.meta.val_loc["sides"]) if own_sides and own.meta is not None
                    else part.via)
            assert site is not None  # an imported pack comes through an item of `imports:`
            self.error("E334", f"pack '{own.id}' has sides [{', '.join(sides)}], but it imports "
                       f"'{part.id}', whose sides are [{', '.join(map(str, theirs))}]", site,
                       "a pack and the packs it imports play with the same sides, in the same "
                       "order")


def known_packs(importer: Path) -> list[str]:
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

