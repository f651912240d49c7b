"""Hidden information reaches nobody who may not know it: not through a view, not through the
log rendered for people, not through the message of a refused action.

Random games are played on tests/packs/leakgame (hidden hands and deck, cards whose own
triggers fire while they are held, reveals to one side, log lines naming cards, decisions
over hidden cards) and on every playable pack. At every decision, for every side and the
spectator (None), `Knowledge` works out from the full log and state which record ids that
viewer may not know: ids that have lain in a zone it cannot see, minus those it has
legitimately seen (in a zone it can see, revealed to it, chosen by it). Then `leaks` searches
what the viewer gets, as text, for those ids as whole tokens and for the generated function
names of their own triggers and effects (a rule written on a card names the card):

- `game.view(viewer)`: every string in it (vars, zones, decision, legal actions, log), but the
  structure every side sees from the start (dict keys, zone keys, var keys);
- the view rendered for a person (`engine.frontends.terminal`: board, log with rule traces,
  decision);
- the messages of IllegalAction for wrong actions: addressed to a side
  (`apply(wrong, side=S, decision=id)`, `validate(wrong, side=S)`), the decider may be told
  its options, any other side only how many there are; without an addressee
  (`apply(wrong)`), nobody is told them. What the caller itself sent is not a leak.

Holes closed (issue 8): 6, a fired trigger's log entry names a card in a hidden hand; 7, the
message of a refused action lists the decider's hidden options.
"""
from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from functools import cache, partial
from pathlib import Path
from typing import Any

import pytest
from packs_under_test import LEAKGAME, pack_dirs

from engine.core.errors import IllegalAction
from engine.core.game import Game
from engine.core.loader import load_pack
from engine.frontends.terminal import action_label, describe_decision, render_log, render_view
from engine.i18n.translations import Catalog

PACKS = [LEAKGAME, *(p for p in pack_dirs() if p != LEAKGAME)]
IDS = [p.name for p in PACKS]
GAMES = 4            # random games per pack and test (seeds 0..n-1: reproducible) ...
PROBED_GAMES = 3     # ... and for the tests that send wrong actions at every decision
MAX_DECISIONS = 150  # a game is checked up to here (views grow with the log)
TOKEN = re.compile(r"[A-Za-z0-9_]+(?:#[0-9]+)?")  # ids of records made in play: unit#3
Viewer = str | None  # a side, or None: a spectator (or an error without an addressee)


@cache
def pack(path: Path) -> Any:
    return load_pack(path)


def random_game(p: Any, seed: int, limit: int | None = MAX_DECISIONS) -> Iterator[Game]:
    """The game at every decision of a random game with `seed`, and at its end (or at its
    `limit`-th decision; None: none, the whole game, as bench/leak_soak.py plays it)."""
    game = p.new_game(seed, undo=False)
    rnd = random.Random(seed ^ 0x1EA4)
    while not game.over and (limit is None or len(game.actions) < limit):
        yield game
        game.apply(game.random_action(rnd))
    yield game


def seeds(path: Path, games: int) -> range:
    """The seeds played on `path`: twice as many on the small leakgame, made for these tests."""
    return range(2 * games if path == LEAKGAME else games)


def viewers(p: Any) -> list[Viewer]:
    return [*p.sides, None]


# ---- what each viewer may know --------------------------------------------------------------

class Knowledge:
    """Which record ids each viewer may not know, worked out from the full log and state,
    independently of engine.core.views (which is under test).

    An id is secret to a viewer once it has lain in a zone the viewer cannot see, unless the
    viewer has legitimately seen it: it was or is in a zone the viewer can see (a move from
    or into one), it was revealed to the viewer (or to everyone), or the viewer chose it (a
    decision's options are shown to the decider). Call `update` at every step."""

    def __init__(self, game: Game):
        self.game = game
        self.viewers = viewers(game.pack)
        self.seen: dict[Viewer, set[str]] = {v: set() for v in self.viewers}
        self.hidden: dict[Viewer, set[str]] = {v: set() for v in self.viewers}
        self.read = 0
        self.update()

    def update(self) -> None:
        for entry in self.game.log[self.read:]:
            self._read(entry)
        self.read = len(self.game.log)
        self._read_state()

    def _read(self, e: dict[str, Any]) -> None:
        p = self.game.pack
        if e["t"] == "move":
            for v in self.viewers:
                if p.can_see_zone(v, e["to"]) or (e["from"] and p.can_see_zone(v, e["from"])):
                    self.seen[v].add(e["e"])
                if not p.can_see_zone(v, e["to"]):
                    self.hidden[v].add(e["e"])
        elif e["t"] == "reveal":
            for v in self.viewers:
                if e["to"] is None or e["to"] == v:
                    self.seen[v].add(e["e"])
        elif e["t"] == "create" and e["to"] is not None:  # a record made in play
            for v in self.viewers:
                (self.seen if p.can_see_zone(v, e["to"]) else self.hidden)[v].add(e["e"])
        elif e["t"] == "choice":
            self.seen[e["side"]].update(ids_in(e.get("v")))

    def _read_state(self) -> None:
        g, p = self.game, self.game.pack
        for key, items in g.state["z"].items():
            for v in self.viewers:
                (self.seen if p.can_see_zone(v, key) else self.hidden)[v].update(items)
        for ent, sides in g.state["revealed"].items():
            for s in sides:
                self.seen[s].add(ent)

    def secret(self, viewer: Viewer) -> set[str]:
        return self.hidden[viewer] - self.seen[viewer]


