"""Types and names (issue 9, item 7): enums, consts, keyword arguments and defaults, typed
locals, the unused-`let` warning, prompts with placeholders, and choices made one item at a
time."""
from __future__ import annotations

import re
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from engine.core.game import Game
from engine.dsl.build import build_pack
from engine.dsl.errors import render_text
from engine.dsl.formatter import format_source
from engine.dsl.parser import parse_module
from engine.frontends.bots import RandomBot
from engine.frontends.terminal import action_label, describe_decision
from engine.i18n.translations import Catalog

REPO = Path(__file__).resolve().parent.parent


def build(write_pack, rules: str, records: Any = None):
    return build_pack(write_pack(rules, records))


def diags(b, code: str) -> list:
    return [d for d in b.diagnostics if d.code == code]


def one(b, code: str):
    found = diags(b, code)
    assert found, f"no {code} in:\n{render_text(b.diagnostics)}"
    return found[0]


def col_of(b, path_text: str, needle: str) -> int:
    """The 1-based column of `needle` on the line of a diagnostic's `line_text`."""
    return path_text.index(needle) + 1


# ---- enums ------------------------------------------------------------------------------
ENUM_RULES = """
enum tribe_kind: friendly, neutral
enum terrain:
    plain, hill  # on the map
    city
type space:
    kind: terrain = "plain"
    tribe: tribe_kind?
    kinds: list of terrain = []
var mood: tribe_kind = "neutral"
var seen[t: terrain]: int = 0
var found: list of terrain = []
value home(s: space): terrain = "city" if s.tribe == "friendly" else s.kind
procedure count_kind(k: terrain) -> int:
    return count(s in space where s.kind == k)
on setup:
    let k: terrain = "hill"
    for s in space:
        seen[s.kind] += 1
    found = [home(s) for s in space where s.kind in ["hill", "city"]]
    mood = "friendly" if count_kind(k) > 0 else "neutral"
    if terrain.city in found and count(terrain) == 3:
        win red
    end game
"""

ENUM_RECORDS = """
space:
  - {id: a1, kind: hill, tribe: friendly, kinds: [hill, city]}
  - {id: a2, kind: city}
  - {id: a3}
"""


def test_enums_type_fields_vars_params_values_and_lists(inline_pack):
    pack = inline_pack(ENUM_RULES, ENUM_RECORDS)
    g = pack.new_game(0)
    assert g.result.winner == "red"
    assert g.var("mood") == "friendly"
    assert g.var("found") == ["city", "city"]  # a1 is friendly: "city"; a2 is a city
    assert [g.var("seen", t) for t in ("plain", "hill", "city")] == [1, 1, 1]
    assert pack.records["a3"]["kind"] == "plain"  # the default, as plain text
    assert pack.call_value("home", "a1") == "city"
    with pytest.raises(TypeError):
        pack.call_value("home", "nowhere")


def test_a_misspelt_enum_value_in_rules_is_located_with_a_suggestion(write_pack):
    rules = ENUM_RULES.replace('s.tribe == "friendly"', 's.tribe == "freindly"')
    b = build(write_pack, rules, ENUM_RECORDS)
    d = one(b, "E280")
    assert "'freindly' is not a value of tribe_kind" in d.message
    assert d.suggestion == "did you mean 'friendly'?"
    assert d.col == col_of(b, d.line_text, '"freindly"') and d.end_col == d.col + 10
    # in a list literal, an assignment, an argument, a default and a qualified name too
    for old, new in [('["hill", "city"]', '["hill", "cty"]'),
                     ('mood = "friendly"', 'mood = "frendly"'),
                     ('let k: terrain = "hill"', 'let k: terrain = "hil"'),
                     ("terrain.city in found", "terrain.cty in found"),
                     ('var mood: tribe_kind = "neutral"', 'var mood: tribe_kind = "nuetral"'),
                     ('kind: terrain = "plain"', 'kind: terrain = "plane"')]:
        assert old in ENUM_RULES
        b = build(write_pack, ENUM_RULES.replace(old, new), ENUM_RECORDS)
        errors = [d.code for d in b.diagnostics if d.severity == "error"]
        assert errors == ["E280"], (new, render_text(b.diagnostics))


