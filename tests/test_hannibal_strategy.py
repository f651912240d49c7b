"""Hannibal: the sequence of play and the strategy phase (seed 002 §5, §7, §8.1, §15.2, §18.3;
seed 003 "Порядок хода", "Фаза стратегии"). RULINGS.md "Sequence of play and strategy cards"
(H-st-1 ...) records the readings these tests hold the pack to."""
from __future__ import annotations

import random
import shutil

import pytest
from hannibal_play import (
    PACK_DIR,
    _put,
    add_cus,
    answer,
    answer_until,
    clear_board,
    cus,
    field,
    give,
    new_game,
    options,
    prompt,
    set_leader,
    set_pc,
)

from engine.core.game import Game
from engine.core.loader import load_pack

PHASES = ["game_turn", "reinforcement_phase", "deal_phase", "strategy_phase",
          "winter_attrition_phase", "isolation_phase", "victory_check_phase"]
# seeds whose turn-1 deal gives Rome: two Minor Campaigns / no Campaign card / a Major Campaign
ROME_TWO_MINOR, ROME_NO_CAMPAIGN, ROME_MAJOR = 1, 2, 6


# ---- helpers ---------------------------------------------------------------------------------

def says(g: Game) -> list[tuple[str, list]]:
    """The plain-words log lines (`log` statements): (text, values)."""
    return [(e["m"], e.get("a") or []) for e in g.log if e["t"] == "say"]


def events(g: Game, names: list[str]) -> list[tuple[str, list]]:
    return [(e["n"], e.get("a") or []) for e in g.log if e["t"] == "event" and e["n"] in names]


def last_event(g: Game, name: str) -> int:
    """Where the last event of that name started, in the log."""
    return max(i for i, e in enumerate(g.log) if e["t"] == "event" and e["n"] == name)


def random_game(seed: int, stop=None) -> Game:
    """A game played by random answers until it ends (or `stop` holds)."""
    g = new_game(seed, log=True, undo=False)
    rnd = random.Random(seed)
    while not g.over and not (stop and stop(g)):
        d = g.decision
        g.apply(g.random_action(rnd), side=d.side, decision=d.id)
    return g


def game_reaching(stop, seeds=range(1, 40)) -> Game:
    """The first random game that reaches `stop` (random play may end a game early: Hannibal
    displaced, seed 002 §8.9)."""
    for seed in seeds:
        g = random_game(seed, stop)
        if not g.over:
            return g
    raise AssertionError("no random game reached the position")


def nine_turn_game() -> Game:
    for seed in range(1, 40):
        g = random_game(seed)
        if g.var("turn_no") == 9:
            return g
    raise AssertionError("no random game went to the end")


def discard_everything(g: Game) -> object:
    """Answer: play the first card offered and discard it; anything else, the first option."""
    def pick(g: Game):
        if g.decision.prompt.startswith("{0}: use {1}"):
            return "discard"
        return options(g)[0]
    return pick


def at_opening_of_turn(n: int):
    return lambda g: g.var("turn_no") == n and g.decision is not None \
        and g.decision.window == "campaign_opening"


def all_cards(g: Game) -> list[str]:
    return (g.zone("deck") + g.zone("discard") + g.zone("removed") + g.zone("played")
            + g.zone("hand", "carthage") + g.zone("hand", "rome"))


# ---- the sequence of play (§5, §7.1, §18.3) --------------------------------------------------

def test_turn_sequence_over_nine_turns():
    """seed 002 §5 (reinforcements, not in the first turn; cards dealt; strategy phase; winter
    attrition; political isolation; victory check), §18.3 (the game ends after the ninth turn);
    seed 003 "Порядок хода" (1)-(6)."""
    g = nine_turn_game()
    expected = []
    for n in range(1, 10):
        expected.append(("game_turn", [n]))
        if n > 1:
            expected.append(("reinforcement_phase", [n]))
        expected += [(p, [n]) for p in PHASES[2:]]
    assert events(g, PHASES) == expected
    assert g.over and g.result.winner in ("rome", "carthage")
    assert g.var("turn_no") == 9


