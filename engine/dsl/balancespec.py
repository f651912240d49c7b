"""pack.yaml `balance:`: what `engine balance` reads of a game besides its winner, and its
check at pack load (E347). Every section is optional:

    balance:
      turn: round_no                 # the int var that counts turns (default: board `turn:`)
      track: [morale, gold]          # vars or values read at the start of each turn and at
                                     # the end: no parameter, or one side parameter (a line
                                     # per side); int or bool
      first_player: opens            # an event with a side parameter: its first occurrence
                                     # says who played first (default: who decided first)
      cards:
        type: card                   # the record type whose plays are counted
        played: play_card            # the event that plays one: a parameter of that type
                                     # (the card) and one of type side (who plays it)
        uses:                        # how a played card was used: a name -> the `log`
          event: ["{s} plays {c} as an event"]   # sentences of the rules that say so (a
          ops: ["{s} plays {c} for its ops"]     # card named in one without its event
                                     # first is a play of its own: a card answering a window)

Nothing here knows any game: names are checked against the pack's declarations.
"""
from __future__ import annotations

from typing import Any

import attrs

from engine.dsl import types as T
from engine.dsl.errors import did_you_mean
from engine.dsl.speccheck import SpecCheck

BALANCE_KEYS = ("turn", "track", "first_player", "cards")
CARD_KEYS = ("type", "played", "uses")
TRACK_TYPES = ("int", "bool")


@attrs.frozen
class Tracked:
    """One name of `track:`: a var or a value, read once or once per side."""

    name: str
    kind: str  # "var" | "value"
    per_side: bool


@attrs.frozen
class CardSpec:
    """`cards:` as a run reads it: the sentences by the key the game logs them with."""

    type: str
    played: str | None
    card_arg: int | None  # the played event's parameter that is the card
    side_arg: int | None  # ... and the one that is the side playing it
    uses: dict[str, str]  # a sentence's logged key -> the use it says


@attrs.frozen
class BalanceSpec:
    """pack.yaml `balance:` checked and resolved against the pack's model."""

    turn: str | None
    track: tuple[Tracked, ...]
    first_player: str | None
    first_side_arg: int | None
    cards: CardSpec | None


def sentence_key(text: str) -> str:
    """A `log` sentence as the game logs it: its placeholders numbered in order ("{s} plays
    {c}" -> "{0} plays {1}"), as engine.dsl.parser.numbered_template makes it; text that is
    no template stays as it is."""
    from engine.dsl.parser import numbered_template, split_template
    try:
        parts = split_template(text)
    except ValueError:
        return text
    return numbered_template(parts)


def logged_sentences(model: Any) -> set[str]:
    """The keys of every `log` sentence of the pack's rules."""
    from engine.dsl import ast as A
    bodies: list[Any] = [t.decl.body for t in model.triggers]
    bodies += [p.body for p in model.procs.values()]
    bodies += [e.body for e in model.effects] + [w.body for w in model.windows.values()]
    out: set[str] = set()
    stack: list[Any] = [bodies]
    while stack:
        n = stack.pop()
        if isinstance(n, A.Log):
            out.add(sentence_key(n.message) if n.inline else n.message)
        if isinstance(n, (tuple, list)):
            stack.extend(n)
        elif attrs.has(type(n)):
            stack.extend(getattr(n, f.name) for f in attrs.fields(type(n)) if f.name != "at")
    return out


def _param_of(params: Any, type_name: str) -> int | None:
    return next((i for i, p in enumerate(params) if T.from_ast(p.type) == type_name), None)


def tracked(model: Any, name: Any) -> Tracked | None:
    """A `track:` name resolved: a var or value of int or bool type, with no parameter or one
    side parameter; None if it is neither."""
    for kind, table in (("var", model.vars), ("value", model.values)):
        decl = table.get(name) if isinstance(name, str) else None
        if decl is None:
            continue
        params = [T.from_ast(p.type) for p in decl.params]
        if T.from_ast(decl.type) in TRACK_TYPES and params in ([], ["side"]):
            return Tracked(name, kind, bool(params))
        return None
    return None


def balance_spec(model: Any, meta: dict[str, Any]) -> BalanceSpec:
    """The `balance:` of a pack that loaded (so checked: anything off is left out), with the
    board's turn var when it names none."""
    raw = meta.get("balance")
    raw = raw if isinstance(raw, dict) else {}
    turn = raw.get("turn")
    if turn is None:
        board = meta.get("board")
        spec = board.get("turn") if isinstance(board, dict) else None
        turn = spec.get("var") if isinstance(spec, dict) else None
    items = raw.get("track")
    track = tuple(t for t in (tracked(model, n) for n in items) if t is not None) \
        if isinstance(items, list) else ()
    first = raw.get("first_player")
    first_decl = model.events.get(first) if isinstance(first, str) else None
    cards = raw.get("cards")
    return BalanceSpec(turn if isinstance(turn, str) and turn in model.vars else None, track,
                       first if first_decl is not None else None,
                       _param_of(first_decl.params, "side") if first_decl else None,
                       _card_spec(model, cards) if isinstance(cards, dict) else None)


