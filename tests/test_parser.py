"""The parser: every construct into its syntax tree, positions, syntax errors, robustness."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from dsl_strategies import mutated_rules, rule_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dsl import ast as A
from engine.dsl.errors import DslError
from engine.dsl.parser import extract_comments, parse_effect, parse_module

TINYGAME = Path(__file__).parent / "packs" / "tinygame" / "rules.rules"

N = A.Name
Int = A.Int


def mod(text: str) -> A.Module:
    return parse_module(textwrap.dedent(text), "t.rules")


def decl(text: str) -> A.Decl:
    (d,) = mod(text).decls
    return d


def stmts(text: str) -> tuple[A.Stmt, ...]:
    return parse_effect(textwrap.dedent(text))


def stmt(text: str) -> A.Stmt:
    (s,) = stmts(text)
    return s


def expr(text: str) -> A.Expr:
    s = stmt(f"return {text}")
    assert isinstance(s, A.Return)
    return s.value


def errors(text: str, path: str = "t.rules"):
    with pytest.raises(DslError) as info:
        parse_module(textwrap.dedent(text), path)
    return info.value.diagnostics


# ---- expressions ------------------------------------------------------------------------
@pytest.mark.parametrize("text, tree", [
    ("0", Int(0)),
    ("42", Int(42)),
    ("-3", Int(-3)),
    ("-(3)", Int(-3)),
    ("- -3", Int(3)),
    ("-x", A.Neg(N("x"))),
    ("-(x)", A.Neg(N("x"))),
    ("--x", A.Neg(A.Neg(N("x")))),
    ('"hi"', A.Str("hi")),
    ('""', A.Str("")),
    (r'"a\"b\\c\nd\te\q"', A.Str('a"b\\c\nd\teq')),
    ('"# not a comment"', A.Str("# not a comment")),
    ("true", A.Bool(True)),
    ("false", A.Bool(False)),
    ("none", A.NoneLit()),
    ("rome", N("rome")),
    ("ends", N("ends")),           # starts with the keyword `end`
    ("order_x", N("order_x")),
    ("f()", A.Call("f", ())),
    ("min(a, 2)", A.Call("min", (N("a"), Int(2)))),
    ("a.b", A.Attr(N("a"), "b")),
    ("a.b.c", A.Attr(A.Attr(N("a"), "b"), "c")),
    ("a[1]", A.Index(N("a"), (Int(1),))),
    ("lookup(t, 1, 2)[x, y].z",
     A.Attr(A.Index(A.Call("lookup", (N("t"), Int(1), Int(2))), (N("x"), N("y"))), "z")),
    ("(-3).x", A.Attr(Int(-3), "x")),
    ("-3.x", A.Neg(A.Attr(Int(3), "x"))),
    ("[]", A.ListLit(())),
    ("[1, a]", A.ListLit((Int(1), N("a")))),
    ("[[1]]", A.ListLit((A.ListLit((Int(1),)),))),
])
def test_atoms_and_postfix(text, tree):
    assert expr(text) == tree


@pytest.mark.parametrize("text, tree", [
    ("1 + 2 * 3", A.BinOp("+", Int(1), A.BinOp("*", Int(2), Int(3)))),
    ("(1 + 2) * 3", A.BinOp("*", A.BinOp("+", Int(1), Int(2)), Int(3))),
    ("a - b - c", A.BinOp("-", A.BinOp("-", N("a"), N("b")), N("c"))),
    ("a - (b - c)", A.BinOp("-", N("a"), A.BinOp("-", N("b"), N("c")))),
    ("a / b % c", A.BinOp("%", A.BinOp("/", N("a"), N("b")), N("c"))),
    ("a - -3", A.BinOp("-", N("a"), Int(-3))),
    ("-a * b", A.BinOp("*", A.Neg(N("a")), N("b"))),
    ("-(a * b)", A.Neg(A.BinOp("*", N("a"), N("b")))),
    ("-a.b", A.Neg(A.Attr(N("a"), "b"))),
    ("a + b == c", A.Compare("==", A.BinOp("+", N("a"), N("b")), N("c"))),
    ("(a < b) == c", A.Compare("==", A.Compare("<", N("a"), N("b")), N("c"))),
    ("a != b", A.Compare("!=", N("a"), N("b"))),
    ("a <= b", A.Compare("<=", N("a"), N("b"))),
    ("a >= b", A.Compare(">=", N("a"), N("b"))),
    ("a < b", A.Compare("<", N("a"), N("b"))),
    ("a > b", A.Compare(">", N("a"), N("b"))),
    ("c in hand[s]", A.Compare("in", N("c"), A.Index(N("hand"), (N("s"),)))),
    ("c not in table", A.Compare("not in", N("c"), N("table"))),
    ("not a == b", A.Not(A.Compare("==", N("a"), N("b")))),
    ("not not a", A.Not(A.Not(N("a")))),
    ("not a and b", A.BoolOp("and", (A.Not(N("a")), N("b")))),
    ("not (a and b)", A.Not(A.BoolOp("and", (N("a"), N("b"))))),
    ("a or b or c", A.BoolOp("or", (N("a"), N("b"), N("c")))),
    ("a and b or c", A.BoolOp("or", (A.BoolOp("and", (N("a"), N("b"))), N("c")))),
    ("a or b and c", A.BoolOp("or", (N("a"), A.BoolOp("and", (N("b"), N("c")))))),
    ("(a or b) and c", A.BoolOp("and", (A.BoolOp("or", (N("a"), N("b"))), N("c")))),
    ("a or (b or c)", A.BoolOp("or", (N("a"), A.BoolOp("or", (N("b"), N("c")))))),
])
def test_operators(text, tree):
    assert expr(text) == tree


def test_comparisons_do_not_chain():
    with pytest.raises(DslError):
        expr("a < b < c")


@pytest.mark.parametrize("text, tree", [
    ("[c in hand where c.power > 1]",
     A.Comprehension(N("c"), "c", N("hand"),
                     A.Compare(">", A.Attr(N("c"), "power"), Int(1)))),
    ("[c.power for c in hand]",
     A.Comprehension(A.Attr(N("c"), "power"), "c", N("hand"), None)),
    ("[c.power for c in hand where c.power > 1]",
     A.Comprehension(A.Attr(N("c"), "power"), "c", N("hand"),
                     A.Compare(">", A.Attr(N("c"), "power"), Int(1)))),
    ("[c for c in a + b]", A.Comprehension(N("c"), "c", A.BinOp("+", N("a"), N("b")), None)),
    ("count(hand[s])", A.Call("count", (A.Index(N("hand"), (N("s"),)),))),
    ("count(c in card where c.power == 2)",
     A.Call("count", (A.Comprehension(N("c"), "c", N("card"),
                                      A.Compare("==", A.Attr(N("c"), "power"), Int(2))),))),
    ("count([c in card where c.power == 2])",
     A.Call("count", (A.Comprehension(N("c"), "c", N("card"),
                                      A.Compare("==", A.Attr(N("c"), "power"), Int(2))),))),
    ("sum(c.power for c in table)",
     A.Call("sum", (A.Comprehension(A.Attr(N("c"), "power"), "c", N("table"), None),))),
    ("sum(x.v for x in t where x.v > 0)",
     A.Call("sum", (A.Comprehension(A.Attr(N("x"), "v"), "x", N("t"),
                                    A.Compare(">", A.Attr(N("x"), "v"), Int(0))),))),
    ("sort(hand[s], c => c.power)",
     A.Call("sort", (A.Index(N("hand"), (N("s"),)), A.Lambda("c", A.Attr(N("c"), "power"))))),
    ("path(roads, a, b, n => n in enemy or n == x)",
     A.Call("path", (N("roads"), N("a"), N("b"),
                     A.Lambda("n", A.BoolOp("or", (A.Compare("in", N("n"), N("enemy")),
                                                   A.Compare("==", N("n"), N("x")))))))),
])
def test_queries(text, tree):
    assert expr(text) == tree


@pytest.mark.parametrize("text", ["[x + 1 where y]", "count(x.y in z where q)",
                                  "[x == y where z]", "[1 in y where z]"])
def test_a_filter_needs_a_name_in_a_source(text):
    with pytest.raises(DslError) as info:
        expr(text)
    (d,) = info.value.diagnostics
    assert d.code == "E104" and "[x in source where condition]" in d.message


# ---- statements -------------------------------------------------------------------------
@pytest.mark.parametrize("text, tree", [
    ("let x = 1", A.Let("x", Int(1))),
    ("x = y + 1", A.Assign(N("x"), A.BinOp("+", N("y"), Int(1)))),
    ("score[s] = 0", A.Assign(A.Index(N("score"), (N("s"),)), Int(0))),
    ("c.power = 0", A.Assign(A.Attr(N("c"), "power"), Int(0))),
    ("x += 1", A.AugAssign(N("x"), "+=", Int(1))),
    ("score[s] -= 2", A.AugAssign(A.Index(N("score"), (N("s"),)), "-=", Int(2))),
    ("run(c.effect)", A.ExprStmt(A.Call("run", (A.Attr(N("c"), "effect"),)))),
    ("emit battle(capua, red)", A.Emit("battle", (N("capua"), N("red")), False)),
    ("emit setup()", A.Emit("setup", (), False)),
    ("enqueue battle(capua)", A.Emit("battle", (N("capua"),), True)),
    ("move c to hand[s]", A.Move(N("c"), A.Index(N("hand"), (N("s"),)), None)),
    ("move c to top of deck", A.Move(N("c"), N("deck"), "top")),
    ("move [a, b] to bottom of deck", A.Move(A.ListLit((N("a"), N("b"))), N("deck"), "bottom")),
    ("shuffle deck", A.Shuffle(N("deck"))),
    ("reveal c", A.Reveal(N("c"), None)),
    ("reveal c to blue", A.Reveal(N("c"), N("blue"))),
    ("modify hand_size(s) by -1",
     A.Modify("hand_size", (N("s"),), Int(-1), None)),
    ("modify hand_size(s) by -1 until end of turn",
     A.Modify("hand_size", (N("s"),), Int(-1), A.Duration("end_of", "turn"))),
    ("modify hand_size(s) by 2 until reshuffle",
     A.Modify("hand_size", (N("s"),), Int(2), A.Duration("start_of", "reshuffle"))),
    ("modify bonus() by x while rsm < 5",
     A.Modify("bonus", (), N("x"),
              A.Duration("while", None, A.Compare("<", N("rsm"), Int(5))))),
    ("win red", A.Win(N("red"))),
    ("end game", A.EndGame()),
    ("return", A.Return(None)),
    ("return x + 1", A.Return(A.BinOp("+", N("x"), Int(1)))),
    ('log "text"', A.Log("text", ())),
    ('log "text {} {}", a, b.c', A.Log("text {} {}", (N("a"), A.Attr(N("b"), "c")))),
    ("pass", A.Pass()),
    ("break", A.Break()),
    ("continue", A.Continue()),
    ('let yes = ask s "Use the reserve?"', A.Let("yes", A.Ask(N("s"), "Use the reserve?"))),
    ("let o = order hand[s] by s",
     A.Let("o", A.Order(A.Index(N("hand"), (N("s"),)), N("s")))),
    ("let got = draw 2 from deck to hand[s]",
     A.Let("got", A.Draw(Int(2), N("deck"), A.Index(N("hand"), (N("s"),))))),
    ("draw 1 from deck to table", A.ActionStmt(A.Draw(Int(1), N("deck"), N("table")))),
    ('ask blue "Ready?"', A.ActionStmt(A.Ask(N("blue"), "Ready?"))),
    ("x = order a by b", A.Assign(N("x"), A.Order(N("a"), N("b")))),
])
def test_simple_statements(text, tree):
    assert stmt(text) == tree


HAND = A.Index(N("hand"), (N("s"),))
POWER_GT_1 = A.Compare(">", A.Attr(N("c"), "power"), Int(1))


@pytest.mark.parametrize("text, tree", [
    ("let c = choose c from hand[s]", A.Choose(None, "c", HAND)),
    ("let c = choose c from hand[s] by s", A.Choose(None, "c", HAND, by=N("s"))),
    ('let c = choose c from hand[s] by s where c.power > 1 optional prompt "Play?"',
     A.Choose(None, "c", HAND, by=N("s"), where=POWER_GT_1, optional=True, prompt="Play?")),
    ('let c = choose c from hand[s] prompt "Play?" optional where c.power > 1 by s',
     A.Choose(None, "c", HAND, by=N("s"), where=POWER_GT_1, optional=True, prompt="Play?")),
    ("let cs = choose 2 c from hand[s] by s",
     A.Choose(A.Count("exact", None, Int(2)), "c", HAND, by=N("s"))),
    ("let cs = choose n c from hand[s]",
     A.Choose(A.Count("exact", None, N("n")), "c", HAND)),
    ("let cs = choose up to 3 c from hand[s] by s",
     A.Choose(A.Count("up_to", None, Int(3)), "c", HAND, by=N("s"))),
    ("let cs = choose 1 to n + 1 c from hand[s] require sum(x.power for x in c) >= 4",
     A.Choose(A.Count("range", Int(1), A.BinOp("+", N("n"), Int(1))), "c", HAND,
              require=A.Compare(">=", A.Call("sum", (A.Comprehension(
                  A.Attr(N("x"), "power"), "x", N("c"), None),)), Int(4)))),
    ("choose c from table", A.ActionStmt(A.Choose(None, "c", N("table")))),
])
def test_choose(text, tree):
    got = stmt(text)
    value = got.action if isinstance(got, A.ActionStmt) else got.value
    want = tree.action if isinstance(tree, A.ActionStmt) else tree
    assert value == want


def test_choose_option_twice_is_an_error():
    with pytest.raises(DslError) as info:
        parse_effect("let c = choose c from hand by a where x by b\n", "e", 3, 7)
    (d,) = info.value.diagnostics
    assert (d.code, d.line, d.col) == ("E103", 3, 15)
    assert d.message == "'by' given twice in one choice"


def test_compound_statements():
    got = stmts("""\
        if a:
            x = 1
        elif b:
            x = 2
        elif c:
            pass
        else:
            x = 3
            y = 4
        if a:
            pass
        for c in hand[s] where c.power > 1:
            continue
        for c in card:
            break
        while x < 3:
            x += 1
        repeat 4:
            emit turn(active)
    """)
    assert got == (
        A.If(((N("a"), (A.Assign(N("x"), Int(1)),)),
              (N("b"), (A.Assign(N("x"), Int(2)),)),
              (N("c"), (A.Pass(),))),
             (A.Assign(N("x"), Int(3)), A.Assign(N("y"), Int(4)))),
        A.If(((N("a"), (A.Pass(),)),), None),
        A.For("c", HAND, POWER_GT_1, (A.Continue(),)),
        A.For("c", N("card"), None, (A.Break(),)),
        A.While(A.Compare("<", N("x"), Int(3)), (A.AugAssign(N("x"), "+=", Int(1)),)),
        A.Repeat(Int(4), (A.Emit("turn", (N("active"),)),)),
    )


def test_nested_blocks_comments_and_blank_lines():
    got = stmts("""\
        # leading
        for a in b:   # trailing

            if a:
        # badly indented comment
                x = [1,
                     2]  # inside brackets
            # dedented comment

        y = 1 \\
            + 2
    """)
    assert got == (
        A.For("a", N("b"), None, (
            A.If(((N("a"), (A.Assign(N("x"), A.ListLit((Int(1), Int(2)))),)),), None),)),
        A.Assign(N("y"), A.BinOp("+", Int(1), Int(2))),
    )


def test_effect_text_without_final_newline_and_empty():
    assert parse_effect("score[owner] += 1") == (
        A.AugAssign(A.Index(N("score"), (N("owner"),)), "+=", Int(1)),)
    assert parse_effect("") == ()
    assert parse_effect("# only a comment\n\n") == ()


# ---- declarations -----------------------------------------------------------------------
def test_type_declaration():
    assert decl("""\
        type card:                        # a record type
            number: int
            power: int = 0
            owner: side?
            tags: list of text
            grid: list of list of space?
    """) == A.TypeDecl("card", (
        A.FieldDecl("number", A.TName("int")),
        A.FieldDecl("power", A.TName("int"), Int(0)),
        A.FieldDecl("owner", A.TOptional("side")),
        A.FieldDecl("tags", A.TList(A.TName("text"))),
        A.FieldDecl("grid", A.TList(A.TList(A.TOptional("space")))),
    ))


@pytest.mark.parametrize("text, tree", [
    ("var active: side = red", A.VarDecl("active", (), A.TName("side"), None, N("red"))),
    ("var rsm: int in 0..13 = 13",
     A.VarDecl("rsm", (), A.TName("int"), (Int(0), Int(13)), Int(13))),
    ("var t: int in -3..n + 1", A.VarDecl("t", (), A.TName("int"),
                                          (Int(-3), A.BinOp("+", N("n"), Int(1))))),
    ("var score[s: side]: int = 0",
     A.VarDecl("score", (A.Param("s", A.TName("side")),), A.TName("int"), None, Int(0))),
    ("var target[s: side, c: card]: space? private",
     A.VarDecl("target", (A.Param("s", A.TName("side")), A.Param("c", A.TName("card"))),
               A.TOptional("space"), None, None, "private")),
    ("var secret: int hidden", A.VarDecl("secret", (), A.TName("int"), visibility="hidden")),
    ("var open: int public", A.VarDecl("open", (), A.TName("int"))),
    ("zone deck of card ordered hidden", A.ZoneDecl("deck", (), "card", ("ordered", "hidden"))),
    ("zone hand[s: side] of card private",
     A.ZoneDecl("hand", (A.Param("s", A.TName("side")),), "card", ("private",))),
    ("zone table", A.ZoneDecl("table", (), None, ())),
    ("zone pile public ordered", A.ZoneDecl("pile", (), None, ("public", "ordered"))),
    ("event battle(at: space, attacker: side)",
     A.EventDecl("battle", (A.Param("at", A.TName("space")),
                            A.Param("attacker", A.TName("side"))))),
    ("event tick()", A.EventDecl("tick", ())),
    ("graph roads of space via road", A.GraphDecl("roads", "space", "road")),
    ("value hand_size(s: side): int = 5 - unrest[s] / 2",
     A.ValueDecl("hand_size", (A.Param("s", A.TName("side")),), A.TName("int"),
                 A.BinOp("-", Int(5), A.BinOp("/", A.Index(N("unrest"), (N("s"),)), Int(2))))),
    ('check "64 strategy cards": count(card) == 64',
     A.CheckDecl("64 strategy cards", A.Compare("==", A.Call("count", (N("card"),)), Int(64)))),
    ('invariant "score in range": every(s in sides where score[s] >= 0)',
     A.CheckDecl("score in range", A.Call("every", (A.Comprehension(
         N("s"), "s", N("sides"),
         A.Compare(">=", A.Index(N("score"), (N("s"),)), Int(0))),)), True)),
])
def test_one_line_declarations(text, tree):
    assert decl(text) == tree


def test_procedures_and_triggers():
    got = mod("""\
        procedure best(s: side) -> card:
            return first(hand[s])
        procedure noop():
            pass
        on setup:
            pass
        before battle(at, attacker) if rsm < 5:
            pass
        on battle(at):
            pass
        on battle():
            pass
        instead of battle(at, attacker) if at == rome:
            pass
        after battle:
            pass
    """).decls
    body = (A.Pass(),)
    assert got == (
        A.ProcDecl("best", (A.Param("s", A.TName("side")),), A.TName("card"),
                   (A.Return(A.Call("first", (HAND,))),)),
        A.ProcDecl("noop", (), None, body),
        A.TriggerDecl("on", "setup", None, None, body),
        A.TriggerDecl("before", "battle", ("at", "attacker"),
                      A.Compare("<", N("rsm"), Int(5)), body),
        A.TriggerDecl("on", "battle", ("at",), None, body),
        A.TriggerDecl("on", "battle", None, None, body),  # `()` is the same as no names
        A.TriggerDecl("instead", "battle", ("at", "attacker"),
                      A.Compare("==", N("at"), N("rome")), body),
        A.TriggerDecl("after", "battle", None, None, body),
    )


def test_tinygame_parses():
    m = parse_module(TINYGAME.read_text(), str(TINYGAME))
    kinds = [type(d).__name__ for d in m.decls]
    assert kinds == ["TypeDecl", "VarDecl", "VarDecl", "ZoneDecl", "ZoneDecl", "ZoneDecl",
                     "EventDecl", "ProcDecl", "TriggerDecl", "TriggerDecl"]
    assert m.path == str(TINYGAME)


# ---- comments and positions -------------------------------------------------------------
def test_comments_are_collected_with_positions():
    m = mod("""\
        # first
        var a: int = 1   # trailing
        var b: text = "# not a comment"  # real
        on setup:
            # inside
            pass
    """)
    assert m.comments == ((1, 1, "# first"), (2, 18, "# trailing"), (3, 34, "# real"),
                          (5, 5, "# inside"))


def test_comment_lines_are_counted_like_the_lexer():
    # \f and \x1c end a line for str.splitlines, not for the lexer
    text = 'var a: text = "\f\x1c"  # one\r\n# two\r\nvar b: int\n'
    m = parse_module(text)
    assert m.comments == ((1, 21, "# one"), (2, 1, "# two"))
    assert [d.at.line for d in m.decls] == [1, 3]
    assert extract_comments('"#" # x\n') == ((1, 5, "# x"),)


def test_positions_of_declarations_statements_and_expressions():
    m = mod("""\
        var a: int = 1

        on setup:
            let x = a + 10
            if x > 3:
                win red
    """)
    var, trig = m.decls
    assert (var.at.line, var.at.col) == (1, 1)
    assert (var.default.at.line, var.default.at.col) == (1, 14)
    assert (trig.at.line, trig.at.col) == (3, 1)
    let, if_ = trig.body
    assert (let.at.line, let.at.col, let.at.end_line, let.at.end_col) == (4, 5, 4, 19)
    plus = let.value
    assert (plus.at.line, plus.at.col, plus.at.end_col) == (4, 13, 19)
    assert (plus.right.at.col, plus.right.at.end_col) == (17, 19)
    assert (if_.at.line, if_.at.col) == (5, 5)
    cond, body = if_.branches[0]
    assert (cond.at.line, cond.at.col) == (5, 8)
    assert (body[0].at.line, body[0].at.col) == (6, 9)


def test_positions_after_error_recovery_keep_file_lines():
    # with a broken declaration the file is parsed declaration by declaration
    with pytest.raises(DslError):
        mod("var a int\nvar b: int\n")
    # the good declarations of such a file still know their lines
    from engine.dsl.parser import parse_module_partial
    m, diags, _broken = parse_module_partial("var a int\n\n# c\nvar b: int = 7\n", "t")
    assert len(diags) == 1
    (b,) = m.decls
    assert (b.at.line, b.default.at.line, b.default.at.col) == (4, 4, 14)


def test_a_broken_declaration_leaves_formatted_brackets_elsewhere_alone():
    """The formatter closes a long bracketed expression in column 1: after an error elsewhere,
    the declaration it closes still parses, and the one error reported is the real one."""
    from engine.dsl.parser import parse_module_partial
    text = ("value f(x: int): bool = (\n    x > 1 and x < 3\n)\n\n"
            "value g(x: int): list of int = [\n    x\n]\n\non setup:\n    log x, \"hi\"\n")
    m, diags, _broken = parse_module_partial(text, "t")
    assert [(d.line, d.col) for d in diags] == [(10, 9)]
    assert [d.name for d in m.decls] == ["f", "g"]


def test_effect_positions_are_shifted_to_the_field():
    body = parse_effect("score[owner] += 1\nlet x = 2\n", "cards.yaml", 10, 7)
    first, second = body
    assert (first.at.line, first.at.col) == (10, 7)
    assert (first.target.at.line, first.target.at.col) == (10, 7)
    assert (first.value.at.line, first.value.at.col) == (10, 23)
    assert (second.at.line, second.at.col) == (11, 7)
    assert (second.value.at.line, second.value.at.col) == (11, 15)


def test_effect_errors_are_shifted_to_the_field():
    with pytest.raises(DslError) as info:
        parse_effect("pass\nlet = 2\n", "cards.yaml", 10, 7)
    (d,) = info.value.diagnostics
    assert (d.code, d.path, d.line, d.col) == ("E100", "cards.yaml", 11, 11)
    assert d.message.startswith("unexpected '='; expected a name")
    assert d.line_text == "let = 2"


# ---- syntax errors ----------------------------------------------------------------------
def test_syntax_error_message_and_location():
    (d,) = errors("""\
        type card:
            power int
    """)
    assert d.code == "E100"
    assert d.severity == "error"
    assert d.path == "t.rules"
    assert (d.line, d.col, d.end_col) == (2, 11, 14)
    assert d.message == "unexpected 'int'; expected ':', end of line"
    assert d.line_text == "    power int"
    assert d.render().splitlines() == [
        "t.rules:2:11: error[E100]: unexpected 'int'; expected ':', end of line",
        "  2 |     power int",
        "    |           ^^^",
    ]


def test_unexpected_end_of_line_points_at_the_line_end():
    (d,) = errors("var x: int =\n")
    assert (d.code, d.line, d.col) == ("E100", 1, 13)
    assert d.message.startswith("unexpected end of line; expected '(', '-', '['")
    assert d.line_text == "var x: int ="


def test_unexpected_character():
    (d,) = errors("var x: text = 'a'\n")
    assert (d.code, d.line, d.col) == ("E100", 1, 15)
    assert d.message == "unexpected character \"'\"; strings use double quotes"
    (d,) = errors("var x: int = 1 $\n")
    assert (d.line, d.col, d.message) == (1, 16, "unexpected character '$'")


def test_unexpected_end_of_file():
    (d,) = errors("on setup:\n")
    assert d.code == "E100" and d.line >= 1 and d.col >= 1
    assert "unexpected" in d.message


def test_every_broken_declaration_is_reported():
    diags = errors("""\
        var a: int
        var b int
        var c: int
        zone z of
        on setup:
            x = = 1
            pass
        on turn(s):
            pass
    """)
    assert [(d.code, d.line, d.col) for d in diags] == [
        ("E100", 2, 7), ("E100", 4, 10), ("E100", 6, 9)]
    assert [d.line_text for d in diags] == ["var b int", "zone z of", "    x = = 1"]
    assert diags[2].message.startswith("unexpected '='")


def test_inconsistent_indentation():
    """Hole 12: the error is on the line whose indentation matches no block, at its first
    token (it was reported at line 1, column 1 of the declaration)."""
    (d,) = errors("""\
        on setup:
                x = 1
            y = 2
    """)
    assert (d.code, d.line, d.col, d.end_col) == ("E101", 3, 5, 6)
    assert d.message == ("inconsistent indentation: this line is indented 4 columns, but the "
                         "enclosing blocks are indented 0, 8")
    assert d.line_text == "    y = 2"


def test_inconsistent_indentation_in_an_effect_is_shifted_to_the_field():
    with pytest.raises(DslError) as info:
        parse_effect("if true:\n        pass\n    pass\n", "cards.yaml", 10, 7)
    (d,) = info.value.diagnostics
    assert (d.code, d.path, d.line, d.col) == ("E101", "cards.yaml", 12, 11)


def test_unexpected_indentation():
    (d,) = errors("var x: int = 1\n  y\n")
    assert d.code == "E100" and d.message.startswith("unexpected indentation")
    assert (d.line, d.col, d.end_col, d.line_text) == (2, 3, 4, "  y")


def test_token_errors_after_a_long_line_point_at_the_token():
    """Hole 12: an indented line after a long line, blank lines and a comment was reported at
    the end of the long line (`state.rules:188:129`), where the line break token starts.
    Other unexpected tokens, and unclosed brackets, already pointed at themselves."""
    long = "    let total = " + " + ".join(f"count(hand{i})" for i in range(8))
    (d,) = errors(f"on setup:\n{long}\n\n    # a comment\n        let z = 2\n")
    assert (d.code, d.line, d.col, d.end_col) == ("E100", 5, 9, 12)
    assert d.message.startswith("unexpected indentation")
    assert d.line_text == "        let z = 2"
    (d,) = errors(f"on setup:\n{long}\n\n    let z = = 2\n")
    assert (d.code, d.line, d.col, d.end_col) == ("E100", 4, 13, 14)
    (d,) = errors(f"on setup:\n{long}\n    let z = count(hand\n")
    assert (d.line, d.col, d.message) == (3, 18, "'(' is never closed")
    # a block that ends with the file before it began: at the end of its header
    (d,) = errors(f"on setup:\n{long}\n    if true:\n\n# the end\n")
    assert (d.line, d.col) == (3, 13)
    assert d.message == "unexpected end of file; expected an indented block"


def test_absurd_nesting_is_a_located_error_not_a_crash():
    deep = "(" * 2000 + "1" + ")" * 2000
    (d,) = errors(f"var ok: int\ncheck \"deep\": {deep}\n")
    assert (d.code, d.line, d.col) == ("E106", 2, 115)  # the 101st bracket
    assert "nested too deeply" in d.message
    # signs fold into the literal, so 5,000 of them are no nesting
    assert stmt("x = " + "-" * 5000 + "1\n").value == Int(1)
    with pytest.raises(DslError) as info:
        parse_effect("x = " + "not " * 5000 + "true\n")
    assert "nested too deeply" in info.value.diagnostics[0].message
    with pytest.raises(DslError) as info:
        parse_effect("x = " + " + ".join(["1"] * 5000) + "\n")
    assert "nested too deeply" in info.value.diagnostics[0].message


def test_reasonable_nesting_parses():
    assert expr("(" * 100 + "1" + ")" * 100) == Int(1)


# ---- robustness: nothing but a Module or a DslError ---------------------------------------
def _parses_or_reports(text: str) -> None:
    try:
        m = parse_module(text, "fuzz.rules")
    except DslError as err:
        assert err.diagnostics
        for d in err.diagnostics:
            assert d.line >= 1 and d.col >= 1, d
            assert d.code.startswith("E1")
            assert d.path == "fuzz.rules"
    else:
        assert isinstance(m, A.Module)


def _effect_parses_or_reports(text: str) -> None:
    try:
        parse_effect(text, "cards.yaml", 3, 5)
    except DslError as err:
        for d in err.diagnostics:
            assert d.line >= 3 and d.col >= 1, d


_FUZZ = settings(max_examples=250, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


@_FUZZ
@given(st.text())
def test_any_text_parses_or_reports(text):
    _parses_or_reports(text)


@_FUZZ
@given(rule_text())
def test_any_token_soup_parses_or_reports(text):
    _parses_or_reports(text)
    _effect_parses_or_reports(text)


@_FUZZ
@given(mutated_rules(TINYGAME.read_text()))
def test_mutated_rules_parse_or_report(text):
    _parses_or_reports(text)


def test_unclosed_bracket_on_the_last_line_is_named():
    from engine.dsl.errors import DslError
    from engine.dsl.parser import parse_module
    with pytest.raises(DslError) as err:
        parse_module("on setup:\n    let x = count(hand[s]\n", "u.rules")
    [d] = err.value.diagnostics
    assert (d.line, d.col, d.message) == (2, 18, "'(' is never closed")


# ---- the parser's tables and its one pass ---------------------------------------------------
def test_the_shipped_tables_are_the_grammars():
    from engine.dsl.parser import tables
    from engine.dsl.parser.__main__ import main
    assert tables.shipped() is not None, "run python -m engine.dsl.parser"
    assert main(["parser", "--check"]) == 0


def test_the_parser_from_the_tables_reads_as_the_one_built_from_the_grammar():
    from engine.dsl.parser.lark_front import built_parser, lark_parser
    shipped, built = lark_parser(), built_parser()
    for path in sorted((Path(__file__).parent.parent / "content").glob("*/*.rules"))[:12]:
        text = path.read_text(encoding="utf-8")
        assert shipped.parse(text, start="start") == built.parse(text, start="start"), path


def test_tables_of_another_grammar_are_not_used(tmp_path, monkeypatch):
    from engine.dsl.parser import tables
    other = tmp_path / "grammar.lark"
    other.write_text(tables.GRAMMAR.read_text(encoding="utf-8") + "// changed\n",
                     encoding="utf-8")
    monkeypatch.setattr(tables, "GRAMMAR", other)
    assert tables.shipped() is None
    from engine.dsl.parser import __main__ as command
    monkeypatch.setattr(command, "shipped", tables.shipped)
    assert command.main(["parser", "--check"]) == 1


def test_a_syntax_error_further_on_comes_before_a_rules_own_mistake():
    # the tree is built as the text is read: the doubled `by` is found first, yet the
    # syntax error two lines down is what the declaration reports, as it always did
    with pytest.raises(DslError) as err:
        mod("""\
            procedure p():
                choose x from [1, 2] by a by b
                let = 3
            """)
    (d,) = err.value.diagnostics
    assert (d.code, d.line) == ("E100", 3)
    with pytest.raises(DslError) as err:
        mod("""\
            procedure p():
                choose x from [1, 2] by a by b
            """)
    assert [d.code for d in err.value.diagnostics] == ["E103"]


def test_a_prompts_placeholders_leave_the_blocks_around_them_alone():
    # the placeholders are parsed while the rule around them is: the indentation of the
    # text after them is still read against the blocks they stand in
    (p,) = mod("""\
        procedure p():
            if true:
                choose x from [1, 2] prompt "pick {x + (1)} of {[1, 2]}"
                pass
            let y = 1
        """).decls
    assert isinstance(p, A.ProcDecl)
    assert [type(s).__name__ for s in p.body] == ["If", "Let"]
    choose = p.body[0].branches[0][1][0].action
    assert [type(a).__name__ for a in choose.prompt_args] == ["BinOp", "ListLit"]
    assert (choose.prompt_args[0].at.line, choose.prompt_args[0].at.col) == (3, 44)


def test_a_bracketed_expression_covers_its_brackets_for_its_parent():
    # as lark's positions: `(a + b)` is placed without its brackets, `(a + b) * c` with them
    (s,) = stmts("let v = (a + b) * c\n")
    assert isinstance(s, A.Let) and isinstance(s.value, A.BinOp)
    assert (s.value.at.col, s.value.at.end_col) == (9, 20)
    assert (s.value.left.at.col, s.value.left.at.end_col) == (10, 15)