def test_cards_dealt_by_thirds():
    """seed 002 §7.1 (7 cards in turns 1-3, 8 in turns 4-6, 9 in turns 7-9, to each side)."""
    seen = {}

    def note(g: Game) -> bool:
        d = g.decision
        if d is not None and d.window == "campaign_opening":
            seen[g.var("turn_no")] = (len(g.zone("hand", "carthage")), len(g.zone("hand", "rome")))
        return False
    seen_all = None
    for seed in range(1, 40):
        seen.clear()
        g = random_game(seed, stop=note)
        if g.var("turn_no") == 9:
            seen_all = dict(seen)
            break
    assert seen_all == {n: (7 + (n - 1) // 3,) * 2 for n in range(1, 10)}


# the final count (§18.3) and the other victory checks: tests/test_hannibal_victory.py


# ---- who plays first (§5.3; seed 003 "Фаза стратегии") ----------------------------------------

def test_rome_opens_with_a_minor_campaign():
    """seed 002 §5.3 (Rome with a 'Feldzug' card may play first, as event or ops), §8.1 (the
    Minor Campaign, 'Begrensde veldtocht', moves two leaders); RULINGS.md H-st-1."""
    g = new_game(ROME_TWO_MINOR)
    assert g.decision.window == "campaign_opening" and g.decision.side == "rome"
    assert sorted(g.decision.options) == ["minor_campaign_37", "minor_campaign_40"]
    answer(g, "minor_campaign_37")
    # the opening card is played: as its event or for ops, never discarded (H-st-1)
    assert options(g) == ["ops", "event"]
    answer(g, "event")
    assert g.decision.side == "rome" and "campaign" in prompt(g)
    answer(g, None)  # the campaign ends without a move
    # Carthage plays next; Carthage is not asked who begins
    assert g.decision.side == "carthage" and prompt(g) == "carthage: play a strategy card"
    assert "minor_campaign_37" in g.zone("discard")


def test_rome_opens_with_a_major_campaign_for_ops():
    """seed 002 §5.3 ('als gebeurtenis- of operatiekaart': ops too), §8.1 ('Grote Veldtocht');
    seed 003 "Фаза стратегии" ("Малой кампании" или "Большой компании", как ОЧ или событие)."""
    g = new_game(ROME_MAJOR)
    assert "major_campaign_33" in g.decision.options
    answer(g, "major_campaign_33", "ops", "pcs")
    assert g.decision.side == "rome" and "place up to 3 PCs" in prompt(g)
    answer(g, None)
    assert g.decision.side == "carthage" and prompt(g) == "carthage: play a strategy card"


def test_opening_window_is_asked_without_a_campaign_card():
    """seed 002 §5.3: Rome's choice is asked every turn, even with nothing to open with, so that
    asking tells Carthage nothing (RULINGS.md H-st-1); Carthage then decides who begins."""
    g = new_game(ROME_NO_CAMPAIGN)
    assert not any("campaign" in c for c in g.zone("hand", "rome"))
    d = g.decision
    assert d.window == "campaign_opening" and d.side == "rome" and d.options == []
    answer(g, None)
    assert g.decision.side == "carthage" and g.decision.kind == "ask"
    assert prompt(g) == "Carthage: let Rome play the first card?"


def test_carthage_view_of_the_opening_is_the_same():
    """seed 002 §5.3, §7.1 (the hands are secret): Carthage's view of Rome's opening choice is the
    same whether Rome holds Campaign cards or not, before and after Rome passes."""
    views = []
    for seed in (ROME_TWO_MINOR, ROME_NO_CAMPAIGN):
        g = new_game(seed)
        start = last_event(g, "strategy_phase")
        before = g.view("carthage")
        answer(g, None)
        after = g.view("carthage")
        views.append((before["decision"], before["legal_actions"], after["decision"],
                      after["log"][start:]))
    assert views[0] == views[1]
    # Rome's own view does differ: the test looks at a real difference
    assert new_game(ROME_TWO_MINOR).view("rome")["decision"] != \
        new_game(ROME_NO_CAMPAIGN).view("rome")["decision"]


def test_carthage_lets_rome_play_first():
    """seed 002 §5.3 (Carthage begins, or decides that Rome begins); seed 003 "Фаза стратегии"."""
    g = new_game(ROME_NO_CAMPAIGN)
    answer(g, None, True)
    assert g.decision.side == "rome" and prompt(g) == "rome: play a strategy card"
    g = new_game(ROME_NO_CAMPAIGN)
    answer(g, None, False)
    assert g.decision.side == "carthage" and prompt(g) == "carthage: play a strategy card"


def test_sides_alternate_and_the_other_plays_on_alone():
    """seed 002 §5.3 (the sides play one card in turn; when one runs out, the other plays all his
    remaining cards); seed 003 "Фаза стратегии" (until all are played or discarded)."""
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "carthage", "grain_shortage", "epidemic", "pestilence", "cato_counsels_rome")
    give(g, "rome", "sicilia_revolts", "tribal_resistance")
    answer(g, None, False)
    answer_until(g, lambda g: g.var("turn_no") == 2, discard_everything(g))
    plays = [a for n, a in events(g, ["card_play"])]
    assert [s for s, _ in plays] == [
        "carthage", "rome", "carthage", "rome", "carthage", "carthage"]


# ---- card use (§7.2-§7.5) ---------------------------------------------------------------------

def test_enemy_event_card_is_played_for_ops_only():
    """seed 002 §7.4 (the colour code: only one's own events), §5.3 (every card moves a leader or
    places PCs); seed 003 "Фаза стратегии" (как событие можно играть только карту своего цвета);
    RULINGS.md H-st-2: Rome may play Carthage's card for its ops."""
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "rome", "hannibal_charms_italy", "sicilia_revolts")
    answer(g, None, True, "hannibal_charms_italy")
    assert options(g) == ["ops", "discard"]
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "carthage", "hannibal_charms_italy", "grain_shortage")
    answer(g, None, False, "hannibal_charms_italy")
    assert options(g) == ["ops", "both", "discard"]


