"""The search bot (engine.frontends.search, `make_bot("mcts")`): its levels, whole games of
the test packs and Ante Portas, that it decides on imagined copies only, that it plays
better than chance, and `--bots mcts` on the command line and the server."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from conftest import write_pack_files
from test_bots_honest import GUESS, GUESS_CARDS, peeking, red_wins

from engine.core.errors import PackError
from engine.core.loader import load_pack
from engine.frontends.bots import GreedyBot, RandomBot, is_bot_spec, make_bot, split_spec
from engine.frontends.cli import main
from engine.frontends.search import MctsBot
from engine.frontends.seats import make_seat, parse_seats
from engine.frontends.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent
PACKS = Path(__file__).resolve().parent / "packs"
PLAYABLE = ("tinygame", "testgame", "leakgame", "windowgame", "choicegame", "stackgame",
            "roadgame")


def test_levels_parse():
    assert make_bot("mcts").playouts == 200 and make_bot("mcts").seconds is None
    assert make_bot("mcts:50", seed=3).playouts == 50
    bot = make_bot(" MCTS:0.5s ")
    assert isinstance(bot, MctsBot) and bot.seconds == 0.5
    assert split_spec("mcts:200") == ("mcts", "200")
    assert parse_seats("human,mcts:0.25s", ["red", "blue"]) == ["human", "mcts:0.25s"]
    assert isinstance(make_seat("mcts:10", 1), MctsBot)


@pytest.mark.parametrize("spec, says", [
    ("mcts:fast", "unknown level 'fast' of bot 'mcts'"),
    ("mcts:0", "unknown level '0'"),
    ("mcts:-2s", "unknown level '-2s'"),
    ("mcts:nans", "unknown level 'nans'"),
    ("greedy:3", "bot 'greedy' takes no level"),
    ("mcst", "did you mean 'mcts'"),
])
def test_a_bad_level_or_kind_is_refused_clearly(spec, says):
    with pytest.raises(ValueError, match=says):
        make_bot(spec)
    with pytest.raises(ValueError, match=says):
        parse_seats(f"random,{spec}", ["red", "blue"])
    assert not is_bot_spec(spec)


@pytest.mark.parametrize("name", PLAYABLE)
def test_plays_whole_games_of_the_test_packs(name):
    pack = load_pack(PACKS / name)
    for seed in range(2):
        game = pack.new_game(seed, undo=False)
        bots = {side: make_bot("mcts:20", seed + i) if i == seed % 2 else RandomBot(seed)
                for i, side in enumerate(pack.sides)}
        while not game.over and len(game.actions) < 5000:
            d = game.decision
            game.apply(bots[d.side].choose(game, d.side), side=d.side, decision=d.id)
        assert game.over


def test_plays_ante_portas_on_both_sides():
    pack = load_pack("ante_portas")
    game = pack.new_game(4, undo=False)
    bots = {side: MctsBot(i, playouts=15) for i, side in enumerate(pack.sides)}
    while not game.over:
        d = game.decision
        game.apply(bots[d.side].choose(game, d.side), side=d.side, decision=d.id)
    assert game.result is not None
    assert all(b.stats.searches > 0 and b.stats.rollouts > 0 for b in bots.values())


def test_same_seed_same_choices():
    pack = load_pack("ante_portas")

    def actions(seed):
        game = pack.new_game(7, log=False, undo=False)
        bots = {side: make_bot("mcts:10", seed + i) for i, side in enumerate(pack.sides)}
        while not game.over and len(game.actions) < 40:
            game.apply(bots[game.decider].choose(game, game.decider))
        return game.actions

    assert actions(1) == actions(1)


class Seen:
    """The game as a bot may read it: the decision, the pack, the lists of its answers and
    imagined copies; any other attribute fails, and `worlds` counts the copies asked for."""

    ALLOWED = frozenset(("decision", "decider", "pack", "legal_actions", "random_action",
                         "action_count", "action_at"))

    def __init__(self, game):
        self._game = game
        self.worlds = 0

    def determinized(self, side, rnd):
        self.worlds += 1
        return self._game.determinized(side, rnd)

    def __getattr__(self, name):
        if name not in self.ALLOWED:
            raise AssertionError(f"the bot read game.{name}")
        return getattr(self._game, name)


def test_it_reads_only_the_decision_and_imagined_copies():
    """Through a game that refuses every other attribute (state, clone, heuristic, view,
    playout ...) the bot decides as it does on the game itself, with one imagined copy an
    iteration."""
    pack = load_pack("ante_portas")
    game = pack.new_game(3, undo=False)
    rnd = random.Random(0)
    searched = 0
    while not game.over and searched < 6:
        d = game.decision
        seen = Seen(game)
        choice = MctsBot(len(game.actions), playouts=12).choose(seen, d.side)
        assert choice == MctsBot(len(game.actions), playouts=12).choose(game, d.side)
        searched += seen.worlds > 0
        assert seen.worlds in (0, 12)
        game.apply(choice if rnd.random() < 0.5 else game.random_action(rnd))
    assert searched == 6


@pytest.fixture(scope="module")
def guess(tmp_path_factory):
    return load_pack(write_pack_files(tmp_path_factory.mktemp("guess"), GUESS, GUESS_CARDS,
                                      pack_id="guess"))


def test_it_cannot_read_a_hidden_hand(guess):
    """Red wins by naming blue's hidden card: a search on plain copies always wins, the
    bot wins about half (it cannot know)."""
    assert red_wins(guess, lambda seed: peeking(MctsBot)(seed, playouts=30)) == 40
    assert 8 <= red_wins(guess, lambda seed: MctsBot(seed, playouts=30)) <= 32


# Red bets on a die not yet rolled: the game's seed decides it, and red cannot know it.
DIE = """
on setup:
    let high = ask red "Will the die show 4 or more?"
    if high == (roll(1, 6) >= 4):
        win red
    win blue
