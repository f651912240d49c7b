"""Playing at a terminal (engine.frontends.terminal.HumanPlayer, `engine play`): what a person sees
above each prompt (everything logged since their last decision), the commands `l` (the whole
log, page by page) and `?`, and a finished game's result, said once."""
from __future__ import annotations

import pytest

from engine.core.loader import load_pack
from engine.frontends.cli import main
from engine.frontends.terminal import HELP, HumanPlayer

# red decides; then blue's turn logs 20 sentences; then red decides again
TURNS = """
    var n: int = 0

    on setup:
        let a = ask red "First?"
        repeat 20:
            n += 1
            log "blue marches, step {n}"
        let b = ask red "Second?"
        if b:
            win red, "{n} steps marched"
        end game
"""


def seat(answers: list[str], height: int | None = None) -> tuple[HumanPlayer, list[str]]:
    lines = iter(answers)
    shown: list[str] = []
    return HumanPlayer(input=lambda _p: next(lines), output=shown.append, height=height), shown


@pytest.fixture
def turns(write_pack):
    root = write_pack(TURNS, name="turns")
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write("board: {log: sentences}\n")
    return load_pack(root)


def test_the_other_sides_whole_turn_is_shown_above_the_prompt(turns):
    g = turns.new_game(1)
    human, shown = seat(["1", "1"])
    g.apply(human.choose(g, "red"))
    first = "\n".join(shown)
    assert "since" not in first  # nothing was logged before the first question
    shown.clear()
    assert human.choose(g, "red") is True
    text = "\n".join(shown)
    block = text.split("since your last decision:\n", 1)[1].split("\nred: Second?")[0]
    assert block.splitlines() == [f"  blue marches, step {i}" for i in range(1, 21)]
    assert "earlier:" not in text  # 20 new lines: no older ones needed for context


def test_earlier_lines_are_kept_for_context(turns):
    g = turns.new_game(1)
    g.apply(True)
    g.undo_enabled = False
    human, shown = seat(["1"])
    view = g.view("red")
    view["log"] = view["log"] + [{"t": "choice", "side": "red", "v": True},
                                 {"t": "say", "m": "blue rests", "a": []}]
    text = human.screen(g, "red", view)
    earlier, since = text.split("earlier:\n", 1)[1].split("since your last decision:\n")
    assert since.splitlines() == ["  blue rests"]
    assert len(earlier.splitlines()) == 11  # 12 lines in all
    assert earlier.splitlines()[-1] == "  blue marches, step 20"


def test_l_pages_the_whole_log_and_q_goes_back(turns):
    g = turns.new_game(1)
    g.apply(True)
    human, shown = seat(["l", "", "q", "2"], height=8)
    assert human.choose(g, "red") is False
    pages = [s.splitlines() for s in shown if s.startswith("blue marches")]
    # 7 lines and the pager's prompt a page; Enter: the next page; q: no third page
    assert pages == [[f"blue marches, step {i}" for i in range(1, 8)],
                     [f"blue marches, step {i}" for i in range(8, 15)]], shown
    # q went back: the question is asked again after the pages
    assert [s for s in shown if s == "red: Second?"] == ["red: Second?", "red: Second?"]


def test_help_lists_the_commands(turns):
    g = turns.new_game(1)
    human, shown = seat(["?", "help", "x", "1"])
    assert human.choose(g, "red") is True
    assert shown.count(HELP) == 2
    for command in ("u ", "w FILE", "l ", "? or help", "q "):
        assert f"\n  {command}" in HELP
    assert "enter a number from 1 to 2, or u, w FILE, l, ?, q" in shown


def test_a_finished_game_says_its_result_once(turns, capsys):
    assert main(["play", str(turns.root), "--bots", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("wins") + out.count("no winner") == 1, out
    assert out.rstrip().splitlines()[-1].startswith("result: ")


def test_counts_are_singular_or_plural(turns, capsys, monkeypatch):
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n"))
    assert main(["play", str(turns.root), "--bots", "human,human", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "- 1 decision so far ==" in out and "- 0 decisions so far ==" in out
    last = out.rstrip().splitlines()[-1]
    assert last.endswith("result: red wins (20 steps marched); 2 decisions, 2 turns, seed 1")
    assert out.count("wins") == 1


def test_a_long_question_is_wrapped_to_the_width(inline_pack):
    """Issue 31: a question with a card's long name in it ran past the screen's edge."""
    from engine.frontends.terminal import WIDTH
    words = " ".join(["the Beautiful Sophonisba Seduces a Numidian King"] * 3)
    g = inline_pack(f'on setup:\n    let a = ask red "Play {words}?"\n').new_game(1)
    human, shown = seat(["1"])
    assert human.choose(g, "red") is True
    question = next(text for text in shown if text.startswith("red: Play "))
    first, second = question.splitlines()
    assert len(first) <= WIDTH and len(second) <= WIDTH
    assert second.startswith("  ") and second[2] != " "  # indented under the first
