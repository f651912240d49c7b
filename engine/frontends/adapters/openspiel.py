"""OpenSpiel games from our packs: `import engine.frontends.adapters.openspiel`, then
`pyspiel.load_game("engine_<pack id>")`. Every shipped playable pack is registered at
import; `register(name_or_path)` adds any other playable pack.

* Chance is explicit. The games here take their chance from the host
  (`Game.new(..., chance=[...])`): a die, each step of a shuffle (Fisher-Yates) and each
  random pick is a chance node of n equally likely outcomes, the set-up's included. A
  player's answer (or the set-up) that draws a random number waits at a chance node;
  outcome k answers it again on the game before it, with the outcomes so far and k
  (`Game.apply` leaves the game unchanged when one more is needed), until the game reaches
  its next decision.
* Actions are the pack's stable action index space (engine.frontends.adapters.actions); a 'many' or
  'order' answer is a sequence of single-index steps by the same player.
* The observation string and tensor are engine.frontends.adapters.observe's, from
  `game.view(side)`. The information state string is the side's trail (a digest of every
  position it saw, `Game.position`, and every step it took, by name) followed by the
  observation: perfect recall at a cost that does not grow with the log, and a determinized
  copy keeps it (the view's log would not: copies start with none). Its tensor is not
  provided (a fixed length cannot hold a whole history).
* Returns are the game's result: +1 to the winner, the rest share -1; 0 each for a draw.
* A state is pickled, copied and serialized (`pyspiel.serialize_game_and_state`) through
  our save (`Game.save`, which records the outcomes the host supplied) plus the answer,
  outcomes and picks waiting on top of it.
* `resample_from_infostate(player, sampler)` is `Game.determinized`: what the player
  cannot see dealt anew, for OpenSpiel's ISMCTS bot.
"""
from __future__ import annotations

import copy
import json
import random
from hashlib import sha256
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

from engine.core.errors import ChanceNeeded
from engine.core.game import Game
from engine.core.loader import load_pack
from engine.dsl.places import shipped_packs
from engine.frontends.adapters.actions import NO, NONE, YES, ActionSpace
from engine.frontends.adapters.observe import Observer as Encoding
from engine.frontends.adapters.observe import observation_string

PREFIX = "engine_"
# An upper bound on OpenSpiel steps (player steps and chance outcomes) per game, which
# OpenSpiel's GameInfo requires; packs do not bound their length themselves. Random games
# of the shipped packs stay far below it (tests/test_openspiel.py measures them).
MAX_GAME_LENGTH = 100_000
# The fewest outcomes a chance node's mask allows for (a die of up to 100 faces), raised to
# the number of the pack's records: the largest shuffle or random pick of them. A chance
# node of more is refused with a message, never answered out of range.
MIN_CHANCE_OUTCOMES = 100
# whose turn a state is when it is no player's (pyspiel has no type information)
CHANCE: int = pyspiel.PlayerId.CHANCE
TERMINAL: int = pyspiel.PlayerId.TERMINAL


def chance_cap(pack: Any) -> int:
    """The most outcomes a chance node of `pack` may have (OpenSpiel's max_chance_outcomes)."""
    return max(MIN_CHANCE_OUTCOMES, len(pack.records))


# ---- the engine game behind a state -----------------------------------------------------------

