"""Pieces and stacks (issue 9, item 6): var fields of records, records made and destroyed in
play, zones and vars indexed by them, and the stack idiom of docs/language.md ("Pieces and
stacks"), played with hand-computed answers; the errors a designer gets; saves, undo and
views with such records; and that a pack using none of it is compiled and run as before."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import EngineFault, SaveError
from engine.core.game import Game
from engine.dsl.build import build_pack
from engine.dsl.errors import render_text
from engine.dsl.formatter import format_source
from engine.dsl.parser import parse_module

ROOT = Path(__file__).resolve().parent.parent
SIDES = ("carthage", "rome")


def doc_blocks() -> list[str]:
    """The code blocks of the "Pieces and stacks" section of docs/language.md."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text[text.index("## Pieces and stacks"):]
    section = section[:section.index("\n## ")]
    return re.findall(r"```\n(.*?)```", section, re.S)


LIBRARY = doc_blocks()[1]  # types, zones and procedures of the worked example
EXAMPLE = doc_blocks()[2]  # the rulebook's §8.7 example, statements

RECORDS = """
space:
  - {id: a}
  - {id: b}
  - {id: c}
  - {id: d}
  - {id: e}
road:
  - {id: ab, a: a, b: b}
  - {id: bc, a: b, b: c}
  - {id: cd, a: c, b: d, cost: 2}
  - {id: de, a: d, b: e}
leader:
  - {id: hannibal, side: carthage, battle: 4}
  - {id: gisgo, side: carthage, battle: 0}
  - {id: mago, side: carthage, battle: 12}
  - {id: fabius, side: rome, battle: 3}
"""


def stack_pack(inline_pack, rules: str) -> Any:
    return inline_pack(LIBRARY + "\n" + rules, RECORDS, sides=SIDES)


def fields(game: Game, rid: str) -> dict[str, Any]:
    return game.state["f"][rid]


def armies(game: Game) -> dict[str, str]:
    """commander -> army id, of every live army."""
    return {fields(game, a)["commander"]: a for a in game.state["made"]["army"]}


def indented(code: str, by: str = "    ") -> str:
    return "".join(by + line if line.strip() else line for line in code.splitlines(True))


# ---- syntax ------------------------------------------------------------------------------------

def test_formatter_prints_the_new_syntax() -> None:
    messy = ("type unit   created :\n  side : side\n  var moved:int in 0 .. 2+2=0  # four\n"
             "type token created\n"
             "on setup:\n  let u = create unit with side=red , moved = (1) to top of pool\n"
             "  create token\n  u.moved+=1\n  destroy [u]\n")
    expected = ("type unit created:\n    side: side\n    var moved: int in 0..2 + 2 = 0  # four\n"
                "\ntype token created\n"
                "\non setup:\n    let u = create unit with side = red, moved = 1 to top of pool\n"
                "    create token\n    u.moved += 1\n    destroy [u]\n")
    assert format_source(messy) == expected
    assert format_source(expected) == expected
    assert parse_module(expected) == parse_module(messy)


def test_a_field_given_twice_is_a_syntax_error(write_pack) -> None:
    b = build_pack(write_pack("type unit created\non setup:\n    create unit with a = 1, a = 2\n"))
    d = [d for d in b.diagnostics if d.code == "E103"]
    assert d and "field 'a' given twice" in d[0].message and d[0].line == 3


# ---- the worked example of the docs ------------------------------------------------------------

def test_docs_example_is_canonical_text() -> None:
    assert format_source(LIBRARY) == LIBRARY
    parse_module("procedure p(h: army):\n" + indented(EXAMPLE))


