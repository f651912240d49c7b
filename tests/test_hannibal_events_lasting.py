"""Hannibal: the lasting events and the events that take cards from a hand (seed 002 card list
#9, #29, #41 on land, #55, #57, #58, #59, #64; §7.4, §7.4.1, §7.4.2, §7.6). RULINGS.md "Events:
lasting and hands" (H-el-1 ...) records the readings these tests hold the pack to."""
from __future__ import annotations

from hannibal_play import (
    add_cus,
    answer,
    clear_board,
    decline_until,
    field,
    give,
    new_game,
    options,
    prompt,
    said_values,
    set_leader,
    set_pc,
    set_var,
    start_turn,
)

SEED = 2  # Rome is dealt no Campaign card in turn 1 (tests/test_hannibal_strategy.py)
CARTHAGE_OPS3 = "african_reinforcements"  # #12: ops 3 and the ship
ROME_OPS3 = "two_legions_of_slaves_raised"  # #43: ops 3 and the ship
SPARE = "corsica_and_sardinia_revolt"  # #1: a second card, so that the card choice is asked
OTHER = "sicilia_revolts"  # #2: a card for the other hand
AFRICA = {"carthago", "utica", "hadrumetum", "hippo_regius", "siga", "iol", "saldae"}


def position(first: str, mine: tuple[str, ...], theirs: tuple[str, ...], setup=None):
    """Turn 1, the board cleared; `first` holds `mine` and plays first, the other `theirs`."""
    g = new_game(SEED)
    clear_board(g)
    other = "rome" if first == "carthage" else "carthage"
    give(g, first, *mine)
    give(g, other, *theirs)
    if setup:
        setup(g)
    start_turn(g, first)
    return g


def hand(g, side: str) -> list[str]:
    return g.zone("hand", side)


def to_sea(g, card: str, leader: str, n: int) -> list[str]:
    """The active side moves `leader` with `card` for ops, takes n CUs and asks for the sea:
    the ports offered."""
    answer(g, card, "ops", "move")
    if "which leader moves" in prompt(g):
        answer(g, leader)
    if "sets out from" in prompt(g):
        answer(g, n)
    assert "sea" in options(g), options(g)
    answer(g, "sea")
    return list(options(g))


# ---- the playable convention (H-el-1) ------------------------------------------------------

def test_event_with_a_condition_is_offered_only_when_it_holds():
    """RULINGS.md H-el-1, card list #55: with nothing in the opponent's hand, Messenger
    Intercepted has nothing to take and is offered for ops or discard only."""
    g = position("carthage", ("messenger_intercepted", SPARE), ())
    answer(g, "messenger_intercepted")
    assert options(g) == ["ops", "discard"]


# ---- card 9: Philip V --------------------------------------------------------------------

def test_philip_first_play_by_carthage_allies_macedonia():
    """card list #9, §7.4.2: Carthage's play puts the -1 marker; the card is not removed."""
    g = position("carthage", ("philip_v_of_macedon", SPARE), (OTHER,))
    answer(g, "philip_v_of_macedon", "event")
    assert g.var("macedonia_allied") is True
    assert "philip_v_of_macedon" in g.zone("discard")
    assert "philip_v_of_macedon" not in g.zone("removed")


def test_rome_cannot_play_philip_before_the_alliance():
    """card list #9: Rome's play ends an alliance; without one, Rome has no event to play."""
    g = position("rome", ("philip_v_of_macedon", ROME_OPS3), (OTHER,))
    answer(g, "philip_v_of_macedon")
    assert options(g) == ["ops", "discard"]


def test_philip_second_play_by_rome_ends_the_alliance_and_takes_a_card():
    """card list #9, §7.4.2: Rome's play ends the alliance and the bonus, Rome draws a strategy
    card from Carthage's hand (one card there: no chance in the test), the card leaves the game."""
    g = position("rome", ("philip_v_of_macedon", ROME_OPS3), ("truce",),
                 setup=lambda g: set_var(g, "macedonia_allied", True))
    answer(g, "philip_v_of_macedon", "event")
    assert g.var("macedonia_allied") is False
    assert "philip_v_of_macedon" in g.zone("removed")
    assert "truce" in hand(g, "rome") and hand(g, "carthage") == []


def test_carthage_cannot_play_philip_again_while_allied():
    """card list #9: the second play is Rome's."""
    g = position("carthage", ("philip_v_of_macedon", SPARE), (OTHER,),
                 setup=lambda g: set_var(g, "macedonia_allied", True))
    answer(g, "philip_v_of_macedon")
    assert options(g) == ["ops", "discard"]


# ---- card 29: Carthaginian Naval Victory ---------------------------------------------------

