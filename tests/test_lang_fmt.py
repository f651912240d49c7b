"""`engine fmt` wraps at 99 columns: breaks inside brackets, one `and`/`or` operand per line,
comments kept in wrapped statements; random long code round-trips; the shipped content fits."""
from __future__ import annotations

import re
import textwrap
import time
from pathlib import Path

import dsl_strategies as D
import pytest
from fmt_lines import lone_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dsl import ast as A
from engine.dsl.formatter import WIDTH, S, expr_doc, format_module, format_source, layout, listing
from engine.dsl.parser import extract_comments, parse_effect, parse_module
from engine.frontends.cli import main

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"


def check_fmt(messy: str, expected: str) -> None:
    messy, expected = textwrap.dedent(messy), textwrap.dedent(expected)
    got = format_source(messy)
    assert got == expected
    assert format_source(got) == got  # idempotent
    assert parse_module(got) == parse_module(messy)
    assert all(len(line) <= WIDTH for line in got.split("\n"))


# ---- golden layouts ---------------------------------------------------------------------
# The inputs are too long for a line on purpose (the formatter wraps them): `noqa: E501`.
def test_a_long_boolean_gets_one_operand_per_line_in_parentheses():
    check_fmt("""\
        check "provinces per region": count(p in province where p.region == africa) == 4 and count(p in province where p.region == hispania) == 4 and balearic_islands_area.region == islands
    """, """\
        check "provinces per region": (
            count(p in province where p.region == africa) == 4
            and count(p in province where p.region == hispania) == 4
            and balearic_islands_area.region == islands
        )
    """)  # noqa: E501


def test_mixed_and_or_keep_their_grouping_visible():
    check_fmt("""\
        value rome_mode_ok(c: card, m: text): bool = m == "morale" and c.roman.morale > 0 or m in ["army_named", "army_secret"] and c.roman.infantry + c.roman.cavalry > 0 and (m == "army_secret" or count(nameable()) > 0)
    """, """\
        value rome_mode_ok(c: card, m: text): bool = (
            m == "morale" and c.roman.morale > 0
            or (
                m in ["army_named", "army_secret"]
                and c.roman.infantry + c.roman.cavalry > 0
                and (m == "army_secret" or count(nameable()) > 0)
            )
        )
    """)  # noqa: E501


def test_call_arguments_on_one_line_of_their_own_then_one_per_line_names_sharing_lines():
    check_fmt("""\
        value unrest_max(garrison_cus: int): int = max(carthaginian_unrest_track.min, unrest_base_max.value - garrison_cus)
        check "seed 002 §12 battle example: Rome is dealt 14 battle cards": battle_cards(flaminius.battle, 8, ally_cards(rome, [campania, samnium, etruria, apulia], cannae), false, false) == 14
    """, """\
        value unrest_max(garrison_cus: int): int = max(
            carthaginian_unrest_track.min, unrest_base_max.value - garrison_cus
        )
        check "seed 002 §12 battle example: Rome is dealt 14 battle cards": battle_cards(
            flaminius.battle, 8, ally_cards(rome, [campania, samnium, etruria, apulia], cannae),
            false, false
        ) == 14
    """)  # noqa: E501


def test_long_parameter_lists_and_arithmetic():
    check_fmt("""\
        value naval_modifier(start: space, destination: space, single_cu: bool, roman_pc_at_destination: bool, naval_victory: bool): int = start.naval_modifier + destination.naval_modifier - (1 if single_cu else 0) + (1 if roman_pc_at_destination else 0) - (1 if naval_victory else 0)
    """, """\
        value naval_modifier(
            start: space,
            destination: space,
            single_cu: bool,
            roman_pc_at_destination: bool,
            naval_victory: bool
        ): int = (
            start.naval_modifier + destination.naval_modifier
            - (1 if single_cu else 0)
            + (1 if roman_pc_at_destination else 0)
            - (1 if naval_victory else 0)
        )
    """)  # noqa: E501


