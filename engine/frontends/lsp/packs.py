"""The packs an editor has files of open: one `engine.dsl.workspace.Workspace` per pack
folder (the nearest folder above a file with a pack.yaml), checked again as a file changes,
and the diagnostics of each of its files to show (those it showed before and has no more,
as none, so the editor clears them)."""
from __future__ import annotations

import os

import attrs

from engine.core.validate import UNREAD
from engine.dsl.errors import Diagnostic
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

    def change(self, path: str, text: str | None) -> FileDiagnostics:
        """The file `path` reads `text` in the editor (None: closed, its disk's text again):
        the diagnostics of each file of its pack to show."""
        root = pack_root(path)
        if root is None:
            return []
        ws = self.workspaces.get(root)
        if ws is None:
            ws = self.workspaces[root] = Workspace(root)
        diags = ws.close(path) if text is None else ws.change(path, text)
        # the changed file always (the editor learns it was checked), and those shown before
        by_file: dict[str, list[Diagnostic]] = {p: [] for p in self.shown.get(root, ())}
        by_file[os.path.abspath(path)] = []
        for d in diags:
            by_file.setdefault(_file_of(d, root), []).append(d)
        self.shown[root] = {p for p, got in by_file.items() if got}
        ix = self.index(path)
        if ix is not None and ix.result is not None:
            unread = {_file_of(d, root) for d in diags if d.is_error
                      and d.code.startswith(UNREAD)}  # a file that does not parse
            for mod in ix.modules:
                if mod.path not in unread:
                    self._parsed[mod.path] = ix
        return sorted(by_file.items())

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


def _file_of(d: Diagnostic, root: str) -> str:
    """The file a diagnostic is shown in: its own, or the pack.yaml when it names a folder
    (`not a pack`, an import that is missing)."""
    path = os.path.abspath(d.path if os.path.isabs(d.path) else os.path.join(root, d.path))
    if os.path.isfile(path):
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
