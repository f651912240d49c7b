"""The zone and var keys a record made in play appears in: its place among the index
combinations of a zone or var whose parameters name its type (the run time adds and removes
them as records are made and destroyed; a save's check lists them the same way)."""
from __future__ import annotations

import itertools
from collections.abc import Callable


def keys_naming(types: tuple[str, ...], tname: str, rid: str,
                domain: Callable[[str], list[str]]) -> list[tuple[str, ...]]:
    """The index combinations of a zone or var with parameter types `types` that hold
    record `rid` of created type `tname`, each once (rid at its first place in it, other
    records of the type before it); `domain(t)` lists the sides or live records of type t."""
    out: list[tuple[str, ...]] = []
    for i, t in enumerate(types):
        if t != tname:
            continue
        doms = [[x for x in domain(tj) if x != rid] if j < i and tj == tname else
                [rid] if j == i else domain(tj) for j, tj in enumerate(types)]
        out.extend(itertools.product(*doms))
    return out