def test_conditional_expressions_one_branch_per_line():
    check_fmt("""\
        value retreat_modifier(won_by: battle_card_type?): int = de_retreat_modifier.value if won_by == double_envelopment else probe_retreat_modifier.value if won_by == probe else 0
        value ally_counts(p: province, battle_in: province): bool = p.region == battle_in.region and (p.italian_ally or p.region != italia) if battle_in.region.allies_region_wide else p == battle_in
    """, """\
        value retreat_modifier(won_by: battle_card_type?): int = (
            de_retreat_modifier.value if won_by == double_envelopment
            else probe_retreat_modifier.value if won_by == probe
            else 0
        )
        value ally_counts(p: province, battle_in: province): bool = (
            p.region == battle_in.region and (p.italian_ally or p.region != italia)
            if battle_in.region.allies_region_wide
            else p == battle_in
        )
    """)  # noqa: E501


def test_comprehensions_break_into_clauses():
    check_fmt("""\
        check "siege": every(r in numbers(1, 6) where siege_point(r, roma, carthage, false) == (r >= 5) and siege_point(r, roma, carthage, true) == (r >= 4))
        value force_ratio_modifier(own_size: int, enemy_size: int): int = sum(p.modifier for p in force_ratio_point where p.larger == own_size and p.smaller == enemy_size and p.known)
    """, """\
        check "siege": every(
            r in numbers(1, 6)
            where (
                siege_point(r, roma, carthage, false) == (r >= 5)
                and siege_point(r, roma, carthage, true) == (r >= 4)
            )
        )
        value force_ratio_modifier(own_size: int, enemy_size: int): int = sum(
            p.modifier for p in force_ratio_point
            where p.larger == own_size and p.smaller == enemy_size and p.known
        )
    """)  # noqa: E501


def test_a_comparison_on_a_line_of_its_own_or_broken_in_brackets():
    check_fmt("""\
        value elephant_charge_succeeds(roll: int, roman_commander: leader?): bool = roll > (roman_commander.battle if roman_commander != none else 1)
        check "Rome starts with a majority in 9 scoring provinces": count(p in province where p.scoring and majority(p, rome)) == 9
        check "Rome holds a majority in 9 scoring provinces": count(p in province where p.scoring and p.kind == "province" and majority(p, rome) and p.region != islands) == 9
    """, """\
        value elephant_charge_succeeds(roll: int, roman_commander: leader?): bool = roll > (
            roman_commander.battle if roman_commander != none else 1
        )
        check "Rome starts with a majority in 9 scoring provinces": (
            count(p in province where p.scoring and majority(p, rome)) == 9
        )
        check "Rome holds a majority in 9 scoring provinces": count(
            p in province
            where p.scoring and p.kind == "province" and majority(p, rome) and p.region != islands
        ) == 9
    """)  # noqa: E501


def test_block_headers_and_statements():
    check_fmt("""\
        on turn(s):
            if a_very_long_condition_name_that_goes_on and another_very_long_condition_name_here_and_more:
                for c in hand[s] where c.power > 1 and c.owner == s and not c.exhausted and count(c.allies) > 2:
                    emit battle(c.location, s, [x in c.allies where x.power > 0 and x.owner == s], true, false)
            elif (c.power > 1 and c.owner == s and not c.exhausted and count(c.allies) > 2 and c.free_to_go_on):
                let chosen = choose x from [c in hand[s] where c.power > 1 and c.owner == s and not c.exhausted] by s
            while count(hand[s]) > hand_limit(s) and exists(c in hand[s] where c.discardable and c.power < 3 and c.free):
                log "a long message to the log with arguments %s, %s", a_long_argument_name, another_argument
    """, """\
        on turn(s):
            if a_very_long_condition_name_that_goes_on and another_very_long_condition_name_here_and_more:
                for c in hand[s] where (
                    c.power > 1 and c.owner == s and not c.exhausted and count(c.allies) > 2
                ):
                    emit battle(
                        c.location, s, [x in c.allies where x.power > 0 and x.owner == s], true, false
                    )
            elif (
                c.power > 1
                and c.owner == s
                and not c.exhausted
                and count(c.allies) > 2
                and c.free_to_go_on
            ):
                let chosen = choose x from [
                    c in hand[s] where c.power > 1 and c.owner == s and not c.exhausted
                ] by s
            while (
                count(hand[s]) > hand_limit(s)
                and exists(c in hand[s] where c.discardable and c.power < 3 and c.free)
            ):
                log "a long message to the log with arguments %s, %s", a_long_argument_name, (
                    another_argument
                )
    """)  # noqa: E501


def test_nested_structures_indent_by_four_per_level():
    out = format_source(
        'check "deep": every(a in alpha_items where every(b in beta_items where every(c in '
        'gamma_items where c.weight_of_the_item > b.weight_of_the_item + a.weight_of_the_item '
        'and c.owner_of_the_item != a.owner_of_the_item)))\n')
    assert out == textwrap.dedent("""\
        check "deep": every(
            a in alpha_items
            where every(
                b in beta_items
                where every(
                    c in gamma_items
                    where (
                        c.weight_of_the_item > b.weight_of_the_item + a.weight_of_the_item
                        and c.owner_of_the_item != a.owner_of_the_item
                    )
                )
            )
        )
    """)
    assert format_source(out) == out


def test_keyword_names_keep_their_parentheses_when_wrapped():
    text = ("on setup:\n    let x = (order) and a_long_name_that_fills_the_line and "
            "another_long_name_to_fill and the_third_one_too\n")
    out = format_source(text)
    assert out == ("on setup:\n    let x = (\n        (order) and a_long_name_that_fills_the_line"
                   " and another_long_name_to_fill\n        and the_third_one_too\n    )\n")
    assert parse_module(out) == parse_module(text)


def test_the_layout_works_on_any_expression_and_statement_text():
    # How a new kind of statement plugs in: `S(...)` of its words and expressions.
    (ret,) = parse_effect("return count(c in hand where c.power > 1 and c.owner == active_side"
                          " and not c.exhausted)\n")
    e = ret.value
    assert layout(expr_doc(e), 8) == [
        "        count(c in hand where c.power > 1 and c.owner == active_side and not c.exhausted)"]  # noqa: E501
    assert layout(S("modify ", listing("strength(", [e], ")"), " to ", e), 8) == [
        "        modify strength(",
        "            count(c in hand where c.power > 1 and c.owner == active_side and not c.exhausted)",  # noqa: E501
        "        ) to count(c in hand where c.power > 1 and c.owner == active_side and not c.exhausted)"]  # noqa: E501


# ---- comments in wrapped statements -------------------------------------------------------
def test_comments_stay_with_the_code_they_follow():
    check_fmt("""\
        check "a long message to force the wrapping of this check": (
            # first
            count(province_of_this_pack) == 1  # one
            and every(p in province where p.scoring)  # two
            # before the last
            and cccc_long_name_here
            # at the end
        )  # after
        on setup:
            if a:
                pass
            elif (a_very_long_condition_name_that_goes_on and another_very_long_condition  # c1
                  or a_third_one_that_is_long):  # c2
                pass
    """, """\
        check "a long message to force the wrapping of this check": (
            # first
            count(province_of_this_pack) == 1  # one
            and every(p in province where p.scoring)  # two
            # before the last
            and cccc_long_name_here  # at the end
        )  # after

        on setup:
            if a:
                pass
            elif (
                a_very_long_condition_name_that_goes_on and another_very_long_condition  # c1
                or a_third_one_that_is_long
            ):  # c2
                pass
    """)


def test_a_statement_that_now_fits_takes_its_comments_along():
    check_fmt("""\
        check "short": (
            a  # why a
            and b
        )
        var x: int  # next
    """, """\
        check "short": a and b  # why a
        var x: int  # next
    """)


# ---- the exception: what cannot break -----------------------------------------------------
def test_a_word_longer_than_the_line_stays_whole_on_its_own_line():
    long = "x" * 120
    out = format_source(f'on setup:\n    let s = f("{long}", b)\n')
    assert out == f'on setup:\n    let s = f(\n        "{long}",\n        b\n    )\n'
    assert [ln for ln in out.split("\n") if len(ln) > WIDTH] == [f'        "{long}",']


