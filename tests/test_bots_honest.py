"""The greedy bot plays fair: it decides on determinized copies of the game
(`Game.determinized`), in which what its side cannot see is dealt anew.

Project rule: "A bot a person plays against sees only what its side may see."
"""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.core.errors import PackError
from engine.core.loader import load_pack
from engine.frontends.bots import GreedyBot, RandomBot
from engine.frontends.simulate import simulate

PACKS = Path(__file__).resolve().parent / "packs"

# Blue is dealt one of two cards face down; red says whether it is the high one. Guessing
# right wins: only a bot that reads blue's hand wins every game.
GUESS = """
type card:
    power: int

zone deck of card ordered hidden
zone hand[s: side] of card private

on setup:
    for c in card:
        move c to deck
    shuffle deck
    draw 1 from deck to hand[blue]
    let high = ask red "Does blue hold the high card?"
    if high == (first(hand[blue]).power == 2):
        win red
    win blue
"""
GUESS_CARDS = """
card:
  - id: low
    power: 1
  - id: high
    power: 2
"""

# Blue holds three cards and shows one of them to red.
SHOWN = """
type card:
    power: int

zone deck of card ordered hidden
zone hand[s: side] of card private
zone table of card

on setup:
    for c in card:
        move c to deck
    shuffle deck
    draw 3 from deck to hand[blue]
    draw 1 from deck to hand[red]
    reveal first(hand[blue]) to red
    let c = choose c from hand[red] by red
    move c to table
"""
SHOWN_CARDS = "card:\n" + "".join(f"  - id: c{i}\n    power: {i}\n" for i in range(8))


@pytest.fixture(scope="module")
def guess(tmp_path_factory):
    return load_pack(write_pack_files(tmp_path_factory.mktemp("guess"), GUESS, GUESS_CARDS,
                                      pack_id="guess"))


@pytest.fixture(scope="module")
def shown(tmp_path_factory):
    return load_pack(write_pack_files(tmp_path_factory.mktemp("shown"), SHOWN, SHOWN_CARDS,
                                      pack_id="shown"))


def _seen(view):
    return {k: v for k, v in view.items() if k != "log"}


def test_greedy_is_honest():
    bot = GreedyBot(1)
    assert not bot.sees_hidden and "hidden" in GreedyBot.__doc__


def peeking(bot_class):
    """`bot_class`, but its imagined worlds are plain copies of the game: it sees what its side
    may not."""
    class Peeking(bot_class):
        def choose(self, game, side):
            game.determinized = lambda _side, _rnd: game.clone()
            return super().choose(game, side)
    return Peeking


def red_wins(guess, make_bot) -> int:
    """Of 40 games of the guessing pack, how many red wins with the bot `make_bot(seed)`."""
    n = 0
    for seed in range(40):
        game = guess.new_game(seed)
        game.apply(make_bot(seed).choose(game, "red"))
        n += game.result.winner == "red"
    return n


def test_honest_greedy_cannot_read_the_hand(guess):
    """The right answer is written in blue's hidden hand: a bot that peeks (its worlds are
    plain copies) always wins; the honest bot guesses, and wins about half."""
    assert red_wins(guess, peeking(GreedyBot)) == 40
    assert 8 <= red_wins(guess, GreedyBot) <= 32


def test_the_real_game_is_untouched(guess):
    game = guess.new_game(2)
    before = game.save()
    GreedyBot(3, worlds=3).choose(game, "red")
    assert game.save() == before


def test_determinized_copy_shows_the_side_the_same(shown):
    """Red's view of the copy is red's view of the game (log aside); blue's hand and the deck
    are dealt anew from the cards red has not seen, each zone keeping its count; the card
    blue showed red stays in blue's hand."""
    game = shown.new_game(4)
    shown_card = game.zone("hand", "blue")[0]
    hidden = game.zone("hand", "blue")[1:] + game.zone("deck")
    changed = 0
    for i in range(20):
        world = game.determinized("red", random.Random(i))
        assert _seen(world.view("red")) == _seen(game.view("red"))
        assert world.zone("hand", "red") == game.zone("hand", "red")
        assert world.zone("hand", "blue")[0] == shown_card
        assert len(world.zone("hand", "blue")) == 3 and len(world.zone("deck")) == 4
        assert Counter(world.zone("hand", "blue")[1:] + world.zone("deck")) == Counter(hidden)
        for c in world.zone("hand", "blue") + world.zone("deck"):
            assert world.rt.loc[c] in ("hand|blue", "deck")
        assert world.log == [] and world.check_invariants() == []
        changed += world.zone("hand", "blue") != game.zone("hand", "blue")
    assert changed >= 15
    # blue sees all of its own hand: only the deck's order may change for blue
    world = game.determinized("blue", random.Random(0))
    assert world.zone("hand", "blue") == game.zone("hand", "blue")
    assert world.zone("hand", "red") == game.zone("hand", "red") or \
        sorted(world.zone("hand", "red") + world.zone("deck")) == \
        sorted(game.zone("hand", "red") + game.zone("deck"))


