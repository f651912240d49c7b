"""`engine fmt` breaks lines where the rules read on (issue 35, part 3): a choice goes on
after a backslash before its options, a name shares its line with what follows it, a
one-name index or call never breaks; no line holds one name alone (or one bracket around
one line) where another layout fits: the line before had room for it, or its last item
would fit beside it (`fmt_lines.lone_lines`; over generated long code in test_lang_fmt.py).
Over shipped rule text, as it is and with names renamed: formatting is idempotent and keeps
the tree, and every shipped pack compiles to the same code after `engine fmt`."""
from __future__ import annotations

import functools
import re
import shutil
import textwrap
from pathlib import Path

import dsl_strategies as D
import pytest
from fmt_lines import STRING, lone_lines
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dsl.formatter import WIDTH, format_module, format_source
from engine.dsl.parser import extract_comments, parse_module
from engine.frontends.cli import main

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content"
SHIPPED = sorted(CONTENT.rglob("*.rules")) + sorted((ROOT / "tests" / "packs").rglob("*.rules"))
PACKS = sorted(p.parent.name for p in CONTENT.glob("*/pack.yaml"))


def _around(text: str, found: list[tuple[int, str]]) -> str:
    """The lines around each line found, for a failure's message."""
    lines = text.split("\n")
    return "\n\n".join("\n".join(lines[max(0, no - 4):no + 1]) for no, _ in found)


def test_lone_lines_finds_what_the_issue_shows():
    # the layouts of issue 35: `battle_hand[` / `a` / `] by a`; `by (` / `s` / `) prompt`
    assert lone_lines("on x:\n    let c = choose c from battle_hand[\n        a\n"
                      "    ] by a\n") == [(3, "a")]
    assert lone_lines("on x:\n    let k = choose k from kinds by (\n        s\n"
                      '    ) prompt "{s}: which?"\n') == [(3, "s")]
    assert lone_lines("value v(): int = max(\n    0,\n    (\n        a + b\n    )\n)\n") == [
        (2, "0,"), (3, "(")]
    # the strict form: a full line before, whose last item would fit beside the name
    full = "x" * 90
    assert lone_lines(f"value v(): int = f(\n    {full}, y, z,\n    last\n)\n") == [
        (3, "last")]
    # what may stay: a name that nothing fits beside (the line before holds one item, or
    # its last item and the name pass the width together), a bracket around several
    # lines, a closing bracket, a statement of one word
    assert lone_lines(f"value v(): int = f(\n    {full},\n    last\n)\n") == []
    assert lone_lines(f"value v(): int = f(\n    y, {full},\n    last\n)\n") == []
    assert lone_lines("value v(): int = (\n    (\n        count(hand[s])\n"
                      "        + count(deck[s])\n    )\n    * c\n)\n") == []
    assert lone_lines("on x:\n    if a:\n        return\n    # (\n    pass\n") == []
    # one item with brackets nested in it is one item (a Hypothesis find, CI of 80222cb)
    item = "((0 and 0) + new_carthage)[a() + (new_carthage() + new_carthage())]"
    nested = (f"value v(): int = (\n    (0 + 0)[\n        {item}.{'y' * 18},\n"
              "        new_carthage\n    ]\n)\n")
    assert lone_lines(nested) == []
    # nothing else fits: without its parentheses the word and the reason pass the width
    reason = '"' + "r" * 88 + '"'
    assert lone_lines(f"on x:\n    win (\n        rome\n    ), {reason}\n") == []
    assert lone_lines(f"on x:\n    win (\n        rome\n    ), {reason[:60]}\"\n") == [
        (3, "rome")]
    # a bracket after an opening one takes that one's close along: one column more than
    # the width here (a Hypothesis find, test_random_long_code_round_trips_within_99_columns)
    inner = "(-1 == -10000) + [false for innings in new_carthage() where new_carthage()]"
    nested = (f"value a(): a = (\n    (\n        (\n            {inner}\n"
              '        ) * (0 + -10) + ""\n    )\n    * carthage()\n)\n')
    assert lone_lines(nested) == []
    assert format_source(nested) == nested
    # the first of several items alone after an opening bracket: no other layout when the
    # item after it is whole on its own line (the formatter joins no item to the bracket's
    # line), one when it is broken (`0, (` / .. / `)`, flagged above)
    item = "g(" + "a" * 86 + ")"
    assert lone_lines(f"on x:\n    let a = [\n        xx,\n        {item},\n        bc\n    ]\n") \
        == []