def test_leader_drops_subordinates_and_units_stay_within_4_spaces(inline_pack) -> None:
    """§8.7 and §8.4.1: Hannibal with Gisgo and Mago and six CUs (two of them moved one
    space earlier this card; two are elephants) goes A-B-C-(pass, 2)-D-E, dropping Gisgo in
    C and Mago with two CUs in D.
    a->b (1): cu1, cu2 at 2; cu3..cu6 at 1.   b->c (1): 3 / 2.   Gisgo stays in C.
    c->d (2): cu1, cu2 would be at 5: they stay in C (at 3); cu3..cu6 at 4.
    Mago takes the first two left (cu3, cu4) in D.
    d->e (1): cu5, cu6 would be at 5: they stay in D (at 4). Hannibal reaches E alone."""
    p = stack_pack(inline_pack, """
var active: side = carthage
procedure example(h: army):
""" + indented(EXAMPLE) + """
on setup:
    let h = form(carthage, a, hannibal)
    move [gisgo, mago] to staff[h]
    repeat 4:
        create cu with side = carthage to troops[h]
    repeat 2:
        create cu with side = carthage, elephant = true to troops[h]
    for u in take(troops[h], 2):
        u.moved = 1
    example(h)
""")
    g = p.new_game(0)
    assert g.over
    z = g.state["z"]
    assert armies(g) == {"hannibal": "army#1", "gisgo": "army#2", "mago": "army#3"}
    at = {a: fields(g, a)["at"] for a in g.state["made"]["army"]}
    assert at == {"army#1": "e", "army#2": "c", "army#3": "d"}
    assert z["staff|army#1"] == ["hannibal"]
    assert z["staff|army#2"] == ["gisgo"] and z["troops|army#2"] == []
    assert z["staff|army#3"] == ["mago"] and z["troops|army#3"] == ["cu#3", "cu#4"]
    assert z["troops|army#1"] == []
    assert z["garrison|c"] == ["cu#1", "cu#2"]
    assert z["garrison|d"] == ["cu#5", "cu#6"]
    assert {u: fields(g, u)["moved"] for u in g.state["made"]["cu"]} == {
        "cu#1": 3, "cu#2": 3, "cu#3": 4, "cu#4": 4, "cu#5": 4, "cu#6": 4}
    assert [u for u in g.state["made"]["cu"] if fields(g, u)["elephant"]] == ["cu#5", "cu#6"]


MARCH = """
var active: side = carthage
procedure march(h: army, route: list of space):
    for s in route:
        step(h, s)
        pick_up(h)
on setup:
    let h = form(carthage, a, hannibal)
    repeat 8:
        create cu with side = carthage to troops[h]
    repeat 3:
        create cu with side = carthage to garrison[b]
    for u in garrison[b]:
        u.moved = 3
    first(garrison[b]).moved = 4
    create cu with side = carthage, elephant = true to garrison[c]
    march(h, [b, c, d])
    let again = ask carthage "A new card?"
    if again:
        new_card()
"""


def test_picking_up_and_dropping_units_on_the_march(inline_pack) -> None:
    """§8.2 and §8.4.1: an army of 8 CUs marches A-B-C-(pass, 2)-D.
    In B stand cu9 (moved 4 already: it cannot join), cu10 and cu11 (moved 3): room for 2;
    it takes cu11. B->C: cu11 reaches 4. In C it takes the elephant cu12 (room for 1).
    C->D costs 2: cu11 (4 + 2 > 4) stays in C; the eight reach 4, the elephant 2."""
    p = stack_pack(inline_pack, MARCH)
    g = p.new_game(0)
    d = g.decision
    assert (d.side, d.kind, d.min, d.max) == ("carthage", "many", 0, 2)
    assert d.options == ["cu#10", "cu#11"]
    g.apply(["cu#11"])
    d = g.decision
    assert d.options == ["cu#12"] and d.max == 1
    g.apply(["cu#12"])
    assert g.decision.kind == "ask"  # nobody stands in D: no question there
    z = g.state["z"]
    assert z["garrison|b"] == ["cu#9", "cu#10"]
    assert z["garrison|c"] == ["cu#11"]
    assert z["garrison|d"] == []
    assert z["troops|army#1"] == [f"cu#{i}" for i in range(1, 9)] + ["cu#12"]
    assert fields(g, "army#1")["at"] == "d"
    moved = {u: fields(g, u)["moved"] for u in g.state["made"]["cu"]}
    assert moved == {**{f"cu#{i}": 4 for i in range(1, 9)}, "cu#9": 4, "cu#10": 3,
                     "cu#11": 4, "cu#12": 2}
    g.apply(True)
    assert g.over and all(fields(g, u)["moved"] == 0 for u in g.state["made"]["cu"])


