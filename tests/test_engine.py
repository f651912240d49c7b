"""Unit tests of the runtime, through small packs written for each test."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import engine.core.starts
from engine.core.errors import EngineFault, IllegalAction
from engine.core.game import Game, replay


def says(game: Game) -> list[str]:
    """The `log "..."` lines of a game, with their arguments, as short strings."""
    out = []
    for e in game.log:
        if e["t"] == "say":
            out.append(" ".join([e["m"], *map(str, e["a"])]))
    return out


def play_out(game: Game, pick=lambda g: g.legal_actions()[0], limit: int = 10_000) -> Game:
    for _ in range(limit):
        if game.over:
            return game
        game.apply(pick(game))
    raise AssertionError("the game did not end")


# ---- order of events ------------------------------------------------------------------------

ORDER_RULES = """
var active: side = red
var answered: bool = false
event outer(x: int)
event inner(x: int)
event queued(x: int)

on setup:
    log "setup"
    emit outer(1)
    emit outer(2)
    log "setup done"

before outer(x):
    log "before outer", x
before outer(x) if x == 99:
    log "never"
instead of outer(x) if x == 2:
    log "instead of outer", x
on outer(x):
    log "on outer", x
    enqueue queued(x)
    emit inner(x)
    log "on outer, inner done", x
after outer(x):
    log "after outer", x
on inner(x):
    log "on inner", x
    enqueue queued(10 + x)
    DECIDE
on queued(x):
    log "queued", x
"""

ORDER_EXPECTED = [
    "setup",
    "before outer 1", "on outer 1", "on inner 1", "queued 11", "on outer, inner done 1",
    "after outer 1", "queued 1",
    "before outer 2", "instead of outer 2", "after outer 2",
    "setup done",
]


@pytest.mark.parametrize("decide", ["log \"no decision\"", "answered = ask red \"Go on?\""])
def test_event_order(inline_pack, decide):
    """The same order whether the events run as plain calls or as suspendable frames."""
    pack = inline_pack(ORDER_RULES.replace("DECIDE", decide))
    game = play_out(pack.new_game(0))
    got = [s for s in says(game) if s != "no decision"]
    assert got == ORDER_EXPECTED
    suspending = "inner" in pack.ns["SUSPENDING_EVENTS"]
    assert suspending == decide.startswith("answered")


def test_queue_runs_after_after_triggers_and_nested(inline_pack):
    pack = inline_pack("""
        var active: side = red
        event a()
        event b(n: int)
        on setup:
            emit a()
        on a():
            enqueue b(1)
            enqueue b(2)
            log "on a"
        after a():
            log "after a"
        on b(n):
            log "b", n
            if n == 1:
                enqueue b(3)
        after b(n):
            log "after b", n
    """)
    game = pack.new_game(0)
    assert says(game) == ["on a", "after a", "b 1", "after b 1", "b 3", "after b 3", "b 2",
                          "after b 2"]


def test_trigger_condition_is_read_just_before_it_runs(inline_pack):
    """An `on` handler that turns off a later handler's condition stops it from running;
    `instead of` is settled once, after the `before` triggers. Same with and without a
    decision inside (plain calls or suspendable frames)."""
    for decide in ("pass", "let y = ask red \"?\""):
        pack = inline_pack(f"""
var active: side = red
var flag: bool = true
var swap: bool = false
event e()
event f()
on setup:
    emit e()
    flag = true
    emit f()
before e():
    swap = true
    {decide}
instead of e() if swap:
    log "instead"
    swap = false
instead of e():
    log "second instead (must not run)"
on e():
    log "on (must not run)"
after e() if flag:
    log "after 1"
    flag = false
after e() if flag:
    log "after 2 (must not run)"
on f() if flag:
    log "first"
    flag = false
    {decide}
on f():
    log "second"
on f() if flag:
    log "third (must not run)"
""")
        game = play_out(pack.new_game(0), pick=lambda g: True)
        assert says(game) == ["instead", "after 1", "first", "second"], decide


# ---- modifiers ------------------------------------------------------------------------------

def test_modifiers_expire(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var siege: bool = false
        value size(s: side): int = 5
        event turn(s: side)
        event reshuffle()
        on setup:
            modify size(blue) by 10
            modify size(red) by -1 until reshuffle
            log "start", size(red), size(blue)
            emit turn(red)
            log "after turn", size(red)
            modify size(red) by 3 while siege
            log "siege off", size(red)
            siege = true
            log "siege on", size(red)
            siege = false
            emit reshuffle()
            log "after reshuffle", size(red), size(blue)
        on turn(s):
            modify size(s) by -2 until end of turn
            log "in turn", size(s)
        on reshuffle():
            log "in reshuffle", size(red)
    """)
    game = pack.new_game(0)
    assert says(game) == ["start 4 15", "in turn 2", "after turn 4", "siege off 4", "siege on 7",
                          "in reshuffle 5", "after reshuffle 5 15"]


def test_modifier_while_captures_locals(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var hurt[s: side]: bool = false
        value size(s: side): int = 5
        on setup:
            for s in sides:
                modify size(s) by -1 while hurt[s]
            hurt[blue] = true
            log "sizes", size(red), size(blue)
    """)
    assert says(pack.new_game(0)) == ["sizes 5 4"]


# ---- bounds ---------------------------------------------------------------------------------

def test_bounds_clamp(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var cap: int = 4
        var morale: int in 0..13 = 13
        var unrest[s: side]: int in 0..cap = 0
        on setup:
            morale += 5
            log "up", morale
            morale -= 20
            log "down", morale
            morale = 7
            unrest[red] += 9
            unrest[blue] -= 1
            log "unrest", unrest[red], unrest[blue]
            cap = 2
            unrest[red] += 0
            log "recapped", unrest[red]
    """)
    game = pack.new_game(0)
    assert says(game) == ["up 13", "down 0", "unrest 4 0", "recapped 2"]
    assert game.var("morale") == 7


# ---- decisions ------------------------------------------------------------------------------

CARDS = """
card:
  - {id: c1, power: 1}
  - {id: c2, power: 2}
  - {id: c3, power: 3}
  - {id: c4, power: 4}
"""

DECISIONS = """
type card:
    power: int
var active: side = red
var got: list of card = []
var yes: bool = false
zone hand[s: side] of card private
zone pile of card

on setup:
    for c in card:
        move c to hand[red]
    let a = choose c from hand[red] prompt "Pick one"
    got = [a]
    let b = choose 2 c from hand[red] by red
    got = b
    let u = choose up to 2 c from hand[red] by red require sum(x.power for x in c) <= 4
    got = u
    let r = choose 1 to 3 c from hand[red] by blue
    got = r
    yes = ask blue "Yes?"
    let o = order hand[red] by red
    got = o
    let opt = choose c from hand[red] by red where c.power > 2 optional
    got = [opt]
"""


