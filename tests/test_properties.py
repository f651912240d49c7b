"""Properties every pack must have, checked by random play over every pack under test.

- random legal play never faults and never breaks the pack's invariants;
- an illegal action raises IllegalAction and changes nothing;
- a game saved at any decision and loaded in a fresh Python process goes on exactly as the
  game that was not saved;
- a player's view never shows a card that side has not legitimately seen (hidden-information
  leaks), and undo never shows more than the side saw before.
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from packs_under_test import pack_dirs

from engine.core.errors import IllegalAction
from engine.core.game import Game
from engine.core.loader import load_pack

REPO = Path(__file__).resolve().parent.parent
PACKS = pack_dirs()
IDS = [p.name for p in PACKS]
MAX_DECISIONS = 3000  # a random game longer than this is cut short (not a failure)
WATCHED = 400         # decisions of a game checked step by step (views and saves grow)
# Hannibal's decisions log ten times what the small games' do, and each step of a watched
# game is checked against a witness of every record and saved (at 250 decisions the file
# takes 48 s more): its games are watched for fewer decisions, and its invariants (over
# every leader and space) checked at every 4th decision, so the suite keeps to its budget.
WATCHED_FOR = {"hannibal": 120}
INVARIANTS_EVERY = {"hannibal": 4}
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def budget(examples: int) -> settings:
    """Hypothesis settings sharing `examples` games among the packs, so that the file keeps
    to its time budget as packs are added."""
    return settings(max_examples=max(3, examples // len(PACKS)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@cache
def pack(path: Path) -> Any:
    return load_pack(path)


def random_game(p: Any, seed: int) -> Iterator[tuple[Game, Any]]:
    """Yield (game, action about to be applied) at every decision of a random game."""
    game = p.new_game(seed, undo=False)
    rnd = random.Random(seed ^ 0x5EED)
    while not game.over and len(game.actions) < MAX_DECISIONS:
        action = game.random_action(rnd)
        yield game, action
        game.apply(action)


def illegal_actions(game: Game) -> list[Any]:
    """Actions the current decision must refuse."""
    d = game.decision
    out: list[Any] = [object(), {"x": 1}]
    if d.kind == "ask":
        return out + ["yes", 1, None, [True]]
    if d.kind == "one":
        out += ["__not_an_option__", list(d.options[:1])]
        if not d.optional:
            out.append(None)
        return out
    out += ["__not_a_list__", ["__not_an_option__"]]
    if d.options:
        out.append([d.options[0]] * (d.options.count(d.options[0]) + 1))  # chosen twice
    if d.kind == "order":
        out.append(list(d.options[:-1]))
        return out
    if d.max < len(d.options):
        out.append(list(d.options[:d.max + 1]))  # too many
    if d.min > 0:
        out.append(list(d.options[:d.min - 1]))  # too few
    return out


# ---- random play: invariants, faults, illegal actions ----------------------------------------

@pytest.mark.parametrize("path", PACKS, ids=IDS)
@budget(150)
@given(seed=SEEDS)
def test_random_play_keeps_invariants(path: Path, seed: int) -> None:
    p = pack(path)
    rnd = random.Random(seed)
    game = None
    every = INVARIANTS_EVERY.get(path.name, 1)
    for game, _action in random_game(p, seed):
        if len(game.actions) % every == 0:
            assert game.check_invariants() == [], f"seed {seed}, after {game.actions}"
        if len(game.actions) < WATCHED and rnd.random() < 0.2:
            before = game.save()
            for bad in illegal_actions(game):
                with pytest.raises(IllegalAction):
                    game.apply(bad)
                assert game.save() == before, f"illegal {bad!r} changed the game"
    assert game is not None
    assert game.check_invariants() == []


# ---- save here, load in a fresh process -----------------------------------------------------

CONTINUE = r"""
import json, random, sys
from engine.core.game import Game
from engine.core.loader import load_pack
out = []
for job in json.load(sys.stdin):
    game = Game.load(load_pack(job["pack"]), job["save"])
    rnd = random.Random(job["policy"])
    while not game.over and len(game.actions) < job["limit"]:
        game.apply(game.random_action(rnd))
    out.append(game.save())
