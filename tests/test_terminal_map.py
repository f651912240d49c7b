"""The map at the terminal (issue 31, item 3): `m` lists every space by group with what is on
it, `s SPACE` shows one space and its connections (board `map: links:`, their kind as the
pack names it), a decision whose options are spaces says what is on each; a bad `links:` is
a located E340."""
from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from engine.core.errors import PackError
from engine.core.loader import load_pack
from engine.frontends.terminal import HumanPlayer, QuitGame, help_text

STACKGAME = Path(__file__).resolve().parent / "packs" / "stackgame"


@pytest.fixture(scope="module")
def hannibal():
    return load_pack("content/hannibal")


def at_march(pack):
    """Hannibal's game (seed 1) after 40 random decisions: Carthage asked what Hannibal does
    next, in Saguntum."""
    g = pack.new_game(1)
    rnd = random.Random(1)
    for _ in range(40):
        g.apply(g.random_action(rnd))
    return g


def typed(game, answers: list[str]) -> tuple[object, list[str]]:
    lines = iter(answers)
    shown: list[str] = []
    human = HumanPlayer(input=lambda _p: next(lines), output=shown.append)
    try:
        answer = human.choose(game, game.decision.side)
    except QuitGame:
        answer = QuitGame
    return answer, shown


def test_m_lists_every_space_by_province(hannibal):
    g = at_march(hannibal)
    _, shown = typed(g, ["m", "q"])
    whole = next(text for text in shown if text.startswith("map:\n")).splitlines()
    spaces = hannibal.model.by_type["space"]
    # every space on a line of its own under its province (seed 002 §1: the map's spaces)
    assert sum(1 for line in whole if line.startswith("    ")
               and not line.startswith("      ")) == len(spaces)
    assert "  Campania (PC: Rome 3)" in whole
    assert "    Capua (Walled city, Rome)" in whole  # a quiet space is listed too
    saguntum = next(i for i, line in enumerate(whole) if line.startswith("    Saguntum"))
    text = " ".join(line.strip() for line in whole[saguntum:saguntum + 2])
    assert "Carthage 9 CU (elephants 2)" in text and "Hannibal" in text


def test_s_shows_one_space_and_its_connections_with_their_kind(hannibal):
    """Seed 002 §8.3: mountain passes, the Alps and the straits are connections of their own
    kind (content/hannibal/connections.yaml); Taurini has a pass to Ingauni and Alpine
    passes to Allobroges and Ebrodunum, Messana a strait to Rhegium."""
    g = at_march(hannibal)
    _, shown = typed(g, ["s taurini", "s MESSANA", "q"])
    taurini = next(text for text in shown if text.startswith("  Taurini")).splitlines()
    assert taurini == ["  Taurini (Tribe)", "    in Gallia Cisalpina", "    4 connections:",
                       "      Insubres: Tribe; Carthage", "      Ingauni (pass): Tribe",
                       "      Allobroges (Alpine pass): Tribe", "      Ebrodunum (Alpine pass)"]
    messana = next(text for text in shown if text.startswith("  Messana")).splitlines()
    assert "      Rhegium (Strait): Rome" in messana
    assert "      Tauromenium: Rome" in messana  # an ordinary connection: no kind said


def test_s_with_a_misspelt_name_says_did_you_mean(hannibal):
    g = at_march(hannibal)
    _, shown = typed(g, ["s Capuaa", "s xyzzy", "s", "q"])
    assert "no space named Capuaa; did you mean Capua?" in shown
    assert "no space named xyzzy (m lists every space)" in shown
    assert "which space? s SPACE (m: the whole map)" in shown
    assert not any("w FILE" in text for text in shown[-3:])  # no file named: no save hint


def test_s_never_saves_but_w_does(hannibal, tmp_path, monkeypatch):
    """Issue 31: `s` was both "save" (a name with a dot) and "one space"; now `s` only shows
    a space, and `w FILE` ("write", or `save FILE`) saves."""
    monkeypatch.chdir(tmp_path)
    g = at_march(hannibal)
    _, shown = typed(g, ["s capua.save", "s nosuchplace.save", "q"])
    assert "no space named capua.save; did you mean Capua?" in shown
    assert "no space named nosuchplace.save (m lists every space)" in shown
    assert shown.count("to save the game: w FILE") == 2
    assert not list(tmp_path.iterdir())  # nothing written
    path = tmp_path / "game.save"
    _, shown = typed(g, [f"w {path}", "w", "save other.save", "q"])
    assert f"saved to {path}" in shown and "save where? w FILE" in shown
    assert path.read_text(encoding="utf-8") == g.save()
    assert (tmp_path / "other.save").read_text(encoding="utf-8") == g.save()
    assert "  (u = undo, w FILE = save, l = log, ? = help, q = quit)" in shown


def test_space_options_say_what_is_there(hannibal):
    g = at_march(hannibal)
    answer, _ = typed(g, ["1"])
    assert answer == "march"
    g.apply(answer)
    _, shown = typed(g, ["q"])
    assert "Carthage: Hannibal: march from Saguntum to which space?" in shown
    # seed 002 §8.3: Saguntum-Segobriga is a mountain pass (content/hannibal/connections.yaml)
    assert "  1) Dertosa" in shown and "  2) Segobriga (pass): Carthage" in shown


