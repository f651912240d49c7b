"""State of one event instance (issue 9, item 5): `event battle(...) with rounds: int = 0`,
read and written as `battle.rounds` by the rules that run while a battle runs, made when
the battle is set off and gone when it ends; the innermost battle under nesting; plain data
in the game state, so a save taken mid-battle continues identically."""
from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from conftest import REPO

from engine.core.errors import EngineFault, SaveError
from engine.core.game import Game
from engine.core.saves import digest_of
from engine.dsl.build import build_pack
from engine.dsl.formatter import format_source
from engine.dsl.parser import parse_module

SPACES = """
space:
  - id: capua
  - id: roma
"""


def says(game: Game) -> list[str]:
    return [" ".join([e["m"], *map(str, e["a"])]) for e in game.log if e["t"] == "say"]


def diags(write_pack: Any, rules: str, records: str = SPACES) -> list[Any]:
    return [d for d in build_pack(write_pack(rules, records)).diagnostics
            if d.severity == "error"]


def only(write_pack: Any, rules: str, code: str) -> Any:
    found = diags(write_pack, rules)
    assert [d.code for d in found] == [code], [d.render() for d in found]
    return found[0]


def running_states(game: Game) -> dict[str, list[int]]:
    """The runtime's running instances' state (ids of the dicts), to compare with the frames."""
    return {n: [id(x) for x in xs] for n, xs in game.rt.event_states.items() if xs}


def frame_states(game: Game) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for fr in game.state["stack"]:
        if fr["k"] == "e" and "x" in fr:
            out.setdefault(fr["n"], []).append(id(fr["x"]))
    return out


# ---- a trigger reads what the handler set ------------------------------------------------------

AFTER_READS_ON = """
type space
var active: side = red
event battle(at: space, attacker: side) with rounds: int = 0, won_by: side? = none

on setup:
    emit battle(capua, red)
    emit battle(roma, blue)

on battle(at, attacker):
    battle.rounds += 2
    DECIDE
    battle.won_by = attacker if won else other(attacker)

after battle(at, attacker):
    log "won", at, battle.won_by, battle.rounds
"""


@pytest.mark.parametrize("decide", ["let won = attacker == red",
                                    "let won = ask attacker \"Win?\""])
def test_an_after_trigger_reads_what_the_on_handler_set(inline_pack, decide):
    """Today only the handler's locals hold who won; now `after battle` reads it. Same
    whether the battle runs at once (no decision) or as a frame that waits."""
    pack = inline_pack(AFTER_READS_ON.replace("DECIDE", decide), SPACES)
    game = pack.new_game(0)
    while not game.over:
        game.apply(game.decision.side == "red")  # red wins its battle, blue loses its own
    assert says(game) == ["won capua red 2", "won roma red 2"]
    assert ("battle" in pack.ns["SUSPENDING_EVENTS"]) == ("ask" in decide)


# ---- defaults, lifetime, nesting ---------------------------------------------------------------

NESTING = """
type space
var active: side = red
event campaign(s: side) with marches: int = 0, fought: list of space
event march(s: side, to: space)
event battle(at: space, depth: int) with rounds: int = depth * 10, where: space = at, \\
        won: bool

on setup:
    emit campaign(red)
    emit campaign(blue)

on campaign(s):
    emit march(s, capua)
    emit march(s, roma)
    log "campaign", s, campaign.marches, count(campaign.fought)

on march(s, to):
    campaign.marches += 1
    emit battle(to, 0)

on battle(at, depth):
    battle.rounds += 1
    if depth < 2:
        emit battle(roma if at == capua else capua, depth + 1)
    log "battle", depth, battle.rounds, battle.where
    campaign.fought = campaign.fought + [at]
    ASK

after battle(at, depth):
    log "after", depth, battle.rounds, battle.won
"""

NESTED_SAYS = [
    "battle 2 21 capua", "after 2 21 False", "battle 1 11 roma", "after 1 11 False",
    "battle 0 1 capua", "after 0 1 False",
    "battle 2 21 roma", "after 2 21 False", "battle 1 11 capua", "after 1 11 False",
    "battle 0 1 roma", "after 0 1 False",
    "campaign red 2 6",
]


