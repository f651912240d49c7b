"""`engine validate`: build packs, run their checks and check their translation files.

Every problem comes back as a located `Diagnostic`; bad content never raises. A path that
is neither a pack, a directory nor a shipped pack's name raises `FileNotFoundError` (a
usage error for the command line).

Besides problems, a run gathers what a designer reads about a pack: translation coverage
per language (note N510, `Report.coverage`) and the places where sources disagree
(records' `disagree:` entries: `Report.disagreements`, and notes N520 when asked for).
"""
from __future__ import annotations

import contextlib
import gc
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from engine.core.errors import PackError
from engine.dsl.errors import Diagnostic, did_you_mean, source_line

if TYPE_CHECKING:
    from engine.dsl.parser.memo import Ahead
    from engine.i18n.translations import TranslationFile


class Report:
    """What one validation run found."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.packs = 0
        self.files = 0
        self.messages: list[str] = []  # e.g. "no packs found under X"
        self.coverage: dict[str, dict[str, int]] = {}  # pack id -> language -> percent named
        self.disagreements: list[dict[str, Any]] = []  # see `disagreement_data`
        self.read_from: list[str] = []  # the directories read (absolute), in argument order

    @property
    def errors(self) -> int:
        return sum(d.severity == "error" for d in self.diagnostics)

    @property
    def warnings(self) -> int:
        return sum(d.severity == "warning" for d in self.diagnostics)

    def json_extra(self) -> dict[str, Any]:
        """What `--format json` adds to the diagnostics."""
        return {"packs": self.packs, "files": self.files, "coverage": self.coverage,
                "disagreements": self.disagreements, "read_from": self.read_from}

    def summary(self) -> str:
        n, f = self.packs, self.files
        head = f"checked {n} pack{'s' * (n != 1)}, {f} file{'s' * (f != 1)}: "
        parts = []
        if self.errors:
            parts.append(f"{self.errors} error{'s' * (self.errors != 1)}")
        if self.warnings:
            parts.append(f"{self.warnings} warning{'s' * (self.warnings != 1)}")
        if not self.errors:
            parts.insert(0, "ok")
        return head + ", ".join(parts)


def validate_paths(paths: Iterable[str | Path] | None = None) -> list[Diagnostic]:
    """Every diagnostic for the given packs, pack directories or shipped pack names
    (default: all shipped packs and their translations)."""
    return validate(paths).diagnostics


# ---- targets ---------------------------------------------------------------------------------
class _Target:
    """What one argument asks for: packs to build, translation files to check, and the
    packs those files may refer to (`lookup_roots`, read but not reported)."""

    def __init__(self, arg: str) -> None:
        self.arg = arg
        self.packs: list[Path] = []
        self.translations: list[Path] = []
        self.lookup_roots: list[Path] = []
        self.wants_packs = True  # False when the argument names translations only
        p = Path(arg)
        self.source = p.parent if p.is_file() else p  # the directory read


def _shipped() -> Path:
    from engine.dsl.places import content_root
    return content_root()


def _resolve(arg: str | Path) -> _Target:
    from engine.dsl.places import find_packs
    from engine.i18n.translations import name_parts, translation_files
    t = _Target(str(arg))
    p = Path(arg)
    if p.is_file():
        if p.name == "pack.yaml":
            t.packs = [p.parent]
            t.translations = _own_translations(p.parent)
            return t
        if p.suffix == ".yaml" and name_parts(p) is not None or p.parent.name == "translations":
            t.translations = [p]
            t.wants_packs = False
            t.lookup_roots = find_packs(p.parent.parent)
            return t
        raise FileNotFoundError(f"'{arg}' is not a pack, a pack directory or a translation file")
    if p.is_dir():
        if (p / "pack.yaml").is_file():
            t.packs = [p]
            t.translations = _own_translations(p)
            return t
        if p.name == "translations" and not find_packs(p):
            t.translations = translation_files(p)
            t.wants_packs = False
            t.lookup_roots = find_packs(p.parent)
            return t
        t.packs = find_packs(p)
        t.translations = translation_files(p / "translations")
        return t
    if str(arg).rstrip("/\\") == "content":
        # `engine validate content/` outside a checkout means the installed content
        return _resolve(_shipped())
    if isinstance(arg, str) and "/" not in arg and "\\" not in arg:
        root = _shipped()
        if (root / arg / "pack.yaml").is_file():
            t.source = root
            t.packs = [root / arg]
            t.translations = _own_translations(root / arg)
            return t
        known = sorted(x.name for x in find_packs(root))
        hint = did_you_mean(arg, known)
        raise FileNotFoundError(f"no pack or path '{arg}'" + (f" ({hint})" if hint else "")
                                + f"; shipped packs: {', '.join(known) or 'none'}")
    raise FileNotFoundError(f"no such file or directory: '{arg}'")


def _own_translations(pack_root: Path) -> list[Path]:
    from engine.i18n.translations import translation_files
    pid = _pack_id(pack_root)
    return translation_files(pack_root.parent / "translations", pid) if pid else []


def _pack_id(pack_root: Path) -> str:
    """The id written in pack.yaml (or the directory name), read cheaply."""
    from engine.dsl.places import pack_meta
    pid = pack_meta(pack_root).get("id")
    return pid if isinstance(pid, str) else pack_root.name


# ---- running ------------------------------------------------------------------------------------
def validate(paths: Iterable[str | Path] | None = None, disagreements: bool = False,
             strict: bool = False) -> Report:
    """Validate packs and translations; see `validate_paths`. With `disagreements`, every
    disagreement between sources is also a note (N520); otherwise each pack that has some
    gets one line in `Report.messages`. With `strict`, every warning is an error."""
    args = list(paths) if paths else [_shipped()]
    targets = [_resolve(a) for a in args]  # raises before doing any work
    report = Report()
    for t in targets:
        where = str(Path(t.source).resolve())
        if where not in report.read_from:
            report.read_from.append(where)
    infos: dict[str, Any] = {}  # pack id -> engine.i18n.translations.PackInfo
    keys: dict[str, str | None] = {}  # pack id -> its cache key (None: not known)
    done: set[Path] = set()
    unique: dict[Path, Path] = {}  # each pack once, as first named
    for t in targets:
        for root in t.packs:
            unique.setdefault(root.resolve(), root)
    seen: set[Path] = set()
    tpaths = []
    for t in targets:
        for p in t.translations:
            if p.resolve() not in seen:
                seen.add(p.resolve())
                tpaths.append(p)
    founds = _validate_packs(list(unique.values()), tpaths)
    for t in targets:
        if not t.packs and t.wants_packs:
            report.messages.append(f"no packs found under {t.arg}")
        for root in t.packs:
            key = root.resolve()
            if key in done:
                continue
            done.add(key)
            found = founds[key]
            report.packs += 1
            report.files += found.files
            seen_diags = set(report.diagnostics)  # a pack and one importing it share files
            report.diagnostics.extend(d for d in found.diagnostics if d not in seen_diags)
            if found.info is not None and found.info.id not in infos:
                infos[found.info.id] = found.info
                keys[found.info.id] = found.key
            _report_disagreements(report, found, disagreements)
    # Packs that translation files may refer to without being validated themselves.
    for t in targets:
        for root in t.lookup_roots:
            if root.resolve() not in done:
                info = _read_info(root)
                if info is not None and info.id not in infos:
                    infos[info.id] = info
                    keys[info.id] = None
    report.files += len(tpaths)
    diags, cov = _translations(tpaths, infos, keys)
    report.diagnostics.extend(diags)
    report.coverage.update(cov)
    if strict:
        report.diagnostics = [attrs.evolve(d, severity="error") if d.severity == "warning"
                              else d for d in report.diagnostics]
    return report


def _translations(paths: list[Path], infos: dict[str, Any], keys: dict[str, str | None]
                  ) -> tuple[list[Diagnostic], dict[str, dict[str, int]]]:
    """The diagnostics of translation files against the packs (coverage notes N510
    included) and the coverage per pack, from the build cache when the files and the
    packs are unchanged."""
    from engine.dsl.cache import Cache, key_of
    cache = Cache.open()
    key = None
    if cache is not None and all(keys.get(pid) for pid in infos):
        texts = [_plain_text(p) for p in paths]
        if all(t is not None for t in texts):
            key = key_of("translations", *(f"{p}\0{t}" for p, t in zip(paths, texts)),
                          *(f"{pid}\0{keys[pid]}" for pid in sorted(infos)))
            got = cache.get("validate-translations", key)
            if isinstance(got, tuple):
                return got
    found = _check_translations(paths, infos)
    if cache is not None and key is not None:
        cache.put("validate-translations", key, found)
    return found


def _plain_text(path: Path) -> str | None:
    """The text of a translation file the reader would read (None: refused or unreadable:
    reading it reports why)."""
    from engine.dsl.files import refused_file
    if refused_file(path, path.parent) is not None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return None


def _check_translations(paths: list[Path], infos: dict[str, Any],
                        texts: dict[str, str] | None = None
                        ) -> tuple[list[Diagnostic], dict[str, dict[str, int]]]:
    from engine.i18n.translations import (
        check_translations,
        coverage,
        coverage_line,
        read_translation,
    )
    texts = texts or {}
    tfiles = [read_translation(p, texts.get(str(p))) for p in paths]
    diags = check_translations(tfiles, infos)
    by_pack: dict[str, list[TranslationFile]] = {}
    for tf in tfiles:
        if tf.ok and tf.pack in infos:
            by_pack.setdefault(tf.pack, []).append(tf)
    cov: dict[str, dict[str, int]] = {}
    for pid, files in sorted(by_pack.items()):
        where = str(files[0].path.parent)
        cov[pid] = coverage(infos[pid], files)
        diags.append(Diagnostic(
            "N510", "translation coverage " + coverage_line(pid, cov[pid])
            + (" (in part: some of the pack's files could not be read)"
               if getattr(infos[pid], "partial", False) else ""), where, 0, 0,
            severity="note"))
    return diags, cov


# ---- disagreeing sources ------------------------------------------------------------------------
def disagreement_message(d: Any) -> str:
    """`type 'id'.field: this pack uses X; SOURCE says Y (note)`."""
    from engine.dsl.pack import show_value
    said = f"says {show_value(d.value)}" if d.has_value else "disagrees"
    text = f"{d.type} '{d.record}'.{d.field}: this pack uses {show_value(d.own)}; {d.source} " \
        f"{said}"
    return text + (f" ({d.note})" if d.note else "")


def disagreement_data(pack_id: str, d: Any) -> dict[str, Any]:
    """One disagreement as JSON-ready data (`theirs` only when the entry gives a value)."""
    out: dict[str, Any] = {"pack": pack_id, "type": d.type, "id": d.record, "field": d.field,
                           "ours": d.own}
    if d.has_value:
        out["theirs"] = d.value
    out.update({"source": d.source, "note": d.note, "path": d.entry.path,
                "line": d.entry.line, "col": d.entry.col, "message": disagreement_message(d)})
    return out


def _disagreements(src: Any) -> list[tuple[dict[str, Any], Diagnostic]]:
    """Each disagreement of a pack as data and as a note (N520) at its entry."""
    out = []
    for d in src.model.disagreements:
        at = d.entry  # the entry, inside its record: the line shows what is disputed
        out.append((disagreement_data(src.model.id, d), Diagnostic(
            "N520", disagreement_message(d), at.path, at.line, at.col,
            source_line(src.sources.get(at.path, ""), at.line), severity="note")))
    return out


def _report_disagreements(report: Report, found: PackReport, as_notes: bool) -> None:
    if not found.disagreements:
        return
    report.disagreements.extend(data for data, _note in found.disagreements)
    n = len(found.disagreements)
    line = f"{found.id}: {n} disagreement{'s' * (n != 1)} between sources"
    if as_notes:
        report.diagnostics.extend(note for _data, note in found.disagreements)
    else:
        line += " (engine validate --disagreements lists them)"
    report.messages.append(line)


def _read_info(root: Path) -> Any:
    from engine.dsl.pack import read_pack
    from engine.i18n.translations import PackInfo
    try:
        src = read_pack(root)
    except Exception:  # only used to look names up; the pack's own run reports problems
        return None
    return PackInfo(src.model, src.meta, root, partial=_unread_parts(src.diagnostics))


# errors after which part of a pack's files is missing from its model: reading (E00x) and
# syntax (E10x); names declared there are unknown to every later check
UNREAD = ("E00", "E10")


def _unread_parts(diagnostics: list[Diagnostic]) -> bool:
    """Whether a pack's model lacks some of its files' declarations."""
    return any(d.is_error and d.code.startswith(UNREAD) for d in diagnostics)


def _internal(code: str, message: str, path: Path) -> Diagnostic:
    return Diagnostic(code, message, str(path), 0, 0)


MAX_RECORDS_SHOWN = 20  # per failed check: enough to fix a pattern, not a wall of text


def _failing_records(pack: Any, src: Any, message: str, path: str, line: int
                     ) -> list[Diagnostic]:
    """One E400 at each record a failed `every(... for x in records)` check names, on the
    line of the field the check reads (or of the record's id)."""
    index = next((i for i, (decl, p) in enumerate(pack.model.checks)
                  if p == path and decl.at.line == line and decl.message == message), None)
    if index is None:
        return []
    out = []
    failing = pack.failing_records(index)
    for rid, field in failing[:MAX_RECORDS_SHOWN]:
        rec = pack.model.records[rid]
        site = rec.field_sites.get(field, rec.site) if field else rec.site
        text = source_line(src.sources.get(site.path, ""), site.line)
        out.append(Diagnostic("E400", f"{rec.type} '{rid}' fails the check: {message}",
                              site.path, site.line, site.col, text, site.end_col,
                              f"the check is at {path}:{line}"))
    if len(failing) > MAX_RECORDS_SHOWN:
        out.append(Diagnostic("E400", f"... and {len(failing) - MAX_RECORDS_SHOWN} more records "
                              f"fail the check: {message}", path, line, 0))
    return out


class PackReport:
    """What validating one pack found: plain data, kept in the build cache."""

    def __init__(self, pack_id: str, info: Any, files: int, diagnostics: list[Diagnostic],
                 disagreements: list[tuple[dict[str, Any], Diagnostic]]):
        self.key: str | None = None  # the pack's key in the build cache, if it has one
        self.id = pack_id
        self.info = info  # engine.i18n.translations.PackInfo, or None
        self.files = files
        self.diagnostics = diagnostics
        self.disagreements = disagreements


def _validate_packs(roots: list[Path], translations: Sequence[Path] = ()
                    ) -> dict[Path, PackReport]:
    """What validating each pack at `roots` finds, by its resolved path. Packs found in the
    build cache come from there (`_cached`); the others are built, two or more at once in
    forked processes when the machine has the CPUs and there is enough work
    (engine.core.forking), the biggest share in this one. Then the lightest share also reads
    the `translations` files into the build cache, where checking them finds them parsed:
    reading them needs no pack, and done here after the builds it would wait for them all."""
    from engine.core.forking import workers
    found: dict[Path, PackReport] = {}
    todo: list[tuple[Path, tuple[str, str] | None]] = []
    for root in roots:
        cached, key = _cached(root)
        if cached is not None:
            found[root.resolve()] = cached
        else:
            todo.append((root, key))
    groups = _shares(todo, workers())
    with _collector_paused():
        results = _build_shares(groups, translations)
    for group, reports in zip(groups, results):
        for (root, _key), got in zip(group, reports):
            found[root.resolve()] = got
    return found


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off meanwhile (forked processes inherit it): a
    build makes a million objects that live on, and each collection of the oldest
    generation walks them all, ~15% of a cold build; a build makes little cyclic garbage."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _build_shares(groups: list[list[tuple[Path, Any]]], translations: Sequence[Path]
                  ) -> list[list[PackReport]]:
    """`_validate_fresh` of each group, in processes of their own when there are more;
    then the last (the lightest) reads `translations` ahead (`_read_ahead`)."""
    from engine.core.forking import in_processes
    if len(groups) > 1:
        _warm_up()
        last = len(groups) - 1
        tail = _tail_rules(groups)

        def work(i: int) -> list[PackReport]:
            if i == last and tail is not None:
                from engine.dsl.build import parse_ahead
                parse_ahead(*tail)
            reports = _validate_fresh(groups[i], tail if i == 0 else None)
            if i == last:
                _read_ahead(translations)
            return reports
        return in_processes(work, range(len(groups)))
    return [_validate_fresh(g) for g in groups]


