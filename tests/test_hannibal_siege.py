"""Hannibal: sieges of walled cities and the subjugation of tribes (seed 002 §16.4-§16.5, §19,
card 30; seed 003 "Штурм", "Покорение").

Each test sets up a position by editing the state (tests/hannibal_play.py), plays strategy cards
and answers the decisions by value; the siege dice are loaded (g.load_dice). Rulings: RULINGS.md
"## Sieges" (H-sg-1 ...). The siege table (tables.yaml `siege`) gives a point on a modified 4 or
more; Carthage has -1 unless the siege train is with the army (constants.yaml, card 30)."""
from __future__ import annotations

from hannibal_play import (
    _put,
    add_cus,
    answer,
    board,
    field,
    give,
    logged,
    options,
    prompt,
    set_leader,
    set_var,
    start_turn,
)
from hannibal_play import (
    said_values as says,
)

ROLL_SIEGE = "Siege roll at {x}: {d}, modifier {m}: a siege point for {s}, {p} in all"
MISS_SIEGE = "Siege roll at {x}: {d}, modifier {m}: no siege point"
ROLL_SUBJ = "Subjugation roll at {x}: {d}, modifier {m}: a point for {s}, {p} in all"
MISS_SUBJ = "Subjugation roll at {x}: {d}, modifier {m}: no point"
CARTHAGE_CARDS = ("bad_weather", "diplomacy_35", "native_guide", "epidemic")
ROME_CARDS = ("diplomacy_36", "major_campaign_34", "minor_campaign_38", "minor_campaign_39")


def garrison(g, side: str, space: str, n: int) -> list[str]:
    """n CUs of a side inside the walled city of a space (zone garrison)."""
    ids = add_cus(g, side, space, n)
    for u in ids:
        _put(g, u, f"garrison|{space}")
    return ids


def siege_asked(g) -> bool:
    return "roll to besiege" in prompt(g) or "roll to subjugate" in prompt(g)


def card_asked(g) -> bool:
    return "play a strategy card" in prompt(g)


def move_and_stop(g, side: str, card: str, *, leader: str | None = None, event: bool = False):
    """`side` plays `card` for ops to move (or as its event), the leader takes every CU he may
    and stops where he stands; answered until a siege roll or the next card is asked."""
    play(g, card, "event" if event else "ops")
    for _ in range(20):
        p = prompt(g)
        if siege_asked(g) or card_asked(g) or g.over:
            return
        if "move a leader, place PCs" in p:
            answer(g, "move")
        elif "which leader moves" in p or "campaign: move which leader" in p:
            answer(g, leader)
        elif "go with him" in p:
            answer(g, max(options(g)))
        elif "what next" in p:
            answer(g, "stop")
        else:
            raise AssertionError(p)
    raise AssertionError("move_and_stop: no end")


def play(g, card: str, use: str):
    """Play `card` (chosen unless it is the last in hand: then the engine chose it) for `use`."""
    if card_asked(g):
        answer(g, card)
    answer(g, use)


def discard(g, side: str, card: str):
    play(g, card, "discard")


def setup(g, carthage=CARTHAGE_CARDS, rome=ROME_CARDS, first="carthage"):
    give(g, "carthage", *carthage)
    give(g, "rome", *rome)
    start_turn(g, first=first)


def besiege_once(g, card: str, die: int, rome_card: str | None = None):
    """Carthage moves (stops) with `card` and rolls `die`; then Rome discards `rome_card`."""
    move_and_stop(g, "carthage", card)
    assert siege_asked(g), prompt(g)
    g.load_dice([die])
    answer(g, True)
    if rome_card:
        discard(g, "rome", rome_card)


# ---- §16.4: who may roll ----------------------------------------------------------------

