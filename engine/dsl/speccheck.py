"""What the checkers of pack.yaml's sections share (`board:`, engine.dsl.boardspec;
`balance:`, engine.dsl.balancespec): the pack model, how a problem is reported, and the
unknown-key check with its did-you-mean."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.dsl.errors import did_you_mean


class SpecCheck:
    """Checks a section of pack.yaml against a pack model; `error(message, node, key, at_key,
    suggestion)` reports a problem at the key `key` of the mapping `node` (or, for a list, at
    its item number `key`; a `Site` as `node`: there); with `at_key` true, at the key itself
    rather than its value; `suggestion` is a did-you-mean or None."""

    def __init__(self, model: Any,
                 error: Callable[[str, Any, Any, bool, str | None], None]):
        self.model = model
        self._error = error

    def error(self, message: str, node: Any, key: Any, at_key: bool = False,
              suggestion: str | None = None) -> None:
        self._error(message, node, key, at_key, suggestion)

    def _keys(self, m: Any, allowed: tuple[str, ...], what: str) -> bool:
        """Every key of the mapping `m` is one of `allowed`; else an error at each other."""
        ok = True
        for k in m:
            if k not in allowed:
                self.error(f"{what}: unknown key '{k}' (keys: {', '.join(allowed)})", m, k,
                           True, did_you_mean(str(k), allowed))
                ok = False
        return ok
