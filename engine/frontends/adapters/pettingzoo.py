"""A PettingZoo AEC environment per playable pack (`pip install '.[rl]'`).

    from engine.frontends.adapters.pettingzoo import env
    e = env("kuhn", render_mode="ansi")      # a shipped pack's name, or a pack directory
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, done, cut, info = e.last()
        e.step(None if done or cut else int(obs["action_mask"].nonzero()[0][0]))

- agents: the pack's sides; `agent_selection` is the side the game waits for.
- actions: `Discrete(n)` over the pack's stable action index space
  (`engine.frontends.adapters.actions`). A 'many' (a set) or 'order' (a permutation) decision is
  answered in several steps of the same agent, one index each (then 0, "done", for a set);
  the environment applies the assembled answer to the game when it is complete.
- observations: {"observation": float32 tensor, "action_mask": int8 mask over the action
  space}. The tensor is `engine.frontends.adapters.observe.Observer.tensor` of the agent's own view
  (`Game.view(agent)`), never of the hidden state, with the steps of the answer being
  built; the mask is the legal next steps, all zeros for an agent not deciding.
  `infos[agent]` has no more than that: {"decision": the decision's id}.
- rewards: 0 until the end; then +1 for the winner, -1 for the others (0 to all when the
  game ends without a winner). Every agent is terminated when the game is over; with
  `max_decisions`, every agent is truncated when that many decisions were answered.
- `reset(seed=...)` seeds the game: the same seed and actions play the same game (seeded
  play is exact). `reset(options={"game": g})` continues a `Game` of the pack instead.
- `render()`: the game as a spectator sees it (`engine.frontends.terminal.render_view`, in the
  pack's names and the language `lang`), returned with render_mode "ansi", printed with "human".
- `log=False` plays without the event log: the observations are the same (the tensor reads
  no log), a game runs faster (nothing is logged; each view reads only the lines new since
  the agent's last, engine.core.views.ShownLog), and `render()` shows the board without the
  recent events.
"""
from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from engine.core.game import Game
from engine.core.loader import load_pack
from engine.frontends.adapters.actions import ActionSpace
from engine.frontends.adapters.observe import Observer


def env(pack: Any, render_mode: str | None = None, **kwargs: Any) -> EngineEnv:
    """The AEC environment of `pack` (a compiled pack, a shipped pack's name or a pack
    directory); `kwargs` go to `EngineEnv` (`lang`, `max_decisions`, `log`)."""
    return EngineEnv(pack, render_mode=render_mode, **kwargs)


class EngineEnv(AECEnv):  # type: ignore[misc]  # (PettingZoo has no type information)
    """The AEC environment of one playable pack (see the module doc)."""

    def __init__(self, pack: Any, render_mode: str | None = None, lang: str = "en",
                 max_decisions: int | None = None, log: bool = True) -> None:
        super().__init__()
        self.pack = pack if hasattr(pack, "model") else load_pack(pack)
        if not self.pack.playable:
            raise ValueError(f"pack {self.pack.id!r} is a data pack: it has no game to play")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode {render_mode!r}: this environment renders "
                             "'ansi' (text) or 'human' (printed)")
        self.metadata = {"render_modes": ["ansi", "human"], "name": f"engine_{self.pack.id}",
                         "is_parallelizable": False}
        self.render_mode = render_mode
        self.lang = lang
        self.max_decisions = max_decisions
        self.log = log
        self.space = ActionSpace.for_pack(self.pack)
        self.observer = Observer.for_pack(self.pack)
        self.possible_agents = list(self.pack.sides)
        size = self.space.size
        self.action_spaces = {agent: gymnasium.spaces.Discrete(size)
                              for agent in self.possible_agents}
        self.observation_spaces = {agent: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, self.observer.shape,
                                                np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
        }) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.game: Game | None = None  # reset() starts one
        self._steps: list[int] = []
        self.infos: dict[str, dict[str, Any]] = {}

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def _game(self) -> Game:
        """The game being played; an error before `reset()` has started one."""
        if self.game is None:
            raise RuntimeError("no game yet: call reset() first")
        return self.game

    # ---- playing ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(63)
        given = (options or {}).get("game")
        if given is not None:
            if given.pack is not self.pack:
                raise ValueError("options['game'] is a game of another pack")
            self.game = given
        else:
            self.game = Game.new(self.pack, game_seed, log=self.log, undo=False)
        self._steps = []
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._after_move()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        legal = self.space.legal_indices(game, self._steps)
        i = int(action) if isinstance(action, (int, np.integer)) and \
            not isinstance(action, bool) else None
        if i not in legal:
            raise ValueError(f"action {action!r} is not legal for {agent} now "
                             f"(legal: {legal[:20]}{' ...' if len(legal) > 20 else ''})")
        self._cumulative_rewards[agent] = 0
        self._steps.append(i)
        if self.space.is_complete(game, self._steps):
            answer = self.space.to_engine_action(game, self._steps)
            self._steps = []
            game.apply(answer, side=agent)
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _after_move(self) -> None:
        """Who decides now, and the rewards and ends when the game is over."""
        game = self._game
        self.rewards = dict.fromkeys(self.agents, 0)
        if game.over:
            assert game.result is not None  # a game over has its result
            winner = game.result.winner
            for agent in self.agents:
                self.rewards[agent] = 0 if winner is None else (1 if agent == winner else -1)
                self.terminations[agent] = True
        elif self.max_decisions is not None and len(game.actions) >= self.max_decisions:
            for agent in self.agents:
                self.truncations[agent] = True
        if not game.over:
            self.agent_selection = game.decider
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]
        decision = game.decision
        for agent in self.agents:
            self.infos[agent] = {"decision": None if decision is None else decision.id}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._game
        deciding = not game.over and agent == game.decider
        steps = self._steps if deciding else ()
        view = game.view(agent)
        mask = np.zeros(self.space.size, np.int8)
        if deciding:
            mask[self.space.legal_indices(game, steps)] = 1
        return {"observation": np.asarray(self.observer.tensor(view, steps), np.float32),
                "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi' "
                                  "or 'human' to env()")
            return None
        from engine.frontends.terminal import render_view
        from engine.i18n.translations import Catalog
        text = render_view(self._game.view(None), Catalog(self.pack, self.lang),
                           board=self.pack.meta.get("board"))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass
