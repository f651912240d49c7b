"""The search bot: information-set Monte Carlo tree search (`MctsBot`, `make_bot("mcts")`).

Each iteration of a search imagines the game anew as the bot's side might: a copy from
`game.determinized(side, rnd)` (engine.core.determinize), in which what the side cannot see
is dealt again and the dice are reseeded. It walks the one tree of the side's decision
down that copy (single-observer ISMCTS: a node is the sequence of answers from the root,
shared by all the imagined copies), picking by UCT among the answers legal in this copy,
adds one node, plays on at random with the runtime's fast `playout` for at most `cutoff`
decisions and scores where it got to: a result as 1 (won), 0 (lost) or 1/2 (drawn), else
the pack's `search_heuristic` (pack.yaml; its `heuristic` when it names none) squashed to
0..1 around its value at the root; a pack without either is played out to its end. The
bot only ever reads the imagined copies, never the real game's state. The cut-off is
short (3 decisions): the other sides' random answers in a longer rollout drown what the
answer searched did (measured in bench/mcts.py: longer ones, random or each answer picked
by the heuristic, lost more games; none, the heuristic read straight after the new node,
lost most).

With a heuristic, a rollout's mean reward is a poor guide where a good answer needs good
answers after it: random answers after it score the average line, not the best. So each new
node is also scored where it stands, before its rollout, and a node keeps the score of the
best line found below it, each decider taking its own best child's (implicit minimax
backups: Lanctot, Winands, Pepels and Sturtevant, "Monte Carlo Tree Search with Heuristic
Evaluations using Implicit Minimax Backups", 2014). UCT then reads a weight of that score
and the rest of the mean reward: pack.yaml's `search_minimax:` (percent, default 0), since
how far a line's score can be trusted is the heuristic's, and so the pack's. Measured in
bench/mcts.py, on the shipped packs: at 0.4 one side won 74% of its games against 69% at 0
(within chance); with another pack, whose heuristic is blind to what decides its games, one
side fell from 79% to 31%.

Progressive widening keeps a decision with many answers from spreading the budget thin: a
node with n visits has at most ceil(k * n^alpha) children, a new answer tried only when
the visits allow one more. A decision with one answer (one legal option, or all but one
doing nothing now: `Decision.idle`) is taken without a search, in the real game and inside
the tree alike. The tree is kept from one decision to the next when the side is asked again
straight after its own answer (the next decision's id follows): it then knows what happened
since, its own answer, and the kept subtree is the search of that position so far.

Down the tree the answers are listed and given by number (`Game.action_count`,
`action_at`, `apply_index`: no answer made into a `Decision` option list or checked again),
but a node's children are keyed by the answer itself, since a copy dealt anew may number
another side's answers otherwise. A rollout is `Game.playout`, which draws each answer as
`random_index` does and gives it inside the runtime; a loop of `random_index` and
`apply_index` draws the same and was no faster over 3 decisions (measured on both packs).

A budget of playouts (`mcts:200`) gives the same choices for the same seed; a budget of
seconds (`mcts:0.5s`) depends on the machine.
"""
from __future__ import annotations

import math
import time
from typing import Any

import attrs

from engine.core.errors import EngineError, IllegalAction
from engine.frontends.botbase import Bot

DEFAULT_PLAYOUTS = 200


@attrs.define(eq=False, slots=True)
class Node:
    """An answer's place in the tree: how often it was tried (`visits`) and could have been
    (`avail`: it was legal in that many of the imagined copies its parent was reached in),
    the rewards summed per side, the answers tried after it, by their `repr`, the side that
    chose among them (`decider`) and, with minimax backups on, each side's reward read off
    the heuristic at the end of the best line found below (`minimax`: for a new node, where
    it stands; then its decider's best child's)."""

    action: Any = None
    visits: int = 0
    avail: int = 0
    totals: dict[str, float] = attrs.field(factory=dict)
    children: dict[str, Node] = attrs.field(factory=dict)
    decider: str | None = None
    minimax: dict[str, float] | None = None


@attrs.define(eq=False, slots=True)
class Stats:
    """What a bot's rollouts cost: counted over its life, for the benchmarks."""

    searches: int = 0
    iterations: int = 0
    rollouts: int = 0
    rollout_decisions: int = 0
    rollout_seconds: float = 0.0
    search_seconds: float = 0.0


