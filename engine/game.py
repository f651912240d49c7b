"""`Game`: the object a front-end holds. Decisions, actions, views, save/load, replay, undo."""
from __future__ import annotations

import itertools
import json
import random
from typing import Any

import attrs

from engine.errors import EngineFault, IllegalAction, NotPlayable, SaveError
from engine.runtime import Runtime, copy_state, enumerate_many

SAVE_FORMAT = "engine-save/1"


@attrs.frozen
class Decision:
    """What the game waits for. An action answers it:
    kind 'one' -> one of `options` (or None when `optional`);
    kind 'many' -> a list of `min`..`max` distinct options;
    kind 'ask' -> True or False;  kind 'order' -> all options, reordered."""

    side: str
    kind: str
    options: list[Any]
    min: int
    max: int
    optional: bool = False
    prompt: str | None = None


@attrs.frozen
class Result:
    winner: str | None
    reason: str


class Game:
    def __init__(self, pack: Any, state: dict[str, Any], seed: int, actions: list[Any],
                 log: bool = True, undo: bool = True):
        self.pack = pack
        self.seed = seed
        self.actions = actions
        self.rt = Runtime(pack, state, log=log)
        self.undo_enabled = undo
        self._undo: list[tuple[dict[str, Any], str, int]] = []

    # ---- creation -------------------------------------------------------------------------
    @classmethod
    def new(cls, pack: Any, seed: int = 0, *, log: bool = True, undo: bool = True) -> "Game":
        require_playable(pack)
        game = cls(pack, Runtime.initial_state(pack, seed), seed, [], log=log, undo=undo)
        game._guard(lambda: (game.rt.setup(), game.rt.run()))
        return game

    # ---- reading --------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The whole state (hidden parts included): for hosts, tests and saves, not players."""
        return self.rt.s

    @property
    def decision(self) -> Decision | None:
        d = self.rt.s["decision"]
        if d is None:
            return None
        return Decision(d["side"], d["kind"], list(d["options"]), d["min"], d["max"],
                        d["optional"], d["prompt"])

    @property
    def result(self) -> Result | None:
        r = self.rt.s["result"]
        return None if r is None else Result(r["winner"], r["reason"])

    @property
    def over(self) -> bool:
        return self.rt.s["result"] is not None

    @property
    def log(self) -> list[dict[str, Any]]:
        """The full event log (hidden parts included). Players get `view(side)["log"]`."""
        return self.rt.s["log"]

    def var(self, name: str, *args: Any) -> Any:
        return self.rt.v[name]["|".join(str(a) for a in args)]

    def zone(self, name: str, *args: Any) -> list[Any]:
        return list(self.rt.z["|".join([name, *map(str, args)])])

    # ---- actions --------------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        d = self.rt.s["decision"]
        if d is None:
            return []
        kind, opts = d["kind"], d["options"]
        if kind == "ask":
            return [True, False]
        if kind == "one":
            return list(opts) + ([None] if d["optional"] else [])
        if kind == "many":
            return enumerate_many(d, lambda v: self.rt.check_require(d, v))
        perms = itertools.islice(itertools.permutations(opts), 5040)
        return [list(p) for p in perms]

    def random_action(self, rnd: random.Random) -> Any:
        """A uniformly random legal action, cheaper than listing them all."""
        d = self.rt.s["decision"]
        if d is None:
            raise IllegalAction("the game is not waiting for a decision", "no-decision")
        kind, opts = d["kind"], d["options"]
        if kind == "ask":
            return rnd.random() < 0.5
        if kind == "one":
            n = len(opts) + (1 if d["optional"] else 0)
            i = rnd.randrange(n)
            return opts[i] if i < len(opts) else None
        if kind == "order":
            out = list(opts)
            rnd.shuffle(out)
            return out
        for _ in range(50):
            k = rnd.randint(d["min"], d["max"])
            pick = [opts[i] for i in sorted(rnd.sample(range(len(opts)), k))]
            if self.rt.check_require(d, pick):
                return pick
        legal = self.legal_actions()
        if not legal:
            raise EngineFault("a multi-choice has no legal answer")
        return rnd.choice(legal)

    def validate(self, action: Any) -> Any:
        """The action in canonical form, or IllegalAction; never changes the game."""
        d = self.rt.s["decision"]
        if d is None:
            raise IllegalAction("the game is not waiting for a decision"
                                + (" (it is over)" if self.over else ""), "no-decision")
        kind, opts = d["kind"], d["options"]
        if kind == "ask":
            if not isinstance(action, bool):
                raise IllegalAction(f"answer yes/no with true or false, not {action!r}", "ask")
            return action
        if kind == "one":
            if action is None and d["optional"]:
                return None
            if action not in opts or isinstance(action, (list, tuple)):
                raise IllegalAction(f"{action!r} is not one of the options {opts!r}", "choose")
            return action
        if not isinstance(action, (list, tuple)):
            raise IllegalAction(f"this decision takes a list, not {action!r}", kind)
        action = list(action)
        remaining = list(opts)
        for a in action:
            if a not in remaining:
                raise IllegalAction(f"{a!r} is not an option here (or is chosen twice)", kind)
            remaining.remove(a)
        if kind == "order":
            if remaining:
                raise IllegalAction(f"order all of {opts!r}", "order")
            return action
        if not d["min"] <= len(action) <= d["max"]:
            raise IllegalAction(f"choose between {d['min']} and {d['max']}, not {len(action)}",
                                "count")
        if not self.rt.check_require(d, action):
            raise IllegalAction(f"{action!r} does not meet the choice's condition", "require")
        return action

    def apply(self, action: Any) -> None:
        """Answer the current decision. An illegal action raises IllegalAction and changes
        nothing."""
        action = self.validate(action)
        side = self.rt.s["decision"]["side"]
        if self.undo_enabled:
            if self._undo and self._undo[-1][1] != side:
                self._undo.clear()  # another player decided since: no undo across them
            self._undo.append((copy_state(self.rt.s), side, len(self.actions)))
            self.rt.watch(side)
        self.actions.append(action)
        try:
            self._guard(lambda: self.rt.answer(action))
        finally:
            if self.undo_enabled:
                hit = self.rt.barrier_hit
                self.rt.unwatch()
                nxt = self.rt.s["decision"]
                # Undo ends at dice, draws, reveals, reads of what `side` cannot see, and
                # as soon as another side is asked anything (it has seen the move).
                if hit or nxt is None or nxt["side"] != side:
                    self._undo.clear()

    def _guard(self, fn: Any) -> None:
        try:
            fn()
        except EngineFault as err:
            err.pack, err.pack_hash, err.seed = self.pack.id, self.pack.hash, self.seed
            err.actions = list(self.actions)
            raise

    # ---- undo -----------------------------------------------------------------------------
    def can_undo(self, side: str) -> bool:
        return bool(self._undo) and self._undo[-1][1] == side

    def undo(self, side: str) -> None:
        """Take back `side`'s last decision. Refused across a die roll, a draw or reveal of
        hidden cards, and another player's decision."""
        if not self.can_undo(side):
            raise IllegalAction(f"{side} has nothing to undo (undo stops at dice, draws, "
                                "reveals and the other side's decisions)", "undo")
        state, _side, n = self._undo.pop()
        self.rt.attach(state)
        del self.actions[n:]

    # ---- views ----------------------------------------------------------------------------
    def view(self, side: str | None) -> dict[str, Any]:
        """What `side` may see (None: a spectator), as plain JSON-ready data."""
        from engine.views import player_view
        return player_view(self, side)

    # ---- save / load / replay / clone -------------------------------------------------------
    def to_data(self) -> dict[str, Any]:
        return {"format": SAVE_FORMAT, "pack": self.pack.id, "pack_hash": self.pack.hash,
                "seed": self.seed, "actions": self.actions, "state": self.rt.s}

    def save(self) -> str:
        return json.dumps(self.to_data(), separators=(",", ":"), sort_keys=True)

    @classmethod
    def load(cls, pack: Any, text: str, *, log: bool = True, undo: bool = True) -> "Game":
        require_playable(pack)
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise SaveError(f"not a saved game: {err}") from None
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError(f"not a saved game of format {SAVE_FORMAT}")
        if data.get("pack") != pack.id:
            raise SaveError(f"this game was saved with pack {data.get('pack')!r}, not {pack.id!r}")
        if data.get("pack_hash") != pack.hash:
            raise SaveError(f"pack {pack.id!r} changed since this game was saved (saved with "
                            f"{data.get('pack_hash')}, now {pack.hash}); replay it instead")
        return cls(pack, data["state"], data["seed"], list(data["actions"]), log=log, undo=undo)

    def clone(self) -> "Game":
        g = Game(self.pack, copy_state(self.rt.s), self.seed, list(self.actions),
                 log=self.rt.logging, undo=False)
        return g

    def check_invariants(self) -> list[str]:
        """Messages of the pack's `invariant` declarations that do not hold now."""
        from engine.views import failed_invariants
        return failed_invariants(self)


def require_playable(pack: Any) -> None:
    """A data pack (`playable: false`) has no rules to play: no game is made from it
    (`NotPlayable`)."""
    if not pack.model.playable:
        raise NotPlayable(pack.id)


def replay(pack: Any, seed: int, actions: list[Any], *, log: bool = True) -> Game:
    """Play `actions` from a new game with `seed`; exact, since all randomness is seeded."""
    game = Game.new(pack, seed, log=log, undo=False)
    for a in actions:
        game.apply(a)
    return game
