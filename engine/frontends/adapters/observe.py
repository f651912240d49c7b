"""Observations for a side, computed from its view (`Game.view(side)`) only, never from the
hidden state: what a learning agent or a search bot may know.

String: `observation_string(view)`, the view without its log as canonical JSON (sorted keys,
no spaces, so equal views give equal strings): what the side sees now. What a side knows of
the past is a trail of its positions and its own steps (the OpenSpiel adapter's information
state, engine/adapters/openspiel.py), not the view's log, which grows with the game and
which a determinized copy does not have.

Tensor: `Observer.for_pack(pack)` fixes a layout from the pack's model, the same for every
game and position of the pack; `observer.tensor(view, steps)` fills it (a list of floats of
length `observer.size`; `observer.shape` is `(size,)`). `observer.sections` names its
parts and `observer.describe()` prints them. The layout, in order:

  decision    the decider (one-hot over the sides), "the view's side decides" (1/0), the
              kind (one-hot: one, many, ask, order), optional, a response window
  result      over (1/0), the winner (one-hot over the sides, then "no winner")
  steps       per action index (`engine.frontends.adapters.actions`): how often it was picked so
              far in the answer being built (the `steps` of a 'many'/'order' answer, and the
              picks of a one-at-a-time choice, `decision.each.picked`)
  zone:K      per zone key K (the keys known at load, in the pack's order): the number of
              items in it, the number of them the side sees, and, when the zone holds
              records of a type listed in the pack, one presence bit per record of that
              type (1: the side sees it there)
  var:N[K]    per var N and key K (the keys known at load): the value as its declared type
              says, all zeros when the side may not see it: an int as itself (scaled to
              0..1 when the var declares whole-number bounds `in lo..hi`), a bool as 1/0,
              a side, enum value or record as one-hot over its type's values (an optional
              one with a last "none" slot), a list of those as counts per value and its
              length, anything else (text, records made in play) as 1 when set
  field:T.F   per record R of a pack type T with var fields, per var field F: the value
              encoded as a var's, zeros when the side does not see R

Keys that name records made in play (zones and vars indexed by them) come and go with the
records, so they are left out of the tensor; their records still count in the zones that
hold them. A value outside its declared type (an enum value the pack does not declare)
raises ValueError naming the var.
"""
from __future__ import annotations

import json
from typing import Any

import attrs

from engine.dsl import ast as A
from engine.frontends.adapters.actions import ActionSpace

KINDS = ("one", "many", "ask", "order")


def observation_string(view: dict[str, Any]) -> str:
    """What the side of `view` sees now (its view without the log), as canonical JSON."""
    return _canonical({k: v for k, v in view.items() if k != "log"})


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@attrs.frozen
class Section:
    """A part of the tensor: `size` numbers from `start`, encoding `name`."""

    name: str
    start: int
    size: int


@attrs.frozen
class _Slot:
    """How one value is written: `domain` (value -> offset) for one-hot and list counts,
    else a number (int, bool) or a "set" flag."""

    how: str  # int | bool | onehot | list | set
    size: int
    domain: dict[Any, int] | None = None
    none_at: int | None = None  # the offset of the "none" slot of an optional value
    scale: tuple[int, int] | None = None  # an int's declared bounds


