"""Every pack the generic tests run on: the shipped packs under content/ and the test game."""
from __future__ import annotations

from pathlib import Path

from engine.loader import content_root, find_packs

TESTS = Path(__file__).resolve().parent
TESTGAME = TESTS / "packs" / "testgame"


def pack_dirs() -> list[Path]:
    """Pack directories: all packs under content/, then tests/packs/testgame."""
    found = [p.resolve() for p in find_packs(content_root())]
    if TESTGAME not in found:
        found.append(TESTGAME)
    return found


def pack_ids() -> list[str]:
    return [p.name for p in pack_dirs()]