json.dump(out, sys.stdout)
"""


def continue_in_fresh_process(jobs: list[dict[str, Any]]) -> list[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.pop("PYTHONHASHSEED", None)  # a different hash seed must not change the game
    done = subprocess.run([sys.executable, "-c", CONTINUE], input=json.dumps(jobs),
                          capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("path", PACKS, ids=IDS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=st.lists(st.tuples(SEEDS, st.floats(0, 1)), min_size=3, max_size=5))
def test_save_load_in_fresh_process_continues_identically(path: Path, games) -> None:
    p = pack(path)
    jobs, expected = [], []
    for seed, where in games:
        # how many decisions this game has, then stop at the chosen fraction of them
        length = 0
        for game, _action in random_game(p, seed):
            length = len(game.actions) + 1
            if length >= WATCHED:
                break
        stop = int(where * length)
        for game, _action in random_game(p, seed):
            if len(game.actions) == stop:
                break
        policy = seed + 1
        limit = stop + WATCHED
        jobs.append({"pack": str(path), "save": game.save(), "policy": policy, "limit": limit})
        rnd = random.Random(policy)
        while not game.over and len(game.actions) < limit:
            game.apply(game.random_action(rnd))
        expected.append(game.save())
    got = continue_in_fresh_process(jobs)
    for i, (a, b) in enumerate(zip(got, expected)):
        assert a == b, f"game {games[i]} went on differently after loading"


# ---- hidden information ------------------------------------------------------------------------

def entity_types(p: Any) -> set[str]:
    """Record types that zones may hold: their ids are what can be hidden."""
    kinds = {z.of for z in p.model.zones.values()}
    if None in kinds:
        return set(p.by_type)
    return {k for k in kinds if k}


def shown_in(text: str, value: str) -> bool:
    """Whether `value` is a string value (not a key) in JSON text: its literal starts where
    JSON may start a value and is not followed by a colon."""
    literal = json.dumps(value)
    at = text.find(literal)
    while at >= 0:
        end = at + len(literal)
        if (at == 0 or text[at - 1] in "[,: {") and not text[end:end + 2].lstrip().startswith(":"):
            return True
        at = text.find(literal, at + 1)
    return False


class Witness:
    """What each side has legitimately seen, worked out from the state and the full log
    independently of engine.core.views."""

    def __init__(self, game: Game):
        p = game.pack
        self.game = game
        self.entities = {rid for t in entity_types(p) for rid in p.by_type.get(t, [])}
        self.seen: dict[str, set[str]] = {s: set() for s in p.sides}
        self.hidden: dict[str, set[str]] = {s: set() for s in p.sides}
        self.read = 0
        self.log_seen: dict[str, list[Any]] = {s: [] for s in p.sides}
        self.update()

    def update(self) -> None:
        g, p = self.game, self.game.pack
        for e in g.log[self.read:]:
            for s in p.sides:
                if e["t"] == "move":
                    if not p.can_see_zone(s, e["to"]):
                        self.hidden[s].add(e["e"])
                    if p.can_see_zone(s, e["to"]) or (e["from"] and p.can_see_zone(s, e["from"])):
                        self.seen[s].add(e["e"])
                elif e["t"] == "create" and e["to"] is not None:
                    (self.seen if p.can_see_zone(s, e["to"]) else self.hidden)[s].add(e["e"])
                elif e["t"] == "reveal" and e["to"] in (None, s):
                    self.seen[s].add(e["e"])
        self.read = len(g.log)
        made = g.state.get("made") or {}  # records made in play are entities too
        self.entities.update(rid for t in entity_types(p) for rid in made.get(t, []))
        for key, items in g.state["z"].items():
            for s in p.sides:
                if p.can_see_zone(s, key):
                    self.seen[s].update(items)
                else:
                    self.hidden[s].update(items)
        for ent, sides in g.state["revealed"].items():
            for s in sides:
                self.seen[s].add(ent)

    def leaks(self, side: str, view: dict[str, Any]) -> set[str]:
        """The entities `side` may not know that its view shows. A log line is read when it
        first appears in the view as it is now: a late view holds the whole log, and reading
        it all again for every side at every decision made this file the suite's slowest."""
        log, before = view.get("log", []), self.log_seen[side]
        fresh = [line for i, line in enumerate(log) if i >= len(before) or line != before[i]]
        self.log_seen[side] = log
        text = json.dumps({**view, "log": fresh})  # views are JSON-ready
        unknown = (self.hidden[side] - self.seen[side]) & self.entities
        return {x for x in unknown if shown_in(text, x)}


@pytest.mark.parametrize("path", PACKS, ids=IDS)
@budget(60)
@given(seed=SEEDS)
def test_views_do_not_leak(path: Path, seed: int) -> None:
    p = pack(path)
    game = p.new_game(seed)
    witness = Witness(game)
    rnd = random.Random(seed)
    while True:
        witness.update()
        for side in p.sides:
            leaked = witness.leaks(side, game.view(side))
            assert not leaked, (f"{side} sees {sorted(leaked)} (seed {seed}, "
                                f"after {len(game.actions)} actions)")
        if game.over or len(game.actions) >= WATCHED_FOR.get(path.name, WATCHED):
            break
        game.apply(game.random_action(rnd))


@pytest.mark.parametrize("path", PACKS, ids=IDS)
@budget(60)
@given(seed=SEEDS)
def test_undo_shows_nothing_new(path: Path, seed: int) -> None:
    """Whenever a side may undo, undoing gives back exactly the views before its action,
    and doing the same action again gives the same game."""
    p = pack(path)
    game = p.new_game(seed)
    rnd = random.Random(seed)
    while not game.over and len(game.actions) < WATCHED_FOR.get(path.name, WATCHED):
        action = game.random_action(rnd)
        side = game.decision.side
        views = {s: game.view(s) for s in p.sides}
        game.apply(action)
        after = game.save()
        if game.can_undo(side):
            game.undo(side)
            assert {s: game.view(s) for s in p.sides} == views
            game.apply(action)
            assert game.save() == after
        # never undo across another side's decision
        for other in p.sides:
            if other != side:
                assert not game.can_undo(other)


def test_the_leak_witness_finds_a_leak(inline_pack) -> None:
    """The leak test is not vacuous: a pack that copies a hidden card into a public var is
    caught (a log line naming it is not a leak: views hide such arguments)."""
    p = inline_pack("""
        type card:
            power: int
        var active: side = red
        var last: card? = none
        zone deck of card ordered hidden
        zone hand[s: side] of card private
        on setup:
            for c in card:
                move c to deck
            shuffle deck
            let d = draw 1 from deck to hand[blue]
            let y = ask red "Peek?"
            if y:
                last = top(deck)
            else:
                log "blue holds", first(hand[blue])
                last = first(hand[blue])
    """, """
        card:
          - {id: c1, power: 1}
          - {id: c2, power: 2}
          - {id: c3, power: 3}
    """)
    for answer in (True, False):
        game = p.new_game(0)
        witness = Witness(game)
        assert not witness.leaks("red", game.view("red"))
        game.apply(answer)
        witness.update()
        assert witness.leaks("red", game.view("red")), answer
        assert not witness.leaks("blue", game.view("blue")) or answer
