"""What a person types at the terminal (engine.frontends.terminal.HumanPlayer) for each kind
of decision (issue 31, item 5): a count is typed as the number itself, several picks as the
options' numbers, and the help says which; the board's vars read as the pack's words."""
from __future__ import annotations

import pytest

from engine.core.loader import load_pack
from engine.frontends.terminal import HumanPlayer, help_text, render_view
from engine.frontends.terminal.human import seat_catalog

PICKS = """
    var total: int = 0

    on setup:
        let k = choose k from numbers(0, 10) by red prompt "How many?"
        let cs = choose up to 3 c from ["a", "b", "c", "d"] by red prompt "Which?"
        log "{k} and {cs}"
        end game
"""


def seat(answers: list[str]) -> tuple[HumanPlayer, list[str]]:
    lines = iter(answers)
    shown: list[str] = []
    return HumanPlayer(input=lambda _p: next(lines), output=shown.append), shown


@pytest.fixture
def picks(write_pack):
    return load_pack(write_pack(PICKS, name="picks"))


def test_a_count_is_typed_as_the_number_itself(picks):
    g = picks.new_game(1)
    human, shown = seat(["11", "10"])
    assert human.choose(g, "red") == 10  # not the 10th option (9)
    text = "\n".join(shown)
    assert "enter a number, 0–10" in text
    assert "11) " not in text and "1) 0" not in text  # no menu of numbers
    assert "enter a number from 0 to 10, or u, w FILE, l, ?, q" in shown  # 11 refused


def test_a_count_of_0_is_0(picks):
    g = picks.new_game(1)
    human, _ = seat(["0"])
    assert human.choose(g, "red") == 0


def test_several_picks_are_typed_as_numbers(picks):
    g = picks.new_game(1)
    g.apply(3)
    human, shown = seat(["?", "1 3"])
    assert human.choose(g, "red") == ["a", "c"]
    text = "\n".join(shown)
    # the options themselves are listed, not their 15 combinations
    assert "  1) a" in text and "  4) d" in text and "5) " not in text
    assert help_text("en", "several") in shown
    assert "pick the options numbered N, M, ... (e.g. 1 3)" in help_text("en", "several")


def test_none_of_several_is_0(picks):
    g = picks.new_game(1)
    g.apply(3)
    human, shown = seat(["0"])
    assert human.choose(g, "red") == []
    assert "enter option numbers separated by spaces (0: none)" in shown


def test_too_many_picks_are_refused_and_asked_again(picks):
    g = picks.new_game(1)
    g.apply(3)
    human, shown = seat(["1 2 3 4", "2"])
    assert human.choose(g, "red") == ["b"]
    assert any(line.startswith("not allowed: ") for line in shown), shown


def test_the_help_of_one_pick_says_one_number(picks):
    assert "pick option N\n" in help_text("en")
    assert "e.g. 1 3" not in help_text("en")
    assert "the number N itself" in help_text("en", "number")


def test_ante_portas_vars_read_as_words():
    """The board's vars said with the pack's terms (content/ante_portas/pack.yaml board:
    vars), a number after the term ("round 1"), never "round = 1"."""
    pack = load_pack("content/ante_portas")
    g = pack.new_game(1)
    text = render_view(g.view(pack.sides[0]), seat_catalog(g, "en"),
                       board=pack.meta.get("board"))
    lines = text.split("board:\n", 1)[1].split("cards:")[0].splitlines()
    assert "  round 1" in lines and "  sub-round 1" in lines, lines
    assert all(" = " not in line for line in lines), lines
    assert "  Hannibal's army: Illiberis" in lines, lines
    assert "  sea hegemony: 3" in lines, lines  # a term of several words: a colon before it
