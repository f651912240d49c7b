"""Bugs the mutation fuzzer found (bench/fuzz.py), each pinned by its smallest case."""
from __future__ import annotations

import time

import pytest

from engine.core.errors import EngineFault
from engine.dsl.build import build_pack


def test_negative_edge_cost_is_an_error(write_pack):
    """`cost: -1` on an undirected road made a negative loop: the cheapest-path search
    never ended (fuzz seed 2, testgame:168)."""
    root = write_pack("""
        var active: side = red
        type town
        type road:
            a: town
            b: town
            cost: int = 1
        graph roads of town via road
        on setup:
            pass
    """, {"map.yaml": """
        town:
          - {id: x}
          - {id: z}
        road:
          - {id: xz, a: x, b: z, cost: -1}
        """})
    [d] = [d for d in build_pack(root).diagnostics if d.code == "E232"]
    assert d.message == "road 'xz' has cost -1: costs of graph 'roads' cannot be negative"
    assert d.path.endswith("map.yaml") and d.line == 5


def test_a_negative_choice_count_is_a_located_fault(inline_pack):
    """`choose n c from ...` with n < 0 made a decision with no legal answer, and
    random_action crashed with ValueError (fuzz seed 1, leakgame:267)."""
    pack = inline_pack("""
        var active: side = red
        on setup:
            let n = 2 - 3
            let c = choose n x from numbers(1, 3) by red
    """)
    with pytest.raises(EngineFault, match=r"rules.rules:4: a choice of at most -1 items"):
        pack.new_game(1)


def test_undo_snapshots_do_not_copy_the_log(inline_pack):
    """A rule that logs 50,000 lines made every later move copy them for undo (fuzz seed 1,
    leakgame:152: 5 s a move). Undo still restores the log exactly."""
    pack = inline_pack("""
        var active: side = red
        var n: int = 0
        on setup:
            repeat 50000:
                log "noise"
            while true:
                let k = choose x from numbers(1, 3) by red
                n += k
    """)
    g = pack.new_game(1)
    length = len(g.log)
    start = time.perf_counter()
    for _ in range(50):
        g.apply(1)
    per_move = (time.perf_counter() - start) / 50
    assert per_move < 0.02, f"{per_move * 1000:.1f} ms a move"
    for _ in range(50):
        g.undo("red")
    assert len(g.log) == length and g.var("n") == 0


def test_writing_a_var_at_index_none_is_a_located_fault(inline_pack):
    """`choose` from an empty list gives none; `mark[c] = ...` then stored a None key, and
    the save crashed sorting keys (fuzz seed 0, tictactoe:75)."""
    pack = inline_pack("""
        var active: side = red
        type cell
        var mark[c: cell]: side?
        on setup:
            let c = choose c from cell where mark[c] == none
            mark[c] = active
    """, "cell: []\n")
    with pytest.raises(EngineFault, match=r"rules.rules:6: mark\[none\] is not a place"):
        pack.new_game(1)


def test_moving_a_side_into_a_zone_is_a_located_fault(inline_pack):
    """`move active to deck` put the side 'blue' among the cards; the save then refused to
    load (fuzz seed 11, leakgame:1511). Zones hold records only."""
    pack = inline_pack("""
        var active: side = red
        type card
        zone deck of card ordered hidden
        on setup:
            move active to deck
    """, "card:\n  - {id: c1}\n")
    with pytest.raises(EngineFault, match=r"rules.rules:5: cannot move 'red' to deck"):
        pack.new_game(1)


@pytest.mark.parametrize("clash", ["enum kind: a, b\nenum kind: c", "type kind\nenum kind: a",
                                   "const kind = 1\nenum kind: a", "enum kind: a\nconst kind = 2"])
def test_an_enum_or_const_declared_twice_is_located(write_pack, clash):
    """A name declared twice where one declaration is an enum or const crashed the pack
    reader with KeyError (fuzz seed 0, testgame:75, after enums and consts were added)."""
    root = write_pack(clash + "\nvar active: side = red\non setup:\n    pass\n")
    [d] = [d for d in build_pack(root).diagnostics if d.code == "E306"]
    assert "'kind' is declared twice" in d.message


def test_neighbors_by_kind_over_an_unknown_edge_type_is_located(write_pack):
    """`neighbors(g, x, "pass")` on a graph whose edge type does not exist crashed the
    checker with KeyError (fuzz seed 0, testgame:75)."""
    root = write_pack("""
        var active: side = red
        type town
        graph roads of town via rode
        on setup:
            log "n", neighbors(roads, none, "pass")
    """)
    codes = [d.code for d in build_pack(root).diagnostics]
    assert "E202" in codes
