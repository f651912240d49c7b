"""A stable action index space per pack: every answer step any decision can take is one
fixed integer, the same across games, seeds and processes.

The space is derived from the compiled pack's model only, in this order (index ranges are
consecutive, a value that belongs to two groups keeps its first index):

  0          None: pass, "done" of a multi-item answer, "none" of an optional choice
  1, 2       True (yes), False (no): the answers of an `ask`
  ...        the sides, in the pack's order
  ...        every enum's values (enums by name, values in declared order)
  ...        every record id (record types by name, records in the pack's order)
  ...        records made in play: `T#1` .. `T#<created_slots>` per created type T
  ...        every text literal written in the rules, sorted
  ...        the whole numbers `int_low` .. `int_high`: the range spanned by the numbers
             written in the rules and in the records' data (within +-`INT_REACH`), and 0

`ActionSpace.for_pack(pack)` builds it (once per pack); `.size`, `.index(value)` and
`.value(i)` map between values and indices (True/False and 1/0 are different values). An
option outside the space (a number beyond the range, a record made beyond the created
slots, a list, a text no rule wrote) raises `UnindexedValue`, naming it: never silently.

Decisions become single-index steps. An answer to the current decision is the sequence of
indices `steps` chosen so far; `legal_indices(game, steps)` lists what the next step may be
and `is_complete(game, steps)` tells when the sequence answers the decision; then
`to_engine_action(game, steps)` is the action for `Game.apply`:

  kind 'one'    one step: an option's index, or 0 (None) when the choice is optional
  kind 'ask'    one step: 1 (yes) or 2 (no)
  kind 'many'   a set: pick one option per step (each at most as often as offered), then 0
                ("done"); 0 is legal once the picks so far are a legal answer (count and the
                choice's `require` condition), and the answer ends by itself when the
                maximum is picked. A pick is legal only if some legal answer contains the
                picks so far and it (the answers `Game.legal_actions` lists: for a set
                with more than 20,000 answers, those it lists first).
  kind 'order'  a permutation: pick the options one per step, first first; the answer is
                complete when every option is picked (the last step has one legal index).

`game` is a `Game` (its decider's answer) or a view of the deciding side (`Game.view`,
which carries the decision's options and its legal answers).
"""
from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from engine.dsl import ast as A

NONE, YES, NO = 0, 1, 2  # the fixed indices of None (pass / done), True and False
INT_REACH = 1024  # numbers farther from 0 are kept out of the range (a limit, a year)
CREATED_SLOTS = 256  # records made in play indexed per created type: T#1 .. T#256


class UnindexedValue(ValueError):
    """A decision offered a value outside the pack's action space."""


@attrs.frozen
class ActionSpace:
    """The indices of the values a pack's decisions can offer (see the module doc)."""

    pack_id: str
    values: tuple[Any, ...]  # index -> value
    int_low: int
    int_high: int
    created_slots: int
    _index: dict[tuple[str, Any], int] = attrs.field(repr=False, eq=False)

    @classmethod
    def for_pack(cls, pack: Any, created_slots: int = CREATED_SLOTS) -> ActionSpace:
        """The action space of a compiled pack (`engine.core.loader.load_pack`), built once."""
        key = (pack.hash, created_slots)
        got = _SPACES.get(key)
        if got is None:
            got = _SPACES[key] = _build(pack, created_slots)
        return got

    @property
    def size(self) -> int:
        return len(self.values)

    def index(self, value: Any) -> int:
        """The index of an option value, or UnindexedValue naming it."""
        i = self._index.get(_key(value))
        if i is None:
            raise UnindexedValue(
                f"{value!r} is outside the action space of pack {self.pack_id!r}: it holds "
                f"None, yes/no, the sides, enum values, record ids, {self.created_slots} "
                f"records made in play per created type, the texts written in the rules and "
                f"the whole numbers {self.int_low}..{self.int_high}")
        return i

    def value(self, i: int) -> Any:
        """The value of index `i` (IndexError outside 0..size-1)."""
        if isinstance(i, bool) or not 0 <= i < len(self.values):
            raise IndexError(f"action index {i!r} is outside 0..{len(self.values) - 1}")
        return self.values[i]

    # ---- steps --------------------------------------------------------------------------
    def legal_indices(self, game: Any, steps: Sequence[int] = ()) -> list[int]:
        """The indices the next step of the answer to the current decision may take, after
        `steps` (sorted; empty when nothing is asked or the answer is complete)."""
        d = _pending(game)
        if d is None:
            return []
        kind, opts = d.kind, d.options
        if kind in ("one", "ask"):
            if steps:
                return []
            if kind == "ask":
                return [YES, NO]
            out = {self.index(o) for o in opts}
            if d.optional or not opts:
                out.add(NONE)
            return sorted(out)
        picked = [self.value(i) for i in steps if i != NONE]
        remaining = _without(opts, picked)
        if kind == "order":
            return sorted({self.index(o) for o in remaining})
        if steps and steps[-1] == NONE or len(picked) >= d.max:
            return []
        out = set()
        for answer in d.legal():  # the answers that contain the picks so far
            rest = _without(answer, picked, strict=False)
            if rest is None:
                continue
            if not rest:
                out.add(NONE)
            else:
                out.update(self.index(o) for o in rest)
        return sorted(out)

    def is_complete(self, game: Any, steps: Sequence[int]) -> bool:
        """Do `steps` answer the current decision (see the module doc)?"""
        d = _pending(game)
        if d is None or not steps:
            return False
        if d.kind in ("one", "ask"):
            return len(steps) == 1
        if d.kind == "order":
            return len(steps) >= len(d.options)
        return steps[-1] == NONE or len(steps) >= d.max

    def to_engine_action(self, game: Any, steps: Sequence[int]) -> Any:
        """The action (for `Game.apply`) that the complete `steps` stand for; ValueError when
        they are not complete. Legality is `Game.apply`'s to check."""
        d = _pending(game)
        if d is None:
            raise ValueError("the game is not waiting for a decision")
        if not self.is_complete(game, steps):
            raise ValueError(f"steps {list(steps)} do not complete a {d.kind!r} answer yet")
        if d.kind == "ask":
            if steps[0] not in (YES, NO):
                raise ValueError(f"step {steps[0]} does not answer a yes/no question")
            return steps[0] == YES
        if d.kind == "one":
            return self.value(steps[0])
        return [self.value(i) for i in steps if i != NONE]

    def action_steps(self, game: Any, action: Any) -> list[int]:
        """The steps that give `action` (an engine action answering the current decision):
        the inverse of `to_engine_action`."""
        d = _pending(game)
        if d is None:
            raise ValueError("the game is not waiting for a decision")
        if d.kind in ("one", "ask"):
            return [self.index(action)]
        out = [self.index(a) for a in action]
        if d.kind == "many" and len(out) < d.max:
            out.append(NONE)
        return out


