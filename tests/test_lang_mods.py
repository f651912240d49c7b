"""Modifiers of every type and their durations (docs/language.md, "Modifiers and durations").

`modify v(...) by / to / at least / at most`, `until A or B`, `until end of E n times`,
`until end of outermost E`, and the temporary assignment `set x = v until ...`: what the
checker accepts, what the formatter prints, how the runtime applies and ends them, and that
they are plain data in a save.
"""
from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from engine import load_pack
from engine.core.errors import SaveError
from engine.core.game import Game
from engine.dsl.errors import DslError
from engine.dsl.formatter import format_source
from engine.dsl.parser import parse_module

REPO = Path(__file__).resolve().parent.parent


def says(game: Game) -> list[str]:
    return [" ".join([e["m"], *map(str, e["a"])]) for e in game.log if e["t"] == "say"]


def said_values(game: Game) -> list[list]:
    return [e["a"] for e in game.log if e["t"] == "say"]


def diagnostics(write_pack, rules: str) -> list[tuple[str, str, int]]:
    """(code, message, line) of every problem `engine validate` finds in `rules`."""
    with pytest.raises(DslError) as err:
        load_pack(write_pack(rules))
    return [(d.code, d.message, d.line) for d in err.value.diagnostics]


# ---- 1. the bug: modifiers and values that are not ints -----------------------------------------

@pytest.fixture(scope="module")
def hannibal():
    return load_pack(REPO / "content" / "hannibal")


def test_shipped_naval_result_with_a_modifier_active_elsewhere(hannibal):
    """Regression: `naval_result` (text) of the shipped Hannibal tables faulted ("safe" + 0)
    as soon as any modifier existed anywhere in the game; so did every bool value, or gave
    1/0 instead of true/false."""
    expected = {r: hannibal.call_value("naval_result", r, 0) for r in range(1, 7)}
    assert set(expected.values()) <= {"safe", "lost_1", "lost_2", "lost_all"} or all(
        isinstance(v, str) for v in expected.values())
    rt = hannibal.static_runtime()
    # a modifier of another value, as `modify naval_modifier(...) by 1` leaves it in the state
    rt.modify("naval_modifier", "carthago|new_carthage|False|False|False|False|False", 1, None)
    assert rt.mods
    values = hannibal.ns["VALUES"]
    for r in range(1, 7):
        assert values["naval_result"](rt, r, 0) == expected[r]
    siege = values["siege_point"](rt, 6, "roma", "carthage", False)
    assert siege is True
    assert values["command_switches"](rt, 1) is False
    assert values["rating_roll_succeeds"](rt, 1, 3, 0) is True


def test_values_of_every_type_with_modifiers_active(inline_pack):
    pack = inline_pack("""
        type leader:
            rank: int
        var active: side = red
        value n(): int = 1
        value flag(): bool = true
        value label(): text = "plain"
        value chief(): leader? = none
        value ranks(): list of int = [1, 2]
        value maybe(): int? = none
        on setup:
            modify n() by 1
            log "types", flag(), label(), chief(), ranks(), maybe(), n()
            end game
    """, {"leaders.yaml": """
        leader:
          - id: scipio
            rank: 2
    """})
    game = pack.new_game(0)
    assert said_values(game) == [[True, "plain", None, [1, 2], None, 2]]
    assert type(said_values(game)[0][0]) is bool


def test_bool_values_stay_bool_when_overridden(inline_pack):
    pack = inline_pack("""
        var active: side = red
        value may_sea_move(s: side): bool = true
        value bonus(): int = 0
        event turn()
        on setup:
            modify bonus() by 2
            modify may_sea_move(red) to false until end of turn
            emit turn()
            log "after", may_sea_move(red), may_sea_move(blue), bonus()
            end game
        on turn():
            log "during", may_sea_move(red), may_sea_move(blue)
    """)
    game = pack.new_game(0)
    assert said_values(game) == [[False, True], [True, True, 2]]
    for args in said_values(game):
        assert all(type(a) is bool for a in args[:2])