def _card_spec(model: Any, cards: dict[str, Any]) -> CardSpec | None:
    ctype = cards.get("type")
    if not isinstance(ctype, str) or ctype not in model.types:
        return None
    played = cards.get("played")
    decl = model.events.get(played) if isinstance(played, str) else None
    uses: dict[str, str] = {}
    raw_uses = cards.get("uses")
    for use, sentences in (raw_uses.items() if isinstance(raw_uses, dict) else ()):
        for text in sentences if isinstance(sentences, list) else [sentences]:
            if isinstance(text, str):
                uses.setdefault(sentence_key(text), str(use))
    return CardSpec(ctype, played if decl is not None else None,
                    _param_of(decl.params, ctype) if decl else None,
                    _param_of(decl.params, "side") if decl else None, uses)


class BalanceCheck(SpecCheck):
    """Checks `balance:` (a YMap from pack.yaml) against a pack model (how a problem is
    reported: SpecCheck)."""

    def check(self, node: Any, key: Any, balance: Any) -> None:
        if not isinstance(balance, dict):
            self.error("'balance' is a mapping of sections (" + ", ".join(BALANCE_KEYS) + ")",
                       node, key)
            return
        if not self._keys(balance, BALANCE_KEYS, "balance"):
            return
        if "turn" in balance:
            self._turn(balance)
        if "track" in balance:
            self._track(balance)
        if "first_player" in balance:
            self._event(balance, "first_player", "side")
        if "cards" in balance:
            self._cards(balance, balance["cards"])

    def _turn(self, balance: Any) -> None:
        name = balance["turn"]
        decl = self.model.vars.get(name) if isinstance(name, str) else None
        if decl is None:
            self.error(f"balance: {name!r} is not a var of the pack", balance, "turn", False,
                       did_you_mean(name, self.model.vars) if isinstance(name, str) else None)
        elif decl.params or T.from_ast(decl.type) != "int":
            self.error(f"balance: turn var '{name}' is no plain int (var {name}: int)",
                       balance, "turn")

    def _track(self, balance: Any) -> None:
        items = balance["track"]
        if not isinstance(items, list):
            self.error("balance: 'track' is a list of vars or values", balance, "track")
            return
        names = [*self.model.vars, *self.model.values]
        for i, name in enumerate(items):
            known = isinstance(name, str) and (name in self.model.vars
                                               or name in self.model.values)
            if not known:
                self.error(f"balance: {name!r} is neither a var nor a value of the pack",
                           items, i, False,
                           did_you_mean(name, names) if isinstance(name, str) else None)
            elif tracked(self.model, name) is None:
                self.error(f"balance: '{name}' cannot be tracked: it needs an int or bool "
                           "type and no parameter, or one side parameter", items, i)

    def _event(self, m: Any, key: str, *needs: str) -> Any:
        """m[key]: an event of the pack with a parameter of each type of `needs`; its
        declaration, or None after E347."""
        name = m[key]
        decl = self.model.events.get(name) if isinstance(name, str) else None
        if decl is None:
            self.error(f"balance: {name!r} is not an event of the pack", m, key, False,
                       did_you_mean(name, self.model.events) if isinstance(name, str)
                       else None)
            return None
        for tname in needs:
            if _param_of(decl.params, tname) is None:
                self.error(f"balance: event '{name}' has no parameter of type {tname}", m,
                           key)
                return None
        return decl

    def _cards(self, balance: Any, cards: Any) -> None:
        if not isinstance(cards, dict) or "type" not in cards:
            self.error("balance: 'cards' is {type: TYPE, played: EVENT, uses: {USE: "
                       "[SENTENCE, ...]}}", balance, "cards")
            return
        if not self._keys(cards, CARD_KEYS, "balance: cards"):
            return
        ctype = cards["type"]
        types = [t for t in self.model.types if t != "table"]
        if not isinstance(ctype, str) or ctype not in types:
            self.error(f"balance: unknown record type {ctype!r}", cards, "type", False,
                       did_you_mean(ctype, types) if isinstance(ctype, str) else None)
            return
        if "played" in cards:
            self._event(cards, "played", ctype, "side")
        if "uses" in cards:
            self._uses(cards, cards["uses"])

    def _uses(self, cards: Any, uses: Any) -> None:
        if not isinstance(uses, dict):
            self.error("balance: 'uses' maps a use to the `log` sentences that say it",
                       cards, "uses")
            return
        logged = logged_sentences(self.model)
        for use, sentences in uses.items():
            if not isinstance(sentences, list) or not sentences:
                self.error(f"balance: use '{use}' is a list of `log` sentences", uses, use)
                continue
            for i, text in enumerate(sentences):
                if not isinstance(text, str) or sentence_key(text) not in logged:
                    self.error(f"balance: {text!r} is no `log` sentence of the rules",
                               sentences, i)
