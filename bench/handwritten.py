"""Hand-written Python references for the bench packs (bench/packs/): the same rules, played
the way bench/run.py plays the packs (game i with seed i, one `random.Random(0)` choosing
every move, a decision with one option answered without asking), so each game comes out
the same. `bench/run.py --compare` prints the packs' speed against these.

Run: python bench/handwritten.py [GAMES]  (checks that the results agree; asserts nothing)
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.rng import below, seed_state  # noqa: E402  (the games' own seeded dice)

class TicTacToe:
    """bench/packs/tictactoe: x and o take turns marking a free cell (c1..c9); three in one of
    the eight lines of board.yaml wins; nine marks and no line: a draw."""

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


GAMES: dict[str, type] = {"tictactoe": TicTacToe, "kuhn": Kuhn}


def play(name: str, seed: int, rnd: random.Random) -> str | None:
    """One game, each move a uniformly random option (one option: taken without asking)."""
    game = GAMES[name](seed)
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
    """Do the pack and the hand-written game give the same winner for seeds 0..games-1?"""
    from engine.loader import load_pack
    pack = load_pack(ROOT / "bench" / "packs" / name)
    ours, theirs = random.Random(0), random.Random(0)
    for seed in range(games):
        game = pack.new_game(seed=seed, log=False, undo=False)
        while not game.over:
            game.apply(game.random_action(ours))
        if game.result.winner != play(name, seed, theirs):
            return False
    return True


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    for name in GAMES:
        print(f"{name}: the same results as the pack in {games} games: "
              f"{'yes' if same_results(name, games) else 'NO'}")


if __name__ == "__main__":
    main()