def test_either_sides_event_is_offered_to_both():
    """seed 002 §7.4 ('Soms zijn ze geschikt voor beide'): a campaign card's event is either
    side's."""
    for side, first in (("carthage", False), ("rome", True)):
        g = new_game(ROME_NO_CAMPAIGN)
        give(g, side, "minor_campaign_38", "epidemic")
        answer(g, None, first, "minor_campaign_38")
        assert options(g) == ["ops", "event", "discard"]


@pytest.fixture(scope="module")
def pack_without_effect(tmp_path_factory):
    """The pack with Beautiful Sophonisba's (#24) event unwritten: its `effect:` taken out."""
    d = tmp_path_factory.mktemp("pack") / "hannibal"
    shutil.copytree(PACK_DIR, d)
    p = d / "cards.yaml"
    text = p.read_text()
    assert "    effect: sophonisba(active)\n" in text
    p.write_text(text.replace("    effect: sophonisba(active)\n", "", 1))
    return load_pack(d)


def test_unwritten_event_is_not_offered(pack_without_effect):
    """RULINGS.md H-st-4: a card whose event is not written (Beautiful Sophonisba, #24,
    Carthage's, its effect taken out) is offered for ops or discard only, even to its own side."""
    g = Game.new(pack_without_effect, seed=ROME_NO_CAMPAIGN)
    give(g, "carthage", "beautiful_sophonisba", "grain_shortage")
    answer(g, None, False, "beautiful_sophonisba")
    assert options(g) == ["ops", "discard"]