def test_naval_victory_bars_romes_sea_moves_but_with_a_campaign_card():
    """card list #29, §8.8.3: -1 to Rome's naval rolls (the naval_victory marker) and, until the
    end of the turn, Rome moves by sea only with a Minor or Major Campaign card."""
    def setup(g):
        set_leader(g, "scipio_africanus", "ostia", office="proconsul")
        add_cus(g, "rome", "ostia", 3)
    g = position("carthage", ("carthaginian_naval_victory", SPARE),
                 (ROME_OPS3, "minor_campaign_37"), setup=setup)
    answer(g, "carthaginian_naval_victory", "event")
    assert g.var("naval_victory") is True
    answer(g, ROME_OPS3, "ops", "move")
    if "sets out from" in prompt(g):
        answer(g, 3)
    assert "sea" not in options(g) and "march" in options(g)


def test_naval_victory_ends_with_the_turn():
    """card list #29 ("tot het einde van het jaar": one turn is a year, §5)."""
    g = position("carthage", ("carthaginian_naval_victory", SPARE), (OTHER,))
    answer(g, "carthaginian_naval_victory", "event")
    assert g.var("naval_victory") is True
    for _ in range(200):
        if g.var("turn_no") == 2:
            break
        d = g.decision
        g.apply("discard" if "discard" in options(g) else options(g)[0] if options(g) else
                (False if d.kind == "ask" else None), side=d.side, decision=d.id)
    assert g.var("turn_no") == 2 and g.var("naval_victory") is False


# ---- card 41 on land ---------------------------------------------------------------------

def test_bad_weather_cuts_an_enemy_campaign_march_to_two_spaces():
    """card list #41 (played during the other side's campaign, the army advances only 2
    spaces), §7.4.1 (a response event, at the cost of the card); RULINGS.md H-el-5."""
    def setup(g):
        set_leader(g, "hannibal", "saguntum")
        add_cus(g, "carthage", "saguntum", 2)
    g = position("carthage", ("minor_campaign_37", SPARE), ("bad_weather", OTHER), setup=setup)
    answer(g, "minor_campaign_37", "event", "hannibal")
    assert g.decision.window == "march_response" and g.decision.side == "rome"
    assert "bad_weather" in options(g)
    answer(g, "bad_weather")
    assert "bad_weather" in g.zone("discard")
    assert said_values(g, "Bad weather: {l} may advance only {n:# space|# spaces}") == [
        ["hannibal", 2]]
    if "sets out from" in prompt(g):
        answer(g, 2)
    steps = 0
    while "march" in options(g):
        answer(g, "march")
        dest = next(y for y in options(g) if field(g, y, "pc") != "rome")
        answer(g, dest)
        decline_until(g, "what next")
        steps += 1
    assert steps <= 2


# ---- cards 55 and 59 ---------------------------------------------------------------------

def test_messenger_intercepted_takes_a_card_and_plays_it():
    """card list #55 ("trek een Sk van je tegenstander en gebruik ze zelf"): drawn blind from
    the opponent's hand and played at once by the taker (RULINGS.md H-el-3, H-el-6)."""
    g = position("carthage", ("messenger_intercepted", SPARE), ("truce",))
    answer(g, "messenger_intercepted", "event")
    assert hand(g, "rome") == [] and "truce" in g.zone("played")
    assert g.decision.side == "carthage" and "truce" in prompt(g)
    assert options(g) == ["ops", "event", "discard"]
    answer(g, "event")
    assert g.var("truce_by") == "truce"


def test_ally_deserts_takes_a_card_and_gives_the_worst_back():
    """card list #59: one card drawn from the opponent, one of the player's own given back, his
    choice (RULINGS.md H-el-7)."""
    g = position("rome", ("ally_deserts", ROME_OPS3, SPARE), ("truce",))
    answer(g, "ally_deserts", "event")
    assert set(options(g)) == {ROME_OPS3, SPARE, "truce"}
    answer(g, SPARE)
    assert sorted(hand(g, "rome")) == sorted([ROME_OPS3, "truce"])
    # Carthage's only card now, chosen by the engine for Carthage's turn
    assert SPARE in g.zone("played") and g.decision.side == "carthage"


# ---- cards 57 and 58 ---------------------------------------------------------------------

def test_hanno_keeps_carthaginian_cus_in_africa():
    """card list #57: no Carthaginian CU may leave Africa (by sea here: only African ports are
    offered); RULINGS.md H-el-8."""
    def setup(g):
        set_leader(g, "hasdrubal", "carthago")
        add_cus(g, "carthage", "carthago", 3)
    g = position("rome", ("hanno_counsels_carthage", SPARE), (CARTHAGE_OPS3, OTHER),
                 setup=setup)
    answer(g, "hanno_counsels_carthage", "event")
    ports = to_sea(g, CARTHAGE_OPS3, "hasdrubal", 3)
    assert ports and set(ports) <= AFRICA


