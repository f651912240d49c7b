"""engine.dsl.compile.static: a value whose compiled formula reads only its arguments and
the pack's static data is worked out once per arguments and kept in the pack's module
(M_<value>), never in the game state; the analysis reads the compiled Python, so anything
that reads the game (V, Z, GF, a die) or calls a value that does keeps a value out."""
from __future__ import annotations

from compile_passes import function, says

from engine.core.loader import load_pack
from engine.dsl.compile.static import static_values


def test_the_analysis_reads_the_compiled_formulas():
    bodies = {
        "size": "RF_size[l_r]",  # a field of the pack's records
        "twice": "imul(v_size(G, l_r), 2)",  # calls a static value
        "owned": "GF[l_r]['owner']",  # a field in play
        "scored": "(PV['score'][''] + v_size(G, l_r))",  # a var
        "via": "v_owned(G, l_r)",  # calls a value that reads the game
        "rolled": "G.roll(1, 6)",  # a die
        "ping": "v_pong(G, l_n)", "pong": "(0 if l_n <= 0 else v_ping(G, (l_n - 1)))",
        "bumped": "RF_size[l_r]",  # modified by a rule
    }
    assert static_values(bodies, {"bumped"}) == {"size", "twice", "ping", "pong"}


RULES = """
type region:
    size: int
var active: side = red
var score: int = 0
value total(): int = sum(r.size for r in region)
value scored(): int = score + total()
on setup:
    log "start", total(), scored()
    score = 5
    log "end", total(), scored()
    end game
"""
RECORDS = """
region:
  - {id: north, size: 2}
  - {id: south, size: 4}
"""


def test_a_static_value_is_kept_in_the_packs_module(write_pack):
    pack = load_pack(write_pack(RULES, RECORDS))
    assert pack.ns["STATIC_VALUES"] == {"total"} and set(pack.ns["MEMOS"]) == {"total"}
    total = function(pack.code, "v_total")
    assert total.startswith("def v_total(G):\n    got = M_total.get(())\n"
                            "    if got is not None: return G.kept(got)\n")
    assert "M_" not in function(pack.code, "v_scored")
    for memo in pack.ns["MEMOS"].values():
        memo.clear()
    game = pack.new_game(0)
    assert says(game) == [["start", 6, 6], ["end", 6, 11]]
    assert pack.ns["M_total"] == {(): (6, pack.ns["M_total"][()][1])}
    assert not any(key.startswith("M_") for key in game.state)
    warm = pack.new_game(0)  # from the cache: the same steps charged
    assert warm.state["steps"] == game.state["steps"] and says(warm) == says(game)
