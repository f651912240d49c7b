"""A pack's generated rules compiled to C (`engine compile PACK`), kept in the build cache.

The compiler writes a pack's rules as Python (engine.dsl.compile); the loader runs that text.
Cython compiles the very same text, unchanged, to an extension module: the same functions,
faster (issue 34: the biggest shipped pack's random games go 1.2x as fast with its rules
compiled, 1.5x with the runtime compiled too, `ENGINE_COMPILE=1 pip install .`; the figures
are in the README, "Faster: compiled to C"). Compiling needs Cython and a C compiler
(`pip install 'engine-dsl[compile]'`) and takes minutes for a big pack; loading the result
needs neither.

A compiled module is found by the text it was compiled from (`native_key`: its SHA-256
with Cython's settings, and the Python ABI's suffix, never a name from the pack), in the
cache folder's `native/` (engine.dsl.cache.cache_dir: this user's, writable by nobody else,
as for the cache's entries; the module is written elsewhere and renamed into place). So an
edit of the pack that changes its generated code, or an engine whose compiler writes other
code, finds no module and runs the Python text; an engine change that leaves the code as it
was keeps it.

An extension module can be loaded once in a process, and its functions read their globals
from its own dict, which the loader fills with the pack's tables: only the first pack a
process instantiates from a code gets the compiled module (`load_native`); another made
from the same code (a test's `instantiate(build_pack(...))`) runs the Python text.
`ENGINE_NATIVE=off` runs the Python text always (a debugger, a coverage tool, the tests).
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from types import ModuleType

from engine.dsl.cache import cache_dir, private

# the extension's file name ends so: the Python version and platform it was built for
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
PREFIX = "engine_rules_"
KEEP = 16  # compiled modules kept in the cache (`prune`)
# Python's semantics, unchanged: annotations are not types to Cython (else an `int`
# parameter turns a float into an int where the Python refuses it). hatch_build.py compiles
# the runtime with them too, importing this module: it must import the standard library only
DIRECTIVES = {"language_level": 3, "annotation_typing": False}


class NativeError(Exception):
    """Compiling to C could not be done (no Cython, no C compiler, no cache): the message
    says why, for a person."""


def native_key(code: str) -> str:
    """The module name of generated `code` compiled: a hash of the text and of how it is
    compiled (DIRECTIVES), no pack name."""
    digest = hashlib.sha256(repr(DIRECTIVES).encode() + b"\0" + code.encode(
        "utf-8", "surrogatepass")).hexdigest()[:24]
    return PREFIX + digest


def native_dir() -> Path | None:
    """The cache's folder of compiled rules (None when the cache is off or unsafe)."""
    d = cache_dir()
    if d is None:
        return None
    folder = d / "native"
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
    except OSError:
        return None
    return folder


def native_path(code: str) -> Path | None:
    """Where `code` compiled is kept, whether or not it has been compiled yet."""
    return _kept_at(native_key(code))


def _kept_at(name: str) -> Path | None:
    """Where the compiled module `name` (a `native_key`) is kept (None: the cache off)."""
    folder = native_dir()
    return None if folder is None else folder / (name + SUFFIX)


def source_name(name: str) -> str:
    """The file name the functions of compiled module `name` report in tracebacks (the
    name its text was compiled under): engine.core.runtime.faults maps their lines to the
    pack's rules."""
    return name + ".py"


def load_native(code: str) -> ModuleType | None:
    """`code` compiled and loaded, or None: not compiled (or the cache off), or loaded
    already in this process (see the module's docstring)."""
    if os.environ.get("ENGINE_NATIVE", "").strip().lower() in ("off", "0", "no", "false"):
        return None
    name = native_key(code)
    path = _kept_at(name)
    if path is None or name in sys.modules or not _private_file(path):
        return None
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception:  # noqa: BLE001 - another Python's build, a damaged file: the Python runs
        return None
    sys.modules[name] = module
    try:
        os.utime(path)  # recently used: pruned last
    except OSError:
        pass
    return module


def _private_file(path: Path) -> bool:
    """A regular file (not a link) of this user that nobody else may write: what the build
    cache asks of the entries it reads, for a file whose loading runs its code."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISREG(st.st_mode) and private(st)


def compile_native(code: str, optimize: str = "-O3") -> Path:
    """Compile generated `code` to an extension module in the cache; its path. Runs Cython
    and the C compiler in a child process, in a scratch folder; NativeError when either is
    missing or fails (the compiler's last lines in the message)."""
    name = native_key(code)
    target = _kept_at(name)
    if target is None:
        raise NativeError("the build cache is off or not safe to use (ENGINE_DSL_CACHE): "
                          "compiled rules are kept there")
    if importlib.util.find_spec("Cython") is None:
        raise NativeError("Cython is not installed: pip install 'engine-dsl[compile]'")
    with tempfile.TemporaryDirectory(prefix="engine-native-") as tmp:
        where = Path(tmp)
        (where / source_name(name)).write_text(code, encoding="utf-8")
        flags = [optimize, "-g0"] if os.name != "nt" else []  # (gcc's and clang's words)
        script = textwrap.dedent(f"""
            from setuptools import Extension, setup
            from Cython.Build import cythonize
            DIRECTIVES = {DIRECTIVES!r}
            ext = Extension({name!r}, [{source_name(name)!r}],
                            extra_compile_args={flags!r})
            setup(name={name!r}, script_args=["build_ext", "--inplace", "-q"],
                  ext_modules=cythonize([ext], quiet=True,
                                        compiler_directives=DIRECTIVES))
        """)
        done = subprocess.run([sys.executable, "-c", script], cwd=where, capture_output=True,
                              text=True)
        built = where / (name + SUFFIX)
        if done.returncode != 0 or not built.is_file():
            tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-12:])
            raise NativeError(f"compiling the rules to C failed (is a C compiler installed?):"
                              f"\n{tail}")
        fd, scratch = tempfile.mkstemp(dir=target.parent, prefix=".native-")
        os.close(fd)
        shutil.copyfile(built, scratch)  # (the scratch folder may be on another disk)
        os.chmod(scratch, 0o700)
        os.replace(scratch, target)
    prune(target.parent)
    return target


def prune(folder: Path, keep: int = KEEP) -> None:
    """Keep the `keep` compiled modules used last (a big pack's is megabytes, and each edit
    of its rules makes another); drop scratch files a compile that died left (an hour old)."""
    try:
        with os.scandir(folder) as it:
            found = [(e.stat(follow_symlinks=False).st_mtime, e.path) for e in it
                     if e.is_file(follow_symlinks=False)]
    except OSError:
        return
    modules = sorted((t, p) for t, p in found if Path(p).name.startswith(PREFIX))
    old = [p for _t, p in modules[:max(0, len(modules) - keep)]]
    old += [p for t, p in found if Path(p).name.startswith(".native-")
            and t < time.time() - 3600]
    for p in old:
        try:
            os.unlink(p)
        except OSError:
            pass