@pytest.mark.parametrize("ask", ["pass", "let ok = ask red \"Go on?\""])
def test_each_instance_has_its_own_state_under_nesting(inline_pack, ask):
    """A campaign is several moves, each with a battle, and a battle inside a battle has its
    own state: `battle.x` is the innermost running battle's, and the outer battle's state is
    as it left it when the inner one ends. Defaults may use the event's arguments."""
    pack = inline_pack(NESTING.replace("ASK", ask), SPACES)
    game = pack.new_game(0)
    while not game.over:
        assert running_states(game) == frame_states(game)
        game.apply(True)
    assert says(game) == NESTED_SAYS + NESTED_SAYS[:-1] + ["campaign blue 2 6"]
    assert all(not xs for xs in game.rt.event_states.values())  # all gone when the events ended


def test_state_is_fresh_for_each_instance_and_gone_after(inline_pack):
    pack = inline_pack("""
        var active: side = red
        event round(n: int) with hits: int = n, log_: list of int
        procedure peek():
            log "peek", round.hits
        on setup:
            emit round(1)
            emit round(5)
            peek()
        on round(n):
            round.hits += 1
            round.log_ = round.log_ + [n]
            peek()
    """)
    with pytest.raises(EngineFault) as err:
        pack.new_game(0)
    text = str(err.value)
    assert "round.hits read while no round is running" in text
    assert re.search(r"rules\.rules:4: ", text), text  # the line of the read


def test_a_queued_event_gets_its_state_too(inline_pack):
    for ask in ("pass", "let ok = ask red \"?\""):
        pack = inline_pack(f"""
            var active: side = red
            event turn() with n: int = 7
            event step(k: int) with seen: int = k
            on setup:
                emit turn()
            on turn():
                enqueue step(1)
                enqueue step(2)
                turn.n = 8
            on step(k):
                step.seen += turn.n
                {ask}
            after step(k):
                log "step", k, step.seen
        """)
        game = pack.new_game(0)
        while not game.over:
            game.apply(True)
        assert says(game) == ["step 1 9", "step 2 10"], ask


# ---- procedures, effects and the calls between --------------------------------------------------

def test_procedures_and_effects_read_the_running_instance(inline_pack):
    pack = inline_pack("""
        type card:
            play: effect
        var active: side = red
        zone deck of card
        event battle(attacker: side) with bonus: int = 0
        procedure add(n: int):
            battle.bonus += n
        procedure ask_more():
            let more = ask battle_side() "More?"
            if more:
                add(10)
        value battle_side(): side = red if battle.bonus >= 0 else blue
        on setup:
            emit battle(red)
        on battle(attacker):
            add(1)
            run(c1.play)
            ask_more()
        after battle(attacker):
            log "bonus", battle.bonus
    """, """
        card:
          - id: c1
            play: |
                add(100)
    """)
    game = pack.new_game(0)
    game.apply(True)
    assert says(game) == ["bonus 111"]


# ---- save / load mid-battle ------------------------------------------------------------------

def test_save_mid_battle_and_load_in_a_new_game(inline_pack):
    """A handler asks a player mid-battle (inside an outer battle); the game is saved,
    loaded in a new Game, answered: both battles' state values are right."""
    pack = inline_pack("""
        type space
        var active: side = red
        event battle(at: space, depth: int) with rounds: int = 0, won_by: side? = none
        on setup:
            emit battle(capua, 0)
        on battle(at, depth):
            battle.rounds = 10 + depth
            if depth == 0:
                emit battle(roma, 1)
                battle.rounds += 1
            let won = ask red "Win?"
            battle.won_by = red if won else blue
        after battle(at, depth):
            log "after", at, battle.rounds, battle.won_by
    """, SPACES)
    game = pack.new_game(0)
    frames = [fr for fr in game.state["stack"] if fr["k"] == "e" and fr["n"] == "battle"]
    assert [fr["x"] for fr in frames] == [{"rounds": 10, "won_by": None},
                                          {"rounds": 11, "won_by": None}]
    text = game.save()
    for verify in ("replay", "digest"):
        loaded = Game.load(pack, text, verify=verify)
        assert running_states(loaded) == frame_states(loaded)
        loaded.apply(False)  # the inner battle: blue wins it
        assert running_states(loaded) == frame_states(loaded)
        loaded.apply(True)
        assert says(loaded) == ["after roma 11 blue", "after capua 11 red"]
    game.apply(False)
    game.apply(True)
    assert says(game) == ["after roma 11 blue", "after capua 11 red"]


