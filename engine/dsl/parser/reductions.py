"""`parse`: text straight into the syntax tree, in one pass. Lark's LALR tables and lexer
read the text; each rule, as the parser reduces it, becomes its node of `engine.dsl.ast`
at once (its method of `ToAst`, engine.dsl.parser.transform), without a parse tree in between.

Lark's own way to do that (a transformer given to the parser) cannot hand a rule its
position, which every node needs for its diagnostics: here the parser keeps, beside each
value, the stretch of text it covers, worked out as lark's `propagate_positions` does. A
rule starts where its first child starts and ends where its last child ends, keywords and
line breaks included; a rule that only passes its one child on (`?rule`) leaves that child
its own position but makes it cover the whole rule for its parent (the brackets of
`(a + b)`).
"""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import attrs
from lark import Token, UnexpectedToken
from lark.grammar import Rule, Terminal
from lark.parsers.lalr_analysis import Shift

from engine.dsl import ast as A
from engine.dsl.parser.lark_front import lark_parser

# Where a value stands in the text: a token (its own line and column) or the `Pos` of a
# rule; None for a value that takes up no text (an optional part not written).
Span = Token | A.Pos | None

# how a rule's value is made: see `_Reduction`
_CALL, _PASS, _SPLICE, _SAME = range(4)


@attrs.frozen
class _Reduction:
    """What reducing one rule does: which of its symbols it keeps (with the Nones of the
    optional parts not written before each), and how its value is made: `_CALL` its method
    of `ToAst`, `_PASS` its one child (a `?rule`), `_SPLICE` its children into the
    parent's (lark's `__rule_star_n` of repetitions), `_SAME` nothing at all (a `?rule` of
    one symbol: its child's value and place are its own, as they stand on the stack)."""

    origin: str
    size: int
    keep: tuple[tuple[int, bool, int], ...]  # (index, spliced, Nones before it)
    trailing_nones: int
    how: int
    method: Callable[[A.Pos, list[Any]], Any] | None


def _reduction(rule: Rule, rules: object) -> _Reduction:
    """As lark's parse-tree builder shapes the rule's children (tokens that are filtered
    out dropped, `_`-rules spliced, a None for each `[optional]` part not written)."""
    expansion, options = rule.expansion, rule.options
    empty = list(options.empty_indices) or [False] * len(expansion)
    # the Nones to insert before each symbol and after the last: the runs of empty slots
    nones = [len(run) for run in "".join("1" if e else "0" for e in empty).split("0")]
    keep, pending = [], 0
    for i, sym in enumerate(expansion):
        pending += nones[i]
        if options.keep_all_tokens or not (isinstance(sym, Terminal) and sym.filter_out):
            keep.append((i, not isinstance(sym, Terminal) and sym.name.startswith("_"), pending))
            pending = 0
    name = rule.alias or rule.origin.name
    if rule.origin.name.startswith("_"):
        how, method = _SPLICE, None
    elif options.expand1 and not rule.alias:
        how, method = _PASS, getattr(rules, name, None)
        if keep == [(0, False, 0)] and len(expansion) == 1 and not nones[1]:
            how = _SAME
    else:
        how, method = _CALL, getattr(rules, name)
    return _Reduction(str(rule.origin.name), len(expansion), tuple(keep),
                      pending + nones[len(expansion)], how, method)


Table = dict[Any, dict[str, tuple[Any, Any]]]


@functools.cache
def _table(rules: object) -> Table:
    """Lark's LALR table with each reduce action's rule replaced by its `_Reduction` by
    `rules`, made once (a rule looked up by its own hash would cost a Python call at every
    step)."""
    lark = lark_parser()
    states = lark.parse_interactive("", "start").parser_state.parse_conf.states
    made: dict[int, _Reduction] = {}

    def action(act: Any, arg: Any) -> tuple[Any, Any]:
        if act is Shift:
            return act, arg
        if id(arg) not in made:
            made[id(arg)] = _reduction(arg, rules)
        return act, made[id(arg)]
    # names as plain strings: a freshly built grammar names its symbols with lark's tokens,
    # whose comparison is Python code
    return {state: {str(kind): action(*step) for kind, step in row.items()}
            for state, row in states.items()}


