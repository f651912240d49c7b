"""The terminal board: pack.yaml `board:` (dsl/boardspec.py) rendered by engine.frontends.terminal.

The generic tests use a copy of tests/packs/stackgame (armies made in play, units counted per
side, a private reserve); the Hannibal tests check the board a player of that pack sees:
provinces, armies by side, leaders with their subordinates, a siege, the turn track and the
hands (seed 002 §2.2 the map and pieces, §4 the set-up, §16.4 siege points, §5.3 the hands;
seed 003 "Подготовка к игре").
"""
from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import hannibal_play as hp
import pytest

from engine.core.errors import PackError
from engine.core.loader import load_pack
from engine.frontends.terminal import WIDTH, render_view
from engine.i18n.translations import Catalog

STACKGAME = Path(__file__).resolve().parent / "packs" / "stackgame"

STACK_BOARD = """
board:
  vars: [active]
  turn: {var: turn}
  map:
    places: space
    zones: []
    count_by: side
    pieces:
      army: {at: at, zones: [troops]}
    fields: [fights]
"""


def stack_copy(tmp_path: Path, board: str) -> Path:
    root = tmp_path / "stackgame"
    shutil.copytree(STACKGAME, root)
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write(board)
    return root


def flat(text: str) -> str:
    """The rendered text with its line wraps undone (one space for any run of blanks)."""
    return re.sub(r"\s+", " ", text)


def render(g, side, lang="en"):
    return render_view(g.view(side), Catalog(g.pack, lang), board=g.pack.meta.get("board"))


# ---- generic -----------------------------------------------------------------------------
def test_map_counts_pieces_per_side_and_hides_a_private_zone(tmp_path):
    pack = load_pack(stack_copy(tmp_path, STACK_BOARD))
    g = pack.new_game(3)
    rnd = random.Random(3)
    for _ in range(60):
        if g.over:
            break
        g.apply(g.random_action(rnd), g.decision.side)
    view = g.view("red")
    text = render_view(view, Catalog(pack, "en"), board=pack.meta["board"])
    armies = [rid for rid, f in view["fields"].items() if rid.startswith("army#")]
    assert armies, "random play deploys armies"
    assert "map:" in text and "board:" in text
    assert f"turn = {view['vars']['turn']}" in text
    for rid in armies:  # each army in its space, its units counted per side
        f = view["fields"][rid]
        n = len(view["zones"][f"troops|{rid}"])
        if n:
            assert f"army (troops {f['side']} {n} unit)" in text
    assert "troops (" not in text.split("cards:")[-1]  # the map's zones are not card lists
    # blue's reserve is private: red sees its count only, never a unit of it
    blue = view["zones"]["reserve|blue"]
    assert isinstance(blue, dict)
    if blue["count"]:
        assert f"reserve (blue): {blue['count']} card" in text
    assert "#" not in text  # no raw ids


def test_old_list_form_still_shows_its_vars():
    g = load_pack("ante_portas").new_game(1)
    text = render(g, g.pack.sides[0])
    assert text.splitlines()[1] == "board:"
    # its map (board: map:) holds no piece: the three regions are quiet, on one line
    assert "\nmap:\n  Gallia; Gallia Cisalpina; Italia\ncards:\n" in text


@pytest.mark.parametrize("board, line, col, message", [
    ("board: [active, nope]\n", 14, 17, "board: 'nope' is not a var of the pack"),
    ("board: {vars: [active], mapp: {}}\n", 14, 25,
     "board: unknown key 'mapp' (keys: vars, turn, map, cards, show, log)"),
    ("board: {vars: [active], log: everything}\n", 14, 30,
     "board: 'log' is one of all, sentences"),
    ("board:\n  map: {places: space, zones: [troops]}\n", 15, 32,
     "board: zone 'troops' is not kept per space (zone troops[x: space])"),
    ("board:\n  map: {places: space, fields: [fights, owner]}\n", 15, 41,
     "board: 'owner' is not a field of space of the pack"),
    ("board:\n  map: {places: space, pieces: {army: {at: side}}}\n", 15, 44,
     "board: field 'side' of army does not name a space"),
    ("board:\n  turn: {var: turn, of: space}\n", 15, 25,
     "board: 'turn' gives 'of' (a record type) and 'by' (its number field) together"),
    ("board:\n  map: {places: spaces}\n", 15, 17, "board: unknown record type 'spaces'"),
])
def test_board_errors_are_located(tmp_path, board, line, col, message):
    root = stack_copy(tmp_path, board)
    with pytest.raises(PackError) as err:
        load_pack(root)
    found = [(d.code, d.line, d.col, d.message) for d in err.value.diagnostics]
    assert ("E340", line, col, message) in found, found