def test_decisions_of_each_kind(inline_pack):
    pack = inline_pack(DECISIONS, CARDS)
    g = pack.new_game(0)
    d = g.decision
    assert (d.side, d.kind, d.options, d.prompt) == ("red", "one", ["c1", "c2", "c3", "c4"],
                                                     "Pick one")
    g.apply("c3")
    assert g.var("got") == ["c3"]
    d = g.decision
    assert (d.kind, d.min, d.max) == ("many", 2, 2)
    assert len(g.legal_actions()) == 6
    g.apply(["c4", "c1"])
    assert g.var("got") == ["c4", "c1"]
    d = g.decision
    assert (d.kind, d.min, d.max) == ("many", 0, 2)
    legal = g.legal_actions()
    assert [] in legal and ["c1", "c3"] in legal and ["c2", "c3"] not in legal
    assert all(sum(int(c[1]) for c in a) <= 4 for a in legal)
    g.apply(["c1", "c3"])
    d = g.decision
    assert (d.side, d.kind, d.min, d.max) == ("blue", "many", 1, 3)
    g.apply(["c2", "c3", "c4"])
    d = g.decision
    assert (d.side, d.kind, d.prompt) == ("blue", "ask", "Yes?")
    assert g.legal_actions() == [True, False]
    g.apply(True)
    assert g.var("yes") is True
    d = g.decision
    assert (d.side, d.kind) == ("red", "order") and len(g.legal_actions()) == 24
    g.apply(["c4", "c2", "c1", "c3"])
    assert g.var("got") == ["c4", "c2", "c1", "c3"]
    d = g.decision
    assert d.optional and d.options == ["c3", "c4"]
    assert g.legal_actions() == ["c3", "c4", None]
    g.apply(None)
    assert g.var("got") == [None]
    assert g.over and g.result.winner is None


@pytest.mark.parametrize("steps, bad, rule", [
    (0, "c9", "choose"),                   # not an option
    (0, ["c1"], "choose"),                 # a list for a single choice
    (0, None, "choose"),                   # not optional
    (1, ["c1"], "count"),                  # exact 2: too few
    (1, ["c1", "c2", "c3"], "count"),      # too many
    (1, ["c1", "c1"], "many"),             # twice the same
    (1, "c1", "many"),                     # not a list
    (2, ["c3", "c4"], "require"),          # fails `require`
    (3, [], "count"),                      # range 1..3: too few
    (4, "yes", "ask"),                     # ask wants a bool
    (4, 1, "ask"),
    (5, ["c1", "c2", "c3"], "order"),      # not a permutation: missing one
    (5, ["c1", "c2", "c3", "c3"], "order"),
    (5, ["c1", "c2", "c3", "c4", "c4"], "order"),
    (6, "c1", "choose"),                   # filtered out by `where`
])
def test_illegal_actions_change_nothing(inline_pack, steps, bad, rule):
    pack = inline_pack(DECISIONS, CARDS)
    g = pack.new_game(0)
    for _ in range(steps):
        g.apply(g.legal_actions()[0])
    before = g.save()
    view_before = g.view("red")
    with pytest.raises(IllegalAction) as err:
        g.apply(bad)
    assert err.value.rule == rule
    with pytest.raises(IllegalAction):
        g.validate(bad)
    assert g.save() == before
    assert g.view("red") == view_before
    g.apply(g.legal_actions()[-1])  # the game goes on normally afterwards


def test_no_decision_to_answer(inline_pack):
    pack = inline_pack(DECISIONS, CARDS)
    g = play_out(pack.new_game(0))
    before = g.save()
    with pytest.raises(IllegalAction) as err:
        g.apply("c1")
    assert err.value.rule == "no-decision" and "over" in str(err.value)
    assert g.legal_actions() == []
    with pytest.raises(IllegalAction):
        g.random_action(random.Random(0))
    assert g.save() == before


def test_forced_decisions_are_answered_by_the_engine(inline_pack):
    pack = inline_pack("""
        type card:
            power: int
        var active: side = red
        var res: list of card = []
        var one: card? = c1
        zone hand[s: side] of card private
        on setup:
            move c1 to hand[red]
            move c2 to hand[red]
            one = choose c from hand[red] where c.power == 2
            log "single option", one
            one = choose c from hand[red] where c.power > 5
            log "no option", one
            res = choose 2 c from hand[red]
            log "exact all", count(res)
            res = choose 3 c from hand[red]
            log "exact more than there are", count(res)
            res = choose up to 0 c from hand[red]
            log "up to none", count(res)
            res = order [c in hand[red] where c.power == 1] by blue
            log "order one", count(res)
            res = choose up to 2 c from hand[red]
            log "asked"
    """, CARDS)
    g = pack.new_game(0)
    assert says(g) == ["single option c2", "no option None", "exact all 2",
                       "exact more than there are 2", "up to none 0", "order one 1"]
    assert g.decision.kind == "many" and g.state["decisions"] == 0


def test_random_action_is_legal(inline_pack):
    pack = inline_pack(DECISIONS, CARDS)
    for seed in range(20):
        g = pack.new_game(seed)
        rnd = random.Random(seed)
        while not g.over:
            a = g.random_action(rnd)
            assert g.validate(a) == a
            g.apply(a)


# ---- save, load, replay -------------------------------------------------------------------

def _first(g: Game):
    return g.legal_actions()[0]


def test_save_load_mid_decision_continues_identically(testgame):
    rnd = random.Random(5)
    g = testgame.new_game(5)
    for _ in range(17):
        g.apply(g.random_action(rnd))
    text = g.save()
    loaded = Game.load(testgame, text)
    assert loaded.save() == text
    assert loaded.decision == g.decision
    assert loaded.view("red") == g.view("red")
    r1, r2 = random.Random(9), random.Random(9)
    play_out(g, pick=lambda x: x.random_action(r1))
    play_out(loaded, pick=lambda x: x.random_action(r2))
    assert loaded.save() == g.save()


def test_save_is_json_and_load_checks_pack(testgame, inline_pack):
    from engine.core.errors import SaveError
    g = testgame.new_game(1)
    data = json.loads(g.save())
    assert data["pack"] == "testgame" and data["seed"] == 1
    other = inline_pack(DECISIONS, CARDS)
    with pytest.raises(SaveError):
        Game.load(other, g.save())
    with pytest.raises(SaveError):
        Game.load(testgame, "{not json")
    bad = dict(data, pack_hash="0" * 16)
    with pytest.raises(SaveError, match="changed"):
        Game.load(testgame, json.dumps(bad))


def test_replay_is_exact(testgame):
    for seed in (0, 3):
        rnd = random.Random(seed)
        g = play_out(testgame.new_game(seed), pick=lambda x, rnd=rnd: x.random_action(rnd))
        again = replay(testgame, seed, list(g.actions))
        assert again.save() == g.save()
        assert again.log == g.log


