"""`ToAst`: lark's parse tree of a file, an effect or an expression into the syntax tree of
`engine.dsl.ast`, one method per rule of the grammar.

The methods live by area, each area a transformer of its own (lark wraps each class's
methods to receive a rule's position): `engine.dsl.parser.declarations`,
`engine.dsl.parser.statements` and `engine.dsl.parser.expressions`; this class inherits
all three. A rule's mistake the grammar cannot see raises `Located`, which lark hands on
wrapped in a VisitError.
"""
from __future__ import annotations

from engine.dsl.parser.declarations import DeclarationsToAst
from engine.dsl.parser.expressions import ExpressionsToAst
from engine.dsl.parser.statements import StatementsToAst


class ToAst(DeclarationsToAst, StatementsToAst, ExpressionsToAst):
    """Every rule of the grammar."""