def test_undo_restores_the_state(inline_pack):
    pack = inline_pack("""
        var active: side = red
        event battle() with picks: int = 0
        on setup:
            emit battle()
        on battle():
            repeat 3:
                let yes = ask red "Again?"
                if yes:
                    battle.picks += 1
            log "picks", battle.picks
    """)
    game = pack.new_game(0)
    game.apply(True)
    game.apply(True)
    assert [fr["x"] for fr in game.state["stack"] if "x" in fr] == [{"picks": 2}]
    game.undo("red")
    assert [fr["x"] for fr in game.state["stack"] if "x" in fr] == [{"picks": 1}]
    game.apply(False)
    game.apply(True)
    assert says(game) == ["picks 2"]


def test_a_save_with_wrong_event_state_is_refused(inline_pack):
    pack = inline_pack("""
        var active: side = red
        event battle() with rounds: int = 0
        event plain()
        on setup:
            emit plain()
        on plain():
            emit battle()
        on battle():
            let x = ask red "?"
    """)
    good = pack.new_game(0).save()

    def damaged(change) -> str:
        data = json.loads(good)
        change([fr for fr in data["state"]["stack"] if fr["k"] == "e"])
        data["digest"] = digest_of(data["seed"], data["log"], data["actions"], data["state"])
        return json.dumps(data)

    cases = [
        (lambda frs: frs[2].pop("x"), r"stack\[4\]\.x: missing: event 'battle' keeps state"),
        (lambda frs: frs[2]["x"].update(roundz=1),
         r"stack\[4\]\.x\.roundz: the pack has no state field of event 'battle'"),
        (lambda frs: frs[1].update(x={}), r"stack\[2\]\.x: event 'plain' keeps no state"),
        (lambda frs: frs[2].update(x=3), r"stack\[4\]\.x: expected an object"),
    ]
    for change, message in cases:
        with pytest.raises(SaveError, match=message):
            Game.load(pack, damaged(change), verify="digest")
    assert Game.load(pack, good).state["stack"][4]["x"] == {"rounds": 0}


# ---- no cost for events without state -----------------------------------------------------------

def test_events_without_state_pay_nothing(inline_pack):
    pack = inline_pack("""
        var active: side = red
        event battle() with rounds: int = 0
        event plain()
        event waits()
        on setup:
            emit plain()
            emit battle()
            emit waits()
        on waits():
            let x = ask red "?"
    """)
    code = pack.code
    assert "G.emit_now('plain', ())" in code and "G.emit_now_x('battle', ())" in code
    assert "G.push_event('waits', ())" in code
    assert pack.ns["EVSTATE"].keys() == {"battle"}
    game = pack.new_game(0)
    assert all("x" not in fr for fr in game.state["stack"])
    assert game.rt.event_states == {"battle": []}
    plain = inline_pack("var active: side = red\non setup:\n    pass\n")
    assert plain.ns["EVSTATE"] == {} and "emit_now_x" not in plain.code


# ---- checking ----------------------------------------------------------------------------------

CHECKED = """
type space
var active: side = red
event battle(at: space) with rounds: int = 0, won_by: side? = none
event march(to: space)
event turn()
on setup:
    emit turn()
on turn():
    emit march(capua)
on march(to):
    emit battle(to)
on battle(at):
    BODY
"""


