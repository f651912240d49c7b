"""Expressions (and types) as documents: the fewest parentheses the precedence allows, a
name that is a keyword kept in parentheses where the keyword could stand; `S` and
`listing`, the one-line documents statements and declarations are made of.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from engine.dsl import ast as A
from engine.dsl.formatter.documents import Brackets, Chain, Doc, Joint, Seq, Text
from engine.dsl.formatter.source_lines import first_line

# Precedence levels, loosest first; an operand printed below its slot's level gets parens.
P_LAMBDA = 0
P_IF = 1  # a full expression: `a if c else b` and everything tighter
P_OR = 2
P_AND = 3
P_NOT = 4
P_CMP = 5
P_SUM = 6
P_TERM = 7
P_UNARY = 8
P_POSTFIX = 9
P_ATOM = 10

_BINOP_PREC = {"+": P_SUM, "-": P_SUM, "*": P_TERM, "/": P_TERM, "%": P_TERM}

# The grammar's keywords. The contextual lexer reads most of them as names where the keyword
# cannot stand, e.g. `(order).x`; the formatter must keep such names in the same context.
KEYWORDS = frozenset(re.findall(
    r'"([A-Za-z_][A-Za-z0-9_]*)"', (Path(__file__).parent.parent / "grammar.lark").read_text()))


def quote(s: str) -> str:
    """A string literal the lexer reads back as `s`."""
    body = (s.replace("\\", "\\\\").replace('"', '\\"')
            .replace("\n", "\\n").replace("\t", "\\t"))
    return f'"{body}"'


def _prec(e: A.Expr) -> int:
    if isinstance(e, A.Int):
        return P_UNARY if e.value < 0 else P_ATOM
    if isinstance(e, A.BinOp):
        return _BINOP_PREC[e.op]
    if isinstance(e, A.Compare):
        return P_CMP
    if isinstance(e, A.BoolOp):
        return P_OR if e.op == "or" else P_AND
    if isinstance(e, A.Not):
        return P_NOT
    if isinstance(e, A.Neg):
        return P_UNARY
    if isinstance(e, (A.Attr, A.Index)):
        return P_POSTFIX
    if isinstance(e, A.Lambda):
        return P_LAMBDA
    if isinstance(e, A.IfExp):
        return P_IF
    return P_ATOM


def format_expr(e: A.Expr, min_prec: int = P_IF) -> str:
    """`e` as text fit for a slot of precedence `min_prec` (parenthesized if it binds looser).

    The slot may come after a keyword or start a statement, where the lexer takes a name such
    as `order` for the keyword: such a name, possible only in parentheses, keeps them."""
    return expr_doc(e, min_prec).flat


def format_type(t: A.TypeExpr) -> str:
    if isinstance(t, A.TName):
        return t.name
    if isinstance(t, A.TOptional):
        return f"{t.name}?"
    if isinstance(t, A.TList):
        return f"list of {format_type(t.elem)}"
    raise TypeError(f"not a type: {t!r}")


def S(*parts: str | Doc | A.Expr | Joint) -> Doc:
    """One line of a statement or declaration: text, documents and expressions (each in a
    full expression slot). Expressions may break inside their brackets; the rest never,
    but at a `JOINT`, which must stand before text starting with a space (` by `)."""
    docs: list[Doc] = []
    joints: set[int] = set()
    for p in parts:
        if isinstance(p, Joint):
            joints.add(len(docs))
            continue
        d = Text(p) if isinstance(p, str) else p if isinstance(p, Doc) else expr_doc(p)
        if _plain(d) and docs and _plain(docs[-1]) and len(docs) not in joints:
            docs[-1] = Text(docs[-1].flat + d.flat)
        elif d.flat or not isinstance(d, Text):
            docs.append(d)
    joints.discard(len(docs))  # a joint at the end joins nothing
    assert all(_plain(docs[i]) and docs[i].flat.startswith(" ") for i in joints), parts
    if len(docs) == 1 and not docs[0].wrap:
        return docs[0]
    return Seq(docs, joints=joints)


def _plain(d: Doc) -> bool:
    """Text of a statement's own (keywords, punctuation): it joins the text next to it."""
    return isinstance(d, Text) and not d.wrap and not d.line


def listing(open: str, items: Iterable[str | Doc | A.Expr], close: str) -> Brackets:
    """`open a, b, c close`, breakable like a call's arguments (a statement's own brackets:
    an event's arguments, a procedure's parameters)."""
    return Brackets(open, [Text(i) if isinstance(i, str) else i if isinstance(i, Doc)
                           else expr_doc(i) for i in items], close, wrap=False)


def expr_doc(e: A.Expr, min_prec: int = P_IF, lead: bool = True) -> Doc:
    """The document of `e` in a slot of precedence `min_prec` (see `format_expr`)."""
    if _prec(e) < min_prec and not isinstance(e, A.Lambda):
        return Brackets("(", [_edoc(e, False)], ")")
    return _edoc(e, lead)