def ids_in(value: Any) -> set[str]:
    """The strings in a logged value (a choice may be one option, a list, or a bool)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, list):
        return {x for x in value if isinstance(x, str)}
    return set()


# ---- searching what a viewer gets ------------------------------------------------------------

@cache
def record_triggers(p: Any) -> dict[str, str]:
    """Generated function name of a trigger written on a record -> that record."""
    return {tr.fn: tr.record for tr in p.model.triggers if tr.record}


@cache
def rule_records(p: Any) -> dict[str, str]:
    """Generated function name -> the record it was written on (its `triggers` and `effect`
    fields): a trace of such a rule names the record even if the name does not spell it."""
    return {**record_triggers(p), **{eff.fn: eff.record for eff in p.model.effects}}


@cache
def vocabulary(p: Any) -> frozenset[str]:
    """Names declared by the rules (vars, zones, events, types, ...): a record id spelled like
    one of them is not searched for, since the name itself appears in every view."""
    m = p.model
    return frozenset({*m.vars, *m.zones, *m.events, *m.types, *m.procs, *m.values,
                      *m.graphs, *p.sides, p.id})


def tokens(text: str) -> set[str]:
    return set(TOKEN.findall(text))


def found(p: Any, toks: set[str] | frozenset[str], secret: set[str]) -> set[str]:
    """The secret ids `toks` show: as whole tokens, or through the generated name of a rule
    written on them."""
    hits = {t for t in toks & secret if t not in vocabulary(p)}
    hits |= {f"{rec} (through rule {fn})" for fn, rec in rule_records(p).items()
             if fn in toks and rec in secret}
    return hits


def leaks(p: Any, text: str, secret: set[str], sent: Any = None) -> set[str]:
    """The secret ids `text` shows; tokens of `sent` (what the caller itself sent) do not
    count."""
    return found(p, tokens(text) - tokens(json.dumps(sent, default=repr)), secret)


def view_leaks(p: Any, view: dict[str, Any], secret: set[str]) -> tuple[set[str], set[str]]:
    """The secret ids `view` shows as data, and rendered for a person."""
    rest = {**view, "log": []}
    data, text = tokens(data_text(p, rest)), tokens(rendered(p, rest))
    for e in view["log"]:
        d, t = entry_tokens(p, e)
        data |= d
        text |= t
    return found(p, data, secret), found(p, text, secret)


_ENTRY_TOKENS: dict[tuple[str, str], tuple[frozenset[str], frozenset[str]]] = {}


def entry_tokens(p: Any, e: dict[str, Any]) -> tuple[frozenset[str], frozenset[str]]:
    """The tokens of a log entry as data, and as rendered with rule traces. Entries repeat
    from one decision to the next: each is read once."""
    key = (p.hash, repr(e))
    got = _ENTRY_TOKENS.get(key)
    if got is None:
        lines = render_log([e], marked_catalog(p), trace=True)
        got = _ENTRY_TOKENS[key] = (frozenset(tokens(data_text(p, e))),
                                    frozenset(tokens("\n".join(lines))))
    return got


def data_text(p: Any, data: Any) -> str:
    """Every string in JSON-ready data, one a line, but the structure every side sees from
    the start whatever happens: dict keys (field names, var keys such as
    `use|rome|card_05`), zone keys and the var keys of `set` entries."""
    zone_keys = set(p.zone_keys)
    return "\n".join(x for x in strings(data) if x not in zone_keys)


def strings(data: Any) -> Iterator[str]:
    """The string values in JSON-ready data, but dict keys, the var key of a `set` entry
    and the texts written in the rules (a `log` line's text, a decision's prompt), which
    are the same whatever the hidden cards are."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for k, v in data.items():
            if (k, data.get("t")) not in (("k", "set"), ("m", "say")) and k != "prompt":
                yield from strings(v)
    elif isinstance(data, list):
        for v in data:
            yield from strings(v)


