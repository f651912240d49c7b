"""Hand-written Python references for the bench packs (bench/packs/): the same rules, played
the way bench/run.py plays the packs (game i with seed i, one `random.Random(0)` choosing
every move as `Game.random_action` does, a decision with one option answered without
asking), so each game comes out the same: the same winner after the same number of asked
decisions. `bench/run.py --compare` prints the packs' speed against these.

Run: python bench/handwritten.py [GAMES]  (checks that the results agree; asserts nothing)
"""
from __future__ import annotations

import random
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core.rng import below, seed_state  # noqa: E402  (the games' own seeded dice)


class TicTacToe:
    """bench/packs/tictactoe: x and o take turns marking a free cell (c1..c9); three in one of
    the eight lines of board.yaml wins; nine marks and no line: a draw."""

    kind = "one"  # every decision: one of the options (play() takes a shorter way)

    LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
             (2, 4, 6))

    def __init__(self, seed: int):
        self.mark: list[str | None] = [None] * 9
        self.active = "x"
        self.over = False
        self.winner: str | None = None

    def options(self) -> list[int]:
        return [c for c in range(9) if self.mark[c] is None]

    def apply(self, c: int) -> None:
        s = self.active
        self.mark[c] = s
        if any(self.mark[a] == self.mark[b] == self.mark[d] == s for a, b, d in self.LINES):
            self.over, self.winner = True, s
        elif None not in self.mark:
            self.over = True
        self.active = "o" if s == "x" else "x"


