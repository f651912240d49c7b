"""Pack directory -> checked model + generated Python source, cached (see `engine.dsl.cache`).

The parser, checker and compiler are imported only when a pack is really built: a build
found in the cache needs none of them.
"""
from __future__ import annotations

import marshal
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from engine.dsl.errors import Diagnostic, sort_key

if TYPE_CHECKING:
    from engine.dsl.cache import Cache
    from engine.dsl.check import CheckResult
    from engine.dsl.pack import PackSource
    from engine.dsl.parser.memo import Ahead, ParseMemo


@attrs.define
class Build:
    source: PackSource
    # the checker's annotations (keyed by syntax-tree node identity, so a build read from
    # the cache has none: None then)
    check: CheckResult | None
    code: str | None
    diagnostics: list[Diagnostic]
    code_object: Any = None  # `code` compiled by Python, done once here

    @property
    def ok(self) -> bool:
        return self.code is not None and not any(d.severity == "error" for d in self.diagnostics)


def build_pack(root: Path, ahead: Ahead | None = None) -> Build:
    """The checked and compiled pack at `root`, from the cache when its files, the files
    of the packs it imports and the language itself are unchanged. Only builds without
    errors are kept, so the diagnostics of a warm build are those of a cold one. `ahead`:
    rules files of it another process parses meanwhile (`parse_ahead`, `ahead_of`)."""
    from engine.dsl.cache import Cache
    cache = Cache.open()
    key = pack_key(root) if cache is not None else None
    if cache is not None and key is not None:
        got = cache.get("build", key[0], imports_unchanged)
        if isinstance(got, dict):
            return _thaw(got)
    memo = _parses(cache, root)
    memo.ahead = ahead
    build = _build(root, memo)
    if cache is not None:
        # the trees for the next reading after an edit: in the build's own entry, where
        # they are pickled once with the pack that holds them, or else on their own
        if key is not None and build.ok \
                and store_build(cache, key, root, build, memo) is not None:
            cache.put("parses", _parses_key(root), {"build": key[0]})
        elif memo.parsed:
            cache.put("parses", _parses_key(root), _kept(memo))
    return build


def pack_key(root: Path) -> tuple[str, str] | None:
    """(the cache key, the digest of its files) of the pack at `root`; None when a file
    of it is refused or unreadable. The packs it imports are checked from an entry's
    header (`imports_unchanged`)."""
    from engine.dsl.cache import key_of
    from engine.dsl.files import tree_digest
    digest = tree_digest(Path(root))
    return None if digest is None else (key_of("pack", str(root), digest), digest)


def imports_header(root: Path, build: Build, digest: str) -> dict[str, Any] | None:
    """What an entry records about the imports of `build`: the digest of each imported
    pack as it was read, and where each import was looked for. None when the pack's own
    files changed between hashing them (`digest`) and reading them: nothing is stored."""
    src = build.source
    if src.digests.get(str(root)) != digest:
        return None
    return {"imports": [[str(r), src.digests.get(str(r))] for r in src.import_roots],
            "probes": [[p, found] for p, found in src.probes]}


def imports_unchanged(header: dict[str, Any]) -> bool:
    """Are the imports recorded in an entry's header as they were? (see imports_header)"""
    from engine.dsl.files import tree_digest
    for path, found in header.get("probes", []):
        if Path(path).is_file() != found:
            return False
    return all(tree_digest(Path(folder)) == digest for folder, digest in header.get("imports", []))


def store_build(cache: Cache, key: tuple[str, str], root: Path, build: Build,
                memo: ParseMemo) -> dict[str, Any] | None:
    """Keep `build` under `key` (from `pack_key`), with the parses of `memo`; the header it
    was stored with, or None when it was not stored."""
    header = imports_header(root, build, key[1])
    if header is None:
        return None
    frozen = {"source": build.source, "code": build.code, "diagnostics": build.diagnostics,
              "code_object": marshal.dumps(build.code_object),
              "parses": _kept(memo)}
    return header if cache.put("build", key[0], frozen, header) else None


def _thaw(entry: dict[str, Any]) -> Build:
    return Build(entry["source"], None, entry["code"], entry["diagnostics"],
                 marshal.loads(entry["code_object"]))


def _build(root: Path, memo: ParseMemo) -> Build:
    from engine.dsl.check import check
    from engine.dsl.pack import read_pack
    src = read_pack(root, memo=memo)
    diags = list(src.diagnostics)
    # The rules are checked even when some files are broken, so that one run reports every
    # problem; names defined in the broken parts are "poisoned" and their uses not reported.
    try:
        result = check(src.model, src.sources)
    except RecursionError:
        diags.append(_too_big(src, "checked"))
        return Build(src, None, None, sorted(diags, key=sort_key))
    diags.extend(result.diagnostics)
    if not any(d.severity == "error" for d in diags):  # else what is unread may be unchecked
        from engine.dsl.check.unread import unread
        diags.extend(unread(src.model, result, src.meta, src.sources))
    return compiled(src, result, diags)