def test_three_cus_are_needed_and_an_army_that_did_not_move_may_roll():
    """seed 002 §16.4 ("Elk geactiveerd leger ... met minstens 3 GE's"); seed 003 "Штурм" (1)
    (an active leader with at least 3 CUs in the space, also one that ended its move there): with
    2 CUs no roll is offered; with 3, activated and not moving, the roll is offered."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 2)
    setup(g)
    move_and_stop(g, "carthage", "bad_weather")
    assert not siege_asked(g) and card_asked(g)
    discard(g, "rome", "diplomacy_36")
    add_cus(g, "carthage", "capua", 1)
    move_and_stop(g, "carthage", "diplomacy_35")
    assert siege_asked(g)
    assert "hannibal in capua with 3 CUs" in prompt(g)


def test_a_subordinate_left_behind_with_three_cus_may_roll():
    """seed 003 "Штурм" (2) (a subordinate with 3 CUs may split off and roll; RULINGS.md H-sg-2);
    seed 002 §8.7 (subordinates left on the way): Hannibal leaves Mago with 3 CUs at Capua and
    marches on to Nola; Mago's army rolls against Capua."""
    g = board()
    set_leader(g, "hannibal", "capua")
    set_leader(g, "mago", "capua", chief="hannibal")
    add_cus(g, "carthage", "capua", 6)
    setup(g)
    answer(g, "bad_weather", "ops", "move", 6, "leave", 3, "march", "nola", "stop")
    assert siege_asked(g)
    assert "mago in capua with 3 CUs" in prompt(g)


def test_a_friendly_walled_city_or_tribe_is_no_target():
    """seed 002 §16.4 (an enemy walled city or a tribe), §16.6 (Boii, Insubres, Bruttii are
    friendly to Carthage: Carthage does not subjugate them)."""
    g = board()
    set_leader(g, "hannibal", "boii")
    add_cus(g, "carthage", "boii", 4)
    setup(g)
    move_and_stop(g, "carthage", "bad_weather")
    assert card_asked(g)


def test_one_roll_per_target_per_card_even_a_campaign():
    """seed 002 §16.4 ("per uitgespeelde GK slechts eenmaal ... met de OK 'Grote veldtocht' geen
    3 pogingen"); seed 003 "Штурм" (3): a Minor Campaign takes Hannibal and then Mago to Capua;
    Capua is rolled against once. The next card may roll again."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    set_leader(g, "mago", "nola")
    add_cus(g, "carthage", "nola", 3)
    setup(g, carthage=("minor_campaign_37", "bad_weather", "diplomacy_35"))
    answer(g, "minor_campaign_37", "event", "hannibal", None, 3)
    answer(g, "stop")
    assert siege_asked(g)
    g.load_dice([5])
    answer(g, True)
    answer(g, "mago", None, 3, "march", "capua")
    answer(g, "stop")
    assert not siege_asked(g) and card_asked(g)
    assert len(says(g, ROLL_SIEGE)) == 1 and not says(g, MISS_SIEGE)
    discard(g, "rome", "diplomacy_36")
    besiege_once(g, "bad_weather", 6)
    assert field(g, "capua", "siege") == 2


# ---- §16.4, §16.4.1: points gather, three take the city --------------------------------

def test_points_gather_across_cards_and_three_take_the_city():
    """seed 002 §16.4 (three siege points), §16.4.1 (the city's marker flips, the siege markers
    go, enemy CUs inside are eliminated), §16.4.3 (besieged from the first point), §16.3 (a
    leader inside is displaced: RULINGS.md H-sg-4); seed 003 "Штурм" (4), (5), (7). Carthage's
    -1: a 4 is no point, a 5 is."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    inside = garrison(g, "rome", "capua", 2)
    set_leader(g, "fabius", "capua")
    g.state["f"]["fabius"]["inside"] = True
    setup(g)
    besiege_once(g, "bad_weather", 4, "diplomacy_36")
    assert field(g, "capua", "siege") == 0 and field(g, "capua", "besieger") is None
    assert says(g, MISS_SIEGE) == [["capua", 4, -1]]
    besiege_once(g, "diplomacy_35", 5, "major_campaign_34")
    assert field(g, "capua", "siege") == 1 and field(g, "capua", "besieger") == "carthage"
    besiege_once(g, "native_guide", 6, "minor_campaign_38")
    assert field(g, "capua", "siege") == 2 and field(g, "capua", "pc") == "rome"
    besiege_once(g, "epidemic", 5)
    assert field(g, "capua", "pc") == "carthage"
    assert field(g, "capua", "siege") == 0 and field(g, "capua", "besieger") is None
    assert not g.state["z"]["garrison|capua"]
    assert all(u not in g.state["f"] for u in inside)
    assert field(g, "fabius", "where") == "displaced"
    text = logged(g)
    assert "Eliminated: the 2 CUs of Rome inside the walls of Capua" in text
    assert "Carthage takes Capua" in text


