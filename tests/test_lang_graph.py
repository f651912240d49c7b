"""Graph queries that block edges as well as nodes, filtered graph declarations, typed
lambdas `(x: T) => ...`, and aggregates over `expr for x in xs where cond` (docs/language.md,
"Graphs")."""
from __future__ import annotations

import heapq
import re
import shutil
from collections import deque
from pathlib import Path
from typing import Any

import pytest

from engine.core.errors import PackError
from engine.core.loader import load_pack
from engine.dsl.build import build_pack
from engine.dsl.errors import render_text
from engine.dsl.formatter import format_source
from engine.dsl.parser import parse_module

ROOT = Path(__file__).resolve().parent.parent

# a -1- b -2(pass)- c -1- d -2(strait)- g
# |                      |
# 2                      2 (alpine_pass)
# |                      |
# e --------- 1 -------- f        and b -3- f
RECORDS = """
space:
  - {id: a}
  - {id: b}
  - {id: c, kind: city}
  - {id: d}
  - {id: e}
  - {id: f}
  - {id: g}
link:
  - {id: ab, a: a, b: b}
  - {id: bc, a: b, b: c, kind: pass, cost: 2}
  - {id: cd, a: c, b: d}
  - {id: ae, a: a, b: e, cost: 2}
  - {id: ef, a: e, b: f}
  - {id: fd, a: f, b: d, kind: alpine_pass, cost: 2}
  - {id: dg, a: d, b: g, kind: strait, cost: 2}
  - {id: bf, a: b, b: f, cost: 3}
"""

DECLS = """
type space:
    kind: text = "plain"
type link:
    a: space
    b: space
    cost: int = 1
    kind: text = "normal"
var active: side = red
var straits_open: bool = false
graph map of space via link
graph dry of space via link where c => c.kind not in ["pass", "alpine_pass"]
graph no_pass of space via link where (c: link) => c.kind != "pass"
"""
AFTER_DECLS = DECLS.lstrip("\n").count("\n") + 1  # the line after the declarations


def says(game: Any) -> list[str]:
    return [" ".join([e["m"], *map(str, e["a"])]) for e in game.log if e["t"] == "say"]


def run_setup(write_pack, body: str) -> list[str]:
    pack = load_pack(write_pack(DECLS + "on setup:\n" + body, RECORDS))
    return says(pack.new_game(0))


def diagnostics(write_pack, extra: str, decls: str = DECLS) -> list[Any]:
    b = build_pack(write_pack(decls + extra, RECORDS))
    assert not b.ok
    return b.diagnostics


def only(diags: list[Any], code: str) -> Any:
    found = [d for d in diags if d.code == code]
    assert len(found) == 1, render_text(diags)
    return found[0]


# ---- edge predicates in queries ------------------------------------------------------------
def test_full_graph_answers_are_unchanged(write_pack):
    # from a: b 1, e 2, c 3 (a-b-c), f 3 (a-e-f), d 4 (via c), g 6
    assert run_setup(write_pack, """
    log "r", reachable(map, a, 99)
    log "d", distance(map, a, c), path(map, a, g)
""") == ["r ['b', 'e', 'c', 'f', 'd', 'g']", "d 3 ['a', 'b', 'c', 'd', 'g']"]


def test_edge_predicate_blocks_connections_of_a_kind(write_pack):
    # without passes a, b, e, f are cut off from c, d, g
    assert run_setup(write_pack, """
    log "r", reachable(map, a, 99, none, e => e.kind == "pass" or e.kind == "alpine_pass")
    log "d", distance(map, a, d, none, e => e.kind in ["pass", "alpine_pass"])
    log "p", path(map, a, d, none, e => e.kind in ["pass", "alpine_pass"])
    log "only pass", path(map, a, d, none, (e: link) => e.kind == "pass"), distance(map, a, c,
        none, e => e.kind == "pass")
""") == ["r ['b', 'e', 'f']", "d None", "p []",
         # a-e-f-d costs 2 + 1 + 2; then d-c 1
         "only pass ['a', 'e', 'f', 'd'] 6"]