def test_without_hanno_carthage_sails_out_of_africa():
    """the same move without card 57: ports outside Africa are offered."""
    def setup(g):
        set_leader(g, "hasdrubal", "carthago")
        add_cus(g, "carthage", "carthago", 3)
    g = position("carthage", (CARTHAGE_OPS3, SPARE), (OTHER,), setup=setup)
    assert set(to_sea(g, CARTHAGE_OPS3, "hasdrubal", 3)) - AFRICA


def test_cato_keeps_roman_armies_out_of_africa():
    """card list #58: no Roman army may go to Africa; RULINGS.md H-el-8."""
    def setup(g):
        set_leader(g, "scipio_africanus", "messana", office="proconsul")
        add_cus(g, "rome", "messana", 3)
    g = position("carthage", ("cato_counsels_rome", SPARE), (ROME_OPS3, OTHER), setup=setup)
    answer(g, "cato_counsels_rome", "event")
    ports = to_sea(g, ROME_OPS3, "scipio_africanus", 3)
    assert ports and not set(ports) & AFRICA


def test_the_councils_end_when_the_deck_is_reshuffled():
    """card list #57-#58: the restriction lasts until a turn begins for which the deck is
    reshuffled (here Truce's reshuffle, §7.6); then Rome may sail to Africa again."""
    def setup(g):
        set_leader(g, "scipio_africanus", "messana", office="proconsul")
        add_cus(g, "rome", "messana", 3)
    g = position("carthage", ("cato_counsels_rome", SPARE), (OTHER,), setup=setup)
    answer(g, "cato_counsels_rome", "event")
    set_var(g, "reshuffle_due", True)
    for _ in range(300):
        if g.var("turn_no") == 2 and g.decision.window == "campaign_opening":
            break
        d = g.decision
        opts = options(g)
        g.apply("discard" if "discard" in opts else opts[0] if opts else
                (False if d.kind == "ask" else None), side=d.side, decision=d.id)
    give(g, "rome", ROME_OPS3, SPARE)
    give(g, "carthage", OTHER)
    set_leader(g, "scipio_africanus", "messana", office="proconsul")
    start_turn(g, "rome")
    assert set(to_sea(g, ROME_OPS3, "scipio_africanus", 3)) & AFRICA


# ---- card 64: Truce ----------------------------------------------------------------------

def truce_position(theirs=(OTHER,)):
    def setup(g):
        set_leader(g, "hasdrubal", "carthago")
        add_cus(g, "carthage", "carthago", 3)
        set_pc(g, "utica", "rome")
    g = position("carthage", ("truce", CARTHAGE_OPS3, SPARE), theirs, setup=setup)
    answer(g, "truce", "event")
    return g


def test_truce_bars_enemy_spaces_and_spares_the_naval_roll():
    """card list #64: no one enters an enemy space (a Roman PC: RULINGS.md H-el-9); a
    Carthaginian sea move makes no naval roll during the truce."""
    g = truce_position()
    assert g.var("truce_by") == "truce"
    assert g.decision.side == "rome"
    answer(g, "discard")
    ports = to_sea(g, CARTHAGE_OPS3, "hasdrubal", 3)
    assert "utica" not in ports and "malaca" in ports
    assert all(field(g, y, "pc") != "rome" for y in ports)
    answer(g, "malaca")
    decline_until(g, "what next")
    assert said_values(g, "Under the truce Rome makes no naval roll against the fleet") == [[]]
    assert said_values(g, "Rome's naval roll: die {r}, modifier {m}") == []


def test_truce_ends_when_an_event_is_played():
    """card list #64 ("De Wapenstilstand eindigt wanneer een speler een EK speelt"); research
    §11.6 "Truce ends": the Dutch text is followed, any event ends it (RULINGS.md H-el-10)."""
    g = truce_position(theirs=("hanno_counsels_carthage", OTHER))
    answer(g, "hanno_counsels_carthage", "event")
    assert g.var("truce_by") is None
    assert said_values(g, "{c} is played as an event: the truce ends") == [
        ["hanno_counsels_carthage"]]


def test_truce_flips_no_pc_under_own_cus():
    """card list #64: enemy PCs under one's own CUs are not flipped (no PC of one's own replaces
    them by ops: RULINGS.md H-el-9)."""
    def setup(g):
        set_pc(g, "hadrumetum", "rome")
        add_cus(g, "carthage", "hadrumetum", 2)
    g = position("carthage", ("truce", "bruttium_recruits", SPARE), (OTHER, ROME_OPS3),
                 setup=setup)
    answer(g, "truce", "event", OTHER, "discard", "bruttium_recruits", "ops")
    if "pcs" in options(g):
        answer(g, "pcs")
    assert field(g, "hadrumetum", "pc") == "rome"  # a Roman PC under Carthaginian CUs
    assert "hadrumetum" not in options(g)
