"""engine.dsl.compile.visibility: G.decide is told `zoned=False` when no option can lie in
a zone hidden from the decider (a type no zone holds; with the optimisations, a public zone
or the decider's own private one), and `args_zoned=False` when no value the prompt names
can lie in a zone: the runtime then looks nothing up to show the decider."""
from __future__ import annotations

from compile_passes import assert_same_games, both_ways

# four cards: one in each side's private hand, one on the open table, one in a hidden pile
SET_UP = """
type card
zone hand[s: side] of card private
zone table of card
zone pile of card hidden
var turn: side = red
on setup:
    move north to hand[red]
    move south to hand[blue]
    move east to table
    move west to pile
"""
RULES = SET_UP + """\
    let n = choose n from [1, 2] by red
    let a = choose a from hand[turn] by turn
    let c = choose c from table by blue
    let d = choose d from hand[red] by blue
    let e = choose e from pile by red
    let f = ask blue "{turn} has {a}?"
    let g = ask blue "{turn}: {n}?"
    end game
"""
RECORDS = """
card:
  - {id: north}
  - {id: south}
  - {id: east}
  - {id: west}
"""


ASKING = ("G.decide(", "G.decide1(", "G.pick1(", "G.pick_decide(")


def decides(code: str) -> list[str]:
    """The calls that ask for a decision, each as a call (a playout's `if not G.pick1(...):`
    without its test)."""
    return [line.strip().removeprefix("if not ").removesuffix(":")
            for line in code.splitlines() if any(call in line for call in ASKING)]


def unzoned(line: str) -> bool:
    """Are the options of this decision never looked up? (`zoned=False`, or G.decide1 and
    G.pick1, the commonest choice's, made only for options in no zone hidden from the
    decider.)"""
    return "G.decide1(" in line or "G.pick1(" in line or line.endswith("zoned=False)")


def test_which_decisions_look_nothing_up(write_pack):
    fast, plain = both_ways(write_pack(RULES, RECORDS))
    zoned = [unzoned(line) for line in decides(fast.code)]
    assert zoned == [True, True, True, False, False, False, True]
    args_zoned = [line.endswith("args_zoned=False)") for line in decides(fast.code)]
    assert args_zoned == [False, False, False, False, False, False, True]
    # plainly: only the options of a type no zone holds (numbers) are never looked up
    plain_zoned = [unzoned(line) for line in decides(plain.code)]
    assert plain_zoned == [True, False, False, False, False, False, False]


def test_what_the_decider_is_shown_is_the_same(write_pack):
    fast, plain = both_ways(write_pack(RULES, RECORDS))
    game = fast.new_game(0)
    assert game.state["revealed"] == {}
    while not game.over:
        game.apply(game.legal_actions()[0])
    # north, in red's hand, to blue (a choice from it, a prompt naming it); west, hidden, to
    # red (a choice from the pile)
    assert game.state["revealed"] == {"north": ["blue"], "west": ["red"]}
    assert_same_games(fast, plain)


def test_a_choice_from_a_zone_the_decider_sees_is_not_looked_up(write_pack):
    """A choice's options from the decider's own hand (named by a side or by a local that
    holds one) or a public zone show it nothing: the compiler leaves out the lookup (decide's
    `zoned`); from another side's hand or a hidden pile they are shown to it (seen in the
    state's `revealed`). So are the records a prompt names, looked up only where one may lie
    in a zone (`args_zoned`): the card of the hidden pile a prompt names is shown to the side
    asked."""
    fast, _plain = both_ways(write_pack(SET_UP + """\
    let s = red
    let a = choose a from hand[red] by red
    let b = choose b from hand[s] by s
    let c = choose c from table by blue
    let t = choose t from hand[turn] by turn
    let d = choose d from hand[red] by blue
    let e = choose e from pile by red
    let n = 3
    let f = ask blue "{s} has {e}?"
    let g = ask blue "{s}: {n}?"
    end game
""", RECORDS + "  - {id: spare}\n"))
    lines = decides(fast.code)
    assert [unzoned(line) for line in lines[:6]] == [True, True, True, True, False, False]
    # a prompt's values are shown too, unless none can lie in a zone (a side, numbers)
    assert [line.endswith("args_zoned=False)") for line in lines[6:]] == [False, True]
    game = fast.new_game(0)
    assert game.state["revealed"] == {"north": ["blue"], "west": ["red", "blue"]}
    game.apply(True)
    game.apply(False)
    assert game.over
