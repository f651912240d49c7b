"""`ToAst`: the syntax tree's node of each rule of the grammar, made from the rule's position
and children as the parser reduces it (engine.dsl.parser.reductions), one method per rule.

The methods live by area: `engine.dsl.parser.declarations`, `engine.dsl.parser.statements`
and `engine.dsl.parser.expressions`; this class inherits all three. A rule's mistake the
grammar cannot see raises `Located`.
"""
from __future__ import annotations

from engine.dsl.parser.declarations import DeclarationsToAst
from engine.dsl.parser.expressions import ExpressionsToAst
from engine.dsl.parser.statements import StatementsToAst


class ToAst(DeclarationsToAst, StatementsToAst, ExpressionsToAst):
    """Every rule of the grammar."""


RULES = ToAst()  # the one the parser uses (it keeps its tables by it)
