"""The PNG plots of a balance page, drawn with matplotlib (the `balance` extra) on its Agg
canvas: no window, no pyplot state, imported only when a page is drawn. Each plot takes one
or two versions of a summary (the pack, and the pack compared with it), as `(label,
Summary)`, and draws the second beside the first."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.frontends.balance.report import Share, Summary

Versions = list[tuple[str, Summary]]
TOP_CARDS = 20  # the cards a card plot shows: the most played


def missing() -> str | None:
    """Why plots cannot be drawn here (matplotlib is not installed), or None."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return "engine balance draws its plots with matplotlib: pip install 'engine-dsl[balance]'"
    return None


def _figure(width: float, height: float) -> Any:
    from matplotlib.figure import Figure
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(fig: Any, path: Path) -> None:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    FigureCanvasAgg(fig)  # the Agg canvas: a PNG without any display
    fig.savefig(path, format="png")


def _errors(shares: list[Share]) -> list[list[float]]:
    """The distances from each share down and up to its interval's ends, for error bars."""
    low = [max(0.0, s.rate - s.interval[0]) for s in shares]
    high = [max(0.0, s.interval[1] - s.rate) for s in shares]
    return [low, high]


def _paired_bars(ax: Any, names: list[str], versions: list[tuple[str, list[Share]]],
                 horizontal: bool = False) -> None:
    """Bars of shares with their intervals, one group per name, one bar per version."""
    count = len(versions)
    width = 0.8 / count
    for i, (label, shares) in enumerate(versions):
        at = [j - 0.4 + width * (i + 0.5) for j in range(len(names))]
        rates = [s.rate for s in shares]
        if horizontal:
            ax.barh(at, rates, height=width, xerr=_errors(shares), capsize=3, label=label,
                    color=f"C{i}", alpha=0.85)
        else:
            ax.bar(at, rates, width=width, yerr=_errors(shares), capsize=4, label=label,
                   color=f"C{i}", alpha=0.85)
    ticks = list(range(len(names)))
    if horizontal:
        ax.set_yticks(ticks, names)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter("{x:.0%}")
        ax.grid(axis="x", alpha=0.3)
    else:
        ax.set_xticks(ticks, names)
        ax.set_ylim(0, 1)
        ax.yaxis.set_major_formatter("{x:.0%}")
        ax.grid(axis="y", alpha=0.3)
    if count > 1:
        ax.legend()


def wins_plot(path: Path, sides: list[str], labels: dict[str, str],
              versions: Versions) -> None:
    """Each side's win share (and draws, where there are any) with its interval."""
    draws = any(s.draws.k for _, s in versions)
    names = [labels.get(s, s) for s in sides] + (["draws"] if draws else [])
    fig = _figure(6, 3.6)
    ax = fig.add_subplot()
    _paired_bars(ax, names, [(label, [s.wins[side] for side in sides]
                              + ([s.draws] if draws else [])) for label, s in versions])
    ax.set_ylabel("share of games won (95% interval)")
    _save(fig, path)


def reasons_plot(path: Path, labels: dict[str, str], versions: Versions) -> None:
    """The share of games that ended for each reason."""
    keys = list(dict.fromkeys(k for _, s in versions for k in s.reasons))
    fig = _figure(8, 1.2 + 0.45 * len(keys) * len(versions))
    ax = fig.add_subplot()
    _paired_bars(ax, [_short(labels.get(k, k)) for k in keys],
                 [(label, [s.reasons.get(k, Share(0, s.games)) for k in keys])
                  for label, s in versions], horizontal=True)
    ax.set_xlabel("share of games ending so (95% interval)")
    _save(fig, path)


def length_plot(path: Path, versions: Versions) -> None:
    """How many turns the finished games lasted."""
    fig = _figure(6, 3.6)
    ax = fig.add_subplot()
    values = [v for _, s in versions for v in s.turns]
    low, high = (min(values), max(values)) if values else (0, 1)
    bins = [b - 0.5 for b in range(low, high + 2)] if high - low < 40 else 30
    for i, (label, s) in enumerate(versions):
        ax.hist(s.turns, bins=bins, label=label, color=f"C{i}",
                alpha=0.85 if len(versions) == 1 else 0.5)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.grid(axis="y", alpha=0.3)
    if len(versions) > 1:
        ax.legend()
    _save(fig, path)