def test_clone_is_independent(testgame):
    g = testgame.new_game(2)
    c = g.clone()
    c.apply(c.legal_actions()[0])
    assert g.state["decisions"] == 0 and c.state["decisions"] == 1


def test_locals_holding_zone_contents_survive_save_load(inline_pack):
    """A local that holds a zone's contents is a copy: saving and loading in the middle of
    a rule does not change what it holds."""
    pack = inline_pack("""
        type card:
            power: int
        var active: side = red
        zone hand[s: side] of card private
        zone pile of card
        on setup:
            move c1 to hand[red]
            move c2 to hand[red]
            let held = hand[red]
            let y = ask red "go?"
            move c1 to pile
            log "held", count(held)
    """, CARDS)
    g1 = pack.new_game(0)
    g2 = Game.load(pack, g1.save())
    g1.apply(True)
    g2.apply(True)
    assert says(g1) == says(g2) == ["held 2"]


# ---- undo -----------------------------------------------------------------------------------

UNDO_RULES = """
type card:
    power: int
var active: side = red
var x: int = 0
var secret[s: side]: int = 0 private
zone deck of card ordered hidden
zone hand[s: side] of card private
zone table of card
on setup:
    for c in card:
        move c to deck
    move c4 to table
    repeat 30:
        let k = choose k from ["plain", "roll", "draw", "reveal", "public", "blue", "shuffle", "secret"] by red
        if k == "roll":
            x = roll(1, 6)
        elif k == "draw":
            let d = draw 1 from deck to hand[red]
        elif k == "reveal":
            reveal top(deck) to red
        elif k == "public":
            move table to hand[red]
        elif k == "blue":
            let y = ask blue "Agree?"
        elif k == "shuffle":
            shuffle deck
        elif k == "secret":
            secret[red] += 1
        x += 100
"""  # noqa: E501


@pytest.fixture
def undo_pack(inline_pack):
    return inline_pack(UNDO_RULES, CARDS)


@pytest.mark.parametrize("choice", ["plain", "public", "secret"])
def test_undo_own_last_decision(undo_pack, choice):
    g = undo_pack.new_game(0)
    g.apply("plain")
    views = {s: g.view(s) for s in ("red", "blue", None)}
    save = g.save()
    g.apply(choice)
    assert g.can_undo("red") and not g.can_undo("blue")
    g.undo("red")
    assert g.save() == save
    assert {s: g.view(s) for s in ("red", "blue", None)} == views
    # undo again goes back one more of red's own decisions
    assert g.can_undo("red")
    g.undo("red")
    assert g.state["decisions"] == 0 and g.actions == []
    assert not g.can_undo("red")
    with pytest.raises(IllegalAction):
        g.undo("red")


def test_undo_answers_again_from_a_checkpoint_before_dice_and_draws(undo_pack, monkeypatch):
    """Undo rebuilds the state from a checkpoint taken up to CHECKPOINT_EVERY actions
    earlier by answering again (engine.core.game): across rolls, draws, shuffles and the other
    side's answers since, it still gives back exactly the save and log before the move.
    (Checkpoints every 5 actions here, so that this short game holds several.)"""
    import engine.core.game
    monkeypatch.setattr(engine.core.game, "CHECKPOINT_EVERY", 5)
    CHECKPOINT_EVERY = 5
    g = undo_pack.new_game(3)
    kinds = ["roll", "plain", "draw", "secret", "blue", "shuffle", "public", "reveal"]
    undone = 0
    for i in range(29):
        before, log = g.save(), list(g.log)
        k = kinds[i % len(kinds)]
        g.apply(k)
        if k == "blue":
            g.apply(i % 2 == 0)
        elif g.can_undo("red"):
            g.undo("red")
            assert g.save() == before and g.log == log
            g.apply(k)
            undone += 1
    assert undone >= 3 and len(g.actions) > 2 * CHECKPOINT_EVERY
    assert g.save() == replay(undo_pack, 3, g.actions).save()


SHUFFLED_START = """
type card:
    power: int
var x: int = 0
zone deck of card ordered hidden
on setup:
    for c in card:
        move c to deck
    shuffle deck
    repeat 3:
        let k = choose k from ["a", "b"] by red
        x += 1
"""


@pytest.mark.parametrize("chance", [None, [2, 0, 1]])
def test_undo_back_to_the_start_makes_the_game_of_its_seed_again(inline_pack, chance):
    """A new game's first undo checkpoint is its start, kept as no state (engine.core.undo): undo
    back to it makes a new game of the seed again, shuffle included, or with the outcomes
    the host supplied (Game.new(..., chance=...)); the save comes out the same."""
    pack = inline_pack(SHUFFLED_START, CARDS)
    g = Game.new(pack, 7, chance=chance)
    start = g.save()
    g.apply("a")
    g.apply("b")
    assert g.can_undo("red")
    g.undo("red")
    g.undo("red")
    assert g.save() == start and g.actions == []
    g.apply("b")
    assert g.var("x") == 1


def test_a_game_whose_chance_the_host_takes_over_cannot_undo_to_its_start(inline_pack):
    """supply_chance after the start: a new game of the seed draws its own chance, so it is
    no longer the start of this game, and undo stops there."""
    pack = inline_pack(SHUFFLED_START, CARDS)
    g = Game.new(pack, 7)
    g.apply("a")
    assert g.can_undo("red")
    g.supply_chance()
    assert not g.can_undo("red")
    g.apply("b")
    assert g.can_undo("red")
    g.undo("red")
    assert g.actions == ["a"] and g.host_chance


@pytest.mark.parametrize("choice", ["roll", "draw", "reveal", "shuffle"])
def test_undo_refused_after_hidden_or_random(undo_pack, choice):
    g = undo_pack.new_game(0)
    g.apply("plain")
    g.apply(choice)
    assert not g.can_undo("red")
    before = g.save()
    with pytest.raises(IllegalAction) as err:
        g.undo("red")
    assert err.value.rule == "undo"
    assert g.save() == before


def test_undo_ends_once_the_other_side_is_asked(undo_pack):
    """Undo is for a side's own decisions while the game still waits on that side: once the
    other side is asked anything, it has seen the move (and the question itself may tell the
    mover something), so the move stands."""
    g = undo_pack.new_game(0)
    g.apply("blue")
    assert g.decision.side == "blue"
    assert not g.can_undo("red")
    g.apply(True)
    assert not g.can_undo("red")
    assert not g.can_undo("blue")  # the game now waits on red
    g.apply("plain")
    assert not g.can_undo("blue")


def test_undo_keeps_actions_in_step(undo_pack):
    g = undo_pack.new_game(0)
    for a in ["plain", "secret", "plain"]:
        g.apply(a)
    g.undo("red")
    assert g.actions == ["plain", "secret"]
    g.apply("public")
    assert replay(undo_pack, 0, g.actions).save() == g.save()



