"""Type expressions as written: `card`, `card?`, `list of card`."""
from __future__ import annotations

import attrs

from engine.dsl.ast.positions import Pos, at_field


@attrs.frozen
class TName:
    name: str
    at: Pos = at_field()


@attrs.frozen
class TList:
    elem: TypeExpr
    at: Pos = at_field()


@attrs.frozen
class TOptional:
    name: str
    at: Pos = at_field()


TypeExpr = TName | TList | TOptional
