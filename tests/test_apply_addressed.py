"""`apply` knows who answers which decision, takes options by type, and tells a wrong
guess nothing about a hidden hand (issue 8, holes 4 and 6)."""
from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction

RULES = """
var active: side = red
var got: int = 0
zone hand[s: side] of card private
type card
on setup:
    move card to hand[red]
    let c = choose x from hand[red] by red
    let k = choose x from numbers(0, 2) by blue
    got = k
"""
RECORDS = """
card:
  - {id: dragon}
  - {id: knight}
  - {id: archer}
"""


@pytest.fixture
def pack(inline_pack):
    return inline_pack(RULES, RECORDS)


def test_decisions_have_ids(pack):
    g = pack.new_game(1)
    first = g.decision
    assert first.side == "red" and isinstance(first.id, int)
    g.apply("knight", side="red", decision=first.id)
    assert g.decision.id == first.id + 1
    assert g.view("blue")["decision"]["id"] == g.decision.id  # the decider's view has it
    assert g.view("red")["decision"] == {"side": "blue", "kind": "one"}


def test_a_late_answer_is_refused(pack):
    g = pack.new_game(1)
    stale = g.decision.id
    g.apply("knight", side="red", decision=stale)
    before = g.save()
    with pytest.raises(IllegalAction, match="was answered already") as err:
        g.apply(1, side="blue", decision=stale)
    assert err.value.rule == "stale" and g.save() == before
    with pytest.raises(IllegalAction, match="has not been asked"):
        g.apply(1, side="blue", decision=stale + 5)
    with pytest.raises(IllegalAction, match="a whole number"):
        g.apply(1, side="blue", decision=True)
    g.apply(1, side="blue", decision=g.decision.id)
    assert g.over and g.var("got") == 1


def test_the_other_side_cannot_answer(pack):
    g = pack.new_game(1)
    before = g.save()
    with pytest.raises(IllegalAction, match="it is red's decision, not blue's") as err:
        g.apply("dragon", side="blue")
    assert err.value.rule == "side" and g.save() == before
    with pytest.raises(IllegalAction, match="not a side"):
        g.apply("dragon", side="green")


@pytest.mark.parametrize("wrong", [True, 1.0, "1", [1], False])
def test_an_int_option_takes_an_int_only(pack, wrong):
    g = pack.new_game(1)
    g.apply("knight")
    before = g.save()
    with pytest.raises(IllegalAction):
        g.apply(wrong, side="blue")
    assert g.save() == before


def test_the_answer_is_the_option_itself(pack):
    """An option equal to another value of another type is not taken (True == 1 in Python)."""
    g = pack.new_game(1)
    g.apply("knight")
    with pytest.raises(IllegalAction):
        g.validate(True)
    assert g.validate(0) == 0 and type(g.validate(0)) is int


def test_a_wrong_guess_shows_no_hidden_hand(pack):
    """Without `side`, the error may reach anyone: it counts the options and names none;
    the decider itself (side given) gets them listed."""
    g = pack.new_game(1)
    with pytest.raises(IllegalAction) as err:
        g.apply("wizard")
    text = str(err.value)
    assert "3 options" in text
    assert not any(card in text for card in ("dragon", "knight", "archer"))
    with pytest.raises(IllegalAction) as err:
        g.apply("wizard", side="red")
    assert "dragon" in str(err.value)


def test_bots_and_cli_give_side_and_decision(pack, monkeypatch):
    """The front-ends the engine ships always address the answers their seats give (a
    game of random bots alone is played by `Game.playout`, which answers each decision
    from that decision: tests/test_playout.py)."""
    from engine.core.game import Game
    from engine.frontends.bots import RandomBot
    from engine.frontends.simulate import play_out

    class Seat(RandomBot):  # a bot of one's own: asked decision by decision
        pass
    calls = []
    real, real_index = Game.apply, Game.apply_index

    def spy(self, action, side=None, decision=None):
        calls.append(("apply", side, decision))
        return real(self, action, side, decision)

    def spy_index(self, index, side=None, decision=None):
        calls.append(("apply_index", side, decision))
        return real_index(self, index, side, decision)

    monkeypatch.setattr(Game, "apply", spy)
    monkeypatch.setattr(Game, "apply_index", spy_index)
    g = pack.new_game(2)
    play_out(g, {"red": Seat(1), "blue": Seat(2)})
    # a random seat answers by index (engine.frontends.bots), addressed like any answer
    assert calls and {c[0] for c in calls} == {"apply_index"}
    assert all(s is not None and d is not None for _, s, d in calls)
