"""What every part of reading a pack shares (`PackReader`): the files read so far, the
diagnostics found, which pack each file belongs to, and the reporting of a problem at its
place. The areas of the reading are subclasses of it, combined in
`engine.dsl.pack.loader`.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.dsl.errors import Diagnostic, source_line
from engine.dsl.files import link_problem, printable_path, refused_link, walk_pack
from engine.dsl.model import Site
from engine.dsl.parser import parse_effect, parse_module_partial
from engine.dsl.parser.memo import Parsed, ParseMemo
from engine.dsl.yamlload import YMap


@attrs.define
class Part:
    """One pack read into a build: the pack itself, or one it imports (maybe indirectly)."""

    id: str
    root: Path
    meta: YMap | None  # its pack.yaml
    via: Site | None  # the item of the pack's own `imports:` it came through; None: the pack


class PackReader:
    """The state of one pack's reading, shared by its areas: files read (`sources`), the
    diagnostics (`diags`), the pack each file belongs to, where each name is declared."""

    def __init__(self, root: Path, overlay: dict[str, str] | None = None,
                 memo: ParseMemo | None = None):
        self.root = root
        # texts that stand for files' contents (an editor's unsaved buffers), by absolute path
        self.overlay = overlay or {}
        self.memo = memo  # the files parsed before, when the caller keeps them
        self.real_root = Path(os.path.realpath(root))
        self._meta_map: YMap | None = None
        self.diags: list[Diagnostic] = []
        self.sources: dict[str, str] = {}
        self.rel_sources: dict[str, str] = {}
        self._owner: dict[str, Part] = {}  # file path -> the pack it belongs to
        self._decl_sites: dict[str, Site] = {}  # declared name -> where
        self._extends: list[tuple[A.TypeDecl, str]] = []
        self.import_roots: list[Path] = []
        self.probes: list[tuple[str, bool]] = []  # (pack.yaml looked for, found) per import
        self._texts: dict[str, list[tuple[str, str]]] = {}  # pack folder -> (file, text)

    def _parse_rules(self, text: str, path: str) -> Parsed:
        """A rules file's declarations, diagnostics and broken names (from the memo if any)."""
        if self.memo is not None:
            return self.memo.module(text, path)
        return parse_module_partial(text, path)

    def _parse_effect(self, text: str, path: str, line: int, col: int) -> tuple[A.Stmt, ...]:
        """A record field's statement block (from the memo if any); raises DslError."""
        if self.memo is not None:
            return self.memo.effect(text, path, line, col)
        return parse_effect(text, path, line, col)

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

    def _read(self, p: Path, part: Part | None = None) -> str | None:
        try:
            text = self.overlay.get(os.path.abspath(p))
            if text is None:
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
        key = rel if part is None or folder is self.root else f"@{part.id}/{rel}"
        self.rel_sources[key] = text
        return text

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

    def _at(self, m: YMap, key: str, code: str, message: str) -> None:
        loc = m.val_loc.get(key) or m.key_loc.get(key)
        self.error(code, message, Site(loc.path, loc.line, loc.col) if loc else
                   Site(m.path, m.line, m.col))


def meta_get(meta: YMap | None, key: str) -> Any:
    return meta.get(key) if meta is not None else None


def site_at(loc: Any, text: str | None = None) -> Site:
    """A diagnostic site at a YAML location; with `text`, the caret spans it (plain style)."""
    end = loc.col + len(text) if text is not None and getattr(loc, "style", None) is None \
        else None
    return Site(loc.path, loc.line, loc.col, end)