def test_undo_cannot_probe_hidden_information(inline_pack):
    """Red raids; blue is asked to respond only if blue holds a response card. Red sees
    whether blue is asked, then takes the raid back: red learned about blue's hand."""
    pack = inline_pack("""
        type card:
            power: int
        var active: side = red
        zone hand[s: side] of card private
        on setup:
            move c3 to hand[blue]
            repeat 3:
                let k = choose k from ["raid", "wait"] by red
                if k == "raid" and exists(c in hand[blue] where c.power == 3):
                    let y = ask blue "Respond?"
    """, CARDS)
    g = pack.new_game(0)
    g.apply("raid")
    learned = g.decision.side == "blue"  # only possible because blue holds c3
    assert learned
    assert not g.can_undo("red")


# ---- views ----------------------------------------------------------------------------------

def test_views_hide_hidden_zones_private_vars_and_others_choices(undo_pack):
    g = undo_pack.new_game(0)
    for a in ["draw", "secret", "secret", "reveal"]:
        g.apply(a)
    red, blue, spectator = g.view("red"), g.view("blue"), g.view(None)
    deck = g.zone("deck")
    assert red["zones"]["deck"] == {"count": len(deck), "revealed": [deck[0]]}
    assert blue["zones"]["deck"] == {"count": len(deck), "revealed": []}
    assert spectator["zones"]["deck"]["revealed"] == []
    hand = g.zone("hand", "red")
    assert red["zones"]["hand|red"] == hand and len(hand) == 1
    assert blue["zones"]["hand|red"] == {"count": 1, "revealed": []}
    assert red["zones"]["table"] == blue["zones"]["table"] == ["c4"]
    assert red["vars"]["secret"] == {"red": 2}
    assert "red" not in blue["vars"].get("secret", {})
    assert "secret" not in spectator["vars"]
    # choices: red sees its own, blue sees only that red chose
    red_choices = [e for e in red["log"] if e["t"] == "choice"]
    blue_choices = [e for e in blue["log"] if e["t"] == "choice"]
    assert [e["v"] for e in red_choices] == ["draw", "secret", "secret", "reveal"]
    assert blue_choices == [{"t": "choice", "side": "red"}] * 4
    # the drawn card: red sees the move, blue sees that a card moved
    drawn = hand[0]
    blue_text = json.dumps(blue)
    assert f'"{drawn}"' not in blue_text and f'"{deck[0]}"' not in blue_text
    moves = [e for e in blue["log"] if e["t"] == "move" and e["to"] == "hand|red"]
    assert moves == [{"t": "move", "e": None, "from": "deck", "to": "hand|red"}]
    reveals = [e for e in blue["log"] if e["t"] == "reveal"]
    assert reveals and all(e["e"] is None for e in reveals)
    # the decision: red sees options and legal actions; blue only whose turn it is
    assert red["decision"]["options"] and red["legal_actions"]
    assert blue["decision"] == {"side": "red", "kind": "one"} and blue["legal_actions"] == []
    with pytest.raises(ValueError):
        g.view("green")


# ---- graphs ---------------------------------------------------------------------------------

GRAPH_RECORDS = """
space:
  - {id: a}
  - {id: b}
  - {id: c}
  - {id: d}
  - {id: e}
  - {id: f}
link:
  - {id: ab, a: a, b: b, cost: 1, kind: road}
  - {id: bc, a: b, b: c, cost: 1, kind: road}
  - {id: ad, a: a, b: d, cost: 5, kind: sea}
  - {id: dc, a: d, b: c, cost: 1, kind: road}
  - {id: ce, a: c, b: e, cost: 2, kind: pass}
  - {id: ef, a: e, b: f, cost: 1, kind: road, directed: true}
"""

GRAPH_RULES = """
type space:
    label: text = "x"
type link:
    a: space
    b: space
    cost: int
    kind: text
    directed: bool = false
var active: side = red
graph map of space via link
on setup:
    log "neighbors", neighbors(map, a)
    log "by kind", neighbors(map, a, "sea"), neighbors(map, c, ["road", "pass"])
    log "distance", distance(map, a, c), distance(map, a, f), distance(map, f, a)
    log "blocked distance", distance(map, a, c, n => n == b)
    log "path", path(map, a, e)
    log "blocked path", path(map, a, e, n => n == b)
    log "no path", path(map, a, e, n => n == b or n == d)
    log "reachable", reachable(map, a, 2), reachable(map, a, 6, n => n == b)
    log "edge", edge(map, a, b), edge(map, b, a).cost, edge(map, a, e), edge(map, f, e)
    log "directed", neighbors(map, e), neighbors(map, f)
"""


def test_graph_queries(inline_pack):
    pack = inline_pack(GRAPH_RULES, GRAPH_RECORDS)
    assert says(pack.new_game(0)) == [
        "neighbors ['b', 'd']",
        "by kind ['d'] ['b', 'd', 'e']",
        "distance 2 5 None",
        "blocked distance 6",
        "path ['a', 'b', 'c', 'e']",
        "blocked path ['a', 'd', 'c', 'e']",
        "no path []",
        "reachable ['b', 'c'] ['d', 'c']",
        "edge ab 1 None None",
        "directed ['c', 'f'] []",
    ]


# ---- tables ---------------------------------------------------------------------------------

TABLE_RECORDS = """
table:
  - id: crt
    columns: [1, "2-3", "4+", "-9-0", fort]
    rows:
      1: [10, 11, 12, 13, 14]
      "2-4": [20, 21, 22, 23, 24]
      "5+": [30, 31, 32, 33, 34]
      "-3--1": [40, 41, 42, 43, 44]
  - id: simple
    rows:
      "1-2": low
      "3+": high
"""


def test_table_lookups(inline_pack):
    pack = inline_pack("""
        var active: side = red
        on setup:
            log "rows", lookup(crt, 1, 1), lookup(crt, 2, 1), lookup(crt, 4, 1), lookup(crt, 5, 1), lookup(crt, 99, 1), lookup(crt, -2, 1)
            log "cols", lookup(crt, 1, 2), lookup(crt, 1, 3), lookup(crt, 1, 4), lookup(crt, 1, 50), lookup(crt, 1, 0), lookup(crt, 1, -5), lookup(crt, 1, "fort")
            log "no columns", lookup(simple, 2), lookup(simple, 3), lookup(simple, 3 + roll(1, 6))
    """, TABLE_RECORDS)  # noqa: E501
    assert says(pack.new_game(0)) == [
        "rows 10 20 20 30 30 40",
        "cols 11 11 12 12 13 13 14",
        "no columns low high high",
    ]


