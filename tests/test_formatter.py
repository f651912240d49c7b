"""The formatter: canonical text, comments kept, idempotence, and round trips of random trees."""
from __future__ import annotations

import contextlib
import re
import textwrap
from pathlib import Path

import pytest
from dsl_strategies import (
    blocks,
    expressions,
    keyword_mappings,
    modules,
    mutated_rules,
    operator_expressions,
    rename,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import engine.dsl.formatter.expressions as F
from engine.dsl import ast as A
from engine.dsl.errors import DslError
from engine.dsl.formatter import format_expr, format_module, format_source, quote
from engine.dsl.parser import extract_comments, parse_effect, parse_module

PACKS = Path(__file__).parent / "packs"
TINYGAME = PACKS / "tinygame" / "rules.rules"

N = A.Name
Int = A.Int


def fmt(text: str) -> str:
    return format_source(textwrap.dedent(text))


def canon(text: str) -> str:
    return textwrap.dedent(text)


def check_fmt(messy: str, expected: str) -> None:
    got = fmt(messy)
    assert got == canon(expected)
    assert format_source(got) == got  # idempotent
    assert parse_module(got) == parse_module(textwrap.dedent(messy))


# ---- expressions ------------------------------------------------------------------------
@pytest.mark.parametrize("tree, text", [
    (Int(3), "3"),
    (Int(-3), "-3"),
    (A.Neg(N("x")), "-x"),
    (A.Neg(A.Neg(N("x"))), "--x"),
    (A.Neg(A.BinOp("+", N("a"), N("b"))), "-(a + b)"),
    (A.BinOp("-", N("a"), Int(-3)), "a - -3"),
    (A.BinOp("*", Int(-3), N("a")), "-3 * a"),
    (A.Attr(Int(-3), "x"), "(-3).x"),
    (A.Attr(Int(3), "x"), "3.x"),
    (A.Neg(A.Attr(Int(3), "x")), "-3.x"),
    (A.BinOp("-", N("a"), A.BinOp("-", N("b"), N("c"))), "a - (b - c)"),
    (A.BinOp("-", A.BinOp("-", N("a"), N("b")), N("c")), "a - b - c"),
    (A.BinOp("+", N("a"), A.BinOp("*", N("b"), N("c"))), "a + b * c"),
    (A.BinOp("*", A.BinOp("+", N("a"), N("b")), N("c")), "(a + b) * c"),
    (A.BinOp("/", N("a"), A.BinOp("%", N("b"), N("c"))), "a / (b % c)"),
    (A.Compare("==", A.Compare("<", N("a"), N("b")), N("c")), "(a < b) == c"),
    (A.Compare("in", N("a"), A.Compare("in", N("b"), N("c"))), "a in (b in c)"),
    (A.Compare("not in", A.BinOp("+", N("a"), Int(1)), N("b")), "a + 1 not in b"),
    (A.Not(A.Compare("==", N("a"), N("b"))), "not a == b"),
    (A.Compare("==", A.Not(N("a")), N("b")), "(not a) == b"),
    (A.Not(A.BoolOp("and", (N("a"), N("b")))), "not (a and b)"),
    (A.Not(A.Not(N("a"))), "not not a"),
    (A.BoolOp("or", (A.BoolOp("and", (N("a"), N("b"))), N("c"))), "a and b or c"),
    (A.BoolOp("and", (A.BoolOp("or", (N("a"), N("b"))), N("c"))), "(a or b) and c"),
    (A.BoolOp("or", (N("a"), A.BoolOp("or", (N("b"), N("c"))))), "a or (b or c)"),
    (A.BoolOp("and", (A.Not(N("a")), N("b"))), "not a and b"),
    (A.Neg(A.Not(N("a"))), "-(not a)"),
    (A.Attr(A.BinOp("+", N("a"), N("b")), "c"), "(a + b).c"),
    (A.Index(A.Attr(N("a"), "b"), (N("x"), Int(1))), "a.b[x, 1]"),
    (A.Call("f", ()), "f()"),
    (A.Call("min", (N("a"), A.BoolOp("or", (N("b"), N("c"))))), "min(a, b or c)"),
    (A.ListLit(()), "[]"),
    (A.ListLit((Int(1), A.Str("x"))), '[1, "x"]'),
    (A.Str('say "hi"\\ \n\tnow'), r'"say \"hi\"\\ \n\tnow"'),
    (A.Bool(True), "true"),
    (A.NoneLit(), "none"),
    (A.Comprehension(N("c"), "c", N("hand"), A.Compare(">", A.Attr(N("c"), "p"), Int(1))),
     "[c in hand where c.p > 1]"),
    (A.Comprehension(N("c"), "c", N("hand"), None), "[c for c in hand]"),
    (A.Comprehension(N("x"), "c", N("hand"), N("q")), "[x for c in hand where q]"),
    (A.Comprehension(A.Attr(N("c"), "p"), "c", A.BinOp("+", N("a"), N("b")), None),
     "[c.p for c in a + b]"),
    (A.Comprehension(N("c"), "c", A.BoolOp("or", (N("a"), N("b"))), N("d")),
     "[c in (a or b) where d]"),
    (A.Call("count", (A.Comprehension(N("x"), "x", N("hand"),
                                      A.Compare(">", A.Attr(N("x"), "power"), Int(1))),)),
     "count(x in hand where x.power > 1)"),
    (A.Call("sum", (A.Comprehension(A.Attr(N("x"), "v"), "x", N("src"), None),)),
     "sum(x.v for x in src)"),
    (A.Call("f", (A.Comprehension(N("x"), "x", N("s"), N("c")), Int(1))),
     "f([x in s where c], 1)"),
    (A.Call("sort", (N("h"), A.Lambda("c", A.Attr(N("c"), "power")))),
     "sort(h, c => c.power)"),
    (A.Call("path", (N("r"), A.Lambda("n", A.BoolOp("or", (N("a"), N("b")))))),
     "path(r, n => a or b)"),
])
def test_expressions(tree, text):
    assert format_expr(tree) == text
    (back,) = parse_effect(f"return {text}\n")
    assert back.value == tree


def test_quote():
    assert quote("") == '""'
    assert quote('a"b') == r'"a\"b"'
    assert quote("a\\b") == r'"a\\b"'
    assert quote("a\nb\tc#") == r'"a\nb\tc#"'


# ---- golden files -------------------------------------------------------------------------
def test_declarations_golden():
    check_fmt("""\
        type   card :
          number:int
          power : int=0
          owner: side ?
          tags:list   of text
        var active:side=red
        var rsm : int in 0 .. 13=13
        var score [ s:side ] : int = 0
        var target[s: side, c: card]: space? private
        var shown: int public


        var secret: int hidden
        zone deck of card ordered   hidden
        zone hand[s: side] of card private
        zone table
        event battle( at:space,attacker:side )
        event tick( )
        graph roads of space via road
        value hand_size(s:side):int=5-(unrest[s]/2)
        check "64 cards" : count( card )==64
        invariant "in range":every(s in sides where score[s]>=0)
        procedure best(s:side)->card:
          return first(hand[s])
        procedure noop():
          pass
        on setup:
          pass
        before battle(at,attacker) if rsm<5:
          pass
        instead   of battle( at ) if (at==rome):
          pass
        after battle():
          pass
    """, """\
        type card:
            number: int
            power: int = 0
            owner: side?
            tags: list of text

        var active: side = red
        var rsm: int in 0..13 = 13
        var score[s: side]: int = 0
        var target[s: side, c: card]: space? private
        var shown: int

        var secret: int hidden
        zone deck of card ordered hidden
        zone hand[s: side] of card private
        zone table
        event battle(at: space, attacker: side)
        event tick()
        graph roads of space via road
        value hand_size(s: side): int = 5 - unrest[s] / 2
        check "64 cards": count(card) == 64
        invariant "in range": every(s in sides where score[s] >= 0)

        procedure best(s: side) -> card:
            return first(hand[s])

        procedure noop():
            pass

        on setup:
            pass

        before battle(at, attacker) if rsm < 5:
            pass

        instead of battle(at) if at == rome:
            pass

        after battle:
            pass
    """)


def test_statements_golden():
    check_fmt("""\
        on turn(s):
          let c=choose c from hand[s] prompt "Play?" optional where c.power>1 by s
          let cs = choose up to (3) c from hand[s]
          let r = choose 1 to n+1 c from hand[s] require sum(x.power for x in c)>=4 by s
          let k = choose (2) c from [x in table where (x.power > 0)]
          choose c from table
          let yes=ask s "Use \\"it\\"?"
          let o = order hand[s] by s
          draw 2 from deck to hand[ s ]
          x = sort(hand[s], c=>c.power)
          score[s]+=1
          (c).power -= -1
          run(c.effect)
          emit battle(a,[x in b where c])
          enqueue battle()
          move c to top  of deck
          move [a,b] to bottom of deck
          move c to table
          shuffle deck
          reveal c
          reveal c to blue
          modify hand_size(s) by -1 until end of turn
          modify hand_size(s) by (1) until reshuffle
          modify bonus() by 2 while (rsm < 5)
          modify bonus() by 2
          log "x=%d",x , y
          if (a):
            win red
          elif not(b):
            end game
          else:
            return
          for c in hand[s] where c.power>1 :
            continue
          while x<3 :
            break
          repeat 3 :
            return (x + 1)
    """, """\
        on turn(s):
            let c = choose c from hand[s] by s where c.power > 1 optional prompt "Play?"
            let cs = choose up to 3 c from hand[s]
            let r = choose 1 to n + 1 c from hand[s] by s require sum(x.power for x in c) >= 4
            let k = choose 2 c from [x in table where x.power > 0]
            choose c from table
            let yes = ask s "Use \\"it\\"?"
            let o = order hand[s] by s
            draw 2 from deck to hand[s]
            x = sort(hand[s], c => c.power)
            score[s] += 1
            c.power -= -1
            run(c.effect)
            emit battle(a, [x in b where c])
            enqueue battle()
            move c to top of deck
            move [a, b] to bottom of deck
            move c to table
            shuffle deck
            reveal c
            reveal c to blue
            modify hand_size(s) by -1 until end of turn
            modify hand_size(s) by 1 until reshuffle
            modify bonus() by 2 while rsm < 5
            modify bonus() by 2
            log "x=%d", x, y
            if a:
                win red
            elif not b:
                end game
            else:
                return
            for c in hand[s] where c.power > 1:
                continue
            while x < 3:
                break
            repeat 3:
                return x + 1
    """)


def test_tabs_and_odd_indentation_become_four_spaces():
    text = "on setup:\n\tif a:\n\t\tpass\n\telse:\n\t  x = 1\n"
    assert format_source(text) == "on setup:\n    if a:\n        pass\n    else:\n        x = 1\n"


def test_blank_lines():
    check_fmt("""\


        var a: int
        var b: int



        var c: int
        type t:
            f: int
        on setup:

            x = 1


            y = 2
            if x:

                z = 3
            w = 4
        on turn(s):
            pass
        var d: int



    """, """\
        var a: int
        var b: int

        var c: int

        type t:
            f: int

        on setup:
            x = 1

            y = 2
            if x:
                z = 3
            w = 4

        on turn(s):
            pass

        var d: int
    """)


def test_blank_lines_before_elif_and_else_only_with_comments():
    check_fmt("""\
        on setup:
            if a:
                pass

            elif b:
                pass

            else:
                pass
            if a:
                pass

            # about b
            elif b:
                pass
            # about else

            else:
                pass
    """, """\
        on setup:
            if a:
                pass
            elif b:
                pass
            else:
                pass
            if a:
                pass

            # about b
            elif b:
                pass
            # about else

            else:
                pass
    """)


def test_comments_golden():
    check_fmt("""\
        # Header comment

        # second paragraph
        type card:   # the card type
            power:int=0    # power
            # before effect
            effect : effect?
            # end of type
        var active: side = red # who plays
        # about score
        var score[s: side]: int = 0
        procedure owner_of(c: card) -> side:   # header
            # leading
            if c in hand[red]:   # if header
                return red
                # end of the if body
            # before elif
            elif c in hand[blue]:  # elif header
                return blue

            # before else
            else:
                pass
            let x = f(a,
                # inside brackets
                b)  # after
            return none
            # end of procedure
        # before the trigger
        on setup:
            pass
                # deeper: kept at the end of the block
          # half-indented: moves out of the block
        # end of file

        # really the end
    """, """\
        # Header comment

        # second paragraph
        type card:  # the card type
            power: int = 0  # power
            # before effect
            effect: effect?
            # end of type

        var active: side = red  # who plays
        # about score
        var score[s: side]: int = 0

        procedure owner_of(c: card) -> side:  # header
            # leading
            if c in hand[red]:  # if header
                return red
                # end of the if body
            # before elif
            elif c in hand[blue]:  # elif header
                return blue

            # before else
            else:
                pass
            let x = f(a, b)  # inside brackets  # after
            return none
            # end of procedure

        # before the trigger
        on setup:
            pass
            # deeper: kept at the end of the block

        # half-indented: moves out of the block
        # end of file

        # really the end
    """)


ELSE_COMMENTS = """\
    on setup:
        if a:
            x = 1
            # end of the if block
      # before else
        else:   # on else
            # first in else
            y = 2
"""


def test_comments_around_else():
    assert format_source(ELSE_COMMENTS) == canon("""\
        on setup:
            if a:
                x = 1
                # end of the if block
            # before else
            else:  # on else
                # first in else
                y = 2
    """)


def test_comments_around_else_without_the_source_text():
    # the tree has no line for `else:`: without the text, its comments go before it
    assert format_module(parse_module(ELSE_COMMENTS)) == canon("""\
        on setup:
            if a:
                x = 1
                # end of the if block
            # before else
            # on else
            # first in else
            else:
                y = 2
    """)


def test_only_comments_and_empty_files():
    assert format_source("") == ""
    assert format_source("\n\n\n") == ""
    assert format_source("# a\n\n\n# b   \n") == "# a\n\n# b\n"


def test_comment_in_a_string_is_not_a_comment():
    check_fmt("""\
        var a: text = "# not a comment"  # a comment
    """, """\
        var a: text = "# not a comment"  # a comment
    """)


def test_windows_line_endings():
    text = "on setup:  # c\r\n    pass\r\n"
    assert format_source(text) == "on setup:  # c\n    pass\n"


def test_packs_format_stably():
    for path in sorted(PACKS.glob("*/*.rules")):
        text = path.read_text()
        out = format_source(text, str(path))
        assert format_source(out) == out, path
        assert parse_module(out) == parse_module(text), path
        assert _comment_text(out) == _comment_text(text), path


def test_syntax_errors_raise():
    with pytest.raises(DslError) as info:
        format_source("var x int\n", "x.rules")
    (d,) = info.value.diagnostics
    assert (d.path, d.line, d.code) == ("x.rules", 1, "E100")


def test_format_module_without_positions():
    m = A.Module("<m>", (
        A.VarDecl("a", (), A.TName("int")),
        A.TriggerDecl("on", "setup", None, None, (
            A.If(((N("a"), (A.Pass(),)),), (A.Win(N("red")),)),)),
    ))
    assert format_module(m) == canon("""\
        var a: int

        on setup:
            if a:
                pass
            else:
                win red
    """)
    assert parse_module(format_module(m), "<m>") == m


def test_deep_but_parseable_nesting():
    text = "check \"deep\": " + "-(" * 60 + "x" + ")" * 60 + " + " + "[" * 60 + "]" * 60 + "\n"
    out = format_source(text)
    assert parse_module(out) == parse_module(text)
    assert format_source(out) == out


# ---- properties -----------------------------------------------------------------------------
def _comment_text(text: str) -> str:
    """All comment text in order, whitespace removed (trailing comments may be merged)."""
    return "".join("".join(c[2].split()) for c in extract_comments(text))


_PROPS = settings(max_examples=150, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@_PROPS
@given(modules())
def test_round_trip_of_random_modules(m):
    text = format_module(m)
    assert parse_module(text) == m
    assert format_source(text) == text


@settings(max_examples=300, deadline=None)
@given(st.one_of(operator_expressions(), expressions(4)))
def test_round_trip_of_random_expressions(e):
    text = format_expr(e)
    (back,) = parse_effect(f"return {text}\n")
    assert back.value == e


@_PROPS
@given(blocks())
def test_round_trip_of_random_statements(body):
    m = A.Module("<rules>", (A.TriggerDecl("on", "setup", None, None, body),))
    text = format_module(m)
    assert parse_module(text) == m
    assert format_source(text) == text


_COMMENT_TEXT = st.text(st.characters(blacklist_categories=("Cs",),
                                      blacklist_characters="\n\r"), max_size=6)


@st.composite
def commented(draw: st.DrawFn, text: str) -> str:
    """`text` with comments added: lines of their own at any indentation, and at line ends;
    blank lines and odd indentation; none after a backslash, which joins the next line."""
    out = []
    joined = False
    for line in text.split("\n")[:-1]:  # only "\n" ends a line (strings may hold \r)
        added = 0 if joined else draw(st.integers(0, 2)) if draw(st.integers(0, 3)) == 0 else 0
        joined = line.endswith("\\")
        for _ in range(added):
            kind = draw(st.sampled_from(["comment", "blank"]))
            if kind == "blank":
                out.append(" " * draw(st.integers(0, 9)))
            else:
                out.append(" " * draw(st.integers(0, 9)) + "#" + draw(_COMMENT_TEXT))
        if line.strip() and not joined and draw(st.integers(0, 3)) == 0:
            line += " " * draw(st.integers(0, 3)) + "#" + draw(_COMMENT_TEXT)
        out.append(line)
    for _ in range(draw(st.integers(0, 2))):
        out.append(" " * draw(st.integers(0, 9)) + "#" + draw(_COMMENT_TEXT))
    return "\n".join(out) + "\n"


@settings(_PROPS, max_examples=100)
@given(st.data())
def test_comments_survive_and_formatting_is_idempotent(data):
    m = data.draw(modules())
    text = data.draw(commented(format_module(m)))
    out = format_source(text)
    assert parse_module(out) == m
    assert _comment_text(out) == _comment_text(text)
    assert format_source(out) == out


@settings(_PROPS, max_examples=60)
@given(st.data())
def test_formatting_without_the_source_text_is_stable_too(data):
    m = data.draw(modules())
    text = data.draw(commented(format_module(m)))
    out = format_module(parse_module(text))
    assert parse_module(out) == m
    assert _comment_text(out) == _comment_text(text)
    assert format_source(out) == out


def _reindent(text: str, unit: str) -> str:
    return re.sub(r"(?m)^((?:    )+)", lambda mt: unit * (len(mt.group(1)) // 4), text)


@settings(_PROPS, max_examples=80)
@given(modules(), st.sampled_from(["  ", "\t", "   ", "        "]))
def test_any_indentation_width_gives_the_canonical_text(m, unit):
    text = format_module(m)
    assume(parse_module(text) == m)
    assert format_source(_reindent(text, unit)) == format_source(text)


@_PROPS
@given(mutated_rules(TINYGAME.read_text()))
def test_whatever_parses_formats_to_the_same_tree(text):
    try:
        m = parse_module(text)
    except DslError:
        return
    out = format_source(text)
    assert parse_module(out) == m
    assert _comment_text(out) == _comment_text(text)
    assert format_source(out) == out


@contextlib.contextmanager
def _all_parentheses():
    """Make the formatter put parentheses around every operand: valid, if messy, text."""
    saved = F._prec
    F._prec = lambda e: F.P_LAMBDA
    try:
        yield
    finally:
        F._prec = saved


@_PROPS
@given(modules())
def test_redundant_parentheses_are_dropped(m):
    with _all_parentheses():
        messy = format_module(m)
    assert parse_module(messy) == m
    assert format_source(messy) == format_module(m)


@_PROPS
@given(modules(), keyword_mappings)
def test_names_that_are_keywords_keep_their_meaning(m, mapping):
    # Where the keyword cannot stand the lexer reads it as a name (`(order).x`,
    # `procedure return()`): whatever such text parses to, its formatting must keep.
    m = rename(m, mapping)
    with _all_parentheses():
        messy = format_module(m)
    for text in (messy, format_module(m)):
        try:
            tree = parse_module(text)
        except DslError:
            continue
        out = format_module(tree)
        assert parse_module(out) == tree
        assert format_source(out) == out


def test_keyword_names_in_parentheses():
    for messy, expected in [
        ("on setup:\n    (order).x = 1\n", "on setup:\n    (order).x = 1\n"),
        ("on setup:\n    (modify()) += (draw) + 1\n", "on setup:\n    (modify()) += (draw) + 1\n"),
        ("on setup:\n    move c to (top)\n", "on setup:\n    move c to (top)\n"),
        ("on setup:\n    let x = choose (up) c from h\n",
         "on setup:\n    let x = choose (up) c from h\n"),
        ("on setup:\n    let x = ((ask) or b)\n", "on setup:\n    let x = (ask) or b\n"),
        ("on setup:\n    x = f((order), y.value)\n", "on setup:\n    x = f(order, y.value)\n"),
        ("procedure return(if: int):\n    pass\n", "procedure return(if: int):\n    pass\n"),
    ]:
        assert format_source(messy) == expected
        assert parse_module(expected) == parse_module(messy)
