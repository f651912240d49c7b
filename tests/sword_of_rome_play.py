"""Setting up Sword of Rome positions and playing them, for the rules tests
(tests/test_sword_of_rome_battle.py, tests/test_sword_of_rome_module.py), as tests/hannibal_play.py
does for Hannibal.

A test starts a game (it stops at the first decision: who plays first in turn 1), rearranges
the board by editing the state the way the rules would leave it (CUs made or removed, leaders
placed, cards dealt, the unrest set), loads the dice, and answers the decisions the rules ask,
by value. The rules themselves are never bypassed: every move, battle and roll runs in the pack."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from engine.core.game import Game
from engine.core.loader import load_pack
from engine.i18n.translations import message_key

PACK_DIR = Path(__file__).resolve().parent.parent / "content" / "sword_of_rome"
SEED = "../shared/seeds/001"  # the Russian 5-player rules: §19-§21 and the glossary
BOX = "garrison_box_space"


@functools.lru_cache(maxsize=1)
def pack() -> Any:
    return load_pack(PACK_DIR)


def board(seed: int = 1) -> Game:
    """A game at turn 1's first decision, no CU and no leader on the board."""
    g = Game.new(pack(), seed=seed, log=True)
    s = g.state
    for uid in list(s["made"].get("cu", [])):
        _put(g, uid, None)
        s["made"]["cu"].remove(uid)
        del s["f"][uid]
    for f in s["f"].values():
        if set(f) == {"at"}:
            f["at"] = None
    return g


def _put(g: Game, item: str, key: str | None) -> None:
    s = g.state
    old = s["loc"].get(item)
    if old is not None:
        s["z"][old].remove(item)
        del s["loc"][item]
    if key is not None:
        s["z"][key].append(item)
        s["loc"][item] = key


def add_cus(g: Game, power: str, space: str, n: int, *, mercenary: bool = False) -> list[str]:
    """n new CUs of a power in a space, as `create cu` would make them."""
    s = g.state
    made = []
    for _ in range(n):
        s["serial"]["cu"] = s["serial"].get("cu", 0) + 1
        uid = f"cu#{s['serial']['cu']}"
        s["made"].setdefault("cu", []).append(uid)
        s["f"][uid] = {"power": power, "mercenary": mercenary}
        _put(g, uid, f"troops|{space}")
        made.append(uid)
    return made


def cus(g: Game, space: str, power: str | None = None) -> int:
    return sum(1 for u in g.state["z"][f"troops|{space}"]
               if power is None or g.state["f"][u]["power"] == power)


def place(g: Game, leader: str, space: str | None) -> None:
    g.state["f"][leader]["at"] = space


def at(g: Game, leader: str) -> str | None:
    return g.state["f"][leader]["at"]


def give(g: Game, side: str, *cards: str) -> None:
    """These cards as a side's whole hand (the rest back to its deck)."""
    for c in list(g.state["z"][f"hand|{side}"]):
        _put(g, c, f"deck|{side}")
    for c in cards:
        _put(g, c, f"hand|{side}")


def set_var(g: Game, name: str, value: Any, key: str = "") -> None:
    g.state["v"][name][key] = value


def var(g: Game, name: str, key: str = "") -> Any:
    return g.state["v"][name][key]


def options(g: Game) -> list[Any]:
    return g.legal_actions()


def answer(g: Game, *values: Any) -> None:
    """Answer the next decisions with these values, one each. A decision with a single legal
    answer is answered by the engine and never asked."""
    for v in values:
        d = g.decision
        assert d is not None, f"no decision left to answer with {v!r}"
        assert v in g.legal_actions(), (v, d.prompt, g.legal_actions())
        g.apply(v, side=d.side, decision=d.id)


def said(g: Game, text: str) -> list[list[Any]]:
    """The values of every log line written with this text (its placeholders as in the rules)."""
    template = message_key(text)
    return [e.get("a", []) for e in g.log if e.get("t") == "say" and e.get("m") == template]


def carthage_first(g: Game, *hand: str) -> None:
    """Rome names Carthage first player; Carthage holds these cards (two or more, so that the
    card is asked) and plays the first."""
    give(g, "carthaginian", *hand)
    answer(g, "carthaginian")