def test_an_enum_value_in_a_record_is_checked_where_it_is_written(write_pack):
    b = build(write_pack, ENUM_RULES, ENUM_RECORDS.replace("kind: city}", "kind: citty}"))
    d = one(b, "E280")
    assert d.path.endswith("records.yaml") and d.line == 3
    assert d.col == col_of(b, d.line_text, "citty") and d.suggestion == "did you mean 'city'?"
    b = build(write_pack, ENUM_RULES,
              ENUM_RECORDS.replace("kinds: [hill, city]", "kinds: [hill, 3]"))
    assert "expected one of terrain's values" in one(b, "E280").message


def test_enums_do_not_compare_with_text_or_other_enums(write_pack):
    for cond in ['s.kind == s.tribe', 's.kind == "x" + "y"', 'mood == s.kind']:
        rules = ENUM_RULES + f"check \"c\": every(s in space where not ({cond}))\n"
        b = build(write_pack, rules, ENUM_RECORDS)
        assert "E220" in [d.code for d in b.diagnostics], cond
    b = build(write_pack, ENUM_RULES.replace('let k: terrain = "hill"', 'let k: text = "hill"'),
              ENUM_RECORDS)
    message = one(b, "E220").message
    assert "argument 1 of procedure 'count_kind' must be terrain, got text" in message


def test_enum_declaration_problems(write_pack):
    b = build(write_pack, "enum e: a, b, a\non setup:\n    end game\n")
    assert one(b, "E281").line == 1 and one(b, "E281").col == 15
    b = build(write_pack, "enum e: a, b\ntype t:\n    k: e = \"c\"\non setup:\n    end game\n")
    assert "the default 'c' is not a value of e" in one(b, "E280").message
    b = build(write_pack, "enum e: a, b\ntype t:\n    k: ee\non setup:\n    end game\n")
    assert one(b, "E202").suggestion == "did you mean 'e'?"


def test_shipped_packs_use_enums_for_their_kinds():
    from engine.core.loader import load_pack
    hannibal = load_pack("hannibal").model
    fields = {(t, f): hannibal.types[t].fields[f].type for t, f in [
        ("space", "kind"), ("space", "tribe"), ("connection", "kind"), ("leader", "role"),
        ("piece", "kind"), ("province", "kind")]}
    assert all(t in hannibal.enums for t in fields.values()), fields
    assert hannibal.enum_values("tribe_kind") == ["friendly", "neutral"]
    ante = load_pack("ante_portas").model
    assert ante.vars["ally_status"].type.name == "ally_standing"
    assert ante.types["road"].fields["kind"].type == "road_kind"


# ---- consts -----------------------------------------------------------------------------
CONST_RULES = """
type card:
    power: int
const hand = 2
const limit: int = hand + count(card)
const strong = [c in card where c.power > power_floor()]
const plan: list of int = numbers(1, hand)
var score: int in 0..limit = limit - 1
var picked: list of card = []
zone deck of card
value power_floor(): int = 1
on setup:
    for c in card:
        move c to deck
    picked = choose hand c from deck by red
    repeat hand:
        score += 1
    if count(strong) == 2 and plan == [1, 2]:
        win red
    end game
"""

CARDS = """
card:
  - {id: c1, power: 1}
  - {id: c2, power: 2}
  - {id: c3, power: 3}
"""


def test_consts_stand_wherever_an_expression_may(inline_pack):
    pack = inline_pack(CONST_RULES, CARDS)
    assert (pack.ns["K_hand"], pack.ns["K_limit"], pack.ns["K_strong"]) == (2, 5, ["c2", "c3"])
    g = pack.new_game(0)
    assert g.var("score") == 4 and g.decision.kind == "many" and g.decision.max == 2
    g.apply(["c1", "c3"])
    assert g.var("score") == 5  # 4 + 2 clamped to the bound limit = 5
    assert g.result.winner == "red"


