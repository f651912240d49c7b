"""Determinization: a copy of the game as one side might imagine it.

A side sees what `Game.view(side)` shows: the zones it may see, the cards revealed to it,
the vars visible to it. Everything else could be otherwise, and a bot that plays against a
person must not decide with it. `Game.determinized(side, rng)` is a copy of the game in
which everything hidden from `side` is drawn again, consistently with what `side` knows:

- every record in a zone `side` cannot see (another side's private hand, a hidden deck)
  and not revealed to `side` goes into a pool of its record type; the pool is shuffled and
  dealt back into the places those records held. With pack.yaml `deal_by: side` there is a
  pool per type and side: a record in a zone keyed by a side (`hand[s]`, `deck[s]`) is dealt
  only among the hidden zones of that side, for games where each side's cards stay its own
  (the other side's cards can never be in its deck), and one per type for the zones of no
  side. Every zone keeps its count of records of
  each type (a hand of 5 cards stays 5 cards, a leader never lands in a deck of cards),
  revealed records stay where they are, and a hidden ordered deck gets a new order.
- the draw is a relabelling of the hidden records: what the state says about a hidden record
  goes with the place it lay in. A var `side` cannot see (a private `favourite[s]: card?`,
  `use[s, c]`) that names a record of the pool names the record dealt to its place instead;
  the other sides' knowledge of that place (`revealed`) goes with it too.
- the dice: the copy's random numbers are seeded from `rng`, and dice a host loaded for the
  real game (`Game.load_dice`) are dropped, so the copy's future rolls are not the game's.
- the pack's hidden choices: a hidden var that names no pooled record (a private number, a
  secret target city) cannot be relabelled, and any value drawn blindly could contradict the
  rules that set it. A pack that has such vars names in pack.yaml a procedure that makes
  them again as its rules would (`determinize: imagine` for `procedure imagine(s: side)`,
  docs/language.md "Imagined copies"); it runs on the copy after the redeal, for the side
  doing the imagining, with the copy's dice, and keeps what that side knows (a var of its
  own, a target revealed to it). The checker makes sure it never asks a player.

What the draw cannot know: without such a procedure, a hidden var that names no pooled
record keeps its value; so does a record a side remembers from the log (a card it saw go
into a hidden deck), since the view, not the log, is what a side knows; and so does a record
a rule holds in a local while it waits (the card being played): rules that a bot's copy may
re-make read the var, not a local copy of it. The draw deals records by type and count,
not by rule, so a record may land where no rule could have put it. The copy has no log and
no undo.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.core.packdata import PackData


def redraw(world: Any, side: str, rng: random.Random) -> None:
    """Draw again, from `rng`, what `side` cannot see in `world`, a copy of the game without
    its log, undo, dice or chance (Game.determinized makes it), and let the pack's
    `determinize:` procedure finish the picture (module doc)."""
    _redeal(world, side, rng)
    _imagine(world, side)


def _imagine(world: Any, side: str) -> None:
    """Run the pack's `determinize:` procedure on the copy for `side` (module doc)."""
    name = world.pack.meta.get("determinize")
    if name is not None:
        world.rt.call_rule(world.pack.ns["PROCS"][name], side)


def _redeal(world: Any, side: str, rng: random.Random) -> None:
    rt, pack = world.rt, world.pack
    zones, revealed, loc = rt.z, rt.revealed, rt.loc
    visible = pack.visible_zones[side]
    kinds = _record_types(pack)
    by_side = pack.meta.get("deal_by") == "side"
    sides = pack.side_set
    # pool (type, and with deal_by: side the side whose zone holds it) -> the places
    # (zone key, index) of its hidden records, and those records
    places: dict[tuple[str, str], list[tuple[str, int]]] = {}
    pooled: dict[tuple[str, str], list[str]] = {}
    for key, items in zones.items():
        if not items or key in visible:
            continue
        owner = next((p for p in key.split("|")[1:] if p in sides), "") if by_side else ""
        for i, e in enumerate(items):
            seen = revealed.get(e)
            if seen is not None and side in seen:
                continue  # revealed to side: it knows this one is here
            pool = (kinds.get(e) or rt._made_type(e) or "", owner)
            places.setdefault(pool, []).append((key, i))
            pooled.setdefault(pool, []).append(e)
    relabel: dict[str, str] = {}
    for t, ents in pooled.items():
        if len(ents) < 2:
            continue
        drawn = list(ents)
        rng.shuffle(drawn)
        for (key, i), old, new in zip(places[t], ents, drawn):
            zones[key][i] = new
            loc[new] = key
            if old != new:
                relabel[old] = new
    if not relabel:
        return
    # what others knew of a place (revealed to them) goes with the record dealt there
    moved = {relabel[e]: revealed.pop(e) for e in list(revealed) if e in relabel}
    revealed.update(moved)
    if rt.f is not None:  # fields of records (var fields, records made in play)
        fields = {relabel[r]: rt.f[r] for r in relabel if r in rt.f}
        rt.f.update(fields)
    model_vars = pack.model.vars
    for name, table in rt.v.items():
        vis = model_vars[name].visibility
        if vis == "public":
            continue  # every key of it is seen
        # a private var's keys of `side` are seen (Pack.var_visible)
        hidden = [k for k in table if k.partition("|")[0] != side] if vis == "private" \
            else list(table)
        if not hidden:
            continue
        new_table: dict[str, Any] = {}
        for k in hidden:
            parts = k.split("|")
            nk = "|".join(relabel.get(p, p) for p in parts) if any(
                p in relabel for p in parts) else k
            new_table[nk] = _relabelled(table[k], relabel)
        table.update(new_table)


def _relabelled(value: Any, relabel: dict[str, str]) -> Any:
    if isinstance(value, str):
        return relabel.get(value, value)
    if isinstance(value, list):
        return [_relabelled(v, relabel) for v in value]
    return value


_TYPES: dict[int, tuple[Any, dict[str, str]]] = {}


def _record_types(pack: PackData) -> dict[str, str]:
    """Record id -> its type, for a pack's own records (kept per pack: it never changes)."""
    got = _TYPES.get(id(pack))
    if got is None or got[0] is not pack:
        got = _TYPES[id(pack)] = (pack, {rid: r.type for rid, r in pack.model.records.items()})
    return got[1]