def test_node_and_edge_predicates_together(write_pack):
    assert run_setup(write_pack, """
    log "node", path(map, a, d, n => n == f), reachable(map, a, 99, (n: space) => n == f)
    log "both", reachable(map, a, 99, n => n == f, e => e.kind == "pass")
    log "none", path(map, a, d, n => n == f, e => e.kind == "pass")
""") == ["node ['a', 'b', 'c', 'd'] ['b', 'e', 'c', 'd', 'g']", "both ['b', 'e']", "none []"]


def test_neighbors_with_kinds_and_predicates(write_pack):
    assert run_setup(write_pack, """
    log "n", neighbors(map, b), neighbors(map, b, none, e => e.kind == "pass")
    log "n", neighbors(map, b, n => n == a), neighbors(map, b, (n: space) => n == a,
        e => e.cost > 2)
    log "n", neighbors(map, b, "normal"), neighbors(map, b, "normal", e => e.cost > 2)
""") == ["n ['a', 'c', 'f'] ['a', 'f']", "n ['c', 'f'] ['c']", "n ['a', 'f'] ['a']"]


def test_edge_predicate_reads_the_game_state(write_pack):
    # from c: d 1, b 2, a 3, f 3 (over the alpine pass), e 4; g 3 once the strait is open
    assert run_setup(write_pack, """
    log "shut", reachable(map, c, 99, none, e => e.kind == "strait" and not straits_open)
    straits_open = true
    log "open", reachable(map, c, 99, none, e => e.kind == "strait" and not straits_open)
""") == ["shut ['d', 'b', 'a', 'f', 'e']", "open ['d', 'b', 'a', 'f', 'g', 'e']"]


def test_edge_predicate_in_a_suspending_rule(write_pack):
    # locals of a rule that waits for a player live in its frame: the lambda still reads them
    pack = load_pack(write_pack(DECLS + """
on setup:
    let banned = "pass"
    let go = ask red "Go?"
    log "r", reachable(map, a, 99, none, e => e.kind == banned or e.kind == "alpine_pass")
""", RECORDS))
    game = pack.new_game(0)
    game.apply(game.legal_actions()[0])
    assert says(game) == ["r ['b', 'e', 'f']"]


# ---- filtered graphs ---------------------------------------------------------------------------
def test_filtered_graphs(write_pack):
    # no_pass: a-e-f-d-c costs 2 + 1 + 2 + 1 = 6; within 5: b 1, e 2, f 3, d 5
    assert run_setup(write_pack, """
    log "dry", reachable(dry, a, 99), distance(dry, a, d), path(dry, a, d)
    log "no pass", distance(no_pass, a, c), path(no_pass, a, c), reachable(no_pass, a, 5)
    log "edges", edge(dry, b, c), edge(no_pass, f, d), edge(map, b, c)
    log "with predicates", reachable(no_pass, a, 99, n => n == d), path(no_pass, a, g, none,
        e => e.kind == "strait")
""") == ["dry ['b', 'e', 'f'] None []",
         "no pass 6 ['a', 'e', 'f', 'd', 'c'] ['b', 'e', 'f', 'd']",
         "edges None fd bc",
         "with predicates ['b', 'e', 'f'] []"]


def test_filtered_graphs_are_built_once_per_pack(write_pack):
    pack = load_pack(write_pack(DECLS + "on setup:\n    log \"d\", distance(dry, a, f)\n",
                                RECORDS))
    dry = pack.graphs["dry"]
    assert {eid for edges in dry.adj.values() for *_, eid in edges} == {"ab", "cd", "ae", "ef",
                                                                       "dg", "bf"}
    games = [pack.new_game(seed) for seed in range(3)]
    assert all(g.rt.graphs["dry"] is dry for g in games)
    assert says(games[0]) == ["d 3"]
    assert dry._memo  # unblocked searches are remembered, as on the full graph
    assert pack.graphs["map"] is not dry and len(pack.graphs) == 3