def test_unmodified_values_compile_without_looking_at_modifiers(inline_pack):
    pack = inline_pack("""
        var active: side = red
        value plain(): int = 1
        value counted(): int = 2
        value flag(): bool = true
        on setup:
            modify counted() by 1
            modify flag() to false
    """)
    code = pack.code
    plain = code[code.index("def v_plain"):code.index("def v_counted")]
    counted = code[code.index("def v_counted"):code.index("def v_flag")]
    flag = code[code.index("def v_flag"):]
    flag = flag[:flag.index("\n\n")]
    assert "G.mods" not in plain
    assert "G.modint('counted'" in counted and "if G.mods else base" in counted
    assert "G.modto('flag'" in flag


# ---- checker: modifiers that do not fit ---------------------------------------------------------

CHECK_BASE = """
var active: side = red
var x: int = 0
var xs: list of int = []
value n(s: side): int = 1
value flag(s: side): bool = true
value label(): text = "a"
value maybe(): int? = none
event turn(s: side)
event reshuffle()
on setup:
"""


@pytest.mark.parametrize("stmt, code, words", [
    ("modify flag(red) by 1", "E240", "'by' works on int values, but value 'flag' is bool"),
    ("modify label() at least 2", "E240", "'at least' works on int values"),
    ("modify maybe() at most 2", "E240", "value 'maybe' is int?"),
    ("modify maybe() by 1", "E240", "modify maybe(...) to ..."),
    ("modify n(red) to \"x\"", "E241", "value 'n' is int, so 'to' needs int, got text"),
    ("modify flag(red) to 3", "E241", "'to' needs bool, got int"),
    ("modify n(red) by true", "E220", "a modifier must be int, got bool"),
    ("modify n(red) at most \"3\"", "E220", "a modifier must be int, got text"),
    ("modify n(red) by 1 until end of turn 0 times", "E242", "'0 times' never comes"),
    ("modify n(red) by 1 until end of turn 99999999999999999999 times", "E105",
     "number too large"),
    ("modify n(red) by 1 until end of trun", "E203", "unknown event 'trun'"),
    ("modify n(red) by 1 until end of turn or reshufle", "E203", "unknown event 'reshufle'"),
    ("modify n(red) by 1 until end of outermost tunr", "E203", "unknown event 'tunr'"),
    ("modify n(red) by 1 until reshufle 2 times", "E203", "unknown event 'reshufle'"),
    ("let y = 1\n    set y = 2 until end of turn", "E243", "a local or an item of a list"),
    ("set xs[0] = 2 until end of turn", "E243", "a local or an item of a list"),
    ("set x = 2 while x > 1", "E243", "not 'while'"),
    ("set x = true until end of turn", "E220", "cannot assign bool to int"),
    ("set x = 1 until end of tunr", "E203", "unknown event 'tunr'"),
    ("set nothing = 1 until end of turn", "E226", "cannot assign to 'nothing'"),
])
def test_checker_rejects_modifiers_that_do_not_fit(write_pack, stmt, code, words):
    got = diagnostics(write_pack, CHECK_BASE + "    " + stmt + "\n")
    assert any(c == code and words in m for c, m, _line in got), got


def test_unknown_duration_event_suggests_the_name(write_pack):
    from engine.core.loader import load_pack as load
    with pytest.raises(DslError) as err:
        load(write_pack(CHECK_BASE + "    modify n(red) by 1 until end of turn or reshufle\n"))
    d = err.value.diagnostics[0]
    assert d.code == "E203" and d.line == CHECK_BASE.lstrip("\n").count("\n") + 1
    assert d.line_text[d.col - 1:d.end_col - 1] == "reshufle"  # the event itself
    assert "reshuffle" in (d.suggestion or "")


@pytest.mark.parametrize("stmt", [
    "modify n(red) to 3 until end of turn",
    "modify n(red) at least 2",
    "modify n(red) at most 4 while x > 1",
    "modify flag(blue) to false until end of outermost turn",
    "modify label() to \"b\" until reshuffle 2 times or end of turn",
    "modify maybe() to 3",
    "modify maybe() to none",
    "set x = 3 until end of turn or reshuffle",
])
def test_checker_accepts_what_fits(inline_pack, stmt):
    inline_pack(CHECK_BASE + "    " + stmt + "\n")


def test_soft_words_stay_names(inline_pack):
    """`at`, `least`, `most`, `time` and `times` are words only inside `modify` and a
    duration: packs keep them as names (a var `at`, an event `times`)."""
    pack = inline_pack("""
        var active: side = red
        var at: int = 1
        var most: int = 2
        value least(): int = 3
        event times()
        event time()
        on setup:
            let times_ = at
            modify least() at least at until end of times 2 times
            modify least() at most most until time
            log "v", least(), times_
            end game
    """)
    assert says(pack.new_game(0)) == ["v 2 1"]