def _start(span: Span) -> tuple[int, int]:
    if isinstance(span, Token):
        return span.line or 0, span.column or 0
    assert span is not None
    return span.line, span.col


def _end(span: Span) -> tuple[int, int]:
    if isinstance(span, Token):
        return span.end_line or 0, span.end_column or 0
    assert span is not None
    return span.end_line, span.end_col


def _covering(spans: list[Span]) -> Span:
    """The stretch of text a rule's children cover (None: none)."""
    if len(spans) == 1:
        return spans[0]
    first = next((s for s in spans if s is not None), None)
    if first is None:
        return None
    last = next(s for s in reversed(spans) if s is not None)
    return first if first is last else A.Pos(*_start(first), *_end(last))


def _with_end(tokens: Iterator[Token]) -> Iterator[Token]:
    """The tokens, then the end of the text (placed as lark places it)."""
    token = None
    for token in tokens:
        yield token
    yield Token.new_borrow_pos("$END", "", token) if token is not None else Token(
        "$END", "", 0, 1, 1)


def parse(text: str, start: str, rules: object) -> Any:
    """The syntax tree of `text` by the start rule `start` ("start": a file's declarations,
    "effect": a block of statements, "expression"), each rule made by its method of `rules`
    (engine.dsl.parser.transform.RULES). Raises what lark raises for a syntax error,
    BadDedent for a bad indentation, and `Located` for a mistake a rule finds."""
    table = _table(rules)
    interactive = lark_parser().parse_interactive(text, start)
    state = interactive.parser_state
    end_state = state.parse_conf.end_state
    states = state.state_stack  # the lexer reads the parser's state from it (contextual)
    values: list[Any] = []
    spans: list[Span] = []
    lex: Callable[..., Iterator[Token]] = interactive.lexer_thread.lex
    unexpected: Callable[..., Exception] = UnexpectedToken
    for token in _with_end(lex(state)):
        kind = token.type
        while True:
            try:
                action, arg = table[states[-1]][kind]
            except KeyError:
                expected = {s for s in table[states[-1]] if s.isupper()}
                raise unexpected(token, expected, state=state,
                                 interactive_parser=interactive) from None
            if action is Shift:
                states.append(arg)
                values.append(token)
                spans.append(token)
                break
            r = arg
            if r.how == _SAME:  # value and place stay on the stack as they are
                del states[-1]
            else:
                children: list[Any] = []
                child_spans: list[Span] = []
                if r.size:  # (a rule of no symbols takes nothing: values[-0:] is all)
                    children, child_spans = values[-r.size:], spans[-r.size:]
                    del states[-r.size:], values[-r.size:], spans[-r.size:]
                value, span = _reduce(r, children, child_spans)
                values.append(value)
                spans.append(span)
            states.append(table[states[-1]][r.origin][1])
            if kind == "$END" and states[-1] == end_state:
                return values[-1]


def _reduce(r: _Reduction, children: list[Any], child_spans: list[Span]) -> tuple[Any, Span]:
    """The value of one reduced rule and the text it covers."""
    kept: list[Any] = []
    for i, spliced, nones in r.keep:
        if nones:
            kept += [None] * nones
        if spliced:
            kept += children[i]
        else:
            kept.append(children[i])
    if r.trailing_nones:
        kept += [None] * r.trailing_nones
    span = _covering(child_spans)
    if r.how == _SPLICE:
        return kept, span
    if r.how == _PASS and len(kept) == 1:
        one = kept[0]
        # a token or a missing part keeps its own place (lark moves only a rule's)
        return one, one if one is None or isinstance(one, Token) else span
    assert r.method is not None, f"no method for the grammar's rule {r.origin}"
    at = span if isinstance(span, A.Pos) else A.NOPOS if span is None else A.Pos(
        *_start(span), *_end(span))
    return r.method(at, kept), span
