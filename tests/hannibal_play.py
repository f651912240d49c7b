"""Setting up Hannibal positions and playing them, for the rules tests (tests/test_hannibal_*.py).

A test starts a game (it stops at the first decision of turn 1's strategy phase), rearranges
the board by editing the state the way the rules would leave it (CUs made or removed, leaders
placed, PCs set, cards dealt), and then answers the decisions the rules ask, by value. The
rules themselves are never bypassed: every move, placement and roll runs in the pack."""
from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from zone_edit import put as _put

from engine.core.game import Game
from engine.core.loader import load_pack
from engine.i18n.translations import fill, message_key

PACK_DIR = Path(__file__).resolve().parent.parent / "content" / "hannibal"
SEEDS = "../shared/seeds"  # 002: the Dutch rulebook (authority), 003: the Russian summary


@functools.lru_cache(maxsize=1)
def pack() -> Any:
    return load_pack(PACK_DIR)


def new_game(seed: int = 1, *, log: bool = True, undo: bool = False) -> Game:
    """A new game, at Rome's campaign-opening window of turn 1 (nothing decided yet)."""
    return Game.new(pack(), seed=seed, log=log, undo=undo)


def board(seed: int = 1) -> Game:
    """A game at turn 1's first card, the board emptied: the test places what it needs."""
    g = new_game(seed)
    clear_board(g)
    return g


# ---- reading ---------------------------------------------------------------------------

def field(g: Game, record: str, name: str) -> Any:
    return g.state["f"][record][name]


def cus(g: Game, space: str, side: str | None = None, *,
        elephant: bool | None = None) -> list[str]:
    """The CU ids standing in a space (not those in a moving column)."""
    out = []
    for u in g.state["z"][f"troops|{space}"]:
        f = g.state["f"][u]
        if (side is None or f["side"] == side) and (elephant is None or f["elephant"] == elephant):
            out.append(u)
    return out


def column(g: Game, leader: str) -> list[str]:
    return list(g.state["z"][f"column|{leader}"])


def all_cus(g: Game, side: str) -> int:
    return sum(1 for u in g.state["made"].get("cu", []) if g.state["f"][u]["side"] == side)


def said_values(g: Game, text: str) -> list[list[Any]]:
    """The values of every log line written with this text, its placeholders as in the rules
    (`"{l} marches to {y}"`) or numbered as the log keeps them (`"{0} marches to {1}"`)."""
    template = message_key(text)
    return [e.get("a", []) for e in g.log if e.get("t") == "say" and e.get("m") == template]


def logged(g: Game) -> str:
    """What the rules said (`log` lines), as a person reads them, one a line."""
    from engine.i18n.translations import render_log_entry
    return "\n".join(render_log_entry(e, pack()) for e in g.log if e["t"] == "say")


# ---- arranging the board ----------------------------------------------------------------

def add_cus(g: Game, side: str, space: str, n: int, *, elephant: bool = False,
            moved: int = 0) -> list[str]:
    """n new CUs of a side in a space, as `create cu` would make them."""
    s = g.state
    made = []
    for _ in range(n):
        s["serial"]["cu"] = s["serial"].get("cu", 0) + 1
        uid = f"cu#{s['serial']['cu']}"
        s["made"].setdefault("cu", []).append(uid)
        s["f"][uid] = {"side": side, "elephant": elephant, "moved": moved}
        _put(g, uid, f"troops|{space}")
        made.append(uid)
    return made


def add_garrison(g: Game, side: str, space: str, n: int, *, elephant: bool = False) -> list[str]:
    """n new CUs of a side inside the walled city of a space (zone garrison, seed 002 §16.2)."""
    made = add_cus(g, side, space, n, elephant=elephant)
    for uid in made:
        _put(g, uid, f"garrison|{space}")
    return made


def inside(g: Game, space: str, side: str | None = None) -> list[str]:
    """The CU ids inside the walled city of a space."""
    return [u for u in g.state["z"][f"garrison|{space}"]
            if side is None or g.state["f"][u]["side"] == side]


def remove_cus(g: Game, ids: list[str]) -> None:
    s = g.state
    for uid in ids:
        _put(g, uid, None)
        s["made"]["cu"].remove(uid)
        del s["f"][uid]


def clear_board(g: Game) -> None:
    """No CUs anywhere, every leader off the map (set aside), PCs as printed."""
    remove_cus(g, list(g.state["made"].get("cu", [])))
    for leader in leaders(g):
        g.state["f"][leader].update(where="aside", at=None, chief=None, office="none")


def leaders(g: Game) -> list[str]:
    return [r for r, f in g.state["f"].items() if "chief" in f]


def set_leader(g: Game, leader: str, space: str | None, *, chief: str | None = None,
               office: str = "none", where: str | None = None) -> None:
    g.state["f"][leader].update(
        where=where or ("map" if space else "aside"), at=space, chief=chief, office=office)


def set_pc(g: Game, space: str, side: str | None) -> None:
    g.state["f"][space]["pc"] = side


def even_points(g: Game) -> None:
    """Rome 7 political points, Carthage 7 (printed: 9 and 7): Rome's PCs in Caralis, Messana
    and Panormus taken off, so Sardinia/Corsica and Sicilia are no one's. A test that skips
    whole turns without moving meets no year-end backlash (seed 002 §18.2) this way."""
    for x in ("caralis", "messana", "panormus"):
        set_pc(g, x, None)


