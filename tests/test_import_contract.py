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
# Modules that are front-ends whenever they exist (they are written on other branches).
FRONT_ENDS = ("engine.cli", "engine.terminal", "engine.bots", "engine.simulate",
              "engine.serve", "engine.adapters")


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
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 kept, 0 broken" in run.stdout


def test_every_front_end_is_under_the_contract():
    """A server or adapter module, once it exists, is listed with the other front-ends."""
    listed = next(c["source_modules"] for c in contracts() if c["type"] == "forbidden")
    present = [m for m in FRONT_ENDS if importlib.util.find_spec(m) is not None]
    assert {"engine.cli", "engine.bots", "engine.simulate", "engine.terminal"} <= set(present)
    assert [m for m in present if m not in listed] == []


def test_a_front_end_importing_the_runtime_breaks_it(tmp_path):
    """A copy of the code with a bot importing engine.runtime, and dsl importing the game:
    both contracts break, each naming the import."""
    for pkg in ("engine", "dsl"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg,
                        ignore=shutil.ignore_patterns("__pycache__", "locale"))
    shutil.copy(PYPROJECT, tmp_path / "pyproject.toml")
    bots = tmp_path / "engine" / "bots.py"
    bots.write_text(bots.read_text(encoding="utf-8") + "\nfrom engine.runtime import Runtime\n",
                    encoding="utf-8")
    errors = tmp_path / "dsl" / "errors.py"
    errors.write_text(errors.read_text(encoding="utf-8") + "\nimport engine.game\n",
                      encoding="utf-8")
    run = lint(tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "0 kept, 2 broken" in run.stdout
    assert "engine.bots -> engine.runtime" in run.stdout
    assert "dsl.errors -> engine.game" in run.stdout
