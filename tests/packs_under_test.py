"""Every pack the generic tests run on: the shipped packs under content/ and the test game.

Data packs (`playable: false` in pack.yaml) have no game to play, so the property tests
that play random games leave them out."""
from __future__ import annotations

from pathlib import Path

from engine.dsl.places import content_root, find_packs, is_playable

TESTS = Path(__file__).resolve().parent
TESTGAME = TESTS / "packs" / "testgame"
LEAKGAME = TESTS / "packs" / "leakgame"  # card triggers and hidden hands, for leak tests
WINDOWGAME = TESTS / "packs" / "windowgame"  # response windows (tests/test_lang_windows.py)
STACKGAME = TESTS / "packs" / "stackgame"  # records made and destroyed in play, their fields


def pack_dirs() -> list[Path]:
    """Playable pack directories: all packs under content/ but data packs, then
    tests/packs/testgame, tests/packs/leakgame, tests/packs/windowgame and
    tests/packs/stackgame."""
    found = [p.resolve() for p in find_packs(content_root()) if is_playable(p)]
    for extra in (TESTGAME, LEAKGAME, WINDOWGAME, STACKGAME):
        if extra not in found:
            found.append(extra)
    return found


def pack_ids() -> list[str]:
    return [p.name for p in pack_dirs()]