def test_help_lists_the_map_commands_only_with_a_map(hannibal):
    g = at_march(hannibal)
    _, shown = typed(g, ["?", "q"])
    assert help_text("en", "one", True) in shown
    assert "  (m = the map, s SPACE = one space and its connections)" in shown
    assert "\n  m " in help_text("en", "one", True) and "\n  s SPACE " in help_text(
        "en", "one", True)
    assert "\n  m " not in help_text("en")
    plain = load_pack(STACKGAME).new_game(1)
    _, shown = typed(plain, ["m", "q"])  # no map: m is no command
    assert not any(text.startswith("map:") for text in shown)
    assert not any("m = the map" in text for text in shown)


def stack_copy(tmp_path: Path, board: str) -> Path:
    root = tmp_path / "stackgame"
    shutil.copytree(STACKGAME, root)
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write(board)
    return root


@pytest.mark.parametrize("links, message, suggestion", [
    ("{type: roads}", "board: unknown record type 'roads'", "did you mean 'road'?"),
    ("{type: unit}", "board: unit does not join two places: it needs two fields naming a "
     "space", None),
    ("{type: road, kind: surface}", "board: road has no field 'surface'", None),
    ("road", "board: 'links' is a mapping {type: TYPE, kind: FIELD}", None),
    ("{type: road, kinds: a}", "board: links: unknown key 'kinds' (keys: type, kind)",
     "did you mean 'kind'?"),
])
def test_bad_links_are_located(tmp_path, links, message, suggestion):
    root = stack_copy(tmp_path, f"board:\n  map: {{places: space, links: {links}}}\n")
    with pytest.raises(PackError) as err:
        load_pack(root)
    found = [(d.code, d.line, d.message, d.suggestion) for d in err.value.diagnostics]
    assert ("E340", 15, message, suggestion) in found, found


def test_ante_portas_map_lists_the_cities_by_region():
    """Ante Portas' board map (content/ante_portas/pack.yaml; seed 000 "A térkép": cities in
    three regions joined by roads and sea routes): `m` lists them, `s CITY` its roads."""
    ante = load_pack("content/ante_portas").new_game(1)
    _, shown = typed(ante, ["m", "s genua", "q"])
    whole = next(text for text in shown if text.startswith("map:\n")).splitlines()
    assert sum(1 for line in whole if line.startswith("    ")
               and not line.startswith("      ")) == 21
    assert any(line.startswith("  Gallia") for line in whole)
    genua = next(text for text in shown if text.startswith("  Genua")).splitlines()
    assert "      Massalia (sea route): value 1; anchor" in genua, genua
    assert "      Taurini (road): value 2" in genua


def test_links_of_the_test_pack_show_its_roads(tmp_path):
    root = stack_copy(tmp_path, "board:\n  map: {places: space, links: {type: road}}\n")
    pack = load_pack(root)
    g = pack.new_game(1)
    from engine.frontends.terminal.board_map import board_map
    from engine.i18n.translations import Catalog
    the_map = board_map(g.view("red"), Catalog(pack, "en"), {"places": "space",
                                                            "links": {"type": "road"}})
    space = pack.model.by_type["space"][0]
    roads = [r for r in pack.model.by_type["road"]
             if space in (pack.records[r]["a"], pack.records[r]["b"])]
    assert len(the_map.links(space)) == len(roads) > 0
    assert all(kind is None for _, kind in the_map.links(space))  # no kind field: none said


@pytest.mark.parametrize("pack_name", ["hannibal", "ante_portas"])
def test_a_person_plays_a_whole_game_against_greedy(pack_name, capsys, monkeypatch,
                                                    tmp_path):
    """`engine play PACK --bots human,greedy --seed 1`, the person typing the help, the map
    and one space, then always the first option (or 1 for a count): the game reaches its
    result, the counts are asked as numbers, and no board line reads "name = value"."""
    import io

    from engine.frontends.cli import main
    monkeypatch.chdir(tmp_path)  # whatever is typed, nothing is written to the checkout
    monkeypatch.setattr("sys.stdin", io.StringIO("?\nm\ns Saguntum\n" + "1\n" * 3000))
    assert main(["play", pack_name, "--bots", "human,greedy", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("result: ")
    boards = []  # the lines of each board: those under "board:" up to the next head
    for block in out.split("\nboard:\n")[1:]:
        lines = block.splitlines()
        end = next((i for i, line in enumerate(lines) if not line.startswith("  ")), len(lines))
        boards.append(lines[:end])
    assert boards and all(board for board in boards)
    assert all(" = " not in line for board in boards for line in board), boards[0]
    if pack_name == "hannibal":
        # seed 002 §8.1: how many CUs go with a leader who moves is a count, typed as such
        assert "how many of the 10 CUs there go with him?\nenter a number, 0–10" in out
        assert "\nmap:\n  Latium (PC: Rome 4)\n    Rome (Walled city, Rome): Rome" in out
        assert "  Saguntum (Walled city, Carthage): Carthage" in out
        assert "    in Idubeda\n" in out
    else:
        assert "\n  round 1\n  sub-round 1\n" in out
        # the map of the three regions (pack.yaml board: map:; seed 000 "A térkép")
        assert "m = the map" in out
        assert "map:\n  Gallia\n    Illiberis\n    Narbo (value 1)\n" in out