class Observer:
    """The tensor layout of one pack (see the module doc); `for_pack` builds it once."""

    _cache: dict[str, Observer] = {}

    def __init__(self, pack: Any):
        self.pack_id = pack.id
        model = pack.model
        self.sides = list(pack.sides)
        self.space = ActionSpace.for_pack(pack)
        self.sections: list[Section] = []
        self._zones: list[tuple[str, int, dict[str, int] | None]] = []
        self._vars: list[tuple[str, str, bool, int, _Slot]] = []
        self._fields: list[tuple[str, str, int, _Slot]] = []
        n = len(self.sides)
        self._add("decision", n + 1 + len(KINDS) + 2)
        self._add("result", 1 + n + 1)
        self._add("steps", self.space.size)
        static = {t: ids for t, ids in model.by_type.items()
                  if t not in model.types or not model.types[t].created}
        for key in pack.zone_keys:
            of = model.zones[key.partition("|")[0]].of
            records = static.get(of) if of is not None else None
            domain = {r: i for i, r in enumerate(records)} if records else None
            start = self._add(f"zone:{key}", 2 + (len(domain) if domain else 0))
            self._zones.append((key, start, domain))
        for name, combos in pack.var_keys.items():
            decl = model.vars[name]
            slot = self._slot(model, static, decl.type, decl.bounds)
            for key, _args in combos:
                start = self._add(f"var:{name}[{key}]" if key else f"var:{name}", slot.size)
                self._vars.append((name, key, bool(decl.params), start, slot))
        for tname in sorted(static):
            info = model.types.get(tname)
            if info is None or not info.var_fields:
                continue
            for field in info.var_fields:
                f = info.fields[field]
                texpr = _type_expr(f.type, f.optional)
                bounds = f.decl.bounds if f.decl is not None else None
                slot = self._slot(model, static, texpr, bounds)
                for rid in static[tname]:
                    start = self._add(f"field:{tname}.{field}[{rid}]", slot.size)
                    self._fields.append((rid, field, start, slot))
        self.size = sum(s.size for s in self.sections)
        self.shape = (self.size,)

    @classmethod
    def for_pack(cls, pack: Any) -> Observer:
        got = cls._cache.get(pack.hash)
        if got is None:
            got = cls._cache[pack.hash] = cls(pack)
        return got

    def describe(self) -> str:
        """The layout, one section a line: start, size, name."""
        return "\n".join(f"{s.start:>6} {s.size:>5}  {s.name}" for s in self.sections)

    # ---- encoding ---------------------------------------------------------------------------
    def tensor(self, view: dict[str, Any], steps: list[int] | tuple[int, ...] = ()
               ) -> list[float]:
        """The numbers of `view` (a `Game.view(side)`), with `steps`, the action indices
        picked so far in the answer being built (see engine.frontends.adapters.actions)."""
        out = [0.0] * self.size
        sides = self.sides
        n = len(sides)
        d = view.get("decision")
        if d is not None:
            out[sides.index(d["side"])] = 1.0
            out[n] = 1.0 if d["side"] == view.get("side") else 0.0
            out[n + 1 + KINDS.index(d["kind"])] = 1.0
            out[n + 1 + len(KINDS)] = 1.0 if d.get("optional") else 0.0
            out[n + 2 + len(KINDS)] = 1.0 if d.get("window") is not None else 0.0
        at = self.sections[1].start
        result = view.get("result")
        if result is not None:
            out[at] = 1.0
            w = result.get("winner")
            out[at + 1 + (sides.index(w) if w in sides else n)] = 1.0
        at = self.sections[2].start
        picked = list(steps)
        each = d.get("each") if d is not None else None
        if each:
            picked += [self.space.index(v) for v in each["picked"]]
        for i in picked:
            out[at + i] += 1.0
        zones = view["zones"]
        for key, start, domain in self._zones:
            z = zones.get(key)
            if z is None:
                continue
            if isinstance(z, dict):  # hidden: its count, and the records shown to the side
                seen, count = z["revealed"], z["count"]
            else:
                seen, count = z, len(z)
            out[start] = float(count)
            out[start + 1] = float(len(seen))
            if domain:
                for rid in seen:
                    offset = domain.get(rid)
                    if offset is not None:
                        out[start + 2 + offset] = 1.0
        variables = view["vars"]
        for name, key, keyed, start, slot in self._vars:
            if name not in variables:
                continue
            table = variables[name]
            if keyed:
                if key not in table:
                    continue
                value = table[key]
            else:
                value = table
            _write(out, start, slot, value, name)
        fields = view.get("fields") or {}
        for rid, field, start, slot in self._fields:
            rec = fields.get(rid)
            if rec is not None and field in rec:
                _write(out, start, slot, rec[field], f"{rid}.{field}")
        return out

    # ---- layout -------------------------------------------------------------------------
    def _add(self, name: str, size: int) -> int:
        last = self.sections[-1] if self.sections else Section("", 0, 0)
        start = last.start + last.size
        self.sections.append(Section(name, start, size))
        return start

    def _slot(self, model: Any, static: dict[str, list[str]], texpr: Any,
              bounds: Any) -> _Slot:
        optional = isinstance(texpr, A.TOptional)
        if isinstance(texpr, A.TList):
            elem = texpr.elem
            values = _domain(model, static, elem.name) if isinstance(elem, A.TName) else None
            if values is None:
                return _Slot("set", 1)
            return _Slot("list", len(values) + 1, {v: i for i, v in enumerate(values)})
        name = texpr.name
        if name == "int":
            return _Slot("int", 1 + optional, none_at=1 if optional else None,
                         scale=_int_bounds(bounds))
        if name == "bool":
            return _Slot("bool", 1 + optional, none_at=1 if optional else None)
        values = _domain(model, static, name)
        if values is None:
            return _Slot("set", 1)
        return _Slot("onehot", len(values) + optional, {v: i for i, v in enumerate(values)},
                     none_at=len(values) if optional else None)


def _domain(model: Any, static: dict[str, list[str]], name: str) -> list[Any] | None:
    """The values of a type with finitely many known at load, or None."""
    if name == "side":
        return list(model.sides)
    if name in model.enums:
        values: list[Any] = model.enum_values(name)
        return values
    if name in static:
        return list(static[name])
    return None


def _type_expr(t: Any, optional: bool) -> Any:
    """A field's checker type as a type expression, as vars declare theirs."""
    if isinstance(t, tuple):
        inner = _type_expr(t[1], False)
        return A.TList(inner)
    return A.TOptional(t) if optional else A.TName(t)


def _int_bounds(bounds: Any) -> tuple[int, int] | None:
    """Whole-number bounds `in lo..hi` written as numbers, or None."""
    if bounds is None:
        return None
    lo, hi = (_const_int(b) for b in bounds)
    if lo is None or hi is None or hi <= lo:
        return None
    return lo, hi


def _const_int(e: Any) -> int | None:
    if isinstance(e, A.Int):
        return e.value
    if isinstance(e, A.Neg) and isinstance(e.expr, A.Int):
        return -e.expr.value
    return None


def _write(out: list[float], start: int, slot: _Slot, value: Any, what: str) -> None:
    if value is None:
        if slot.none_at is not None:
            out[start + slot.none_at] = 1.0
        return
    how = slot.how
    if how == "int":
        if slot.scale is not None:
            lo, hi = slot.scale
            out[start] = (value - lo) / (hi - lo)
        else:
            out[start] = float(value)
    elif how == "bool":
        out[start] = 1.0 if value else 0.0
    elif how == "set":
        out[start] = 1.0
    elif how == "onehot":
        assert slot.domain is not None  # one-hot and list slots are made with their values
        offset = slot.domain.get(value) if isinstance(value, (str, int)) else None
        if offset is None:
            raise ValueError(f"{what} holds {value!r}, which is not a value of its type")
        out[start + offset] = 1.0
    else:  # list: counts per value, then the length
        assert slot.domain is not None
        for item in value:
            offset = slot.domain.get(item) if isinstance(item, (str, int)) else None
            if offset is None:
                raise ValueError(f"{what} holds {item!r}, which is not a value of its type")
            out[start + offset] += 1.0
        out[start + slot.size - 1] = float(len(value))


