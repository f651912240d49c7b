"""Hypothesis strategies for the rules language: syntax trees the grammar can express, and
rule-like text for fuzzing the parser.

The trees keep to what the parser can produce, so `parse_module(format_module(m)) == m`:
  - `Neg` never wraps an `Int` (the parser folds `-3` into `Int(-3)`);
  - `Lambda` appears only as an argument of a `Call`;
  - a `Call` whose single argument is a comprehension is printed without brackets;
  - `BoolOp` has at least two items, `Index` at least one index, blocks at least one
    statement, `TypeDecl` at least one field; trigger `names` are None or non-empty;
  - names come from a small pool without keywords (but with names that start like one).

Usage: `modules()`, `declarations()`, `statements()`, `expressions()`, `rule_text()`.
"""
from __future__ import annotations

import re
from pathlib import Path

from hypothesis import strategies as st

from dsl import ast as A

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


def _comprehensions(sub: st.SearchStrategy) -> st.SearchStrategy:
    mapped = st.builds(A.Comprehension, sub, names, sub, st.none() | sub)
    filtered = st.builds(lambda v, src, cond: A.Comprehension(A.Name(v), v, src, cond),
                         names, sub, sub)
    return mapped | filtered


def _call_args(sub: st.SearchStrategy) -> st.SearchStrategy:
    arg = st.one_of(sub, st.builds(A.Lambda, names, sub))
    return st.one_of(
        st.lists(arg, max_size=3).map(tuple),
        _comprehensions(sub).map(lambda c: (c,)),  # count(x in hand where ...)
    )


def _extend(sub: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.builds(A.Attr, sub, names),
        st.builds(A.Index, sub, st.lists(sub, min_size=1, max_size=2).map(tuple)),
        st.builds(A.BinOp, st.sampled_from(_BINOPS), sub, sub),
        st.builds(A.Compare, st.sampled_from(_COMPARE), sub, sub),
        st.builds(A.BoolOp, st.sampled_from(["and", "or"]),
                  st.lists(sub, min_size=2, max_size=3).map(tuple)),
        st.builds(A.Not, sub),
        sub.map(_neg),
        st.lists(sub, max_size=3).map(lambda xs: A.ListLit(tuple(xs))),
        _comprehensions(sub),
        st.builds(A.Call, names, _call_args(sub)),
    )


def expressions(max_leaves: int = 10) -> st.SearchStrategy:
    """Any expression (no bare Lambda), nested at random."""
    return st.recursive(_leaves, _extend, max_leaves=max_leaves)


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


def actions(e: st.SearchStrategy | None = None) -> st.SearchStrategy:
    e = e if e is not None else expressions(6)
    opt = st.none() | e
    return st.one_of(
        st.builds(A.Choose, st.none() | _counts(e), names, e, opt, opt, opt, st.booleans(),
                  st.none() | strings),
        st.builds(A.Ask, e, strings),
        st.builds(A.Order, e, e),
        st.builds(A.Draw, e, e, e),
    )


def _args(e: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(e, max_size=3).map(tuple)


def _durations(e: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(
        st.builds(lambda n: A.Duration("end_of", n), names),
        st.builds(lambda n: A.Duration("start_of", n), names),
        st.builds(lambda c: A.Duration("while", None, c), e),
    )


def simple_statements(e: st.SearchStrategy | None = None) -> st.SearchStrategy:
    e = e if e is not None else expressions(6)
    rhs = st.one_of(e, actions(e))
    return st.one_of(
        st.builds(A.Let, names, rhs),
        st.builds(A.Assign, e, rhs),
        st.builds(A.AugAssign, e, st.sampled_from(["+=", "-="]), e),
        st.builds(A.ExprStmt, e),
        st.builds(A.ActionStmt, actions(e)),
        st.builds(A.Emit, names, _args(e), st.booleans()),
        st.builds(A.Move, e, e, st.sampled_from([None, "top", "bottom"])),
        st.builds(A.Shuffle, e),
        st.builds(A.Reveal, e, st.none() | e),
        st.builds(A.Modify, names, _args(e), e, st.none() | _durations(e)),
        st.builds(A.Win, e),
        st.just(A.EndGame()),
        st.builds(A.Return, st.none() | e),
        st.builds(A.Log, strings, _args(e)),
        st.just(A.Pass()),
        st.just(A.Break()),
        st.just(A.Continue()),
    )


def _blocks(sub: st.SearchStrategy) -> st.SearchStrategy:
    return st.lists(sub, min_size=1, max_size=3).map(tuple)


def statements(e: st.SearchStrategy | None = None, max_leaves: int = 6) -> st.SearchStrategy:
    """Any statement, compound ones with random nested blocks."""
    e = e if e is not None else expressions(6)

    def compound(sub: st.SearchStrategy) -> st.SearchStrategy:
        block = _blocks(sub)
        return st.one_of(
            st.builds(A.If, st.lists(st.tuples(e, block), min_size=1, max_size=3).map(tuple),
                      st.none() | block),
            st.builds(A.For, names, e, st.none() | e, block),
            st.builds(A.While, e, block),
            st.builds(A.Repeat, e, block),
        )

    return st.recursive(simple_statements(e), compound, max_leaves=max_leaves)


def blocks(e: st.SearchStrategy | None = None) -> st.SearchStrategy:
    return _blocks(statements(e))


# ---- declarations -----------------------------------------------------------------------
def _params(min_size: int = 0) -> st.SearchStrategy:
    return st.lists(st.builds(A.Param, names, type_exprs), min_size=min_size,
                    max_size=3).map(tuple)


def declarations(e: st.SearchStrategy | None = None) -> st.SearchStrategy:
    e = e if e is not None else expressions(6)
    body = blocks(e)
    return st.one_of(
        st.builds(A.TypeDecl, names,
                  st.lists(st.builds(A.FieldDecl, names, type_exprs, st.none() | e),
                           min_size=1, max_size=3).map(tuple)),
        st.builds(A.VarDecl, names, _params(), type_exprs, st.none() | st.tuples(e, e),
                  st.none() | e, st.sampled_from(["public", "private", "hidden"])),
        st.builds(A.ZoneDecl, names, _params(), st.none() | names,
                  st.lists(st.sampled_from(["ordered", "private", "hidden", "public"]),
                           max_size=3).map(tuple)),
        st.builds(A.EventDecl, names, _params()),
        st.builds(A.ProcDecl, names, _params(), st.none() | type_exprs, body),
        st.builds(A.ValueDecl, names, _params(), type_exprs, e),
        st.builds(A.CheckDecl, strings, e, st.booleans()),
        st.builds(A.GraphDecl, names, names, names),
        st.builds(A.TriggerDecl, st.sampled_from(["before", "after", "on", "instead"]), names,
                  st.none() | st.lists(names, min_size=1, max_size=3).map(tuple),
                  st.none() | e, body),
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