class MarkedNames(Catalog):
    """The English catalog with every record named by its own id, marked off (⟨id⟩), so
    that a name in rendered text is found by the id search and no two records share one.
    Zone and var keys (structure, see `data_text`) are rendered without their records, and
    `log` lines without their text."""

    def name(self, rid: str) -> str:
        return f"⟨{rid}⟩"

    def render(self, entry: dict[str, Any]) -> str:
        if entry.get("t") == "say":  # a `log` line's own text is written in the rules
            entry = {**entry, "m": "said"}
        return super().render(entry)

    def zone(self, key: str | None) -> str:
        return super().zone(None if key is None else self._unrecorded(key))

    def var(self, name: str, key: str) -> str:
        return super().var(name, self._unrecorded(key))

    def _unrecorded(self, key: str) -> str:
        return "|".join("·" if part in self.pack.records else part for part in key.split("|"))


@cache
def marked_catalog(p: Any) -> MarkedNames:
    return MarkedNames(p, "en")


def rendered(p: Any, view: dict[str, Any]) -> str:
    """What a person at a terminal is shown of `view` (engine.frontends.terminal): the board, the
    log with rule traces, the decision and (to the decider) its actions. The vars are left out
    of the board: their keys are structure, their values are searched as data."""
    cat = marked_catalog(p)
    out = [render_view({**view, "vars": {}}, cat, recent=10**6),
           *render_log(view["log"], cat, trace=True)]
    d = view["decision"]
    if d is not None:
        out.append(describe_decision({**d, "prompt": None}, cat))
        out.extend(action_label(a, cat, d["kind"]) for a in view["legal_actions"][:200])
    return "\n".join(out)


def fingerprint(game: Game) -> tuple[Any, ...]:
    """Enough of the game to see that an action was applied (a full save at every decision
    would cost more than the rest of the test)."""
    s = game.state
    return len(game.actions), len(s["log"]), s["decisions"], repr(s["decision"]), s["rng"]


def refusal(attempt: Callable[[], Any], what: str) -> str:
    """The message of the IllegalAction `attempt` must raise."""
    try:
        attempt()
    except IllegalAction as err:
        return str(err)
    pytest.fail(f"{what} was not refused")


# ---- wrong actions -----------------------------------------------------------------------------

def shaped(kind: str, rid: str) -> Any:
    """A guessed record id as an answer to a decision of `kind`."""
    return rid if kind in ("one", "ask") else [rid]


def wrong_actions(game: Game, secret: set[str], rnd: random.Random,
                  insider: bool = False) -> list[Any]:
    """Actions the current decision refuses, as any side might send them: a guessed secret
    id that is no option, a wrong type, a list where one is wanted (or the other way), a
    list that is too long. With `insider`, also the decider's own slips, made of its
    options: a list for one option, an option twice, too many, an order that leaves one out."""
    d = game.decision
    out: list[Any] = [{"x": 1}, 12345, "__no_such_option__", ["__no_such_option__"]]
    guesses = sorted(secret - {o for o in d.options if isinstance(o, str)})
    if guesses:
        out.append(shaped(d.kind, rnd.choice(guesses)))
    if d.kind in ("many", "order"):
        out.append(["__no_such_option__"] * (len(d.options) + 2))
    if insider and d.options:
        out.append(insiders_slip(d))
    return out


def insiders_slip(d: Any) -> list[Any]:
    """A wrong answer the decider might send, made of its own options."""
    if d.kind == "one":
        return list(d.options[:1])
    if d.kind == "order":
        return list(d.options[:-1])
    if d.max < len(d.options):
        return list(d.options[:d.max + 1])
    return [d.options[0]] * (d.options.count(d.options[0]) + 1)


def stale_id(current: Any, previous: Any) -> Any:
    """The id of an earlier decision, or None when there is none that differs."""
    return previous if previous is not None and previous != current else None