def test_a_filter_may_read_records_and_the_full_graph(write_pack):
    pack = load_pack(write_pack(DECLS.replace("graph no_pass", "graph cities of space via link "
                                              "where c => c.a.kind == \"city\" or "
                                              "count(neighbors(map, c.b)) > 2\ngraph no_pass")
                                + "on setup:\n    pass\n", RECORDS))
    # the edge from the city c (cd), and those to b, d and f, which have 3 neighbours each
    assert {eid for edges in pack.graphs["cities"].adj.values()
            for *_, eid in edges} == {"cd", "ab", "ef", "fd", "bf"}


@pytest.mark.parametrize("cond, what, at", [
    ('c.kind != "pass" and straits_open', "var 'straits_open'", "straits_open"),
    ("roll(1, 6) > c.cost", "'roll', a die roll", "roll(1, 6)"),
    ("c.a in neighbors(dry, c.b)", "graph 'dry', itself a filtered graph", "neighbors(dry, c.b)"),
])
def test_a_filter_cannot_read_the_game_state(write_pack, cond, what, at):
    diags = diagnostics(write_pack, f"graph bad of space via link where c => {cond}\n")
    d = only(diags, "E247")
    assert what in d.message and "when the pack loads" in d.message
    assert d.line == AFTER_DECLS
    assert d.line_text[d.col - 1:d.end_col - 1] == at


def test_a_filter_that_fails_on_a_record_is_located(write_pack):
    root = write_pack(DECLS + "graph bad of space via link where c => 10 / (c.cost - 1) > 1\n"
                      "on setup:\n    pass\n", RECORDS)
    with pytest.raises(PackError) as err:
        load_pack(root)
    d = only(err.value.diagnostics, "E248")
    assert "failed on link 'ab'" in d.message and "ZeroDivisionError" in d.message
    assert (Path(d.path).name, d.line, d.col) == ("rules.rules", AFTER_DECLS, 35)
    from engine.core.validate import validate_paths
    assert "E248" in [x.code for x in validate_paths([root])]


def test_filtered_graph_with_costs_and_unreachable_ends_on_no_edges(write_pack):
    pack = load_pack(write_pack(DECLS + "graph nothing of space via link where c => false\n"
                                "on setup:\n    log \"x\", distance(nothing, a, b), "
                                "path(nothing, a, b), reachable(nothing, a, 9), "
                                "neighbors(nothing, a), path(nothing, a, a)\n", RECORDS))
    assert says(pack.new_game(0)) == ["x None [] [] [] ['a']"]


# ---- typed lambdas -------------------------------------------------------------------------
def test_the_misuse_from_the_issue_is_a_located_error(write_pack):
    # `e` receives a space here, and spaces have a `kind` too: but none has kind "pass"
    diags = diagnostics(write_pack, 'on setup:\n    let x = reachable(map, a, 99, '
                        'e => e.kind == "pass")\n')
    d = only(diags, "E246")
    assert (d.line, d.col) == (AFTER_DECLS + 1, 40)
    assert d.message.startswith('this predicate receives a space, and no space has kind "pass"')
    assert d.suggestion == "reachable(map, start, limit, none, (e: link) => ...)"


def test_a_node_predicate_on_texts_nodes_hold_is_fine(write_pack):
    assert run_setup(write_pack, """
    log "r", reachable(map, a, 99, n => n.kind in ["city", "plain"] and n != b)
    log "r", reachable(map, a, 99, n => n.kind == "city")
""") == ["r ['b']", "r ['b', 'e', 'f', 'd', 'g']"]


@pytest.mark.parametrize("call, said, receives", [
    ('reachable(map, a, 99, (e: link) => e.kind == "pass")', "link", "a space"),
    ("path(map, a, b, none, (n: space) => n == a)", "space", "a link"),
    ("neighbors(map, a, \"pass\", (n: space) => true)", "space", "a link"),
    ("neighbors(map, a, (n: link) => true)", "link", "a space"),
    ("sort([a, b], (n: link) => 1)", "link", "a space"),
])
def test_an_annotation_that_contradicts_the_position(write_pack, call, said, receives):
    diags = diagnostics(write_pack, f"on setup:\n    let _x = {call}\n")
    d = only(diags, "E245")
    assert d.message == f"this {'function' if 'sort' in call else 'predicate'} receives " \
                        f"{receives}, not a {said}"
    assert d.line_text[d.col - 1:d.end_col - 1] == said
    # the body is checked by the type it states: no second error follows from it
    assert [x.code for x in diags] == ["E245"]


