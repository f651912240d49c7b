"""Where packs are found: by name among the shipped packs (or a checkout's `content/`, or
$ENGINE_CONTENT), by path, and what a pack.yaml says of itself without building it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine import DIST_NAME  # a checkout's pyproject.toml names it

CONTENT_ENV = "ENGINE_CONTENT"  # a directory of packs to use instead of the shipped ones


def installed_content_root() -> Path:
    """The packs shipped with the engine (engine.dsl.files.shipped_root)."""
    from engine.dsl.files import shipped_root
    root = shipped_root()
    if root is None:  # pragma: no cover - a broken installation
        raise FileNotFoundError("the packs shipped with the engine are missing")
    return root


def checkout_content_root(start: str | Path | None = None) -> Path | None:
    """The `content/` folder of a checkout of this project at `start` (default: the current
    directory) or one of its parents, or None. A checkout is a directory whose pyproject.toml
    names this project and whose `content/` folder holds at least one pack (a pack.yaml)."""
    try:
        here = Path(start if start is not None else Path.cwd()).resolve()
    except OSError:
        return None
    for d in (here, *here.parents):
        content = d / "content"
        if content.is_dir() and _names_this_project(d / "pyproject.toml") \
                and next(content.glob("*/pack.yaml"), None) is not None:
            return content
    return None


def _names_this_project(pyproject: Path) -> bool:
    try:
        import tomllib
        with open(pyproject, "rb") as fh:
            data = tomllib.load(fh)
    except (OSError, ValueError):
        return False
    project = data.get("project")
    return isinstance(project, dict) and project.get("name") == DIST_NAME


def content_root() -> Path:
    """Where pack names resolve: the directory named by $ENGINE_CONTENT when set; else the
    `content/` folder of the checkout the current directory is in (so a designer's edits
    are what `engine validate NAME` and `engine play NAME` read, even after a non-editable
    install); else the packs installed with the engine."""
    import os
    env = os.environ.get(CONTENT_ENV, "").strip()
    if env:
        return Path(env)
    return checkout_content_root() or installed_content_root()


def resolve_pack(name_or_path: str | Path) -> Path:
    """A pack directory from a path, or from the name of a shipped pack."""
    p = Path(name_or_path)
    if (p / "pack.yaml").is_file() or p.is_dir() and p.name != str(name_or_path):
        return p
    shipped = content_root() / str(name_or_path)
    if (shipped / "pack.yaml").is_file():
        return shipped
    if p.is_dir():
        return p
    raise FileNotFoundError(f"no pack '{name_or_path}' (not a directory; shipped packs: "
                            f"{shipped_list()})")


def find_packs(root: Path) -> list[Path]:
    """Pack directories at or below `root` (a directory holding pack.yaml)."""
    root = Path(root)
    if (root / "pack.yaml").is_file():
        return [root]
    return sorted(p.parent for p in root.rglob("pack.yaml"))


def pack_meta(root: str | Path) -> dict[str, Any]:
    """A pack's pack.yaml as plain data, read cheaply without building the pack; {} when it
    cannot be read or is no mapping (building the pack reports the problem)."""
    from engine.dsl.files import refused_file
    from engine.dsl.yamlload import load_yaml
    path = Path(root) / "pack.yaml"
    if refused_file(path, Path(root)) is not None:
        return {}  # building the pack reports it
    try:
        data, _ = load_yaml(str(path), path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return {}
    return dict(data) if isinstance(data, dict) else {}


def is_playable(root: Path) -> bool:
    """False for a data pack (`playable: false` in its pack.yaml), read without building it.
    A pack.yaml that cannot be read counts as playable: building it reports the problem."""
    return pack_meta(root).get("playable") is not False


def _shipped() -> list[tuple[str, bool]]:
    """(name, playable) of each shipped pack, in name order."""
    return [(p.name, is_playable(p)) for p in find_packs(content_root())]


def shipped_packs() -> tuple[list[str], list[str]]:
    """The names of the shipped packs: (playable ones, data packs)."""
    found = _shipped()
    return [n for n, ok in found if ok], [n for n, ok in found if not ok]


def shipped_list() -> str:
    """The shipped packs for a message: "a, b (data pack), c", or "none"."""
    return ", ".join(n if ok else f"{n} (data pack)" for n, ok in _shipped()) or "none"