# ---- the Rome siege (research D1; seed 002 §16.4, card 30) -------------------------------

def test_carthage_needs_a_five_at_rome_without_the_siege_train():
    """research/hannibal.md §9 (D1: Carthage needs 5-6 three times to take Rome); seed 002
    §16.4, card 30 (the -1 without the siege train): a 4 at Roma is no point."""
    g = board()
    set_leader(g, "hannibal", "roma")
    add_cus(g, "carthage", "roma", 3)
    garrison(g, "rome", "roma", 5)
    setup(g)
    besiege_once(g, "bad_weather", 4)
    assert field(g, "roma", "siege") == 0
    assert says(g, MISS_SIEGE) == [["roma", 4, -1]]


def test_with_the_siege_train_a_four_scores_at_rome():
    """research/hannibal.md §9 (D1: 4-6 with the siege train); seed 002 card 30 ("wordt de malus
    van -1 niet meegerekend"): the card-30 event puts the train with Hannibal's army, and a 4 is
    a point (RULINGS.md H-sg-6)."""
    g = board()
    set_leader(g, "hannibal", "roma")
    add_cus(g, "carthage", "roma", 3)
    garrison(g, "rome", "roma", 5)
    setup(g, carthage=("carthaginian_siege_train", "bad_weather", "diplomacy_35"))
    answer(g, "carthaginian_siege_train", "event")
    assert g.state["v"]["train_leader"][""] == "hannibal"
    assert "The siege train joins the army of Hannibal in Rome" in logged(g)
    discard(g, "rome", "diplomacy_36")
    besiege_once(g, "bad_weather", 4)
    assert field(g, "roma", "siege") == 1
    assert says(g, ROLL_SIEGE) == [["roma", 4, 0, "carthage", 1]]


def test_three_points_take_rome_and_its_garrison_is_eliminated():
    """research/hannibal.md §9 (D1: three rolls of 5-6); seed 002 §16.4.1 (enemy CUs inside are
    eliminated), §19 (Carthage wins by holding Rome at a victory check, not at once: RULINGS.md
    H-sg-5)."""
    g = board()
    set_leader(g, "hannibal", "roma")
    add_cus(g, "carthage", "roma", 3)
    inside = garrison(g, "rome", "roma", 5)
    setup(g)
    besiege_once(g, "bad_weather", 5, "diplomacy_36")
    besiege_once(g, "diplomacy_35", 6, "major_campaign_34")
    besiege_once(g, "native_guide", 5)
    assert field(g, "roma", "pc") == "carthage"
    assert all(u not in g.state["f"] for u in inside)
    assert "Carthage holds Rome: it wins if it still holds it at the victory check" in logged(g)
    assert not g.over


def test_rome_takes_carthago_and_wins():
    """seed 002 §19 ("Wanneer de Romein Carthago controleert ... wint hij meteen"), §16.4.1;
    seed 003 "Штурм" (5): Rome has two points on Carthago and rolls a 4 (no -1 for Rome)."""
    g = board()
    set_leader(g, "fabius", "carthago", office="proconsul")
    add_cus(g, "rome", "carthago", 3)
    garrison(g, "carthage", "carthago", 2)
    g.state["f"]["carthago"].update(siege=2, besieger="rome")
    setup(g, first="rome")
    move_and_stop(g, "rome", "diplomacy_36")
    assert siege_asked(g)
    g.load_dice([4])
    answer(g, True)
    assert g.over and g.result.winner == "rome"
    assert field(g, "carthago", "pc") == "rome"
    assert g.result.reason == "Rome takes Carthage, the enemy capital"


# ---- §16.4.2: subjugation ----------------------------------------------------------------