def test_consts_that_are_not_constant_are_errors(write_pack):
    cases = {
        "const a = score": "const 'a' must be a constant, but it reads var 'score'",
        "const a = roll(1, 6)": "'roll' rolls dice",
        "const a = count(deck)": "it reads zone 'deck'",
        "const a = grows()": "value 'grows' can be changed by 'modify'",
        "const a = reads()": "value 'reads' reads the game state",
        "const a = b + 1\nconst b = a": "defined by itself",
        "const a = none": "give const 'a' a type",
        "const a: int = true": "const 'a' must be int, got bool",
    }
    base = """
type card:
    power: int
var score: int = 0
zone deck of card
value grows(): int = 1
value reads(): int = score
on setup:
    modify grows() by 1
    end game
"""
    for decl, message in cases.items():
        b = build(write_pack, base + decl + "\n")
        errors = [d for d in b.diagnostics if d.severity == "error"]
        assert any(message in d.message for d in errors), (decl, render_text(b.diagnostics))
        assert all(d.line > 0 for d in errors)


def test_a_const_that_fails_when_the_pack_loads_is_a_located_error(write_pack, capsys):
    from engine.frontends.cli import main
    root = write_pack("const a = 10 / (2 - 2)\nvar x: int = a\non setup:\n    end game\n")
    assert main(["validate", str(root)]) == 1
    out = capsys.readouterr().out
    assert "rules.rules:1:1: error[E282]: const 'a' cannot be worked out" in out


def test_consts_needed_through_values_are_ordered_or_refused(write_pack, inline_pack):
    pack = inline_pack("const b = twice() + 1\nconst a = 4\nvalue twice(): int = a * 2\n"
                       "on setup:\n    end game\n")
    assert pack.ns["K_b"] == 9
    b = build(write_pack, "const a = f()\nvalue f(): int = a\non setup:\n    end game\n")
    assert "depends on itself (a -> a)" in one(b, "E282").message


# ---- keyword arguments and defaults -----------------------------------------------------
KW_RULES = """
type space:
    guards: int = 0
var log_at: space? = none
var total: int = 0
var seen_careful: bool = false
event scout(at: space, by: side, careful: bool = false)
value defence(s: space, bonus: int = 0, doubled: bool = false): int = \
    (s.guards + bonus) * (2 if doubled else 1)
procedure add(n: int, times: int = 1):
    total += n * times
on setup:
    add(defence(fort, doubled = true))
    add(times = 3, n = defence(fort, 1))
    emit scout(by = blue, at = fort)
    modify defence(fort, bonus = 1) by 10
    total += defence(fort, 1)
    end game
after scout(at, who, careful):
    log_at = at
    seen_careful = careful
"""


def test_keyword_arguments_and_defaults_in_values_procedures_and_events(inline_pack):
    pack = inline_pack(KW_RULES, "space:\n  - {id: fort, guards: 2}\n")
    g = pack.new_game(0)
    # 4 (doubled) + 3 * 3 + (3 + the modifier 10 of defence(fort, 1, false))
    assert g.var("total") == 4 + 9 + 13
    assert g.var("log_at") == "fort" and g.var("seen_careful") is False
    assert pack.call_value("defence", "fort") == 2
    assert pack.call_value("defence", "fort", doubled=True, bonus=1) == 6
    with pytest.raises(TypeError, match="did you mean 'bonus'"):
        pack.call_value("defence", "fort", bonus_=1)