def test_save_and_load_mid_march_continue_identically(inline_pack) -> None:
    p = stack_pack(inline_pack, MARCH)
    g = p.new_game(3)
    g.apply(["cu#10"])
    text = g.save()
    loaded = Game.load(p, text)
    assert loaded.save() == text
    for game in (g, loaded):
        game.apply(game.decision.options[:1])
        while not game.over:
            game.apply(game.legal_actions()[0])
    assert loaded.save() == g.save()
    assert g.state["made"]["cu"] == [f"cu#{i}" for i in range(1, 13)]
    assert all(fields(g, u)["moved"] == 0 for u in g.state["made"]["cu"])


def test_undo_restores_records_made_destroyed_and_changed(inline_pack) -> None:
    p = inline_pack("""
type cu created:
    side: side
    var moved: int = 0
zone pool of cu
var active: side = carthage
on setup:
    create cu with side = carthage to pool
    create cu with side = carthage to pool
    while count(pool) > 0:
        let u = choose u from pool optional
        if u == none:
            break
        u.moved += 3
        destroy u
        create cu with side = rome
""", sides=SIDES)
    g = p.new_game(0)
    before = json.dumps(g.state, sort_keys=True)
    views = {s: g.view(s) for s in SIDES}
    g.apply("cu#1")
    assert g.state["made"]["cu"] == ["cu#2", "cu#3"]
    assert g.can_undo("carthage")
    g.undo("carthage")
    assert json.dumps(g.state, sort_keys=True) == before
    assert {s: g.view(s) for s in SIDES} == views
    assert g.state["made"]["cu"] == ["cu#1", "cu#2"] and g.state["serial"]["cu"] == 2
    g.apply("cu#2")
    assert g.state["made"]["cu"] == ["cu#1", "cu#3"]


def test_detaching_part_of_an_army_to_intercept(inline_pack) -> None:
    """§9.5: Mago (battle 12: the roll of a die always succeeds) leaves with 3 of 5 CUs and
    steps from B to C; Gisgo (battle 0: it always fails) tries with 2 CUs: they merge back."""
    p = stack_pack(inline_pack, """
var active: side = carthage
var result: army? = none
on setup:
    let h = form(carthage, b, hannibal)
    move [gisgo, mago] to staff[h]
    repeat 5:
        create cu with side = carthage to troops[h]
    result = intercept(h, c)
    let again = intercept(h, c)
    log "second", again
""")
    g = p.new_game(0)
    d = g.decision
    assert (d.kind, d.options, d.optional) == ("one", ["gisgo", "mago"], True)
    g.apply("mago")
    assert g.decision.kind == "many" and g.decision.options == [f"cu#{i}" for i in range(1, 6)]
    g.apply(["cu#2", "cu#3", "cu#5"])
    assert g.var("result") == "army#2"
    z = g.state["z"]
    assert fields(g, "army#2") == {"side": "carthage", "at": "c", "commander": "mago"}
    assert z["troops|army#2"] == ["cu#2", "cu#3", "cu#5"]
    assert z["staff|army#2"] == ["mago"]
    assert z["troops|army#1"] == ["cu#1", "cu#4"] and fields(g, "army#1")["at"] == "b"
    assert [fields(g, f"cu#{i}")["moved"] for i in range(1, 6)] == [0, 1, 1, 0, 1]
    # the second attempt, with Gisgo and both remaining units, fails and merges back
    assert g.decision.options == ["gisgo"]
    g.apply("gisgo")
    g.apply(["cu#1", "cu#4"])
    assert g.over
    assert g.state["made"]["army"] == ["army#1", "army#2"]  # army#3 was made and destroyed
    assert g.state["serial"]["army"] == 3
    assert "troops|army#3" not in g.state["z"] and "army#3" not in g.state["f"]
    assert g.state["z"]["troops|army#1"] == ["cu#1", "cu#4"]
    assert g.state["z"]["staff|army#1"] == ["hannibal", "gisgo"]
    assert [e for e in g.log if e["t"] == "say"][-1]["a"] == [None]


def test_elephants_take_losses_first(inline_pack) -> None:
    """§13.2: 3 CUs and 2 elephants lose 3: both elephants, then the oldest CU."""
    p = stack_pack(inline_pack, """
var active: side = carthage
on setup:
    let h = form(carthage, a, hannibal)
    repeat 3:
        create cu with side = carthage to troops[h]
    repeat 2:
        create cu with side = carthage, elephant = true to troops[h]
    lose(h, 3)
    log "left", troops[h], count(cu)
""")
    g = p.new_game(0)
    assert g.state["z"]["troops|army#1"] == ["cu#2", "cu#3"]
    assert g.state["made"]["cu"] == ["cu#2", "cu#3"]
    assert [e["e"] for e in g.log if e["t"] == "destroy"] == ["cu#4", "cu#5", "cu#1"]
    assert [e for e in g.log if e["t"] == "say"][-1]["a"] == [["cu#2", "cu#3"], 2]