def test_types_are_checked(write_pack):
    assert diags(write_pack, CHECKED.replace("BODY", "battle.won_by = none\n"
                                                     "    battle.won_by = red\n"
                                                     "    battle.rounds += 1")) == []
    d = only(write_pack, CHECKED.replace("BODY", 'battle.rounds = "many"'), "E220")
    assert "cannot assign text to int" in d.message and d.line == 13
    d = only(write_pack, CHECKED.replace("BODY", "battle.won_by = capua"), "E220")
    assert "cannot assign space to side" in d.message
    d = only(write_pack, CHECKED.replace("BODY", 'battle.rounds += "x"'), "E220")
    assert "'+=' needs an int, got text" in d.message
    d = only(write_pack, CHECKED.replace("BODY", "let x = battle.won_by + 1"), "E220")
    assert "'+' needs ints, got side" in d.message
    d = only(write_pack, CHECKED.replace("rounds: int = 0", 'rounds: int = "none"')
             .replace("BODY", "pass"), "E220")
    assert "the default of battle.rounds must be int, got text" in d.message
    assert (d.line, d.col) == (3, 44)


def test_declaration_errors(write_pack):
    d = only(write_pack, CHECKED.replace("won_by: side? = none", "rounds: side")
             .replace("BODY", "pass"), "E260")
    assert "declares state field 'rounds' twice" in d.message
    d = only(write_pack, CHECKED.replace("won_by: side? = none", "what: effect")
             .replace("BODY", "pass"), "E260")
    assert "not effect" in d.message
    d = only(write_pack, CHECKED.replace("side? = none", "sid").replace("BODY", "pass"), "E202")
    assert "unknown type 'sid'" in d.message
    d = only(write_pack, CHECKED.replace("= 0,", "= at.nothing,").replace("BODY", "pass"),
             "E205")
    assert "unknown field of space 'nothing'" in d.message


def test_unknown_fields_and_events_used_as_values(write_pack):
    d = only(write_pack, CHECKED.replace("BODY", "battle.round += 1"), "E262")
    assert d.message == "event 'battle' has no state field 'round'"
    assert "rounds" in (d.suggestion or "")
    d = only(write_pack, CHECKED.replace("BODY", "log \"x\", march.count"), "E262")
    assert "event 'march' has no state; declare it as 'event march(...) with count" in d.message
    d = only(write_pack, CHECKED.replace("BODY", "log \"x\", battle"), "E262")
    assert d.message == "'battle' is an event, not a value: read its state as battle.rounds"


@pytest.mark.parametrize("where, ok", [
    ("after battle(at):\n    log \"x\", battle.rounds", True),
    ("before battle(at) if battle.rounds == 0:\n    pass", True),
    ("instead of battle(at):\n    battle.rounds = 1", True),
    # march is emitted by turn, never inside a battle
    ("after march(to):\n    log \"x\", battle.rounds", False),
    ("before turn():\n    battle.won_by = red", False),
    # an event a battle's rule emits runs inside the battle
    ("event skirmish()\non skirmish():\n    battle.rounds += 1\n"
     "after battle(at):\n    emit skirmish()", True),
    # ... also when enqueued, or set off from a procedure the battle calls
    ("event skirmish()\non skirmish():\n    battle.rounds += 1\n"
     "procedure p():\n    enqueue skirmish()\nafter battle(at):\n    p()", True),
    # a procedure called from inside a battle may use it; one called from nowhere inside not
    ("procedure p():\n    battle.rounds += 1\nafter battle(at):\n    p()", True),
    ("procedure p():\n    battle.rounds += 1\nafter march(to):\n    p()", False),
    ("procedure p():\n    battle.rounds += 1", False),
    # values: a host may read one at any decision, mid-battle (so may what they call)
    ("value r(): int = battle.rounds\nafter battle(at):\n    log \"x\", r()", True),
    ("value r(): int = battle.rounds", True),
    ("procedure p() -> int:\n    return battle.rounds\nvalue r(): int = p()", True),
    ("var v: int = battle.rounds", False),
    ("check \"c\": battle.rounds == 0", False),
])
def test_state_used_where_no_instance_can_run(write_pack, where, ok):
    found = diags(write_pack, CHECKED.replace("BODY", "pass") + where + "\n")
    if ok:
        assert found == []
    else:
        assert [d.code for d in found] == ["E261"]
        assert "where no battle can be running" in found[0].message
        assert "never runs inside 'battle'" in found[0].message


