"""A whole balance run: the jobs of a pack (and of the pack compared with it) for each bot
pairing, their games played or taken from OUT/games.jsonl, then OUT/report.json, the plots
and OUT/index.html."""
from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.frontends.balance.collect import Job, run_jobs, spec_of
from engine.frontends.balance.page import Names, Section, Version, page
from engine.frontends.balance.report import Summary, summarize

PAGE_FILE = "index.html"
REPORT_FILE = "report.json"


def reason_label(template: str, cat: Any, fixed: dict[int, Any]) -> str:
    """An end reason's template for people, in the run's language: the placeholders its
    games all filled the same way filled in, the others shown as '…'."""
    from engine.i18n.translations import Count
    text = cat.message(template) or template

    def fill(m: re.Match[str]) -> str:
        if m.group(1) is None:
            return m.group(0)[0]  # a literal brace, doubled in a template
        at = int(m.group(1))
        if at not in fixed:
            return "…"
        value = fixed[at]
        shown = (Count(value, cat.lang) if isinstance(value, int) and not isinstance(value, bool)
                 else cat.value(value))
        try:
            return str(("{0" + (m.group(2) or "") + "}").format(shown))
        except (ValueError, IndexError, KeyError):
            return str(shown)

    return re.sub(r"\{\{|\}\}|\{(\d+)(:[^{}]*)?\}", fill, text)


def names_of(packs: list[Any], lang: str, summaries: list[Summary]) -> Names:
    """The words for the ids the summaries hold, from the first pack that names each."""
    from engine.i18n.translations import Catalog
    cats = [Catalog(p, lang) for p in packs]
    base = cats[0]
    cards = {c.card for s in summaries for c in s.cards}
    card_names = {}
    for card in cards:
        cat = next((c for c in cats if card in c.pack.records), base)
        card_names[card] = cat.name(card)
    named = Counter(card_names.values())
    for card, name in card_names.items():
        if named[name] > 1:  # two cards of one name (a second copy): told apart by their ids
            card_names[card] = f"{name} ({card})"
    reasons: dict[str, str] = {}
    reasons_fixed: dict[str, dict[int, Any]] = {}
    for s in summaries:
        for k in s.reasons:
            fixed = dict(s.reason_fixed.get(k, {}))
            if k in reasons:  # fixed in every pairing and version alike, or shown as '…'
                fixed = {i: v for i, v in fixed.items() if reasons_fixed[k].get(i) == v}
            reasons_fixed[k] = fixed
            reasons[k] = reason_label(k, next((c for c in cats if c.message(k)), base), fixed)
    sides = {side: base.value(side) for side in packs[0].sides}
    series = []
    for item in spec_of(packs[0]).track:
        if item.per_side:
            lines = [(f"{item.name}|{side}", sides[side]) for side in packs[0].sides]
        else:
            lines = [(item.name, base.term(item.name))]
        series.append((base.term(item.name), lines))
    return Names(sides, card_names, reasons, series)


def balance(pack: Any, pack_path: str, pairings: list[list[str]], games: int, seed: int,
            out_dir: Path, *, workers: int = 1, other: Any = None,
            other_path: str | None = None, lang: str = "en",
            progress: Callable[[Job, int], Any] | None = None, backend: str = "local",
            address: str | None = None) -> Path:
    """Play (or take from OUT/games.jsonl) `games` games of each pairing, of `pack` and, when
    given, of `other`; write the report, the plots and the page; the page's path."""
    from engine.frontends.balance import plots
    seeds = [seed + i for i in range(games)]
    packs = [pack] + ([other] if other is not None else [])
    paths = [pack_path] + ([other_path or ""] if other is not None else [])
    roles = ["pack", "compare"][:len(packs)]
    jobs = [Job(role, p, path, specs, seeds)
            for specs in pairings for role, p, path in zip(roles, packs, paths)]
    records = run_jobs(jobs, out_dir, workers, progress, backend=backend, address=address)
    sides = list(pack.sides)
    by_pairing = []
    for specs in pairings:
        bots = ",".join(specs)
        by_pairing.append((specs, [summarize(records[(role, bots)], sides, bots)
                                   for role in roles]))
    all_sums = [s for _, sums in by_pairing for s in sums]
    names = names_of(packs, lang, all_sums)
    versions = [_version(label, p, path) for label, p, path in zip("AB", packs, paths)]
    if len(packs) == 1:
        versions[0] = _version(pack.meta.get("name") or pack.id, pack, pack_path)
    sections = []
    for n, (specs, sums) in enumerate(by_pairing, 1):
        shown = list(zip([v.label for v in versions], sums))
        drawn: dict[str, str] = {}

        def draw(key: str, fn: Callable[..., None], *args: Any, n: int = n,
                 drawn: dict[str, str] = drawn) -> None:
            name = f"{key}_{n}.png"
            fn(out_dir / name, *args)
            drawn[key] = name

        over = any(s.turns for s in sums)
        draw("wins", plots.wins_plot, sides, names.sides, shown)
        draw("reasons", plots.reasons_plot, names.reasons, shown)
        if over:
            draw("length", plots.length_plot, shown)
        if any(s.first_wins.n for s in sums):
            draw("first", plots.first_plot, sides, names.sides, shown)
        if names.series and any(s.track for s in sums):
            draw("track", plots.track_plot, names.series, shown)
        if any(s.cards for s in sums):
            draw("cards", plots.cards_plot, sides, names.sides, names.cards, shown)
        seats = ", ".join(f"{names.sides[side]}: {kind}" for side, kind in zip(sides, specs))
        sections.append(Section(",".join(specs), seats, sums, drawn))
    title = f"Balance of {pack.meta.get('name') or pack.id}"
    if other is not None:
        title += f", compared with {other.meta.get('name') or other.id}"
    facts = (f"{games} games per pairing, seeds {seed} to {seed + games - 1} (engine play "
             f"PACK --seed S --bots SPEC plays one again)" if games else "no games")
    (out_dir / REPORT_FILE).write_text(json.dumps({
        "games": games, "seed": seed,
        "versions": [{"role": role, "label": v.label, "name": v.name, "dir": v.where,
                      "pack_hash": v.pack_hash} for role, v in zip(roles, versions)],
        "pairings": [{"bots": ",".join(specs),
                      **{role: s.to_json() for role, s in zip(roles, sums)}}
                     for specs, sums in by_pairing]}, indent=1, ensure_ascii=False) + "\n",
        encoding="utf-8")
    index = out_dir / PAGE_FILE
    index.write_text(page(title, versions, facts, sides, names, sections), encoding="utf-8")
    return index


def _version(label: str, pack: Any, path: str) -> Version:
    name = f"{pack.meta.get('name') or pack.id} {pack.meta.get('version') or ''}".strip()
    return Version(str(label), name, path, pack.hash)