def test_table_lookup_without_row_is_a_replayable_fault(inline_pack):
    pack = inline_pack("""
        var active: side = red
        on setup:
            let k = choose k from [1, 0, 2] by red
            log "result", lookup(simple, k)
    """, TABLE_RECORDS)
    g = pack.new_game(7)
    before = g.save()
    g.apply(1)
    assert says(g) == ["result low"]
    g = Game.load(pack, before)
    with pytest.raises(EngineFault) as err:
        g.apply(0)
    f = err.value
    assert "simple" in f.message and "no row" in f.message
    assert (f.pack, f.pack_hash, f.seed, f.actions) == (pack.id, pack.hash, 7, [0])
    assert f.replay_info()["actions"] == [0]
    assert "seed 7" in str(f)


def test_fault_at_setup_carries_seed(inline_pack):
    pack = inline_pack("""
        var active: side = red
        on setup:
            log "x", lookup(simple, 0)
    """, TABLE_RECORDS)
    with pytest.raises(EngineFault) as err:
        pack.new_game(11)
    assert err.value.seed == 11 and err.value.actions == []


def test_while_guard(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var n: int = 0
        on setup:
            while true:
                n += 1
    """)
    with pytest.raises(EngineFault, match=r"rules.rules:4: more than 1,000,000 rule steps") as err:
        pack.new_game(3)
    assert err.value.seed == 3


def test_while_guard_in_suspending_code(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var n: int = 0
        on setup:
            let y = ask red "loop?"
            while y:
                n += 1
    """)
    g = pack.new_game(3)
    g.apply(False)
    assert g.over
    g = pack.new_game(3)
    with pytest.raises(EngineFault, match="rule steps without a decision") as err:
        g.apply(True)
    assert err.value.actions == [True]


# ---- language features at run time -------------------------------------------------------------

def test_loops_break_continue_and_procedures(inline_pack):
    pack = inline_pack("""
        type card:
            power: int
        var active: side = red
        var total: int = 0
        zone pile of card ordered
        procedure double(n: int) -> int:
            return n * 2
        procedure pick(s: side) -> card:
            let c = choose c from card by s where c.power >= 2
            return c
        on setup:
            for c in card where c.power != 2:
                if c.power == 4:
                    break
                total += double(c.power)
            log "total", total
            let n = 0
            while n < 10:
                n += 1
                if n % 2 == 0:
                    continue
                total += 1
            log "odd", total
            repeat 3:
                total -= 1
            log "repeat", total
            let got = pick(blue)
            log "picked", got, got.power
            move [c1, c3] to pile
            move c2 to top of pile
            move c4 to bottom of pile
            log "pile", pile, first(pile), last(pile), top(pile)
            log "queries", count(c in card where c.power > 1), sum(c.power for c in card), min(c.power for c in card), max(c.power for c in card), min(3, 1, 2)
            log "exists", exists(c in pile where c.power > 3), every(c in pile where c.power > 1), exists([]), every([])
            log "lists", [c.power for c in pile where c.power > 1], sort([c3, c1, c2], c => 0 - c.power), zone_of(c1), abs(-3), other(red), 7 / 2, -7 / 2
    """, CARDS)  # noqa: E501
    g = pack.new_game(0)
    assert says(g) == ["total 8", "odd 13", "repeat 10"]
    g.apply("c3")
    assert says(g)[3:] == [
        "picked c3 3",
        "pile ['c2', 'c1', 'c3', 'c4'] c2 c4 c2",
        "queries 3 10 1 4 1",
        "exists True False False True",
        "lists [2, 3, 4] ['c3', 'c2', 'c1'] pile 3 blue 3 -4",
    ]


def test_return_of_a_procedure_that_asks(inline_pack):
    """`return f(...)` where f waits for a player compiles and runs (it failed at load with
    "cannot lower Return"), as `let x = f(...)` then `return x` does; a save at the decision
    inside two such returns loads and goes on the same (the frames are plain data)."""
    pack = inline_pack("""
        var active: side = red
        procedure pick(s: side) -> int:
            let n = choose n from [1, 2, 3] by s
            return n
        procedure twice(s: side) -> int:
            return pick(s)
        procedure outer(s: side) -> int:
            return twice(s)
        on setup:
            let a = outer(red)
            let b = outer(blue)
            log "picked", a, b
            win red if a > b else blue
    """)
    g = pack.new_game(0)
    assert g.decision.side == "red" and g.decision.options == [1, 2, 3]
    g.apply(3)
    loaded = Game.load(pack, g.save())
    for game in (g, loaded):
        assert game.decision.side == "blue"
        game.apply(2)
        assert says(game) == ["picked 3 2"] and game.result.winner == "red"


def test_effect_fields_run_with_self(inline_pack):
    pack = inline_pack("""
        type card:
            power: int
            effect: effect?
        var active: side = red
        var score[s: side]: int = 0
        on setup:
            for c in card:
                run(c.effect)
            log "score", score[red], score[blue]
    """, """
        card:
          - {id: c1, power: 1, effect: "score[red] += self.power"}
          - {id: c2, power: 2}
          - id: c3
            power: 3
            effect: |
              let yes = ask blue "Take it?"
              if yes:
                  score[blue] += self.power
    """)
    g = pack.new_game(0)
    assert g.decision.side == "blue"
    g.apply(True)
    assert says(g) == ["score 1 3"]


def test_win_and_end_game(inline_pack):
    pack = inline_pack("""
        var active: side = red
        on setup:
            let y = ask red "Win?"
            if y:
                win blue
            end game
            log "never"
    """)
    g = pack.new_game(0)
    g.apply(True)
    assert g.result.winner == "blue" and g.result.reason == "rule"
    g = pack.new_game(0)
    g.apply(False)
    assert g.over and g.result.winner is None
    assert says(g) == []
    assert g.log[-1] == {"t": "end", "winner": None}


def test_win_with_a_reason(inline_pack):
    """`win side, "text"` and `end game, "text"` say why the game ended: a template with
    {placeholders} like a log line, kept as text in the result and as the template in the
    log's end entry (rendered by a view); the formatter keeps it."""
    from textwrap import dedent

    from engine.dsl.formatter import format_source
    from engine.i18n.translations import render_log_entry
    src = dedent("""
        var active: side = red
        var score: int = 7
        on setup:
            let y = ask red "Win?"
            if y:
                win blue, "more points: blue {score}, red {score - 2}"
            end game, "no one can move"
    """)
    pack = inline_pack(src)
    g = pack.new_game(0)
    g.apply(True)
    assert g.result.winner == "blue"
    assert g.result.reason == "more points: blue 7, red 5"
    assert g.log[-1]["m"] == "more points: blue {0}, red {1}" and g.log[-1]["a"] == [7, 5]
    assert render_log_entry(g.log[-1], pack).endswith("wins (more points: blue 7, red 5)")
    g = pack.new_game(0)
    g.apply(False)
    assert g.over and g.result.winner is None and g.result.reason == "no one can move"
    assert 'win blue, "more points: blue {score}, red {score - 2}"' in format_source(src)
    assert 'end game, "no one can move"' in format_source(src)


