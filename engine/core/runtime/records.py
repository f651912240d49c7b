"""Records made in play (`create`, `destroy`, `pieces`): their ids ('<type>#<n>'), their
fields in the state, and the zone and var keys each one indexes, which come and go with
it. (The pack's own records are the pack's: `R`.)"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.core.keys import keys_naming
from engine.core.rt import RuleError, Runaway
from engine.core.runtime.budget import StepBudget

# (kind "z" or "v", zone or var name, key, the index values in the key)
IndexedKey = tuple[str, str, str, tuple[str, ...]]


class Records(StepBudget):
    def _made_type(self, ent: Any) -> str | None:
        """The created type of `ent` if it is a live record made in play, else None."""
        if self.made is None or type(ent) is not str or "#" not in ent:
            return None
        tname = ent.partition("#")[0]
        return tname if tname in self.made and ent in self.s["f"] else None

    def _gone(self, ent: Any) -> str:
        """' (<id> was destroyed)' for the id of a record made in play that is gone, for a
        fault's message; '' for anything else."""
        if self.made is None or type(ent) is not str:
            return ""
        tname, _, number = ent.partition("#")
        made = self.s["serial"].get(tname, 0)
        gone = number.isdigit() and len(number) < 19 and 0 < int(number) <= made
        return f" ({ent} was destroyed)" if gone else ""

    def _domain(self, tname: str) -> list[str]:
        if tname == "side":
            return self.sides
        assert self.made is not None  # (only packs with created types index keys by them)
        return self.made[tname] if tname in self.made else self.by_type.get(tname, [])

    def _keys_naming(self, tname: str, rid: str) -> list[IndexedKey]:
        """(kind, name, key, index values) of each zone and var key that holds `rid`."""
        out = []
        for kind, name, types in self.pack.keyed.get(tname, ()):
            for combo in keys_naming(types, tname, rid, self._domain):
                key = "|".join((name, *combo)) if kind == "z" else "|".join(combo)
                out.append((kind, name, key, combo))
        return out

    def pieces(self, tname: str) -> list[str]:
        """The live records of a created type, oldest first (a copy: it changes in play)."""
        assert self.made is not None  # (the checker allows it of created types only)
        return list(self.made[tname])

    def create(self, tname: str, given: dict[str, Any], key: str | None,
               place: str | None) -> str:
        """A new record of created type `tname`, with the fields `given` (the others at
        their defaults), put in zone `key` (None: no zone); its id is '<type>#<n>'."""
        assert self.made is not None  # (the checker allows it of created types only)
        made = self.made[tname]
        if len(made) >= self.limits.list_size:
            raise Runaway(f"more than {self.limits.list_size:,} records of type '{tname}' at "
                          "once (the list_size limit)")
        self.tick()
        dest = self._zone(key) if key is not None else None
        serial = self.s["serial"]
        serial[tname] += 1
        rid = f"{tname}#{serial[tname]}"
        made.append(rid)
        keys = self._keys_naming(tname, rid)
        for kind, _name, zkey, _combo in keys:  # zones first: a default may read one
            if kind == "z":
                self.s["z"][zkey] = []
        self.s["f"][rid] = {}
        self.pack.ns["INITS"][tname](self, rid, given)
        for kind, name, vkey, combo in keys:
            if kind == "v":
                self.s["v"][name][vkey] = self.pack.ns["DEFAULTS"][name](self, *combo)
        if dest is not None:
            if place == "top":
                dest.insert(0, rid)
            else:
                dest.append(rid)
            assert key is not None  # (dest is its zone)
            self.loc[rid] = key
        self.changed()  # after the defaults: values read while they were worked out are old
        if self.logging:
            self._log({"t": "create", "e": rid, "to": key})
        return rid

    def destroy(self, ent: Any) -> None:
        """`ent`, a record made in play, leaves the game: its zone, its fields, and the
        zone and var keys it indexes. Zones it indexes must be empty."""
        if ent is None:
            return
        tname = self._made_type(ent)
        if tname is None:
            raise RuleError(f"cannot destroy {ent!r}: only records made in play ('create') "
                            "can be destroyed" + self._gone(ent))
        assert self.made is not None  # (a made type was found)
        keys = self._keys_naming(tname, ent)
        for kind, _name, zkey, _combo in keys:
            if kind == "z" and self.s["z"][zkey]:
                held = self.s["z"][zkey]
                raise RuleError(f"cannot destroy {ent}: zone {zkey} still holds {len(held)} "
                                f"record{'s' * (len(held) != 1)}; move or destroy them first")
        for kind, name, key, _combo in keys:
            if kind == "z":
                del self.s["z"][key]
                for watchers in self._watchers.values():
                    dict.pop(watchers[0], key, None)
            else:
                del self.s["v"][name][key]
        src = self.loc.pop(ent, None)
        if src is not None:
            self.s["z"][src].remove(ent)
        self.revealed.pop(ent, None)
        del self.s["f"][ent]
        for seen in self._seen_fields:
            seen.pop(ent, None)
        self.made[tname].remove(ent)
        self.changed()
        if self.logging:
            self._log({"t": "destroy", "e": ent, "from": src})

    def destroy_all(self, ents: Iterable[Any]) -> None:
        for ent in list(ents):
            self.destroy(ent)
