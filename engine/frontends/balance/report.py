"""The aggregates of a balance run: for one pack and one bot pairing, each side's win share
with its 95% Wilson interval, the end reasons, the game lengths, the first player's share,
each card's plays (how, and the share of the games each side won when it played it) and the
tracked values'
quartiles by turn; and which of two such summaries differ beyond chance."""
from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

import attrs

from engine.frontends.balance.records import GameRecord
from engine.frontends.simulate.shares import wilson


@attrs.frozen
class Share:
    """`k` of `n`, with its 95% Wilson interval."""

    k: int
    n: int

    @property
    def rate(self) -> float:
        return self.k / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.k, self.n)

    def to_json(self) -> dict[str, Any]:
        lower, upper = self.interval
        return {"k": self.k, "n": self.n, "rate": round(self.rate, 4),
                "lower": round(lower, 4), "upper": round(upper, 4)}


def apart(a: Share | None, b: Share | None) -> bool:
    """Do two shares differ beyond chance: both measured, and their intervals disjoint?"""
    if a is None or b is None or not a.n or not b.n:
        return False
    (al, au), (bl, bu) = a.interval, b.interval
    return au < bl or bu < al


@attrs.frozen
class CardRow:
    """One card: its plays, by use, and of each side that played it, the share of the games
    it won when it did (finished games; a card played twice by a side in a game counts once
    there). By side, because a card of a shared deck is often played by both sides of a
    game: one of them won, so a share over both would say little."""

    card: str
    plays: int
    uses: dict[str, int]
    won: dict[str, Share]


@attrs.frozen
class Quartiles:
    """A tracked series at one turn: of the `n` games that reached it."""

    turn: int
    n: int
    q1: float
    median: float
    q3: float


@attrs.frozen
class Summary:
    bots: str
    games: int
    wins: dict[str, Share]
    draws: Share
    unfinished: int
    errors: int
    reasons: dict[str, Share]  # the end reason's template -> the share of games ending so
    # the end reason's template -> its placeholders that all its games filled the same way
    reason_fixed: dict[str, dict[int, Any]]
    turns: list[int]
    decisions: list[int]
    first: dict[str, Share]  # a side -> the share of the games it played first that it won
    first_wins: Share  # the share of games the first player won, whoever it was
    cards: list[CardRow]  # the most played first
    track: dict[str, list[Quartiles]]  # "name" or "name|side" -> by turn
    uses: list[str]  # every use seen, the most common first

    def to_json(self) -> dict[str, Any]:
        return {
            "bots": self.bots, "games": self.games, "unfinished": self.unfinished,
            "errors": self.errors,
            "wins": {s: v.to_json() for s, v in self.wins.items()},
            "draws": self.draws.to_json(),
            "reasons": {r: v.to_json() for r, v in self.reasons.items()},
            "turns": _spread(self.turns), "decisions": _spread(self.decisions),
            "first": {s: v.to_json() for s, v in self.first.items()},
            "first_wins": self.first_wins.to_json(),
            "cards": [{"card": c.card, "plays": c.plays, "uses": c.uses,
                       "won": {side: v.to_json() for side, v in c.won.items()}}
                      for c in self.cards],
            "track": {k: [attrs.asdict(q) for q in v] for k, v in self.track.items()},
        }


def _spread(values: list[int]) -> dict[str, float]:
    if not values:
        return {"n": 0}
    q = quartiles(values)
    return {"n": len(values), "mean": round(statistics.fmean(values), 3), "q1": q[0],
            "median": q[1], "q3": q[2], "min": min(values), "max": max(values)}


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """The lower quartile, the median and the upper quartile (inclusive method)."""
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, q2, q3


def summarize(records: list[GameRecord], sides: list[str], bots: str) -> Summary:
    """The aggregates of one pairing's games."""
    n = len(records)
    over = [r for r in records if r.status == "over"]
    wins = Counter(r.winner for r in over)
    first_games: Counter[str] = Counter()
    first_won: Counter[str] = Counter()
    for r in over:
        if r.first is not None:
            first_games[r.first] += 1
            first_won[r.first] += r.winner == r.first
    cards = _cards(over, sides)
    return Summary(
        bots=bots, games=n, wins={s: Share(wins[s], n) for s in sides},
        draws=Share(wins[None], n),
        unfinished=sum(r.status == "unfinished" for r in records),
        errors=sum(r.status == "error" for r in records),
        reasons={reason: Share(k, n) for reason, k in Counter(
            r.reason or r.status for r in records).most_common()},
        reason_fixed=_fixed(records),
        turns=[r.turns for r in over], decisions=[r.decisions for r in over],
        first={s: Share(first_won[s], first_games[s]) for s in sides if first_games[s]},
        first_wins=Share(sum(first_won.values()), sum(first_games.values())),
        cards=cards, track=_track(records),
        uses=[u for u, _k in Counter(p.use for r in over for p in r.plays).most_common()])


def _fixed(records: list[GameRecord]) -> dict[str, dict[int, Any]]:
    """Of each end reason, the placeholders its games all filled with the same value (shown
    filled in: "Red gives up", where the games' sides differ "… gives up")."""
    args: dict[str, list[list[Any]]] = defaultdict(list)
    for r in records:
        args[r.reason or r.status].append(r.reason_args)
    out = {}
    for reason, seen in args.items():
        width = min(len(a) for a in seen)
        out[reason] = {i: seen[0][i] for i in range(width)
                       if all(a[i] == seen[0][i] for a in seen)}
    return out


def _cards(over: list[GameRecord], sides: list[str]) -> list[CardRow]:
    plays: Counter[str] = Counter()
    uses: dict[str, Counter[str]] = defaultdict(Counter)
    players: Counter[tuple[str, str]] = Counter()
    won: Counter[tuple[str, str]] = Counter()
    for r in over:
        played_by = set()
        for p in r.plays:
            plays[p.card] += 1
            uses[p.card][p.use] += 1
            if p.side is not None:
                played_by.add((p.card, p.side))
        for key in played_by:
            players[key] += 1
            won[key] += r.winner == key[1]
    return [CardRow(card, k, dict(uses[card].most_common()),
                    {s: Share(won[card, s], players[card, s]) for s in sides
                     if players[card, s]})
            for card, k in sorted(plays.items(), key=lambda kv: (-kv[1], kv[0]))]


def _track(records: list[GameRecord]) -> dict[str, list[Quartiles]]:
    by: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        for row in r.track:
            if row.turn is None:
                continue
            for name, v in row.values.items():
                by[name][row.turn].append(v)
    out: dict[str, list[Quartiles]] = {}
    for name, turns in by.items():
        out[name] = [Quartiles(t, len(vs), *quartiles(vs)) for t, vs in sorted(turns.items())]
    return out