def test_carthage_subjugates_a_neutral_tribe_for_good():
    """seed 002 §16.4.2 (three points: the tribe's marker leaves the game, a normal PC replaces
    it; a tribe once subjugated never comes back); seed 003 "Покорение". The siege train does not
    help a subjugation (§16.4 note: RULINGS.md H-sg-3): a 4 with the train is no point."""
    g = board()
    set_leader(g, "hannibal", "taurini")
    add_cus(g, "carthage", "taurini", 3)
    set_var(g, "train_leader", "hannibal")
    setup(g)
    besiege_once(g, "bad_weather", 4, "diplomacy_36")
    assert says(g, MISS_SUBJ) == [["taurini", 4, -1]]
    besiege_once(g, "diplomacy_35", 5, "major_campaign_34")
    besiege_once(g, "native_guide", 6, "minor_campaign_38")
    besiege_once(g, "epidemic", 5)
    assert says(g, ROLL_SUBJ)[-1] == ["taurini", 5, -1, "carthage", 3]
    f = g.state["f"]["taurini"]
    assert f["subjugated"] and f["pc"] == "carthage" and f["siege"] == 0
    assert "Carthage subjugates the tribe of Taurini" in logged(g)


def test_rome_subjugates_a_tribe_friendly_to_carthage_and_it_stays_gone():
    """seed 002 §16.4, §16.4.2, §16.6 (the Boii are Carthage's friends: Rome subjugates them);
    seed 003 "Покорение". Once subjugated the space is a plain PC: no tribe to roll against."""
    g = board()
    set_leader(g, "fabius", "boii", office="proconsul")
    add_cus(g, "rome", "boii", 3)
    g.state["f"]["boii"].update(siege=2, besieger="rome")
    setup(g, first="rome")
    move_and_stop(g, "rome", "diplomacy_36")
    g.load_dice([4])
    answer(g, True)
    f = g.state["f"]["boii"]
    assert f["subjugated"] and f["pc"] == "rome"
    discard(g, "carthage", "bad_weather")
    move_and_stop(g, "rome", "major_campaign_34", leader="fabius")
    assert not siege_asked(g)


# ---- §16.5: points lapse -----------------------------------------------------------------

def test_points_lapse_when_the_besiegers_leave():
    """seed 002 §16.5 (broken off when no enemy CUs are left in the space: the points lapse);
    seed 003 "Штурм" (8)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    g.state["f"]["capua"].update(siege=2, besieger="carthage")
    setup(g)
    answer(g, "bad_weather", "ops", "move", 3, "march", "nola", "stop")
    assert field(g, "capua", "siege") == 0 and field(g, "capua", "besieger") is None
    assert "The siege of Capua by Carthage is broken off: its 2 points lapse" in logged(g)


def test_points_lapse_when_the_besiegers_die():
    """seed 002 §16.5, §8.2 (an army of 5 CUs overruns a lone CU): the last besieging CU is
    overrun by a Roman army and Carthage's points on Capua lapse; seed 003 "Штурм" (8)."""
    g = board()
    add_cus(g, "carthage", "capua", 1)
    g.state["f"]["capua"].update(siege=2, besieger="carthage")
    set_leader(g, "fabius", "nola", office="proconsul")
    add_cus(g, "rome", "nola", 5)
    setup(g, first="rome")
    answer(g, "diplomacy_36", "ops", "move", 5, "march", "capua")
    assert "overruns" in logged(g)
    if "what next" in prompt(g):
        answer(g, "stop")
    assert field(g, "capua", "siege") == 0
    assert "The siege of Capua by Carthage is broken off: its 2 points lapse" in logged(g)


# ---- card 30: the siege train is lost ----------------------------------------------------

def test_the_siege_train_is_lost_when_its_leader_leaves_his_army():
    """seed 002 card 30 (alone, the train is taken off the board; RULINGS.md H-sg-6: it goes with
    its leader and is lost when no Carthaginian CU stands with him)."""
    g = board()
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    set_var(g, "train_leader", "hannibal")
    setup(g)
    answer(g, "bad_weather", "ops", "move", 0, "march", "nola", "stop")
    assert g.state["v"]["train_leader"][""] is None
    assert "The siege train is left without an army and is lost" in logged(g)


def test_the_siege_train_does_not_cross_a_pass():
    """seed 002 card 30 ("kan geen bergpassen oversteken"): the army crosses, the train is lost
    (RULINGS.md H-sg-6)."""
    g = board()
    set_leader(g, "hannibal", "boii")
    add_cus(g, "carthage", "boii", 3)
    set_var(g, "train_leader", "hannibal")
    setup(g)
    g.load_dice([6])
    answer(g, "diplomacy_35", "ops", "move", 3, "march", "faesulae", "stop")
    assert g.state["v"]["train_leader"][""] is None
    assert "cannot follow Hannibal over the mountains or the sea" in logged(g)