def test_text_before_the_first_bracket_cannot_break():
    message = "m" * 100
    out = format_source(f'check "{message}": a and b\n')
    assert out == f'check "{message}": (\n    a and b\n)\n'


def test_a_long_until_list_after_a_broken_target_breaks_in_its_own_parentheses():
    # found by test_random_long_code_round_trips_within_99_columns: the list does not fit
    # after `] = "besieged"`, so it breaks in parentheses of its own and the value stays
    # beside `=` (before the list could break, the value went in parentheses instead)
    long = ("            set scoring[ally_status + reinforcement() + naval_victory"
            " + region_of(province) + 1] = \"besieged\" until end of outermost round 2 times"
            " or turn or end of outermost deck 2 times\n")
    src = "procedure a():\n    for a in 0:\n        for b in 0:\n" + long
    out = format_source(src)
    assert out.split("\n")[-4:-1] == [
        '            ] = "besieged" until (',
        "                end of outermost round 2 times or turn or end of outermost deck 2 times",
        "            )"]
    assert max(len(line) for line in out.split("\n")) <= WIDTH
    assert format_source(out) == out and parse_module(out) == parse_module(src)


def test_an_until_list_longer_than_the_line_breaks_in_parentheses():
    # found by test_only_a_long_string_passes_99_columns: three long items do not fit after
    # anything, so the list itself breaks, in parentheses of its own (the grammar's
    # `until (...)`), and reads back as the same statement
    items = ("end of outermost a 2 times or end of outermost a 2 times"
             " or end of outermost deck 2 times")
    src = f"procedure a(a: a):\n    set 0 = 0 until {items}\n"
    out = format_source(src)
    assert out == f"procedure a(a: a):\n    set 0 = 0 until (\n        {items}\n    )\n"
    assert parse_module(out) == parse_module(src) and format_source(out) == out
    longer = " or ".join(["end of outermost reinforcement_phase 2 times"] * 3)
    out = format_source(f"procedure a():\n    modify v(x) by 1 until {longer}\n")
    assert max(len(line) for line in out.split("\n")) <= WIDTH
    assert out.split("\n")[1] == "    modify v(x) by 1 until ("
    assert format_source(out) == out
    short = format_source("procedure a():\n    set x = 1 until (end of turn or reshuffle)\n")
    assert short == "procedure a():\n    set x = 1 until end of turn or reshuffle\n"


