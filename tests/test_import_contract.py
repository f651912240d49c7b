"""The layers dsl <- engine core <- front-ends hold (pyproject.toml [tool.importlinter]):
dsl imports nothing from the engine, and front-ends (the command line, the terminal, bots,
simulate, a server, adapters) reach the runtime only through the public API."""
from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
CONTRACTS = ("layers: front-ends, core, i18n, language",
             "front-ends use the public API, not the runtime internals",
             "no import circle within a layer's modules")


def contracts() -> list[dict]:
    with open(PYPROJECT, "rb") as fh:
        return tomllib.load(fh)["tool"]["importlinter"]["contracts"]


def lint(root: Path) -> subprocess.CompletedProcess:
    """`lint-imports` on the packages under `root`, with `root`'s pyproject.toml."""
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(no_cache=True))")
    return subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


def test_the_contracts_are_kept():
    assert [c["name"] for c in contracts()] == list(CONTRACTS)
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "3 kept, 0 broken" in run.stdout


def test_every_front_end_is_under_the_contract():
    """Each front-end is a subpackage of engine.frontends, which the contract covers whole;
    no module of the engine's top level but the lazy public API and `python -m engine`."""
    listed = next(c["source_modules"] for c in contracts() if c["type"] == "forbidden")
    assert listed == ["engine.frontends"]
    for name in ("cli", "terminal", "bots", "simulate", "serve", "adapters"):
        assert importlib.util.find_spec(f"engine.frontends.{name}") is not None, name
    top = sorted(p.name for p in (ROOT / "engine").iterdir()
                 if p.suffix == ".py" or (p / "__init__.py").is_file())
    assert top == ["__init__.py", "__main__.py", "core", "dsl", "frontends", "i18n"]


def test_breaking_the_contracts_is_seen(tmp_path):
    """A copy of the code with a bot importing the runtime, the language importing the game,
    and a circle between two core modules: each contract breaks, naming the import."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "locale", "web"))
    shutil.copy(PYPROJECT, tmp_path / "pyproject.toml")

    def append(rel: str, line: str) -> None:
        path = tmp_path / "engine" / rel
        path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")

    append("frontends/bots.py", "from engine.core.runtime import Runtime")
    append("dsl/errors.py", "import engine.core.game")
    append("core/rng.py", "import engine.core.tables")
    append("core/tables.py", "import engine.core.rng")
    run = lint(tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "0 kept, 3 broken" in run.stdout
    assert "engine.frontends.bots -> engine.core.runtime" in run.stdout
    assert "engine.dsl.errors -> engine.core.game" in run.stdout
    assert "No cycles are allowed in engine.core." in run.stdout
    assert "- .tables -> .rng" in run.stdout or "- .rng -> .tables" in run.stdout


def test_nothing_imports_the_language_by_its_link():
    """The repository's top-level `dsl` is a link to engine/dsl (where designers find
    dsl/grammar.lark): code that imported `dsl.x` would load the language a second time,
    under another name, and code that named the package `dsl` in a string (a resource
    read by package) works in a checkout but not from an installed wheel, which has none."""
    assert (ROOT / "dsl" / "grammar.lark").samefile(ROOT / "engine" / "dsl" / "grammar.lark")
    import re
    found = []
    for folder in ("engine", "tests", "bench"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if re.search(r"^\s*(from dsl[. ]|import dsl\b)", text, flags=re.M):
                found.append(str(path.relative_to(ROOT)))
            if folder == "engine" and re.search(r"""["']dsl(\.[a-z_.]+)?["']""", text):
                found.append(f"{path.relative_to(ROOT)} (names the package 'dsl')")
    assert found == []