def compiled(src: PackSource, result: CheckResult, diags: list[Diagnostic]) -> Build:
    """The pack read as `src` and checked as `result` with the diagnostics `diags`,
    compiled when they hold no error (a workspace's pack, its unsaved texts included)."""
    if any(d.severity == "error" for d in diags):
        return Build(src, result, None, sorted(diags, key=sort_key))
    try:
        from engine.dsl.compile import compile_pack
        code = compile_pack(src.model, result)
        code_object = compile(code, module_filename(src, code), "exec")
    except (RecursionError, SyntaxError, MemoryError, ValueError) as err:
        # the parser's nesting limits should make this unreachable: a last line of defence,
        # so that a pack Python cannot compile is a located error, never a traceback
        diags.append(_too_big(src, "compiled", err))
        return Build(src, result, None, sorted(diags, key=sort_key))
    return Build(src, result, code, sorted(diags, key=sort_key), code_object)


def _parses_key(root: Path) -> str:
    from engine.dsl.cache import key_of
    return key_of("parses", str(Path(root).resolve()))


def _parses(cache: Cache | None, root: Path) -> ParseMemo:
    """A memo of parses for reading the pack at `root`, over the syntax trees its last
    reading kept in the cache: after an edit only the changed files are parsed. A tree is
    taken by its file's path and exact text, and the key holds the engine's hash."""
    from engine.dsl.parser.memo import ParseMemo
    before = cache.get("parses", _parses_key(root)) if cache is not None else None
    if isinstance(before, dict) and cache is not None:  # kept in the build's entry
        entry = cache.get("build", str(before.get("build")))
        before = entry.get("parses") if isinstance(entry, dict) else None
    return ParseMemo(before=before if isinstance(before, ParseMemo) else None)


def _kept(memo: ParseMemo) -> ParseMemo:
    """What of `memo` the cache keeps: its own parses, not those it read from before."""
    return attrs.evolve(memo, before=None, parsed=0, ahead=None)


def parse_ahead(root: Path, paths: Sequence[Path]) -> None:
    """Parse the rules files at `paths` of the pack at `root` into the build cache, where
    the process building that pack finds them (`ahead_of`); nothing without a cache. A
    file that cannot be read is left to the build, which reports it."""
    from engine.dsl.cache import Cache
    from engine.dsl.parser.memo import ParseMemo
    cache = Cache.open()
    if cache is None:
        return
    memo = ParseMemo()
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        memo.module(text, str(path))
    cache.put("ahead", _ahead_key(root), _kept(memo))


def ahead_of(root: Path, paths: Sequence[Path]) -> Ahead:
    """For `build_pack(root, ahead=...)`: the parses of `paths` that `parse_ahead` makes in
    another process, taken when ready. An entry of an earlier run may be found first: it is
    taken by its files' exact texts like any other, so it serves the files unchanged since."""
    from engine.dsl.cache import Cache
    from engine.dsl.parser.memo import Ahead, ParseMemo
    cache = Cache.open()
    key = _ahead_key(root)

    def fetch() -> ParseMemo | None:
        got = cache.get("ahead", key) if cache is not None else None
        return got if isinstance(got, ParseMemo) else None
    return Ahead(frozenset(str(p) for p in paths), fetch)


def _ahead_key(root: Path) -> str:
    from engine.dsl.cache import key_of
    return key_of("ahead", str(Path(root).resolve()))


def module_filename(src: PackSource, code: str) -> str:
    """The file name generated `code` runs under: run-time faults find their rule line in
    its text there (linecache). It names the code, not only the source, so two codes of one
    source in a process (compiled plainly and optimised, or by two engine versions) each
    keep their own text."""
    import hashlib
    digest = hashlib.blake2b(code.encode("utf-8", "surrogatepass"), digest_size=6).hexdigest()
    return f"<pack {src.model.id} {src.hash} {digest}>"


def _too_big(src: PackSource, stage: str, err: BaseException | None = None) -> Diagnostic:
    detail = f" ({type(err).__name__}: {err})" if err is not None else ""
    return Diagnostic("E390", f"the rules could not be {stage}: they are nested too deeply or "
                      f"are too large{detail}; split long rules into procedures",
                      str(src.root / "pack.yaml"), 0, 0)