def test_merge_moves_members_and_destroys_the_stack(inline_pack) -> None:
    p = stack_pack(inline_pack, """
var active: side = carthage
on setup:
    let h = form(carthage, a, hannibal)
    let m = form(carthage, a, mago)
    create cu with side = carthage to troops[h]
    create cu with side = carthage to troops[m]
    create cu with side = carthage to troops[m]
    merge(h, m)
""")
    g = p.new_game(0)
    assert g.state["made"]["army"] == ["army#1"]
    assert g.state["z"]["troops|army#1"] == ["cu#1", "cu#2", "cu#3"]
    assert g.state["z"]["staff|army#1"] == ["hannibal", "mago"]
    assert not any(k.endswith("army#2") for k in g.state["z"])


# ---- var fields ------------------------------------------------------------------------------

def test_var_fields_of_pack_records(inline_pack) -> None:
    p = inline_pack("""
type space:
    size: int
    var siege: int in 0..3 = 0
    var left: int = self.size * 2
    var owner: side?
    var marks: list of text
var active: side = red
on setup:
    capua.siege += 5
    roma.siege -= 1
    capua.owner = blue
    capua.marks += ["x"]
    capua.marks[0] = "y"
    roma.left -= 1
    log "read", capua.siege, roma.siege, capua.left, roma.left, capua.owner, attribute(roma,
        "left")
""", """
space:
  - {id: capua, size: 2}
  - {id: roma, size: 5, siege: 2, owner: red}
""")
    g = p.new_game(0)
    f = g.state["f"]
    assert f["capua"] == {"siege": 3, "left": 4, "owner": "blue", "marks": ["y"]}
    assert f["roma"] == {"siege": 1, "left": 9, "owner": "red", "marks": []}
    assert [e for e in g.log if e["t"] == "say"][0]["a"] == [3, 1, 4, 9, "blue", 9]
    assert {"t": "setf", "e": "capua", "f": "siege", "v": 3, "at": None} in g.log
    assert g.view("blue")["fields"] == f  # records in no zone: everybody sees them
    assert p.records["roma"]["siege"] == 2  # the pack's data is not changed by play


def test_records_made_in_play(inline_pack) -> None:
    p = inline_pack("""
type unit created:
    side: side
    strength: int = 2
    tag: text = "new"
    var hits: int in 0..5
zone pool of unit ordered
zone cargo[u: unit] of unit
var score[u: unit]: int = u.strength * 10
var active: side = red
on setup:
    let u = create unit with side = red
    let v = create unit with side = blue, strength = 4 to pool
    let w = create unit with side = red, hits = 9 to top of pool
    move u to cargo[v]
    score[w] += 1
    log "made", unit, count(unit), u.strength, v.strength, w.hits, v.name, v.id, zone_of(u)
    move u to pool
    destroy v
    destroy [w]
    log "left", unit
""")
    g = p.new_game(0)
    st = g.state
    says = [e["a"] for e in g.log if e["t"] == "say"]
    assert says[0] == [["unit#1", "unit#2", "unit#3"], 3, 2, 4, 5, "unit#2", "unit#2",
                       "cargo|unit#2"]
    assert says[1] == [["unit#1"]]
    assert st["made"] == {"unit": ["unit#1"]} and st["serial"] == {"unit": 3}
    assert st["f"] == {"unit#1": {"side": "red", "strength": 2, "tag": "new", "hits": 0}}
    assert st["z"] == {"pool": ["unit#1"], "cargo|unit#1": []}
    assert st["v"]["score"] == {"unit#1": 20}
    assert st["loc"] == {"unit#1": "pool"}
    kinds = [(e["t"], e.get("e")) for e in g.log if e["t"] in ("create", "destroy")]
    assert kinds == [("create", "unit#1"), ("create", "unit#2"), ("create", "unit#3"),
                     ("destroy", "unit#2"), ("destroy", "unit#3")]
    assert {"t": "set", "n": "score", "k": "unit#3", "v": 21, "at": ["pool"]} in g.log