# ---- Hannibal ----------------------------------------------------------------------------
def test_hannibal_log_tells_the_game_in_sentences():
    """Hannibal's board says `log: sentences`: above the prompt, and in a bots' game, the log
    is the pack's sentences ('Hannibal marches to ...'), never a var set or an event call."""
    from engine.frontends.terminal import render_log
    g = hp.new_game(3)
    rnd = random.Random(1)
    for _ in range(60):
        g.apply(g.random_action(rnd))
    text = render(g, "carthage")
    recent = text.split("recent:\n", 1)[1].splitlines()
    assert recent and all(" = " not in line for line in recent), recent
    lines = render_log(g.log, Catalog(g.pack, "en"), sentences=True)
    assert "Turn 1" in lines and all(" = " not in line for line in lines)
    assert len(render_log(g.log, Catalog(g.pack, "en"), trace=True, sentences=True)) > len(lines)


def test_hannibal_start_board():
    """Seed 002 §4.1-§4.2: the set-up stacks, in their provinces, with their leaders."""
    g = hp.new_game(1)
    text = render(g, "rome")
    f = flat(text)
    assert "Turn 1 (218 BC) - 1 of 9" in text
    assert "Latium (PC: Rome 4)" in text
    assert "Rome (Walled city, Rome): Rome 8 CU, Publius Cornelius Scipio (Consul)" in f
    # Hannibal's holding box holds Mago and Gisgo (seed 003 "Подготовка к игре")
    assert ("Saguntum (Walled city, Carthage): Carthage 10 CU (elephants 2), Hannibal (with "
            "Mago, Hasdrubal Gisgo)") in f
    assert "Carthage (Walled city, Carthage): Carthage 4 CU, Hanno" in f
    assert "Gallia Transalpina (PC: none 5)" in f  # a quiet province: its PCs counted
    # the hands: Rome's by name, Carthage's as a count (seed 002 §5.3)
    assert "Cards in hand (Carthage): 7 cards (hidden)" in text
    assert "Truce" in text
    for raw in ("cu#", "publius_scipio", "turn_no", "troops|", "walled_city", "|"):
        assert raw not in text
    assert all(len(line) <= WIDTH for line in text.splitlines())


def test_hannibal_board_never_shows_the_other_hand():
    g = hp.new_game(1)
    rome_hand = g.view("rome")["zones"]["hand|rome"]
    cat = Catalog(g.pack, "en")
    text = render(g, "carthage")
    assert "Cards in hand (Rome): 7 cards (hidden)" in text
    for card in rome_hand:
        if card not in g.view("carthage")["zones"]["hand|carthage"]:
            assert cat.name(card) not in text.split("recent:")[0]


def test_hannibal_siege_garrison_and_column():
    """Seed 002 §16.2 (a garrison inside the walls), §16.3 (a leader inside), §16.4 (siege
    points, whose they are); seed 003 "Крепости", "Штурм"."""
    g = hp.new_game(1)
    hp.add_cus(g, "carthage", "capua", 3)
    inside = hp.add_cus(g, "rome", "capua", 2)
    for uid in inside:
        hp._put(g, uid, "garrison|capua")
    hp.set_leader(g, "hanno", "capua")
    g.state["f"]["capua"].update(siege=2, besieger="carthage")
    g.state["f"]["beneventum"].update(siege=1, besieger="carthage")  # no pieces: still shown
    hp.set_leader(g, "marcellus", "capua", office="proconsul")
    g.state["f"]["marcellus"]["inside"] = True
    text = flat(render(g, "rome"))
    assert ("Capua (Walled city, Rome, Siege marker 2, besieged by Carthage): Carthage 3 CU, "
            "Garrison Rome 2 CU, Hanno, Marcus Claudius Marcellus (Proconsul; inside the "
            "walls)") in text
    assert "Beneventum (Rome, Siege marker 1, besieged by Carthage)" in text


def test_hannibal_board_in_dutch():
    g = hp.new_game(1)
    text = render(g, "rome", "nl")
    assert "Ronde 1 (218 v. Chr.) - 1 van 9" in text
    assert "Latium (PK-teken: Romein 4)" in text
    assert "Romein 8 CU" in text  # the rules' `cu` has no Dutch name of its own (GE is the
    # glossary's combat_unit: one word, one concept, tests/test_hannibal_glossary.py)


# ---- show: a record's fields with its name ----------------------------------------------
SHOW_RULES = """
    type half:
        cost: int
        fast: bool = false

    type card:
        number: int
        front: half
        back: half?

    zone hand[s: side] of card

    on setup:
        for c in card:
            move c to hand[red]
        let c = choose c from hand[red] by red prompt "Play a card"
        end game
"""
SHOW_RECORDS = """
    half:
      - {id: ram, name: Ram, cost: 2, fast: true}
      - {id: wall, name: Wall, cost: 3}
      - {id: ox, name: Ox, cost: 1}
    card:
      - {id: c1, name: Ram / Wall, number: 1, front: ram, back: wall}
      - {id: c2, name: Ox card, number: 2, front: ox}
"""
SHOW_BOARD = """
board:
  cards: [hand]
  show: {card: [number, front.cost, front.fast, back.cost]}
"""