# ---- 2. the order of application ----------------------------------------------------------------

def test_order_of_application(inline_pack):
    """base -> latest override -> every `by` -> highest `at least` -> lowest `at most`,
    whatever order the modifiers were made in."""
    pack = inline_pack("""
        var active: side = red
        var calm: bool = false
        value v(): int = 5
        value w(): int = 5
        on setup:
            modify v() by 3
            modify v() to 10
            modify v() at most 6
            modify v() to 0
            modify v() by -1
            modify v() at least 4
            modify v() at least 1
            modify v() at most 8
            log "clamped up", v()
            modify v() at least 9
            log "at most wins", v()
            modify w() to 1
            modify w() to 20 while calm
            modify w() by 2
            log "latest override that applies", w()
            calm = true
            log "calm", w()
            end game
    """)
    # 0 (latest to) + 3 - 1 = 2; at least 4 -> 4; at most 6 -> 4
    # then at least 9 -> 9; at most 6 -> 6
    assert says(pack.new_game(0)) == ["clamped up 4", "at most wins 6",
                                      "latest override that applies 3", "calm 22"]


def test_modifiers_apply_to_their_arguments_only(inline_pack):
    pack = inline_pack("""
        var active: side = red
        value hand(s: side): int = 5
        value may(s: side, n: int): bool = true
        on setup:
            modify hand(red) to 2
            modify may(blue, 3) to false
            log "v", hand(red), hand(blue), may(blue, 3), may(blue, 4), may(red, 3)
            end game
    """)
    assert says(pack.new_game(0)) == ["v 2 5 False True True"]


# ---- 3. durations -------------------------------------------------------------------------------

def test_until_a_or_b(inline_pack):
    pack = inline_pack("""
        var active: side = red
        value v(): int = 0
        event turn()
        event reshuffle()
        on setup:
            modify v() by 1 until end of turn or reshuffle
            modify v() by 10 until reshuffle or end of turn
            emit reshuffle()
            log "after reshuffle", v()
            modify v() by 100 until end of turn or reshuffle
            emit turn()
            log "after turn", v()
            end game
        on reshuffle():
            log "in reshuffle", v()
    """)
    assert says(pack.new_game(0)) == ["in reshuffle 0", "after reshuffle 0", "after turn 0"]


def test_until_end_of_the_second_turn(inline_pack):
    """`until end of turn 2 times` made during a turn: that turn's end is the first (a turn
    nested inside it does not count), the next turn's end the second."""
    pack = inline_pack("""
        var active: side = red
        value v(): int = 0
        event turn(n: int)
        event reshuffle()
        on setup:
            emit turn(1)
            log "after turn 1", v()
            emit turn(2)
            log "after turn 2", v()
            modify v() by 5 until reshuffle 2 times
            emit reshuffle()
            log "after 1 reshuffle", v()
            emit reshuffle()
            log "after 2 reshuffles", v()
            end game
        on turn(n):
            if n == 1:
                modify v() by 1 until end of turn 2 times
                emit turn(9)
                log "after nested", v()
    """)
    assert says(pack.new_game(0)) == ["after nested 1", "after turn 1 1", "after turn 2 0",
                                      "after 1 reshuffle 5", "after 2 reshuffles 0"]


def test_until_end_of_outermost(inline_pack):
    """`outermost` binds to the outermost running instance; plain `until end of` to the
    innermost."""
    pack = inline_pack("""
        var active: side = red
        value outer(): int = 0
        value inner(): int = 0
        event battle(n: int)
        on setup:
            emit battle(1)
            log "after all", outer(), inner()
            end game
        on battle(n):
            if n < 3:
                emit battle(n + 1)
                log "after battle", n + 1, outer(), inner()
            else:
                modify outer() by 1 until end of outermost battle
                modify inner() by 1 until end of battle
    """)
    assert says(pack.new_game(0)) == ["after battle 3 1 0", "after battle 2 1 0",
                                      "after all 0 0"]


