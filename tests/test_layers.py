"""The engine and the language stay generic: no game, card or place is named in them."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Names from the games this project carries; any of them in engine/ or dsl/ means game
# knowledge has leaked out of content/.
GAME_WORDS = re.compile(
    r"hannibal|ante.?portas|carthag|sword.?of.?rome|senate|scipio|tarentum|numidia|"
    r"roma\b|capua|cannae|hispania|gallia|italia|consul|elephant|hegemon",
    re.IGNORECASE)


def test_engine_and_dsl_name_no_game() -> None:
    hits = []
    for folder in ("engine", "dsl"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".py", ".lark") or "__pycache__" in path.parts:
                continue
            for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if GAME_WORDS.search(line):
                    hits.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()}")
    assert not hits, "game knowledge in the engine:\n" + "\n".join(hits)
