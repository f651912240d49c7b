"""`Game`: the object a front-end holds. Decisions, actions, views, save/load, replay, undo.

What it is made of has its own modules, whose public names are imported from here too:
engine.core.decisions (`Decision`, `Result`, the answers to a decision and their checks),
engine.core.copies (`copy_state`), engine.core.undo (the undo run and its checkpoint),
engine.core.starts (the kept starts of new games)."""
from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.core import saves  # the save format, its checks and verification
from engine.core.copies import copy_state, snapshot
from engine.core.decisions import (
    Decision,
    Result,
    answer_at,
    answer_count,
    check_addressee,
    is_option,
    legal_answers,
    random_answer,
    random_index,
    validated,
)
from engine.core.errors import ChanceNeeded, EngineFault, IllegalAction, NotPlayable, SaveError
from engine.core.limits import Limits
from engine.core.playouts import generators, play_on
from engine.core.runtime import Runtime
from engine.core.starts import record_draws, starts_of, stop_recording
from engine.core.undo import Checkpoint, UndoEntry, UndoRun, restore
from engine.i18n import lazy_tr

if TYPE_CHECKING:
    from engine.core.packdata import PackData
    from engine.core.views import Kept

__all__ = ["CHECKPOINT_EVERY", "SAVE_FORMAT", "Decision", "Game", "Result", "copy_state",
           "replay", "replay_actions", "replayed", "require_playable"]

SAVE_FORMAT = saves.SAVE_FORMAT
# Actions between two undo checkpoints at most (see engine.core.undo): undo answers up to
# this many again, plus the run's own.
CHECKPOINT_EVERY = 32


