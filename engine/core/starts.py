"""The kept starts of new games: the state of a pack's new game at its first decision, by
the random numbers drawn before it, loaded instead of running the pack's setup again."""
from __future__ import annotations

import ast
import marshal
import types
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias, TypedDict, cast

from engine.core.rng import below, seed_state

if TYPE_CHECKING:
    from engine.core.packdata import PackData
    from engine.core.runtime import Runtime

# A start as a function building a fresh copy of it (see `_builder`).
Builder: TypeAlias = Callable[[], dict[str, Any]]
# A node of the tree of starts: (the number of outcomes of the next draw, a child per
# outcome), or a leaf: a start marshalled or its builder.
Branch: TypeAlias = "tuple[int, dict[int, Node]]"
Node: TypeAlias = "Branch | bytes | Builder"


class Starts:
    """The states of a pack's new games at their first decision, by the random numbers
    drawn before it. All randomness comes from the seeded generator, so that state is a
    function of the numbers drawn (of how many outcomes each): a tic-tac-toe draws none
    and always starts the same, a Kuhn poker deals one of six ways. A new game whose draws
    lead to a start kept here loads it (one marshal call) instead of running setup, which
    was most of a small game's time. Kept in a tree: a node is the number of outcomes of
    the next draw and a child per outcome; a leaf the marshalled state, or, once a start
    has been loaded BUILD_AFTER times, a function returning a fresh copy of it built from a
    literal (see `_builder`): a call takes a third of marshal's time (no strings to intern
    again), but compiling it takes as long as 50 to 100 loads, which a start loaded only a
    few times never pays back. A pack whose starts do not repeat (a big shuffle) stops
    adding them after MAX_BYTES."""

    MAX_BYTES = 1 << 20
    BUILD_AFTER = 64

    def __init__(self) -> None:
        self.root: Node | None = None  # None: none yet
        self.size = 0
        self.open = True  # still adding starts
        self.loads: dict[int, int] = {}  # id of a marshalled start -> times loaded

    def find(self, seed: int) -> tuple[dict[str, Any], int] | None:
        """(a fresh copy of the start, the generator's state after its draws) of a new game
        of `seed`, or None when it is not kept."""
        node, state = self.root, seed_state(seed)
        kids: dict[int, Node] | None = None
        value = 0
        while isinstance(node, tuple):
            state, value = below(state, node[0])
            kids = node[1]
            node = kids.get(value)
        if node is None:
            return None
        if not isinstance(node, bytes):
            return node(), state
        start = marshal.loads(node)
        loads = self.loads[id(node)] = self.loads.get(id(node), 0) + 1
        if loads == self.BUILD_AFTER:  # once: a start the builder refuses stays marshalled
            build = _builder(start)
            if build is not None:
                del self.loads[id(node)]
                if kids is None:
                    self.root = build
                else:
                    kids[value] = build
        return start, state

    def keep(self, drawn: list[tuple[int, int]], start: bytes) -> None:
        """Keep `start`, reached by `drawn`: (outcomes, the one drawn) of each draw."""
        if not drawn:
            self.root = start
        else:
            if self.root is None:
                self.root = (drawn[0][0], {})
            node = cast(Branch, self.root)  # (a pack's first draw has the same outcomes)
            for i, (_n, value) in enumerate(drawn):
                kids = node[1]
                if i + 1 == len(drawn):
                    kids[value] = start
                else:
                    child = kids.get(value)
                    if child is None:
                        child = kids[value] = (drawn[i + 1][0], {})
                    node = cast(Branch, child)
        self.size += len(start) + 200 * len(drawn)  # (about what a node takes)
        self.open = self.size < self.MAX_BYTES

    def keep_state(self, drawn: list[tuple[int, int]], state: dict[str, Any]) -> None:
        """Keep the new game's `state`, reached by `drawn` (see `record_draws`), marshalled;
        a state marshal cannot write closes this Starts (no start of the pack is kept)."""
        try:
            self.keep(drawn, marshal.dumps(state))
        except ValueError:
            self.open = False


class _NotLiteral(Exception):
    """A value `_literal` does not write (see `_builder`)."""


class _Place(TypedDict):
    lineno: int
    col_offset: int
    end_lineno: int
    end_col_offset: int


_AT = _Place(lineno=1, col_offset=0, end_lineno=1, end_col_offset=0)  # (compile asks)


def _literal(x: Any, seen: set[int]) -> ast.expr:
    """An expression building a fresh copy of `x`, made of ast nodes and constants only
    (nothing of a pack is pasted into source text)."""
    t = type(x)
    if t is str or t is int or t is float or t is bool or x is None or t is bytes:
        return ast.Constant(x, **_AT)
    if t is tuple:
        return ast.Tuple([_literal(v, seen) for v in x], ast.Load(), **_AT)
    if t is not dict and t is not list:
        raise _NotLiteral(t)
    if id(x) in seen:  # an alias (marshal would keep it, a literal would not)
        raise _NotLiteral("alias")
    seen.add(id(x))
    if t is list:
        return ast.List([_literal(v, seen) for v in x], ast.Load(), **_AT)
    return ast.Dict([_literal(k, seen) for k in x], [_literal(v, seen) for v in x.values()],
                    **_AT)


def _builder(start: dict[str, Any]) -> Builder | None:
    """A function returning a fresh copy of `start` (equal, sharing no list or dict with it
    or another copy), compiled from a literal; None for a start with a value it does not
    write (a set, an alias) or too deep to compile: that start stays marshalled."""
    try:
        code = compile(ast.Expression(_literal(start, set())), "<start>", "eval")
    except (_NotLiteral, RecursionError, MemoryError, SyntaxError, ValueError):
        return None
    return types.FunctionType(code, {"__builtins__": {}})


def record_draws(rt: Runtime) -> list[tuple[int, int]]:
    """The list of (outcomes, the one drawn) of each number `rt` draws from its seed from
    now on, until `stop_recording(rt)`: what leads a new game to its start."""
    drawn: list[tuple[int, int]] = []
    seeded = rt._below

    def recorded(n: int) -> int:
        value = seeded(n)
        drawn.append((n, value))
        return value
    # (the instance's attribute hides the method until stop_recording pops it)
    rt._below = recorded  # type: ignore[method-assign]
    return drawn


def stop_recording(rt: Runtime) -> None:
    """`rt` draws as it did before `record_draws` (nothing when it was not recording)."""
    rt.__dict__.pop("_below", None)


# (pack id, log on) -> (pack, its Starts): see Starts
_STARTS: dict[tuple[int, bool], tuple[PackData, Starts]] = {}


def starts_of(pack: PackData, log: bool) -> Starts:
    """The Starts of `pack`'s new games, with the log on or off (kept per pack)."""
    got = _STARTS.get((id(pack), log))
    if got is None or got[0] is not pack:
        got = _STARTS[(id(pack), log)] = (pack, Starts())
    return got[1]