def test_lists_are_values(inline_pack):
    """Changing an item of a list changes no other local or var that held the same list,
    in the game and after saving and loading it."""
    pack = inline_pack("""
        var active: side = red
        var kept: list of int = []
        on setup:
            let a = [1, 2, 3]
            let b = a
            kept = a
            let y = ask red "go?"
            b[0] = 5
            kept[1] = 7
            let nested = [[1, 2], [3]]
            nested[0] = [9]
            log "lists", a, b, kept, nested
    """)
    g1 = pack.new_game(0)
    g2 = Game.load(pack, g1.save())
    g1.apply(True)
    g2.apply(True)
    assert says(g1) == says(g2) == ["lists [1, 2, 3] [5, 2, 3] [1, 7, 3] [[9], [3]]"]
    assert g1.save() == g2.save()



# ---- the test game reaches every rule ----------------------------------------------------------

def _functions(code: str) -> dict[int, tuple[str, int]]:
    """line -> (function name, offset of the line in the function) of generated code."""
    out: dict[int, tuple[str, int]] = {}
    name, start = "", 0
    for i, line in enumerate(code.splitlines(), 1):
        if line.startswith("def "):
            name, start = line[4:line.index("(")], i
        elif not line.startswith((" ", "\t")):
            name = ""
        if name:
            out[i] = (name, i - start)
    return out


def _code(line: str) -> str:
    """A generated line without its position comment (`# @L12`)."""
    return line.split("  # @", 1)[0].strip() if not line.strip().startswith("#") else ""


def _dead(lines: list[str], i: int) -> bool:
    """Lines random play cannot reach by construction: faults, guards, and code right after
    a `return`, `win` or an endless `while true`."""
    text = _code(lines[i - 1])
    if ("G.fault(" in text or "AssertionError" in text or text in ("else:", "")
            or text.startswith("def ")):
        return True  # (a comment-only line, such as a position mark, is no code either)
    prev = _code(lines[i - 2]) if i >= 2 else ""
    if prev.startswith(("return ", "G.win(")) and text.startswith("return"):
        return True
    return any(i > back and _code(lines[i - 1 - back]) == "if not (True):" for back in (1, 2))


def test_testgame_reaches_every_rule(testgame):
    """Random play of the test game, answer by answer and by playouts, runs every line of
    its compiled rules (record effects that share one text count together), so every
    feature it uses is exercised."""
    import sys
    code = testgame.code
    lines = code.splitlines()
    funcs = _functions(code)
    filename = testgame.ns["v_hand_size"].__code__.co_filename
    hits: set[int] = set()

    def tracer(frame, event, arg):
        if frame.f_code.co_filename != filename:
            return None

        def local(frame, event, arg):
            if event == "line":
                hits.add(frame.f_lineno)
            return local
        return local

    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        assert testgame.run_checks() == []
        for i, (decl, _path) in enumerate(testgame.model.checks):
            if not decl.invariant:  # what validate runs for a failed check
                assert testgame.failing_records(i) == []
        for seed in range(100):
            g = testgame.new_game(seed, undo=False)
            rnd = random.Random(seed)
            while not g.over:
                g.apply(g.random_action(rnd))
                assert g.check_invariants() == []
        for seed in range(20):  # a playout answers choices where they are asked (pick1)
            g = testgame.new_game(seed, undo=False)
            g.playout(random.Random(seed))
            assert g.over and g.check_invariants() == []
    finally:
        sys.settrace(old)

    # effects written once in YAML and shared by several records compile to copies
    body: dict[str, str] = {}
    for i, (name, off) in funcs.items():
        if off > 0:
            body[name] = body.get(name, "") + _code(lines[i - 1]) + "\n"
    group = {name: body[name] if re.match(r"x\d+_", name) else name for name in body}
    covered = {(group[funcs[i][0]], funcs[i][1]) for i in hits if i in funcs}
    missing = [f"{i}: {lines[i - 1].strip()}  [{funcs[i][0]}]" for i in sorted(funcs)
               if funcs[i][1] > 0 and not _dead(lines, i)
               and (group[funcs[i][0]], funcs[i][1]) not in covered]
    assert not missing, "never ran in 100 random games:\n" + "\n".join(missing)


def test_testgame_ends_every_way(testgame):
    """Wins by points during play, wins at the end, and draws all happen."""
    endings = set()
    for seed in range(100):
        g = testgame.new_game(seed, undo=False)
        rnd = random.Random(seed)
        while not g.over:
            g.apply(g.random_action(rnd))
        scoring = any(e["t"] == "trigger" and e["f"].endswith("on_scoring") for e in g.log[-40:])
        early = g.result.winner is not None and scoring and max(
            g.var("score", s) for s in testgame.sides) >= 10
        endings.add("draw" if g.result.winner is None else "early" if early else "late")
    assert endings == {"draw", "early", "late"}


CONTROL_FLOW = """
type card:
    power: int
var active: side = red
var total: int = 0
procedure scan(limit: int) -> int:
    let found = 0
    for c in card where c.power != 2:
        ASK
        if c.power > limit:
            break
        found += c.power
    return found
procedure nested() -> int:
    let n = 0
    repeat 3:
        let i = 0
        while i < 5:
            i += 1
            ASK
            if i == 2:
                continue
            if i == 4:
                break
            n += i
            for c in card:
                if c.power == 3:
                    ASK
                    continue
                if c.power == 4:
                    break
                n += 10 * c.power
        ASK
    return n
procedure early(k: int) -> int:
    for c in card:
        ASK
        if c.power == k:
            return c.power * 100
    return 0
on setup:
    let a = scan(3)
    log "scan", a
    let b = nested()
    log "nested", b
    let c = early(2)
    log "early", c, early(9)
    if a > 3:
        ASK
        log "then"
    elif a > 1:
        log "elif"
    else:
        log "else"
    total = a + b + c
    log "total", total
"""


def test_control_flow_is_the_same_with_and_without_decisions(inline_pack):
    """The resumable state machines that suspending code compiles to run loops, break,
    continue and return exactly like plain Python does."""
    plain = inline_pack(CONTROL_FLOW.replace("ASK", "pass").replace(
        "log \"early\", c, early(9)", "let d = early(9)\n    log \"early\", c, d"), CARDS)
    asking = inline_pack(CONTROL_FLOW.replace("ASK", "let y = ask red \"go on?\"").replace(
        "log \"early\", c, early(9)", "let d = early(9)\n    log \"early\", c, d"), CARDS)
    assert "p_nested" in asking.ns["SUSPENDING"] and "p_nested" not in plain.ns["SUSPENDING"]
    g1 = plain.new_game(0)
    g2 = play_out(asking.new_game(0), pick=lambda g: True)
    assert says(g1) == says(g2)
    assert says(g1)[0] == "scan 4" and says(g1)[-1] == "total " + str(g1.var("total"))
    assert g2.state["decisions"] > 20


