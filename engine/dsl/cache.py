"""The build cache: checked packs, and what `engine validate` found in them, kept on disk.

Building a pack (parsing above all) takes most of a second for a big one; a cache entry
brings it back in milliseconds. An entry is found by a key that covers everything the
result depends on:

- the language and engine themselves: every `dsl/` and `engine/` source file (the grammar
  included), the package version and the Python version (`toolchain_hash`);
- the pack: its folder as given and the text of every file of it (`engine.dsl.files.tree_digest`);
- the packs it imports: where each import was looked for (found or not) and the text of
  every file of each, written into the entry and checked again before it is used.

Where: `ENGINE_DSL_CACHE=<dir>` if given, else the platform's cache folder (Linux
`$XDG_CACHE_HOME` or `~/.cache`, macOS `~/Library/Caches`, Windows `%LOCALAPPDATA%`) +
`engine-dsl`. `ENGINE_DSL_CACHE=off` turns the cache off.

Entries are pickled, and unpickling runs code, so an entry is only ever read when (1) the
folder belongs to this user and nobody else may write into it, (2) the entry file is a
regular file (not a link) of this user that nobody else may write, (3) it starts with this
module's magic line and format version, and (4) its body has the SHA-256 digest its header
gives. Anything else is ignored and rebuilt: a truncated, corrupt or foreign entry is never
unpickled. Entries are written to a private temporary file and renamed into place (readers
never see half an entry), and the folder is pruned to the newest `MAX_ENTRIES` entries and
`MAX_BYTES` bytes.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import pickle
import stat
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

FORMAT = 1
MAGIC = b"engine-dsl cache %d\n" % FORMAT
MAX_ENTRIES = 256
MAX_BYTES = 256 * 1024 * 1024
SUFFIX = ".entry"
_OFF = ("off", "0", "no", "false")
_DEFAULT = ("", "on", "1", "yes", "true")
_HERE = Path(__file__).resolve().parent
_ENGINE = _HERE.parent  # the engine package; the language is its subpackage dsl


# ---- where -----------------------------------------------------------------------------------
def _platform_dir() -> Path:
    home = Path(os.path.expanduser("~"))
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) if base else home / "AppData" / "Local"
    if sys.platform == "darwin":
        return home / "Library" / "Caches"
    base = os.environ.get("XDG_CACHE_HOME", "")
    return Path(base) if os.path.isabs(base) else home / ".cache"


def cache_dir() -> Path | None:
    """The cache folder, made if need be; None when the cache is off or the folder is not
    safe to read pickles from (someone else's, or writable by others)."""
    setting = os.environ.get("ENGINE_DSL_CACHE", "").strip()
    if setting.lower() in _OFF:
        return None
    d = (_platform_dir() / "engine-dsl" if setting.lower() in _DEFAULT
         else Path(os.path.expanduser(setting)))
    try:
        d.mkdir(mode=0o700, parents=True, exist_ok=True)
        return d if private(os.stat(d)) else None
    except OSError:
        return None


def private(st: os.stat_result) -> bool:
    """Owned by this user and writable by nobody else (where the system has owners)."""
    if not hasattr(os, "geteuid"):  # Windows: the per-user folder is protected by its ACL
        return True
    return st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


# ---- keys ------------------------------------------------------------------------------------
def toolchain_files() -> list[Path]:
    """The sources whose change must change every key: every Python file and grammar of
    the `engine` package, the language (`engine/dsl`) included, and the engine that runs
    the checks `validate` caches, in the order of their paths."""
    return list(_sources())


@functools.lru_cache(maxsize=1)
def _sources() -> tuple[Path, ...]:
    out: list[str] = []
    for folder, dirs, files in os.walk(_ENGINE):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += (os.path.join(folder, f) for f in files if f.endswith((".py", ".lark")))
    return tuple(map(Path, sorted(out)))


_HASHED: dict[tuple[Path, ...], str] = {}  # toolchain files -> their hash, once per process


def toolchain_hash() -> str:
    """A digest of `toolchain_files`, the package version and the Python version, made
    once per process: the code a process runs is the code it imported, whatever happens
    to the files later."""
    files = toolchain_files()
    memo = tuple(files)
    got = _HASHED.get(memo)
    if got is None:
        h = hashlib.sha256(MAGIC + _package_version().encode() + b"\0"
                           + sys.version.encode() + b"\0"
                           + sys.implementation.cache_tag.encode() + b"\0")
        for p in files:
            name = (p.relative_to(_ENGINE).as_posix() if p.is_relative_to(_ENGINE)
                    else p.name).encode()
            try:
                h.update(name + b"\0" + p.read_bytes() + b"\0")
            except OSError:
                h.update(name + b"\0missing\0")
        got = _HASHED[memo] = h.hexdigest()
    return got


def _package_version() -> str:
    """The installed package's version, cheaply: the project file of a checkout (or an
    editable install), else the name of the installed distribution's metadata folder.
    (importlib.metadata would cost more than a warm build.)"""
    project = _ENGINE.parent / "pyproject.toml"
    try:
        return hashlib.sha256(project.read_bytes()).hexdigest()
    except OSError:
        pass
    try:
        return ",".join(sorted(e.name for e in os.scandir(_ENGINE.parent)
                               if e.name.startswith("engine_dsl-")))
    except OSError:
        return ""


def key_of(*parts: str) -> str:
    h = hashlib.sha256(toolchain_hash().encode())
    for part in parts:
        h.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:40]


