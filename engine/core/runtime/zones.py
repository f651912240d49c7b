"""Where records lie: moving them between zones (`move`, `move_all`, `draw`), shuffling a
zone, and revealing records to sides. Every record in a zone is in `loc` (record -> zone
key); a record moved is hidden again unless its new zone shows it."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.errors import EngineFault
from engine.core.rt import RuleError
from engine.core.runtime.chance import Chance
from engine.core.runtime.records import Records


class Zones(Records, Chance):
    def move(self, ent: Any, key: str, place: str | None = None) -> None:
        if ent is None:
            return
        if ent not in self.R and self._made_type(ent) is None:
            # zones hold records: a side or a number has no place
            raise RuleError(f"cannot move {ent!r} to {key}: only records lie in zones"
                            + self._gone(ent))
        try:
            dest = self.z[key]  # (at C speed through the undo watchers too)
        except KeyError:
            raise EngineFault(f"no zone {key!r}") from None
        src_key = self.loc.get(ent)
        if src_key is not None:
            self.z[src_key].remove(ent)
        if place == "top":
            dest.insert(0, ent)
        else:
            dest.append(ent)
        self.loc[ent] = key
        if ent in self.revealed:
            del self.revealed[ent]  # a moved card is hidden again unless its zone shows it
        if self._seen_fields:  # (with undo on: see watchers.SeenFields)
            for seen in self._seen_fields:
                seen.pop(ent, None)
        if self.memo:
            self.memo.clear()  # changed(), inline on this hot path
        if self.logging:
            self._log({"t": "move", "e": ent, "from": src_key, "to": key})

    def move_all(self, ents: Iterable[Any], key: str, place: str | None = None) -> None:
        ents = list(ents)
        if place == "top":
            ents.reverse()  # keep their order on top of the pile
        for ent in ents:
            self.move(ent, key, place)

    def draw(self, n: int, src: str, dst: str) -> list[str]:
        pile = self._zone(src)
        got = pile[:max(n, 0)]
        for ent in got:
            self.move(ent, dst)
        return got

    def shuffle(self, key: str) -> None:
        pile = self._zone(key)
        for i in range(len(pile) - 1, 0, -1):  # Fisher-Yates
            j = self._below(i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        self.changed()
        self.barrier()
        if self.logging:
            self._log({"t": "shuffle", "z": key})

    def reveal(self, ents: Iterable[Any], to: str | None) -> None:
        for ent in ents:
            if ent is None:
                continue
            seen = self.revealed.setdefault(ent, [])
            for side in ([to] if to else self.sides):
                if side not in seen:
                    seen.append(side)
            if self.logging:
                self._log({"t": "reveal", "e": ent, "to": to})
        self.changed()
        self.barrier()