def test_determinized_dice_are_not_the_games(shown):
    game = shown.new_game(4)
    game.load_dice([6, 6, 6])
    world = game.determinized("red", random.Random(1))
    assert "dice" not in world.state and world.state["rng"] != game.state["rng"]
    assert "dice" in game.state


def test_a_private_var_follows_the_card_dealt_to_its_place():
    """leakgame: `favourite[s]` (private) names a card of s's hand; in red's imagined game,
    blue's favourite is still a card of blue's imagined hand."""
    pack = load_pack(PACKS / "leakgame")
    rnd = random.Random(5)
    for seed in range(6):
        game = pack.new_game(seed)
        while not game.over and game.var("favourite", "blue") is None:
            game.apply(game.random_action(rnd))
        fav = game.var("favourite", "blue")
        if fav is None or fav not in game.zone("hand", "blue"):
            continue
        for i in range(5):
            world = game.determinized("red", random.Random(i))
            assert world.var("favourite", "blue") in world.zone("hand", "blue")
            assert world.var("favourite", "red") == game.var("favourite", "red")
            assert _seen(world.view("red")) == _seen(game.view("red"))


def test_unknown_side_is_refused(shown):
    with pytest.raises(ValueError, match="unknown side"):
        shown.new_game(1).determinized("green", random.Random(0))


def test_honest_greedy_beats_random_at_ante_portas():
    """Ante Portas: a random Carthage never beats a random Rome (bench/winrates.py: 0 of 20);
    the honest greedy Carthage wins most games against it (20 of 20 from seed 1; the bot of
    commit a51783c won 17)."""
    out = simulate("ante_portas", games=6, seed=1, bots="greedy,random")
    assert out["errors"] == [] and out["wins"]["carthage"] >= 4


def test_random_bot_unchanged():
    assert not RandomBot.sees_hidden


# ---- Hannibal's heuristic ----------------------------------------------------------------
def test_hannibal_heuristic_prefers_points_and_safe_capitals():
    """content/hannibal/heuristic.rules (RULINGS.md H-bot-1): zero-sum; a PC, a political
    point (seed 002 §18.1), a siege point (§16.4) raise a side's score; enemy CUs next to its
    capital (§19) lower it more than the same CUs elsewhere (seed 003 "Крепости")."""
    import hannibal_play as hp
    g = hp.board()
    value = g.pack.ns["VALUES"]["heuristic"]

    def h(side):
        return value(g.rt, side)

    start = h("rome")
    assert h("carthage") == -start
    hp.add_cus(g, "carthage", "capua", 3)  # far from nothing: three CUs on the map
    far = h("rome")
    assert far < start
    hp.remove_cus(g, hp.cus(g, "capua"))
    hp.add_cus(g, "carthage", "ostia", 3)  # the same three next to Roma
    assert h("rome") < far
    hp.remove_cus(g, hp.cus(g, "ostia"))
    assert h("rome") == start
    hp.set_pc(g, "capua", "carthage")
    one_pc = h("carthage")
    assert one_pc > -start
    province = g.pack.records["capua"]["province"]
    for x, rec in g.pack.records.items():
        if rec.get("province") == province and "pc" in g.state["f"].get(x, {}):
            hp.set_pc(g, x, "carthage")
    assert h("carthage") >= one_pc + 8
    g.state["f"]["capua"].update(siege=2, besieger="rome")
    before = h("rome")
    g.state["f"]["capua"].update(siege=3)
    assert h("rome") == before + 2


