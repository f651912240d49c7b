"""Hypothesis strategies for the rules language: syntax trees the grammar can express, and
rule-like text for fuzzing the parser.

The trees keep to what the parser can produce, so `parse_module(format_module(m)) == m`:
  - `Neg` never wraps an `Int` (the parser folds `-3` into `Int(-3)`);
  - `Lambda` appears only as an argument of a `Call` or the filter of a `GraphDecl`;
  - a `Call` whose single argument is a comprehension is printed without brackets;
  - `BoolOp` has at least two items, `Index` at least one index, blocks at least one
    statement; trigger `names` are None or non-empty;
  - names come from a small pool without keywords (but with names that start like one);
  - keyword arguments follow the positional ones; a prompt's `{placeholders}` are its
    `prompt_args` (simple names and fields), and its other text has no braces.

Usage: `modules()`, `declarations()`, `blocks()`, `statements()`, `expressions()`,
`operator_expressions()` (precedence stress), `long_modules(long_expressions())` (code that
passes the line width), `rule_text()` and `mutated_rules(text)` (parser
fuzzing), `rename(tree, mapping)` with `keyword_mappings` (keywords used as names).
"""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

from engine.dsl import ast as A

GRAMMAR = Path(__file__).resolve().parent.parent / "dsl" / "grammar.lark"
KEYWORDS = frozenset(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', GRAMMAR.read_text()))
SYMBOLS = sorted(set(re.findall(r'"([^A-Za-z0-9_"\s][^"\s]*)"', GRAMMAR.read_text()))
                 - {"([^"})

_POOL = [
    "a", "b", "c", "s", "x", "y", "n", "f", "deck", "hand", "card", "red", "power",
    "count", "sum", "sides", "self", "other", "_v", "A1", "value2",
    # names that start or end like a keyword: the lexer must not split them
    "ends", "iffy", "order_", "notes", "innings", "topper", "toy", "byline", "fromage",
    "inside", "orbit", "andes", "game_over", "whilst", "list_", "nonesuch", "truely",
]
NAMES = [n for n in _POOL if n not in KEYWORDS]
assert len(NAMES) == len(_POOL), "a pool name became a keyword"

names = st.sampled_from(NAMES)

# Text of string literals: quotes, backslashes, line breaks, '#', and any other character
# (no surrogates); the formatter escapes what needs it.
strings = st.text(
    st.one_of(st.sampled_from('"\\\n\t#\r\f x'),
              st.characters(blacklist_categories=("Cs",))),
    max_size=8,
)

# ---- expressions ------------------------------------------------------------------------
_leaves = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**12).map(A.Int),
    strings.map(A.Str),
    st.booleans().map(A.Bool),
    st.just(A.NoneLit()),
    names.map(A.Name),
    names.map(lambda f: A.Call(f, ())),
)

_BINOPS = ["+", "-", "*", "/", "%"]
_COMPARE = ["==", "!=", "<", "<=", ">", ">=", "in", "not in"]


def _neg(e: A.Expr) -> A.Expr:
    # `-3` always parses as Int(-3), `--3` as Int(3): Neg is only for non-literals
    return A.Int(-e.value) if isinstance(e, A.Int) else A.Neg(e)


_OPERATORS = ["binop", "binop", "binop", "compare", "boolop", "not", "neg", "attr", "index",
              "ifexp"]
_ALL_KINDS = _OPERATORS + ["list", "comprehension", "call", "call", "atom"]
_SMALL_LEAVES = st.one_of(st.sampled_from(["a", "b", "c", "x"]).map(A.Name),
                          st.integers(-3, 3).map(A.Int))


def _comprehension(draw: st.DrawFn, sub) -> A.Comprehension:
    var = draw(names)
    if draw(st.booleans()):  # [x in source where cond]
        return A.Comprehension(A.Name(var), var, sub(), sub())
    return A.Comprehension(sub(), var, sub(), sub() if draw(st.booleans()) else None)


