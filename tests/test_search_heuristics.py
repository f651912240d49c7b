"""The packs' heuristics for the search bot (pack.yaml `search_heuristic:`, search.rules):
what each reads beyond the greedy bot's `heuristic`, against the rules it anticipates."""
from __future__ import annotations

from engine import load_pack

AP = load_pack("ante_portas")
R = AP.records


def values(game, side):
    """(the search bot's value, the greedy bot's) for `side`."""
    return game.search_heuristic(side), game.heuristic(side)


def infantry(c: str) -> int:
    half = R[c].get("carthaginian")
    return R[half]["infantry"] if half else 0


def cards_lost(hand: list[str], need: int) -> int:
    """How many of `hand`, strongest infantry first, pay `need` ("Kör végi csata")."""
    paid = 0
    for n, c in enumerate(sorted(hand, key=infantry, reverse=True)):
        if paid >= need:
            return n
        paid += infantry(c)
    return len(hand)  # all of it: paid at the last card, or not at all


def test_ante_portas_reads_the_battle_at_the_chosen_target():
    """seed 000, "Kör végi csata" (Carthage discards cards until their infantry exceeds the
    Roman infantry at the target, the army attached there as army), "Menetidő" (the target is
    chosen at the start of the round): the search's value is the greedy one less 10 a card
    the battle will cost; with no target chosen they are the same."""
    g = AP.new_game(0, undo=False)
    assert values(g, "carthage")[0] == values(g, "carthage")[1]
    hand = g.zone("hand", "carthage")
    target = "capua"
    army = ["consul_scipio"]
    army_cards = [c for c in AP.by_type["card"] if R[c]["roman"] in army]
    g.rt.v["target"]["carthage"] = target
    for c in army_cards:
        g.rt.move(c, f"attached|rome|{target}")
        g.rt.v["use"][f"rome|{c}"] = "army"
    rome_inf = sum(R[R[c]["roman"]]["infantry"] for c in army_cards)
    rome_cav = sum(R[R[c]["roman"]]["cavalry"] for c in army_cards)
    # 7,500 infantry and 800 cavalry against 4+ cards: half the infantry (R8)
    assert 3000 <= rome_inf < 10000 and rome_cav >= 400 and len(hand) >= 4
    lost = cards_lost(hand, (rome_inf + 1) // 2)
    assert lost >= 1
    search, greedy = values(g, "carthage")
    assert search == greedy - 10 * lost
    assert values(g, "rome") == (-search, -greedy)


def test_ante_portas_reads_the_siege_as_the_game():
    """seed 000, "Róma ostroma": marching on Rome, Rome's hand (at most 5 cards) fights, and
    Carthage wins with a card left after its losses, else Rome wins: the search values the
    pending siege far above any standing; the greedy bot does not read it."""
    g = AP.new_game(0, undo=False)
    g.rt.v["target"]["carthage"] = "roma"
    strong = [c for c in AP.by_type["card"] if R[R[c]["roman"]]["infantry"] >= 5000]
    for c in strong:
        g.rt.move(c, "hand|rome")
    weak = min(g.zone("hand", "carthage"), key=infantry)
    for c in g.zone("hand", "carthage"):
        if c != weak:
            g.rt.move(c, "out")
    search, greedy = values(g, "rome")
    assert search - greedy >= 500  # one weak card cannot pay for Rome's hand: Rome wins
    for c in g.zone("hand", "rome"):
        g.rt.move(c, "out")
    search, greedy = values(g, "carthage")
    assert search - greedy == 500  # Rome holds no army: Hannibal takes Rome


HN = load_pack("hannibal")


def test_hannibal_counts_a_pc_the_isolation_phase_removes_as_lost():
    """seed 002 §15.4 (a PC with no line to an own CU, walled city, tribe or port is removed in
    the isolation phase): a Carthaginian PC placed in Narbo (Gallia Transalpina, which scores no
    point, §18.1) at the set-up, with no Carthaginian end next door, raises the greedy value by
    its one PC and the search's by nothing."""
    g = HN.new_game(0, undo=False)
    before = values(g, "carthage")
    g.state["f"]["narbo"]["pc"] = "carthage"
    after = values(g, "carthage")
    assert after[1] == before[1] + 1
    assert after[0] == before[0]
