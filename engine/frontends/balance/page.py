"""The HTML page of a balance run (OUT/index.html): per bot pairing, tables of the shares with
their intervals beside the plots (plots.py), and, with a second version of the pack, the two
side by side, where they differ beyond chance highlighted. Every text comes to the page
through `esc` (html.escape): names and sentences are the pack's, and a pack may hold
anything."""
from __future__ import annotations

import html
from typing import Any

import attrs

from engine.frontends.balance.report import Share, Summary, apart, quartiles

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 80em; padding: 0 1em;
       color: #222; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; margin-top: 2.5em; }
table { border-collapse: collapse; margin: 0.8em 0; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.diff { background: #fff3b0; font-weight: bold; }
img { max-width: 100%; display: block; margin: 0.6em 0; }
.facts { color: #555; } .note { color: #555; font-size: 0.9em; }
"""


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


@attrs.frozen
class Version:
    """One version of the pack on the page: its short label in tables and plots, and what
    says which it is."""

    label: str
    name: str
    where: str
    pack_hash: str


@attrs.frozen
class Names:
    """The words the page shows for the ids in the records (in the run's language)."""

    sides: dict[str, str]
    cards: dict[str, str]
    reasons: dict[str, str]
    series: list[tuple[str, list[tuple[str, str]]]]  # a tracked name's title and its lines


@attrs.frozen
class Section:
    """One bot pairing: its summary per version and the plots drawn of it (file names)."""

    bots: str
    seats: str  # who sits where, for people
    summaries: list[Summary]
    plots: dict[str, str]


def share_text(s: Share) -> str:
    lower, upper = s.interval
    return f"{s.rate:.1%} ({lower:.1%}–{upper:.1%})"


def page(title: str, versions: list[Version], facts: str, sides: list[str], names: Names,
         sections: list[Section]) -> str:
    """The whole page, as text."""
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>",
           f"<h1>{esc(title)}</h1>", f'<p class="facts">{esc(facts)}</p>']
    if len(versions) > 1:
        out.append("<ul>")
        out += [f"<li><b>{esc(v.label)}</b>: {esc(v.name)}, read from {esc(v.where)} "
                f"(pack hash {esc(v.pack_hash)})</li>" for v in versions]
        out.append("</ul><p class=\"note\">Highlighted: where the two versions differ beyond "
                   "chance (their 95% intervals do not overlap).</p>")
    for section in sections:
        out += _section(section, versions, sides, names)
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def _img(section: Section, key: str, alt: str) -> list[str]:
    name = section.plots.get(key)
    return [f'<img src="{esc(name)}" alt="{esc(alt)}">'] if name else []


def _head(cells: list[str]) -> str:
    return "<tr>" + "".join(f"<th>{esc(c)}</th>" for c in cells) + "</tr>"


def _share_cells(shares: list[Share | None]) -> str:
    """A cell per version; highlighted where the last two differ beyond chance."""
    diff = len(shares) > 1 and apart(shares[0], shares[-1])
    cls = "num diff" if diff else "num"
    return "".join(f'<td class="{cls}">{esc(share_text(s)) if s is not None else "–"}</td>'
                   for s in shares)


def _section(section: Section, versions: list[Version], sides: list[str],
             names: Names) -> list[str]:
    labels = [v.label for v in versions]
    sums = section.summaries
    out = [f"<h2>Bots {esc(section.bots)}</h2>", f'<p class="facts">{esc(section.seats)}; '
           + esc(", ".join(f"{v.label}: {s.games} games, {s.unfinished} unfinished, "
                           f"{s.errors} failed" if len(versions) > 1 else
                           f"{s.games} games, {s.unfinished} unfinished, {s.errors} failed"
                           for v, s in zip(versions, sums))) + "</p>"]
    # wins
    out += ["<h3>Wins</h3>", "<table>", _head(["side", *labels])]
    for side in sides:
        out.append(f"<tr><td>{esc(names.sides.get(side, side))}</td>"
                   + _share_cells([s.wins[side] for s in sums]) + "</tr>")
    if any(s.draws.k for s in sums):
        out.append("<tr><td>draws</td>" + _share_cells([s.draws for s in sums]) + "</tr>")
    out.append("</table>")
    out += _img(section, "wins", "win shares")
    # end reasons
    keys = list(dict.fromkeys(k for s in sums for k in s.reasons))
    out += ["<h3>End reasons</h3>", "<table>", _head(["reason", *labels])]
    for key in keys:
        out.append(f"<tr><td>{esc(names.reasons.get(key, key))}</td>"
                   + _share_cells([s.reasons.get(key, Share(0, s.games)) for s in sums])
                   + "</tr>")
    out.append("</table>")
    out += _img(section, "reasons", "end reasons")
    # game length
    out += ["<h3>Game length</h3>", "<table>",
            _head(["finished games", *labels])]
    for what, pick in (("turns", "turns"), ("decisions", "decisions")):
        cells = []
        for s in sums:
            values = getattr(s, pick)
            if values:
                q1, med, q3 = quartiles(values)
                cells.append(f"median {med:g} (quartiles {q1:g}–{q3:g}), "
                             f"{min(values)}–{max(values)}")
            else:
                cells.append("–")
        out.append(f"<tr><td>{esc(what)}</td>"
                   + "".join(f'<td class="num">{esc(c)}</td>' for c in cells) + "</tr>")
    out.append("</table>")
    out += _img(section, "length", "game length")
    # the first player
    out += ["<h3>First player</h3>",
            '<p class="note">The share of the games the side that played first won.</p>',
            "<table>", _head(["first", *labels])]
    for side in sides:
        out.append(f"<tr><td>{esc(names.sides.get(side, side))}</td>"
                   + _share_cells([s.first.get(side) for s in sums]) + "</tr>")
    out.append("<tr><td>either</td>" + _share_cells([s.first_wins for s in sums]) + "</tr>")
    out.append("</table>")
    out += _img(section, "first", "first player")
    # tracked values
    if "track" in section.plots:
        out += ["<h3>By turn</h3>", '<p class="note">At the start of each turn: the median '
                "of the games that reached it, and the band from the lower to the upper "
                "quartile.</p>"]
        out += _img(section, "track", "tracked values by turn")
    # cards
    if any(s.cards for s in sums):
        out += _cards(section, labels, sides, names)
    return out


def _cards(section: Section, labels: list[str], sides: list[str], names: Names) -> list[str]:
    sums = section.summaries
    out = ["<h3>Cards</h3>", '<p class="note">Plays in all games, by use; and of each side, '
           "the share of the games it won when it played the card (each game once), to set "
           "beside its share of all games (Wins, above).</p>"]
    out += _img(section, "cards", "cards played")
    rows = [{c.card: c for c in s.cards} for s in sums]
    order = list(dict.fromkeys(c.card for s in sums for c in s.cards))
    head = ["card"]
    for label in labels:
        suffix = f" ({label})" if len(labels) > 1 else ""
        head += [f"plays{suffix}", f"by use{suffix}"]
    for side in sides:
        head += [f"{names.sides.get(side, side)} won, having played it"
                 + (f" ({label})" if len(labels) > 1 else "") for label in labels]
    out += ["<table>", _head(head)]
    for card in order:
        cells = []
        for r in rows:
            c = r.get(card)
            cells.append(f'<td class="num">{c.plays if c else 0}</td>')
            uses = ", ".join(f"{u} {k}" for u, k in c.uses.items()) if c else ""
            cells.append(f"<td>{esc(uses)}</td>")
        for side in sides:
            cells.append(_share_cells([r[card].won.get(side) if card in r else None
                                       for r in rows]))
        out.append(f"<tr><td>{esc(names.cards.get(card, card))}</td>{''.join(cells)}</tr>")
    out.append("</table>")
    return out