# ---- the tests ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path", PACKS, ids=IDS)
def test_views_and_rendered_logs_do_not_leak(path: Path) -> None:
    """Hole 6: a fired trigger's log entry (`{"t": "trigger", "f": <rule>}`) names the rule,
    and a rule written on a card names the card: every view showed which hidden card a
    side holds while the card's own trigger fired. No view, and no text rendered from one,
    may show a secret id."""
    p = pack(path)
    for seed in seeds(path, GAMES):
        know = None
        for game in random_game(p, seed):
            know = know or Knowledge(game)
            know.update()
            for v in know.viewers:
                data, text = view_leaks(p, game.view(v), know.secret(v))
                where = f"seed {seed}, after {len(game.actions)} actions"
                assert not data, f"the view of {v} shows {sorted(data)} ({where})"
                assert not text, f"the rendered view of {v} shows {sorted(text)} ({where})"


@pytest.mark.parametrize("path", PACKS, ids=IDS)
def test_refusals_without_an_addressee_name_no_hidden_option(path: Path) -> None:
    """Hole 7: `game.apply(wrong)` said "'x' is not one of the options [...]", listing the
    decider's hidden hand to whoever sent the wrong action. Without an addressee the message
    must name no card that a spectator may not know (the number of options is enough)."""
    p = pack(path)
    for seed in seeds(path, PROBED_GAMES):
        rnd = random.Random(seed)
        know = None
        for game in random_game(p, seed):
            know = know or Knowledge(game)
            know.update()
            if game.over:
                break
            secret = know.secret(None)
            before = fingerprint(game)
            for wrong in wrong_actions(game, secret, rnd, insider=True):
                for call in (game.apply, game.validate):
                    msg = refusal(partial(call, wrong), f"{call.__name__}({wrong!r})")
                    shown = leaks(p, msg, secret, sent=wrong)
                    assert not shown, (f"{call.__name__}({wrong!r}) says {msg!r}: it names "
                                       f"{sorted(shown)} (seed {seed}, after "
                                       f"{len(game.actions)} actions)")
            assert fingerprint(game) == before, "a refused action changed the game"


@pytest.mark.parametrize("path", PACKS, ids=IDS)
def test_refusals_to_a_side_name_only_what_it_may_know(path: Path) -> None:
    """Hole 7: a refusal addressed to a side (`apply(wrong, side=S, decision=id)`,
    `validate(wrong, side=S)`) may list the options to the decider, who sees them, but
    must name no card S may not know to any other side; a stale decision id is refused the
    same way, and nothing refused changes the game."""
    p = pack(path)
    for seed in seeds(path, PROBED_GAMES):
        rnd = random.Random(seed)
        know, previous = None, None
        for game in random_game(p, seed):
            know = know or Knowledge(game)
            know.update()
            if game.over:
                break
            d = game.decision
            before = fingerprint(game)
            for side in p.sides:
                where = f"{side}, seed {seed}, after {len(game.actions)} actions"
                secret = know.secret(side)
                for wrong in wrong_actions(game, secret, rnd):
                    for call, kw in ((game.apply, {"side": side, "decision": d.id}),
                                     (game.validate, {"side": side})):
                        msg = refusal(partial(call, wrong, **kw), f"{call.__name__}({wrong!r})")
                        shown = leaks(p, msg, secret, sent=wrong)
                        assert not shown, (f"{call.__name__}({wrong!r}, {kw}) says {msg!r}: "
                                           f"it names {sorted(shown)} ({where})")
                stale = stale_id(d.id, previous)
                if stale is not None:
                    right = game.random_action(rnd)
                    msg = refusal(partial(game.apply, right, side=d.side, decision=stale),
                                  "a stale decision id")
                    shown = leaks(p, msg, know.secret(d.side), sent=right)
                    assert not shown, f"a stale decision id: {msg!r} names {sorted(shown)}"
                    if side != d.side:
                        msg = refusal(partial(game.apply, right, side=side, decision=stale),
                                      "a stale decision id")
                        shown = leaks(p, msg, secret, sent=right)
                        assert not shown, (f"a stale decision id: {msg!r} names "
                                           f"{sorted(shown)} ({where})")
            assert fingerprint(game) == before, "a refused action changed the game"
            previous = d.id


