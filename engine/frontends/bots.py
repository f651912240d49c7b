"""Computer players for any pack.

A seat is an object with `choose(game, side) -> action`. Bots read only what the public
`Game` API offers a player: `game.view(side)`, `game.position(side)`, `game.decision`,
`game.decider`, `game.legal_actions()` and `game.random_action(rnd)`, the answers by index
(`game.action_count()`, `game.action_at(i)`, `game.random_index(rnd)`), and
`game.determinized(side, rnd)` (a copy with what the side cannot see drawn anew: the only
copy a bot may look into, with `clone()` and `heuristic(side)`; never `game.state`, or
`game.clone()` and `game.heuristic(side)` of the real game), and every bot draws its
randomness from its own `random.Random`, never from the game's dice, so bots do not change
the game's random sequence.

`sees_hidden` tells a front-end whether a bot looks at more than its side may know.
"""
from __future__ import annotations

from typing import Any

from engine.core.errors import EngineError
from engine.frontends.botbase import Bot

BOT_KINDS = ("random", "greedy", "mcts")
# the kinds that take a level after a colon (`mcts:200` playouts, `mcts:0.5s` a decision)
LEVELLED = ("mcts",)
# the kinds of decision whose answers a bot tries by index (Game.action_count): numbered
# without listing them, and few
NUMBERED = ("one", "ask")


class UndoneType:
    """Returned by a seat instead of an action when it took a decision back."""

    def __repr__(self) -> str:
        return "UNDONE"


UNDONE = UndoneType()


class RandomBot(Bot):
    """A uniformly random legal action; never one the rules mark as doing nothing now
    (`Decision.idle`) while another is legal."""

    name = "random"

    def choose(self, game: Any, side: str) -> Any:
        # the decider, not the Decision: nothing of the decision is copied to answer it
        if game.decider != side:
            raise ValueError(f"{side} has no decision to make")
        # Cheaper than listing every legal answer of a multi-choice; same distribution.
        return game.random_action(self.rnd)

    def choose_index(self, game: Any, side: str) -> int | None:
        if game.decider != side:
            raise ValueError(f"{side} has no decision to make")
        index: int | None = game.random_index(self.rnd)  # (None for a multi-choice: `choose`)
        return index