class Play:
    """The engine side of one OpenSpiel state: the game at its last decision and what waits
    on top of it. OpenSpiel copies a Python state by deep-copying its attributes and
    serializes it by pickling them; this object does both through the engine
    (`Game.clone`, `Game.save`/`Game.load`)."""

    def __init__(self, pack: Any, game: Game | None = None):
        self.pack = pack
        self.game = game  # None until the set-up has all its chance outcomes
        self.answer: Any = None  # the engine answer waiting for chance outcomes
        self.outcomes: list[int] = []  # the outcomes of the waiting step so far
        self.need = 0  # outcomes of the chance node now; 0 when no chance node
        self.picked: list[int] = []  # steps of a 'many'/'order' answer taken so far
        # per side, what it saw and did, a line each: its information state's history
        self.trails: dict[str, list[str]] = {s: [] for s in pack.sides}
        self.world = False  # a determinized copy: its save is no replay, loaded by digest
        if game is None:
            self._settle()

    @property
    def settled(self) -> Game:
        """The game at its last decision: there is one whenever no chance node waits (`need`
        is 0), only the set-up's chance nodes come before it."""
        if self.game is None:
            raise ValueError("the set-up waits for chance outcomes: there is no game yet")
        return self.game

    def _settle(self) -> None:
        """Run the waiting step again with the outcomes so far: done, or one more needed."""
        try:
            if self.game is None:
                # no log: the adapter never reads it, and views then need not redact it
                self.game = Game.new(self.pack, 0, log=False, chance=self.outcomes)
            else:
                self.game.apply(self.answer, chance=self.outcomes)
        except ChanceNeeded as need:
            if need.n > chance_cap(self.pack):
                raise ValueError(f"a chance node of {need.n} outcomes, more than the "
                                 f"{chance_cap(self.pack)} this game declared to "
                                 "OpenSpiel (max_chance_outcomes)") from None
            self.need = need.n
            return
        self.answer, self.outcomes, self.need = None, [], 0
        for side, trail in self.trails.items():  # what each side sees now
            trail.append("saw " + sha256(self.game.position(side)).hexdigest()[:32])

    def chance(self, k: int) -> None:
        self.outcomes.append(k)
        self._settle()

    def step(self, side: str, name: str) -> None:
        """`side` took a step named `name` (its own trail remembers it)."""
        self.trails[side].append(f"did {name}")

    def answer_with(self, action: Any) -> None:
        self.answer, self.outcomes, self.picked = action, [], []
        self._settle()

    def __deepcopy__(self, memo: dict[int, Any]) -> Play:
        other = Play.__new__(Play)
        other.__dict__.update(self.__dict__)
        other.game = None if self.game is None else self.game.clone()
        other.outcomes, other.picked = list(self.outcomes), list(self.picked)
        other.trails = {s: list(t) for s, t in self.trails.items()}
        return other

    def __getstate__(self) -> dict[str, Any]:
        """Our save of the game at its last decision and the steps waiting on top of it."""
        return {"pack": str(self.pack.root), "save": None if self.game is None else
                self.game.save(), "answer": self.answer, "outcomes": self.outcomes,
                "need": self.need, "picked": self.picked, "trails": self.trails,
                "world": self.world}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.pack = _pack(data["pack"])
        save = data["save"]
        self.world = data["world"]
        verify = "digest" if self.world else "replay"
        self.game = None if save is None else Game.load(self.pack, save, log=False,
                                                        verify=verify)
        self.answer, self.outcomes = data["answer"], list(data["outcomes"])
        self.need, self.picked = data["need"], list(data["picked"])
        self.trails = {s: list(t) for s, t in data["trails"].items()}


_PACKS: dict[str, Any] = {}  # pack directory -> the pack a registered game plays


def _pack(root: str) -> Any:
    pack = _PACKS.get(root)
    if pack is None:
        pack = _PACKS[root] = load_pack(root)
    return pack


# ---- the OpenSpiel game --------------------------------------------------------------------

def hides_anything(pack: Any) -> bool:
    """Does some side not see some zone or var of `pack`? (Then the game has imperfect
    information; with none hidden, each side sees the whole state.)"""
    sides = pack.sides
    return (any(not pack.can_see_zone(s, key) for s in sides for key in pack.zone_keys)
            or any(not pack.var_visible(s, name, key) for s in sides
                   for name, keys in pack.var_keys.items() for key, _args in keys)
            or bool(pack.created))  # zones of records made in play: assume hidden ones