# ---- properties ---------------------------------------------------------------------------
_PROPS = settings(max_examples=120, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_PROPS
@given(D.long_modules(D.long_expressions()))
def test_random_long_code_round_trips_within_99_columns(m):
    text = format_module(m)
    assert parse_module(text) == m
    assert format_source(text) == text
    too_long = [line for line in text.split("\n") if len(line) > WIDTH]
    assert not too_long
    assert not lone_lines(text)  # no name alone on a line where another layout fits


# Strings of 60 to 130 characters: the only pieces that may not fit.
LONG_STRINGS = st.text(st.sampled_from("abc xyz"), min_size=60, max_size=130)
_LONG_STRING = re.compile(r'"[abcxyz ]{60,}"')


@_PROPS
@given(D.long_modules(D.long_expressions(LONG_STRINGS, 4)))
def test_only_a_long_string_passes_99_columns(m):
    text = format_module(m)
    assert parse_module(text) == m
    assert format_source(text) == text
    for line in text.split("\n"):
        assert len(line) <= WIDTH or _LONG_STRING.search(line), line


def _comment_text(text: str) -> str:
    return "".join("".join(c[2].split()) for c in extract_comments(text))


@st.composite
def commented_long_code(draw: st.DrawFn) -> tuple[A.Module, str]:
    """Formatted long code with comments at line ends and on lines of their own (none
    after a backslash, which joins the next line)."""
    m = draw(D.long_modules(D.long_expressions(depth=4)))
    out = []
    joined = False
    for line in format_module(m).split("\n")[:-1]:
        if not joined and draw(st.integers(0, 4)) == 0:
            out.append(" " * draw(st.integers(0, 12)) + "# own line")
        joined = line.endswith("\\")
        end = line.strip() and not joined and draw(st.integers(0, 3)) == 0
        out.append(line + ("  # end" if end else ""))
    return m, "\n".join(out) + "\n"


@_PROPS
@given(commented_long_code())
def test_comments_in_wrapped_code_survive_and_stay_put(case):
    m, text = case
    out = format_source(text)
    assert parse_module(out) == m
    assert _comment_text(out) == _comment_text(text)
    assert format_source(out) == out


# ---- the shipped content --------------------------------------------------------------------
def _content_rules() -> list[Path]:
    return sorted(CONTENT.rglob("*.rules"))


def test_the_content_is_formatted(capsys):
    assert main(["fmt", "--check", str(CONTENT)]) == 0, capsys.readouterr().out


_STRING = re.compile(r'"([^"\\\n]|\\.)*"')


def _over_width(line: str) -> bool:
    """Longer than WIDTH for a reason the author can mend: a line whose excess is one string
    literal (a sentence with plural choices, `{n:# CU|# CUs}`) is not, since the language has
    no way to continue a string on the next line and the formatter leaves such a line whole;
    the rest of the line must still fit."""
    if len(line) <= WIDTH:
        return False
    longest = max((m.group(0) for m in _STRING.finditer(line)), key=len, default="")
    return len(line) - len(longest) + 2 > WIDTH


@pytest.mark.parametrize("path", _content_rules(), ids=lambda p: str(p.relative_to(CONTENT)))
def test_no_content_line_is_over_99_characters(path):
    long = [(no, len(line)) for no, line in
            enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if _over_width(line)]
    assert not long, f"{path}: lines over {WIDTH} characters (line, length): {long}"


def test_only_a_long_sentence_may_pass_the_width():
    assert not _over_width("    x = 1")
    assert _over_width("    let total = " + " + ".join(["count(troops[s])"] * 6))
    assert not _over_width('    log "' + "a" * 120 + '"')
    assert _over_width('    log "short", ' + ", ".join(["count(troops[s])"] * 6))


def test_formatting_all_the_content_is_fast():
    texts = [p.read_text(encoding="utf-8") for p in _content_rules()]
    modules = [parse_module(t, str(p)) for t, p in zip(texts, _content_rules())]
    start = time.perf_counter()
    for m, t in zip(modules, texts):
        format_module(m, t)
    assert time.perf_counter() - start < 2.0  # ~0.15 s: parsing costs four times more


def test_fmt_leaves_rules_in_yaml_fields_alone(tmp_path):
    # `engine fmt` formats .rules files only; an effect written in a YAML field keeps its
    # author's layout (it may break lines inside brackets like a .rules file).
    pack = tmp_path / "p"
    pack.mkdir()
    yaml_text = ("cards:\n  - id: c\n    effect: |\n      let x = max(1,\n"
                 "                  2)\n")
    (pack / "cards.yaml").write_text(yaml_text)
    (pack / "r.rules").write_text("var  x : int\n")
    assert main(["fmt", str(pack)]) == 0
    assert (pack / "cards.yaml").read_text() == yaml_text
    assert (pack / "r.rules").read_text() == "var x: int\n"


def test_a_provenance_note_goes_on_over_the_comment_lines_below_it(write_pack):
    # Wrapped at 99 columns, a long `# source:` line becomes several comment lines.
    from engine.dsl.build import build_pack
    root = write_pack("""
        # a note that is no provenance
        # source: rulebook §3, where the score
        # is explained at length
        # reconstructed: the start value
        var score: int = 0
        on setup:
            end game
    """)
    model = build_pack(root).source.model
    assert model.provenance["score"] == ("source: rulebook §3, where the score is explained at "
                                         "length; reconstructed: the start value")


def test_the_formatting_example_in_the_docs():
    """docs/language.md, "Formatting": the second block is what `engine fmt` makes of the
    first."""
    docs = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = docs[docs.index("## Formatting"):docs.index("## Limits")]
    before, after = re.findall(r"```\n(.*?)```", section, re.S)
    assert format_source(before) == after
    assert parse_module(after) == parse_module(before)