# of the bytes by which the heaviest share outweighs the lightest: the rules files of its
# biggest pack the lightest share's process parses for it (measured: 0.5 and 1.0 gave less)
TAIL_SHARE = 0.75


def _tail_rules(groups: list[list[tuple[Path, Any]]]) -> tuple[Path, list[Path]] | None:
    """(the heaviest pack, the last of its rules files in reading order) that the lightest
    share's process parses first, for this one to take (engine.dsl.build's `parse_ahead`):
    rules of TAIL_SHARE of the bytes by which the heaviest share outweighs the lightest, at
    most half the pack's rules. None when there is no cache to pass them through."""
    from engine.dsl.cache import Cache
    from engine.dsl.files import walk_pack
    if Cache.open() is None:
        return None
    heavy, light = (sum(_pack_bytes(root) for root, _key in g) for g in (groups[0], groups[-1]))
    root = groups[0][0][0]
    rules = sorted(f for f in walk_pack(root)[0] if f.name.endswith(".rules"))
    room = min(int((heavy - light) * TAIL_SHARE), sum(_size(f) for f in rules) // 2)
    tail: list[Path] = []
    for f in reversed(rules):
        room -= _size(f)
        if room < 0:
            break
        tail.append(f)
    return (root, tail[::-1]) if tail else None


def _pack_bytes(root: Path) -> int:
    """The bytes of the files of the pack at `root` (how much work building it is)."""
    from engine.dsl.files import walk_pack
    return sum(_size(f) for f in walk_pack(root)[0])


def _size(path: Path) -> int:
    """The bytes of the file at `path`; 0 for what is no file (or gone meanwhile)."""
    try:
        st = path.stat()
    except OSError:
        return 0
    return st.st_size if stat.S_ISREG(st.st_mode) else 0


def _read_ahead(paths: Sequence[Path]) -> None:
    """Parse the translation files at `paths` into the build cache (nothing without one)."""
    from engine.dsl.cache import Cache
    if Cache.open() is None:
        return
    from engine.i18n.translations import read_translation
    for path in paths:
        read_translation(path)


MIN_SHARE = 64 * 1024  # bytes of pack files a forked process must get to be worth its start


def _shares(todo: list[tuple[Path, Any]], n: int) -> list[list[tuple[Path, Any]]]:
    """The packs to build, dealt into at most `n` shares of about as many bytes each
    (biggest first, each to the lightest share), none under MIN_SHARE; one share (in
    order) when there is not enough work to deal out."""
    if n < 2 or len(todo) < 2:
        return [todo] if todo else []
    sizes = {root: _pack_bytes(root) for root, _key in todo}
    shares: list[list[tuple[Path, Any]]] = [[] for _ in range(min(n, len(todo)))]
    weight = [0] * len(shares)
    for item in sorted(todo, key=lambda it: -sizes[it[0]]):
        i = weight.index(min(weight))
        shares[i].append(item)
        weight[i] += sizes[item[0]]
    if min(weight) < MIN_SHARE:
        return [todo]
    order = sorted(range(len(shares)), key=lambda i: -weight[i])  # the heaviest here, first
    return [shares[i] for i in order]


def _warm_up() -> None:
    """Import what a build needs and build the parser before forking, once for all."""
    import engine.core.loader  # noqa: F401
    import engine.dsl.check  # noqa: F401
    import engine.dsl.compile  # noqa: F401
    import engine.i18n.translations  # noqa: F401
    from engine.dsl.parser import lark_parser
    lark_parser()


def _cached(root: Path) -> tuple[PackReport | None, tuple[str, str] | None]:
    """What validating the pack at `root` found, from the build cache when the pack, the
    packs it imports and the engine are unchanged (only packs that build are kept there,
    failed checks or not: their diagnostics do not depend on anything else); and the
    pack's cache key (None: no cache, or a file of it cannot be read)."""
    from engine.dsl.cache import Cache
    cache = Cache.open()
    if cache is None:
        return None, None
    from engine.dsl.build import imports_unchanged, pack_key
    key = pack_key(root)
    if key is not None:
        got = cache.get("report", key[0], imports_unchanged)
        if isinstance(got, PackReport):
            got.key = key[0]
            return got, key
    return None, key


def _validate_fresh(packs: list[tuple[Path, tuple[str, str] | None]],
                    tail: tuple[Path, list[Path]] | None = None) -> list[PackReport]:
    """Each pack validated (and kept in the cache under its key, when it builds); `tail`:
    rules files of one of them parsed in another process meanwhile (`_tail_rules`)."""
    from engine.dsl.cache import Cache
    out = []
    for root, key in packs:
        ahead = None
        if tail is not None and tail[0] == root:
            from engine.dsl.build import ahead_of
            ahead = ahead_of(*tail)
        found, build = _validate_built(root, ahead)
        cache = Cache.open()
        if cache is not None and key is not None and build is not None and build.ok:
            from engine.dsl.build import imports_header
            header = imports_header(root, build, key[1])
            if header is not None and cache.put("report", key[0], found, header):
                found.key = key[0]
        out.append(found)
    return out


def _validate_built(root: Path, ahead: Ahead | None = None) -> tuple[PackReport, Any]:
    """What validating the pack at `root` finds, and its build (None if it crashed);
    `ahead`: for `build_pack`."""
    from engine.dsl.build import build_pack
    from engine.i18n.translations import PackInfo

    try:
        build = build_pack(root, ahead)
    except Exception as err:  # a crash on bad content is a bug, but report it located
        return PackReport(root.name, None, 0, [_internal(
            "E300", f"cannot read pack: {type(err).__name__}: {err}", root / "pack.yaml")],
            []), None
    src = build.source
    diags = list(build.diagnostics)
    rec_ok, recs, rules_ok, rules = src.model.provenance_counts()
    if "provenance" in src.meta:  # packs that track provenance get a coverage line
        diags.append(Diagnostic(
            "N320", f"provenance {src.model.id}: {rec_ok} of {recs} records and {rules_ok} of "
            f"{rules} rules cite a source or are marked reconstructed", str(root / "pack.yaml"),
            0, 0, severity="note"))
    info = None
    try:
        info = PackInfo(src.model, src.meta, root, partial=_unread_parts(build.diagnostics))
    except Exception:
        info = None
    if build.ok:
        diags += _checks(build)
    return PackReport(src.model.id, info, len(src.sources), diags, _disagreements(src)), build


def _checks(build: Any) -> list[Diagnostic]:
    """The diagnostics of running the `check`s of a pack that built: each check that fails
    (E400), at each record it names; a load that fails, located."""
    from engine.core.loader import instantiate
    src = build.source
    diags: list[Diagnostic] = []
    try:
        pack = instantiate(build)
        failed = pack.run_checks()
    except PackError as err:  # a graph filter that fails on a record (E248), a const
        return list(err.diagnostics)  # that cannot be worked out (E282): located
    except Exception as err:
        return [_internal("E400", f"pack checks could not run: {type(err).__name__}: {err}",
                          src.root / "pack.yaml")]
    for message, got, path, line in failed:
        text = source_line(src.sources.get(path, ""), line)
        col = len(text) - len(text.lstrip()) + 1 if text else 0
        detail = f" ({got})" if isinstance(got, str) else ""
        diags.append(Diagnostic("E400", f"check failed: {message}{detail}", path, line, col,
                                text))
        diags += _failing_records(pack, src, message, path, line)
    return diags


# ---- for an editor: a pack held open, with unsaved texts ------------------------------------
def source_checks(src: Any, result: Any) -> list[Diagnostic]:
    """The diagnostics of the `check`s of a pack read as `src` (engine.dsl.pack.PackSource:
    a workspace's, unsaved texts included) and checked as `result` without errors, as
    `engine validate` gives them: the pack compiled, loaded and its checks run."""
    from engine.dsl.build import compiled
    build = compiled(src, result, [])
    return _checks(build) if build.ok else build.diagnostics


def source_translations(src: Any, diags: list[Diagnostic], texts: dict[str, str]
                        ) -> list[Diagnostic]:
    """The diagnostics `engine validate` gives the translation files of a pack read as
    `src` with the diagnostics `diags` (those of its files in the `translations` folder
    beside it), `texts` standing for the files they name (absolute path -> unsaved text);
    without the coverage note N510, a summary of no place."""
    from engine.i18n.translations import PackInfo, name_parts
    root = Path(src.root)
    paths = [p.absolute() for p in _own_translations(root)]
    folder = (root.parent / "translations").absolute()
    paths += sorted(Path(t) for t in texts if Path(t) not in paths and Path(t).parent == folder
                    and (name_parts(Path(t)) or ("",))[0] == src.model.id)  # not saved yet
    info = PackInfo(src.model, src.meta, root, partial=_unread_parts(diags))
    found, _cov = _check_translations(paths, {src.model.id: info}, texts)
    return [d for d in found if d.code != "N510"]


def translation_pack(path: str | Path) -> Path | None:
    """The folder of the pack a translation file (`translations/<pack>...yaml`) is of,
    among the packs beside its folder; None when it is not one or names no such pack."""
    from engine.dsl.places import find_packs
    from engine.i18n.translations import name_parts
    p = Path(path)
    parts = name_parts(p)
    if p.parent.name != "translations" or parts is None:
        return None
    return next((root for root in find_packs(p.parent.parent) if _pack_id(root) == parts[0]),
                None)
