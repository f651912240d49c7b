"""Undo support: while a decision may be undone (`watch`), rules read zones, vars and
fields through watchers (engine.core.runtime.watchers), and anything random or hidden that
happens (`barrier`) ends the chance to undo, since it may have let the other side learn
something. engine.core.game decides when to watch and what to roll back."""
from __future__ import annotations

import weakref

from engine.core.runtime.state import RuntimeState
from engine.core.runtime.watchers import SeenFields, SeenZones, WatchedVars


class Undo(RuntimeState):
    def barrier(self) -> None:
        """Something random or hidden happened: undo may not go back past this point."""
        self.barrier_hit = True
        if self.undo_side is not None:
            self.unwatch()

    def watch(self, side: str) -> None:
        """Until the next barrier, read zones and vars through watchers: a rule that reads
        what `side` cannot see may let it show (a question asked or not, an option offered),
        so such a read ends `side`'s chance to undo."""
        self.undo_side = side
        self.barrier_hit = False
        if self.memo:  # kept results were read past the watchers: read again through them
            self.memo.clear()
        self._types_seen = {}  # see `Fields.having`
        watchers = self._watchers.get(side)
        if watchers is None:
            # The watchers hold the runtime weakly: a cycle would leave every finished
            # game, its state and log, to the cyclic garbage collector (a tenth of random
            # play with undo on went to it).
            me = weakref.proxy(self)
            state = self.s
            fields = state.get("f")
            seen_fields = None if fields is None else SeenFields(fields, me, side)
            watchers = self._watchers[side] = (SeenZones(state["z"], me, side),
                                               WatchedVars(state["v"], me, side), seen_fields)
            if seen_fields is not None:
                self._seen_fields.append(seen_fields)
        self.z, self.v = watchers[0], watchers[1]
        if self.f is not None:
            self.f = watchers[2]

    def unwatch(self) -> None:
        self.undo_side = None
        self.z, self.v, self.f = self.pz, self.pv, self.s.get("f")  # (pz, pv: the state's)