def test_keyword_argument_mistakes_are_located(write_pack):
    cases = [
        ("defence(fort, bonsu = 1)", "value 'defence' has no parameter 'bonsu'", "bonsu"),
        ("defence(fort, bonus = 1, bonus = 2)", "'bonus' is given twice", "bonus = 2"),
        ("defence(fort, 1, bonus = 2)", "'bonus' is given twice (also by position)", "bonus = 2"),
        ("defence(bonus = 1)", "value 'defence' needs 's': it has no default", "defence("),
        ("count(x = [1])", "'count' takes its arguments by position", "x = [1]"),
    ]
    for call, message, at in cases:
        rules = KW_RULES.replace("    total += defence(fort, 1)\n", f"    total += {call}\n")
        b = build(write_pack, rules, "space:\n  - {id: fort}\n")
        d = one(b, "E283")
        assert message in d.message, (call, d.message)
        assert d.col == col_of(b, d.line_text, at), (call, d.col)
    b = build(write_pack, KW_RULES.replace("defence(fort, bonus = 1)", "defence(fort, bonsu = 1)"),
              "space:\n  - {id: fort}\n")
    assert one(b, "E283").suggestion == "did you mean 'bonus'?"
    rules = KW_RULES.replace("emit scout(by = blue, at = fort)", "emit scout(by = blue, fort)")
    b = build(write_pack, rules, "space:\n  - {id: fort}\n")
    d = one(b, "E283")
    assert "positional argument after a keyword argument" in d.message
    assert d.col == col_of(b, d.line_text, "fort)")


def test_parameter_default_mistakes(write_pack):
    cases = [
        ("value f(a: int = 1, b: int): int = a + b",
         "parameter 'b' of value 'f' needs a default too"),
        ("value f(a: int = score): int = a",
         "the default of 'a' must be a constant, but it reads var 'score'"),
        ("value f(a: int = true): int = a", "the default of 'a' must be int, got bool"),
        ("var g[s: side = red]: int = 0", "an index of var 'g' has no default"),
    ]
    for decl, message in cases:
        b = build(write_pack, f"var score: int = 0\n{decl}\non setup:\n    end game\n")
        assert message in one(b, "E284" if "must be int" not in message else "E220").message, decl


def test_the_hannibal_naval_example_reads_by_name():
    text = (REPO / "content" / "hannibal" / "tables.rules").read_text(encoding="utf-8")
    assert "naval_modifier(carthago, new_carthage) == -4" in text
    assert ("naval_modifier(new_carthage, rhegium, single_cu = true, "
            "roman_pc_at_destination = true)") in text
    from engine.core.loader import load_pack
    pack = load_pack("hannibal")
    assert pack.call_value("naval_modifier", "carthago", "new_carthage") == -4
    assert pack.call_value("naval_modifier", "new_carthage", "rhegium", single_cu=True,
                           roman_pc_at_destination=True) == -1
    assert not pack.run_checks()


# ---- typed locals -----------------------------------------------------------------------
TYPED = """
type card:
    power: int
var best: card? = none
on setup:
    let w: card? = none
    for c in card:
        if w == none or c.power > w.power:
            w = c
    best = w
    end game
"""


def test_a_typed_local_may_start_as_none_and_hold_a_record_later(inline_pack, write_pack):
    g = inline_pack(TYPED, CARDS).new_game(0)
    assert g.var("best") == "c3"
    b = build(write_pack, TYPED.replace("let w: card? = none", "let w = none"), CARDS)
    d = one(b, "E220")
    assert d.message == "cannot assign card to none"
    assert d.suggestion == "a local that starts as none needs its type: let w: card? = none"
    b = build(write_pack, TYPED.replace("            w = c", "            w = c.power"), CARDS)
    assert one(b, "E220").message == "cannot assign int to card"
    b = build(write_pack, TYPED.replace("let w: card? = none", "let w: card? = 3"), CARDS)
    assert one(b, "E220").message == "local 'w' is card, but its value is int"


# ---- the unused-let warning -------------------------------------------------------------
UNUSED = """
type card:
    power: int
zone deck of card
zone hand of card
var total: int = 0
on setup:
    let a = 1
    let _b = 2
    let c = 3
    let counter = 0
    for x in card:
        counter += 1
        let inner = x.power
        if inner > 1:
            total += c
    let got = draw 1 from deck to hand
    let d = 4
    let d = 5
    total += d
    end game
"""