def test_the_e261_message_names_the_rule(write_pack):
    d = only(write_pack, CHECKED.replace("BODY", "pass")
             + "after march(to):\n    log \"x\", battle.rounds\n", "E261")
    assert d.message.startswith("battle.rounds is read where no battle can be running: "
                                "trigger 'after march' never runs inside 'battle'")
    assert (d.line, d.col) == (15, 14)


def test_state_in_defaults_and_while_durations_is_refused(write_pack):
    rules = CHECKED.replace("BODY", "modify power() by 1 while battle.rounds < 3")
    d = only(write_pack, rules + "value power(): int = 1\n", "E263")
    assert "a 'while' duration is read as long as the modifier lasts" in d.message
    assert "let r = battle.rounds" in d.message
    rules = CHECKED.replace("rounds: int = 0", "rounds: int = battle.rounds").replace(
        "BODY", "pass")
    d = only(write_pack, rules, "E263")
    assert "battle.rounds cannot be used here: a state's defaults are computed" in d.message
    # a local copy is captured as any local is
    assert diags(write_pack, CHECKED.replace("BODY", "let r = battle.rounds\n"
                                             "    modify power() by 1 while r < 3")
                 + "value power(): int = 1\n") == []


# ---- names: a local wins ------------------------------------------------------------------------

def test_a_local_of_the_same_name_wins(inline_pack, write_pack):
    pack = inline_pack("""
        type space:
            rounds: int = 5
        var active: side = red
        event battle(at: space) with rounds: int = 1
        on setup:
            emit battle(capua)
        on battle(at):
            log "event", battle.rounds
            let battle = at
            log "local", battle.rounds
            for battle in [roma]:
                log "loop", battle.rounds
        after battle(battle):
            log "parameter", battle.rounds
    """, """
        space:
          - id: capua
            rounds: 2
          - id: roma
            rounds: 3
    """)
    assert says(pack.new_game(0)) == ["event 1", "local 2", "loop 3", "parameter 2"]
    d = only(write_pack, CHECKED.replace("BODY", "let battle = 3\n    log \"x\", battle.rounds"),
             "E214")
    assert "the local 'battle' hides the state of event 'battle': a local wins" in d.message
    d = only(write_pack, CHECKED.replace("BODY", "pass") + "after battle(battle):\n"
             "    battle.won_by = red\n", "E205")
    assert "the local 'battle' hides the state of event 'battle': a local wins" in d.message
    body = "let battle = capua\n    log \"x\", battle.won_by"
    d = only(write_pack, CHECKED.replace("BODY", body), "E205")
    assert "hides the state of event 'battle'" in d.message


def test_no_other_declaration_can_take_an_events_name(write_pack):
    for decl in ("var battle: int = 0", "procedure battle():\n    pass", "type battle"):
        found = diags(write_pack, CHECKED.replace("BODY", "pass") + decl + "\n")
        assert [d.code for d in found] == ["E306"], decl
    found = diags(write_pack, CHECKED.replace("BODY", "pass"), SPACES + "  - id: battle\n")
    assert [d.code for d in found] == ["E313"]


# ---- the formatter and the docs -----------------------------------------------------------------

def test_the_formatter_prints_event_state():
    text = ("event battle(at: space) with rounds: int = 0, "
            "won_by: side?, \\\n    losses: list of int, where: space = at\n"
            "event plain()\n")
    out = format_source(text)
    assert out == ("event battle(at: space) with rounds: int = 0, "
                   "won_by: side?, losses: list of int, where: space = at\n"
                   "event plain()\n")
    assert format_source(out) == out
    assert parse_module(out) == parse_module(text)


