"""A plain choice of one refuses too many options and a decider that is no side, located,
and a `win` reason rendered once per pack (issue 16) reads the same in every game, while
one with values is rendered with each game's values."""
from __future__ import annotations

import pytest

from engine.core.errors import EngineFault
from engine.core.limits import Limits


def test_a_choice_of_one_with_too_many_options_is_a_located_fault(inline_pack):
    pack = inline_pack("""
        var active: side = red
        on setup:
            let x = choose x from [1, 2, 3, 4, 5, 6] by red
            win red
    """)
    with pytest.raises(EngineFault) as err:
        pack.new_game(1, limits=Limits(list_size=5))
    assert "a decision with 6 options (the limit is 5)" in str(err.value)
    assert "rules.rules:3:" in str(err.value)  # the choice
    game = pack.new_game(1, limits=Limits(list_size=6))  # at the limit: asked
    assert game.decision.options == [1, 2, 3, 4, 5, 6]
    assert (game.decision.kind, game.decision.min, game.decision.max) == ("one", 1, 1)


def test_a_choice_of_one_offered_to_no_side_is_a_fault(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var who: side? = none
        on setup:
            let x = choose x from [1, 2] by who
            win red
    """)
    with pytest.raises(EngineFault, match="a decision was offered to None, which is not a "
                                          "side"):
        pack.new_game(1)


def test_a_win_reason_reads_the_same_in_every_game(inline_pack):
    pack = inline_pack("""
        var active: side = red
        on setup:
            let n = choose n from [1, 2, 3] by red
            if n == 1:
                win red, "red wins at once"
            win blue, "blue holds {n} cities"
    """)
    reasons = []
    for answer in (1, 2, 1, 3):
        game = pack.new_game(1, log=False, undo=False)
        game.apply(answer)
        reasons.append((game.result.winner, game.result.reason))
    assert reasons == [("red", "red wins at once"), ("blue", "blue holds 2 cities"),
                       ("red", "red wins at once"), ("blue", "blue holds 3 cities")]