def _draw_expr(draw: st.DrawFn, depth: int, kinds: list[str], leaves) -> A.Expr:
    if depth <= 0 or draw(st.integers(0, 4)) == 0:
        return draw(leaves)

    def sub() -> A.Expr:
        return _draw_expr(draw, depth - 1, kinds, leaves)

    def some(lo: int, hi: int) -> tuple[A.Expr, ...]:
        return tuple(sub() for _ in range(draw(st.integers(lo, hi))))

    kind = draw(st.sampled_from(kinds))
    if kind == "binop":
        return A.BinOp(draw(st.sampled_from(_BINOPS)), sub(), sub())
    if kind == "compare":
        return A.Compare(draw(st.sampled_from(_COMPARE)), sub(), sub())
    if kind == "boolop":
        return A.BoolOp(draw(st.sampled_from(["and", "or"])), some(2, 3))
    if kind == "ifexp":
        return A.IfExp(sub(), sub(), sub())
    if kind == "not":
        return A.Not(sub())
    if kind == "neg":
        return _neg(sub())
    if kind == "attr":
        return A.Attr(sub(), draw(names))
    if kind == "index":
        return A.Index(sub(), some(1, 2))
    if kind == "list":
        return A.ListLit(some(0, 3))
    if kind == "comprehension":
        return _comprehension(draw, sub)
    if kind == "call":
        if draw(st.integers(0, 3)) == 0:  # count(x in hand where ...), sum(x.v for x in t)
            return A.Call(draw(names), (_comprehension(draw, sub),))
        args = []
        for _ in range(draw(st.integers(0, 3))):
            args.append(A.Lambda(draw(names), sub(), draw(st.none() | type_exprs))
                        if draw(st.integers(0, 3)) == 0 else sub())
        kwargs = tuple(A.KwArg(draw(names), sub()) for _ in range(draw(st.integers(0, 3)) // 2))
        return A.Call(draw(names), tuple(args), kwargs)
    return draw(leaves)


def expressions(max_depth: int = 3) -> st.SearchStrategy:
    """Any expression (Lambda only as a call argument), nested at random up to max_depth."""
    return st.composite(lambda draw: _draw_expr(draw, max_depth, _ALL_KINDS, _leaves))()


def operator_expressions(max_depth: int = 5) -> st.SearchStrategy:
    """Operator trees over names and small (negative) numbers: precedence and parentheses."""
    return st.composite(
        lambda draw: _draw_expr(draw, max_depth, _OPERATORS, _SMALL_LEAVES))()


# ---- types, actions, statements ---------------------------------------------------------
type_exprs = st.recursive(
    st.one_of(names.map(A.TName), names.map(A.TOptional)),
    lambda sub: sub.map(A.TList),
    max_leaves=3,
)


def _counts(e: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.builds(lambda h: A.Count("exact", None, h), e),
        st.builds(lambda h: A.Count("up_to", None, h), e),
        st.builds(lambda lo, h: A.Count("range", lo, h), e, e),
    )


# Prompt text: braces only as placeholders, whose expressions are simple.
_plain = strings.map(lambda s: s.replace("{", "(").replace("}", ")"))
_placeholder = st.one_of(names.map(A.Name),
                         st.builds(lambda o, f: A.Attr(A.Name(o), f), names, names))


@st.composite
def prompts(draw: st.DrawFn) -> tuple[str, tuple[A.Expr, ...]]:
    """A prompt's text and the expressions of its placeholders."""
    from engine.dsl.formatter import format_expr
    args = tuple(draw(st.lists(_placeholder, max_size=2)))
    text = draw(_plain)
    for a in args:
        text += "{" + format_expr(a) + "}" + draw(_plain)
    return text, args


def _choose(count, var, source, by, where, require, optional, prompt, each) -> A.Choose:
    text, args = prompt if prompt is not None else (None, ())
    return A.Choose(count, var, source, by, where, require, optional, text, each=each,
                    prompt_args=args)


def actions(e: st.SearchStrategy | None = None) -> st.SearchStrategy:
    e = e if e is not None else expressions(2)
    opt = st.none() | e
    return st.one_of(
        st.builds(_choose, st.none() | _counts(e), names, e, opt, opt, opt, st.booleans(),
                  st.none() | prompts(), st.booleans()),
        st.builds(lambda side, p: A.Ask(side, p[0], p[1]), e, prompts()),
        st.builds(A.Order, e, e),
        st.builds(A.Draw, e, e, e),
        st.builds(A.Open, names, _args(e)),
        st.builds(lambda t, fields, to: A.Create(t, fields, *to), names,
                  st.lists(st.builds(A.FieldInit, names, e), max_size=2,
                           unique_by=lambda f: f.name).map(tuple),
                  st.just((None, None)) | st.tuples(e, st.sampled_from([None, "top",
                                                                        "bottom"]))),
    )


def _args(e: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(e, max_size=3).map(tuple)


def _until_items() -> st.SearchStrategy:
    counts = st.integers(1, 3)
    return st.one_of(
        st.builds(lambda n, k, o: A.Duration("end_of", n, count=k, outermost=o), names, counts,
                  st.booleans()),
        st.builds(lambda n, k: A.Duration("start_of", n, count=k), names, counts),
    )


def _kwargs(e: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(st.builds(A.KwArg, names, e), max_size=2).map(tuple)


def _durations(e: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        _until_items(),
        st.lists(_until_items(), min_size=2, max_size=3).map(
            lambda items: A.Duration("any", items=tuple(items))),
        st.builds(lambda c: A.Duration("while", None, c), e),
    )


def simple_statements(e: st.SearchStrategy | None = None) -> st.SearchStrategy:
    e = e if e is not None else expressions(2)
    rhs = st.one_of(e, actions(e))
    return st.one_of(
        st.builds(A.Let, names, rhs, st.none() | type_exprs),
        st.builds(A.Assign, e, rhs),
        st.builds(A.AugAssign, e, st.sampled_from(["+=", "-="]), e),
        st.builds(A.ExprStmt, e),
        st.builds(A.ActionStmt, actions(e)),
        st.builds(A.Emit, names, _args(e), st.booleans(), _kwargs(e)),
        st.builds(A.Move, e, e, st.sampled_from([None, "top", "bottom"])),
        st.builds(A.Shuffle, e),
        st.builds(A.Destroy, e),
        st.builds(A.Reveal, e, st.none() | e),
        st.builds(A.Modify, names, _args(e), e, st.none() | _durations(e),
                  st.sampled_from(["by", "to", "least", "most"]), _kwargs(e)),
        st.builds(A.SetUntil, e, e, _durations(e)),
        st.builds(A.Win, e),
        st.just(A.EndGame()),
        st.builds(A.Return, st.none() | e),
        # text alone is read for {placeholders}: braces there need values after the text
        st.builds(A.Log, strings, _args(e)).filter(
            lambda s: bool(s.args) or not {"{", "}"} & set(s.message)),
        st.just(A.Pass()),
        st.just(A.Break()),
        st.just(A.Continue()),
    )


def statements(e: st.SearchStrategy | None = None, max_depth: int = 2) -> st.SearchStrategy:
    """Any statement; compound ones hold random nested blocks up to max_depth deep."""
    e = e if e is not None else expressions(2)
    simple = simple_statements(e)

    def draw_stmt(draw: st.DrawFn, depth: int) -> A.Stmt:
        if depth <= 0 or draw(st.integers(0, 3)) != 0:
            return draw(simple)

        def block() -> tuple[A.Stmt, ...]:
            return tuple(draw_stmt(draw, depth - 1) for _ in range(draw(st.integers(1, 3))))

        kind = draw(st.sampled_from(["if", "for", "while", "repeat"]))
        if kind == "if":
            branches = tuple((draw(e), block()) for _ in range(draw(st.integers(1, 3))))
            return A.If(branches, block() if draw(st.booleans()) else None)
        if kind == "for":
            return A.For(draw(names), draw(e), draw(st.none() | e), block())
        if kind == "while":
            return A.While(draw(e), block())
        return A.Repeat(draw(e), block())

    return st.composite(lambda draw: draw_stmt(draw, max_depth))()


def blocks(e: st.SearchStrategy | None = None, max_size: int = 4) -> st.SearchStrategy:
    """A non-empty statement block."""
    return st.lists(statements(e), min_size=1, max_size=max_size).map(tuple)


# ---- declarations -----------------------------------------------------------------------
def _params(min_size: int = 0) -> st.SearchStrategy:
    default = st.none() | expressions(1)
    return st.lists(st.builds(A.Param, names, type_exprs, default), min_size=min_size,
                    max_size=3).map(tuple)


def declarations(e: st.SearchStrategy | None = None) -> st.SearchStrategy:
    e = e if e is not None else expressions(2)
    body = blocks(e)
    return st.one_of(
        st.builds(A.TypeDecl, names,
                  st.lists(st.builds(A.FieldDecl, names, type_exprs, st.none() | e),
                           min_size=0, max_size=3).map(tuple)),
        st.builds(A.TypeDecl, names,  # var fields; records made in play
                  st.lists(st.builds(A.FieldDecl, names, type_exprs, st.none() | e,
                                     st.just(True), st.none() | st.tuples(e, e)),
                           min_size=0, max_size=3).map(tuple), created=st.booleans()),
        st.builds(A.VarDecl, names, _params(), type_exprs, st.none() | st.tuples(e, e),
                  st.none() | e, st.sampled_from(["public", "private", "hidden"])),
        st.builds(A.ZoneDecl, names, _params(), st.none() | names,
                  st.lists(st.sampled_from(["ordered", "private", "hidden", "public"]),
                           max_size=3).map(tuple)),
        st.builds(A.EventDecl, names, _params()),
        st.builds(A.ProcDecl, names, _params(), st.none() | type_exprs, body),
        st.builds(A.ValueDecl, names, _params(), type_exprs, e),
        st.builds(A.CheckDecl, strings, e, st.booleans()),
        st.builds(A.GraphDecl, names, names, names,
                  st.none() | st.builds(A.Lambda, names, e, st.none() | type_exprs)),
        st.builds(A.EnumDecl, names,
                  st.lists(names.map(A.EnumValue), min_size=1, max_size=4).map(tuple)),
        st.builds(A.ConstDecl, names, st.none() | type_exprs, e),
        st.builds(A.TriggerDecl, st.sampled_from(["before", "after", "on", "instead"]), names,
                  st.none() | st.lists(names, min_size=1, max_size=3).map(tuple),
                  st.none() | e, body),
        st.builds(A.WindowDecl, names, _params(), e, names, e, st.none() | e, e,
                  st.none() | names.map(A.Name), st.none() | strings.map(A.Str),
                  st.lists(st.builds(A.WindowOpening, st.sampled_from(["before", "after"]),
                                     names), max_size=2).map(tuple)),
    )


def modules(max_decls: int = 4) -> st.SearchStrategy:
    return st.builds(A.Module, st.just("<rules>"),
                     st.lists(declarations(), max_size=max_decls).map(tuple))


# ---- text for fuzzing the parser --------------------------------------------------------
_TEXT_TOKENS = sorted(KEYWORDS) + SYMBOLS + [
    "x", "card", "hand", "0", "3", "-1", '"s"', '"a\\"b"', '"#"', "# note", "'",
    "\n", "\n    ", "\n        ", "\n  ", "\n\t", "\r\n", "\\\n", " ", "\t", "\f", "\r",
    '"', "#", "é", "\x00",
]


@st.composite
def rule_text(draw: st.DrawFn) -> str:
    """Text built from the language's tokens with random spacing and indentation."""
    toks = draw(st.lists(st.sampled_from(_TEXT_TOKENS), max_size=40))
    seps = draw(st.lists(st.sampled_from(["", " ", " ", "\n", "\n    ", "\n        "]),
                         min_size=len(toks), max_size=len(toks)))
    return "".join(t + s for t, s in zip(toks, seps))


@st.composite
def mutated_rules(draw: st.DrawFn, base: str) -> str:
    """`base` with a few random edits: characters deleted, duplicated or inserted."""
    text = base
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        how = draw(st.sampled_from(["del", "dup", "ins"]))
        if how == "del":
            text = text[:i] + text[i + 1:]
        elif how == "dup":
            j = draw(st.integers(i, min(len(text), i + 12)))
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] + draw(st.sampled_from(_TEXT_TOKENS)) + text[i:]
    return text


# ---- long code: names as long as the packs' own, lines that must break ------------
# Names as long as the shipped packs' own, so that random code often passes 99 columns.
LONG_NAMES = ["carthage", "new_carthage", "province", "ally_status", "battle_card",
              "siege_point", "roman_pc", "scoring", "reinforcement", "naval_victory",
              "region_of", "ops_value"]


def _long_leaves(strings: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.integers(min_value=-(10**6), max_value=10**9).map(A.Int),
        strings.map(A.Str),
        st.booleans().map(A.Bool),
        st.sampled_from(LONG_NAMES).map(A.Name),
        st.sampled_from(LONG_NAMES).map(lambda f: A.Call(f, ())),
    )


def long_expressions(strings: st.SearchStrategy = strings, depth: int = 5
                     ) -> st.SearchStrategy:
    """Expressions nested up to `depth`, of long names (and strings from `strings`)."""
    leaves = _long_leaves(strings)
    return st.composite(lambda draw: _draw_expr(draw, depth, _ALL_KINDS, leaves))()


def long_modules(e: st.SearchStrategy) -> st.SearchStrategy:
    return st.builds(A.Module, st.just("<rules>"),
                     st.lists(declarations(e), min_size=1, max_size=3).map(tuple))


# ---- renaming: the same trees with keywords for names -----------------------------------
_IDENT_FIELDS = {
    A.Name: ("id",), A.Call: ("func",), A.Attr: ("name",), A.Comprehension: ("var",),
    A.Lambda: ("param",), A.Choose: ("var",), A.Let: ("name",), A.Emit: ("event",),
    A.Create: ("type",), A.FieldInit: ("name",),
    A.Modify: ("key",), A.Duration: ("event",), A.For: ("var",), A.Param: ("name",),
    A.FieldDecl: ("name",), A.TypeDecl: ("name",), A.VarDecl: ("name",),
    A.ZoneDecl: ("name", "of"), A.EventDecl: ("name",), A.ProcDecl: ("name",),
    A.ValueDecl: ("name",), A.GraphDecl: ("name", "node_type", "edge_type"),
    A.TriggerDecl: ("event",), A.TName: ("name",), A.TOptional: ("name",),
    A.Open: ("window",), A.WindowDecl: ("name", "var"), A.WindowOpening: ("event",),
    A.KwArg: ("name",), A.EnumDecl: ("name",), A.EnumValue: ("name",), A.ConstDecl: ("name",),
}


def rename(node, mapping: dict[str, str]):
    """`node` with every identifier mapped through `mapping` (missing ones kept)."""
    import attrs

    if isinstance(node, tuple):
        return tuple(rename(n, mapping) for n in node)
    if not attrs.has(type(node)):
        return node
    changes = {}
    idents = _IDENT_FIELDS.get(type(node), ())
    for f in attrs.fields(type(node)):
        v = getattr(node, f.name)
        if f.name in idents and isinstance(v, str):
            changes[f.name] = mapping.get(v, v)
        elif isinstance(node, A.TriggerDecl) and f.name == "names" and v is not None:
            changes[f.name] = tuple(mapping.get(n, n) for n in v)
        elif isinstance(v, tuple) or attrs.has(type(v)):
            changes[f.name] = rename(v, mapping)
    return attrs.evolve(node, **changes)


# Each pool name becomes a keyword or stays itself: `(order).x`, `procedure return()`, ...
keyword_mappings = st.fixed_dictionaries(
    {}, optional={n: st.sampled_from(sorted(KEYWORDS)) for n in NAMES})