def test_discards_are_face_up():
    """seed 002 §7.5 (a discarded card is shown to the opponent); seed 003 "Фаза стратегии"
    (сброшены лицом вверх). Played cards go there too, seen by both sides; hands stay hidden."""
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "carthage", "cato_counsels_rome", "grain_shortage", "epidemic")
    give(g, "rome", "sicilia_revolts", "tribal_resistance")
    answer(g, None, False, "cato_counsels_rome", "discard")
    assert ("{0} discards {1} face up", ["carthage", "cato_counsels_rome"]) in says(g)
    for side in ("rome", "carthage"):
        assert g.view(side)["zones"]["discard"] == ["cato_counsels_rome"]
    assert g.view("rome")["zones"]["hand|carthage"] == {"count": 2, "revealed": []}
    # Rome's card, played for its ops (no Roman leader of strategy 1: PCs, chosen by the engine)
    answer(g, "sicilia_revolts", "ops", None)
    for side in ("rome", "carthage"):
        assert g.view(side)["zones"]["discard"] == ["cato_counsels_rome", "sicilia_revolts"]


@pytest.fixture(scope="module")
def pack_with_removal(tmp_path_factory):
    """The pack with Minor Campaign #37 marked 'Aus dem Spiel entfernen' (no written event has the
    mark yet), to test §7.4.2."""
    d = tmp_path_factory.mktemp("pack") / "hannibal"
    shutil.copytree(PACK_DIR, d)
    p = d / "cards.yaml"
    text = p.read_text()
    p.write_text(text.replace("  - id: minor_campaign_37\n",
                              "  - id: minor_campaign_37\n    remove: true\n", 1))
    return load_pack(d)


@pytest.mark.parametrize("use, zone", [("event", "removed"), ("ops", "discard")])
def test_removed_after_its_event_only(pack_with_removal, use, zone):
    """seed 002 §7.4.2 (a card marked 'Aus dem Spiel entfernen' leaves the game when played as an
    event; not when played for ops)."""
    g = Game.new(pack_with_removal, seed=ROME_TWO_MINOR)
    answer(g, "minor_campaign_37", use)
    if use == "event":
        answer(g, None)  # the campaign moves no one
    else:
        answer(g, "pcs", None)
    assert "minor_campaign_37" in g.zone(zone)
    other = "discard" if zone == "removed" else "removed"
    assert "minor_campaign_37" not in g.zone(other)


# ---- reshuffles (§7.6) -----------------------------------------------------------------------

def test_deck_running_out_is_reshuffled_with_the_discards():
    """seed 002 §7.6 (when the deck runs out it is reshuffled, the discards with it); §7.4.2
    (cards removed from the game stay out)."""
    g = new_game(ROME_NO_CAMPAIGN)
    deck = g.zone("deck")
    out = deck[0]
    _put(g, out, "removed")
    for c in deck[1:-3]:
        _put(g, c, "discard")
    assert len(g.zone("deck")) == 3
    answer(g, None, False)
    answer_until(g, at_opening_of_turn(2), discard_everything(g))
    assert len(g.zone("hand", "carthage")) == 7 and len(g.zone("hand", "rome")) == 7
    assert g.zone("removed") == [out] and out not in g.zone("deck")
    assert g.zone("discard") == []
    assert sorted(all_cards(g)) == sorted(set(all_cards(g))) and len(all_cards(g)) == 64
    turn2 = last_event(g, "game_turn")
    assert [e for e in g.log[turn2:] if e.get("m") == "The strategy deck is reshuffled"] != []


def _truce_turn(use: str) -> Game:
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "carthage", "truce", "grain_shortage")
    give(g, "rome", "sicilia_revolts", "epidemic")
    answer(g, None, False, "truce", use)
    if use == "ops":
        answer(g, "pcs", None)
    answer_until(g, at_opening_of_turn(2), discard_everything(g))
    return g