def _edoc(e: A.Expr, lead: bool = False) -> Doc:
    """lead: the text starts a slot that is not inside brackets or after an operator."""
    line = first_line(e)
    if isinstance(e, A.Int):
        return Text(str(e.value), line, True)
    if isinstance(e, A.Str):
        return Text(quote(e.value), line, True)
    if isinstance(e, A.Bool):
        return Text("true" if e.value else "false", line, True)
    if isinstance(e, A.NoneLit):
        return Text("none", line, True)
    if isinstance(e, A.Name):
        return Text(f"({e.id})" if lead and e.id in KEYWORDS else e.id, line, True)
    if isinstance(e, A.Call):
        call = Brackets(f"{e.func}(", call_args(e.args, e.kwargs), ")", line)
        return Brackets("(", [call], ")") if lead and e.func in KEYWORDS else call
    if isinstance(e, A.Attr):
        return Seq([expr_doc(e.obj, P_POSTFIX, lead), Text(f".{e.name}")], line, True)
    if isinstance(e, A.Index):
        obj = expr_doc(e.obj, P_POSTFIX, lead)
        items = [expr_doc(i, P_IF, False) for i in e.args]
        if isinstance(obj, Text):
            return Brackets(f"{obj.flat}[", items, "]", line)
        return Seq([obj, Brackets("[", items, "]")], line, True)
    if isinstance(e, A.BinOp):
        return _arith(e, lead)
    if isinstance(e, A.Compare):  # not associative: both operands are sums
        return Chain("compare", expr_doc(e.left, P_SUM, lead),
                     [(e.op, expr_doc(e.right, P_SUM, False))], line)
    if isinstance(e, A.BoolOp):
        inner = P_AND if e.op == "or" else P_NOT
        items = [expr_doc(item, inner, lead and i == 0) for i, item in enumerate(e.items)]
        return Chain(e.op, items[0], [(e.op, x) for x in items[1:]], line)
    if isinstance(e, A.Not):
        return Seq([Text("not "), expr_doc(e.expr, P_NOT, False)], line, True)
    if isinstance(e, A.Neg):
        return Seq([Text("-"), expr_doc(e.expr, P_UNARY, False)], line, True)
    if isinstance(e, A.ListLit):
        return Brackets("[", [expr_doc(i, P_IF, False) for i in e.items], "]", line)
    if isinstance(e, A.Comprehension):
        return Brackets("[", [_query(e)], "]", line)
    if isinstance(e, A.Lambda):  # only a call's argument: never in parentheses of its own
        return lambda_doc(e)
    if isinstance(e, A.IfExp):
        return _ifexp(e, lead)
    raise TypeError(f"not an expression: {e!r}")


def lambda_doc(e: A.Lambda) -> Doc:
    head = e.param if e.type is None else f"({e.param}: {format_type(e.type)})"
    return Seq([Text(f"{head} => "), expr_doc(e.body, P_IF, False)], first_line(e))


def _arith(e: A.BinOp, lead: bool) -> Chain:
    """`a + b - c` as one chain: left operands of the same precedence need no parentheses
    (operators are left-associative), so they join the chain; walked without recursion."""
    p = _BINOP_PREC[e.op]
    rights: list[tuple[str, A.Expr]] = []
    left: A.Expr = e
    while isinstance(left, A.BinOp) and _BINOP_PREC[left.op] == p and (
            left is e or _prec(left) >= p):
        rights.append((left.op, left.right))
        left = left.left
    rest = [(op, expr_doc(r, p + 1, False)) for op, r in reversed(rights)]
    return Chain("arith", expr_doc(left, p, lead), rest, first_line(e))


def _ifexp(e: A.IfExp, lead: bool) -> Chain:
    """`a if c else b if d else e` as one chain (the `else` branch binds loosest)."""
    rest: list[tuple[str, Doc]] = []
    first = expr_doc(e.then, P_OR, lead)
    node = e
    while True:
        rest.append(("if", expr_doc(node.cond, P_OR, False)))
        nxt = node.orelse
        if not (isinstance(nxt, A.IfExp) and _prec(nxt) >= P_IF):
            rest.append(("else", expr_doc(nxt, P_IF, False)))
            break
        rest.append(("else", expr_doc(nxt.then, P_OR, False)))
        node = nxt
    return Chain("if", first, rest, first_line(e))


def _query(c: A.Comprehension) -> Chain:
    """The inside of `[...]`: `x in src where cond` (a filter) or `e for x in src where c`."""
    src = expr_doc(c.source, P_SUM, False)
    if c.cond is not None and isinstance(c.expr, A.Name) and c.expr.id == c.var:
        head = Seq([Text(f"{c.var} in "), src], first_line(c.expr))
        return Chain("query", head, [("where", expr_doc(c.cond, P_IF, False))], wrap=False)
    rest: list[tuple[str, Doc]] = [("for", Seq([Text(f"{c.var} in "), src]))]
    if c.cond is not None:
        rest.append(("where", expr_doc(c.cond, P_IF, False)))
    return Chain("query", expr_doc(c.expr, P_IF, False), rest, wrap=False)


def _args(items: Iterable[A.Expr]) -> list[Doc]:
    return [expr_doc(i, P_IF, False) for i in items]


def call_args(args: tuple[A.Expr, ...], kwargs: tuple[A.KwArg, ...] = ()) -> list[Doc]:
    if len(args) == 1 and not kwargs and isinstance(args[0], A.Comprehension):
        return [_query(args[0])]  # count(c in hand where ...), sum(x.v for x in t)
    return _args(args) + [Seq([Text(f"{k.name} = "), expr_doc(k.value, P_IF, False)])
                          for k in kwargs]