class GreedyBot(Bot):
    """Look-ahead on the pack's heuristic: tries each legal action (at most `max_actions`,
    sampled) on a copy of the game and keeps the one that leaves its side best. An option
    the rules mark as doing nothing now (`Decision.idle`) is tried only when all are.

    "Best" comes from the pack when it declares `value heuristic(s: side): int` (how well
    side s stands; a win or loss outweighs any heuristic): the pack's designer knows what a
    good position is. A turn is often several decisions in a row (a card, then how to use
    it), where the first steps change nothing yet; so while the game keeps asking the same
    side, the bot looks `depth` more of its own decisions ahead (`branch` samples each) and
    scores an action by the best position it can reach before the other side is asked,
    looking at no more than `budget` positions a decision (shared equally by the
    candidates). The defaults (2 decisions ahead, 2 samples each) are measured, not
    guessed: `python bench/greedy.py` plays them against the bot of commit a51783c (3
    ahead, 6 samples each), which they beat while trying about a fifth of the positions;
    looking 3 ahead did worse than 2 there, and 1 much worse.
    Rules may let a side go round in circles (pick up, drop, pick up...), and a bot that
    sees a loss at the end of every way out would go round for ever: once it is back in a
    position it has decided in (as its side sees it), it avoids the actions that lead back
    to one again.
    Without a heuristic, the bot plays the rest of the game out `rollouts` times
    with random moves (each capped at `max_decisions`) and scores win 1, draw or
    unfinished 1/2, loss or fault 0.

    Plays fair: it never looks at what its side cannot see. Each decision it imagines the
    hidden part of the game once per world (`worlds`, default 1): `game.determinized(side,
    rnd)` deals the other sides' hidden hands and the hidden decks anew from the cards its
    side has not seen, and reseeds the dice (engine.core.determinize). Every candidate action is
    tried in the same worlds, so they are compared on the same imagined cards and dice, and
    scored by the mean over the worlds.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, *, rollouts: int = 4, max_actions: int = 30,
                 max_decisions: int = 2000, depth: int = 2, branch: int = 2,
                 worlds: int = 1, budget: int = 600):
        super().__init__(seed)
        # (game, the positions it decided in, whether it came back to one of them)
        self._seen: tuple[Any, set[bytes], bool] = (None, set(), False)
        self.budget = budget
        self._left = budget
        self._heuristic: bool | None = None  # does the pack declare one?
        self.worlds = max(1, worlds)
        self.depth = depth
        self.branch = branch
        self.rollouts = rollouts
        self.max_actions = max_actions
        self.max_decisions = max_decisions

    def candidates(self, game: Any, limit: int | None = None) -> tuple[bool, list[Any]]:
        """(by index, the answers to try): indices (`game.action_at`) for a choice of one
        and yes/no, whose answers are numbered without listing them; else sampled actions."""
        d = game.decision
        cap = limit or self.max_actions
        if d.kind in NUMBERED:
            legal = list(range(game.action_count()))
            if d.idle:  # an option that does nothing now, only when all are
                opts, idle = d.options, d.idle
                legal = [i for i in legal if i >= len(opts) or opts[i] is None
                         or opts[i] not in idle] or legal
            if len(legal) > cap:
                legal = self.rnd.sample(legal, cap)
            return True, legal
        # multi-choices and orders can have thousands of answers: sample distinct ones
        out: list[Any] = []
        seen: set[str] = set()
        for _ in range(cap * 3):
            a = game.random_action(self.rnd)
            key = repr(a)
            if key not in seen:
                seen.add(key)
                out.append(a)
                if len(out) >= cap:
                    break
        return False, out

    def choose(self, game: Any, side: str) -> Any:
        d = game.decision
        if d is None or d.side != side:
            raise ValueError(f"{side} has no decision to make")
        by_index, pick = self._pick(game, side)
        return game.action_at(pick) if by_index else pick

    def choose_index(self, game: Any, side: str) -> int | None:
        d = game.decision
        if d is None or d.side != side:
            raise ValueError(f"{side} has no decision to make")
        return self._pick(game, side)[1] if d.kind in NUMBERED else None

    def _pick(self, game: Any, side: str) -> tuple[bool, Any]:
        """(by index, the answer chosen) for `side`'s decision in `game`."""
        by_index, cands = self.candidates(game)
        if len(cands) == 1:
            return by_index, cands[0]
        if self._seen[0] is not game:  # a new game (an id may be reused: keep the game)
            self._seen = (game, set(), False)
            self._heuristic = None
        _game, seen, circling = self._seen
        here = game.position(side)
        if here in seen and not circling:  # back where it decided before: going round
            self._seen = (game, seen, True)
            circling = True
        seen.add(here)
        worlds = [game.determinized(side, self.rnd) for _ in range(self.worlds)]
        if self._heuristic is None:  # once a game: does the pack declare one?
            self._heuristic = worlds[0].heuristic(side) is not None
        share = max(1, self.budget // (len(cands) * len(worlds)))
        best: list[Any] = []
        best_score = (False, float("-inf"))  # not returning to a position first, then value
        for i, action in enumerate(cands):
            last = i == len(cands) - 1  # the worlds are not needed after it: no copy
            score = 0.0
            returns = False
            for j, w in enumerate(worlds):
                self._left = share  # the same look-ahead for every candidate
                after = self._after(w, action, last, by_index)
                if after is None:
                    score += float("-inf") if self._heuristic else 0.0
                    continue
                if circling and j == 0 and after.decider == side:
                    returns = after.position(side) in seen
                score += self._value(after, side, self.depth)
            ranked = (not returns, score / len(worlds))
            if ranked > best_score:
                best, best_score = [action], ranked
            elif ranked == best_score:
                best.append(action)
        return by_index, self.rnd.choice(best)

    def _after(self, game: Any, action: Any, consume: bool, by_index: bool) -> Any:
        """`game` after `action` (an index, `by_index`; a copy, unless `consume`: `game` is
        not needed again), or None when the action fails (it is scored as a loss)."""
        self._left -= 1
        after = game if consume else game.clone()
        try:
            if by_index:
                after.apply_index(action)
            else:
                after.apply(action)
        except EngineError:
            return None
        return after

    def _value(self, game: Any, side: str, depth: int) -> float:
        """How good `game` (an imagined copy: this may read all of it) is for `side`,
        looking `depth` more of its own decisions ahead; `game` may be used up."""
        if self._heuristic:
            if game.over:
                w = game.result.winner
                return 0.0 if w is None else float("inf") if w == side else float("-inf")
            if depth > 0 and self._left > 0 and game.decider == side:  # look further
                by_index, cands = self.candidates(game, self.branch)
                # a decision with one answer (an `always asked` one, a window with nothing
                # to play) is no step of the look-ahead: it costs no depth
                further = depth if _single(game.decision) else depth - 1
                best = float("-inf")
                for i, a in enumerate(cands):
                    after = self._after(game, a, i == len(cands) - 1, by_index)
                    value = float("-inf") if after is None else \
                        self._value(after, side, further)
                    if value > best:
                        best = value
                return best
            return float(game.heuristic(side))
        if game.over:
            return self._score(game, side)
        total = 0.0
        for i in range(self.rollouts):
            g = game if i == self.rollouts - 1 else game.clone()
            total += self._rollout(g, side)
        return total / self.rollouts

    def _rollout(self, g: Any, side: str) -> float:
        try:
            over = g.playout(self.rnd, len(g.actions) + self.max_decisions)
        except EngineError:
            return 0.0
        return self._score(g, side) if over else 0.5

    @staticmethod
    def _score(g: Any, side: str) -> float:
        w = g.result.winner
        return 0.5 if w is None else 1.0 if w == side else 0.0


def _single(d: Any) -> bool:
    """Has the decision `d` one answer only (one option, or none but passing)?"""
    return bool(d.kind == "one" and len(d.options) + d.optional == 1)


def make_bot(spec: str, seed: int = 0, **options: Any) -> Bot:
    """A bot from its name: 'random' (`RandomBot`), 'greedy' (`GreedyBot`, which takes
    `options` such as `depth=`) or 'mcts' (`MctsBot`, engine.frontends.search), the last
    with a level after a colon: 'mcts:200' (playouts a decision) or 'mcts:0.5s' (seconds a
    decision); seeded with `seed`. ValueError, with a did-you-mean, for another name or a
    bad level. (engine.frontends.seats.make_seat seats a person too.)"""
    kind, level = split_spec(spec)
    if kind == "random":
        return RandomBot(seed)
    if kind == "greedy":
        return GreedyBot(seed, **options)
    from engine.frontends.search import make_search_bot  # (the search only when asked for)
    return make_search_bot(seed, level, **options)


def split_spec(spec: str) -> tuple[str, str | None]:
    """A bot's spec as (kind, level or None), its kind one of BOT_KINDS and its level one
    the kind takes ('mcts:200', 'mcts:0.5s'); ValueError, with a did-you-mean, else."""
    kind, colon, level = spec.strip().lower().partition(":")
    kind = kind.strip()
    if kind not in BOT_KINDS:
        raise unknown_kind("bot", spec, kind, BOT_KINDS)
    if not colon:
        return kind, None
    if kind not in LEVELLED:
        raise ValueError(f"bot '{kind}' takes no level (levels: "
                         f"{', '.join(k + ':200, ' + k + ':0.5s' for k in LEVELLED)}), "
                         f"not '{spec}'")
    from engine.frontends.search import parse_level
    parse_level(kind, level)  # a bad level is refused when the spec is read, not later
    return kind, level.strip()


def is_bot_spec(spec: Any) -> bool:
    """Is `spec` a bot's spec ('greedy', 'mcts:200' ...: split_spec accepts it)?"""
    if not isinstance(spec, str):
        return False
    try:
        split_spec(spec)
    except ValueError:
        return False
    return True


def unknown_kind(noun: str, given: str, kind: str, kinds: tuple[str, ...]) -> ValueError:
    """The error for a seat or bot name that is none of `kinds`, with a did-you-mean."""
    from engine.dsl.errors import did_you_mean
    hint = did_you_mean(kind, kinds)
    return ValueError(f"unknown {noun} '{given}' (use {', '.join(kinds)})"
                      + (f"; {hint}" if hint else ""))


def bot_seed(game_seed: int, index: int) -> int:
    """The seed of the bot in seat `index` of the game with `game_seed`."""
    return (game_seed * 1_000_003 + 7_919 * (index + 1)) & ((1 << 63) - 1)
