"""The save file's format: its names and versions, and its schema as msgspec structs,
decoded strictly (no type coerced, no key unknown or missing: engine.core.saves.reading).

Game data (a var's value, a rule's locals, a log entry) is typed `JsonData`: any JSON value
to msgspec; the reader checks it is JSON data when the file held a fractional number (the
only way anything else gets in). A key a save may lack reads as UNSET when absent (null is
another value), so that the structs written out again give the text they were read from;
but for the state's tables that only some packs have, absent when None (omit_defaults).
The runtime runs on the plain JSON data, not on these structs: they hold what is checked
(`Save` pairs the two).
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

import msgspec
from msgspec import UNSET, UnsetType

SAVE_FORMAT = "engine-save/2"
# The version of the public format (views, decisions, actions, log entries, saves: see
# engine.core.api and docs/api.md), in every view and save; `format` above says what a file is.
# It counts on from "engine-save/2", the first format published. A save written before
# saves carried it (format "engine-save/2", no `format_version`) is of version 2.
FORMAT_VERSION = 2
OLD_FORMATS = ("engine-save/1",)
VERIFY_MODES = ("replay", "digest")
# Lists in lists in game data: rules never nest this deep, a bomb does. Checked when the
# JSON holds a fractional number (the only case where game data is scanned, see
# engine.core.saves.reading); otherwise the JSON reader's own recursion limit bounds it.
MAX_NESTING = 64
RNG_LIMIT = 1 << 64  # the random generator's state is a 64-bit number (engine.core.rng)

# What msgspec reads as any JSON value, and the reader checks itself (marked for it):
GAME_DATA, LOG_ENTRY, MOD_ENTRY = "game data", "log entry", "modifier"
# int, text, true/false, null, lists and objects of them (checked when the file held a fraction)
JsonData: TypeAlias = Annotated[Any, GAME_DATA]
# an object of JSON data with a text "t" (its kind): checked at C speed
LogEntry: TypeAlias = Annotated[Any, LOG_ENTRY]
# a modifier or a temporary set (Mod, see `modifier_kind`): msgspec tells structs apart by a
# tag only, and these have none, so the reader reads each as its kind says
ModEntry: TypeAlias = Annotated[Any, MOD_ENTRY]


class SavedEventFrame(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True,
                      tag_field="k", tag="e"):
    """An event running on the stack (engine.core.runtime.Runtime.push_event)."""
    # (the attributes named for what they hold, the keys of the file short)
    event: str = msgspec.field(name="n")
    args: list[JsonData] = msgspec.field(name="a")
    stage: int = msgspec.field(name="st")  # 0 before, 1 instead/on, 2 after, 3 its queue
    next_trigger: int = msgspec.field(name="i")  # of the stage
    queued: list[tuple[str, list[JsonData]]] = msgspec.field(name="q")  # to run after it
    # the `instead of` trigger chosen (-1: none), once settled
    instead: int | None | UnsetType = msgspec.field(default=UNSET, name="m")
    # the state of an event declared `with` state
    event_state: dict[str, JsonData] | None | UnsetType = msgspec.field(default=UNSET, name="x")


class SavedProcFrame(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True,
                     tag_field="k", tag="p"):
    """A rule waiting on the stack: a generated function, its resume point and locals."""
    function: str = msgspec.field(name="f")
    resume_at: int = msgspec.field(name="pc")
    local_values: dict[str, JsonData] = msgspec.field(name="L")
    returned: JsonData | UnsetType = msgspec.field(default=UNSET, name="rv")  # by a procedure
    answer: JsonData | UnsetType = msgspec.field(default=UNSET, name="in")  # about to be read


Frame = SavedEventFrame | SavedProcFrame
FRAME_KINDS: dict[str, type[SavedEventFrame] | type[SavedProcFrame]] = {
    "e": SavedEventFrame, "p": SavedProcFrame}


class SavedPick(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """A pick of a one-at-a-time choice: the items picked so far, and the choice's counts."""
    picked: list[JsonData]
    min: int
    max: int


class SavedDecision(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """The decision the game waits for (engine.core.runtime's `ask`)."""
    id: int
    kind: Literal["one", "many", "ask", "order"]
    side: str
    options: list[JsonData]
    min: int
    max: int
    optional: bool
    prompt: str | None
    require: tuple[str, dict[str, JsonData]] | None  # a condition function, its captured locals
    fn: str  # the rule that asks
    window: str | None | UnsetType = UNSET  # the response window it opens (absent: none)
    args: list[JsonData] | None | UnsetType = UNSET  # the values of the prompt's placeholders
    each: SavedPick | None | UnsetType = UNSET  # a pick of a one-at-a-time choice
    idle: list[JsonData] | UnsetType = UNSET  # the options that do nothing now (`no effect when`)
    always: bool | UnsetType = UNSET  # `always asked`: not answered for the decider


class SavedModifier(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """`modify value(...) by/to/at least/at most amount` (engine.core.runtime.Runtime.modify)."""
    value: str
    key: str
    amount: JsonData  # a whole number, or for `to` the new value
    dur: JsonData  # see engine.core.saves.pack_checks: check_duration
    op: Literal["to", "least", "most"] | None | UnsetType = UNSET  # absent: `by`


class SavedTempSet(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    """`set var[...] = now until ...` (engine.core.runtime.Runtime.set_until)."""
    var: str
    key: str
    was: JsonData  # the value it gets back
    now: JsonData  # the value the `set` gave it
    dur: JsonData


Mod = SavedModifier | SavedTempSet


def modifier_kind(entry: dict[str, Any]) -> type[SavedModifier] | type[SavedTempSet]:
    """The kind of a state's modifier entry: a temporary set names its var."""
    return SavedTempSet if "var" in entry else SavedModifier


class SavedResult(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    winner: str | None
    reason: str


class SavedState(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True,
                 omit_defaults=True):
    vars: dict[str, dict[str, JsonData]] = msgspec.field(name="v")
    zones: dict[str, list[str]] = msgspec.field(name="z")
    loc: dict[str, str]
    mods: list[ModEntry]  # Mod structs, each read as its `modifier_kind` (reading.structure)
    revealed: dict[str, list[str]]
    stack: list[Frame]
    decision: SavedDecision | None
    log: list[LogEntry]
    result: SavedResult | None
    rng: int
    steps: int
    decisions: int
    asked: int
    # only in games of packs with var fields or created types (see Runtime.initial_state)
    # record -> its fields in play
    fields: dict[str, dict[str, JsonData]] | None = msgspec.field(default=None, name="f")
    made: dict[str, list[str]] | None = None  # created type -> its live records
    serial: dict[str, int] | None = None  # created type -> records made so far
    # only in games whose chance the host supplies (Game.new(..., chance=...)): the
    # outcomes used so far, in order; replay draws them instead of the seed's numbers
    chance: list[int] | None = None


class SaveFile(msgspec.Struct, frozen=True, gc=False, forbid_unknown_fields=True):
    format: str
    pack: str
    pack_hash: str
    seed: int
    log: bool  # was the log on: replaying with it gives the same log
    actions: list[JsonData]
    state: SavedState
    digest: str
    format_version: int | UnsetType = UNSET  # absent in saves written before it was added
    # the pack's code_hash when saved (absent in saves written before it was added): the
    # waiting rules in the state are places in that code (see pack_checks.frames_hold)
    code: str | None | UnsetType = UNSET


class Save(msgspec.Struct, frozen=True):
    """A save that passed the schema and the pack checks: the typed view, and the plain
    data the runtime will run on."""
    file: SaveFile
    data: dict[str, Any]

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.data["state"]
        return state