def game_type(pack: Any) -> pyspiel.GameType:
    info = pyspiel.GameType.Information
    n = len(pack.sides)
    return pyspiel.GameType(
        short_name=PREFIX + pack.id,
        long_name=f"{pack.meta.get('name', pack.id)} (engine pack {pack.id})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(info.IMPERFECT_INFORMATION if hides_anything(pack)
                     else info.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n, min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={})


class EngineGame(pyspiel.Game):  # type: ignore[misc]  # (pyspiel has no type information)
    """A pack as an OpenSpiel game (see the module's doc); `register` makes a subclass per
    pack, naming its directory in `root`."""

    root = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.pack = pack = _pack(self.root)
        self.space = ActionSpace.for_pack(pack)
        self._start: Play | None = None
        n = len(pack.sides)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.size,
            max_chance_outcomes=chance_cap(pack),
            num_players=n, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=MAX_GAME_LENGTH)
        super().__init__(game_type(pack), info, params or {})

    def new_initial_state(self) -> EngineState:
        # the set-up's first chance node, made once: OpenSpiel makes an initial state for
        # every copy of a state, then copies the attributes into it
        if self._start is None:
            self._start = Play(self.pack)
        return EngineState(self, copy.deepcopy(self._start))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, perfect_recall=recall)


class EngineState(pyspiel.State):  # type: ignore[misc]  # (pyspiel has no type information)
    """A state of an engine game; its only attribute is the engine side (`Play`)."""

    def __init__(self, game: EngineGame, play: Play) -> None:
        super().__init__(game)
        self.play = play

    def _space(self) -> ActionSpace:
        engine_game: EngineGame = self.get_game()
        return engine_game.space

    # ---- whose turn ---------------------------------------------------------------------
    def current_player(self) -> int:
        play = self.play
        if play.need:
            return CHANCE
        game = play.settled
        if game.over:
            return TERMINAL
        side = game.decider
        assert side is not None  # a game not over waits for a side
        sides: list[str] = play.pack.sides
        return sides.index(side)

    def is_terminal(self) -> bool:
        return not self.play.need and self.play.settled.over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.play.need
        return [(k, 1.0 / n) for k in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        play = self.play
        return self._space().legal_indices(play.settled, play.picked)

    # ---- moves ----------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        play = self.play
        if play.need:
            if not 0 <= action < play.need:
                raise ValueError(f"chance outcome {action} is not one of 0..{play.need - 1}")
            play.chance(action)
            return
        space = self._space()
        game = play.settled
        if action not in space.legal_indices(game, play.picked):
            raise ValueError(f"action {action} is not legal here")
        side = game.decider
        assert side is not None  # a legal action: the game waits for a side
        play.step(side, self._action_to_string(self.current_player(), action))
        play.picked.append(action)
        if space.is_complete(game, play.picked):
            play.answer_with(space.to_engine_action(game, play.picked))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"chance {action} of {self.play.need}"
        return action_name(self.play.pack, self._space(), action)

    # ---- results --------------------------------------------------------------------------
    def returns(self) -> list[float]:
        play = self.play
        sides = play.pack.sides
        result = None if play.need else play.settled.result  # a result once it is over
        if result is None or result.winner is None:
            return [0.0] * len(sides)
        loss = -1.0 / (len(sides) - 1)
        return [1.0 if side == result.winner else loss for side in sides]

    def __str__(self) -> str:
        """The whole state (hidden parts included) as canonical JSON, and what waits."""
        play = self.play
        state = None if play.game is None else play.game.state
        return json.dumps({"state": state, "answer": play.answer, "outcomes": play.outcomes,
                           "picked": play.picked}, sort_keys=True, separators=(",", ":"))

    # ---- for ISMCTS ---------------------------------------------------------------------
    def resample_from_infostate(self, player: int, sampler: Any) -> EngineState:
        """A state `player` cannot tell from this one: what it cannot see dealt anew
        (`Game.determinized`), with the same information state string."""
        play = self.play
        side = play.pack.sides[player]
        rnd = random.Random(int(sampler() * 2 ** 53))
        if play.need:
            raise ValueError("resample_from_infostate is asked at a decision, not at a "
                             "chance node")
        world = copy.deepcopy(play)
        world.world = True
        world.game = play.settled.determinized(side, rnd)
        world.game.supply_chance()  # its chance nodes are the search's
        world.game.undo_enabled = True  # rolls a step that needs chance back cheaply
        if play.settled.decider != side:
            world.picked = []  # another side's picks so far: `side` does not see them
        world.trails = {s: list(play.trails[side]) for s in play.pack.sides}
        return EngineState(self.get_game(), world)


# ---- what a player sees --------------------------------------------------------------------

def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def action_name(pack: Any, space: ActionSpace, action: int) -> str:
    """An action index as a player would say it: a record by its name in the pack (and
    its id, as two records may share a name), yes, no, pass, or the value itself."""
    if action in (NONE, YES, NO):
        return ("pass", "yes", "no")[action]
    value = space.value(action)
    rec = pack.records.get(value) if isinstance(value, str) else None
    name = rec.get("name") if rec is not None else None
    if isinstance(name, str) and name != value:
        return f"{name} ({value})"
    return str(value)


def _waiting(play: Play, side: str) -> str:
    """What waits on top of the game at its last decision, as `side` may know it."""
    if play.need:
        if play.game is None:
            return "set-up: chance"
        decider = play.game.decider
        answer = _canonical(play.answer) if decider == side else "?"
        return f"{decider} answered {answer}: chance"
    if play.picked and play.settled.decider == side:
        return "picked " + _canonical(play.picked)
    return ""


class Observer:
    """OpenSpiel's observer of our games: the observation (what the side sees now) or,
    with perfect recall, the information state (what it saw happen, then what it sees)."""

    def __init__(self, game: EngineGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        self.encoding = Encoding.for_pack(game.pack)
        self.tensor = None if perfect_recall else np.zeros(self.encoding.size, np.float32)
        self.dict = {} if self.tensor is None else {"observation": self.tensor}

    def set_from(self, state: EngineState, player: int) -> None:
        if self.tensor is None:
            return
        play = state.play
        if play.game is None:
            self.tensor.fill(0.0)
        else:
            view = play.game.view(play.pack.sides[player])
            steps = play.picked if play.game.decider == view["side"] else ()
            self.tensor[:] = self.encoding.tensor(view, steps)

    def string_from(self, state: EngineState, player: int) -> str:
        play = state.play
        side = play.pack.sides[player]
        now = "" if play.game is None else observation_string(play.game.view(side))
        now += "\n" + _waiting(play, side)
        if not self.perfect_recall:
            return now
        return "\n".join(play.trails[side]) + "\n--\n" + now


# ---- registration ----------------------------------------------------------------------------

def register(name_or_path: str | Path) -> str:
    """Register a playable pack (a shipped pack's name or a directory) as the OpenSpiel
    game `engine_<pack id>`; returns that name. Registering it again changes nothing."""
    pack = load_pack(name_or_path)
    if not pack.playable:
        raise ValueError(f"{pack.id} is a data pack (playable: false): nothing to play")
    root = str(pack.root)
    name = PREFIX + pack.id
    if name in pyspiel.registered_names():
        return name
    _PACKS[root] = pack
    # A class, not a closure, as OpenSpiel's own Python games register: OpenSpiel keeps the
    # creator until the process ends, and dropping the last reference to a closure then,
    # after Python has finalized, aborts the process.
    creator = type(f"EngineGame_{pack.id}", (EngineGame,), {"root": root})
    pyspiel.register_game(game_type(pack), creator)
    return name


for _name in shipped_packs()[0]:
    register(_name)