def test_annotation_hints_and_unknown_types(write_pack):
    d = only(diagnostics(write_pack, 'on setup:\n    let x = reachable(map, a, 9, '
                         '(e: link) => e.kind == "pass")\n'), "E245")
    assert d.suggestion == ("in 'reachable', the first predicate says which space is blocked; "
                            "the link predicate comes after it: "
                            "reachable(map, start, limit, none, (e: link) => ...)")
    d = only(diagnostics(write_pack, "on setup:\n    let x = neighbors(map, a, (n: lnk) => "
                         "true)\n"), "E202")
    assert d.suggestion == "did you mean 'link'?"
    d = only(diagnostics(write_pack, "graph bad of space via link where (c: space) => true\n"),
             "E245")
    assert d.message == "this filter receives a link, not a space"


def test_lambda_parameters_are_typed_by_what_they_receive(write_pack):
    # an edge predicate's parameter is a link: `e.label` is no field of it, `e.cost` is
    d = only(diagnostics(write_pack, "on setup:\n    let x = reachable(map, a, 9, none, "
                         "e => e.label == 1)\n"), "E205")
    assert "unknown field of link 'label'" in d.message
    d = only(diagnostics(write_pack, "on setup:\n    let x = sort([ab, bc], e => e.kind)\n"),
             "E220")
    assert "must be int" in d.message
    d = only(diagnostics(write_pack, "on setup:\n    let x = sort([a, b], (s: list of space) "
                         "=> 1)\n"), "E245")
    assert d.message == "this function receives a space, not a list of space"


def test_annotated_lambdas_validate_and_run(write_pack):
    assert run_setup(write_pack, """
    log "s", sort([ab, bc, cd, fd], (e: link) => 0 - e.cost)
    log "p", path(map, a, d, (n: space) => n == f, (e: link) => e.cost > 2)
""") == ["s ['bc', 'fd', 'ab', 'cd']", "p ['a', 'b', 'c', 'd']"]


def test_new_syntax_formats_and_round_trips():
    text = ("graph dry of space via link where (c: link) => c.kind != \"pass\"\n"
            "graph wet of space via link where c=>c.kind==\"sea\"\n"
            "on setup:\n"
            "    let x = reachable(map, a, 9, none, ( e : link )=>e.cost>1)\n"
            "    let y = sort(xs, (s: list of space?) => 1)\n")
    out = format_source(text)
    assert out == ("graph dry of space via link where (c: link) => c.kind != \"pass\"\n"
                   "graph wet of space via link where c => c.kind == \"sea\"\n"
                   "\n"
                   "on setup:\n"
                   "    let x = reachable(map, a, 9, none, (e: link) => e.cost > 1)\n"
                   "    let y = sort(xs, (s: list of space?) => 1)\n")
    assert parse_module(out) == parse_module(text)
    assert format_source(out) == out


# ---- aggregates over `expr for x in xs where cond` ----------------------------------------------
def test_aggregates_use_both_the_expression_and_the_condition(write_pack):
    # non-normal links: bc 2, fd 2, dg 2; normal ones: ab 1, cd 1, ae 2, ef 1, bf 3
    assert run_setup(write_pack, """
    log "every", every(x.cost > 1 for x in link where x.kind != "normal"), every(
        x.cost > 1 for x in link where x.kind == "normal"), every(x.cost > 1 for x in link)
    log "exists", exists(x.cost > 2 for x in link where x.kind != "normal"), exists(
        x.cost > 2 for x in link where x.kind == "normal"), exists(x.cost > 2 for x in link)
    log "filters", every(x in link where x.cost > 0), exists(x in link where x.cost > 2), exists(
        x in link where x.cost > 3)
    log "count", count(x.cost for x in link where x.kind == "normal"), count(
        x in link where x.cost == 2), count(x.cost for x in link)
    log "sum", sum(x.cost for x in link where x.kind != "normal"), sum(x.cost for x in link)
    log "min max", min(x.cost for x in link where x.kind == "normal"), max(
        x.cost for x in link where x.kind == "normal")
""") == ["every True False False", "exists False True True", "filters True True False",
         "count 5 4 8", "sum 6 14", "min max 1 3"]