def test_outermost_outside_any_instance_is_the_next_to_end(inline_pack):
    pack = inline_pack("""
        var active: side = red
        value v(): int = 0
        event battle()
        on setup:
            modify v() by 1 until end of outermost battle
            emit battle()
            log "after", v()
            end game
    """)
    assert says(pack.new_game(0)) == ["after 0"]


# ---- temporary assignment -----------------------------------------------------------------------

def test_set_until_restores(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var rsm: int in 0..13 = 10
        var score[s: side]: int = 0
        event turn()
        on setup:
            set rsm = 3 until end of turn
            set score[blue] = 7 until end of turn
            log "set", rsm, score[blue], score[red]
            emit turn()
            log "restored", rsm, score[blue]
            set rsm = 99 until end of turn
            log "clamped", rsm
            emit turn()
            log "again", rsm
            end game
        on turn():
            log "in turn", rsm
    """)
    assert says(pack.new_game(0)) == ["set 3 7 0", "in turn 3", "restored 10 0", "clamped 13",
                                      "in turn 13", "again 10"]


def test_set_until_written_meanwhile_keeps_the_newer_value(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var x: int = 1
        event turn()
        on setup:
            set x = 2 until end of turn
            emit turn()
            log "after", x
            end game
        on turn():
            x = 5
    """)
    assert says(pack.new_game(0)) == ["after 5"]


