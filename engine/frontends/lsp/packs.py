"""The packs an editor has files of open: one `engine.dsl.workspace.Workspace` per pack
folder (the nearest folder above a file with a pack.yaml), checked again as a file changes,
with the pack's translation files (engine.core.validate: as `engine validate` checks them,
the editor's unsaved texts standing for the files), and its `check`s run when asked
(`run_checks`: on open and on save, as compiling a pack takes a while); and the diagnostics
of each of its files to show (those it showed before and has no more, as none, so the
editor clears them)."""
from __future__ import annotations

import os

import attrs

from engine.core.validate import UNREAD, source_checks, source_translations, translation_pack
from engine.dsl.errors import Diagnostic, sort_key
from engine.dsl.workspace import Workspace
from engine.frontends.lsp.symbols import PackIndex

FileDiagnostics = list[tuple[str, list[Diagnostic]]]  # (absolute path, its diagnostics)


def pack_root(path: str) -> str | None:
    """The folder of the pack that the file `path` belongs to: the nearest one above it
    with a pack.yaml; None outside any pack."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.isfile(os.path.join(folder, "pack.yaml")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


@attrs.define
class OpenPacks:
    workspaces: dict[str, Workspace] = attrs.Factory(dict)  # pack folder -> its workspace
    shown: dict[str, set[str]] = attrs.Factory(dict)  # pack folder -> files with diagnostics
    _indexes: dict[str, tuple[object, PackIndex]] = attrs.Factory(dict)  # of the last source
    # absolute path -> the index of the last check that parsed the file (the types of its
    # names, while the text being typed does not parse)
    _parsed: dict[str, PackIndex] = attrs.Factory(dict)
    translated: dict[str, str] = attrs.Factory(dict)  # translation file -> the editor's text
    # pack folder -> the diagnostics of its last check (reading, syntax, checker, dead
    # data), of its translation files, and of its `check`s when they last ran
    checked: dict[str, list[Diagnostic]] = attrs.Factory(dict)
    translations: dict[str, list[Diagnostic]] = attrs.Factory(dict)
    ran: dict[str, list[Diagnostic]] = attrs.Factory(dict)

    def change(self, path: str, text: str | None) -> FileDiagnostics:
        """The file `path` reads `text` in the editor (None: closed, its disk's text again):
        the diagnostics of each file of its pack to show. A translation file is checked
        against its pack (`translations/<pack>...yaml` beside the pack's folder); a file
        of the pack, its translation files with it."""
        root = _root_of(path)
        if root is None:
            return []
        ws = self.workspaces.get(root)
        if ws is None:
            ws = self.workspaces[root] = Workspace(root)
        if root != pack_root(path):  # a translation file: the pack as last checked
            if text is None:
                self.translated.pop(os.path.abspath(path), None)
            else:
                self.translated[os.path.abspath(path)] = text
            if root not in self.checked:
                self.checked[root] = ws.check()
        else:
            self.checked[root] = ws.close(path) if text is None else ws.change(path, text)
            self._keep_parsed(root, path)
        diags = self.checked[root]
        src = ws.source
        self.translations[root] = [] if src is None else \
            source_translations(src, diags, self.translated)
        return self._by_file(root, path)

    def is_open(self, path: str) -> bool:
        """Has the pack of `path` been checked before?"""
        root = _root_of(path)
        return root is not None and root in self.checked

    def run_checks(self, path: str) -> FileDiagnostics:
        """Run the `check`s of the pack of `path` on its files as the editor holds them
        (when they have no error; compiling a pack takes a while: on open and on save, not
        as you type), and the diagnostics of each file of the pack to show."""
        root = _root_of(path)
        ws = self.workspaces.get(root) if root is not None else None
        if root is None or ws is None:
            return []
        diags = self.checked.get(root, [])
        ok = ws.source is not None and ws.result is not None and not any(
            d.is_error for d in diags)
        self.ran[root] = source_checks(ws.source, ws.result) if ok else []
        return self._by_file(root, path)

    def _by_file(self, root: str, path: str) -> FileDiagnostics:
        """The diagnostics of the pack at `root` by file: the file `path` always (the
        editor learns it was checked), those shown before (none now: cleared) and those
        that have some."""
        by_file: dict[str, list[Diagnostic]] = {p: [] for p in self.shown.get(root, ())}
        by_file[os.path.abspath(path)] = []
        found = self.checked.get(root, []) + self.translations.get(root, []) + \
            self.ran.get(root, [])
        for d in sorted(found, key=sort_key):
            by_file.setdefault(_file_of(d, root, self.translated), []).append(d)
        self.shown[root] = {p for p, got in by_file.items() if got}
        return sorted(by_file.items())

    def _keep_parsed(self, root: str, path: str) -> None:
        ix = self.index(path)
        if ix is not None and ix.result is not None:
            unread = {_file_of(d, root) for d in self.checked[root] if d.is_error
                      and d.code.startswith(UNREAD)}  # a file that does not parse
            for mod in ix.modules:
                if mod.path not in unread:
                    self._parsed[mod.path] = ix

    def parsed(self, path: str) -> PackIndex | None:
        """The names of the pack of `path` as the last check that parsed the file saw
        them."""
        return self._parsed.get(os.path.abspath(path))

    def index(self, path: str) -> PackIndex | None:
        """The names of the pack of `path` as its last check saw them."""
        root = pack_root(path)
        ws = self.workspaces.get(root) if root is not None else None
        if root is None or ws is None or ws.source is None:
            return None
        got = self._indexes.get(root)
        if got is None or got[0] is not ws.source:
            src = ws.source
            got = (src, PackIndex(src.model, src.sources, ws.result, src.modules))
            self._indexes[root] = got
        return got[1]

    def meta(self, path: str) -> dict[str, object]:
        root = pack_root(path)
        ws = self.workspaces.get(root) if root is not None else None
        return ws.source.meta if ws is not None and ws.source is not None else {}


def _root_of(path: str) -> str | None:
    """The pack folder a file is of: the pack it is in, or the pack a translation file
    names."""
    root = pack_root(path)
    if root is None:
        found = translation_pack(os.path.abspath(path))
        root = None if found is None else str(found)
    return root


def _file_of(d: Diagnostic, root: str, unsaved: dict[str, str] | None = None) -> str:
    """The file a diagnostic is shown in: its own (on disk, or not saved yet: in
    `unsaved`), or the pack.yaml when it names a folder (`not a pack`, an import that is
    missing)."""
    path = os.path.abspath(d.path if os.path.isabs(d.path) else os.path.join(root, d.path))
    if os.path.isfile(path) or path in (unsaved or {}):
        return path
    return os.path.join(root, "pack.yaml")


def span(d: Diagnostic, lines: list[str]) -> tuple[int, int, int]:
    """The 0-based line and the columns (in characters) a diagnostic marks: its caret span,
    else the name at its column, else its whole line."""
    line = max(d.line - 1, 0)
    text = lines[line] if line < len(lines) else ""
    if d.col <= 0:
        return line, len(text) - len(text.lstrip()), len(text)
    start = d.col - 1
    if d.end_col is not None and d.end_col > d.col:
        return line, start, d.end_col - 1
    end = start
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return line, start, max(end, start + 1)
