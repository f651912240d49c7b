"""The parser's limits: how large a number, and how deep blocks, loops, expressions and
brackets may nest; and the walk that finds the first place a tree breaks them.

Rules compile to Python source (engine.dsl.compile), and Python refuses source nested too
deeply: 100 levels of indentation, 20 loops inside each other, 200 open brackets; the checker,
compiler and formatter walk the tree recursively on Python's stack too. The limits are far
beyond any real rule and leave room for the compiler's own wrapping: code that may ask a
player sits 3 levels deep (def / while True / if pc ==) inside one loop, a `while` adds a
guard one level deeper than its body, and one level of an expression can become up to 3
brackets of Python (`list(xs[:max(n, 0)])`).
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, get_args

import attrs

from engine.dsl import ast as A
from engine.dsl.parser.tokens import Located

MAX_INT = 2**63 - 1  # a signed 64-bit integer: what saved games, JSON tools and databases hold
MAX_BLOCK_DEPTH = 24  # blocks inside each other; a rule's own body is the first
MAX_LOOP_DEPTH = 16  # for / while / repeat inside each other (Python: 20 loop blocks)
MAX_EXPR_DEPTH = 64  # operators, calls, indexes and list brackets inside each other
MAX_BRACKET_DEPTH = 100  # brackets inside each other, even those that only group
MAX_BRANCHES = 200  # `if` and `elif` clauses of one `if` (Python compiles elifs recursively)


def whole_number(digits: str, at: A.Pos) -> int:
    """The number a run of digits writes; E105 past MAX_INT."""
    digits = digits.lstrip("0") or "0"
    # Checked before int(): Python refuses to convert more than 4,300 digits.
    if len(digits) > len(str(MAX_INT)) or int(digits) > MAX_INT:
        raise Located(f"number too large: the largest is {MAX_INT} (2**63 - 1)", at, "E105")
    return int(digits)


_STMTS = get_args(A.Stmt)
_LOOPS = (A.For, A.While, A.Repeat)
_NOT_EXPRS = (*_STMTS, *get_args(A.Decl), A.FieldDecl, A.Param, A.Module)


_Shape = tuple[tuple[str, bool], ...]
_SHAPES: dict[type, _Shape | None] = {}  # each class's, worked out once


def _shape(cls: type) -> _Shape | None:
    """The fields of an AST class, each with whether it holds a block of statements; None
    for what is no AST node (names, numbers, positions)."""
    if cls not in _SHAPES:
        _SHAPES[cls] = _shape_of(cls)
    return _SHAPES[cls]


def _shape_of(cls: type) -> _Shape | None:
    if not attrs.has(cls) or cls is A.Pos:
        return None
    has_body = issubclass(cls, (*_LOOPS, A.ProcDecl, A.TriggerDecl))
    return tuple((f.name, has_body and f.name == "body")
                 for f in attrs.fields(cls) if f.name != "at")


def _parts(node: Any, shape: _Shape) -> list[tuple[Any, bool]]:
    """The children of an AST node, each with whether it is a block of statements."""
    if isinstance(node, A.If):
        parts = [p for cond, body in node.branches for p in ((cond, False), (body, True))]
        return parts + [(node.orelse, True)]
    return [(getattr(node, name), is_block) for name, is_block in shape]


def nesting_problem(nodes: Iterable[Any], blocks: int) -> Located | None:
    """The first place, in source order, where `nodes` (declarations, or the statements of a
    block `blocks` deep) nest deeper than the limits above allow."""
    # An explicit stack: the tree may be 10,000 levels deep, and this walk is what makes the
    # recursive passes after it safe. Items: (node, blocks, loops, expression depth).
    todo: list[tuple[Any, int, int, int]] = [(n, blocks, 0, 0) for n in reversed(list(nodes))]
    while todo:
        node, blocks, loops, exprs = todo.pop()
        if isinstance(node, (tuple, list)):
            todo.extend((n, blocks, loops, exprs) for n in reversed(node))
            continue
        kind = type(node)
        shape = _SHAPES[kind] if kind in _SHAPES else _shape(kind)  # inline: a hot loop
        if shape is None:
            continue
        if isinstance(node, _NOT_EXPRS):
            exprs = 0
        else:
            exprs += 1
            if exprs > MAX_EXPR_DEPTH and isinstance(node, A.TList):
                return Located(f"type nested too deeply: more than {MAX_EXPR_DEPTH} 'list of' "
                               "inside each other", node.at, "E106")
            if exprs > MAX_EXPR_DEPTH:
                return Located(f"expression nested too deeply: more than {MAX_EXPR_DEPTH} "
                               "operators, calls or brackets inside each other; split it "
                               "with 'let'", node.at, "E106")
        if isinstance(node, _STMTS) and blocks > MAX_BLOCK_DEPTH:
            return Located(f"blocks nested too deeply: more than {MAX_BLOCK_DEPTH} levels; "
                           "move the inner blocks into a procedure", node.at, "E106")
        if isinstance(node, _LOOPS):
            loops += 1
            if loops > MAX_LOOP_DEPTH:
                return Located(f"loops nested too deeply: more than {MAX_LOOP_DEPTH} loops "
                               "inside each other; move the inner loops into a procedure",
                               node.at, "E106")
        if isinstance(node, A.If) and len(node.branches) > MAX_BRANCHES:
            extra = node.branches[MAX_BRANCHES][0].at
            return Located(f"too many branches: more than {MAX_BRANCHES} conditions ('if' and "
                           "'elif') in one 'if'; split it, or look the answer up in a table",
                           extra if extra.line else node.at, "E106")
        for child, is_block in reversed(_parts(node, shape)):
            if child is not None and not isinstance(child, (str, int)):
                todo.append((child, blocks + 1 if is_block else blocks, loops, exprs))
    return None


_BRACKET_TOKENS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[()\[\]]')


def _deep_brackets(text: str) -> list[Located]:
    """Each bracket that opens more than MAX_BRACKET_DEPTH deep, where the depth first gets
    there (strings and comments skipped)."""
    depth, found = 0, []
    for m in _BRACKET_TOKENS.finditer(text):
        tok = m.group()
        if tok in ("(", "["):
            depth += 1
            if depth == MAX_BRACKET_DEPTH + 1:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - text.rfind("\n", 0, m.start())
                found.append(Located(f"brackets nested too deeply: more than "
                                     f"{MAX_BRACKET_DEPTH} inside each other",
                                     A.Pos(line, col, line, col + 1), "E106"))
        elif tok in (")", "]"):
            depth = max(depth - 1, 0)
    return found


def limit_problems(nodes: list[Any], blocks: int, text: str) -> list[Located | None]:
    """For each of `nodes` (the declarations of `text`, or the statements of an effect), the
    first nesting limit it breaks, if any."""
    problems = [nesting_problem([n], blocks) for n in nodes]
    for bracket in _deep_brackets(text):
        # the bracket belongs to the last node that starts before it
        owner = max((i for i, n in enumerate(nodes) if n.at.line <= bracket.at.line), default=0)
        if nodes and problems[owner] is None:
            problems[owner] = bracket
    return problems