@pytest.mark.parametrize("path", PACKS, ids=IDS)
def test_another_side_can_neither_answer_nor_probe_the_decision(path: Path) -> None:
    """Hole 7: a side that is not the decider cannot answer for it, and its refusal does not
    depend on whether the id it guessed is among the decider's hidden options (else a
    guess would tell it what the decider holds)."""
    p = pack(path)
    probed = 0
    for seed in seeds(path, PROBED_GAMES):
        rnd = random.Random(seed)
        know = None
        for game in random_game(p, seed):
            know = know or Knowledge(game)
            know.update()
            if game.over:
                break
            d = game.decision
            before = fingerprint(game)
            for side in p.sides:
                if side == d.side:
                    continue
                right = game.random_action(rnd)
                refusal(partial(game.apply, right, side=side, decision=d.id),
                        f"{side} answering {d.side}'s decision")
                assert fingerprint(game) == before, f"{side} answered {d.side}'s decision"
                probed += probe_with_two_guesses(game, know.secret(side), side)
    assert probed or path != LEAKGAME, "no decision over hidden options was probed"


def probe_with_two_guesses(game: Game, secret: set[str], side: str) -> int:
    """Compare the refusals of a guess that is a hidden option and of one that is not; 1 when
    both kinds of guess were possible here."""
    d = game.decision
    if d.kind == "ask":
        return 0
    options = {o for o in d.options if isinstance(o, str)}
    inside, outside = sorted(secret & options), sorted(secret - options)
    if not inside or not outside:
        return 0
    said = []
    for guess in (inside[0], outside[0]):
        msg = refusal(partial(game.apply, shaped(d.kind, guess), side=side, decision=d.id),
                      f"{side} guessing {guess}")
        said.append(re.sub(rf"(?<![A-Za-z0-9_]){guess}(?![A-Za-z0-9_])", "<guess>", msg))
    assert said[0] == said[1], (f"{side} learns that {inside[0]} is an option of {d.side}'s "
                                f"decision: {said[0]!r} but {said[1]!r}")
    return 1


# ---- the search itself ----------------------------------------------------------------------

def first_secret_rule_card(p: Any) -> tuple[Game, Knowledge, str, str, str]:
    """A leakgame position where a card with its own trigger is secret to a side and known
    to another: (game, knowledge, side, card, the trigger's function name)."""
    triggers = {rec: fn for fn, rec in record_triggers(p).items()}
    for seed in seeds(LEAKGAME, GAMES):
        for game in random_game(p, seed):
            know = Knowledge(game)
            for side in p.sides:
                known = set().union(*(know.seen[s] for s in p.sides if s != side))
                for card in sorted(know.secret(side) & known & set(triggers)):
                    return game, know, side, card, triggers[card]
    raise AssertionError("no card with its own trigger was ever held secretly")


def test_the_leak_search_finds_planted_leaks() -> None:
    """The tests above are not vacuous: a secret card planted in a view, in a trigger trace
    of its own rule, in rendered text or in a refusal is found; what the viewer holds or the
    caller sent is not."""
    p = pack(LEAKGAME)
    game, know, side, card, fn = first_secret_rule_card(p)
    secret = know.secret(side)
    view = game.view(side)  # without trigger traces: the search is tested, not the engine
    view = {**view, "log": [e for e in view["log"] if e["t"] != "trigger"]}
    assert view_leaks(p, view, secret) == (set(), set())

    planted = {**view, "vars": {**view["vars"], "omen": card}}
    assert view_leaks(p, planted, secret) == ({card}, set())
    trace = {"t": "trigger", "f": fn, "n": "turn"}
    planted = {**view, "log": [*view["log"], trace]}
    through = f"{card} (through rule {fn})"
    assert all(through in found for found in view_leaks(p, planted, secret))
    moved = {"t": "move", "e": card, "from": None, "to": "deck"}
    assert all(card in found for found in view_leaks(p, {**view, "log": [moved]}, secret))
    assert card in leaks(p, rendered(p, {**view, "log": [moved]}), secret)

    listing = f"'x' is not one of the options {[card, 'y']!r}"
    assert card in leaks(p, listing, secret, sent="x")
    assert not leaks(p, f"{card!r} is not one of the 3 options", secret, sent=card)
    holders = [s for s in p.sides if card not in know.secret(s)]
    assert not any(view_leaks(p, planted, know.secret(holders[0])))