def test_a_let_that_is_never_read_is_a_warning_at_its_name(write_pack, capsys):
    b = build(write_pack, UNUSED, CARDS)
    assert b.ok
    warned = sorted((d.line, d.col, d.message) for d in diags(b, "W280"))
    assert warned == [
        (7, 9, "local 'a' is never read"),
        (10, 9, "local 'counter' is never read"),  # `+=` alone does not use the value
        (16, 9, "local 'got' is never read"),
        (17, 9, "local 'd' is never read"),  # the first d: the second one is read
    ]
    assert all(d.severity == "warning" for d in diags(b, "W280"))
    got = [d for d in diags(b, "W280") if d.line == 16][0]
    assert "write the draw as a statement" in got.suggestion
    from engine.frontends.cli import main
    assert main(["validate", str(write_pack(UNUSED, CARDS))]) == 0  # warnings only: exit 0
    out = capsys.readouterr().out
    assert "warning[W280]: local 'a' is never read" in out and "ok, 4 warnings" in out


def test_the_shipped_content_has_no_unused_locals():
    for pack in ("ante_portas", "hannibal", "sword_of_rome"):
        found = [d for d in build_pack(REPO / "content" / pack).diagnostics
                 if d.code.startswith("W28")]
        assert found == [], render_text(found)


# ---- prompts with placeholders ----------------------------------------------------------
PROMPTS = """
type leader:
    rating: int
var active: side = red
var used: bool = false
zone hand[s: side] of leader private
on setup:
    move hasdrubal to hand[blue]
    let l = choose l from leader by red where l.rating < 2 \
        prompt "Intercept {other(active)}'s army with {{one}} of {count(leader)}?"
    used = ask red "Use {l} (rating {l.rating}) against {[hasdrubal, l]}?"
    end game
"""

LEADERS = """
leader:
  - {id: hasdrubal, name: "Hasdrubal", rating: 2}
  - {id: mago, name: "Mago", rating: 1}
  - {id: hanno, name: "Hanno", rating: 1}
"""


def test_a_prompt_carries_its_template_and_values_as_data(inline_pack, tmp_path):
    pack = inline_pack(PROMPTS, LEADERS)
    g = pack.new_game(0)
    d = g.decision
    assert d.prompt == "Intercept {0}'s army with {{one}} of {1}?" and d.args == ["blue", 3]
    assert g.state["decision"]["args"] == ["blue", 3]
    assert "hasdrubal" not in g.state["revealed"]
    g.apply("mago")
    d = g.decision
    assert (d.kind, d.prompt, d.args) == ("ask", "Use {0} (rating {1}) against {2}?",
                                          ["mago", 1, ["hasdrubal", "mago"]])
    # the card in blue's hidden hand that the prompt names is shown to red, its decider
    assert "red" in g.state["revealed"]["hasdrubal"]
    view = g.view("red")["decision"]
    assert view["args"] == ["mago", 1, ["hasdrubal", "mago"]]
    assert g.view("blue")["decision"] == {"side": "red", "kind": "ask"}
    cat = Catalog(pack, "en")
    assert describe_decision(view, cat) == "red: Use Mago (rating 1) against Hasdrubal, Mago?"
    loaded = Game.load(pack, g.save())
    assert loaded.decision == g.decision