def test_truce_for_ops_reshuffles_before_the_next_deal():
    """seed 002 §7.6 (Truce, #64, played as event or for ops: the remaining cards and the discards
    are reshuffled for the next turn); RULINGS.md H-st-8."""
    g = _truce_turn("ops")
    deal2 = last_event(g, "deal_phase")
    first_draw = min(i for i, e in enumerate(g.log)
                     if i > deal2 and e["t"] == "move" and str(e.get("to")).startswith("hand|"))
    shuffles = [i for i, e in enumerate(g.log) if e["t"] == "event" and e["n"] == "reshuffle"]
    # reshuffled once, in turn 2's deal, before a card is dealt
    assert [i for i in shuffles if deal2 < i < first_draw] == shuffles[-1:]
    assert len([i for i in shuffles if i > last_event(g, "game_turn")]) == 1
    assert g.zone("discard") == [] and "truce" not in g.zone("removed")
    assert g.var("reshuffle_due") is False


def test_truce_discarded_does_not_reshuffle():
    """seed 002 §7.5 (a discarded card: nothing happens), §7.6 (only Truce played as event or ops
    reshuffles); RULINGS.md H-st-8."""
    g = _truce_turn("discard")
    assert sorted(g.zone("discard")) == sorted(
        ["truce", "grain_shortage", "sicilia_revolts", "epidemic"])
    assert not any(t == "The strategy deck is reshuffled" for t, _ in says(g))


# ---- ops (§7.3, §8.1, §15.2) -----------------------------------------------------------------

@pytest.mark.parametrize("card, leaders", [
    ("cato_counsels_rome", ["hannibal", "hasdrubal", "mago"]),
    ("african_reinforcements", ["hannibal", "hasdrubal", "mago", "hanno", "gisgo"]),
])
def test_ops_move_only_leaders_rated_at_most_the_ops(card, leaders):
    """seed 002 §7.3 a (a leader whose strategy rating is at most the card's number), §8.7 (a
    subordinate may be activated); seed 003 "Фаза стратегии" (ранг стратега ≤ ОЧ); RULINGS.md
    H-st-3 (§8.1 words it the other way round)."""
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "carthage", card, "grain_shortage")
    answer(g, None, False, card, "ops", "move")
    assert sorted(options(g)) == sorted(leaders)


def test_ops_one_moves_only_hannibal():
    """seed 002 §7.3 a: with a 1 only a strategy-1 leader moves (Hannibal); the engine picks
    him."""
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "carthage", "grain_shortage", "epidemic")
    answer(g, None, False, "grain_shortage", "ops", "move")
    assert prompt(g).startswith("hannibal sets out from saguntum: how many of the 10 CUs")


def test_pcs_not_on_enemy_cus_or_enemy_pc():
    """seed 002 §7.3 b, §15.2 (as many PCs as the ops number, in spaces without enemy CUs or enemy
    PC); seed 003 "Фаза стратегии" (# ПК = # ОЧ)."""
    g = new_game(ROME_NO_CAMPAIGN)
    clear_board(g)
    set_leader(g, "hannibal", "saguntum")
    add_cus(g, "rome", "larinum", 1)  # no PC, a Roman CU
    add_cus(g, "rome", "cannae", 1)  # no PC, CUs of both sides
    add_cus(g, "carthage", "cannae", 1)
    give(g, "carthage", "african_reinforcements", "grain_shortage")
    answer(g, None, False, "african_reinforcements", "ops", "pcs")
    offered = options(g)
    assert "arpi" in offered  # no PC, no CUs
    for x in ("beneventum", "larinum", "cannae", "saguntum"):
        assert x not in offered
    answer(g, "arpi", "bovianum", "bruttii" if "bruttii" in offered else "theveste")
    assert field(g, "arpi", "pc") == "carthage" and field(g, "bovianum", "pc") == "carthage"


