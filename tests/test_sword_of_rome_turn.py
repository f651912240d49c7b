"""The Sword of Rome, 5-player scenario: set-up, decks, drawing, the sequence of play,
reinforcements, scoring and the end, played (content/sword_of_rome/turn.rules, victory.rules;
rulings in content/sword_of_rome/RULINGS.md SR-1 ... SR-7).

Sources: research/sword_of_rome.md ("research §n"; R2 is the English rulebook v2 it cites) and
seed 001 (the 5-player rules). Positions are set up by editing the state (tests/sor_play.py);
the rules run in the pack."""
from __future__ import annotations

import random

import yaml
from sor_play import (
    PACK_DIR,
    add_cus,
    answer,
    at,
    board,
    cus,
    hand,
    loyalty,
    new_game,
    pack,
    pc,
    said,
    set_pc,
    set_var,
    var,
)
from zone_edit import put

SIDES = ["roman", "carthaginian", "greek", "gallic", "etruscan_samnite"]


def start_forces() -> list[dict]:
    return yaml.safe_load((PACK_DIR / "scenario.yaml").read_text(encoding="utf-8"))["start_force"]


def no_cards(g) -> None:
    """Every card out of the hands and decks (into the `played` zone): rounds pass without a
    decision, so a test can play whole turns."""
    for s in SIDES:
        for zone in (f"hand|{s}", f"deck|{s}"):
            for c in list(g.state["z"][zone]):
                put(g, c, "played")


def past_carthage_reinforcements(g) -> None:
    """Carthage places its 5-player reinforcements in Carthago (garrison.rules: it is asked,
    Carthago or the Garrison Box, seed 001 §19.1)."""
    while not g.over and "place the 3 CUs and" in (g.decision.prompt or ""):
        answer(g, "carthago")


def test_set_up_places_the_start_forces_and_control():
    """Research §8 (R2 §7.3: a power controls its home spaces at the start; walled cities with
    their loyalty, independent ones 1); scenario.yaml's start forces (reconstructed, SR-1); VP 2
    each (reconstructed)."""
    g = new_game()
    for f in start_forces():
        assert cus(g, f["at"], f["power"]) == f["cus"], f
        if f.get("leader"):
            assert at(g, f["leader"]) == f["at"]
    assert sum(f["cus"] for f in start_forces()) == len(g.state["made"]["cu"]) == 38
    assert pc(g, "syracusae") == "greeks" and loyalty(g, "syracusae") == 3
    assert pc(g, "lilybaeum") == "carthaginians" and loyalty(g, "lilybaeum") == 2
    assert pc(g, "akragas") is None and loyalty(g, "akragas") == 1  # independent: 1
    assert pc(g, "himera") == "carthaginians" and loyalty(g, "himera") == 0  # open space
    assert pc(g, "garrison_box_space") is None  # off the map: no control (seed 001 §19)
    assert all(var(g, "vp", s) == 2 for s in SIDES)


def test_five_decks_of_39_cards():
    """Research §1 (four decks of 39 cards); the Carthaginian deck as large (reconstructed):
    the named cards of cards.yaml and the plain OPS and NPA cards of deck_cards.yaml; values
    1-3 (research §6, R2 §7.1); 3 NPA cards a deck (reconstructed)."""
    p = pack()
    cards = [p.records[c] for c in p.by_type["card"]]
    for s in SIDES:
        deck = [c for c in cards if c["deck"] == s]
        assert len(deck) == 39, s
        assert sum(1 for c in deck if c["npa"]) == 3
        numbers = [c["number"] for c in deck if c["number"] is not None]
        assert len(numbers) == len(set(numbers))
    assert all(c["ops"] in (1, 2, 3) for c in cards)
    assert len(cards) == 195 and sum(1 for c in cards if "reconstructed" in c) == 184


def test_the_deal_fills_each_hand_to_its_size():
    """Research §5 (R2 §6.2: hands of 7, Rome 8 with 3+ players); research §3 (R2 §6.2.2,
    §20.2; seed 001 §20.2: Carthage 5 + 1 per Carthaginian port in Sicily - unrest / 2).
    Carthage holds Lilybaeum, Panormus, Himera and Selinus, four Sicilian ports: 9 cards."""
    g = new_game()
    sizes = {s: len(hand(g, s)) for s in SIDES}
    assert sizes == {"roman": 8, "carthaginian": 9, "greek": 7, "gallic": 7,
                     "etruscan_samnite": 7}
    set_var(g, "unrest_now", 3)
    assert g.value("hand_size", "carthaginian") == 8  # seed 001 §20.2: unrest 3, one card less
    set_pc(g, "himera", "greeks")
    assert g.value("hand_size", "carthaginian") == 7


def test_the_gallic_player_discards_his_hand_at_the_draw():
    """Research §5 (R2 §6.2: in 4- and 5-player games the Gallic player discards his whole
    hand at the Draw Cards phase); the others keep the cards they did not play. Turn 1 is
    played by random choices; 5 rounds leave cards in every hand."""
    g = new_game(seed=4)
    first = {s: set(hand(g, s)) for s in SIDES}
    rnd = random.Random(4)
    while var(g, "turn_no") < 2 and not g.over:
        g.apply(g.random_action(rnd))
    assert said(g, "{s} discards his hand") == [["gallic"]]
    assert not first["gallic"] & set(hand(g, "gallic")) and len(hand(g, "gallic")) == 7
    assert first["roman"] & set(hand(g, "roman")) and len(hand(g, "roman")) == 8