def test_a_prompt_names_records_in_the_players_language(write_pack, tmp_path):
    root = write_pack(PROMPTS, LEADERS, name="prompts")
    (root / "pack.yaml").write_text((root / "pack.yaml").read_text() + "languages: [en, hu]\n")
    tdir = tmp_path / "translations"
    tdir.mkdir()
    (tdir / "inline.hu.yaml").write_text(
        "pack: inline\nlang: hu\nnames:\n"
        "  mago: {name: \"Mágó\", source: test}\n"
        "  hasdrubal: {name: \"Hasdrubál\", source: test}\n"
        "terms:\n  blue: {name: \"kék\", source: test}\n", encoding="utf-8")
    from engine.core.loader import load_pack
    pack = load_pack(root)
    g = pack.new_game(0)
    cat = Catalog(pack, "hu", dirs=[tdir])
    assert describe_decision(g.view("red")["decision"], cat) == \
        "red: Intercept kék's army with {one} of 3?"
    g.apply("mago")
    text = describe_decision(g.view("red")["decision"], cat)
    assert text == "red: Use Mágó (rating 1) against Hasdrubál, Mágó?"
    assert "mago" not in text and "hasdrubal" not in text


def test_bad_placeholders_are_located(write_pack):
    cases = [
        ('"Use {l?"', "a '{' whose placeholder is never closed", "{l?"),
        ('"Use l}?"', "a '}' that closes no placeholder", "}?"),
        ('"Use {  }?"', "an empty placeholder", "{  }"),
        ('"Use {l +}?"', "bad placeholder {l +}: not an expression", "l +}"),
    ]
    for text, message, at in cases:
        rules = PROMPTS.replace('"Use {l} (rating {l.rating}) against {[hasdrubal, l]}?"', text)
        b = build(write_pack, rules, LEADERS)
        d = one(b, "E285")
        assert message in d.message, (text, d.message)
        assert d.line == 9 and d.col == col_of(b, d.line_text, at), (text, d.col)
    b = build(write_pack, PROMPTS.replace("{l.rating}", "{l.ratng}"), LEADERS)
    d = one(b, "E205")
    assert (d.line, d.col) == (9, col_of(b, d.line_text, "l.ratng"))
    assert d.suggestion == "did you mean 'rating'?"


# ---- placeholders in log text -----------------------------------------------------------
LOGS = """
type leader:
    rating: int
zone hand[s: side] of leader private
on setup:
    move hasdrubal to hand[blue]
    for l in [mago, hanno]:
        log "{l} (rating {l.rating}) marches; {{braces}} stay"
    log "Blue holds {hasdrubal}"
    log "plain", mago
    end game
"""


def test_a_log_with_placeholders_reads_as_a_sentence_with_names(inline_pack):
    """`log "{l} marches"` keeps a template and its values as data, like a prompt; a person
    reads record names where the placeholders were, and a hidden card stays hidden."""
    from engine.i18n.translations import render_log_entry
    pack = inline_pack(LOGS, LEADERS)
    g = pack.new_game(0)
    says = [e for e in g.log if e["t"] == "say"]
    assert [(e["m"], e["a"]) for e in says] == [
        ("{0} (rating {1}) marches; {{braces}} stay", ["mago", 1]),
        ("{0} (rating {1}) marches; {{braces}} stay", ["hanno", 1]),
        ("Blue holds {0}", ["hasdrubal"]),
        ("plain", ["mago"]),
    ]
    text = [render_log_entry(e, pack) for e in says]
    assert text[:2] == ["Mago (rating 1) marches; {braces} stay",
                        "Hanno (rating 1) marches; {braces} stay"]
    assert text[3] == "plain: Mago"
    red = [e for e in g.view("red")["log"] if e["t"] == "say"]
    assert "hasdrubal" not in repr(red[2])


def test_bad_placeholders_in_a_log_are_located(write_pack):
    b = build(write_pack, LOGS.replace('"Blue holds {hasdrubal}"', '"Blue holds {hasdrubal"'),
              LEADERS)
    d = one(b, "E285")
    assert "never closed" in d.message and d.line == 8
    b = build(write_pack, LOGS.replace("{l.rating}", "{l.ratng}"), LEADERS)
    assert one(b, "E205").suggestion == "did you mean 'rating'?"


def test_the_formatter_keeps_a_log_with_placeholders():
    from engine.dsl.formatter import format_source
    src = format_source(textwrap.dedent(LOGS).lstrip("\n"))
    assert 'log "{l} (rating {l.rating}) marches; {{braces}} stay"' in src
    assert format_source(src) == src


