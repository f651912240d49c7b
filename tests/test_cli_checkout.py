"""The designer's loop: inside a checkout, pack names resolve to the checkout's `content/`,
not to an installed copy; every command says which directory it read. Also the small CLI
points: `validate --quiet`, `--version`, counts in the singular, one result per game, one
seat per side."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.frontends.cli import main

REPO = Path(__file__).resolve().parent.parent
TINY = REPO / "tests" / "packs" / "tinygame"


@pytest.fixture
def installed(tmp_path):
    """An 'installed' engine: the parts of engine/ linked from this repo, and engine/_packs
    holding a good copy of tinygame (where a wheel puts the repository's content/)."""
    site = tmp_path / "site"
    (site / "engine").mkdir(parents=True)
    for part in (REPO / "engine").iterdir():
        if part.name != "__pycache__":
            (site / "engine" / part.name).symlink_to(part, target_is_directory=part.is_dir())
    shutil.copytree(TINY, site / "engine" / "_packs" / "tinygame")
    return site


@pytest.fixture
def checkout(tmp_path):
    """A checkout of this project (pyproject.toml naming it, content/ with packs) whose
    tinygame a designer has edited; no engine/ in it, so the installed engine runs."""
    root = tmp_path / "checkout"
    (root / "content").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "engine-dsl"\nversion = "0"\n')
    shutil.copytree(TINY, root / "content" / "tinygame")
    (root / "docs").mkdir()  # a subdirectory: the checkout is found from below too
    return root


def run(cwd: Path, site: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ENGINE_CONTENT")}
    env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=120)


def test_commands_read_the_checkout_not_the_installed_copy(installed, checkout, tmp_path):
    mine = checkout / "content"
    # an edit that keeps the pack valid: play reads the checkout's copy
    for cwd in (checkout, checkout / "docs"):
        r = run(cwd, installed, "play", "tinygame", "--seed", "1", "--json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["pack_dir"] == str((mine / "tinygame").resolve())
        assert f"reading pack from {(mine / 'tinygame').resolve()}" in r.stderr
    # the designer breaks a file: every command that reads the pack by name reports it
    (mine / "tinygame" / "cards.yaml").write_text("card:\n  - id: x\n    cavlary: 800\n"
                                                  "    id: y\n")
    for args in (["validate"], ["validate", "tinygame"]):
        r = run(checkout, installed, *args)
        assert r.returncode == 1, (args, r.stdout, r.stderr)
        assert str(mine / "tinygame" / "cards.yaml") in r.stdout or "cards.yaml" in r.stdout
        assert f"reading packs from {mine.resolve()}" in r.stderr
    r = run(checkout, installed, "validate", "tinygame", "--format", "json")
    assert r.returncode == 1 and json.loads(r.stdout)["read_from"] == [str(mine.resolve())]
    r = run(checkout, installed, "play", "tinygame", "--seed", "1")
    assert r.returncode == 1 and "cards.yaml" in r.stderr
    # outside the checkout the installed packs are read (as CI does from an empty directory)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for args in (["validate"], ["validate", "tinygame"], ["validate", "content/"]):
        r = run(elsewhere, installed, *args)
        assert r.returncode == 0, (args, r.stdout, r.stderr)
        assert f"reading packs from {installed / 'engine' / '_packs'}" in r.stderr
    # an explicit path always wins, inside the checkout too
    r = run(checkout, installed, "validate", str(installed / "engine" / "_packs" / "tinygame"))
    assert r.returncode == 0, r.stdout


def test_checkout_needs_this_projects_pyproject(tmp_path, monkeypatch):
    from engine.dsl.places import checkout_content_root, content_root, installed_content_root
    root = tmp_path / "other"
    shutil.copytree(TINY, root / "content" / "tinygame")
    (root / "pyproject.toml").write_text('[project]\nname = "something-else"\n')
    assert checkout_content_root(root) is None
    (root / "pyproject.toml").write_text('[project]\nname = "engine-dsl"\n')
    assert checkout_content_root(root / "content" / "tinygame") == (root / "content").resolve()
    (root / "pyproject.toml").write_text("not toml [")
    assert checkout_content_root(root) is None
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("ENGINE_CONTENT", raising=False)
    assert content_root() == installed_content_root()
    monkeypatch.setenv("ENGINE_CONTENT", str(tmp_path))
    assert content_root() == tmp_path


def test_validate_quiet(tmp_path, capsys):
    good = shutil.copytree(TINY, tmp_path / "good")
    assert main(["validate", "--quiet", str(good)]) == 0
    cap = capsys.readouterr()
    assert cap.out == "" and cap.err == ""
    bad = shutil.copytree(TINY, tmp_path / "bad")
    (bad / "more.yaml").write_text("card:\n  - id: four\n    power: 1\n    power: 2\n")
    assert main(["validate", "-q", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "error[" in out and out.rstrip().endswith("1 error")
    assert "checked" not in out and "note[" not in out


def test_version(capsys):
    from importlib.metadata import version
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"engine {version('engine-dsl')}"


def test_one_human_spec_for_two_sides_is_an_error(capsys):
    assert main(["play", str(TINY), "--bots", "human"]) == 2
    err = capsys.readouterr().err
    assert "one entry per side" in err and "human,human" in err


def test_human_game_prints_its_result_once_and_counts_in_the_singular(monkeypatch, capsys):
    import io
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n1\n"))
    assert main(["play", str(TINY), "--seed", "1", "--bots", "human,random"]) == 0
    out = capsys.readouterr().out
    assert out.count("result:") == 1, out
    assert main(["play", str(TINY), "--seed", "1", "--max-decisions", "1"]) == 0
    out = capsys.readouterr().out
    assert "stopped after 1 decision (" in out