def test_own_pc_replaces_enemy_pc_with_own_cus():
    """seed 002 §15.2 (exception: one's own PC where an enemy PC stands with one's own army);
    seed 003 "Фаза стратегии" (можно перевернуть вражеский ПК, если в области есть дружественные
    ВЧ); RULINGS.md H-st-6."""
    g = new_game(ROME_NO_CAMPAIGN)
    clear_board(g)
    set_leader(g, "hannibal", "saguntum")
    add_cus(g, "carthage", "nola", 1)
    give(g, "carthage", "african_reinforcements", "grain_shortage")
    answer(g, None, False, "african_reinforcements", "ops", "pcs")
    assert "nola" in options(g) and "beneventum" not in options(g)
    answer(g, "nola", None)
    assert field(g, "nola", "pc") == "carthage"


def test_no_pc_in_tribe_or_on_enemy_walled_city():
    """seed 002 §16.1 (a walled city changes hands by siege, a tribe only by subjugation); seed
    003 "Фаза стратегии" (НЕ в область с племенем; НЕ крепость); RULINGS.md H-st-6."""
    g = new_game(ROME_NO_CAMPAIGN)
    clear_board(g)
    set_leader(g, "hannibal", "saguntum")
    add_cus(g, "carthage", "capua", 2)  # a Roman walled city with Carthaginian CUs
    add_cus(g, "carthage", "taurini", 2)  # a neutral tribe, no PC
    give(g, "carthage", "african_reinforcements", "grain_shortage")
    answer(g, None, False, "african_reinforcements", "ops", "pcs")
    for x in ("capua", "taurini", "volcae", "insubres"):
        assert x not in options(g)


def test_raise_cu_in_controlled_space_or_province():
    """seed 002 §7.3 c (with a 3: one CU in a space or province he controls where one of his
    leaders stands); seed 003 "Фаза стратегии" (3: only with ops 3; not into a besieged walled
    city); RULINGS.md H-st-7 (the Dutch "or")."""
    g = new_game(ROME_NO_CAMPAIGN)
    clear_board(g)
    set_pc(g, "nola", "carthage")  # a controlled space; Campania is Rome's
    set_leader(g, "hannibal", "nola")
    for x in ("luceria", "cannae", "venusia", "brundisium"):  # Apulia: 4 of 6 spaces
        set_pc(g, x, "carthage")
    set_leader(g, "hasdrubal", "arpi")  # no PC, in a controlled province
    set_leader(g, "hanno", "larinum")  # no PC, Samnium is Rome's
    set_leader(g, "gisgo", "saguntum")  # his own walled city, besieged
    g.state["f"]["saguntum"]["siege"] = 1
    give(g, "carthage", "african_reinforcements", "cato_counsels_rome")
    answer(g, None, False, "african_reinforcements", "ops")
    assert options(g) == ["move", "pcs", "raise"]
    answer(g, "raise")
    assert sorted(options(g)) == ["arpi", "nola"]
    answer(g, "arpi")
    assert len(cus(g, "arpi", "carthage")) == 1


def test_raise_is_not_offered_where_no_leader_may_raise():
    """seed 002 §7.3 c (a CU is raised only where one of the side's leaders stands, in a space or
    province he controls); seed 003 "Фаза стратегии" (3: not into a besieged walled city): with a
    3 in hand, "raise" is offered only when one of the side's leaders on the map stands where he
    may raise; PCs alone, or leaders off the map, do not count."""
    g = new_game(ROME_NO_CAMPAIGN)
    clear_board(g)
    set_pc(g, "nola", "carthage")  # a Carthaginian space with no leader
    set_leader(g, "hanno", "larinum")  # no PC, Samnium is Rome's
    set_leader(g, "gisgo", "saguntum")  # his own walled city, besieged
    g.state["f"]["saguntum"]["siege"] = 1
    give(g, "carthage", "african_reinforcements", "cato_counsels_rome")
    answer(g, None, False, "african_reinforcements", "ops")
    assert options(g) == ["move", "pcs"]


def test_raise_needs_a_three():
    """seed 002 §7.3 c ('enkel mogelijk met een "3" OK'); seed 003 "Фаза стратегии"."""
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "carthage", "cato_counsels_rome", "grain_shortage")
    answer(g, None, False, "cato_counsels_rome", "ops")
    assert options(g) == ["move", "pcs"]