def test_leakgame_exercises_every_way_to_leak() -> None:
    """The seeds played reach what the leak tests are about: a card's own trigger firing
    while the card is secret to a side, reveals to one side and to all, log lines naming
    secret cards, and decisions of every kind, over options secret to the other side."""
    p = pack(LEAKGAME)
    reached: set[str] = set()
    for seed in seeds(LEAKGAME, GAMES):
        know, read = None, 0
        for game in random_game(p, seed):
            know = know or Knowledge(game)
            know.update()
            secret = set().union(*(know.secret(s) for s in p.sides))
            reached |= {what_it_tests(p, e, secret) for e in game.log[read:]}
            read = len(game.log)
            d = game.decision
            if d is not None:
                others = set().union(*(know.secret(s) for s in p.sides if s != d.side))
                if others & {o for o in d.options if isinstance(o, str)}:
                    reached.add(f"secret options: {d.kind}")
                reached.add(f"decision: {d.kind}")
    assert reached >= {"a secret card's own trigger", "reveal to one side", "reveal to all",
                       "a log line naming a secret card", "secret options: one",
                       "secret options: many", "decision: ask", "decision: order"}, reached


def what_it_tests(p: Any, e: dict[str, Any], secret: set[str]) -> str | None:
    """Which way to leak log entry `e` offers (`secret`: ids secret to some side)."""
    if e["t"] == "trigger" and record_triggers(p).get(e["f"]) in secret:
        return "a secret card's own trigger"
    if e["t"] == "reveal":
        return "reveal to one side" if e["to"] else "reveal to all"
    if e["t"] == "say" and secret & {a for a in e["a"] if isinstance(a, str)}:
        return "a log line naming a secret card"
    return None


def test_no_rule_trace_reaches_a_player(inline_pack) -> None:
    """A trigger in a .rules file whose condition reads a hidden hand fired exactly when blue
    held c1, and red's view showed the trace: traces are for hosts (`game.log`), and no
    view carries them."""
    pack = inline_pack("""
        var active: side = red
        type card
        zone deck of card ordered hidden
        zone hand[s: side] of card private
        event turn(s: side)
        after turn(s) if c1 in hand[s]:
            pass
        on setup:
            move card to deck
            shuffle deck
            let d = draw 1 from deck to hand[blue]
            emit turn(blue)
            let y = ask red "Go on?"
            end game
    """, "card:\n  - {id: c1}\n  - {id: c2}\n")
    fired = 0
    for seed in range(8):
        g = pack.new_game(seed)
        fired += any(e["t"] == "trigger" and e["n"] == "turn" for e in g.log)
        for viewer in ("red", "blue", None):
            assert not [e for e in g.view(viewer)["log"] if e["t"] == "trigger"]
    assert 0 < fired < 8  # the trace exists in the host's log, only sometimes


def test_a_log_line_shows_a_card_as_the_side_saw_it_then(inline_pack) -> None:
    """A card turned face up and then put back into a hidden zone stays named in the lines
    written while it lay face up (both players saw it: a player at the table remembers it),
    but not in the lines written before it was turned up; a card shown to one side only is
    named to that side only. engine.core.views, module docstring."""
    pack = inline_pack("""
        type card
        zone hand[s: side] of card private
        zone deck of card hidden
        on setup:
            move c1 to hand[red]
            move c2 to hand[red]
            log "red holds {c1}"
            reveal c1
            log "red shows {c1}"
            reveal c2 to blue
            log "blue sees {c2}"
            move c1 to deck
            move c2 to deck
            log "red hides {c1}"
            let y = ask red "Go on?"
            end game
    """, "card:\n  - {id: c1}\n  - {id: c2}\n")
    g = pack.new_game(1)
    said = {v: [(e["m"], e["a"]) for e in g.view(v)["log"] if e["t"] == "say"]
            for v in ("red", "blue", None)}
    assert said["red"] == [("red holds {0}", ["c1"]), ("red shows {0}", ["c1"]),
                           ("blue sees {0}", ["c2"]), ("red hides {0}", [None])]
    assert said["blue"] == [("red holds {0}", [None]), ("red shows {0}", ["c1"]),
                            ("blue sees {0}", ["c2"]), ("red hides {0}", [None])]
    assert [a for _m, a in said[None]] == [[None]] * 4  # a spectator saw no reveal to it
    moves = [e for e in g.view("blue")["log"] if e["t"] == "move" and e["to"] == "deck"]
    assert [e["e"] for e in moves] == ["c1", "c2"]  # blue saw both go, face up, to the deck
    assert g.view("blue")["zones"]["deck"] == {"count": 2, "revealed": []}  # hidden now
    assert [e["e"] for e in g.view(None)["log"] if e["t"] == "move"] == [None] * 4