def test_hannibal_search_value_counts_the_march_over_the_alps():
    """content/hannibal/search.rules `alpine_march` (RULINGS.md H-bot-3): for the search bot,
    each movement point Hannibal stands nearer the Insubres, a tribe friendly to Carthage in
    Gallia Cisalpina (seed 002 §16.6), counts while he leads 5 CUs or more, those in his space
    and those marching in his column (§8.2, §8.4); with fewer, or with no way there by land
    (Carthago: the sea lies between, §8.8), it counts nothing and does not fail. The greedy bot's
    `heuristic` has no such term."""
    import hannibal_play as hp
    from zone_edit import put
    g = hp.board()
    march = g.pack.ns["VALUES"]["alpine_march"]
    search = g.pack.ns["VALUES"]["search_value"]
    greedy = g.pack.ns["VALUES"]["heuristic"]

    def at(space, n, *, marching=False):
        hp.clear_board(g)
        hp.set_leader(g, "hannibal", space)
        made = hp.add_cus(g, "carthage", space, n)
        if marching:
            for uid in made:
                put(g, uid, "column|hannibal")
        g.rt.changed()
        return march(g.rt, "carthage")

    assert at("saguntum", 10) == 2  # ten movement points away (two passes of 2, §8.3.1)
    assert at("narbo", 10) == 8  # four: over the Alps (2) from the Allobroges
    assert at("narbo", 10, marching=True) == 8  # the CUs he leads on the march count
    assert at("narbo", 4) == 0  # too few CUs to take the province
    four = search(g.rt, "carthage"), greedy(g.rt, "carthage")
    assert at("narbo", 5) == 8
    # 8 a movement point in search.rules, and the fifth CU's own 1; the greedy bot's 2 a CU
    assert search(g.rt, "carthage") == four[0] + 8 * 8 + 1
    assert greedy(g.rt, "carthage") == four[1] + 2
    assert at("insubres", 5) == 12
    assert at("carthago", 10) == 0  # no way by land: nothing, and no fault
    assert march(g.rt, "rome") == 0


def test_hannibal_search_value_counts_the_provinces_two_pcs_short():
    """content/hannibal/search.rules `provinces_two_short` (RULINGS.md H-bot-2): for the search
    bot, a scoring province two PCs short of a majority (seed 002 §15.1, §18.1) counts 8, one PC
    short 20 (`provinces_in_reach`), held a political point (40), so each PC placed towards a
    province scores, not only the last. Gallia Cisalpina: Carthage starts with 2 of its 8 (the
    Insubres and the Boii, friendly tribes, §16.6) and takes it with 5. The greedy bot's
    `heuristic` counts only the PC and the point."""
    import hannibal_play as hp
    g = hp.board()
    values = g.pack.ns["VALUES"]
    two = values["provinces_two_short"]
    standing = values["search_standing"]
    greedy = values["heuristic"]

    def after(space):
        if space is not None:
            hp.set_pc(g, space, "carthage")
        g.rt.changed()
        return two(g.rt, "carthage"), standing(g.rt, "carthage"), greedy(g.rt, "carthage")

    start, third, fourth, fifth = (after(x) for x in (None, "mutina", "patavium", "taurini"))
    assert third[0] == start[0] + 1 and fourth[0] == start[0] and fifth[0] == start[0]
    assert third[1] - start[1] == 8 + 1  # two short, and the PC's own point (`pcs`)
    assert fourth[1] - third[1] == -8 + 20 + 1  # one short (provinces_in_reach)
    assert fifth[1] - fourth[1] == -20 + 40 + 1  # held: a political point
    assert (third[2] - start[2], fourth[2] - third[2], fifth[2] - fourth[2]) == (1, 1, 9)


def test_greedy_does_not_go_round_in_circles(tmp_path):
    """A side may pick a pebble up and put it down for ever, and every way out loses: the
    greedy bot still leaves the loop instead of avoiding the loss for ever."""
    rules = """
    var held: bool = false
    value heuristic(s: side): int = 0
    on setup:
        let going = true
        while going:
            let a = choose a from ["take", "put", "leave"] by red
            if a == "take":
                held = true
            elif a == "put":
                held = false
            else:
                going = false
        win blue
    """
    pack = load_pack(write_pack_files(tmp_path / "circle", rules, pack_id="circle"))
    game = pack.new_game(1, log=False)
    bot = GreedyBot(1)
    for _ in range(20):
        if game.over:
            break
        game.apply(bot.choose(game, "red"))
    assert game.over and game.result.winner == "blue"