def pay_backlash(g: Game) -> None:
    """A board arranged for a test may leave a side behind in political points: it removes its
    PCs at the year's end (seed 002 §18.2), the last ones offered (far from the test's spaces)."""
    while not g.over and "behind, remove that many PCs" in prompt(g):
        answer(g, options(g)[-1])


def set_var(g: Game, name: str, value: Any, key: str = "") -> None:
    g.state["v"][name][key] = value


def give(g: Game, side: str, *cards: str, only: bool = True) -> None:
    """Put these strategy cards in a side's hand (by default, as its whole hand: the rest go
    back to the deck)."""
    if only:
        for c in list(g.state["z"][f"hand|{side}"]):
            _put(g, c, "deck")
    for c in cards:
        _put(g, c, f"hand|{side}")


# ---- answering ---------------------------------------------------------------------------

def prompt(g: Game) -> str:
    """The prompt of the decision asked, its placeholders filled with record ids."""
    d = g.decision
    if d is None:
        return ""
    return fill(d.prompt, d.args or [])


def answer(g: Game, *values: Any) -> None:
    """Answer the next decisions with these values, one each, by the side asked. A decision
    with a single legal answer is answered by the engine and never asked: give two cards,
    not one, when the test is about choosing a card."""
    for v in values:
        d = g.decision
        assert d is not None, f"no decision left to answer with {v!r}"
        g.apply(v, side=d.side, decision=d.id)


def answer_until(g: Game, stop: Callable[[Game], bool],
                 pick: Callable[[Game], Any] | None = None, limit: int = 500) -> None:
    """Answer with `pick` (default: the first legal action) until `stop` holds."""
    for _ in range(limit):
        if g.over or stop(g):
            return
        d = g.decision
        g.apply(pick(g) if pick else g.legal_actions()[0], side=d.side, decision=d.id)
    raise AssertionError("answer_until: the condition never held")


def options(g: Game) -> list[Any]:
    return g.legal_actions()


def start_turn(g: Game, first: str = "carthage") -> None:
    """From the opening window: Rome does not open with a campaign; `first` plays first."""
    answer(g, None, first == "rome")


def play_ops(g: Game, card: str, kind: str) -> None:
    """The active side plays `card` for ops, of kind "move", "pcs" or "raise"."""
    answer(g, card, "ops", kind)


def carthage_moves(g: Game, card: str = "bad_weather", other: str = "diplomacy_35") -> None:
    """Carthage plays `card` for ops to move (its only leader able to, or the one asked next);
    Rome holds two cards of its own."""
    give(g, "carthage", card, other)
    give(g, "rome", "diplomacy_36", "epidemic")
    start_turn(g)
    play_ops(g, card, "move")


def rome_moves(g: Game, card: str = "diplomacy_36", other: str = "epidemic") -> None:
    """Rome plays first, `card` for ops to move; Carthage holds two cards of its own."""
    give(g, "rome", card, other)
    give(g, "carthage", "bad_weather", "diplomacy_35")
    start_turn(g, first="rome")
    play_ops(g, card, "move")


def act(g: Game, *acts: str) -> None:
    """Answer the move's "what next?" decision (march, pick up, drop, leave, join, stop)."""
    for a in acts:
        assert a in options(g), (a, prompt(g), options(g))
        answer(g, a)


def march(g: Game, *spaces: str) -> None:
    """March on, one space after the other."""
    for y in spaces:
        act(g, "march")
        assert y in options(g), (y, options(g))
        answer(g, y)


def set_hands(g: Game, carthage: list[str], rome: list[str]) -> None:
    """Every battle card back in the deck, then these hands (state editing, as a deal would).
    At the first lead of a battle (the deal has no decision after it) the lead's options
    become the new hand."""
    z, loc = g.state["z"], g.state["loc"]
    for key in ("battle_hand|carthage", "battle_hand|rome"):
        for c in list(z[key]):
            z[key].remove(c)
            z["battle_deck"].append(c)
            loc[c] = "battle_deck"
    for side, cards in (("carthage", carthage), ("rome", rome)):
        for c in cards:
            z[loc[c]].remove(c)
            z[f"battle_hand|{side}"].append(c)
            loc[c] = f"battle_hand|{side}"
    d = g.state["decision"]
    if d is not None and "lead a battle card" in d["prompt"]:
        d["options"] = list(z[f"battle_hand|{d['side']}"])


def decline_until(g: Game, text: str, limit: int = 50) -> None:
    """Answer False to yes/no asks and pass (None) on response windows and optional choices,
    until the prompt asked contains `text` (case-insensitive). For the questions a merged flow
    asks that a test is not about: avoiding battle, interception, battle windows, charges."""
    for _ in range(limit):
        d = g.decision
        assert d is not None and not g.over, f"decline_until: no decision asks for {text!r}"
        if text.lower() in prompt(g).lower():
            return
        if d.kind == "ask":
            v: Any = False
        elif d.window is not None or d.optional:
            v = None
        else:
            raise AssertionError(
                f"decline_until: {prompt(g)!r} cannot be declined (wanted {text!r})")
        g.apply(v, side=d.side, decision=d.id)
    raise AssertionError(f"decline_until: {text!r} never asked")