# ---- golden layouts ---------------------------------------------------------------------
def check_fmt(messy: str, expected: str) -> None:
    messy, expected = textwrap.dedent(messy), textwrap.dedent(expected)
    got = format_source(messy)
    assert got == expected
    assert format_source(got) == got
    assert parse_module(got) == parse_module(messy)
    assert not lone_lines(got)


# The inputs are too long for a line on purpose: `noqa: E501`.
def test_a_long_choice_goes_on_after_a_backslash_before_its_options():
    check_fmt("""\
        procedure p(s: side):
            let n = choose n from numbers(1, room) by l.side prompt "{l}: how many of his {count(column[l]):# CU|# CUs} go inside the walls?"
            pick = choose c from battle_hand[a] by a optional prompt "{a}: lead a battle card (round {n}), or none"
            let gone = choose k x from spots by s where x.port and x.control == s and x != home one at a time prompt "{s}: remove {k:# PC|# PCs}"
    """, """\
        procedure p(s: side):
            let n = choose n from numbers(1, room) by l.side \\
                prompt "{l}: how many of his {count(column[l]):# CU|# CUs} go inside the walls?"
            pick = choose c from battle_hand[a] by a optional \\
                prompt "{a}: lead a battle card (round {n}), or none"
            let gone = choose k x from spots by s where x.port and x.control == s and x != home \\
                one at a time prompt "{s}: remove {k:# PC|# PCs}"
    """)  # noqa: E501


def test_an_option_too_long_for_its_line_breaks_inside_its_brackets():
    check_fmt("""\
        procedure p(s: side):
            let next = choose y from neighbors(retreat_roads, here) by s where not retreat_closed(s, y, attacker, came_from) and retreat_steps(s, y, dest, attacker, came_from) == left - 1 prompt "{s}: retreat through"
    """, """\
        procedure p(s: side):
            let next = choose y from neighbors(retreat_roads, here) by s where (
                not retreat_closed(s, y, attacker, came_from)
                and retreat_steps(s, y, dest, attacker, came_from) == left - 1
            ) prompt "{s}: retreat through"
    """)  # noqa: E501


def test_comments_never_follow_a_backslash():
    # the lexer joins a backslash to the line break only: a comment on a joined line goes
    # after the last line of the statement, one on a line of its own inside it too
    messy = textwrap.dedent("""\
        on setup:
            let z = choose k from kinds(
                # which kinds
                a) by s prompt "{s}: {k} for ops: move a leader, place PCs or raise a CU now"  # ask
            pass
    """)  # noqa: E501
    out = format_source(messy)
    assert out == textwrap.dedent("""\
        on setup:
            let z = choose k from kinds(a) by s \\
                prompt "{s}: {k} for ops: move a leader, place PCs or raise a CU now"  # which kinds  # ask
            pass
    """)  # noqa: E501
    assert format_source(out) == out and parse_module(out) == parse_module(messy)


def test_a_name_shares_its_line_with_what_follows_it():
    check_fmt("""\
        value v(x: space): bool = x.port and x.province.region in [italia, hispania, gallia_cisalpina] and x.control == rome and not x.besieged
        value w(rating: int, cus: int, allies: int): int = min(max_battle_cards.value, rating + cus + allies + (interception_bonus_cards.value if intercepted else 0) + (failed_avoidance_cards.value if failed else 0))
        check "provinces": every(p in province where (p.region == italia) == (p in [latium, campania, apulia, lucania, samnium, etruria, sicilia, syracuse_province, sardinia_corsica, massilia_province]))
    """, """\
        value v(x: space): bool = (
            x.port and x.province.region in [italia, hispania, gallia_cisalpina]
            and x.control == rome
            and not x.besieged
        )
        value w(rating: int, cus: int, allies: int): int = min(
            max_battle_cards.value, (
                rating + cus + allies
                + (interception_bonus_cards.value if intercepted else 0)
                + (failed_avoidance_cards.value if failed else 0)
            )
        )
        check "provinces": every(
            p in province
            where (p.region == italia) == (
                p in [
                    latium, campania, apulia, lucania, samnium, etruria, sicilia, syracuse_province,
                    sardinia_corsica, massilia_province
                ]
            )
        )
    """)  # noqa: E501


def test_the_last_name_of_a_list_takes_the_one_before_it_along():
    # a full line of names, and the last name alone after it: the name before goes down
    check_fmt("""\
        value campaign_cards(): list of card = [roman_campaign, carthaginian_campaign, greek_campaign, gallic_campaign, etruscan_samnite_campaign]
    """, """\
        value campaign_cards(): list of card = [
            roman_campaign, carthaginian_campaign, greek_campaign,
            gallic_campaign, etruscan_samnite_campaign
        ]
    """)  # noqa: E501


