"""What a game waits for and what answers it: `Decision` and `Result` (what `Game.decision`
and `Game.result` give), the legal answers to a decision, a random one, and the checks an
answer passes (`Game.validate`), with their messages."""
from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from engine.core.errors import EngineFault, IllegalAction
from engine.core.runtime import enumerate_many
from engine.i18n import Message, lazy_ntr, lazy_tr

if TYPE_CHECKING:
    from engine.core.packdata import PackData

# The runtime's check of a multi-choice's condition: (the state's decision, a choice) -> met?
Require = Callable[[dict[str, Any], list[Any]], bool]


@attrs.frozen
class Decision:
    """What the game waits for. An action answers it:
    kind 'one' -> one of `options` (or None when `optional`);
    kind 'many' -> a list of `min`..`max` distinct options;
    kind 'ask' -> True or False;  kind 'order' -> all options, reordered.
    `id` numbers the decisions of a game; `apply(..., decision=id)` refuses a late answer.
    `window` names the response window a 'one' decision opens (None for other decisions):
    it is asked even with no options, and None (pass) always answers it.
    `args`: the values of the prompt's placeholders `{0}`, `{1}` ... (records by id; a
    front-end shows their names), or None. `each`: for a pick of a one-at-a-time choice,
    {"picked": the items picked so far, "min": .., "max": ..} of the whole choice (the
    decision is then kind 'one', and None, when optional, means "done"), else None.
    `idle`: the options whose choice would do nothing now (the rules' `no effect when`),
    which front-ends say and bots avoid while another answer is legal; [] for none."""

    side: str
    kind: str
    options: list[Any]
    min: int
    max: int
    optional: bool = False
    prompt: str | None = None
    id: int = 0
    window: str | None = None
    args: list[Any] | None = None
    each: dict[str, Any] | None = None
    idle: list[Any] = attrs.field(factory=list)

    @classmethod
    def of(cls, d: dict[str, Any]) -> Decision:
        """The Decision of the state's decision `d` (a copy: the state's lists stay its own)."""
        each = d.get("each")
        return cls(d["side"], d["kind"], list(d["options"]), d["min"], d["max"],
                   d["optional"], d["prompt"], d["id"], d.get("window"), d.get("args"),
                   None if each is None else {**each, "picked": list(each["picked"])},
                   list(d.get("idle", ())))


@attrs.frozen
class Result:
    """How a game ended: the winner (None: a draw) and why."""

    winner: str | None
    reason: str


def is_option(options: list[Any], action: Any) -> bool:
    """Is `action` one of `options`, the very object (no copy, no equal value of another
    type: `validated` looks at those)?"""
    try:
        return options[options.index(action)] is action
    except ValueError:
        return False


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type: `True` is not the option 1, nor 1.0 the option 1."""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def find_option(options: list[Any], value: Any) -> int | None:
    """The index of the option that is `value` (see `_same`), or None."""
    try:
        i = options.index(value)  # C speed; Python's equality (True == 1) is checked below
    except ValueError:
        return None
    if _same(options[i], value):
        return i
    return next((j for j in range(i + 1, len(options)) if _same(options[j], value)), None)


def shown(value: Any, width: int = 60) -> str:
    """A front-end's own input in a message, cut short."""
    text = repr(value)
    return text if len(text) <= width else text[:width - 3] + "..."


def options_text(options: list[Any], to_decider: bool, counted: bool = True) -> Message:
    """The options for a message: listed for the decider, counted for anyone else, since
    they may be cards in the decider's hidden hand; not even counted when the count is
    itself the secret (how many cards answer a response window)."""
    if to_decider:
        # i18n: options: the list of options, as Python writes it
        return lazy_tr("the options {options}", options=repr(options))
    if not counted:  # i18n: side= is the name of an argument: keep it
        return lazy_tr("the options (give side= to see them listed)")
    return lazy_ntr("the {n} option (give side= to see it listed)",
                    "the {n} options (give side= to see them listed)", len(options))