# ---- what the cards do not carry: the pack's `determinize:` procedure ---------------------
# Ante Portas (content/ante_portas/imagine.rules): Carthage's secret target city, the march time
# its road needs and the march time played face down are private vars that name no card; Rome's
# face-down type markers (`use[rome, c]`) name no card either. Each side's imagined copy
# re-makes the other's by the rules (seed 000, "Menetidő", "Csatolt lapok").

def _targets(game):
    """The cities Carthage could choose its target from (seed 000, "A térkép", "Tengeri
    hegemonia"), with the sea hegemony as it stood when Carthage chose."""
    return game.rt.call_rule(game.pack.ns["VALUES"]["targets_at"], game.var("target_sea"))


def _road_cost(game, city):
    """The march time of the road from Hannibal's city to `city` (seed 000, "Menetidő")."""
    road = game.pack.graphs["roads"].edge(game.var("hannibal"), city)
    return game.pack.records[road]["cost"]


def _march_played(game):
    """The march time played this round: the face-up part and the march cards face down."""
    records = game.pack.records
    cards = game.zone("marched", "carthage")
    return game.var("march_open") + sum(
        records[records[c]["carthaginian"]]["march"] for c in cards
        if records[c]["carthaginian"] is not None)


def _play_until(pack, found, seeds=range(80), steps=3000):
    """The first position, over random games from `seeds`, where `found(game)` holds."""
    for seed in seeds:
        game = pack.new_game(seed, log=False)
        rnd = random.Random(seed)
        for _ in range(steps):
            if game.over:
                break
            if found(game):
                return game
            game.apply(game.random_action(rnd))
    raise AssertionError("no such position in the random games")


def _target_hidden(game):
    return (game.decider == "rome" and game.var("revealed_target") is None
            and game.var("target", "carthage") is not None and len(_targets(game)) >= 3)


def _what_a_bot_reads(world):
    """What a bot may look into of an imagined copy: its vars and zones (the state a
    heuristic and the rules read; the log is empty)."""
    return world.state["v"], world.state["z"]


@pytest.fixture(scope="module")
def ante_portas():
    return load_pack("ante_portas")


def test_rome_imagines_carthages_target(ante_portas):
    """Over many copies Rome imagines, the target is each of the cities Carthage could have
    chosen, and never another; the march time needed is its road's, the march time played
    the face-up part plus the march cards dealt to the copy; Rome's view is unchanged."""
    game = _play_until(ante_portas, _target_hidden)
    legal = _targets(game)
    imagined = set()
    for i in range(60):
        world = game.determinized("rome", random.Random(i))
        t = world.var("target", "carthage")
        assert t in legal
        assert world.var("need", "carthage") == _road_cost(world, t)
        assert world.var("march", "carthage") == max(0, _march_played(world))
        assert _seen(world.view("rome")) == _seen(game.view("rome"))
        assert world.check_invariants() == []
        imagined.add(t)
    assert imagined == set(legal)
    # Carthage knows its own target: its copies keep it
    assert game.determinized("carthage", random.Random(0)).var("target", "carthage") == \
        game.var("target", "carthage")


def test_a_revealed_target_is_not_imagined(ante_portas):
    """Once the round ends the target is revealed (seed 000, "Menetidő": "Ekkor kell felfedni
    a célvárost"): Rome's copies keep it."""
    game = _play_until(ante_portas, lambda g: g.decider == "rome"
                       and g.var("revealed_target") is not None)
    target = game.var("target", "carthage")
    assert target == game.var("revealed_target")
    for i in range(20):
        world = game.determinized("rome", random.Random(i))
        assert world.var("target", "carthage") == target
        assert world.var("need", "carthage") == game.var("need", "carthage")


def test_carthage_imagines_romes_markers(ante_portas):
    """The type markers are face down (seed 000, "Csatolt lapok"): in Carthage's copies each
    card Rome attached carries a marker it may carry (money only on the secret target and
    with a wealth value, an event only if underlined, an army only with troops; none on a
    card the copy dealt there that no rule could attach), and the markers vary from copy to
    copy."""
    game = _play_until(ante_portas, lambda g: g.decider == "carthage"
                       and len(g.zone("secret_attached", "rome")) >= 2)
    records = ante_portas.records
    markers = set()
    for i in range(40):
        world = game.determinized("carthage", random.Random(i))
        for c in world.zone("secret_attached", "rome"):
            roman = records[records[c]["roman"]]
            fits = {"army": roman.get("infantry", 0) + roman.get("cavalry", 0) > 0,
                    "event": roman.get("attachable", False),
                    "money": roman.get("wealth", 0) > 0}
            kind = world.var("use", "rome", c)
            assert fits[kind] if kind is not None else not any(fits.values()), (c, kind)
        markers.add(tuple(world.var("use", "rome", c)
                          for c in world.zone("secret_attached", "rome")))
        assert _seen(world.view("carthage")) == _seen(game.view("carthage"))
    assert len(markers) >= 2


