"""The Sword of Rome, 5-player module: the cards played out of the card play (seed 001 §20.3
example 1 Sacred Band; §21.3 #5 Wild Beasts, #10 To The Brave Belongs Everything, #11 Titus
Manlius, #15 Flight Before the Barbarians; §21.4 #29 Carthaginian Mistrust) are asked at their
moment whatever the hand holds (events.rules card_now, RULINGS.md SM-4): the other players see
the same decisions and the same log whether the card is in the hand or still in the deck. Each
position is played twice from one seed, once with the card in hand and once with a plain card
in its place, the holder passing every window."""
from __future__ import annotations

from typing import Any

import pytest
from sor_play import add_cus, answer, board, give, set_leader, set_var

from engine.core.game import Game

BOX = "garrison_box_space"


def gallic_attack(card: str) -> Game:
    """seed 001 §21.3: the Gallic chieftain and 3 CUs march from Brundisium into Tarentum (2
    Greek CUs): the Flight window before the battle, the dice window before the dice."""
    g = board(seed=7)
    add_cus(g, "gauls", "brundisium", 3)
    add_cus(g, "greeks", "tarentum", 2)
    set_leader(g, "gallic_chieftain", "brundisium")
    give(g, "gallic", "gallic_01", card)
    answer(g, "gallic", "gallic_01", "activate_leader", 3, "land_step", "tarentum",
           windows_after=True)
    return g


def gallic_dice(card: str) -> Game:
    """The same Gallic attack, the Flight window passed: the dice window of the battle."""
    g = gallic_attack(card)
    g.apply(None, side="gallic", decision=g.decision.id)
    return g


def until_window(g: Game, window: str) -> Game:
    """Play on to the window named, passing the windows before it and taking the first option
    of the other questions (the same in both games: the card is not offered in those)."""
    while g.decision.window != window:
        d = g.decision
        g.apply(None if d.window else g.legal_actions()[0], side=d.side, decision=d.id)
    return g


def gallic_victory(card: str) -> Game:
    """seed 001 §21.3 #5: the Gauls beat the Greeks in Tarentum (3,3,3 + 3 against 2,2,3 + 1):
    the window after a Gallic win."""
    g = gallic_attack(card)
    g.load_dice([3, 3, 3, 2, 2, 3])
    return until_window(g, "gallic_battle_won")


def gallic_defeat(card: str) -> Game:
    """seed 001 §21.3 #10: the Greeks hold Tarentum (2,2,3 + 3 against 3,3,6 + 1), both armies
    still standing: the window after a Gallic attack lost."""
    g = gallic_attack(card)
    g.load_dice([2, 2, 3, 3, 3, 6])
    return until_window(g, "gallic_attack_lost")


def unrest_attack(card: str) -> Game:
    """seed 001 §20.3 example 1's position: Hasdrubal and 2 CUs attack unrest 4 from the box."""
    g = board(seed=7)
    add_cus(g, "carthaginians", BOX, 2)
    set_leader(g, "hasdrubal", BOX)
    set_var(g, "unrest_now", 4)
    give(g, "carthaginian", "carthaginian_01", card)
    answer(g, "carthaginian", "carthaginian_01", "activate_leader", 2, "attack_unrest", 2,
           windows_after=True)
    return g


def carthaginian_activation(card: str) -> Game:
    """seed 001 §21.4 #29: Carthage activates Bomilcar in Carthago: the Greek window."""
    g = board(seed=7)
    add_cus(g, "carthaginians", "carthago", 2)
    set_leader(g, "bomilcar", "carthago")
    give(g, "greek", "greek_01", card)
    give(g, "carthaginian", "carthaginian_01", "carthaginian_02")
    answer(g, "carthaginian", "carthaginian_01", "activate_leader", windows_after=True)
    return g


CASES = [
    ("gallic", "flight_before_the_barbarians", "gallic_02", gallic_attack),
    ("gallic", "titus_manlius", "gallic_02", gallic_dice),
    ("gallic", "wild_beasts", "gallic_02", gallic_victory),
    ("gallic", "to_the_brave_belongs_everything", "gallic_02", gallic_defeat),
    ("carthaginian", "sacred_band", "carthaginian_02", unrest_attack),
    ("greek", "carthaginian_mistrust", "greek_02", carthaginian_activation),
]


def others_see(g: Game, holder: str, steps: int) -> list[Any]:
    """What every other side sees at each of the next `steps` decisions, the holder passing its
    windows and everybody else taking the first option."""
    seen: list[Any] = []
    for _ in range(steps):
        d = g.decision
        if d is None:
            break
        seen.append([g.view(s) for s in g.pack.sides if s != holder])
        if d.side == holder and d.window is not None:
            g.apply(None, side=d.side, decision=d.id)
        else:
            g.apply(None if d.optional else g.legal_actions()[0], side=d.side, decision=d.id)
    return seen


@pytest.mark.parametrize(("holder", "card", "plain", "start"), CASES,
                         ids=[c[1] for c in CASES])
def test_other_sides_see_the_same_with_or_without_the_card(holder, card, plain, start):
    """seed 001 §20.3, §21.3, §21.4 (RULINGS.md SM-4): the window is asked of the holder at
    its moment with the card in hand or not, and nothing the others see tells the two apart."""
    with_card, without = start(card), start(plain)
    for g, offered in ((with_card, [card]), (without, [])):
        d = g.decision
        assert d.side == holder and d.window is not None and list(d.options) == offered
    assert others_see(with_card, holder, 12) == others_see(without, holder, 12)