def legal_answers(d: dict[str, Any], check_require: Require) -> list[Any]:
    """Every legal answer to the state's decision `d` (for `order` at most 5040 orders)."""
    kind, opts = d["kind"], d["options"]
    if kind == "ask":
        return [True, False]
    if kind == "one":
        return [*opts, None] if d["optional"] else list(opts)
    if kind == "many":
        return enumerate_many(d, lambda v: check_require(d, v))
    perms = itertools.islice(itertools.permutations(opts), 5040)
    return [list(p) for p in perms]


def doing_something(d: dict[str, Any]) -> list[int]:
    """The answers to the state's choice of one `d` that are not options the rules mark as
    doing nothing now (`idle`), by number as `answer_at` numbers them (its options, then
    passing when it is optional); all of them when that leaves none."""
    opts, idle = d["options"], d.get("idle")
    every = range(len(opts) + (1 if d["optional"] else 0))
    if not idle:
        return list(every)
    live = [j for j in every if j == len(opts) or opts[j] is None
            or find_option(idle, opts[j]) is None]
    return live or list(every)


def random_answer(d: dict[str, Any], rnd: random.Random, check_require: Require) -> Any:
    """A uniformly random legal answer to the state's decision `d`, cheaper than listing
    them all; never an option that does nothing now (`idle`) while another answer is legal,
    as a bot would not choose one."""
    kind, opts = d["kind"], d["options"]
    if kind == "ask":
        return rnd.random() < 0.5
    if "idle" in d:  # (only a choice of one item marks its options)
        live = doing_something(d)
        i = live[rnd.randrange(len(live))]
        return opts[i] if i < len(opts) else None
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
        if check_require(d, pick):
            return pick
    legal = legal_answers(d, check_require)
    if not legal:
        raise EngineFault("a multi-choice has no legal answer")
    return rnd.choice(legal)


def validated(d: dict[str, Any], action: Any, to_decider: bool,
              check_require: Require) -> Any:
    """`action` as the answer to the state's decision `d`, in canonical form, or
    IllegalAction. A message lists the options only `to_decider`; otherwise it gives their
    count, so a wrong guess shows no hidden hand."""
    kind, opts = d["kind"], d["options"]
    if kind == "ask":
        if not isinstance(action, bool):
            # i18n: a front-end's answer to a yes/no question; action: what it sent
            raise IllegalAction(lazy_tr("answer yes/no with true or false, not {action}",
                                        action=shown(action)), "ask")
        return action
    if kind == "one":
        if action is None and d["optional"]:
            return None
        i = None if isinstance(action, (list, tuple)) else find_option(opts, action)
        if i is None:
            # i18n: action: what was sent; options: "the options [...]" (messages below)
            raise IllegalAction(lazy_tr("{action} is not one of {options}",
                                        action=shown(action),
                                        options=options_text(opts, to_decider,
                                                             "window" not in d)), "choose")
        return opts[i]
    if not isinstance(action, (list, tuple)):
        raise IllegalAction(lazy_tr("this decision takes a list, not {action}",
                                    action=shown(action)), kind)
    remaining = list(opts)
    chosen: list[Any] = []
    for a in action:
        i = find_option(remaining, a)
        if i is None:
            raise IllegalAction(lazy_tr("{action} is not an option here (or is chosen "
                                        "twice)", action=shown(a)), kind)
        chosen.append(remaining.pop(i))
    if kind == "order":
        if remaining:
            raise IllegalAction(lazy_tr("order all of {options}",
                                        options=options_text(opts, to_decider)), "order")
        return chosen
    if not d["min"] <= len(chosen) <= d["max"]:
        # i18n: min, max: how many to choose; count: how many were chosen
        raise IllegalAction(lazy_tr("choose between {min} and {max}, not {count}",
                                    min=d["min"], max=d["max"], count=len(chosen)),
                            "count")
    if not check_require(d, chosen):
        raise IllegalAction(lazy_tr("{action} does not meet the choice's condition",
                                    action=shown(chosen)), "require")
    return chosen