def test_rome_plays_the_same_whatever_carthages_target(ante_portas):
    """Two games that differ only in Carthage's secret target, everything Rome sees the
    same: Rome's greedy bot, with the same seed, imagines the same copies and chooses the
    same actions, decision after decision, until the games part (Carthage may end the round
    only once its march time reaches its target's)."""
    compared = 0
    for seed in range(80):
        a = ante_portas.new_game(seed, log=False)
        rnd = random.Random(seed)
        while not a.over and not (a.decision.prompt.startswith("Carthage: choose the secret")
                                  and len(a.decision.options) >= 2 and a.var("round_no") >= 2):
            a.apply(a.random_action(rnd))
        if a.over:
            continue
        b = a.clone()
        a.apply(a.decision.options[0])
        b.apply(b.decision.options[1])
        assert a.var("target", "carthage") != b.var("target", "carthage")
        bot_a, bot_b = GreedyBot(seed), GreedyBot(seed)
        while not a.over and _same_decision(a, b):
            if a.decider == "rome":
                for i in range(3):
                    assert _what_a_bot_reads(a.determinized("rome", random.Random(i))) == \
                        _what_a_bot_reads(b.determinized("rome", random.Random(i)))
                action = bot_a.choose(a, "rome")
                assert bot_b.choose(b, "rome") == action
                compared += 1
            else:
                action = a.random_action(rnd)
            a.apply(action)
            b.apply(action)
        if compared >= 8:
            break
    assert compared >= 8


def _same_decision(a, b):
    da, db = a.decision, b.decision
    return db is not None and (da.side, da.kind, da.options, da.prompt) == \
        (db.side, db.kind, db.options, db.prompt)


def test_without_the_procedure_rome_would_know_the_target(ante_portas, monkeypatch):
    """The control of the test above: without `determinize:`, the copies of the two games
    differ in the target (the value the rules set stays), so that test can tell."""
    monkeypatch.delitem(ante_portas.meta, "determinize")
    a = _play_until(ante_portas, _target_hidden)
    b = a.clone()
    others = [t for t in _targets(a) if t != a.var("target", "carthage")]
    b.state["v"]["target"]["carthage"] = others[0]
    assert _what_a_bot_reads(a.determinized("rome", random.Random(0))) != \
        _what_a_bot_reads(b.determinized("rome", random.Random(0)))


# ---- pack.yaml `determinize:` is checked when the pack loads (E345) --------------------------
IMAGINING = """
var secret[s: side]: int = 0 private
var shown: int = 0

procedure imagine(s: side):
    secret[other(s)] = roll(1, 6)

procedure imagine_two(s: side, n: int):
    secret[s] = n

procedure imagine_asking(s: side):
    let n = choose n from [1, 2] by s
    secret[s] = n

on setup:
    secret[red] = roll(1, 6)
    let guess = choose g from numbers(1, 6) by blue
    win blue if guess == secret[red] else red
"""


@pytest.mark.parametrize("value, message, suggestion", [
    ("imagin", "unknown procedure 'imagin' in 'determinize'", "did you mean 'imagine'?"),
    ("imagine_two", "determinize: procedure 'imagine_two(s: side, n: int)' must take the "
     "imagining side alone: procedure imagine_two(s: side)", None),
    ("imagine_asking", "determinize: procedure 'imagine_asking' may ask a player; it runs on "
     "a bot's imagined copy, outside any turn, so it may only set and move (random_pick for "
     "a choice)", None),
    ("[imagine]", "'determinize' names a procedure of the pack, e.g. determinize: imagine for "
     "procedure imagine(s: side)", None),
])
def test_determinize_errors_are_located(tmp_path, value, message, suggestion):
    """A bad `determinize:` is E345 at its value in pack.yaml, with a did-you-mean, listed
    with the pack's other errors (here an unknown board var)."""
    root = write_pack_files(tmp_path / "imagining", IMAGINING, pack_id="imagining")
    with (root / "pack.yaml").open("a", encoding="utf-8") as f:
        f.write(f"determinize: {value}\nboard: [shwn]\n")
    with pytest.raises(PackError) as err:
        load_pack(root)
    found = [(d.code, d.path, d.line, d.col, d.message, d.suggestion)
             for d in err.value.diagnostics]
    path = str(root / "pack.yaml")
    assert ("E345", path, 5, 14, message, suggestion) in found, found
    assert ("E340", path, 6, 9, "board: 'shwn' is not a var of the pack",
            "did you mean 'shown'?") in found, found
    assert f"{path}:5:14: error[E345]: {message}" in str(err.value)