def test_set_until_nested_sets_restore_the_value_from_before_both(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var x: int = 0
        event round()
        event turn()
        on setup:
            set x = 1 until end of round
            set x = 2 until end of turn
            emit round()
            log "round over, turn still on", x
            emit turn()
            log "both over", x
            set x = 1 until end of round
            set x = 2 until end of round
            emit round()
            log "together", x
            end game
    """)
    assert says(pack.new_game(0)) == ["round over, turn still on 2", "both over 0",
                                      "together 0"]


def test_set_until_of_a_private_var_is_not_shown_to_the_other_side(inline_pack):
    pack = inline_pack("""
        var active: side = red
        var secret[s: side]: int = 0 private
        event turn()
        on setup:
            set secret[red] = 4 until end of turn
            emit turn()
            end game
    """)
    game = pack.new_game(0)
    mine = [e for e in game.view("red")["log"] if e["t"] == "set"]
    theirs = [e for e in game.view("blue")["log"] if e["t"] == "set"]
    assert [e["v"] for e in mine] == [4, 0]
    assert theirs == []


# ---- save and load in the middle of a duration -------------------------------------------------

SAVED = """
var active: side = red
var rsm: int = 10
value v(): int = 0
value flag(): bool = true
event turn(n: int)
event battle(n: int)
event reshuffle()
on setup:
    modify v() by 1000 until reshuffle
    emit turn(1)
    log "after turn 1", v(), flag(), rsm
    emit turn(2)
    log "after turn 2", v(), flag(), rsm
    emit reshuffle()
    log "after reshuffle", v(), flag(), rsm
    end game
on turn(n):
    if n == 1:
        modify v() by 1 until end of turn 2 times
        modify flag() to false until end of turn or reshuffle
        set rsm = 3 until end of turn 2 times
        emit battle(1)
    let c = choose c from [1, 2] by red
    log "turn", n, c, v(), flag(), rsm
on battle(n):
    if n == 1:
        modify v() by 10 until end of outermost battle
        emit battle(2)
        log "battle over", n + 1, v()
    else:
        let c = choose c from [3, 4] by blue
"""


def _play_with_reload(pack, reload_at: set[int], verify: str) -> list[str]:
    game = pack.new_game(0)
    step = 0
    while not game.over:
        if step in reload_at:
            game = Game.load(pack, game.save(), verify=verify)
        game.apply(game.legal_actions()[0])
        step += 1
    return says(game)


@pytest.mark.parametrize("verify", ["replay", "digest"])
def test_durations_survive_save_and_load(inline_pack, verify):
    pack = inline_pack(SAVED)
    straight = _play_with_reload(pack, set(), verify)
    assert straight == [
        "battle over 2 1011", "turn 1 1 1001 False 3", "after turn 1 1001 True 3",
        "turn 2 1 1001 True 3", "after turn 2 1000 True 10", "after reshuffle 0 True 10"]
    for at in range(3):
        assert _play_with_reload(pack, {at}, verify) == straight


def test_saved_durations_are_plain_data(inline_pack):
    pack = inline_pack(SAVED)
    game = pack.new_game(0)  # waiting in battle 2, inside battle 1, inside turn 1
    mods = json.loads(game.save())["state"]["mods"]
    assert mods == [
        {"value": "v", "key": "", "amount": 1000, "dur": ["start", "reshuffle"]},
        {"value": "v", "key": "", "amount": 1, "dur": ["end", "turn", 1, 2]},
        {"value": "flag", "key": "", "op": "to", "amount": False,
         "dur": ["any", [["end", "turn", 1], ["start", "reshuffle"]]]},
        {"var": "rsm", "key": "", "was": 10, "now": 3, "dur": ["end", "turn", 1, 2]},
        {"value": "v", "key": "", "amount": 10, "dur": ["end", "battle", 2]},
    ]


@pytest.mark.parametrize("change, where", [
    (lambda m: m[0].update(amount="many"), "state.mods[0].amount"),
    (lambda m: m[1].update(dur=["end", "turn", 1, 0]), "state.mods[1].dur"),
    (lambda m: m[1].update(dur=["end", "turn"]), "state.mods[1].dur"),
    (lambda m: m[2].update(op="double"), "state.mods[2].op"),
    (lambda m: m[2].update(dur=["any", [["while", "while_1", {}]]]), "state.mods[2].dur[1][0]"),
    (lambda m: m[2].update(dur=["any", [["start", "reshufle"]]]), "state.mods[2].dur[1][0][1]"),
    (lambda m: m[3].update(var="nothing"), "state.mods[3].var"),
    (lambda m: m[3].update(key="red"), "state.mods[3].key"),
    (lambda m: m[3].pop("was"), "state.mods[3].was"),
])
def test_damaged_saved_modifiers_are_located(inline_pack, change, where):
    pack = inline_pack(SAVED)
    data = json.loads(pack.new_game(0).save())
    change(data["state"]["mods"])
    with pytest.raises(SaveError) as err:
        Game.load(pack, json.dumps(data), verify="digest")
    assert str(err.value).startswith(where), str(err.value)


# ---- 4. the formatter prints every new form -----------------------------------------------------

FORMS = """\
on setup:
    modify v(s) by -1 until end of turn
    modify v(s) to 3 until end of outermost battle or reshuffle
    modify v(s) at least 2 until end of turn 2 times
    modify v(s) at most 5 until reshuffle 3 times or end of outermost round 2 times
    modify ok(rome) to false while x > 1
    set rsm = 3 until end of turn
    set score[red] = score[red] + 1 until end of turn or deal
"""


def test_formatter_prints_every_new_form():
    assert format_source(FORMS) == FORMS
    messy = FORMS.replace("at least", "at   least").replace(" 2 times", " 2 time")
    assert format_source(messy) == FORMS
    assert parse_module(format_source(messy)) == parse_module(FORMS)


def test_one_time_is_the_plain_duration():
    once = "on setup:\n    modify v() by 1 until end of turn 1 time\n"
    assert format_source(once) == "on setup:\n    modify v() by 1 until end of turn\n"


def test_parse_error_names_the_new_words():
    with pytest.raises(DslError) as err:
        parse_module("on setup:\n    modify v() at lest 2\n")
    assert "'at least'" in err.value.diagnostics[0].message


# ---- the docs' example is valid code ------------------------------------------------------------

def test_docs_example_checks_and_runs(inline_pack):
    text = (REPO / "docs" / "language.md").read_text(encoding="utf-8")
    section = text[text.index("### Modifiers and durations"):]
    example = re.search(r"\n```\n(.*?)```", section, re.S).group(1)
    assert "until end of outermost battle" in example
    pack = inline_pack(textwrap.dedent(example) + textwrap.dedent("""
        on setup:
            emit turn(red)
            log "after", hand_size(red), hand_size(blue), may_sea_move(red), rsm
            emit turn(blue)
            log "after 2", hand_size(red), hand_size(blue), rsm
            emit battle(red)
            log "after battle", commander(red)
            end game
        after battle(at):
            log "in battle", commander(at)
    """), {"leaders.yaml": """
        leader:
          - id: scipio
            side_of: red
    """})
    assert says(pack.new_game(0)) == ["after 4 5 True 10", "after 2 5 4 10", "in battle None",
                                      "after battle scipio"]