def test_a_record_changes_its_own_fields_in_its_rules(inline_pack) -> None:
    p = inline_pack("""
type card:
    uses: int
    var left: int = self.uses
    reacts: triggers?
    effect: effect?
var active: side = red
event tick()
on setup:
    repeat 3:
        emit tick()
    run(c1.effect)
""", """
card:
  - id: c1
    uses: 2
    reacts: |
      after tick() if self.left > 0:
          self.left -= 1
    effect: |
      self.left += 10
""")
    g = p.new_game(0)
    assert g.state["f"] == {"c1": {"left": 10}}
    assert [e["v"] for e in g.log if e["t"] == "setf"] == [1, 0, 10]


@pytest.mark.parametrize("body, message", [
    ("let u = create unit\n    let v = create unit to cargo[u]\n    destroy u",
     "cannot destroy unit#1: zone cargo|unit#1 still holds 1 record; move or destroy them "
     "first"),
    ("let u = create unit\n    destroy u\n    destroy u", "(unit#1 was destroyed)"),
    ("let u = create unit\n    destroy u\n    log \"h\", u.hits", "unit#1"),
    ("let u = create unit\n    destroy u\n    u.hits = 1", "unit#1 has no field 'hits' to set"),
    ("let u = create unit\n    destroy u\n    move u to pool", "unit#1 was destroyed"),
    ("repeat 11:\n        create unit", "more than 10 records of type 'unit'"),
])
def test_run_time_faults_name_the_record(inline_pack, body: str, message: str) -> None:
    p = inline_pack("""
type unit created:
    var hits: int
zone pool of unit
zone cargo[u: unit] of unit
var active: side = red
on setup:
    """ + body + "\n")
    from engine.core.limits import Limits
    with pytest.raises(EngineFault) as err:
        p.new_game(0, limits=Limits(list_size=10))
    assert message in str(err.value)
    assert "rules.rules:" in str(err.value)


# ---- errors a designer gets --------------------------------------------------------------------

ERR_BASE = """
type space:
    port: bool = false
    var siege: int = 0
type unit created:
    side: side
    big: bool = false
    var moved: int = 0
zone pool of unit
zone deck of space
var active: side = red
on setup:
"""


@pytest.mark.parametrize("line, code, text, hint", [
    ("capua.port = true", "E226", "'port' of space is fixed",
     "declare it 'var port: bool' in type space"),
    ("capua.sege = 1", "E205", "unknown field of space 'sege'", "siege"),
    ("let x = capua.sige", "E205", "unknown field of space 'sige'", "siege"),
    ("capua.siege = \"high\"", "E220", "cannot assign text to int", None),
    ("capua.siege += true", "E220", "'+=' needs an int, got bool", None),
    ("let u = create unit with side = red\n    u.big = true", "E226", "'big' of unit is fixed",
     None),
    ("let u = create space", "E270", "records of type 'space' come from the pack's record "
     "files", None),
    ("let u = create unti with side = red", "E202", "unknown type 'unti'", "unit"),
    ("let u = create unit", "E272", "'create unit' needs side", None),
    ("let u = create unit with side = red, moves = 1", "E205", "unknown field of unit "
     "'moves'", "moved"),
    ("let u = create unit with side = 3", "E220", "field 'side' of unit is side, got int",
     None),
    ("let u = create unit with side = red to deck", "E220", "a zone of space cannot hold a "
     "unit", None),
    ("let u = create unit with side = red to capua", "E222", "'create' needs a zone", None),
    ("destroy capua", "E271", "'space' records come from the pack's record files", None),
    ("destroy 3", "E271", "got int", None),
    ("[1][0].x = 2", "E214", "int has no fields", None),
])
def test_errors(write_pack, line: str, code: str, text: str, hint: str | None) -> None:
    root = write_pack(ERR_BASE + "    " + line + "\n", "space:\n  - {id: capua}\n")
    b = build_pack(root)
    found = [d for d in b.diagnostics if d.code == code]
    assert found, render_text(b.diagnostics)
    d = found[0]
    assert text in d.message, d.message
    assert d.path.endswith("rules.rules") and d.line >= 12
    if hint is not None:
        assert hint in (d.suggestion or ""), d.suggestion


