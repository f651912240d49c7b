"""What one game of a balance run yields, as plain data (one JSON line of OUT/games.jsonl),
and how the parts read from its log are found: the end reason's template, who played
first, and each card played with how it was used (pack.yaml `balance:`,
engine.dsl.balancespec)."""
from __future__ import annotations

import json
from typing import Any

import attrs
import cattrs

# a play whose use no sentence of `cards: uses:` told
UNKNOWN_USE = "?"


@attrs.frozen
class Play:
    """A card played: by which side (None when the log does not say) and how: the uses
    its sentences said, joined by '+' in the order `uses:` declares them ("event+ops")."""

    card: str
    side: str | None
    use: str


@attrs.frozen
class TurnValues:
    """The tracked vars and values at the start of a turn (`turn` None: at the end of the
    game), by series: "name" or "name|side"."""

    turn: int | None
    values: dict[str, float]


@attrs.frozen
class GameRecord:
    """One game: which pack (by hash), bots and seed it was (the key a run resumes by), how
    it ended and what happened in it. `status`: over, unfinished or error; `reason`: the
    template of the rules' end reason (its `{0}`s unfilled, so that games ended the same
    way group together), else the engine's reason or the status; `reason_args`: what
    filled them in."""

    pack_hash: str
    bots: str
    seed: int
    status: str
    winner: str | None = None
    reason: str | None = None
    reason_args: list[Any] = attrs.Factory(list)
    decisions: int = 0
    turns: int = 0
    first: str | None = None
    plays: list[Play] = attrs.Factory(list)
    track: list[TurnValues] = attrs.Factory(list)
    error: str | None = None

    @property
    def key(self) -> tuple[str, str, int]:
        return self.pack_hash, self.bots, self.seed

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = attrs.asdict(self)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        return cattrs.structure(data, cls)


def read_lines(text: str) -> list[GameRecord]:
    """The records of a games.jsonl; a line cut short (a run stopped while writing it) or
    not a record is left out: its game is played again."""
    out = []
    for line in text.splitlines():
        try:
            out.append(GameRecord.from_json(json.loads(line)))
        except (ValueError, TypeError, KeyError, cattrs.BaseValidationError):
            continue
    return out


def end_reason(log: list[dict[str, Any]], status: str,
               reason: str | None) -> tuple[str, list[Any]]:
    """The template of the end entry's reason and its arguments; else the result's reason
    or the status."""
    if status != "over":
        return status, []
    end = next((e for e in reversed(log) if e.get("t") == "end"), None)
    if end is not None and "m" in end:
        return str(end["m"]), list(end.get("a", []))
    return reason or status, []


def first_player(log: list[dict[str, Any]], event: str | None,
                 side_arg: int | None) -> str | None:
    """The side argument of the first `event` in the log; without one, the side of the first
    decision taken."""
    for e in log:
        if event is not None and side_arg is not None:
            if e.get("t") == "event" and e.get("n") == event:
                return str(e["a"][side_arg])
        elif e.get("t") == "choice":
            return str(e["side"])
    return None


def card_plays(log: list[dict[str, Any]], spec: Any, cards: set[str], sides: set[str],
               turn_var: str | None = None) -> list[Play]:
    """Each card played, in order: one play per `spec.played` event, its use said by the
    `uses` sentences that name the card after it in the same turn; a sentence naming a card
    not played so (a card answering a window) is a play of its own."""
    plays: list[tuple[str, str | None, list[str]]] = []
    open_play: dict[str, int] = {}  # card -> its latest play, which its sentences tell of
    for e in log:
        kind = e.get("t")
        if kind == "set" and e.get("n") == turn_var:
            open_play.clear()  # a card seen again in a later turn is played again
        elif kind == "event" and e.get("n") == spec.played and spec.card_arg is not None:
            card = e["a"][spec.card_arg]
            side = e["a"][spec.side_arg] if spec.side_arg is not None else None
            open_play[card] = len(plays)
            plays.append((card, side, []))
        elif kind == "say" and e.get("m") in spec.uses:
            use = spec.uses[e["m"]]
            args = e.get("a", [])
            card = next((a for a in args if isinstance(a, str) and a in cards), None)
            if card is None:
                continue
            at = open_play.get(card)
            if at is None:
                side = next((a for a in args if isinstance(a, str) and a in sides), None)
                at = open_play[card] = len(plays)
                plays.append((card, side, []))
            if use not in plays[at][2]:
                plays[at][2].append(use)
    order = {use: i for i, use in enumerate(dict.fromkeys(spec.uses.values()))}
    return [Play(card, side, "+".join(sorted(uses, key=order.__getitem__)) or UNKNOWN_USE)
            for card, side, uses in plays]