"""


def test_the_choice_is_the_same_whatever_the_hidden_future(tmp_path):
    """Games of different seeds look the same to red before the roll, and their dice
    differ: with the same seed the bot answers them all alike, where a bot searching plain
    copies (which roll the real dice) answers each by its die."""
    pack = load_pack(write_pack_files(tmp_path, DIE, pack_id="die"))

    class Peeking(MctsBot):
        def choose(self, game, side):
            game.determinized = lambda _side, _rnd: game.clone()
            return super().choose(game, side)

    for bot_seed in range(3):
        fair = {MctsBot(bot_seed, playouts=20).choose(pack.new_game(s), "red")
                for s in range(12)}
        assert len(fair) == 1
    peeked = {Peeking(0, playouts=20).choose(pack.new_game(s), "red") for s in range(12)}
    assert peeked == {True, False}


# Red picks 1, 2 or 3, then blue answers six times: the greedy bot's heuristic wants 1, the
# search bot's (pack.yaml `search_heuristic:`) 3.
TWO_HEURISTICS = """
var pick: int = 0
value for_greedy(s: side): int = 10 if pick == 1 and s == red else 0
value for_search(s: side): int = 10 if pick == 3 and s == red else 0
on setup:
    let a = choose a from [1, 2, 3] by red
    pick = a
    repeat 6:
        let _b = choose b from [1, 2] by blue
    end game
"""


def test_the_search_reads_its_own_heuristic_and_greedy_the_other(tmp_path):
    root = write_pack_files(tmp_path, TWO_HEURISTICS, pack_id="two")
    meta = root / "pack.yaml"
    meta.write_text(meta.read_text(encoding="utf-8")
                    + "heuristic: for_greedy\nsearch_heuristic: for_search\n", encoding="utf-8")
    pack = load_pack(root)
    for seed in range(4):
        game = pack.new_game(seed, undo=False)
        picked = MctsBot(seed, playouts=30).choose(game, "red")
        assert picked == MctsBot(seed, playouts=30).choose(game, "red") == 3
        assert GreedyBot(seed).choose(game, "red") == 1


# Red picks 1 or 2, then one of twelve numbers: 1 then 12 is worth 10, 2 then anything 1,
# 1 then anything else nothing. The mean of the lines after 1 is below 1, the best is 10.
ONE_GOOD_LINE = """
var first: int = 0
var second: int = 0
value for_search(s: side): int = (10 if first == 1 and second == 12 else 1 if first == 2
                                  else 0) if s == red else 0
on setup:
    let a = choose a from [1, 2] by red
    first = a
    let b = choose b from [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] by red
    second = b
    repeat 6:
        let _c = choose c from [1, 2] by blue
    end game