def test_declaration_errors(write_pack) -> None:
    root = write_pack("""
type space:
    var plan: effect?
    var name2: text in 0..3
type unit created:
    side: side
    orders: effect?
type road created:
    a: space
    b: space
graph bad of space via road
var active: side = red
on setup:
    pass
""", """
space:
  - {id: capua}
unit:
  - {id: u1, side: red}
""")
    b = build_pack(root)
    got = {(d.code, d.line) for d in b.diagnostics}
    assert ("E274", 2) in got  # a var field holding rules
    assert ("E274", 3) in got  # bounds on text
    assert ("E274", 6) in got  # a created record's effect field
    assert ("E275", 10) in got  # a graph over a created type
    e273 = [d for d in b.diagnostics if d.code == "E273"]
    assert e273 and e273[0].path.endswith("records.yaml") and e273[0].line == 3
    assert "made in play by rules ('create unit ...')" in e273[0].message


def test_a_var_field_default_is_checked(write_pack) -> None:
    b = build_pack(write_pack("""
type space:
    var siege: int = self.name
var active: side = red
on setup:
    pass
""", "space:\n  - {id: capua}\n"))
    d = [d for d in b.diagnostics if d.code == "E220"]
    assert d and d[0].line == 2 and "the default must be int, got text" in d[0].message


# ---- views and undo with hidden records -------------------------------------------------------

HIDDEN = """
type unit created:
    side: side
    var power: int = 1
zone reserve[s: side] of unit private
zone kit[u: unit] of unit
var bonus[u: unit]: int = 0
var active: side = red
on setup:
    let u = create unit with side = blue to reserve[blue]
    u.power = 7
    bonus[u] = 2
    let v = create unit with side = red to reserve[red]
    create unit with side = red to reserve[red]
    create unit with side = red to kit[v]
    let w = create unit with side = red
    log "public", w
    let x = choose x from reserve[red] by red
    let y = ask red "go on?"
    log "power", u.power
    let z = ask red "again?"
"""


def test_views_hide_records_in_zones_a_side_cannot_see(inline_pack) -> None:
    """unit#1 lies in blue's private reserve, unit#2 and unit#3 in red's; unit#4 lies in
    the (public) kit of unit#2; unit#5 in no zone."""
    p = inline_pack(HIDDEN)
    g = p.new_game(0)
    red, blue = g.view("red"), g.view("blue")
    assert set(red["fields"]) == {"unit#2", "unit#3", "unit#4", "unit#5"}
    assert set(blue["fields"]) == {"unit#1", "unit#4", "unit#5"}
    assert blue["fields"]["unit#1"] == {"side": "blue", "power": 7}
    assert "kit|unit#1" not in red["zones"] and "kit|unit#1" in blue["zones"]
    assert "kit|unit#2" in red["zones"] and "kit|unit#2" not in blue["zones"]
    assert set(red["vars"]["bonus"]) == {"unit#2", "unit#3", "unit#4", "unit#5"}
    assert blue["vars"]["bonus"]["unit#1"] == 2
    red_log = [e for e in red["log"] if e["t"] in ("create", "setf", "set")]
    assert red_log[0] == {"t": "create", "e": None, "to": "reserve|blue"}
    assert {"t": "create", "e": "unit#4", "to": "kit|unit#2"} in red["log"]
    assert {"t": "create", "e": "unit#4", "to": None} in blue["log"]  # names unit#2
    assert {"t": "setf", "e": "unit#1", "f": "power", "v": 7} in blue["log"]
    assert {"t": "set", "n": "bonus", "k": "unit#1", "v": 2} in blue["log"]
    assert "unit#1" not in json.dumps(red) and "unit#1" not in json.dumps(g.view(None))
    assert "unit#2" not in json.dumps(blue) and "unit#3" not in json.dumps(blue)


def test_reading_a_hidden_record_ends_undo(inline_pack) -> None:
    p = inline_pack(HIDDEN)
    g = p.new_game(0)
    g.apply("unit#2")
    assert g.can_undo("red")  # the next question reads nothing hidden
    g.apply(True)  # ... but this answer reads a field of blue's hidden unit (from a local)
    assert not g.can_undo("red")