def test_the_last_name_of_a_list_takes_any_flat_item_before_it_along():
    # a line of a name and a long item, the last name alone after it: the item goes down
    # with it, the name before stays alone (a Hypothesis find of
    # test_random_long_code_round_trips_within_99_columns)
    item = "g(" + "a" * 74 + ")"
    check_fmt(f"""\
        on setup:
            let a = 0 + [0, {item}, new_carthage]
    """, f"""\
        on setup:
            let a = 0 + [
                0,
                {item}, new_carthage
            ]
    """)


def test_a_one_name_index_or_call_never_breaks():
    check_fmt("""\
        on setup:
            let ms = choose up to count(secret_attached[rome]) c from secret_attached[rome] by rome prompt "Rome: move secret attachments"
            let c = choose x from hand[carthage] by carthage where c_playable(x) prompt "Carthage: play a card (one card each sub-round is march time)"
    """, """\
        on setup:
            let ms = choose up to count(secret_attached[rome]) c from secret_attached[rome] by rome \\
                prompt "Rome: move secret attachments"
            let c = choose x from hand[carthage] by carthage where c_playable(x) \\
                prompt "Carthage: play a card (one card each sub-round is march time)"
    """)  # noqa: E501


def test_a_word_longer_than_a_line_still_breaks():
    # nothing else fits: the nested calls of one name each break after all
    long = "unrest_after_best_capped_win"
    text = f"check \"x\": {long}({long}({long}({long}(4)))) == 0\n"
    out = format_source(text)
    assert max(len(line) for line in out.split("\n")) <= WIDTH
    assert parse_module(out) == parse_module(text) and format_source(out) == out


# ---- properties -------------------------------------------------------------------------
# (generated long code: test_lang_fmt.py's round trip asserts `lone_lines` too)
_PROPS = settings(max_examples=80, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@functools.cache
def _shipped(path: Path) -> tuple[object, list[str]]:
    """The parsed file, and the names it uses outside string literals (a prompt's
    `{placeholders}` stay as they are written)."""
    text = path.read_text(encoding="utf-8")
    in_strings = set(re.findall(r"\w+", " ".join(re.findall(STRING, text))))
    names = set(re.findall(r"\b[A-Za-z_]\w*\b", text)) - D.KEYWORDS - in_strings
    return parse_module(text, str(path)), sorted(names)


@st.composite
def renamed_shipped_rules(draw: st.DrawFn):
    """A shipped rules file with some of its names made longer or shorter, so that its
    statements meet the line's end elsewhere."""
    module, names = _shipped(draw(st.sampled_from(SHIPPED)))
    chosen = draw(st.lists(st.sampled_from(names), max_size=30, unique=True))
    mapping = {n: "q" + draw(st.text("abcdefgh_", max_size=24)) for n in chosen}
    return D.rename(module, mapping)


@_PROPS
@given(renamed_shipped_rules())
def test_no_line_of_real_rules_is_one_name_where_another_layout_fits(m):
    text = format_module(m)
    assert not lone_lines(text), _around(text, lone_lines(text))
    assert parse_module(text, m.path) == m
    assert format_source(text) == text


# ---- the shipped packs --------------------------------------------------------------------
@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_formatting_a_shipped_file_keeps_its_tree_and_leaves_no_lone_name(path):
    # formats the file's text as it is now, so it holds for a file not yet formatted
    text = path.read_text(encoding="utf-8")
    out = format_source(text, str(path))
    assert format_source(out, str(path)) == out
    assert parse_module(out) == parse_module(text)
    assert _comment_text(out) == _comment_text(text)
    assert not lone_lines(out)


def _comment_text(text: str) -> str:
    """All comment text in order, whitespace removed (comments at line ends may merge)."""
    return "".join("".join(c[2].split()) for c in extract_comments(text))


def _code_without_lines(code: str) -> str:
    """Compiled code without the source line numbers it carries (`# @L12`, the table of
    each procedure's file and line)."""
    code = re.sub(r"# @L\d+", "# @L", code)
    return re.sub(r"^(\s+'\w+': \(\d+), \d+\),$", r"\1, L),", code, flags=re.M)


def test_every_shipped_pack_compiles_to_the_same_code_after_fmt(tmp_path, capsys):
    from engine.dsl.build import build_pack
    copy = tmp_path / "content"
    shutil.copytree(CONTENT, copy)
    assert main(["fmt", str(copy)]) == 0, capsys.readouterr()
    for pack in PACKS:
        before, after = build_pack(CONTENT / pack), build_pack(copy / pack)
        assert before.ok and after.ok, pack
        assert before.code is not None and after.code is not None
        assert _code_without_lines(after.code) == _code_without_lines(before.code), pack