class Kuhn:
    """bench/packs/kuhn: jack, queen and king shuffled with the game's own dice, one card
    each, one chip ante; first passes or bets, and so on (the pack's rules.rules)."""

    kind = "one"

    def __init__(self, seed: int):
        deck = [1, 2, 3]  # ranks, in the order the cards are put in the deck
        state = seed_state(seed)
        for i in range(len(deck) - 1, 0, -1):
            state, j = below(state, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        self.showdown = "first" if deck[0] > deck[1] else "second"
        self.history: list[str] = []
        self.over = False
        self.winner: str | None = None

    def options(self) -> list[str]:
        return ["fold", "call"] if self.history[-1:] == ["bet"] else ["pass", "bet"]

    def apply(self, a: str) -> None:
        h = self.history
        h.append(a)
        if a == "fold":  # the one who bet wins
            self.over, self.winner = True, "first" if len(h) == 2 else "second"
        elif a == "call" or h == ["pass", "pass"]:
            self.over, self.winner = True, self.showdown


class Card:
    """A card of bench/packs/ap_battle/cards.yaml (the numbers are read from there)."""

    __slots__ = ("id", "start", "to", "march", "c_inf", "r_inf", "r_cav")

    def __init__(self, id: str, start: str, to: str, r_inf: int, r_cav: int, march: int = 0,
                 c_inf: int = 0):
        self.id, self.start, self.to, self.march, self.c_inf = id, start, to, march, c_inf
        self.r_inf, self.r_cav = r_inf, r_cav


class Leg:
    """A leg of bench/packs/ap_battle/legs.yaml."""

    __slots__ = ("id", "days", "draws", "acts", "capital")

    def __init__(self, id: str, days: int, draws: int, acts: int, capital: bool = False,
                 **_provenance: str):
        self.id, self.days, self.draws, self.acts = id, days, draws, acts
        self.capital = capital


class _Over(Exception):
    """The game ends, with this winner (the pack's `win`, from any depth of its rules)."""


class ApBattle:
    """bench/packs/ap_battle, the march on Rome (a slice of Ante Portas; its rules.rules
    says what each step follows in seed 000): the rules run as a generator that yields each
    decision (kind, options, count) and is sent the answer."""

    kind = "varies"  # each decision's kind: one, optional, ask or many (self.kind)
    PACK = ROOT / "bench" / "packs" / "ap_battle"
    CARDS: list[Card] = []
    LEGS: list[Leg] = []
    HALF_HAND, HALF_INFANTRY, HALF_CAVALRY = 4, 10000, 1500
    FREE_INFANTRY, FREE_CAVALRY, HAND_LIMIT, SIEGE_HAND = 3000, 400, 4, 5

    def __init__(self, seed: int):
        if not self.CARDS:
            self.load()
        self.over = False
        self.winner: str | None = None
        self._rules = self._play(seed)
        self.kind, self.opts, self.k = next(self._rules)

    @classmethod
    def load(cls) -> None:
        cls.CARDS[:] = [Card(**c) for c in yaml.safe_load(
            (cls.PACK / "cards.yaml").read_text(encoding="utf-8"))["card"]]
        cls.LEGS[:] = [Leg(**x) for x in yaml.safe_load(
            (cls.PACK / "legs.yaml").read_text(encoding="utf-8"))["leg"]]

    def options(self) -> list[Any]:
        return self.opts

    def apply(self, answer: Any) -> None:
        try:
            self.kind, self.opts, self.k = self._rules.send(answer)
        except _Over as over:
            self.over, self.winner = True, over.args[0]

    def _play(self, seed: int) -> Generator[tuple[str, Any, int], Any, None]:
        hand_c: list[Card] = []
        hand_r: list[Card] = []
        deck_c: list[Card] = []
        deck_r: list[Card] = []
        marched: list[Card] = []
        army: list[Card] = []
        for c in self.CARDS:
            (hand_r if c.start == "rome" else hand_c if c.start == "carthage"
             else deck_c).append(c)
        state = seed_state(seed)
        for i in range(len(deck_c) - 1, 0, -1):
            state, j = below(state, i + 1)
            deck_c[i], deck_c[j] = deck_c[j], deck_c[i]

        def dispose(c: Card) -> None:
            if c.to != "out":
                deck_c.append(c)

        def rome_discard(limit: int) -> Generator[tuple[str, Any, int], Any, None]:
            k = len(hand_r) - limit
            if k > 0:
                for c in (yield "many", list(hand_r), k):
                    hand_r.remove(c)
                    dispose(c)

        for leg in self.LEGS:
            hand_c += deck_c[:1]
            del deck_c[:1]
            hand_r += deck_r[:leg.draws]
            del deck_r[:leg.draws]
            march = 0
            while True:
                c = yield "one", hand_c, 1
                march += c.march
                hand_c.remove(c)
                marched.append(c)
                if not hand_c:
                    raise _Over("rome")
                left = leg.acts
                while left > 0 and hand_r:
                    c = yield "optional", hand_r, 1
                    if c is None:
                        break
                    hand_r.remove(c)
                    army.append(c)
                    left -= 1
                if march >= leg.days and (yield "ask", None, 1):
                    break
            if leg.capital:
                yield from rome_discard(self.SIEGE_HAND)
                army += hand_r
                hand_r.clear()
            inf = sum(c.r_inf for c in army)
            cav = sum(c.r_cav for c in army)
            n = len(hand_c)
            need = inf + 1
            if inf <= 0 or n >= self.HALF_HAND and (inf < self.FREE_INFANTRY
                                                    or cav < self.FREE_CAVALRY):
                need = 0
            elif n >= self.HALF_HAND and (inf < self.HALF_INFANTRY or cav < self.HALF_CAVALRY):
                need = (inf + 1) // 2
            lost = 0
            while lost < need and hand_c:
                c = yield "one", hand_c, 1
                lost += c.c_inf
                hand_c.remove(c)
                deck_r.append(c)
            deck_r += marched
            marched.clear()
            for c in army:
                dispose(c)
            army.clear()
            if not hand_c:
                raise _Over("rome")
            if leg.capital:
                raise _Over("carthage")
            yield from rome_discard(self.HAND_LIMIT)


GAMES: dict[str, type] = {"tictactoe": TicTacToe, "kuhn": Kuhn, "ap_battle": ApBattle}


def drive(game: Any, rnd: random.Random) -> int:
    """Play `game` out, each answer drawn from `rnd` as `Game.random_action` draws it, a
    decision with one answer taken without asking; the number of decisions asked."""
    asked = 0
    while not game.over:
        opts = game.options()
        kind = game.kind
        if kind == "one":
            if len(opts) == 1:
                game.apply(opts[0])
                continue
            game.apply(opts[rnd.randrange(len(opts))])
        elif kind == "optional":
            i = rnd.randrange(len(opts) + 1)
            game.apply(opts[i] if i < len(opts) else None)
        elif kind == "ask":
            game.apply(rnd.random() < 0.5)
        else:  # "many": exactly game.k of the options, fewer than all
            k = rnd.randint(game.k, game.k)
            game.apply([opts[i] for i in sorted(rnd.sample(range(len(opts)), k))])
        asked += 1
    return asked


def play(name: str, seed: int, rnd: random.Random) -> str | None:
    """One game played as `drive` plays it; its winner. A game whose every decision is one
    of the options is played by a loop as short as the pack's (bench/run.py)."""
    game = GAMES[name](seed)
    if type(game).kind != "one":
        drive(game, rnd)
        return game.winner
    while not game.over:
        opts = game.options()
        game.apply(opts[0] if len(opts) == 1 else opts[rnd.randrange(len(opts))])
    return game.winner


def games_per_second(name: str, seconds: float) -> float:
    """As bench/run.py's games_per_second for a pack: game i with seed i, one Random(0),
    per second of CPU time."""
    rnd = random.Random(0)
    games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        play(name, games, rnd)
        games += 1
    return games / (time.process_time() - start)


def same_results(name: str, games: int) -> bool:
    """Do the pack and the hand-written game give the same winner after the same number of
    asked decisions, for seeds 0..games-1?"""
    from engine.core.loader import load_pack
    pack = load_pack(ROOT / "bench" / "packs" / name)
    ours, theirs = random.Random(0), random.Random(0)
    for seed in range(games):
        game = pack.new_game(seed=seed, log=False, undo=False)
        while not game.over:
            game.apply(game.random_action(ours))
        mine = GAMES[name](seed)
        asked = drive(mine, theirs)
        if (game.result.winner, len(game.actions)) != (mine.winner, asked):
            return False
    return True


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for name in GAMES:
        print(f"{name}: the same results as the pack in {games} games: "
              f"{'yes' if same_results(name, games) else 'NO'}")


if __name__ == "__main__":
    main()