MOVED_OUT_OF_SIGHT = """
type unit created:
    side: side
    var power: int = 1
zone reserve[s: side] of unit private
zone field of unit
var active: side = red
var dice: int = 0
on setup:
    let u = create unit with side = blue to field
    let a = ask red "first?"
    log "power", u.power
    let b = ask red "second?"
    dice = roll(1, 6)
    move u to reserve[blue]
    let c = ask red "third?"
    if c:
        log "power", u.power
    let d = ask red "fourth?"
"""


@pytest.mark.parametrize("read", [True, False])
def test_a_record_seen_once_and_moved_out_of_sight_ends_undo_when_read(inline_pack,
                                                                        read) -> None:
    """Red reads unit#1's field while it lies in the open (undo stays); a die roll, then
    the unit goes into blue's private reserve; reading it there in a later decision
    ends red's undo, as a read of any hidden record does (engine.core.runtime.watchers.SeenFields
    keeps the records a side was found to see, and forgets one when it moves)."""
    g = inline_pack(MOVED_OUT_OF_SIGHT).new_game(0)
    g.apply(True)
    assert g.can_undo("red")
    g.apply(True)
    assert not g.can_undo("red")  # the die
    g.apply(read)
    assert g.can_undo("red") is not read
    if not read:
        g.undo("red")
        assert g.decision.prompt == "third?"


def test_a_destroyed_record_once_seen_is_gone_with_undo_on_too(inline_pack) -> None:
    """A field read of a record destroyed fails the same with undo on as off: the record
    a side was found to see is forgotten when it goes (engine.core.runtime.watchers.SeenFields)."""
    p = inline_pack("""
type unit created:
    side: side
    var power: int = 1
zone field of unit
var active: side = red
on setup:
    let u = create unit with side = blue to field
    let a = ask red "first?"
    log "power", u.power
    destroy u
    log "power", u.power
    let b = ask red "second?"
""")
    faults = []
    for undo in (True, False):
        g = p.new_game(0, undo=undo)
        with pytest.raises(EngineFault) as err:
            g.apply(True)
        faults.append(str(err.value))
        assert g.decision.prompt == "first?"  # and the game is as it was
    assert "rules.rules:11: KeyError: 'unit#1'" in faults[0] and faults[0] == faults[1]


def test_save_checks_records_made_in_play(inline_pack) -> None:
    p = inline_pack(HIDDEN)
    g = p.new_game(0)
    data = json.loads(g.save())
    Game.load(p, g.save(), verify="digest")

    def broken(change) -> str:
        d = json.loads(json.dumps(data))
        change(d["state"])
        from engine.core.saves import digest_of
        d["digest"] = digest_of(d["seed"], d["log"], d["actions"], d["state"])
        with pytest.raises(SaveError) as err:
            Game.load(p, json.dumps(d), verify="digest")
        return str(err.value)

    assert "state.made.unit[0]: 'unit#9' is not the id" in broken(
        lambda s: s["made"]["unit"].__setitem__(0, "unit#9"))
    assert "state.made.unit[1]: 'unit#1' is listed twice" in broken(
        lambda s: s["made"]["unit"].__setitem__(1, "unit#1"))
    assert "state.f" in broken(lambda s: s["f"].pop("unit#2"))
    assert "state.z" in broken(lambda s: s["z"].pop("kit|unit#2"))
    assert "state.v.bonus" in broken(lambda s: s["v"]["bonus"].pop("unit#3"))
    assert "state.serial: missing" in broken(lambda s: s.pop("serial"))
    assert "state.f['unit#1']: field of 'unit#1' 'power' is missing" in broken(
        lambda s: s["f"]["unit#1"].pop("power"))


# ---- a pack that uses none of this pays nothing -------------------------------------------------

def test_a_pack_without_record_state_runs_as_before(inline_pack) -> None:
    p = inline_pack("""
type card:
    power: int
var active: side = red
zone hand of card
on setup:
    move c1 to hand
    log "x", c1.power, c1.name, attribute(c1, "power")
""", "card:\n  - {id: c1, power: 3}\n")
    g = p.new_game(0)
    assert not {"f", "made", "serial"} & set(g.state)
    assert "fields" not in g.view("red")
    assert "G.f[" not in p.code and "init_" not in p.code.replace("INITS = {}", "")
    assert "RF_power['c1']" in p.code and "R['c1'].get('power')" in p.code
    assert g.rt.f is None and g.rt.made is None
