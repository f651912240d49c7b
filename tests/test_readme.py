"""The README's tutorial and API example work exactly as written."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _block_after(label: str) -> str:
    """The fenced block that follows the paragraph starting with `label`."""
    m = re.search(re.escape(label) + r".*?\n```[a-z]*\n(.*?)```", README, re.S)
    assert m, f"README has no block after {label!r}"
    return m.group(1)


def _tutorial_pack(tmp_path: Path) -> Path:
    pack = tmp_path / "duel"
    pack.mkdir()
    for name in ("pack.yaml", "cards.yaml", "rules.rules"):
        (pack / name).write_text(_block_after(f"`{name}`"), encoding="utf-8")
    return pack


def _engine(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_tutorial_pack_validates_formats_and_plays(tmp_path: Path) -> None:
    pack = _tutorial_pack(tmp_path)
    assert _engine("validate", str(pack)).returncode == 0
    assert _engine("fmt", "--check", str(pack)).returncode == 0
    from engine import load_pack
    game = load_pack(pack).new_game(seed=7)
    assert game.decision is not None and game.decision.kind == "one"
    while not game.over:
        game.apply(game.legal_actions()[0])
    assert game.result is not None


def test_tutorial_error_is_shown_as_in_the_readme(tmp_path: Path) -> None:
    pack = _tutorial_pack(tmp_path)
    rules = pack / "rules.rules"
    rules.write_text(rules.read_text().replace("if c == cavalry", "if c == cavalery"))
    got = _engine("validate", str(pack))
    assert got.returncode == 1
    shown = _block_after("Misspell `cavalry`").replace("path/to/duel", str(pack))
    assert got.stdout.strip() == shown.strip()


def test_api_example_runs() -> None:
    code = _block_after("## The library API")
    got = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert got.returncode == 0, got.stderr
    assert "Result(winner=" in got.stdout