# ---- entries ---------------------------------------------------------------------------------
class Cache:
    """One cache folder (see `cache_dir`)."""

    def __init__(self, folder: Path):
        self.dir = folder

    @classmethod
    def open(cls) -> Cache | None:
        d = cache_dir()
        return cls(d) if d is not None else None

    def _path(self, kind: str, key: str) -> Path:
        return self.dir / f"{kind}-{key}{SUFFIX}"

    def get(self, kind: str, key: str, still_valid: Callable[[dict[str, Any]], bool] | None = None
            ) -> Any:
        """The value stored under (kind, key), or None. `still_valid(header)` may refuse
        an entry whose header records things that have changed since (imported packs)."""
        path = self._path(kind, key)
        data = _read_private(path)
        if data is None or not data.startswith(MAGIC):
            return None
        try:
            size = int.from_bytes(data[len(MAGIC):len(MAGIC) + 4], "big")
            start = len(MAGIC) + 4
            header = json.loads(data[start:start + size])
            body = data[start + size:]
            if header.get("kind") != kind or header.get("key") != key:
                return None
            if hashlib.sha256(body).hexdigest() != header.get("body"):
                return None  # truncated or damaged: never unpickled
            if still_valid is not None and not still_valid(header):
                return None
            value = pickle.loads(body)
        except Exception:  # noqa: BLE001 - a bad entry is a miss, whatever is wrong with it
            return None
        try:
            os.utime(path)  # recently used: pruned last
        except OSError:
            pass
        return value

    def put(self, kind: str, key: str, value: Any, header: dict[str, Any] | None = None) -> bool:
        """Store `value` (with `header`, plain JSON data for `get`'s `still_valid`);
        False when it cannot be pickled or written."""
        try:
            body = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, RecursionError, TypeError, AttributeError):
            return False
        import tempfile
        head = json.dumps({**(header or {}), "kind": kind, "key": key,
                           "body": hashlib.sha256(body).hexdigest()}).encode()
        data = MAGIC + len(head).to_bytes(4, "big") + head + body
        try:
            fd, tmp = tempfile.mkstemp(dir=self.dir, prefix=".", suffix=".tmp")
        except OSError:
            return False
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(tmp, self._path(kind, key))
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return False
        self.prune()
        return True

    def entries(self) -> list[tuple[float, int, Path]]:
        """(mtime, size, path) of each entry, newest first."""
        out = []
        try:
            with os.scandir(self.dir) as it:
                for e in it:
                    if e.name.endswith(SUFFIX) and e.is_file(follow_symlinks=False):
                        st = e.stat(follow_symlinks=False)
                        out.append((st.st_mtime, st.st_size, Path(e.path)))
        except OSError:
            return []
        return sorted(out, key=lambda x: x[0], reverse=True)

    def prune(self, max_entries: int | None = None, max_bytes: int | None = None) -> None:
        """Keep the newest entries within the limits; drop temporary files left by a
        writer that died (older than an hour)."""
        max_entries = MAX_ENTRIES if max_entries is None else max_entries
        max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        total = 0
        for i, (_mtime, size, path) in enumerate(self.entries()):
            total += size
            if i >= max_entries or total > max_bytes:
                try:
                    path.unlink()
                except OSError:
                    pass
        try:
            with os.scandir(self.dir) as it:
                stale = [e.path for e in it if e.name.endswith(".tmp")
                         and e.stat(follow_symlinks=False).st_mtime < time.time() - 3600]
        except OSError:
            return
        for p in stale:
            try:
                os.unlink(p)
            except OSError:
                pass


def _read_private(path: Path) -> bytes | None:
    """The bytes of `path` if it is a regular file (not a link) of this user that nobody
    else may write; else None."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not private(st):
            return None
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    except OSError:
        return None
    finally:
        os.close(fd)
