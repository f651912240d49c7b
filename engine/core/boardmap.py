"""The geometry of a pack's map for front-ends that draw it (`CompiledPack.board_map`): its
places with their names, positions and groups, the connections and their kinds, and the
off-map boxes, read from pack.yaml `board: map:` (engine.dsl.boardspec checked it when the
pack loaded). The same for every game of a pack: a front-end reads it once."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.dsl.boardspec import board_spec, is_point, link_ends

if TYPE_CHECKING:
    from engine.core.api import BoardMap, MapBox, MapGroup, MapLink, MapSpace
    from engine.core.packdata import PackData


def board_map(pack: PackData, lang: str | None = None) -> BoardMap | None:
    """`BoardMap` (engine.core.api) of `pack`, names in `lang`; None without `board: map:`."""
    spec = board_spec(pack.meta.get("board")).get("map")
    if not isinstance(spec, dict) or "places" not in spec:
        return None
    places = str(spec["places"])
    group, position = spec.get("group"), spec.get("position")
    spaces: list[MapSpace] = []
    group_ids: list[str] = []
    for rid in pack.by_type.get(places, []):
        rec = pack.records[rid]
        x, y = _point(rec.get(position) if position else None)
        g = rec.get(group) if group else None
        if isinstance(g, str) and g not in group_ids:
            group_ids.append(g)
        spaces.append({"id": rid, "name": pack.name_of(rid, lang), "x": x, "y": y,
                       "group": g if isinstance(g, str) else None})
    order = {g: i for i, g in enumerate(pack.by_type.get(_group_type(pack, places, group), []))}
    group_ids.sort(key=lambda g: order.get(g, len(order)))
    groups: list[MapGroup] = [{"id": g, "name": pack.name_of(g, lang)} for g in group_ids]
    return {"places": places, "spaces": spaces, "groups": groups,
            "links": _links(pack, spec.get("links"), places, lang),
            "boxes": _boxes(pack, spec.get("boxes"), position, lang)}


def _point(v: Any) -> tuple[int | None, int | None]:
    return (v[0], v[1]) if is_point(v) else (None, None)


def _group_type(pack: PackData, places: str, group: Any) -> str:
    info = pack.model.types.get(places)
    f = info.fields.get(group) if info is not None and isinstance(group, str) else None
    return f.type if f is not None and isinstance(f.type, str) else ""


def _links(pack: PackData, spec: Any, places: str, lang: str | None) -> list[MapLink]:
    if not isinstance(spec, dict) or "type" not in spec:
        return []
    tinfo = pack.model.types[spec["type"]]
    a, b = link_ends(tinfo, places)
    kind = spec.get("kind")
    out: list[MapLink] = []
    for rid in pack.by_type.get(spec["type"], []):
        rec = pack.records[rid]
        k = rec.get(kind) if kind else None
        k = k if isinstance(k, str) else None
        out.append({"id": rid, "a": rec[a], "b": rec[b], "kind": k,
                    "kind_name": pack.name_of(k, lang) if k is not None else None})
    return out


def _boxes(pack: PackData, spec: Any, position: Any, lang: str | None) -> list[MapBox]:
    out: list[MapBox] = []
    for item in spec if isinstance(spec, list) else []:
        name, at = (item["box"], item.get("at")) if isinstance(item, dict) else (item, None)
        if name in pack.records:
            x, y = _point(pack.records[name].get(position) if position else None)
            out.append({"id": name, "name": pack.name_of(name, lang), "kind": "place",
                        "x": x, "y": y})
        else:
            x, y = _point(at)
            out.append({"id": name, "name": pack.name_of(name, lang), "kind": "zone",
                        "x": x, "y": y})
    return out