def test_determinize_runs_the_packs_procedure(tmp_path):
    """`determinize: imagine`: red's secret number, which names no record, is drawn again in
    blue's copies (by the copy's own dice) and kept in red's own."""
    root = write_pack_files(tmp_path / "imagining", IMAGINING, pack_id="imagining")
    with (root / "pack.yaml").open("a", encoding="utf-8") as f:
        f.write("determinize: imagine\n")
    pack = load_pack(root)
    game = pack.new_game(3)
    secret, before = game.var("secret", "red"), game.save()
    imagined = {game.determinized("blue", random.Random(i)).var("secret", "red")
                for i in range(40)}
    assert imagined == set(range(1, 7))
    assert {game.determinized("red", random.Random(i)).var("secret", "red")
            for i in range(10)} == {secret}
    assert game.save() == before  # the real game: its state, dice and log untouched


# ---- pack.yaml `deal_by: side`: each side's hidden cards stay among its own zones -----------
_ROME_ZONES = ("hand", "deck", "attached", "secret_attached")


def _hidden_to(game, side):
    """The hidden records of each side's zones that `side` cannot see, as multisets (the
    zones of no side under "")."""
    pack, out = game.pack, {}
    for key, items in game.state["z"].items():
        if key in pack.visible_zones[side]:
            continue
        owner = next((p for p in key.split("|")[1:] if p in pack.side_set), "")
        out.setdefault(owner, Counter()).update(items)
    return out


def test_carthages_copies_never_hold_romes_cards(ante_portas):
    """Source: seed 000, "Kezdés": the deck is split three ways and only Carthage's part
    becomes its deck; Rome's cards (its two starting cards among them, which have no
    Carthaginian half) never reach Carthage. With `deal_by: side` Carthage's imagined deck
    holds the very cards of its real deck, in a new order, and Rome's hidden cards are dealt
    among Rome's zones; play goes on from every copy (a Roman card drawn by Carthage broke
    the rules' march sum before)."""
    assert ante_portas.meta.get("deal_by") == "side"
    rng = random.Random(5)
    reordered = 0
    for seed in range(6):
        game = _play_until(ante_portas, lambda g: g.decider == "carthage"
                           and len(g.zone("deck", "rome")) >= 2, seeds=range(seed, 80))
        real = _hidden_to(game, "carthage")
        for _ in range(15):
            world = game.determinized("carthage", rng)
            assert _hidden_to(world, "carthage") == real
            reordered += world.zone("deck", "carthage") != game.zone("deck", "carthage")
            rnd = random.Random(rng.random())
            for _ in range(60):
                if world.over:
                    break
                world.apply(world.random_action(rnd))
    assert reordered > 45  # the order is drawn anew (a deck of 2 may come out the same)


@pytest.mark.parametrize("value, suggestion", [("sides", "did you mean 'side'?"),
                                               ("[side]", "did you mean 'side'?")])
def test_deal_by_errors_are_located(tmp_path, value, suggestion):
    """A bad `deal_by:` is E346 at its value in pack.yaml, listed with the other errors."""
    root = write_pack_files(tmp_path / "dealing", IMAGINING, pack_id="dealing")
    with (root / "pack.yaml").open("a", encoding="utf-8") as f:
        f.write(f"deal_by: {value}\nboard: [shwn]\n")
    with pytest.raises(PackError) as err:
        load_pack(root)
    found = [(d.code, d.path, d.line, d.col, d.suggestion) for d in err.value.diagnostics]
    path = str(root / "pack.yaml")
    assert ("E346", path, 5, 10, suggestion) in found, found
    assert any(d[0] == "E340" for d in found), found
    shown = value if value == "sides" else "['side']"
    assert f"{path}:5:10: error[E346]: 'deal_by' is one of type, side, not '{shown}'" \
        in str(err.value)
