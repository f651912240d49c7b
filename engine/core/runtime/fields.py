"""What rules read of records and the pack's data: record fields (`field`, `attribute`,
`name_of`), var fields written in play (`setf`), the records of a type with a given value
of a var field (`having`, through an index kept while rules run), every record of a type
(`all`) and the pack's tables (`lookup`)."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.core.rt import RuleError
from engine.core.runtime.records import Records


class Fields(Records):
    def setf(self, rid: Any, name: str, value: Any) -> None:
        """`rid.name = value` for a var field (writing reads nothing: not watched)."""
        rec = self.s["f"].get(rid) if type(rid) is str else None
        if rec is None or name not in rec:
            raise RuleError(f"{'none' if rid is None else rid} has no field '{name}' to set"
                            + self._gone(rid))
        rec[name] = value
        if self.memo:
            self.memo.clear()  # changed(), inline on this hot path
        if self.field_index:
            self.field_index.pop(name, None)
        if self.logging:
            self._log({"t": "setf", "e": rid, "f": name, "v": value, "at": self.loc.get(rid)})

    def setf_bounded(self, rid: Any, name: str, value: int,
                     bounds: Callable[..., tuple[int, int]]) -> None:
        self.setf(rid, name, self.bound(bounds(self, rid), value))

    @staticmethod
    def bound(lo_hi: tuple[int, int], value: int) -> int:
        lo, hi = lo_hi
        return lo if value < lo else hi if value > hi else value

    def field(self, rid: Any, name: str) -> Any:
        """`x.name` for an x whose type the checker could not tell."""
        if self.f is not None and rid in self.f:
            rec = self.f[rid]
            if name in rec:
                return rec[name]
        return self.R[rid][name]

    def attribute(self, rid: Any, name: str) -> Any:
        if self.f is not None and rid in self.f:
            rec = self.f[rid]
            if name in rec:
                return rec[name]
        record = self.R.get(rid)
        return record.get(name) if record is not None else None

    def name_of(self, rid: Any) -> Any:
        rec = self.R.get(rid)
        return (rec.get("name") or rid) if rec is not None else rid

    def lookup(self, table: str, row: Any, col: Any) -> Any:
        return self.pack.tables[table].lookup(row, col)

    def all(self, type_name: str) -> list[str]:
        return self.by_type[type_name]

    def having(self, tname: str, field: str, value: Any) -> Iterable[str]:
        """The records of type `tname` whose var field `field` is `value`, in the type's
        order: what a comprehension over all of them that keeps only `x.field == value`
        needs to walk (engine.dsl.compile.loops; its condition still reads every
        record it gets). Charged as the walk of all of them. While a decision may be undone,
        all of them: the comprehension reads each through the watchers, as it always did."""
        items = self.by_type[tname]
        self.left -= len(items) + 1
        if self.left < 0:
            self.over_budget()
        index = self.field_index
        if index is None:
            return items
        if self.undo_side is not None and not self._seen_type(tname, items):
            return items  # the walk of all of them reads some that undo may not
        per_type = index.get(field)
        if per_type is None:  # first asked in this run, or its field was written since: a
            index[field] = {tname: None}  # walk of all costs what building the index does
            return items
        by_value = per_type.get(tname)
        if by_value is None:  # asked again: worth an index
            by_value = per_type[tname] = {}
            fields = self.s["f"]
            for rid in items:
                by_value.setdefault(fields[rid][field], []).append(rid)
        return by_value.get(value, ())

    def _seen_type(self, tname: str, items: list[str]) -> bool:
        """Does the side whose decision may be undone see every record of type `tname`?
        Then `having` may skip those whose field has another value: the walk of all of
        them would read only their fields (engine.dsl.compile.index), and reading a
        seen record's fields ends no undo. Worked out once per decision (`Undo.watch`):
        while it may be undone, no record becomes hidden from the side, as moving one into a
        zone it cannot see reads that zone, which ends the watch (`move`, `create`)."""
        seen = self._types_seen.get(tname)
        if seen is None:
            loc = self.loc
            seen = loc.keys().isdisjoint(items)  # most often: none of them in a zone
            if not seen:
                side, revealed = self.undo_side, self.revealed
                visible = self.pack.visible_zones[side]
                seen = all(where is None or where in visible or side in revealed.get(rid, ())
                           for rid, where in zip(items, map(loc.get, items)))
            self._types_seen[tname] = seen
        return seen
