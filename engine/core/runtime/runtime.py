"""`Runtime`, the object generated pack code calls as `G`: the parts of the runtime
composed (each a mixin of its own module, built on RuntimeState), made for a pack and
attached to a game state, and the start of a game (`initial_state`, `setup`)."""
from __future__ import annotations

import marshal
from typing import Any

from engine.core import rng as _rng
from engine.core.limits import Limits
from engine.core.runtime.fields import Fields
from engine.core.runtime.loop import RunLoop
from engine.core.runtime.modifiers import ending_events
from engine.core.runtime.state import Data, RuntimeState
from engine.core.runtime.zones import Zones

# pack id -> (pack, marshal of the vars and var fields before setup): see Runtime.setup
_BEFORE_SETUP: dict[int, tuple[Any, bytes]] = {}

# pack id -> (pack, what every Runtime of the pack reads of it, in Runtime.__init__'s order)
_PACK_PARTS: dict[int, tuple[Any, tuple[Any, ...]]] = {}


def _pack_parts(pack: Any) -> tuple[Any, ...]:
    """The pack's parts a Runtime holds, worked out once per pack: `REASONS` (rendered
    `win` reasons, see Log.win) is one dict shared by every game of the pack."""
    got = _PACK_PARTS.get(id(pack))
    if got is None or got[0] is not pack:
        ns = pack.ns
        got = _PACK_PARTS[id(pack)] = (pack, (
            pack.records, pack.by_type, pack.sides, pack.side_set, pack.other, pack.graphs,
            ns["FUNCS"], ns["PARAMS"], pack.plans, ns["SUSPENDING_EVENTS"], ns["EVSTATE"], {}))
    return got[1]


class Runtime(RunLoop, Zones, Fields):
    # Every attribute RuntimeState declares is a slot: read at a fixed place by the rules
    # (G.left, G.f, ... on every line) and made without an instance dict (a new game is made
    # for every clone, undo run and determinized copy). The parts have no slots, so an
    # instance still has a __dict__ (a host may set an attribute: engine.core.game's
    # recorded `_below`) and a __weakref__ (the undo watchers hold the runtime weakly).
    __slots__ = tuple(RuntimeState.__annotations__)

    def __init__(self, pack: Any, state: Data, log: bool = True,
                 limits: Limits | None = None):
        # The pack's parts rules read, from one tuple kept per pack: a new game is made
        # often (every clone, undo run and determinized copy: engine.core.game), so this
        # reads none of them from the pack.
        self.pack = pack
        (self.R, self.by_type, self.sides, self.side_set, self.other, self.graphs,
         self.functions, self.params, self.plans, self.suspending_events,
         self.event_state_defaults, self.reason_texts) = _pack_parts(pack)
        self.logging = log
        self.limits = limits or pack.limits
        self.left = self.limits.steps  # rule steps left before the next decision
        self.undo_side = None  # whose decisions may be undone
        self.barrier_hit = False
        self.picker = None
        self.memo = None  # (see RuntimeState: kept only while rules run)
        self.field_index = None
        self._run_caches = ({}, {})  # the two, emptied and reused by each run
        self._types_seen = {}
        self.attach(state)

    def attach(self, state: Data) -> None:
        """Point the hot-path aliases at a (new) state dict."""
        if self.memo:
            self.memo.clear()  # changed(), inline
        self.s = state
        # side -> (zones, vars, fields) read through watchers (see Undo.watch), made for
        # this state when first needed
        self._watchers = {}
        self._seen_fields = []  # the watchers' fields, told of every move
        # public vars and zones are read through pv and pz, never through watchers (see watch)
        self.v = self.pv = state["v"]
        self.z = self.pz = state["z"]
        self.loc = state["loc"]
        self.mods = state["mods"]
        self._expiring = ending_events(self.mods) if self.mods else set()
        self.revealed = state["revealed"]
        self.f = state.get("f")  # record fields in play (var fields, created records)
        # a state with a "chance" record takes its chance from the host (see Chance._below)
        self.chance = None if state.get("chance") is None else []
        self.made = state.get("made")  # created type -> ids of its live records
        stack = self.stack = state["stack"]
        self._log = state["log"].append
        event_states: dict[str, list[Data]] = \
            {name: [] for name in self.event_state_defaults} if self.event_state_defaults else {}
        self.event_states = event_states
        queues: list[list[Any]] = []
        running_events: list[str] = []
        self.queues, self.running_events = queues, running_events
        for frame in stack:  # (one pass: most states hold a few frames, a new game's none)
            if frame["k"] == "e":
                queues.append(frame["q"])
                running_events.append(frame["n"])
                event_state = frame.get("x")
                if event_state is not None:
                    event_states[frame["n"]].append(event_state)

    # ---- the state at the start ---------------------------------------------------------------
    @staticmethod
    def initial_state(pack: Any, seed: int) -> Data:
        state: Data = {
            "v": {}, "z": {}, "loc": {}, "mods": [], "revealed": {}, "stack": [],
            "decision": None, "log": [], "result": None, "rng": _rng.seed_state(seed),
            "steps": 0, "decisions": 0, "asked": 0,
        }
        if pack.record_state:  # only packs with var fields or created types carry these
            state["f"] = {}
        if pack.created:
            state["made"] = {t: [] for t in sorted(pack.created)}
            state["serial"] = dict.fromkeys(sorted(pack.created), 0)
        return state

    def setup(self) -> None:
        """Every zone empty, every var at its default and every var field from its YAML
        or default, then the setup event. What comes before the event is the same in every
        game of a pack: it is worked out once per pack and copied (one marshal call) after,
        which was most of a small game's `new_game`."""
        pack = self.pack
        got = _BEFORE_SETUP.get(id(pack))
        if got is not None and got[0] is pack:
            zones, variables, fields = marshal.loads(got[1])
            self.z.update(zones)
            self.v.update(variables)
            if fields and self.f is not None:
                self.f.update(fields)
        else:
            untouched = {k: x for k, x in self.s.items() if k not in ("v", "z", "f")}
            for key in pack.zone_keys:
                self.z[key] = []
            for name, combos in pack.var_keys.items():
                default = pack.ns["DEFAULTS"][name]
                table = self.v[name] = {}
                for key, args in combos:
                    table[key] = default(self, *args)
            self.init_fields()
            # kept only when the defaults read no dice and wrote nothing but vars and fields
            if untouched == {k: x for k, x in self.s.items() if k not in ("v", "z", "f")} \
                    and not any(self.z.values()):
                _BEFORE_SETUP[id(pack)] = (pack, marshal.dumps((self.s["z"], self.s["v"],
                                                                self.s.get("f"))))
        self.push_event("setup", ())

    def init_fields(self) -> None:
        """The var fields of the pack's records, from their YAML or their defaults (after
        the vars, so a field's default may read a var)."""
        pack = self.pack
        fields = self.f
        for tname in pack.var_field_types:
            init = pack.ns["INITS"][tname]
            for rid in pack.by_type[tname]:
                assert fields is not None  # (a pack with var fields has them in its state)
                fields[rid] = {}
                init(self, rid, self.R[rid])