def test_a_failing_every_check_points_at_the_records_its_test_fails(write_pack):
    from engine.core.validate import validate_paths
    root = write_pack(DECLS + 'check "cheap normal links": every(x.cost < 2 for x in link '
                      'where x.kind == "normal")\non setup:\n    pass\n', RECORDS)
    failing = [d for d in validate_paths([root]) if d.code == "E400"]
    # ae (cost 2) and bf (cost 3) fail; bc, fd and dg are not tested: they are no normal links
    located = sorted(d.line_text.strip() for d in failing if d.path.endswith("records.yaml"))
    assert located == ["- {id: ae, a: a, b: e, cost: 2}", "- {id: bf, a: b, b: f, cost: 3}"]


# ---- the docs example -------------------------------------------------------------------------
def test_the_docs_example_validates_and_answers(write_pack):
    docs = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    m = re.search(r"A graph declared with `where`.*?```\n(.*?)```", docs, re.S)
    assert m
    rules = m.group(1) + "on setup:\n    pass\n"
    pack = load_pack(write_pack(rules, """
space:
  - {id: p}
  - {id: q}
  - {id: r}
  - {id: s}
road:
  - {id: pq, a: p, b: q}
  - {id: qr, a: q, b: r, kind: pass, cost: 2}
  - {id: ps, a: p, b: s, kind: strait, cost: 2}
  - {id: sr, a: s, b: r}
"""))
    assert pack.call_value("march", "p") == ["q", "s", "r"]  # p-s-r costs 3, not over the pass
    assert pack.call_value("march2", "p") == ["q", "s", "r"]
    assert pack.call_value("march", "q") == ["p", "s", "r"]  # not over the pass q-r: q-p-s-r
    # nobody holds anything: the strait is blocked, the pass is not
    assert pack.call_value("supply", "red", "p", "r") == ["p", "q", "r"]


# ---- Hannibal: the shipped map ------------------------------------------------------------------
PROBE = """
# source: seed 002 §8.3 (mountain passes and the Alps)
graph lowland of space via connection where c => c.kind not in ["pass", "alpine_pass"]
# source: seed 002 §8.3
value over_land(s: space): list of space = reachable(land, s, 1000, none,
    (c: connection) => c.kind in ["pass", "alpine_pass"])
# source: seed 002 §8.3
value over_lowland(s: space): list of space = reachable(lowland, s, 1000)
# source: seed 002 §8.3
value lowland_distance(a: space, b: space): int? = distance(lowland, a, b)
# source: seed 002 §8.3
value lowland_path(a: space, b: space): list of space = path(land, a, b, none,
    c => c.kind == "pass" or c.kind == "alpine_pass")
"""

MOUNTAINS = ("pass", "alpine_pass")


@pytest.fixture(scope="module")
def hannibal(tmp_path_factory):
    root = tmp_path_factory.mktemp("hb") / "hannibal"
    shutil.copytree(ROOT / "content" / "hannibal", root)
    (root / "probe.rules").write_text(PROBE, encoding="utf-8")
    return load_pack(root)


def _lowland_adjacency(pack) -> dict[str, list[tuple[str, int]]]:
    adj: dict[str, list[tuple[str, int]]] = {s: [] for s in pack.by_type["space"]}
    for cid in pack.by_type["connection"]:
        c = pack.records[cid]
        if c["kind"] not in MOUNTAINS:
            adj[c["a"]].append((c["b"], c["cost"]))
            adj[c["b"]].append((c["a"], c["cost"]))
    return adj