@attrs.frozen
class _Pending:
    """The current decision as its decider sees it, and its legal answers (lazily)."""

    kind: str
    options: list[Any]
    min: int
    max: int
    optional: bool
    legal_fn: Callable[[], list[Any]]

    def legal(self) -> list[Any]:
        return self.legal_fn()


_LEGAL: weakref.WeakKeyDictionary[Any, tuple[int, int, list[Any]]] = \
    weakref.WeakKeyDictionary()


def _pending(game: Any) -> _Pending | None:
    if isinstance(game, dict):  # a view of the decider
        d = game.get("decision")
        if d is None or "options" not in d:
            return None
        listed = game.get("legal_actions", [])
        return _Pending(d["kind"], list(d["options"]), d["min"], d["max"], d["optional"],
                        lambda: listed)
    d = game.decision
    if d is None:
        return None

    def legal() -> list[Any]:
        # a multi-choice's answers are enumerated once per decision, not once per step
        mark = (d.id, len(game.actions))
        got = _LEGAL.get(game)
        if got is None or got[:2] != mark:
            got = _LEGAL[game] = (*mark, game.legal_actions())
        return got[2]

    return _Pending(d.kind, d.options, d.min, d.max, d.optional, legal)


def _without(items: list[Any], taken: list[Any], strict: bool = True) -> Any:
    """`items` less one occurrence of each of `taken`; None (when not `strict`) if some
    taken value is not among them, ValueError when `strict`."""
    rest = list(items)
    for t in taken:
        for i, x in enumerate(rest):
            if _key(x) == _key(t):
                del rest[i]
                break
        else:
            if strict:
                raise ValueError(f"{t!r} is not an option left to pick")
            return None
    return rest


def _key(value: Any) -> tuple[str, Any]:
    """The dictionary key of a value: True and 1, False and 0 are different actions."""
    t = type(value)
    if t is bool:
        return ("b", value)
    if t is int:
        return ("i", value)
    if t is str:
        return ("s", value)
    if value is None:
        return ("n", None)
    return ("x", repr(value))  # a list or other value: never in the space


_SPACES: dict[tuple[str, int], ActionSpace] = {}


def _build(pack: Any, created_slots: int) -> ActionSpace:
    model = pack.model
    values: list[Any] = [None, True, False]
    values += list(model.sides)
    for name in sorted(model.enums):
        values += model.enum_values(name)
    for tname in sorted(model.by_type):
        values += model.by_type[tname]
    for tname in sorted(t for t, info in model.types.items() if info.created):
        values += [f"{tname}#{n}" for n in range(1, created_slots + 1)]
    ints: set[int] = {0}
    texts: set[str] = set()
    _literals(model, ints, texts)
    for rec in model.records.values():
        _data_ints(rec.data, ints)
    values += sorted(texts)
    near = [n for n in ints if abs(n) <= INT_REACH]
    low, high = min(near), max(near)
    values += list(range(low, high + 1))
    index: dict[tuple[str, Any], int] = {}
    unique: list[Any] = []
    for v in values:
        k = _key(v)
        if k not in index:
            index[k] = len(unique)
            unique.append(v)
    return ActionSpace(pack.id, tuple(unique), low, high, created_slots, index)


def _literals(model: Any, ints: set[int], texts: set[str]) -> None:
    """The numbers and texts written anywhere in the pack's rules."""
    roots: list[Any] = [*model.procs.values(), *model.values.values(), *model.vars.values(),
                        *model.consts.values(), *model.events.values(),
                        *(t.decl for t in model.triggers), *(e.body for e in model.effects),
                        *(c for c, _ in model.checks),
                        *(f.decl for t in model.types.values() for f in t.fields.values())]
    seen: set[int] = set()
    todo = roots
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, A.Int):
            ints.add(node.value)
        elif isinstance(node, A.Str):
            texts.add(node.value)
        elif isinstance(node, (tuple, list)):
            todo.extend(node)
        elif attrs.has(type(node)):
            todo.extend(getattr(node, f.name) for f in attrs.fields(type(node))
                        if f.name != "at")


def _data_ints(data: Any, ints: set[int]) -> None:
    if type(data) is int:
        ints.add(data)
    elif isinstance(data, dict):
        for v in data.values():
            _data_ints(v, ints)
    elif isinstance(data, list):
        for v in data:
            _data_ints(v, ints)