def test_long_state_or_state_with_comments_is_printed_as_a_block():
    """`with:` and one field a line: the form `engine fmt` picks when one line would pass
    99 columns or comments sit among the fields; a short state goes back on one line."""
    long_line = ("event battle(at: space, attacker: side) with rounds: int = 0, "
                 "won_by: side? = none, attacker_losses: list of int\n")
    block = ("event battle(at: space, attacker: side) with:\n"
             "    rounds: int = 0\n"
             "    won_by: side? = none\n"
             "    attacker_losses: list of int\n")
    assert format_source(long_line) == block
    assert format_source(block) == block
    assert parse_module(block) == parse_module(long_line)
    commented = ("event small() with:\n"
                 "    # how many rounds so far\n"
                 "    rounds: int = 0  # starts at none\n"
                 "    won: bool\n")
    assert format_source(commented) == commented
    assert format_source("event small() with:\n    rounds: int = 0\n") == (
        "event small() with rounds: int = 0\n")


def test_the_block_form_runs(inline_pack):
    pack = inline_pack("""
        var active: side = red
        event battle(n: int) with:
            rounds: int = n
            # a comment among the fields
            won: bool = n > 1
        on setup:
            emit battle(2)
        after battle(n):
            log "state", battle.rounds, battle.won
    """)
    assert says(pack.new_game(0)) == ["state 2 True"]


def _docs_blocks() -> list[str]:
    docs = (REPO / "docs" / "language.md").read_text(encoding="utf-8")
    section = docs.split("## Event state", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```\n(.*?)```", section, re.S)


def _docs_example() -> str:
    return _docs_blocks()[0]


def test_the_docs_example_runs(inline_pack):
    pack = inline_pack(_docs_example(), SPACES)
    game = pack.new_game(0)
    rnd = random.Random(3)
    while not game.over:
        assert running_states(game) == frame_states(game)
        game = Game.load(pack, game.save())  # mid-battle, every time
        game.apply(game.random_action(rnd))
    lines = says(game)
    assert lines[-1].startswith("battles fought 2")
    assert any(s.startswith("won capua") for s in lines)
    for block in _docs_blocks():  # canonical text, as `engine fmt` prints it
        assert format_source(block) == block


def test_state_is_kept_in_step_at_every_decision(inline_pack):
    """The runtime's running states are exactly those held by event frames at each decision
    (an event run at once is never running then), over random games of the nesting pack."""
    pack = inline_pack(NESTING.replace("ASK", "let ok = ask red \"Go on?\"\n"
                                       "    if ok:\n        battle.won = true"), SPACES)
    for seed in range(5):
        rnd = random.Random(seed)
        game = pack.new_game(seed)
        while not game.over:
            assert running_states(game) == frame_states(game)
            assert sum(map(len, running_states(game).values())) >= 1
            game.apply(game.random_action(rnd))


def test_a_value_reads_the_running_instance_or_faults_outside(inline_pack):
    """Values are never refused by the checker (a host may read one mid-event); outside
    any battle, reading one that uses battle state is a fault that says so."""
    pack = inline_pack("""
        var active: side = red
        event battle(n: int) with rounds: int = n * 2
        value doubled(): int = battle.rounds * 2
        on setup:
            emit battle(3)
        before battle(n):
            log "before", battle.rounds, doubled()
        on battle(n):
            let x = ask red "?"
    """)
    game = pack.new_game(0)
    assert says(game) == ["before 6 12"]
    with pytest.raises(EngineFault, match="battle.rounds read while no battle is running"):
        pack.call_value("doubled")


def test_a_default_that_breaks_is_a_located_fault(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var zero: int = 0
        event battle(n: int) with per: int = n / zero
        on setup:
            emit battle(3)
        on battle(n):
            pass
    """)
    with pytest.raises(EngineFault, match=r"rules\.rules:3: ZeroDivisionError"):
        pack.new_game(0)