class Game:
    """A game of a pack: its state (held by its runtime, `rt`), the seed and the actions
    that replay it, and the decisions its deciding side may take back."""

    def __init__(self, pack: PackData, state: dict[str, Any], seed: int, actions: list[Any],
                 log: bool = True, undo: bool = True, limits: Limits | None = None) -> None:
        self.pack = pack
        self.seed = seed
        self.actions = actions
        self.rt = Runtime(pack, state, log=log, limits=limits)
        self.undo_enabled = undo
        self._undo = UndoRun()  # what undo takes back, and the checkpoint it starts from
        # the log's JSON so far, for the next save (made by the first: most games never save)
        self._log_text: saves.LogText | None = None
        # (the state's decision, the Decision made of it): front-ends and bots read
        # `decision` several times per decision
        self._decision: tuple[dict[str, Any], Decision] | None = None
        # (the state's decision, its legal answers): a multi-choice's answers by index
        self._listed: tuple[dict[str, Any], list[Any]] | None = None

    # ---- creation -------------------------------------------------------------------------
    @classmethod
    def new(cls, pack: PackData, seed: int = 0, *, log: bool = True, undo: bool = True,
            limits: Limits | None = None, chance: list[int] | None = None) -> Game:
        """A new game, run up to its first decision. `chance` (a list, maybe empty) makes
        the host supply the game's chance: every random number (a die, each step of a
        shuffle, a random pick) is the next of these outcomes instead of the seed's, each
        a whole number 0..n-1 of n equally likely ones; when none is left, ChanceNeeded(n)
        is raised and no game is made. Outcomes not drawn wait for later draws;
        `apply(..., chance=...)` supplies more. The outcomes drawn are recorded in the
        state ("chance"), so a save replays them."""
        if type(seed) is not int:  # a save writes it, a replay reads it: a whole number
            raise ValueError(f"a game's seed is a whole number, not {seed!r}")
        require_playable(pack)
        starts = starts_of(pack, log) if chance is None and limits is None else None
        if starts is not None:
            got = starts.find(seed)
            if got is not None:
                state, state_rng = got
                state["rng"] = state_rng
                game = cls(pack, state, seed, [], log=log, undo=undo)
                game._undo.checkpoint = (None, 0, len(state["log"]))  # the start (see undo)
                return game
        state = Runtime.initial_state(pack, seed)
        if chance is not None:
            state["chance"] = []
        game = cls(pack, state, seed, [], log=log, undo=undo, limits=limits)
        rt = game.rt
        if chance is not None:
            rt.chance = _supply(chance)
        drawn = record_draws(rt) if starts is not None and starts.open else None
        try:
            rt.setup()
            rt.run()
        except EngineFault as err:
            game._locate(err)
            raise
        finally:
            stop_recording(rt)
        if starts is not None and drawn is not None:
            starts.keep_state(drawn, rt.s)
        game._undo.checkpoint = (None, 0, len(state["log"]))  # the start (see undo)
        return game

    @property
    def host_chance(self) -> bool:
        """Does the host supply this game's chance (`Game.new(..., chance=...)`)?"""
        return self.rt.chance is not None

    def supply_chance(self) -> None:
        """From now on the host supplies this game's chance, as if made with
        `Game.new(..., chance=[])`: for a copy that is no replay of its seed anyway, such as
        a determinized world a search plays on with its own chance nodes."""
        if self.rt.chance is None:
            self.rt.s["chance"] = []
            self.rt.chance = []
            checkpoint = self._undo.checkpoint
            if checkpoint is not None and checkpoint[0] is None:
                # a new game of the seed no longer rebuilds the start: undo stops here
                self._undo.stop()

    # ---- reading --------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The whole state (hidden parts included): for hosts, tests and saves, not players."""
        return self.rt.s

    @property
    def decision(self) -> Decision | None:
        """What the game waits for (a `Decision`; its JSON in a view is engine.core.api's
        `Decision`), or None when it is over."""
        d = self.rt.s["decision"]
        if d is None:
            return None
        made = self._decision
        if made is not None and made[0] is d:  # asked again for the same decision: kept
            return made[1]
        got = Decision.of(d)
        self._decision = (d, got)  # (the state's decision held, so `is` cannot mistake it)
        return got

    @property
    def limits(self) -> Limits:
        """The step budget and size caps rules run under (see engine.core.limits)."""
        return self.rt.limits

    @limits.setter
    def limits(self, value: Limits) -> None:
        self.rt.limits = value

    @property
    def result(self) -> Result | None:
        """How the game ended (`Result(winner, reason)`; winner None: a draw), or None while
        it runs."""
        r = self.rt.s["result"]
        return None if r is None else Result(r["winner"], r["reason"])

    @property
    def over(self) -> bool:
        """Has the game ended?"""
        return self.rt.s["result"] is not None

    @property
    def log(self) -> list[dict[str, Any]]:
        """The full event log (hidden parts included). Players get `view(side)["log"]`."""
        log: list[dict[str, Any]] = self.rt.s["log"]
        return log

    def var(self, name: str, *args: Any) -> Any:
        """The value of var `name` at the indices `args` (hidden ones included)."""
        return self.rt.v[name]["|".join(str(a) for a in args)]

    def zone(self, name: str, *args: Any) -> list[Any]:
        """The contents of zone `name` at the indices `args` (hidden ones included)."""
        return list(self.rt.z["|".join([name, *map(str, args)])])

    def value(self, name: str, *args: Any, **kwargs: Any) -> Any:
        """The pack's `value NAME(args)` on the game as it stands (hidden parts included,
        as `var`: for statistics over finished or running games, not for a side's bot).
        Arguments as `pack.call_value` takes them (records and sides by id). An unknown name
        raises KeyError, wrong arguments TypeError, a rule that fails EngineFault."""
        from engine.core.values import value_call
        fn, bound = value_call(self.pack, self.rt, name, args, kwargs)
        return self.rt.call_rule(fn, *bound)

    # ---- actions --------------------------------------------------------------------------
    def legal_actions(self) -> list[Any]:
        """Every legal answer to the decision (engine.core.api `Action`s; for `order` at most
        5040 orders), [] when the game is over. Listing them never runs an effect."""
        d = self.rt.s["decision"]
        return [] if d is None else legal_answers(d, self.rt.check_require)

    def random_action(self, rnd: random.Random) -> Any:
        """A uniformly random legal action, cheaper than listing them all; an option that
        does nothing now (`Decision.idle`) only when every legal action is one."""
        d = self.rt.s["decision"]
        if d is None:
            raise IllegalAction(lazy_tr("the game is not waiting for a decision"),
                                "no-decision")
        return random_answer(d, rnd, self.rt.check_require)

    def playout(self, rnd: random.Random | Mapping[str, random.Random],
                max_decisions: int | None = None) -> bool:
        """Play on, each decision answered with `random_action(rnd)` (`rnd`: one generator
        for every side, or side -> its own, as each side's random bot draws), until the
        game is over (True) or has `max_decisions` actions in all (False). The same game as
        `while not game.over: game.apply(game.random_action(rnd))`, faster: the answers are
        options, so nothing checks them, and the rules run on from one decision to the next
        without returning. A failure is raised as `apply` raises it, the game as it was
        before the answer that failed."""
        limit = sys.maxsize if max_decisions is None else max_decisions
        single, by_side = generators(rnd, self.pack.sides)
        rt = self.rt
        s = rt.s
        if self.undo_enabled or rt.chance is not None:
            # undo watches every answer, and the host's chance may run out: one by one
            while s["decision"] is not None and len(self.actions) < limit:
                self.apply(self.random_action(by_side[s["decision"]["side"]] if single is None
                                              else single))
            return s["result"] is not None
        return play_on(rt, self.actions, limit, single, by_side, self._failed_playout)

    def _failed_playout(self, err: BaseException, log_length: int) -> None:
        """Put the game back as it was before the playout's answer that failed with `err`
        (the log then `log_length` long)."""
        if isinstance(err, EngineFault):
            self._locate(err)  # (with the actions up to the failed one)
        self._roll_back(log_length, [], self._undo.checkpoint)

    def validate(self, action: Any, side: str | None = None,
                 decision: int | None = None) -> Any:
        """The action in canonical form, or IllegalAction; never changes the game.

        `side` is who answers and `decision` the id of the decision answered: front-ends give
        both, so a late click or another side's message is refused instead of applied. A
        message lists the options only when it goes to the decider (`side` given and
        deciding); otherwise it gives their count, so a wrong guess shows no hidden hand."""
        d = self._waiting()
        if side is not None or decision is not None:
            check_addressee(d, side, decision, self.pack)
        return validated(d, action, side is not None, self.rt.check_require)

    def apply(self, action: Any, side: str | None = None, decision: int | None = None, *,
              chance: list[int] | None = None) -> None:
        """Answer the current decision (see `validate` for `side` and `decision`). An
        illegal action raises IllegalAction and changes nothing; so does a rule that fails
        while the answer runs (EngineFault): the game is exactly as before the call.
        `chance`: in a game whose chance the host supplies (`Game.new`), more outcomes for
        the random numbers drawn from now on, in order (those not drawn wait for later
        draws); one too few raises ChanceNeeded(n), changes nothing either and leaves no
        outcome waiting."""
        d = self.rt.s["decision"]
        # An option itself, as `random_action` and `legal_actions` give them (the very
        # object), is valid as it is: bots and simulations skip the checks of `validate`.
        if side is not None or decision is not None or d is None or d["kind"] != "one" \
                or not is_option(d["options"], action):
            action = self.validate(action, side, decision)
        self._answer(action, chance)

    # ---- answers by index: the fast path of bots and simulations ---------------------------
    def action_count(self) -> int:
        """How many answers `apply_index` numbers for the decision (0 when the game is
        over): for a choice of one, its options, then None (pass) when it is optional; for
        yes/no, True then False; for an order, every order of its options (n!, numbered as
        itertools.permutations orders their positions); for a multi-choice, its legal
        choices as `legal_actions` lists them (at most MAX_ENUMERATION of
        engine.core.runtime, listed once a decision, which runs its condition on every
        subset: `random_index` draws without listing them). The answer numbered i is
        `legal_actions()[i]` wherever that lists it."""
        d = self.rt.s["decision"]
        return 0 if d is None else answer_count(d, self._listing)

    def action_at(self, index: int) -> Any:
        """The answer numbered `index` (see `action_count`), the action `apply_index(index)`
        answers with; IllegalAction for an index that numbers none, or when the game waits
        for no decision. Never changes the game."""
        d = self._waiting()
        return answer_at(d, index, self._listing)

    def apply_index(self, index: int, side: str | None = None, decision: int | None = None,
                    *, chance: list[int] | None = None) -> None:
        """`apply(action_at(index), side, decision, chance=chance)`, without making the
        `Decision` or checking the answer again: how bots and simulations answer. A bad
        index raises IllegalAction and changes nothing, as a bad action does for `apply`;
        the action saved, logged and undone is the answer itself, as `apply` keeps it."""
        d = self.rt.s["decision"]
        if side is None and decision is None and d is not None and d["kind"] == "one" \
                and type(index) is int and 0 <= index < len(d["options"]):
            self._answer(d["options"][index], chance)  # (the commonest answer, inline)
            return
        d = self._waiting()
        if side is not None or decision is not None:
            check_addressee(d, side, decision, self.pack)
        self._answer(answer_at(d, index, self._listing), chance)

    def random_index(self, rnd: random.Random) -> int | None:
        """The index of the answer `random_action(rnd)` would give, drawn with the very same
        numbers from `rnd` (so a bot may switch to it and play the same games); None, drawing
        nothing, for a multi-choice, whose answers are numbered only by listing them all
        (`action_count`): draw its answer with `random_action`."""
        return random_index(self._waiting(), rnd)

    def _waiting(self) -> dict[str, Any]:
        """The state's decision, or IllegalAction when the game waits for none."""
        d: dict[str, Any] | None = self.rt.s["decision"]
        if d is None:
            raise IllegalAction(lazy_tr("the game is not waiting for a decision (it is over)")
                                if self.over else
                                lazy_tr("the game is not waiting for a decision"),
                                "no-decision")
        return d

    def _listing(self) -> list[Any]:
        """The legal answers of the decision, listed once a decision (a multi-choice's
        answers by index)."""
        d = self.rt.s["decision"]
        listed = self._listed
        if listed is None or listed[0] is not d:
            listed = self._listed = (d, legal_answers(d, self.rt.check_require))
        return listed[1]

    def _answer(self, action: Any, chance: list[int] | None) -> None:
        """Answer the decision with `action`, a legal answer in canonical form (`apply`)."""
        rt = self.rt
        s = rt.s
        d = s["decision"]
        if chance is not None:
            if rt.chance is None:
                raise ValueError("chance outcomes were given to a game that draws its own "
                                 "(only a game made with Game.new(..., chance=...) takes them)")
            rt.chance[:0] = _supply(chance)  # the queue is kept last-first
        decider = d["side"]
        undo = self._undo
        entries = undo.entries
        entries_before = entries[:] if entries else []
        checkpoint_before = undo.checkpoint
        log_length = len(s["log"])
        watched = self.undo_enabled
        if watched:
            if entries and entries[-1][0] != decider:
                entries.clear()  # another player decided since: no undo across them
            n = len(self.actions)
            if not entries and (checkpoint_before is None
                                or n - checkpoint_before[1] >= CHECKPOINT_EVERY):
                undo.checkpoint = (snapshot(s, self.pack), n, log_length)
            entries.append((decider, n, log_length))  # (inline: apply is the hot path)
            rt.watch(decider)
        self.actions.append(action)
        try:
            rt.answer(action)
        except BaseException as err:
            if isinstance(err, EngineFault):
                self._locate(err)  # (with the actions up to this one, before rolling back)
            rt.unwatch()
            self._roll_back(log_length, entries_before, checkpoint_before)
            raise
        if watched:
            hit = rt.barrier_hit
            rt.unwatch()
            nxt = s["decision"]
            # Undo ends at dice, draws, reveals, reads of what `decider` cannot see, and as
            # soon as another side is asked anything (it has seen the move).
            if hit or nxt is None or nxt["side"] != decider:
                entries.clear()

    def _roll_back(self, log_length: int, entries_before: list[UndoEntry],
                   checkpoint_before: Checkpoint | None) -> None:
        """Put the game back as it was before a failed `apply`: rebuilt from the undo run
        when there is one, else replayed from the seed and the earlier actions (exact, and
        free until a fault happens). The log only grows, so it is cut back to its length;
        replay runs without it, since logging changes nothing else in the state."""
        if self.undo_enabled:
            self._rewind(len(self._undo.entries) - 1)
            self.actions.pop()
        else:
            self.actions.pop()
            before = replay(self.pack, self.seed, self.actions, log=False,
                            limits=self.limits, chance=self.rt.s.get("chance")).rt.s
            restore(self.rt, before, log_length)
        self._undo.entries[:] = entries_before
        self._undo.checkpoint = checkpoint_before
        self.rt.barrier_hit = False

    def _rewind(self, k: int) -> None:
        """Back to the state before the undo run's entry k (see UndoRun.rewind)."""
        self._undo.rewind(k, self.rt, self.actions, self.pack, self._start_state)

    def _start_state(self) -> dict[str, Any]:
        """The game's start again: a new game of its seed (and supplied chance)."""
        limits = None if self.limits is self.pack.limits else self.limits  # (kept starts)
        state: dict[str, Any] = Game.new(self.pack, self.seed, log=False, undo=False,
                                         limits=limits, chance=self.rt.s.get("chance")).rt.s
        return state

    def _locate(self, err: EngineFault) -> None:
        """Tell a fault what replays it: the pack, the seed and the actions so far."""
        err.pack, err.pack_hash, err.seed = self.pack.id, self.pack.hash, self.seed
        err.actions = list(self.actions)

    # ---- undo -----------------------------------------------------------------------------
    def can_undo(self, side: str) -> bool:
        """May `side` take back its last decision now (see `undo`)?"""
        return self._undo.can_undo(side)

    def undo(self, side: str) -> None:
        """Take back `side`'s last decision. Refused across a die roll, a draw or reveal of
        hidden cards, and another player's decision."""
        if not self.can_undo(side):
            raise IllegalAction(lazy_tr("{side} has nothing to undo (undo stops at dice, "
                                        "draws, reveals and the other side's decisions)",
                                        side=side), "undo")
        entries = self._undo.entries
        self._rewind(len(entries) - 1)
        del self.actions[entries.pop()[1]:]

    # ---- views ----------------------------------------------------------------------------
    # per side, what its views keep between them (its log, its zones, vars and fields as
    # they show them): made by its first view
    _kept_views: dict[str | None, Kept] | None = None

    def view(self, side: str | None, lang: str | None = None) -> dict[str, Any]:
        """What `side` may see (None: a spectator), as plain JSON-ready data: the format is
        engine.core.api.View (docs/api.md). With `lang`, a `names` map gives every id in it its
        name in that language (`pack.name_of`)."""
        kept = self._kept_views
        if kept is None:
            kept = self._kept_views = {}
        view: dict[str, Any] = (_views or _import_views()).player_view(self, side, lang, kept)
        return view

    def position(self, side: str) -> bytes:
        """What `side` sees now, without the log, the counters and the decision's id, as
        bytes: equal for two positions that look the same to `side` (bots remember
        positions with it; much cheaper than `view`)."""
        key: bytes = (_views or _import_views()).position_key(self, side)
        return key

    @property
    def decider(self) -> str | None:
        """The side the game waits for, None when it is over (`decision.side`, cheaper)."""
        d = self.rt.s["decision"]
        return None if d is None else d["side"]

    def heuristic(self, side: str) -> float | None:
        """How well `side` stands now by the value the pack names in pack.yaml `heuristic:`
        (its designer's idea of a good position), or None when it names none. It reads
        the whole state: bots call it on determinized copies (`determinized`) only."""
        return self._evaluate(self.pack.heuristic, side)

    def search_heuristic(self, side: str) -> float | None:
        """How well `side` stands now by the value the search bot scores with (pack.yaml
        `search_heuristic:`, else `heuristic:`), or None when the pack names neither. Like
        `heuristic`, it reads the whole state: for determinized copies only."""
        return self._evaluate(self.pack.search_heuristic, side)

    def _evaluate(self, name: str | None, side: str) -> float | None:
        """The pack's `value NAME(s: side): int` for `side`, None for no name."""
        return None if name is None else self.rt.call_rule(self.pack.ns["VALUES"][name], side)

    # ---- save / load / replay / clone -------------------------------------------------------
    def load_dice(self, values: list[int]) -> None:
        """The next dice rolled show these values, in order (then the seeded dice go on): to
        play a rulebook's worked example, whose rolls are given. A game whose dice were
        loaded is no replay of its seed and actions, so it cannot be saved."""
        if not all(type(v) is int and v >= 1 for v in values):
            raise ValueError(f"loaded dice are whole numbers from 1 up, not {values!r}")
        self.rt.s["dice"] = self.rt.s.get("dice", []) + list(values)
        self._undo.stop()  # undo stops at dice: no answer again could go past them

    def _refuse_loaded_dice(self) -> None:
        """SaveError for a game whose dice were loaded: its save would not replay."""
        if "dice" in self.rt.s:
            raise SaveError("this game's dice were loaded (Game.load_dice): it is no replay "
                            "of its seed and actions, and cannot be saved")

    def to_data(self) -> dict[str, Any]:
        """The save as plain data (see engine.core.saves): the seed and actions, which replay the
        game, the state, which loads it at once, whether the log was on, and a digest."""
        self._refuse_loaded_dice()
        return saves.save_data(self.pack, self.seed, self.rt.logging, self.actions, self.rt.s)

    def save(self) -> str:
        """The save as JSON text: `to_data()` written canonically (sorted keys, no spaces)."""
        self._refuse_loaded_dice()
        if self._log_text is None:
            self._log_text = saves.LogText()
        return saves.save_text(self.pack, self.seed, self.rt.logging, self.actions, self.rt.s,
                               self._log_text)

    @classmethod
    def load(cls, pack: PackData, text: str, *, log: bool = True, undo: bool = True,
             verify: str = "replay", limits: Limits | None = None) -> Game:
        """The game saved in `text`, exactly as it was saved, or SaveError saying what is
        wrong and where. verify="replay" replays the save's actions from its seed and
        requires the very state saved; verify="digest" (storage you trust: no replay) checks
        the schema and the save's digest only. A `log` other than the save's replays the
        game once more, to have (or drop) the whole log. A save whose rules were compiled
        otherwise (another engine version: its `code` is not the pack's `code_hash`) is
        replayed in either mode, its waiting rules taken from the replay: they are places
        in the code that wrote them."""
        saves.check_verify_mode(verify)
        require_playable(pack)
        save = saves.read_save(pack, text) if verify == "replay" else \
            saves.read_digested(pack, text)
        seed, actions, saved_log = save.file.seed, save.data["actions"], save.file.log
        if verify == "replay" or not saves.frames_hold(pack, save.file):
            game = replayed(pack, save, limits)
        else:
            game = cls(pack, save.state, seed, list(actions), log=saved_log, limits=limits)
        if log != saved_log:
            game = replay_actions(pack, seed, actions, log=log, limits=limits,
                                  chance=save.file.state.chance)
        game.undo_enabled = undo
        return game

    def clone(self) -> Game:
        """An independent copy: the same state, actions, log setting and undo run; changing
        either game leaves the other as it was. The log's entries are shared, not copied
        (an entry never changes once written; each game's log is its own list)."""
        state = copy_state(self.rt.s, self.pack, log=False)
        state["log"] = list(self.rt.s["log"])
        g = Game(self.pack, state, self.seed, list(self.actions), log=self.rt.logging,
                 undo=self.undo_enabled, limits=self.limits)
        g._undo = self._undo.copy()
        return g

    def determinized(self, side: str, rng: random.Random) -> Game:
        """A copy as `side` might imagine it: what `side` cannot see (other sides' hidden
        hands, hidden decks, future dice) drawn again from `rng`, what it sees and the cards
        revealed to it unchanged. For bots that play fair; see engine.core.determinize."""
        from engine.core.determinize import redraw
        if side not in self.pack.side_set:
            raise ValueError(f"unknown side {side!r}; sides are {', '.join(self.pack.sides)}")
        state = copy_state(self.rt.s, self.pack, log=False)
        state["log"] = []
        state.pop("dice", None)
        state.pop("chance", None)  # a host's outcomes would tell the hidden cards: seeded from rng
        state["rng"] = rng.getrandbits(64)
        world = Game(self.pack, state, self.seed, list(self.actions), log=False, undo=False,
                     limits=self.limits)
        redraw(world, side, rng)
        return world

    def check_invariants(self) -> list[str]:
        """Messages of the pack's `invariant` declarations that do not hold now."""
        from engine.core.views import failed_invariants
        return failed_invariants(self)