def check_addressee(d: dict[str, Any], side: Any, decision: Any, pack: PackData) -> None:
    """IllegalAction unless `side` (when given) decides now and `decision` (when given)
    is the id of the decision waiting."""
    if side is not None:
        if not isinstance(side, str) or side not in pack.side_set:
            raise IllegalAction(lazy_tr("{side} is not a side of this game (sides: "
                                        "{sides})", side=shown(side),
                                        sides=", ".join(pack.sides)), "side")
        if side != d["side"]:
            # i18n: side: who decides now; other: who answered
            raise IllegalAction(lazy_tr("it is {side}'s decision, not {other}'s",
                                        side=d["side"], other=side), "side")
    if decision is not None:
        if isinstance(decision, bool) or not isinstance(decision, int):
            raise IllegalAction(lazy_tr("decision is the id of a decision (a whole "
                                        "number), not {decision}",
                                        decision=shown(decision)), "stale")
        if decision < d["id"]:
            raise IllegalAction(lazy_tr("decision {decision} was answered already; the "
                                        "game waits for decision {current}",
                                        decision=decision, current=d["id"]), "stale")
        if decision != d["id"]:
            raise IllegalAction(lazy_tr("decision {decision} has not been asked; the game "
                                        "waits for decision {current}",
                                        decision=decision, current=d["id"]), "stale")


# ---- answers by index (Game.action_count, action_at, apply_index, random_index) -----------
def answer_count(d: dict[str, Any], listed: Callable[[], list[Any]]) -> int:
    """How many answers `answer_at` numbers for the state's decision `d`; `listed` gives a
    multi-choice's legal answers (listed once a decision by the caller)."""
    kind = d["kind"]
    if kind == "one":
        return len(d["options"]) + (1 if d["optional"] else 0)
    if kind == "ask":
        return 2
    if kind == "order":
        return math.factorial(len(d["options"]))
    return len(listed())


def answer_at(d: dict[str, Any], i: Any, listed: Callable[[], list[Any]]) -> Any:
    """The answer numbered `i` to the state's decision `d` (`legal_answers(d)[i]` wherever
    that lists it), or IllegalAction for an index that numbers none."""
    n = answer_count(d, listed)
    if type(i) is not int or not 0 <= i < n:
        raise IllegalAction(lazy_ntr("{index} numbers no answer: this decision has {n} "
                                     "answer, numbered from 0",
                                     "{index} numbers no answer: this decision has {n} "
                                     "answers, numbered from 0", n, index=shown(i)), "index")
    kind, opts = d["kind"], d["options"]
    if kind == "one":
        return opts[i] if i < len(opts) else None
    if kind == "ask":
        return i == 0
    if kind == "order":
        return [opts[p] for p in _unrank(i, len(opts))]
    return list(listed()[i])  # (a copy: the answer becomes the rules' own list)


def random_index(d: dict[str, Any], rnd: random.Random) -> int | None:
    """The index of the answer `random_answer(d, rnd)` gives, drawn as it draws (the same
    numbers from `rnd`); None, drawing nothing, for a multi-choice, whose answers are
    numbered only by listing them (a condition may rule out any subset)."""
    kind, opts = d["kind"], d["options"]
    if kind == "ask":
        return 0 if rnd.random() < 0.5 else 1
    if "idle" in d:  # the answers that do something, as random_answer keeps them
        live = doing_something(d)
        return live[rnd.randrange(len(live))]
    if kind == "one":
        return rnd.randrange(len(opts) + (1 if d["optional"] else 0))
    if kind == "order":
        positions = list(range(len(opts)))
        rnd.shuffle(positions)  # (a shuffle draws by the length alone: random_answer's draws)
        return _rank(positions)
    return None


def _unrank(i: int, n: int) -> list[int]:
    """The `i`-th order of the positions 0..n-1, as itertools.permutations lists them."""
    left = list(range(n))
    out = []
    for k in range(n - 1, -1, -1):
        q, i = divmod(i, math.factorial(k))
        out.append(left.pop(q))
    return out


def _rank(order: list[int]) -> int:
    """The index of `order` (of the positions 0..n-1) among itertools.permutations' orders."""
    left = sorted(order)
    i = 0
    for j, p in enumerate(order):
        q = left.index(p)
        i += q * math.factorial(len(order) - 1 - j)
        left.pop(q)
    return i
