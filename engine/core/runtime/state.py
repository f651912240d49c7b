"""The attributes of a Runtime, each with its type and what it holds, and the two helpers
every part of the runtime uses (`changed`, `_zone`). The parts (the mixins composed as
`Runtime` in engine.core.runtime.runtime) build on `RuntimeState`, so each one sees them.

The generated rules read some attributes as `G.<name>`: those names are part of the
compiler's output, which must stay byte for byte the same (renaming one changes every
pack's code), and the one-letter ones are short because nearly every generated line reads
one (a rule's hot path, and code a designer reads in tracebacks):

- `s`: the game state, plain JSON-ready data (Runtime.initial_state)
- `v`, `z`, `f`: the vars, zones and record fields as rules read them: the state's own
  dicts, or while a decision may be undone the watchers' views of them (undo, watchers)
- `pv`, `pz`: the state's vars and zones themselves ("public"), read where anyone may
  see, never through the watchers
- `R`: the pack's records by id (their fields from the YAML)
- `left`, `memo`, `loc`, `mods`, `revealed`, `sides`, `other`, `graphs`: words already
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from engine.core.errors import EngineFault

if TYPE_CHECKING:
    from engine.core.limits import Limits
    from engine.core.runtime.watchers import SeenFields, SeenZones, WatchedVars

# A frame of the stack, a log entry, a modifier, a decision: plain data kept in the state
# (saved with it), so dicts of JSON values, read by their keys. Their short keys are the
# saved format: a frame is {"k": "e", "n": event, "a": arguments, "st": stage, "i": next
# trigger, "q": queue, "x": `with` state, "m": the `instead of` chosen} for a running event,
# {"k": "p", "f": function, "pc": resume point, "L": locals, "in": answer, "rv": returned}
# for a rule waiting or running.
Data: TypeAlias = dict[str, Any]
# (trigger function's name, the function, its condition or None, whether it may suspend)
Trigger: TypeAlias = tuple[str, Callable[..., Any], Callable[..., Any] | None, bool]
# an event's triggers by stage: before, instead of, on, after (CompiledPack.plans)
Plan: TypeAlias = tuple[list[Trigger], list[Trigger], list[Trigger], list[Trigger]]


class RuntimeState:
    """The attributes a Runtime has (set by `Runtime.__init__` and `Runtime.attach`): each
    one declared here is a slot of Runtime (see Runtime.__slots__)."""

    # ---- the pack's, the same for every game of it ------------------------------------------
    pack: Any  # the CompiledPack (engine.core.loader, which imports the runtime: not typed here)
    R: dict[str, dict[str, Any]]  # G.R: the pack's records by id
    by_type: dict[str, list[str]]  # record type -> its records' ids, in the pack's order
    sides: list[str]  # G.sides
    side_set: frozenset[str]
    other: dict[str, str]  # G.other: side -> the other side
    graphs: dict[str, Any]  # G.graphs: the pack's compiled graphs (engine.core.graph)
    functions: dict[str, Callable[..., int]]  # generated rules the run loop resumes, by name
    params: dict[str, list[str]]  # a generated rule's parameter names, by its name
    plans: dict[str, Plan]  # event -> its triggers
    suspending_events: frozenset[str]  # events that may wait for a decision: run as frames
    event_state_defaults: dict[str, Callable[..., Data]]  # event `with` state -> its defaults
    reason_texts: dict[str, str]  # a `win` reason without values -> its text (kept per pack)

    # ---- how this game runs ---------------------------------------------------------------
    logging: bool
    limits: Limits
    left: int  # G.left: rule steps left before the next decision (engine.core.runtime.budget)
    undo_side: str | None  # whose decisions may be undone (engine.core.runtime.undo)
    barrier_hit: bool  # something random or hidden happened since `watch`
    # While a playout runs (None otherwise): answers a choice of one item or a question
    # where the rules ask it, `picker(side, kind, options, optional, idle)`, or STOP to
    # leave it to the run loop (engine.core.playouts; runtime.decisions `pick1`,
    # `pick_decide`)
    picker: Callable[[str, str, list[Any], bool, list[Any] | None], Any] | None
    # Results of values that only read the state (engine.dsl.compile.memo.run_memo_values), by
    # (value, arguments...) -> (result, steps it took): kept only while rules run (None
    # otherwise, so that a host or test that changes the state between runs never reads
    # an old result) and emptied by every method that changes the state (`changed`).
    memo: dict[tuple[Any, ...], tuple[Any, int]] | None
    # While rules run (None otherwise, like `memo`): field -> type -> value -> the records
    # of the type with that value of the var field, in the type's order (see `having`);
    # built when first asked for, dropped when a rule writes the field.
    field_index: dict[str, dict[str, dict[Any, list[str]] | None]] | None
    _run_caches: tuple[dict[tuple[Any, ...], tuple[Any, int]],
                       dict[str, dict[str, dict[Any, list[str]] | None]]]  # the two, reused

    # ---- the state and views of it ----------------------------------------------------------
    s: Data  # G.s: the state
    # G.v: var -> key -> value as rules read it: the state's, or a WatchedVars (not a dict)
    v: Any
    pv: dict[str, dict[str, Any]]  # G.pv: the state's vars
    z: dict[str, list[str]]  # G.z: zone key -> its records, as rules read it (or SeenZones)
    pz: dict[str, list[str]]  # G.pz: the state's zones
    loc: dict[str, str]  # G.loc: record -> the zone key it lies in
    mods: list[Data]  # G.mods: modifiers and temporary sets (engine.core.runtime.modifiers)
    _expiring: set[tuple[str, str]]  # (start or end, event) some modifier waits for
    revealed: dict[str, list[str]]  # G.revealed: record -> the sides shown it in its zone
    f: dict[str, dict[str, Any]] | None  # G.f: record -> its fields in play (or SeenFields)
    # Outcomes the host supplied and `_below` has not used yet, or None when the seeded
    # generator draws; a state with a "chance" record takes its chance from the host.
    chance: list[int] | None
    made: dict[str, list[str]] | None  # created type -> ids of its live records
    stack: list[Data]  # the frames of events and rules waiting or running, innermost last
    # Write an entry to the log: the log's own `append` (`attach`), which saves a Python call
    # per entry; the log list of a state is never replaced.
    _log: Callable[[Data], None]
    # The state of each running instance of an event `with` state, innermost last. An
    # event run as a frame keeps its state in the frame ("x"); one run by emit_now is
    # never running at a decision, so the frames alone rebuild this after a load.
    event_states: dict[str, list[Data]]
    queues: list[list[Any]]  # the queue of each running event, innermost last
    running_events: list[str]  # the names of the running events, innermost last

    # ---- undo (engine.core.runtime.undo) ----------------------------------------------------
    # side -> (zones, vars, fields) read through watchers, made for this state when needed
    _watchers: dict[str, tuple[SeenZones, WatchedVars, SeenFields | None]]
    _seen_fields: list[SeenFields]  # the watchers' fields, told of every move
    _types_seen: dict[str, bool]  # record type -> all seen by the undo side (see `having`)

    def changed(self) -> None:
        """The state changed: results of values kept while it was unchanged are old."""
        if self.memo:
            self.memo.clear()

    def _zone(self, key: str) -> list[str]:
        try:
            return self.z[key]
        except KeyError:
            raise EngineFault(f"no zone {key!r}") from None