def test_rounds_go_round_the_table_from_the_first_player():
    """Research §5 (R2 §5.3: the fewest-VP player names the first player; §5.4: 5 rounds, each
    player active once a round, in seating order from the first player: reconstructed SR-3;
    of several with the fewest VP, the lowest in R2 §4.4's tie order chooses: Rome)."""
    g = board()
    no_cards(g)
    assert g.decision.side == "roman" and g.decision.options == SIDES
    set_var(g, "vp", 0, "greek")  # from now on the Greeks have the fewest VP
    answer(g, "greek")
    past_carthage_reinforcements(g)
    assert var(g, "turn_no") == 2 and var(g, "round_no") == 5
    assert g.decision.side == "greek"  # turn 2: the fewest-VP player names the first
    assert said(g, "{chooser} names {first_player} first player") == [
        ["roman", "greek"]]
    assert g.value("play_position", "greek") == 0 and g.value("play_position", "roman") == 3


def test_reinforcements_in_the_cities_held():
    """Research §11 (R2 §5.10.1: Rome 2 in Roma, Greeks 2 in Syracusae and 1 each in Messana,
    Tarentum, Neapolis, Samnites 1 in Bovianum, Volsci 1 in Antium; a besieged city, read as
    one with enemy CUs, none: SR-6)."""
    g = board()
    no_cards(g)
    add_cus(g, "carthaginians", "messana", 1)  # Messana besieged: no Greek CU there
    answer(g, "roman")
    past_carthage_reinforcements(g)
    assert cus(g, "roma", "romans") == 2 and cus(g, "syracusae", "greeks") == 2
    assert cus(g, "messana", "greeks") == 0
    assert cus(g, "tarentum", "greeks") == 1 and cus(g, "neapolis", "greeks") == 1
    assert cus(g, "bovianum", "samnites") == 1 and cus(g, "antium", "volsci") == 1


def test_scoring_counts_victory_spaces_held_and_home_spaces_lost():
    """Research §11 (R2 §5.8: +1 VP a turn for each victory space held outside one's home, -1
    for each home victory space not held; the Gauls gain VP by plunder only)."""
    g = board()
    no_cards(g)
    set_pc(g, "akragas", "greeks")  # independent VP space: +1 Greek
    set_pc(g, "lilybaeum", "greeks")  # Carthaginian home VP space: +1 Greek, -1 Carthage
    set_pc(g, "capua", "gauls")  # the Gauls score no spaces
    assert g.value("vp_change", "greek") == 2 and g.value("vp_change", "carthaginian") == -1
    assert g.value("vp_change", "gallic") == 0
    answer(g, "roman")
    assert var(g, "vp", "greek") == 4 and var(g, "vp", "carthaginian") == 1
    assert var(g, "vp", "gallic") == 2 and var(g, "vp", "roman") == 2


def test_plunder_gives_the_gauls_vp():
    """Research §11 (R2 §5.8: looting a city places 5 plunder markers; the track filled with
    Gallic markers gives +1 VP; its length, 10, is reconstructed)."""
    g = board()
    no_cards(g)
    set_var(g, "plunder", 12)
    answer(g, "roman")
    assert var(g, "vp", "gallic") == 3 and var(g, "plunder") == 2


def test_the_scenario_ends_after_three_turns_with_the_most_vp_winning():
    """Reconstructed: 3 turns (scenario.yaml scenario_turns, SR-2); research §11 (R2 §4: the
    most VP wins)."""
    g = board()
    no_cards(g)
    set_pc(g, "akragas", "greeks")
    while not g.over:  # each turn's first player, Carthage's reinforcements
        answer(g, g.decision.options[0])
    assert g.over and var(g, "turn_no") == 3
    assert g.result.winner == "greek" and var(g, "vp", "greek") == 5


def test_a_tie_goes_to_the_gauls_then_the_etruscans_and_samnites():
    """Research §2 (R2 §4.4: ties go to the Gauls, Etruscans, Samnites, Greeks, Carthage,
    Rome)."""
    g = board()
    no_cards(g)
    while not g.over:  # each turn's first player, Carthage's reinforcements
        answer(g, g.decision.options[0])
    assert g.result.winner == "gallic"
    g = board()
    no_cards(g)
    set_var(g, "vp", 0, "gallic")
    while not g.over:  # each turn's first player, Carthage's reinforcements
        answer(g, g.decision.options[0])
    assert g.result.winner == "etruscan_samnite"


def test_a_person_plays_the_roman_seat_at_the_terminal_to_a_result(capsys, monkeypatch):
    """`engine play sword_of_rome --bots human,random,random,random,random`: the Roman player
    at the terminal (always the first answer) plays the whole scenario to a result, with the
    board, the map by region and his hand on the screen, in English and in Russian."""
    import io

    from engine.frontends.cli import main
    for lang, words in (("en", ("Roma (Romans, loyalty 3", "hand (Roman player)", "result: ")),
                        ("ru", ("Рим (Римляне, лояльность 3", "рука (Римский игрок)", "итог: "))):
        monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
        assert main(["play", "sword_of_rome", "--bots", "human,random,random,random,random",
                     "--seed", "5", "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert all(w in out for w in words), lang
        assert out.rstrip().splitlines()[-1].startswith(words[2])


def test_the_gallic_band_is_reinforced_where_its_chieftain_stands_unless_enemies_are_there():
    """Reconstructed (SR-6): the Gallic cities of R2 §5.10.1 lie off this map; the band gets
    1 CU a turn with its chieftain, none while enemy CUs share his space."""
    for enemies, got in ((0, 1), (2, 0)):
        g = board()
        no_cards(g)
        g.state["f"]["gallic_chieftain"]["at"] = "brundisium"
        add_cus(g, "greeks", "brundisium", enemies)
        answer(g, "roman")
        past_carthage_reinforcements(g)
        assert cus(g, "brundisium", "gauls") == got
