"""Where YAML values were written: `Loc`, and `YMap` / `YList`, a mapping and a list that
remember the place of themselves and of each key, value and item (`loc_of`).
"""
from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Loc:
    path: str
    line: int  # 1-based
    col: int  # 1-based
    style: str | None = None  # scalar style: None (plain), "'", '"', "|", ">"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.col}"

    def __reduce__(self) -> tuple[type[Loc], tuple[str, int, int, str | None]]:
        # by the constructor: a cached translation file holds thousands, and this unpickles
        # them twice as fast as attrs' own state protocol
        return (Loc, (self.path, self.line, self.col, self.style))


class YMap(dict[Any, Any]):
    """A mapping that remembers where it, each key and each value came from."""

    def __init__(self, data: Any = (), /, *, path: str = "", line: int = 0, col: int = 0):
        super().__init__(data)
        self.path = path
        self.line = line
        self.col = col
        self.key_loc: dict[Any, Loc] = {}
        self.val_loc: dict[Any, Loc] = {}

    @property
    def loc(self) -> Loc:
        return Loc(self.path, self.line, self.col)


class YList(list[Any]):
    """A sequence that remembers where it and each item came from."""

    def __init__(self, data: Any = (), /, *, path: str = "", line: int = 0, col: int = 0):
        super().__init__(data)
        self.path = path
        self.line = line
        self.col = col
        self.item_loc: list[Loc] = []  # parallel to the items

    @property
    def loc(self) -> Loc:
        return Loc(self.path, self.line, self.col)


_WHOLE = object()


def loc_of(container: Any, key_or_index: Any = _WHOLE) -> Loc:
    """Where `container[key_or_index]` was written.

    Falls back to the container's own position when the key is absent (handy
    for "missing field" errors) and to an unknown Loc for plain Python values.
    """
    if isinstance(container, YMap):
        if key_or_index is not _WHOLE and key_or_index in container.val_loc:
            return container.val_loc[key_or_index]
        return container.loc
    if isinstance(container, YList):
        locs = container.item_loc
        if isinstance(key_or_index, int) and -len(locs) <= key_or_index < len(locs):
            return locs[key_or_index]
        return container.loc
    return Loc("", 0, 0)