def _bfs(adj, start: str) -> set[str]:
    seen, todo = {start}, deque([start])
    while todo:
        for n, _cost in adj[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen - {start}


def _costs(adj, start: str) -> dict[str, int]:
    dist, heap = {start: 0}, [(0, start)]
    while heap:
        d, n = heapq.heappop(heap)
        if d > dist[n]:
            continue
        for m, cost in adj[n]:
            if d + cost < dist.get(m, d + cost + 1):
                dist[m] = d + cost
                heapq.heappush(heap, (d + cost, m))
    return dist


def test_hannibal_reach_without_crossing_a_pass_matches_a_search(hannibal):
    adj = _lowland_adjacency(hannibal)
    kinds = {hannibal.records[c]["kind"] for c in hannibal.by_type["connection"]}
    assert set(MOUNTAINS) <= kinds  # the map has both kinds, or the test proves nothing
    full = {k: [(n, 1) for n in v] for k, v in _full_adjacency(hannibal).items()}
    cut = 0
    for s in hannibal.by_type["space"]:
        want = _bfs(adj, s)
        assert set(hannibal.call_value("over_land", s)) == want, s
        assert set(hannibal.call_value("over_lowland", s)) == want, s
        cut += len(want) < len(_bfs(full, s))
    assert cut > 0  # the passes do cut some spaces off


def _full_adjacency(pack) -> dict[str, list[str]]:
    adj: dict[str, list[str]] = {s: [] for s in pack.by_type["space"]}
    for cid in pack.by_type["connection"]:
        c = pack.records[cid]
        adj[c["a"]].append(c["b"])
        adj[c["b"]].append(c["a"])
    return adj


def test_hannibal_lowland_distances_and_paths(hannibal):
    adj = _lowland_adjacency(hannibal)
    for start in ("roma", "carthago", "new_carthage", "taurini"):
        costs = _costs(adj, start)
        for s in hannibal.by_type["space"]:
            got = hannibal.call_value("lowland_distance", start, s)
            assert got == costs.get(s), (start, s)
            way = hannibal.call_value("lowland_path", start, s)
            if s not in costs:
                assert way == []
                continue
            assert way[0] == start and way[-1] == s
            steps = [hannibal.model.records[c].data for c in hannibal.by_type["connection"]]
            spent = 0
            for x, y in zip(way, way[1:]):
                joined = [c for c in steps if {c["a"], c["b"]} == {x, y}
                          and c["kind"] not in MOUNTAINS]
                assert joined, (x, y)
                spent += min(c["cost"] for c in joined)
            assert spent == costs[s]
    # Rome to Hadria: the Gran Sasso pass is closed, so round by Samnium and the coast
    assert hannibal.call_value("lowland_distance", "roma", "hadria") == 5


def test_hannibal_misuse_is_a_located_error(tmp_path):
    root = tmp_path / "hannibal"
    shutil.copytree(ROOT / "content" / "hannibal", root)
    (root / "probe.rules").write_text(
        "# source: seed 002 §8.3\n"
        "value wrong(s: space): list of space = reachable(land, s, 99, e => e.kind == \"pass\")\n",
        encoding="utf-8")
    b = build_pack(root)
    d = only(b.diagnostics, "E246")
    assert (Path(d.path).name, d.line) == ("probe.rules", 2)
    assert d.line_text[d.col - 1:d.end_col - 1] == 'e.kind == "pass"'
    assert "no space has kind \"pass\" (a connection does)" in d.message


def test_a_filter_may_read_a_const(write_pack):
    """Consts are worked out before the filtered graphs are built: a filter that reads
    one failed with E248 (NameError) when the graphs were built first."""
    from engine.core.loader import load_pack
    root = write_pack("""
        var active: side = red
        type town
        type road:
            a: town
            b: town
            cost: int = 1
        const slow = 2
        graph fast of town via road where r => r.cost < slow
        on setup:
            pass
    """, {"map.yaml": """
        town:
          - {id: x}
          - {id: w}
          - {id: z}
        road:
          - {id: xw, a: x, b: w, cost: 1}
          - {id: wz, a: w, b: z, cost: 3}
        """})
    pack = load_pack(root)
    assert {eid for edges in pack.graphs["fast"].adj.values() for *_, eid in edges} == {"xw"}
