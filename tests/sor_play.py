"""Setting up Sword of Rome positions and playing them, for the scenario's rules tests
(tests/test_sword_of_rome_*.py).

A test starts a game (it stops at turn 1's first decision: who plays first), rearranges the
board by editing the state the way the rules would leave it (CUs made or removed, leaders
placed, control set, hands dealt), and then answers the decisions the rules ask, by value. The
rules themselves are never bypassed: every move, placement and score runs in the pack."""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from zone_edit import put as _put

from engine.core.game import Game
from engine.core.loader import load_pack
from engine.i18n.translations import fill, message_key

PACK_DIR = Path(__file__).resolve().parent.parent / "content" / "sword_of_rome"


@functools.lru_cache(maxsize=1)
def pack() -> Any:
    return load_pack(PACK_DIR)


def new_game(seed: int = 1) -> Game:
    """A new game at turn 1's first decision (the first player), hands dealt."""
    return Game.new(pack(), seed=seed)


def board(seed: int = 1) -> Game:
    """A new game with no CU and no leader on the map: the test places what it needs."""
    g = new_game(seed)
    remove_cus(g, list(g.state["made"].get("cu", [])))
    for f in g.state["f"].values():
        if "at" in f and "power" not in f:
            f["at"] = None
    return g


# ---- reading ------------------------------------------------------------------------------

def cus(g: Game, space: str, power: str | None = None) -> int:
    """The CUs standing in a space (not those moving with a leader)."""
    return sum(1 for u in g.state["z"][f"troops|{space}"]
               if power is None or g.state["f"][u]["power"] == power)


def column(g: Game, leader: str) -> int:
    return len(g.state["z"][f"column|{leader}"])


def at(g: Game, leader: str) -> str | None:
    return g.state["f"][leader]["at"]


def pc(g: Game, space: str) -> str | None:
    return g.state["f"][space]["pc"]


def loyalty(g: Game, space: str) -> int:
    return g.state["f"][space]["loyalty_now"]


def var(g: Game, name: str, key: str = "") -> Any:
    return g.state["v"][name][key]


def hand(g: Game, side: str) -> list[str]:
    return list(g.state["z"][f"hand|{side}"])


def said(g: Game, text: str) -> list[list[Any]]:
    """The values of every log line written with this text (its placeholders as in the
    rules)."""
    template = message_key(text)
    return [e.get("a", []) for e in g.log if e.get("t") == "say" and e.get("m") == template]


# ---- arranging the board ------------------------------------------------------------------

def add_cus(g: Game, power: str, space: str, n: int) -> None:
    """n new CUs of a power in a space, as `create cu` would make them."""
    s = g.state
    for _ in range(n):
        s["serial"]["cu"] = s["serial"].get("cu", 0) + 1
        uid = f"cu#{s['serial']['cu']}"
        s["made"].setdefault("cu", []).append(uid)
        s["f"][uid] = {"power": power, "mercenary": False, "moved": False}
        _put(g, uid, f"troops|{space}")


def remove_cus(g: Game, ids: list[str]) -> None:
    for uid in ids:
        _put(g, uid, None)
        g.state["made"]["cu"].remove(uid)
        del g.state["f"][uid]


def set_leader(g: Game, leader: str, space: str | None) -> None:
    g.state["f"][leader]["at"] = space


def set_pc(g: Game, space: str, power: str | None, loyalty: int | None = None) -> None:
    g.state["f"][space]["pc"] = power
    if loyalty is not None:
        g.state["f"][space]["loyalty_now"] = loyalty


def set_var(g: Game, name: str, value: Any, key: str = "") -> None:
    g.state["v"][name][key] = value


def give(g: Game, side: str, *cards: str) -> None:
    """These cards as a side's whole hand (the rest go back to its deck)."""
    for c in hand(g, side):
        _put(g, c, f"deck|{side}")
    for c in cards:
        _put(g, c, f"hand|{side}")


# ---- answering ----------------------------------------------------------------------------

def prompt(g: Game) -> str:
    """The prompt of the decision asked, its placeholders filled with record ids."""
    d = g.decision
    return "" if d is None else fill(d.prompt, d.args or [])


def options(g: Game) -> list[Any]:
    d = g.decision
    assert d is not None
    return list(d.options)


def pass_windows(g: Game, keep: Any = None) -> None:
    """Pass the card windows asked now (events.rules card_now: asked at their moment whatever
    the hand holds), unless one offers `keep`."""
    while g.decision is not None and g.decision.window is not None \
            and keep not in g.decision.options:
        g.apply(None, side=g.decision.side, decision=g.decision.id)


def answer(g: Game, *values: Any, windows_after: bool = False) -> None:
    """Answer the next decisions with these values, one each, by the side asked (a decision
    with one legal answer is answered by the engine and never asked). A card window is passed
    unless it offers the value (pass_windows), and so are those asked after the last value
    unless `windows_after` (the test answers them)."""
    for v in values:
        pass_windows(g, v)
        d = g.decision
        assert d is not None, f"no decision left to answer with {v!r}"
        g.apply(v, side=d.side, decision=d.id)
    if not windows_after:
        pass_windows(g)


def play_card(g: Game, side: str, card: str, use: str) -> None:
    """The side, active with its round's first decision asked, plays a card for a use (the
    questions with one legal answer the engine answers itself)."""
    if g.decision is not None and "what do you do?" in prompt(g):
        answer(g, "play_card")
    if g.decision is not None and "which card do you play?" in prompt(g):
        answer(g, card)
    if g.decision is not None and "for what?" in prompt(g) and card in prompt(g):
        answer(g, use)