"""


def test_minimax_backups_find_the_one_good_line(tmp_path):
    """Scored by the mean of random lines, 1 looks worse than 2 and the search never picks
    it; with implicit minimax backups the node of 1 keeps the score of the best line found
    below it, so the search picks 1 once it has found 12. In the tree, each node's minimax
    score is its decider's best child's."""
    root = write_pack_files(tmp_path, ONE_GOOD_LINE, pack_id="line")
    meta = root / "pack.yaml"
    meta.write_text(meta.read_text(encoding="utf-8") + "heuristic: for_search\n",
                    encoding="utf-8")
    pack = load_pack(root)

    def picks(minimax):
        return [MctsBot(seed, playouts=100, minimax=minimax)
                .choose(pack.new_game(seed, undo=False), "red") for seed in range(20)]

    assert pack.search_minimax == 0.0
    assert picks(None) == picks(0.0) and picks(0.0).count(1) == 0
    assert picks(0.4).count(1) >= 8
    meta.write_text(meta.read_text(encoding="utf-8") + "search_minimax: 40\n",
                    encoding="utf-8")
    weighed = load_pack(root)
    assert weighed.search_minimax == 0.4
    assert [MctsBot(seed, playouts=100).choose(weighed.new_game(seed, undo=False), "red")
            for seed in range(20)] == picks(0.4)  # the pack's weight, unless the bot's
    bot = MctsBot(0, playouts=100, minimax=0.4)
    bot.choose(pack.new_game(0, undo=False), "red")
    checked = 0
    stack = [bot._kept[2]]
    while stack:
        node = stack.pop()
        scored = [c.minimax for c in node.children.values() if c.minimax is not None]
        if scored and node.decider is not None:
            assert node.minimax == max(scored, key=lambda v: v[node.decider])
            checked += 1
        stack.extend(node.children.values())
    assert checked > 0


def test_a_huge_loss_squashes_to_nothing_not_a_fault():
    """A reward's squash of a gain hundreds of scales below the root's is 0, not an
    OverflowError (one Ante Portas game a seating faulted so with minimax backups on)."""
    from engine.frontends.search import _squash
    assert _squash(-1000.0) == 0.0 and _squash(0.0) == 0.5 and _squash(1000.0) == 1.0
    assert 0.0 < _squash(-699.0) < 1e-300


@pytest.mark.parametrize("value, shown", [("0.4", "0.4"), ("150", "150"), ("true", "True"),
                                          ("much", "much"), ("-1", "-1")])
def test_a_bad_search_minimax_is_located(tmp_path, value, shown):
    """pack.yaml `search_minimax:` is a whole number of percent from 0 to 100 (a fraction in
    the pack's data would slow every save): else E349 at its value, listed with the pack's
    other errors."""
    root = write_pack_files(tmp_path, ONE_GOOD_LINE, pack_id="line")
    with (root / "pack.yaml").open("a", encoding="utf-8") as f:
        f.write(f"search_minimax: {value}\nboard: [shwn]\n")
    with pytest.raises(PackError) as err:
        load_pack(root)
    path = str(root / "pack.yaml")
    found = [(d.code, d.path, d.line) for d in err.value.diagnostics]
    assert ("E349", path, 5) in found and any(d[0] == "E340" for d in found), found
    assert f"error[E349]: 'search_minimax' is a whole number from 0 to 100 (the percent of " \
        f"the best line's score in the search), not {shown}" in str(err.value)


def test_the_real_game_is_untouched():
    pack = load_pack("ante_portas")
    game = pack.new_game(5)
    while len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    before = game.save()
    MctsBot(1, playouts=30).choose(game, game.decider)
    assert game.save() == before


def test_a_decision_with_one_answer_is_not_searched():
    pack = load_pack("ante_portas")
    game = pack.new_game(1, undo=False)
    bot = MctsBot(1, playouts=5)
    rnd = random.Random(1)
    singles = 0
    while not game.over:
        d = game.decision
        live = [a for a in game.legal_actions() if a is None or a not in d.idle]
        if d.kind in ("one", "ask") and len(live) == 1:
            before = bot.stats.searches
            assert bot.choose(game, d.side) == live[0]
            assert bot.stats.searches == before
            singles += 1
        game.apply(game.random_action(rnd))
    assert singles > 0


def test_it_beats_random_at_tic_tac_toe():
    """Without a heuristic the rollouts play to the end: on both sides, the search wins
    most games against random moves and loses almost none."""
    pack = load_pack(ROOT / "bench" / "packs" / "tictactoe")
    won = lost = 0
    for seed in range(12):
        for index in (0, 1):
            game = pack.new_game(seed, undo=False)
            bots = {side: MctsBot(seed, playouts=150) if i == index else RandomBot(seed)
                    for i, side in enumerate(pack.sides)}
            while not game.over:
                game.apply(bots[game.decider].choose(game, game.decider))
            winner = game.result.winner
            won += winner == pack.sides[index]
            lost += winner is not None and winner != pack.sides[index]
    assert won >= 16 and lost <= 2, (won, lost)


def test_the_tree_is_kept_while_the_side_is_asked_again():
    """Ante Portas asks a side several times in a row (a card, then how to use it): the
    search of the next goes on from the subtree of the answer given."""
    class Counting(MctsBot):
        kept = 0

        def _root(self, game, decision_id):
            root, base = super()._root(game, decision_id)
            self.kept += root.visits > 0
            return root, base

    pack = load_pack("ante_portas")
    game = pack.new_game(2, undo=False)
    bot = Counting(2, playouts=40)
    while not game.over and len(game.actions) < 60:
        game.apply(bot.choose(game, game.decider))
    assert bot.kept > 0


def test_play_from_the_command_line(capsys):
    assert main(["play", str(PACKS / "tinygame"), "--seed", "3", "--bots", "mcts:50,random",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["bots"] == "mcts:50,random" and out["winner"] in ("red", "blue", None)
    assert main(["play", str(PACKS / "tinygame"), "--bots", "mcts:soon,random"]) == 2
    assert "unknown level 'soon'" in capsys.readouterr().err


def test_simulate_from_the_command_line(capsys):
    assert main(["simulate", "ante_portas", "--bots", "mcts:20,greedy", "--games", "4",
                 "--json", "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 4 and not out["errors"] and out["bots"] == "mcts:20,greedy"


def test_simulate_on_workers_gives_the_same_games():
    pack = load_pack(PACKS / "testgame")
    one = simulate(pack, 4, 1, "mcts:10,random")
    two = simulate(pack, 4, 1, "mcts:10,random", workers=2)
    assert one["wins"] == two["wins"] and one["mean_decisions"] == two["mean_decisions"]


def test_a_person_plays_the_search_bot_on_the_server(tmp_path):
    pytest.importorskip("starlette")
    from serve_client import bearer
    from starlette.testclient import TestClient

    from engine.frontends.serve.app import create_app
    from engine.frontends.serve.present import words
    with TestClient(create_app(tmp_path / "games.sqlite3")) as client:
        for bots, says in [({"rome": "mcts:fast"}, "unknown level 'fast'"),
                           ({"rome": "mcts:100000"}, "longer than this server allows"),
                           ({"rome": "mcts:9s"}, "longer than this server allows"),
                           ({"rome": "greedy:2"}, "takes no level"),
                           ({"rome": "clever"}, "not a bot")]:
            r = client.post("/api/games", json={"pack": "ante_portas", "bots": bots})
            assert r.status_code == 400 and says in r.json()["error"], r.json()
        r = client.post("/api/games", json={"pack": "ante_portas", "seed": 3,
                                            "bots": {"rome": "mcts:20"}, "join": "carthage"})
        assert r.status_code == 201 and r.json()["seats"]["rome"] == "mcts:20"
        game, token = r.json()["game"], r.json()["token"]
        moves = 0
        while moves < 6:
            got = client.get(f"/api/games/{game}", headers=bearer(token)).json()
            screen = got["screen"]
            if screen["result"]:
                break
            d = screen["decision"]
            if not (d and d["mine"]):
                time.sleep(0.02)
                continue
            r = client.post(f"/api/games/{game}/act", headers=bearer(token),
                            json={"decision": d["id"], "action": d["options"][0]["action"]})
            assert r.status_code == 200, r.json()
            moves += 1
        assert moves == 6 or screen["result"]
    assert words("hu")["mcts"] != words("en")["mcts"] == "the search bot (MCTS)"


def test_the_benchmark_plays_both_seatings(capsys):
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    import mcts
    mcts.main([str(PACKS / "tinygame"), "--bot", "mcts:10", "--games", "2"])
    out = capsys.readouterr().out
    assert "mcts:10 as red: won" in out and "mcts:10 as blue: won" in out
    assert "decisions/s of rollout time" in out


def test_the_benchmark_plays_the_sides_named_and_says_how_it_lost(capsys):
    import sys
    sys.path.insert(0, str(ROOT / "bench"))
    import mcts
    mcts.main(["ante_portas", "--bot", "mcts:5", "--games", "2", "--sides", "rome"])
    out = capsys.readouterr().out
    assert "mcts:5 as rome: won" in out and "as carthage" not in out
    won = int(out.split("mcts:5 as rome: won ")[1].split("/")[0])
    assert ("how it lost: " in out) == (won < 2)


def test_rollouts_stop_at_the_cutoff():
    """A rollout plays at most `cutoff` decisions before the heuristic scores it; with none
    the new node itself is scored."""
    pack = load_pack("ante_portas")
    for cutoff in (0, 3):
        game = pack.new_game(1, undo=False)
        bot = MctsBot(1, playouts=20, cutoff=cutoff)
        while bot.stats.searches < 3:
            game.apply(bot.choose(game, game.decider))
        st = bot.stats
        assert st.rollouts == st.iterations == 60
        assert st.rollout_decisions <= cutoff * st.rollouts
        assert (st.rollout_decisions > 0) == (cutoff > 0)