def show_pack(write_pack, tmp_path, board=SHOW_BOARD):
    root = write_pack(SHOW_RULES, SHOW_RECORDS, name="showgame")
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write(board)
    tdir = tmp_path / "translations"  # next to the pack: its translations
    tdir.mkdir(exist_ok=True)
    (tdir / "inline.en.yaml").write_text(
        "pack: inline\nlang: en\nterms:\n  cost: {name: coins, source: test}\n",
        encoding="utf-8")
    return load_pack(root)


def test_show_names_an_option_and_a_card_with_its_fields(write_pack, tmp_path):
    """An option, and a card in a listed zone, that is a record of a type in `show:` is its
    name and those fields, by their translated names; a path `a.b` after the name of the
    record `a` names; a none reference and a false bool are left out."""
    from engine.frontends.terminal import HumanPlayer
    pack = show_pack(write_pack, tmp_path)
    g = pack.new_game(1)
    shown: list[str] = []
    answers = iter(["2"])
    action = HumanPlayer(input=lambda _p: next(answers), output=shown.append).choose(g, "red")
    assert action == "c2"
    text = "\n".join(shown)
    c1 = "Ram / Wall (number 1; Ram: coins 2, fast; Wall: coins 3)"
    c2 = "Ox card (number 2; Ox: coins 1)"
    assert f"1) {c1}" in text and f"2) {c2}" in text
    assert f"hand (red):\n    {c1}\n    {c2}" in text  # one card a line in the hand
    assert "cost" not in text and not re.search(r"\b(c1|c2|ram|ox)\b", text)  # no raw ids


def test_show_without_it_options_are_names_only(write_pack, tmp_path):
    pack = show_pack(write_pack, tmp_path, "board:\n  cards: [hand]\n")
    g = pack.new_game(1)
    text = render(g, "red")
    assert "hand (red): Ram / Wall, Ox card" in text


@pytest.mark.parametrize("show, col, message, suggestion", [
    ("{cardd: [number]}", 10, "board: unknown record type 'cardd'", "did you mean 'card'?"),
    ("{card: [numbr]}", 17, "board: card has no field 'numbr'", "did you mean 'number'?"),
    ("{card: [front.cots]}", 17, "board: half has no field 'cots'", "did you mean 'cost'?"),
    ("{card: [number.cost]}", 17, "board: field 'number' names no record: nothing after it "
     "in 'number.cost'", None),
    ("{card: number}", 16, "board: 'show' of card is a list of its fields", None),
    ("[card]", 9, "board: 'show' maps a record type to a list of its fields "
     "({TYPE: [FIELD, ...]})", None),
])
def test_show_errors_are_located(write_pack, tmp_path, show, col, message, suggestion):
    with pytest.raises(PackError) as err:
        show_pack(write_pack, tmp_path, f"board:\n  show: {show}\n")
    found = [(d.code, d.line, d.col, d.message, d.suggestion) for d in err.value.diagnostics]
    assert ("E340", 6, col, message, suggestion) in found, found


# ---- names a player reads on the packs' boards --------------------------------------------------
def test_ante_portas_card_use_is_named_apart_from_the_march_track():
    """seed 000 "Egy kör menete" step 3: Carthage plays a card as march time, an attached or an
    immediate event. The option `march` (enum carthage_mode) has its own name (the term
    `carthage_mode.march`), not the name of the var `march` (the march time played)."""
    pack = load_pack("ante_portas")
    for lang, option, track in (("en", "march time (face down)", "march time"),
                                ("hu", "menetidő (lefordítva)", "menetidő")):
        cat = Catalog(pack, lang)
        assert cat.value("march") == option and cat.term("march") == track


@pytest.mark.parametrize("lang, cards", [
    ("en", ["Bad Weather (Ops 1, playable as a response)",
            "Philip V of Macedon Allies with Carthage (Ops 3, removed once played as an event)"]),
    ("nl", ["Zeestorm (OK-waarde 1, te spelen als tegengebeurtenis)",
            "Philip v. Macedonia (OK-waarde 3, na de gebeurtenis uit het spel)"]),
    ("ru", ["Bad Weather (ОЧ 1, играется в ход противника)",
            "Philip V of Macedon Allies with Carthage (ОЧ 3, после события уходит из игры)"]),
])
def test_hannibal_strategy_cards_show_their_ops(lang, cards):
    """seed 002 §7.3, §7.4.1, §7.4.2: a strategy card in a hand or an option shows the ops it
    is played for and whether it is a response or leaves the game after its event (board
    `show:`, the terms `strategy_card.ops` ... named apart from the glossary's)."""
    from engine.frontends.terminal import Namer
    pack = hp.pack()
    name = Namer(Catalog(pack, lang), pack.meta["board"]["show"])
    assert [name(c) for c in ("bad_weather", "philip_v_of_macedon")] == cards