# engine.core.views, imported at the first view (it brings cattrs, which a game that shows
# no view need not load); kept here since an import in `view` costs a view 3-4%
_views: Any = None


def _import_views() -> Any:
    global _views
    import engine.core.views as views
    _views = views
    return views


def _supply(outcomes: Any) -> list[int]:
    """Supplied chance outcomes as the runtime takes them: last one first (it pops)."""
    if not isinstance(outcomes, (list, tuple)):
        raise ValueError(f"chance outcomes are a list of whole numbers, not {outcomes!r}")
    return list(reversed(outcomes))



def require_playable(pack: PackData) -> None:
    """A data pack (`playable: false`) has no rules to play: no game is made from it
    (`NotPlayable`)."""
    if not pack.model.playable:
        raise NotPlayable(pack.id)


def replay(pack: PackData, seed: int, actions: list[Any], *, log: bool = True,
           limits: Limits | None = None, chance: list[int] | None = None) -> Game:
    """Play `actions` from a new game with `seed`; exact, since all randomness is seeded,
    or, for a game whose chance the host supplied, taken from `chance`: the outcomes it
    used, in order (its state's "chance" record)."""
    game = Game.new(pack, seed, log=log, undo=False, limits=limits, chance=chance)
    for a in actions:
        game.apply(a)
    return game


def replay_actions(pack: PackData, seed: int, actions: list[Any], *, log: bool,
                   limits: Limits | None = None, chance: list[int] | None = None) -> Game:
    """A new game with `seed` (and the host's chance outcomes, if it supplied them) played
    through `actions` (`replay`, with a located SaveError when an action is refused or a
    rule fails)."""
    try:
        game = Game.new(pack, seed, log=log, undo=False, limits=limits, chance=chance)
    except (EngineFault, ChanceNeeded) as err:
        raise SaveError(f"seed: replaying this save fails at the start: {err}") from None
    for i, action in enumerate(actions):
        try:
            game.apply(action)
        except (IllegalAction, EngineFault, ChanceNeeded) as err:
            raise SaveError(f"actions[{i}]: the saved actions do not replay from the seed: "
                            f"action {i + 1} of {len(actions)} fails ({err})") from None
    return game


def replayed(pack: PackData, save: saves.Save, limits: Limits | None = None) -> Game:
    """The game the save's actions lead to, which must be exactly the saved state
    (saves.check_replayed)."""
    f = save.file
    game = replay_actions(pack, f.seed, save.data["actions"], log=f.log, limits=limits,
                          chance=f.state.chance)
    saves.check_replayed(pack, save, game)
    return game