# ---- one at a time ----------------------------------------------------------------------
EACH = """
type space:
    worth: int
var picked: list of space = []
var rest: list of space = []
on setup:
    picked = choose 3 c from space by red one at a time \
        prompt "Pick a space ({count(picked)} so far)"
    rest = choose up to 2 c from space by blue where c not in picked one at a time \
        require sum(x.worth for x in c) >= 3
    end game
"""


def spaces(n: int) -> str:
    return "space:\n" + "".join(f"  - {{id: s{i}, worth: {i % 4}}}\n" for i in range(n))


def test_three_of_98_spaces_are_three_single_picks(inline_pack):
    pack = inline_pack(EACH, spaces(98))
    start = time.perf_counter()
    g = pack.new_game(0)
    d = g.decision
    assert (d.kind, len(d.options), d.optional) == ("one", 98, False)
    assert d.each == {"picked": [], "min": 3, "max": 3}
    assert (d.prompt, d.args) == ("Pick a space ({0} so far)", [0])
    assert len(g.legal_actions()) == 98
    g.apply("s10")
    assert len(g.legal_actions()) == 97 and "s10" not in g.legal_actions()
    g.apply("s20")
    assert g.decision.each["picked"] == ["s10", "s20"]
    legal = g.legal_actions()
    g.apply("s30")
    assert time.perf_counter() - start < 2.0 and len(legal) == 96
    assert g.var("picked") == ["s10", "s20", "s30"]


def test_up_to_offers_done_and_require_holds_for_the_whole_set(inline_pack):
    pack = inline_pack(EACH, spaces(8))  # worth 0 1 2 3 0 1 2 3
    g = pack.new_game(0)
    for s in ("s0", "s1", "s2"):
        g.apply(s)
    d = g.decision
    assert d.side == "blue" and d.kind == "one"
    # nothing picked (worth 0 < 3): "done" is not offered; any first pick is
    assert not d.optional and None not in g.legal_actions()
    assert g.legal_actions() == ["s3", "s4", "s5", "s6", "s7"]
    g.apply("s4")  # worth 0: the last pick must bring the sum to 3
    assert g.legal_actions() == ["s3", "s7"] and not g.decision.optional
    g.apply("s7")
    assert g.var("rest") == ["s4", "s7"]
    g = pack.new_game(0)
    for s in ("s0", "s1", "s2", "s3"):
        g.apply(s)
    assert g.decision.optional and None in g.legal_actions()  # s3 alone is worth 3
    assert action_label(None, Catalog(pack, "en"), "one", each=True) == "done (pick no more)"
    g.apply(None)
    assert g.var("rest") == ["s3"] and g.over


def test_a_dead_end_starts_the_picks_again(inline_pack):
    rules = EACH.replace("sum(x.worth for x in c) >= 3", "sum(x.worth for x in c) == 4")
    pack = inline_pack(rules, spaces(5))  # blue may pick among s3 (3) and s4 (0)
    g = pack.new_game(0)
    for s in ("s0", "s1", "s2"):
        g.apply(s)
    g.apply("s4")  # 0 + 3 is not 4, and 0 alone is not: no way on
    assert g.decision.each["picked"] == [] and set(g.decision.options) == {"s3", "s4"}
    g.apply("s3")  # 3 + 0 is not 4 either: start again
    assert g.decision.each["picked"] == []


def test_picks_survive_save_and_load_between_them(inline_pack):
    pack = inline_pack(EACH, spaces(20))
    g = pack.new_game(3)
    g.apply("s5")
    g.apply("s7")
    for verify in ("replay", "digest"):
        loaded = Game.load(pack, g.save(), verify=verify)
        assert loaded.decision == g.decision and loaded.state["stack"] == g.state["stack"]
        loaded.apply("s9")
        loaded.apply("s3")
        loaded.apply(None)
        assert loaded.var("picked") == ["s5", "s7", "s9"] and loaded.var("rest") == ["s3"]