def first_plot(path: Path, sides: list[str], labels: dict[str, str],
               versions: Versions) -> None:
    """The first player's win share, by which side played first, and overall."""
    names = [f"{labels.get(s, s)} first" for s in sides] + ["either"]
    fig = _figure(6, 3.6)
    ax = fig.add_subplot()
    _paired_bars(ax, names, [(label, [s.first.get(side, Share(0, 0)) for side in sides]
                              + [s.first_wins]) for label, s in versions])
    ax.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    ax.set_ylabel("share the first player won (95% interval)")
    _save(fig, path)


def cards_plot(path: Path, sides: list[str], labels: dict[str, str], cards: dict[str, str],
               versions: Versions) -> None:
    """The most played cards: their plays per game by use (one panel per version), and of
    each side the share of the games it won when it played the card, beside (dashed) its
    share of all games."""
    top = list(dict.fromkeys(c.card for _, s in versions for c in s.cards[:TOP_CARDS]))
    top = top[:TOP_CARDS]
    uses = list(dict.fromkeys(u for _, s in versions for u in s.uses))
    fig = _figure(5 * (len(versions) + 1), 1.5 + 0.3 * len(top))
    axes = fig.subplots(1, len(versions) + 1, sharey=True)
    at = list(range(len(top)))
    for ax, (label, s) in zip(axes, versions):
        rows = {c.card: c for c in s.cards}
        left = [0.0] * len(top)
        for j, use in enumerate(uses):
            per_game = [rows[c].uses.get(use, 0) / max(1, s.games) if c in rows else 0.0
                        for c in top]
            ax.barh(at, per_game, left=left, label=use, color=f"C{j + 2}")
            left = [a + b for a, b in zip(left, per_game)]
        ax.set_title(f"plays per game by use: {label}" if len(versions) > 1
                     else "plays per game by use")
        ax.grid(axis="x", alpha=0.3)
        ax.legend(loc="lower right")
    won = axes[-1]
    marks = "os^v"
    count = len(sides) * len(versions)
    for i, side in enumerate(sides):
        for v, (label, s) in enumerate(versions):
            rows = {c.card: c for c in s.cards}
            shares = [rows[c].won.get(side, Share(0, 0)) if c in rows else Share(0, 0)
                      for c in top]
            step = i * len(versions) + v
            offset = [a + (step - (count - 1) / 2) * 0.6 / count for a in at]
            shown = labels.get(side, side) + (f" ({label})" if len(versions) > 1 else "")
            won.errorbar([x.rate for x in shares], offset, xerr=_errors(shares),
                         fmt=marks[v % len(marks)], capsize=2, color=f"C{i}", label=shown)
        won.axvline(versions[0][1].wins[side].rate, color=f"C{i}", linewidth=0.8,
                    linestyle="--")
    won.set_xlim(0, 1)
    won.xaxis.set_major_formatter("{x:.0%}")
    won.set_title("won, having played it (95% interval)")
    won.grid(axis="x", alpha=0.3)
    won.legend(loc="lower right")
    axes[0].set_yticks(at, [cards.get(c, c) for c in top])
    axes[0].invert_yaxis()
    _save(fig, path)


def track_plot(path: Path, series: list[tuple[str, list[tuple[str, str]]]],
               versions: Versions) -> None:
    """Each tracked var or value by turn: the median of the games that reached the turn,
    and a band from the lower to the upper quartile. `series`: a panel per name, with its
    title and its lines (a series key and its label: one per side, or one)."""
    from matplotlib.ticker import MaxNLocator
    fig = _figure(6 * min(2, len(series)), 3.6 * ((len(series) + 1) // 2))
    axes = fig.subplots((len(series) + 1) // 2, min(2, len(series)), squeeze=False)
    flat = [ax for row in axes for ax in row]
    for ax, (title, lines) in zip(flat, series):
        for j, (key, line_label) in enumerate(lines):
            for i, (label, s) in enumerate(versions):
                points = s.track.get(key, [])
                if not points:
                    continue
                turns = [p.turn for p in points]
                shown = line_label if len(versions) == 1 else f"{line_label} ({label})"
                style = "-" if i == 0 else "--"
                ax.plot(turns, [p.median for p in points], style, color=f"C{j}",
                        label=shown)
                ax.fill_between(turns, [p.q1 for p in points], [p.q3 for p in points],
                                color=f"C{j}", alpha=0.2 if i == 0 else 0.1)
        ax.set_title(title)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("turn (at its start)")
        ax.grid(alpha=0.3)
        ax.legend()
    for ax in flat[len(series):]:
        ax.set_visible(False)
    _save(fig, path)


def _short(text: str, width: int = 60) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"