# ---- dual-use cards (§7.2) -------------------------------------------------------------------

@pytest.mark.parametrize("side, first", [("carthage", False), ("rome", True)])
def test_native_guide_is_offered_as_both(side, first):
    """seed 002 §7.2 ('Einheimische Führer' is used for ops and event at once); RULINGS.md H-st-5:
    a dual-use card is offered as "both", never as its event alone."""
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, side, "native_guide", "epidemic")
    answer(g, None, first, "native_guide")
    assert options(g) == ["ops", "both", "discard"]


def _last_pass_roll(g: Game) -> tuple[int, int]:
    """(the die, the modified roll) of the last pass attrition roll."""
    attrition = "Attrition roll for {0:# CU|# CUs}: die {1}, modifier {2}; {3:# CU|# CUs} lost"
    [_, die, mod, _] = [e["a"] for e in g.log if e.get("m") == attrition][-1]
    return die, die + mod


def test_native_guide_changes_the_pass_attrition_roll():
    """seed 002 card list #5 (played as ops, an army crossing a pass modifies its attrition roll
    by -3), §8.3.2 (pass: -1); the modifier lasts until the end of that card's play."""
    g = new_game(ROME_NO_CAMPAIGN)
    give(g, "carthage", "native_guide", "grain_shortage")
    give(g, "rome", "sicilia_revolts", "epidemic")
    answer(g, None, False, "native_guide")
    plain = g.clone()
    answer(g, "both", "move", 5, 0, "march", "segobriga", "stop")
    die, roll = _last_pass_roll(g)
    assert roll == die - 1 - 3
    answer(plain, "ops", "move", 5, 0, "march", "segobriga", "stop")
    assert _last_pass_roll(plain) == (die, die - 1)
    # the next card: the guide is gone
    # (Carthage's last card is played without asking)
    answer(g, "sicilia_revolts", "discard", "ops", "move", 5, "march", "saguntum", "stop")
    die2, roll2 = _last_pass_roll(g)
    assert field(g, "hannibal", "at") == "saguntum" and roll2 == die2 - 1


def test_hannibal_in_italia_removes_roman_pcs():
    """seed 002 card list #28 (played as ops: each Roman PC in Italia without Roman CUs in the
    spaces the Carthaginian moves through is removed), §7.2 (dual use), §16.1 (walled cities);
    RULINGS.md H-st-9."""
    def board():
        g = new_game(ROME_NO_CAMPAIGN)
        clear_board(g)
        set_leader(g, "hannibal", "tarracina")
        add_cus(g, "carthage", "tarracina", 5)
        add_cus(g, "rome", "luceria", 1)  # a lone Roman CU: overrun
        give(g, "carthage", "hannibal_charms_italy", "cato_counsels_rome")
        give(g, "rome", "sicilia_revolts", "epidemic")
        answer(g, None, False, "hannibal_charms_italy")
        return g
    marches = ["march", "capua", "march", "beneventum", "march", "luceria", "stop"]
    g = board()
    answer(g, "both", "move", 5, *marches)
    assert field(g, "hannibal", "at") == "luceria"
    assert field(g, "beneventum", "pc") is None and field(g, "luceria", "pc") is None
    assert field(g, "capua", "pc") == "rome"  # a walled city keeps its marker
    assert field(g, "tarracina", "pc") == "rome"  # the space he set out from
    assert ("The Roman PC in {0} is removed on the march", ["beneventum"]) in says(g)
    # the card's play is over: the next move removes nothing
    set_pc(g, "arpi", "rome")
    answer(g, "sicilia_revolts", "discard", "ops", "move", 5, "march", "arpi", "stop")
    assert field(g, "hannibal", "at") == "arpi" and field(g, "arpi", "pc") == "rome"
    # for its ops alone, the card removes nothing
    g = board()
    answer(g, "ops", "move", 5, *marches)
    assert field(g, "beneventum", "pc") == "rome" and field(g, "luceria", "pc") == "rome"