def test_bots_and_the_terminal_play_one_at_a_time(inline_pack):
    pack = inline_pack(EACH, spaces(40))
    for seed in range(5):
        g = pack.new_game(seed)
        bot = RandomBot(seed)
        while not g.over:
            g.apply(bot.choose(g, g.decision.side))
        assert len(g.var("picked")) == 3 and len(set(g.var("picked"))) == 3
        assert sum(pack.records[s]["worth"] for s in g.var("rest")) >= 3
    from engine.frontends.terminal import HumanPlayer
    g = inline_pack(EACH, spaces(41)).new_game(0)
    lines: list[str] = []
    answers = iter(["42", "0", "1 2", "12"])
    seat = HumanPlayer(input=lambda _p: next(answers), output=lines.append)
    assert seat.choose(g, "red") == "s11"  # 41 options: one picked by number, 0 is no "done"
    assert "red: Pick a space (0 so far) (picked so far: nothing)" in lines
    assert lines.count("enter a number from 1 to 41, or u, w FILE, l, ?, q") == 3


def test_one_at_a_time_needs_a_count(write_pack):
    b = build(write_pack, EACH.replace("choose 3 c from space by red one at a time",
                                       "choose c from space by red one at a time"), spaces(3))
    assert "'one at a time' picks several items" in one(b, "E286").message


# ---- formatting and the documentation ---------------------------------------------------
NEW_SYNTAX = """enum tribe_kind: friendly, neutral
enum piece_kind:
    combat_unit  # a comment on a value
    elephant
const n = 3
const m: int = n + 1
value f(a: int, b: bool = false): int = a

procedure p(x: int = 2):
    let w: space? = none
    let c = choose 3 c from space by red one at a time prompt "Pick {count(c)} of {n + 1}"
    let y = ask red "Use {w}? {{x}}"
    emit battle(at = w, attacker = red)
    modify f(1, b = true) by 1
    log "x", f(a = 1, b = true)
"""


def test_the_formatter_prints_the_new_syntax():
    assert format_source(NEW_SYNTAX) == NEW_SYNTAX
    messy = NEW_SYNTAX.replace("one at a time", "one  at\ta time").replace("b = true", "b=true")
    assert format_source(messy) == NEW_SYNTAX
    assert parse_module(format_source(messy)) == parse_module(NEW_SYNTAX)
    long = "enum k: " + ", ".join(f"value_{i}" for i in range(16)) + "\n"
    out = format_source(long)  # too long for a line: the values fill lines of 99 columns
    assert out.splitlines()[:2] == ["enum k:", "    " + ", ".join(f"value_{i}" for i in range(10))]
    assert max(map(len, out.splitlines())) <= 99 and format_source(out) == out
    assert parse_module(out) == parse_module(long)


def _docs_block(label: str) -> str:
    text = (REPO / "docs" / "language.md").read_text(encoding="utf-8")
    m = re.search(re.escape(label) + r".*?\n```[a-z]*\n(.*?)```", text, re.S)
    assert m, label
    return m.group(1)


def test_the_worked_example_in_the_docs_builds_and_plays(write_pack):
    from engine.core.loader import load_pack
    rules = _docs_block("(`example.rules`)")
    root = write_pack(rules, {"spaces.yaml": _docs_block("`spaces.yaml`")})
    b = build_pack(root)
    assert b.ok and not b.diagnostics, render_text(b.diagnostics)
    assert format_source(rules) == rules
    g = load_pack(root).new_game(0)
    assert g.decision.prompt == "Camps ({0} at most)" and g.decision.args == [2]
    g.apply("ridge")
    g.apply("town")
    assert g.decision.prompt == "Scout {0} (defence {1})?" and g.decision.args == ["town", 4]
    g.apply(True)
    assert g.var("watched") == "town" and g.var("camp") == ["ridge", "town"]
    assert g.var("seen", "hill") == 1 and g.result.winner == "red"