# ---- small built-ins and log redaction of lists ----------------------------------------------

def test_numbers_take_and_name(inline_pack):
    """numbers(a, b) is inclusive, so a player can be offered a computed range; take() looks
    at the top of a pile; .name falls back to the id."""
    pack = inline_pack("""
        type card:
            power: int
        zone deck of card ordered hidden
        zone seen of card
        on setup:
            for c in card:
                move c to deck
            let k = choose k from numbers(1, count(deck) - 1) by red
            move take(deck, k) to seen
            log "names", c1.name
            end game
    """, CARDS)
    g = pack.new_game(0)
    assert g.decision.options == [1, 2, 3]
    g.apply(2)
    assert g.zone("seen") == ["c1", "c2"]
    assert [e["a"] for e in g.log if e["t"] == "say"] == [["c1"]]


def test_logged_list_of_hidden_cards_is_redacted(inline_pack):
    pack = inline_pack("""
        type card:
            power: int
        zone hand[s: side] of card private
        on setup:
            move [c1, c2] to hand[red]
            log "red holds", hand[red], 7
            end game
    """, CARDS)
    g = pack.new_game(0)
    said = lambda side: [e["a"] for e in g.view(side)["log"] if e["t"] == "say"][0]  # noqa: E731
    assert said("red") == [["c1", "c2"], 7]
    assert said("blue") == [[None, None], 7]


# ---- triggers written on records ---------------------------------------------------------------

RECORD_TRIGGERS = """
type card:
    power: int
    reacts: triggers?
zone hand[s: side] of card private
zone table of card
event attack(s: side)
after attack(s):
    log "rules trigger first"
on setup:
    move c1 to hand[blue]
    move c2 to hand[blue]
    emit attack(red)
    end game
"""


def test_record_triggers_bind_self_and_run_after_rules_triggers(inline_pack):
    """A card's own reaction: `self` is the card; it only fires while its condition holds."""
    cards = """
card:
  - id: c1
    power: 1
    reacts: |
      after attack(s) if self in hand[other(s)]:
          let use = ask other(s) "Play it?"
          if use:
              move self to table
  - id: c2
    power: 2
    reacts: |
      after attack(s) if self in table:
          log "never: c2 is not on the table"
"""
    pack = inline_pack(RECORD_TRIGGERS, cards)
    g = pack.new_game(0)
    assert g.decision.side == "blue" and g.decision.prompt == "Play it?"
    g.apply(True)
    assert g.zone("table") == ["c1"]
    said = [e["m"] for e in g.log if e["t"] == "say"]
    assert said == ["rules trigger first"]


def test_record_trigger_errors_are_located_in_the_yaml(write_pack):
    from engine.dsl.build import build_pack
    cards = """
card:
  - id: c1
    power: 1
    reacts: |
      after attack(s):
          move self to tabel
"""
    build = build_pack(write_pack(RECORD_TRIGGERS, cards))
    [d] = [d for d in build.diagnostics if "'tabel'" in d.message]
    assert (Path(d.path).name, d.line, d.col) == ("records.yaml", 6, 24)
    assert d.suggestion == "did you mean 'table'?"


def test_conditional_expression(inline_pack):
    pack = inline_pack("""
        type card:
            power: int
        var best: int = 0
        on setup:
            let k = choose k from [1, 5] by red
            best = 10 if k > 2 else -1 if k == 1 else 0
            log "label", "high" if best > 0 else "low"
            end game
    """, CARDS)
    for answer, best, label in ((5, 10, "high"), (1, -1, "low")):
        g = pack.new_game(0)
        g.apply(answer)
        assert g.var("best") == best
        assert [e["a"] for e in g.log if e["t"] == "say"] == [[label]]


def test_until_end_of_binds_to_the_running_instance(inline_pack):
    """`until end of turn` made during a turn lasts until THAT turn ends, not until a nested
    turn (an extra turn played inside it) ends; made outside any turn, the next turn's end."""
    pack = inline_pack("""
        type card:
            power: int
        event turn(n: int)
        value bonus(): int = 0
        on turn(n):
            if n == 1:
                modify bonus() by 5 until end of turn
                emit turn(2)
                log "after nested turn", bonus()
        on setup:
            modify bonus() by 1 until end of turn
            emit turn(1)
            log "after outer turn", bonus()
            end game
    """, CARDS)
    g = pack.new_game(0)
    said = [(e["m"], e["a"][0]) for e in g.log if e["t"] == "say"]
    # the +1 (made outside any turn) ended with the first turn to end: the nested turn 2
    assert said == [("after nested turn", 5), ("after outer turn", 0)]


def test_run_time_fault_names_the_rule(inline_pack):
    """A rule that breaks while running (here: none compared with a number) is reported at
    its own file and line, with what replays it."""
    from engine.core.errors import EngineFault
    pack = inline_pack("""
        type card:
            power: int
        var x: int = 0
        on setup:
            let k = choose k from [1, 2] by red
            if min([c.power for c in card where c.power > 9]) <= k:
                x = 1
            end game
    """, CARDS)
    g = pack.new_game(3)
    with pytest.raises(EngineFault) as err:
        g.apply(1)
    assert err.value.message.startswith(f"{pack.root / 'rules.rules'}:6: none was used where "
                                        "a value is needed")
    assert "the smallest or largest of no items" in err.value.message
    assert "(TypeError: '<=' not supported" in err.value.message
    assert err.value.seed == 3 and err.value.actions == [1]


def test_loaded_dice_play_a_worked_example_and_refuse_a_save(inline_pack):
    """Game.load_dice: the next rolls show the given values (a rulebook example's rolls), then
    the seeded dice go on; a value the die cannot show is a located fault; such a game is no
    replay of its actions and cannot be saved."""
    from engine.core.errors import EngineFault, SaveError
    pack = inline_pack("""
        var a: int = 0
        var b: int = 0
        var c: int = 0
        on setup:
            let go = ask red "Roll?"
            a = roll(2, 6)
            b = roll(1, 6)
            c = roll(1, 6)
            end game
        """)
    g = pack.new_game(7)
    plain = pack.new_game(7)
    g.load_dice([6, 5, 1])
    g.apply(True)
    plain.apply(True)
    assert (g.var("a"), g.var("b")) == (11, 1)
    # the loaded dice drew nothing from the seed: the next die is the seed's first
    first = next(e["dice"][0] for e in plain.log if e["t"] == "roll")
    assert g.var("c") == first
    with pytest.raises(SaveError, match="loaded"):
        g.save()
    bad = pack.new_game(7)
    bad.load_dice([7])
    with pytest.raises(EngineFault, match="loaded die shows 7"):
        bad.apply(True)
    with pytest.raises(ValueError):
        pack.new_game(7).load_dice([0])