class MctsBot(Bot):
    """A search bot (`make_bot("mcts:200")`): information-set Monte Carlo tree search on
    imagined copies of the game (`game.determinized(side, rnd)`, one per iteration: it
    never reads what its side cannot see), its rollouts cut off after `cutoff` random
    decisions and scored by the pack's `search_heuristic` (else its `heuristic`; played to
    the end without one), with progressive widening (at most ceil(`widen` * n^`alpha`)
    answers tried at a node of n visits), implicit minimax backups of the heuristic (UCT
    reads `minimax` of the best line's score and the rest of the mean reward; None: the
    pack's `search_minimax`, 0 turns them off) and UCT (`explore`); a decision with one
    answer worth giving is not searched.
    Its budget is `playouts` iterations a decision (the same choices for the same seed) or,
    when given, `seconds` a decision. `max_decisions` caps a rollout of a pack without a
    heuristic; `stats` counts what its searches cost (engine.frontends.search)."""

    name = "mcts"

    def __init__(self, seed: int = 0, *, playouts: int = DEFAULT_PLAYOUTS,
                 seconds: float | None = None, cutoff: int = 3, explore: float = 0.7,
                 widen: float = 2.0, alpha: float = 0.5, max_decisions: int = 2000,
                 minimax: float | None = None):
        super().__init__(seed)
        if playouts < 1 or (seconds is not None and not seconds > 0):
            raise ValueError("the search bot needs at least one playout and a time above 0")
        self.playouts = playouts
        self.seconds = seconds
        self.cutoff = cutoff
        self.explore = explore
        self.widen = widen
        self.alpha = alpha
        self.max_decisions = max_decisions
        self.minimax = minimax
        self._minimax = 0.0  # the weight this search gives them (the pack's, unless given)
        self.stats = Stats()
        # (the game, the id of the decision answered, the node of that answer, the root's
        # heuristic it was scored against): the tree to go on with when the same side is
        # asked next
        self._kept: tuple[Any, int, Node, dict[str, float]] | None = None
        # the heuristic's summed distance from the root's in this search, and its count
        self._spread = 0.0
        self._scored = 0

    def __repr__(self) -> str:
        budget = f"{self.seconds}s" if self.seconds is not None else str(self.playouts)
        return f"MctsBot(seed={self.seed}, budget={budget})"

    def choose(self, game: Any, side: str) -> Any:
        d = game.decision
        if d is None or d.side != side:
            raise ValueError(f"{side} has no decision to make")
        only = _only_answer(game, d)
        if only is not None:
            kept = self._kept
            # the tree has no node for an answer without a choice: the kept one goes on
            self._kept = (game, d.id, kept[2], kept[3]) if kept is not None \
                and kept[0] is game and d.id == kept[1] + 1 else None
            return only[1]
        start = time.perf_counter()
        heuristic = game.pack.search_heuristic is not None
        self._minimax = self.minimax if self.minimax is not None else game.pack.search_minimax
        sides = list(game.pack.sides)
        first = game.determinized(side, self.rnd)
        root, base = self._root(game, d.id)
        if base is None:  # a new tree: its rewards are measured from here
            base = {s: float(first.search_heuristic(s)) for s in sides} if heuristic else {}
        self._spread, self._scored = 0.0, 0
        deadline = None if self.seconds is None else start + self.seconds
        done = 0
        world = first
        while True:
            self._iterate(root, world, sides, base)
            done += 1
            if deadline is None:
                if done >= self.playouts:
                    break
            elif time.perf_counter() >= deadline:
                break
            world = game.determinized(side, self.rnd)
        self.stats.searches += 1
        self.stats.iterations += done
        self.stats.search_seconds += time.perf_counter() - start
        legal = {repr(a) for _, a in _answers(game, d) or ()}
        tried = [(key, child) for key, child in root.children.items()
                 if not legal or key in legal]
        if not tried:  # (cannot happen: the first iteration tries an answer of the root)
            return game.random_action(self.rnd)
        # the most tried answer (the robust child), its mean reward breaking a tie
        key, best = max(tried, key=lambda kc: (kc[1].visits,
                                               kc[1].totals.get(side, 0.0) / kc[1].visits))
        self._kept = (game, d.id, best, base)
        return best.action

    def _root(self, game: Any, decision_id: int) -> tuple[Node, dict[str, float] | None]:
        """The kept subtree and the heuristic its rewards are measured from, when `game`
        asks the side again right after its last answer, else a new tree and None."""
        kept, self._kept = self._kept, None
        if kept is not None and kept[0] is game and decision_id == kept[1] + 1:
            return kept[2], kept[3]
        return Node(), None

    def _iterate(self, root: Node, world: Any, sides: list[str],
                 base: dict[str, float]) -> None:
        """One iteration on the imagined copy `world` (used up): down the tree, one new
        node, a rollout, and its rewards added along the path."""
        path = [root]
        node = root
        rewards: dict[str, float] | None = None
        while not world.over:
            d = world.decision
            options = _answers(world, d)
            only = options[0] if options is not None and len(options) == 1 else \
                _only_answer(world, d, options)
            if only is not None:  # no choice: no node (as choose takes it, unsearched)
                if not _applied(world, *only):
                    rewards = _failed(d.side, sides)
                    break
                continue
            child, index, new = self._select(node, world, options)
            if child is None:  # a multi-choice with nothing drawn: play on at random
                break
            path.append(child)
            node = child
            if not _applied(world, index, child.action):
                rewards = _failed(d.side, sides)
                break
            if new:
                if self._minimax and base:
                    child.minimax = self._score(world, sides, base, counted=False)
                break
        if rewards is None:
            rewards = self._rollout(world, sides, base)
        for n in path:
            n.visits += 1
            totals = n.totals
            for s in sides:
                totals[s] = totals.get(s, 0.0) + rewards[s]
        if self._minimax and base:
            for n in reversed(path):
                _back_up(n)

    def _select(self, node: Node, world: Any, options: list[tuple[int, Any]] | None
                ) -> tuple[Node | None, int | None, bool]:
        """The child of `node` to follow in `world`, its answer's number there (None for a
        multi-choice: answered by the action) and whether it is new: a new answer while
        widening allows one more (drawn at random), else the best by UCT among those legal
        here. Children are keyed by the answer, not its number: a copy dealt anew may
        number another side's answers otherwise."""
        children = node.children
        side = node.decider = world.decider
        limit = math.ceil(self.widen * (node.visits + 1) ** self.alpha)
        index: dict[int, int | None] = {}  # id(child) -> its answer's number in this copy
        if options is None:  # too many answers to list (a multi-choice): drawn
            # those legal in this copy (another's choice among cards dealt anew may not be)
            here = [child for child in children.values() if _legal(world, child.action)]
            if len(here) < limit:
                action = world.random_action(self.rnd)
                key = repr(action)
                if key not in children:
                    child = children[key] = Node(action)
                    child.avail = 1
                    return child, None, True
        else:
            here = []
            fresh: list[tuple[str, int, Any]] = []
            for i, a in options:
                key = repr(a)
                known = children.get(key)
                if known is None:
                    fresh.append((key, i, a))
                else:
                    here.append(known)
                    index[id(known)] = i
            if len(here) < limit and fresh:
                key, i, a = fresh[self.rnd.randrange(len(fresh))]
                child = children[key] = Node(a)
                child.avail = 1
                return child, i, True
        if not here:
            return None, None, False
        for child in here:
            child.avail += 1
        c = self.explore
        m = self._minimax
        best, best_value = here[0], -1.0
        for child in here:
            if child.visits == 0:
                return child, index.get(id(child)), False
            q = child.totals.get(side, 0.0) / child.visits
            if m and child.minimax is not None:
                q = (1.0 - m) * q + m * child.minimax[side]
            value = q + c * math.sqrt(math.log(child.avail) / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best, index.get(id(best)), False

    def _rollout(self, world: Any, sides: list[str], base: dict[str, float]
                 ) -> dict[str, float]:
        """Random play from `world` for `cutoff` decisions (to the end without a
        heuristic), and each side's reward there."""
        start = time.perf_counter()
        before = len(world.actions)
        limit = self.cutoff if base else self.max_decisions
        try:
            world.playout(self.rnd, before + limit)
        except EngineError:
            pass  # the game is as before the answer that failed: scored as it stands
        stats = self.stats
        stats.rollouts += 1
        stats.rollout_decisions += len(world.actions) - before
        stats.rollout_seconds += time.perf_counter() - start
        return self._score(world, sides, base, counted=True)

    def _score(self, world: Any, sides: list[str], base: dict[str, float], *,
               counted: bool) -> dict[str, float]:
        """Each side's reward where `world` stands: its result, else its heuristic's gain
        on the root's, squashed. The scale is the mean distance from the root's value seen
        in this search, so a pack's heuristic in any unit becomes a reward that tells
        positions apart: a rollout's end is `counted` in it; a node's own reading (minimax
        backups) is not, and takes its own distance while no rollout has been scored."""
        result = world.result
        if result is not None:
            w = result.winner
            return {s: 0.5 if w is None else 1.0 if s == w else 0.0 for s in sides}
        if not base:
            return dict.fromkeys(sides, 0.5)
        gains = {s: float(world.search_heuristic(s)) - base[s] for s in sides}
        distance = sum(abs(g) for g in gains.values()) / len(gains)
        if counted:
            self._scored += 1
            self._spread += distance
        scale = max(1.0, self._spread / self._scored if self._scored else distance)
        return {s: _squash(g / scale) for s, g in gains.items()}


_UNKNOWN = object()


def _squash(x: float) -> float:
    """The logistic function of `x`, 0 where exp would overflow."""
    return 1.0 / (1.0 + math.exp(-x)) if x > -700.0 else 0.0


def _back_up(node: Node) -> None:
    """`node`'s minimax value: that of the child its decider would pick by it."""
    who = node.decider
    if who is None:
        return
    best: dict[str, float] | None = None
    for child in node.children.values():
        value = child.minimax
        if value is not None and (best is None or value[who] > best[who]):
            best = value
    if best is not None:
        node.minimax = best


def _answers(game: Any, d: Any) -> list[tuple[int, Any]] | None:
    """The answers worth searching of decision `d` of `game`, each with its number
    (`game.action_at`, `apply_index`): every legal one of a choice of one option or a
    question, without those that do nothing now unless all do; None for a multi-choice or
    an order, whose answers may be thousands (they are drawn)."""
    if d.kind not in ("one", "ask"):
        return None
    legal = [(i, game.action_at(i)) for i in range(game.action_count())]
    idle = d.idle
    if idle:
        legal = [(i, a) for i, a in legal if a is None or a not in idle] or legal
    return legal


def _only_answer(game: Any, d: Any, options: Any = _UNKNOWN) -> tuple[int | None, Any] | None:
    """The one answer of `d` (its number, None for a multi-choice's, and the answer) when
    it has only one worth giving, else None (`options`: `_answers(game, d)` when known)."""
    if options is _UNKNOWN:
        options = _answers(game, d)
    if options is not None and len(options) == 1:
        only: tuple[int, Any] = options[0]
        return only
    if options is None and d.kind == "many" and d.min == d.max == len(d.options):
        return None, list(d.options)  # every option must be picked
    return None


def _applied(world: Any, index: int | None, action: Any) -> bool:
    """Did the answer numbered `index` (or `action`, for a multi-choice's) run in `world`
    without a rule failing?"""
    try:
        if index is None:
            world.apply(action)
        else:
            world.apply_index(index)
    except EngineError:  # a rule that fails: scored as a loss for whoever chose it
        return False
    return True


def _legal(game: Any, action: Any) -> bool:
    """Is `action` an answer to `game`'s decision?"""
    try:
        game.validate(action)
    except IllegalAction:
        return False
    return True


def _failed(decider: str, sides: list[str]) -> dict[str, float]:
    """The rewards of an answer whose rules failed: a loss for the side that gave it."""
    return {s: 0.0 if s == decider else 1.0 for s in sides}


def parse_level(kind: str, level: str) -> dict[str, Any]:
    """The options of `MctsBot` that a level names: 'N' playouts or 'Xs' seconds a
    decision; ValueError for anything else."""
    text = level.strip().lower()
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if seconds > 0 and math.isfinite(seconds):
                return {"seconds": seconds}
        else:
            playouts = int(text)
            if playouts >= 1:
                return {"playouts": playouts}
    except ValueError:
        pass
    raise ValueError(f"unknown level '{level}' of bot '{kind}' (use a number of playouts, "
                     f"e.g. {kind}:200, or seconds a decision, e.g. {kind}:0.5s)")


def make_search_bot(seed: int, level: str | None, **options: Any) -> MctsBot:
    """An `MctsBot` seeded with `seed`, at `level` ('200', '0.5s' or None: the default)."""
    if level is not None:
        options = {**parse_level("mcts", level), **options}
    return MctsBot(seed, **options)

