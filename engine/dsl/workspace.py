"""`Workspace`: a pack held open for an editor, checked again as its files change.

A language server (or any tool that checks as a designer types) opens the pack once and
hands each changed file's text to `change`; it gets back every diagnostic of the pack, with
the codes, messages and places of `engine validate` (reading, syntax, the checker and the
dead-data warnings; not the pack's `check`s, which need the pack compiled and run:
engine.core.validate.source_checks runs them over a workspace's pack). Only
the changed file is parsed again: the workspace keeps each file's syntax tree by its text
(engine.dsl.parser.memo), so the other files cost their reading and the check of the whole
pack, which is fast. Unsaved texts stand for the files until `close` drops them.
"""
from __future__ import annotations

import os
from pathlib import Path

import attrs

from engine.dsl.check import CheckResult, check
from engine.dsl.errors import Diagnostic, sort_key
from engine.dsl.pack import PackSource, read_pack
from engine.dsl.parser.memo import ParseMemo


def _absolute(path: str | Path) -> Path:
    return Path(os.path.abspath(path))


@attrs.define
class Workspace:
    """The pack at `root`, as its files on disk and the unsaved texts given to `change`."""

    root: Path = attrs.field(converter=_absolute)
    overlay: dict[str, str] = attrs.Factory(dict)  # absolute path -> the editor's text
    memo: ParseMemo = attrs.Factory(ParseMemo)  # the files parsed so far
    source: PackSource | None = None  # the pack as last read
    result: CheckResult | None = None  # its last check (None: it could not be checked)

    def check(self) -> list[Diagnostic]:
        """Read and check the pack as it stands: every diagnostic, in file and line order."""
        src = read_pack(self.root, self.overlay, self.memo)
        diags = list(src.diagnostics)
        self.source, self.result = src, None
        try:
            result = check(src.model, src.sources)
        except RecursionError:  # too deep for the checker: the build reports it (E390)
            return sorted(diags, key=sort_key)
        self.result = result
        diags += result.diagnostics
        if not any(d.is_error for d in diags):
            from engine.dsl.check.unread import unread
            diags += unread(src.model, result, src.meta, src.sources)
        return sorted(diags, key=sort_key)

    def change(self, path: str | Path, text: str) -> list[Diagnostic]:
        """The file `path` now reads `text` (not saved): the pack's diagnostics."""
        self.overlay[os.path.abspath(path)] = text
        return self.check()

    def close(self, path: str | Path) -> list[Diagnostic]:
        """The file `path` is what its disk holds again: the pack's diagnostics."""
        self.overlay.pop(os.path.abspath(path), None)
        return self.check()

    def diagnostics_of(self, diags: list[Diagnostic], path: str | Path) -> list[Diagnostic]:
        """Those of `diags` in the file `path` (an editor shows one file's)."""
        want = os.path.abspath(path)
        return [d for d in diags if os.path.abspath(d.path) == want]