def test_undo_rebuilds_a_run_from_its_first_snapshot():
    """Only a run's first decision keeps a snapshot (engine/game.py): taking back the later
    ones answers the run again from it. Every state and log it goes back to is exactly the
    one before that decision (Hannibal: long runs of one side's march decisions)."""
    import copy
    import random as _random

    from engine.core.loader import load_pack
    pack = load_pack("hannibal")
    checked = 0
    for seed in range(1, 6):
        g = pack.new_game(seed, log=True, undo=True)
        rnd = _random.Random(seed)
        seen: list[tuple[dict, int]] = []
        while not g.over and checked < 40:
            side = g.decision.side
            if not (g.can_undo(side) and len(g._undo.entries) >= 3):
                seen = seen if g.can_undo(side) else []
                seen.append(({k: copy.deepcopy(v) for k, v in g.rt.s.items() if k != "log"},
                             len(g.rt.s["log"])))
                g.apply(g.random_action(rnd))
                if not g.can_undo(side):
                    seen = []
                continue
            n = len(g._undo.entries)
            for state, log_length in reversed(seen[-n:]):
                g.undo(side)
                assert {k: v for k, v in g.rt.s.items() if k != "log"} == state
                assert len(g.rt.s["log"]) == log_length
                checked += 1
            seen = []
            g.apply(g.random_action(rnd))
    assert checked >= 10


@pytest.mark.parametrize("log", [False, True])
@pytest.mark.parametrize("name", ["tictactoe", "kuhn", "ap_battle"])
def test_new_games_load_kept_starts_and_each_gets_its_own(name, log):
    """A new game's state at its first decision is kept by the random numbers drawn before
    it (engine.core.starts.Starts: tic-tac-toe draws none, Kuhn poker deals one of six ways) and
    loaded by the next game that draws the same. Every new game is the game its seed makes
    when setup runs (limits given: it runs), and changing one changes no other."""
    from engine.core.loader import load_pack
    pack = load_pack(Path(__file__).resolve().parent.parent / "bench/packs" / name)
    rnd = random.Random(4)
    for seed in range(20):
        ran = Game.new(pack, seed, log=log, limits=pack.limits)
        game = Game.new(pack, seed, log=log)
        assert game.save() == ran.save()
        while not game.over:
            game.apply(game.random_action(rnd))
        assert game.save() == replay(pack, seed, game.actions, log=log).save()
    starts = engine.core.starts.starts_of(pack, log)
    assert starts.open and starts.size > 0


def _containers(x, into):
    """The ids of every list and dict inside `x` (itself included)."""
    if type(x) in (list, dict):
        into.add(id(x))
    for v in (x.values() if type(x) is dict else x if type(x) in (list, tuple) else ()):
        _containers(v, into)
    return into


@pytest.mark.parametrize("name", ["tictactoe", "kuhn", "ap_battle"])
def test_a_start_loaded_often_is_built_equal_and_independent(name, monkeypatch):
    """A kept start loaded Starts.BUILD_AFTER times is built from then on by a function
    compiled from a literal (engine.core.starts._builder) instead of marshal: each new game gets
    a state equal to the one setup makes, sharing no list or dict with another game's."""
    from engine.core.loader import load_pack
    monkeypatch.setattr(engine.core.starts.Starts, "BUILD_AFTER", 2)
    pack = load_pack(Path(__file__).resolve().parent.parent / "bench/packs" / name)
    starts = engine.core.starts.Starts()
    monkeypatch.setitem(engine.core.starts._STARTS, (id(pack), False), (pack, starts))
    for _ in range(3):
        for seed in range(8):
            Game.new(pack, seed, log=False)
    assert not starts.loads  # each loaded twice: all built
    games = [Game.new(pack, seed, log=False) for seed in range(8)]
    node = starts.root
    while type(node) is tuple:
        node = next(iter(node[1].values()))
    assert type(node) is not bytes and callable(node)
    seen: set[int] = set()
    for seed, game in enumerate(games):
        assert game.state == Game.new(pack, seed, log=False, limits=pack.limits).state
        inside = _containers(game.state, set())
        assert not inside & seen
        seen |= inside


def test_a_start_a_literal_cannot_copy_stays_marshalled():
    """`_builder` writes plain data only: a start holding a set or an alias (which marshal
    keeps and a literal would not) is not built, so it stays marshalled."""
    shared: list[int] = [1]
    assert engine.core.starts._builder({"a": {1, 2}}) is None
    assert engine.core.starts._builder({"a": shared, "b": shared}) is None
    build = engine.core.starts._builder({"a": [1, (2, [3])], "b": {"c": None, 4: 1.5}})
    assert build() == {"a": [1, (2, [3])], "b": {"c": None, 4: 1.5}}
    assert build()["a"][1][1] is not build()["a"][1][1]


def test_a_start_the_builder_refuses_is_not_tried_again(monkeypatch):
    """Starts.find asks `_builder` once per start, at its BUILD_AFTER-th load: a start it
    refuses is loaded by marshal from then on, never walked again."""
    import marshal
    asked = []
    real = engine.core.starts._builder
    monkeypatch.setattr(engine.core.starts, "_builder",
                        lambda start: asked.append(1) or real(start))
    starts = engine.core.starts.Starts()
    starts.keep([], marshal.dumps({"a": {1, 2}}))
    for _ in range(3 * starts.BUILD_AFTER):
        start, _rng = starts.find(0)
        assert start == {"a": {1, 2}}
    assert asked == [1] and type(starts.root) is bytes


def test_starts_stop_growing_past_their_cap(monkeypatch):
    """A pack whose starts never repeat keeps no more of them past Starts.MAX_BYTES."""
    from engine.core.loader import load_pack
    monkeypatch.setattr(engine.core.starts.Starts, "MAX_BYTES", 1)
    pack = load_pack(Path(__file__).resolve().parent.parent / "bench/packs/kuhn")
    starts = engine.core.starts.Starts()
    monkeypatch.setitem(engine.core.starts._STARTS, (id(pack), False), (pack, starts))
    Game.new(pack, 0, log=False)
    size = starts.size
    assert not starts.open and size > 0
    for seed in range(1, 10):
        assert Game.new(pack, seed, log=False).save() == \
            Game.new(pack, seed, log=False, limits=pack.limits).save()
    assert starts.size == size


@pytest.mark.parametrize("seed", [1.5, True, "3", None])
def test_a_seed_that_is_no_whole_number_is_refused(inline_pack, seed):
    """A save writes the seed and a replay reads it: only a whole number makes a game (a
    float raised a raw TypeError, and True made a game whose save could not load)."""
    pack = inline_pack("on setup:\n    let k = choose k from numbers(1, 2) by red\n")
    with pytest.raises(ValueError, match="a game's seed is a whole number, not"):
        pack.new_game(seed)
