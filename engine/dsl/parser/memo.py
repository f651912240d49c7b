"""`ParseMemo`: the rules files and effect blocks parsed so far, by their text.

Held by a tool that reads the same pack again and again (engine.dsl.workspace, as a designer
types): a file whose text has not changed is not parsed again. The syntax tree is frozen, so
one tree serves every check of it. A build keeps the trees of the files it read in the build
cache (engine.dsl.build): after an edit of one file, `engine validate` parses that one.
"""
from __future__ import annotations

from collections.abc import Callable

import attrs

from engine.dsl import ast as A
from engine.dsl.errors import Diagnostic, DslError
from engine.dsl.parser.entry import parse_effect, parse_module_partial

Parsed = tuple[A.Module, list[Diagnostic], set[str]]
MAX_FILES = 256  # of one memo: the oldest go first (a pack has tens of files)


@attrs.define
class ParseMemo:
    files: dict[tuple[str, str], Parsed] = attrs.Factory(dict)  # (path, text) -> parsed
    # (text, path, line, col) -> the block, or the diagnostics of its syntax error
    effects: dict[tuple[str, str, int, int], tuple[A.Stmt, ...] | DslError] = attrs.Factory(dict)
    # what an earlier reading parsed: taken from there when asked for (a build's memo from
    # the cache holds then only what this reading used)
    before: ParseMemo | None = None
    parsed: int = 0  # files and blocks parsed by this memo, not taken from `before`
    # files another process parses meanwhile (engine.core.validate): taken from there when
    # ready (never kept in the cache: see engine.dsl.build's `_kept`)
    ahead: Ahead | None = None

    def module(self, text: str, path: str) -> Parsed:
        """`parse_module_partial(text, path)`, once per text."""
        key = (path, text)
        got = self.files.get(key)
        if got is None and self.before is not None:
            got = self.before.files.get(key)
        if got is None and self.ahead is not None:
            got = self.ahead.get(key)
        if got is None:
            got = parse_module_partial(text, path)
            self.parsed += 1
        self.files[key] = got
        while len(self.files) > MAX_FILES:
            del self.files[next(iter(self.files))]
        module, diags, broken = got
        return module, list(diags), set(broken)

    def effect(self, text: str, path: str, line: int, col: int) -> tuple[A.Stmt, ...]:
        """`parse_effect(...)`, once per text and place; raises its DslError again."""
        key = (text, path, line, col)
        got = self.effects.get(key)
        if got is None and self.before is not None:
            got = self.before.effects.get(key)
        if got is None:
            try:
                got = parse_effect(text, path, line, col)
            except DslError as err:
                got = err
            self.parsed += 1
        self.effects[key] = got
        if isinstance(got, DslError):
            raise DslError(got.diagnostics)
        return got


@attrs.define(eq=False)
class Ahead:
    """The files at `paths` that another process parses at the same time as this one reads
    the rest of their pack: `fetch()` gives the memo they went into, or None while it is not
    ready. A file asked for before then is parsed here, which gives the same tree: waiting
    for the other process is never needed, only the time saved is lost."""

    paths: frozenset[str]
    fetch: Callable[[], ParseMemo | None]
    memo: ParseMemo | None = None

    def get(self, key: tuple[str, str]) -> Parsed | None:
        """The parse of (path, text) made there, or None."""
        if key[0] not in self.paths:
            return None
        if self.memo is None:
            self.memo = self.fetch()
        return None if self.memo is None else self.memo.files.get(key)
