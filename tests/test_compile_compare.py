"""engine.dsl.compile.compare: `x == none` is Python's `x is None` (no rule value equals
None without being it), and a literal compared with none is worked out when compiling
(Python warns of `'north' is not None`); plainly, both are `==` and `!=`."""
from __future__ import annotations

import warnings

from compile_passes import REGIONS, both_ways, says

from engine.dsl.compile.compare import comparison

RULES = """
type region:
    size: int
var owner[r: region]: side? = none
var active: side = red
on setup:
    owner[north] = red
    log "free", count(r in region where owner[r] == none), north != none, none == none
    log "taken", [r in region where owner[r] != none]
    end game
"""


def test_comparisons_with_none():
    assert comparison("==", "l_x", "None", optimize=True) == "(l_x is None)"
    assert comparison("!=", "None", "l_x", optimize=True) == "(None is not l_x)"
    assert comparison("!=", "'north'", "None", optimize=True) == "True"
    assert comparison("==", "None", "None", optimize=True) == "True"
    assert comparison("==", "l_x", "None", optimize=False) == "(l_x == None)"
    assert comparison("<", "l_x", "1", optimize=True) == "(l_x < 1)"


def test_the_pack_compiles_without_warnings_and_reads_the_same(write_pack):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a SyntaxWarning from compiling the pack fails here
        fast, plain = both_ways(write_pack(RULES, REGIONS))
    assert "(PV['owner'][(l_r)] is None)" in fast.code
    assert "(PV['owner'][(l_r)] is not None)" in fast.code
    assert "'north' != None" not in fast.code and "None == None" not in fast.code
    assert "(PV['owner'][(l_r)] == None)" in plain.code
    assert says(fast.new_game(0)) == says(plain.new_game(0)) == [["free", 2, True, True],
                                                                ["taken", ["north"]]]
