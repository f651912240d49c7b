"""Which files of a pack directory may be read: the walk and the refusals (E328, E329).

Kept apart from `engine.dsl.pack` (which needs the parser) so that the build cache can list and
hash a pack's files without importing the parser, the syntax tree or YAML.
"""
from __future__ import annotations

import hashlib
import os
import unicodedata
from pathlib import Path

from engine.dsl.errors import Diagnostic

PACK_FILE_SUFFIXES = (".rules", ".yaml")
# Characters no pack file name may hold: a printed path (or code naming it) would show
# something other than the file. Cc: controls (newline, escape, U+0085); Cf: format
# characters such as the bidi override U+202E; Zl/Zp: U+2028/U+2029 line breaks; Cs: bytes
# that are not UTF-8 (Python keeps them as lone surrogates).
_BAD_NAME_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_NAMED_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", "\\": "\\\\"}


def _is_bad_name_char(ch: str) -> bool:
    return unicodedata.category(ch) in _BAD_NAME_CATEGORIES


def has_bad_name_char(name: str) -> bool:
    """Does `name` hold a character that could make it print as something else?"""
    return any(_is_bad_name_char(ch) for ch in name)


def _escape_char(ch: str) -> str:
    if ch in _NAMED_ESCAPES:
        return _NAMED_ESCAPES[ch]
    if not _is_bad_name_char(ch):
        return ch
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def link_problem(path: Path, real_root: Path) -> str | None:
    """Why the link `path` may not be followed from a folder whose real path is
    `real_root` (None: it stays inside)."""
    try:
        target = Path(os.path.realpath(path, strict=True))
    except OSError:  # missing target, or a loop of links
        return "leads nowhere (its target is missing, or links loop)"
    if target != real_root and real_root not in target.parents:
        return "leads out of the pack folder"
    return None


def refused_file(path: Path, folder: Path) -> Diagnostic | None:
    """The E328/E329 diagnostic that refuses reading `path` (a file inside `folder`), or
    None when it may be read: for readers outside a pack walk (translation files, a quick
    look at pack.yaml) that must refuse what the pack reader refuses."""
    if has_bad_name_char(path.name):
        return Diagnostic("E328", "a file name with a control, bidi or line-break character "
                          "(shown escaped): it is not read", printable_path(str(path)), 0, 0,
                          suggestion="rename it using letters, digits, '-', '_' and '.'")
    if path.is_symlink():
        why = link_problem(path, Path(os.path.realpath(folder)))
        if why is not None:
            return Diagnostic("E329", f"symbolic link that {why}: it is not read",
                              printable_path(str(path)), 0, 0,
                              suggestion="put the file itself inside the folder")
    if path.exists() and not path.is_file():  # a FIFO or device would block or never end
        return Diagnostic("E300", "not a regular file: it is not read",
                          printable_path(str(path)), 0, 0)
    return None


def printable_path(path: str) -> str:
    """`path` as it may be printed: unchanged when harmless, else with every control, bidi or
    line-break character (and, so the escapes read one way, every backslash) escaped."""
    if not has_bad_name_char(path):
        return path
    return "".join(_escape_char(ch) for ch in path)


def refused_link(path: Path, why: str) -> Diagnostic:
    return Diagnostic("E329", f"symbolic link that {why}: it is not read",
                      printable_path(str(path)), 0, 0,
                      suggestion="put the file itself inside the pack folder")


def walk_pack(root: Path) -> tuple[list[Path], list[Diagnostic]]:
    """Every `.rules` and `.yaml` file below `root` that may be read, and why others are
    not. Files whose path holds a control character are refused (E328), and so are links
    leading out of the pack or nowhere (E329). Links to directories are never walked into:
    one inside the pack leads to files read at their own place anyway (and could loop), one
    outside is refused."""
    real_root = Path(os.path.realpath(root))
    found: list[Path] = []
    diags: list[Diagnostic] = []
    # (directory, its first badly named directory counting from the root, if any)
    todo: list[tuple[Path, Path | None]] = [(root, None)]
    refused_dirs: set[Path] = set()
    while todo:
        folder, bad_dir = todo.pop()
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError as err:
            diags.append(Diagnostic("E300", f"cannot read folder: {err.strerror}",
                                    printable_path(str(folder)), 0, 0))
            continue
        for entry in entries:
            path = Path(entry.path)
            bad = bad_dir or (path if has_bad_name_char(entry.name) else None)
            if entry.is_dir(follow_symlinks=False):
                todo.append((path, bad))
                continue
            is_pack_file = entry.name.endswith(PACK_FILE_SUFFIXES)
            if is_pack_file and bad is not None:
                if bad not in refused_dirs:
                    refused_dirs.add(bad)
                    diags.append(_refused_name(bad, is_dir=bad != path))
                continue
            if entry.is_symlink():
                to_dir = os.path.isdir(path)
                if not (is_pack_file or to_dir):
                    continue  # never read: nothing to refuse
                why = link_problem(path, real_root)
                if why is not None:
                    diags.append(refused_link(path, why))
                    continue
                if to_dir:
                    continue
            if is_pack_file and entry.is_file():
                found.append(path)
    return found, diags


def _refused_name(path: Path, is_dir: bool) -> Diagnostic:
    what = "a folder name" if is_dir else "a file name"
    return Diagnostic(
        "E328", f"{what} with a control, bidi or line-break character (shown escaped): "
        f"{'its files are' if is_dir else 'it is'} not read", printable_path(str(path)), 0,
        0, suggestion="rename it using letters, digits, '-', '_' and '.'")


def shipped_root() -> Path | None:
    """The folder of the packs shipped with the engine, if any: `engine/_packs` in an
    installed wheel (pyproject.toml puts the repository's `content/` there, so no top-level
    package of that generic name is installed), else the `content/` folder of the checkout
    this code runs from (an editable install, or the tests)."""
    engine_dir = Path(os.path.abspath(__file__)).parent.parent  # links kept: see the tests
    for folder in (engine_dir / "_packs", engine_dir.parent / "content"):
        if folder.is_dir():
            return folder
    return None  # pragma: no cover - installed without the packs


def digest_texts(items: list[tuple[str, str]]) -> str:
    """A digest of (path relative to its pack, text) pairs, in any order."""
    h = hashlib.sha256()
    for rel, text in sorted(items):
        data = text.encode("utf-8", "surrogatepass")
        h.update(f"{len(rel)}:{len(data)}:{rel}".encode("utf-8", "surrogatepass") + data)
    return h.hexdigest()


def tree_digest(root: Path) -> str | None:
    """`digest_texts` of every file of the pack at `root` as the pack reader reads them;
    None when the walk refuses a file or one cannot be read (the build reports why)."""
    files, diags = walk_pack(root)
    if diags:
        return None
    items = []
    for p in files:
        try:
            items.append((p.relative_to(root).as_posix(), p.read_text(encoding="utf-8")))
        except (OSError, UnicodeError, ValueError):
            return None
    return digest_texts(items)
