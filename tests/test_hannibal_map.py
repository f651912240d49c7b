"""Hannibal: the reconstructed map (content/hannibal/map.yaml, connections.yaml) against the rules.

The printed board is not public; MAP.md says how it was rebuilt. These tests hold the map to
what seed 002 (the Dutch rulebook) and seed 003 (the Russian summary) say about it, and to the
worked examples that depend on it. Each docstring cites the rule. The same facts are pack
checks in content/hannibal/map.rules, which `engine validate` runs.
"""
from __future__ import annotations

import math
from collections import deque
from pathlib import Path

import pytest
import yaml

from engine import load_pack

ROOT = Path(__file__).resolve().parent.parent
PACK_DIR = ROOT / "content" / "hannibal"
TRANSLATIONS = ROOT / "content" / "translations"


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK_DIR)


@pytest.fixture(scope="module")
def rec(pack):
    return pack.records


def spaces(pack):
    return pack.by_type["space"]


def provinces(pack):
    return pack.by_type["province"]


def connections(pack):
    return [pack.records[c] for c in pack.by_type["connection"]]


def region_of(rec, space):
    return rec[rec[space]["province"]]["region"]


def start_holder(pack, province):
    """The side holding a strict majority of the province's spaces at the start (seed 002 §15.1),
    friendly tribes counting as Carthaginian PCs (§16.6), or None."""
    mine = [s for s in spaces(pack) if pack.records[s]["province"] == province]
    for side in ("rome", "carthage"):
        if 2 * sum(pack.records[s].get("control") == side for s in mine) > len(mine):
            return side
    return None


def land_adjacency(pack, kinds=None):
    adj: dict[str, set[str]] = {s: set() for s in spaces(pack)}
    for c in connections(pack):
        if kinds is None or c["kind"] in kinds:
            adj[c["a"]].add(c["b"])
            adj[c["b"]].add(c["a"])
    return adj


def reach(adj, starts):
    seen, todo = set(starts), deque(starts)
    while todo:
        for n in adj[todo.popleft()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def ally_cards(pack, held, battle_space):
    """seed 002 §11.2.1: one card per held province (each Numidia two) allied at the battle:
    anywhere in its region for Africa, Hispania and Italia (never Latium), else only its own."""
    rec = pack.records
    at = rec[battle_space]["province"]
    region = rec[rec[at]["region"]]
    total = 0
    for p in held:
        if region["allies_region_wide"]:
            counts = rec[p]["region"] == rec[at]["region"] and (
                rec[p]["italian_ally"] or rec[p]["region"] != "italia")
        else:
            counts = p == at
        total += rec[p]["ally_cards"] if counts else 0
    return total


def naval_modifier(rec, start, dest, single_cu=False):
    """seed 002 §8.8.3: both ports' modifiers, -1 for one CU per ship, +1 for a Roman PC at the
    destination."""
    return (rec[start]["naval_modifier"] + rec[dest]["naval_modifier"] - (1 if single_cu else 0)
            + (1 if rec[dest].get("control") == "rome" else 0))


# ---- the pack's own checks ------------------------------------------------------------------

def test_map_checks_pass(pack):
    """The checks of map.rules hold (`engine validate` runs them)."""
    mine = [c for c in pack.run_checks() if str(c[2]).endswith("map.rules")]
    assert mine == []
    assert sum(str(path).endswith("map.rules") for _, path in pack.model.checks) >= 30


def test_land_graph(pack):
    """seed 002 §8.2: spaces joined by lines; the pack declares
    `graph land of space via connection`."""
    land = pack.graphs["land"]
    assert set(land.neighbors("roma")) >= {"ostia", "tarracina", "spoletium"}


# ---- provinces and regions (seed 002 §3, §18.1) ------------------------------------------------

def test_21_provinces_18_scoring_and_the_balearic_area(pack, rec):
    """seed 002 §3: 21 provinces, 18 decide victory. §18.1 names four non-scoring parts
    (Massalia, Liguria, Gallia Transalpina, the Balearics): the Balearics are an area (MAP.md)."""
    provs = [p for p in provinces(pack) if rec[p]["kind"] == "province"]
    assert len(provs) == 21
    assert sum(rec[p]["scoring"] for p in provs) == 18
    assert [p for p in provinces(pack) if rec[p]["kind"] == "area"] == ["balearic_islands_area"]
    non_scoring = {p for p in provinces(pack) if not rec[p]["scoring"]}
    assert non_scoring == {"massilia_province", "liguria", "gallia_transalpina",
                           "balearic_islands_area"}
    assert rec["balearic_islands"]["province"] == "balearic_islands_area"


def test_regions(pack, rec):
    """seed 002 §3: Africa, Hispania, Italia and their provinces; §11.2.1: allies fight anywhere
    inside those three lands, elsewhere only in their own province (example 3, Sicilia)."""
    by_region: dict[str, set[str]] = {}
    for p in provinces(pack):
        by_region.setdefault(rec[p]["region"], set()).add(p)
    assert by_region["africa"] == {"western_numidia", "eastern_numidia", "carthaginia",
                                   "carthage_province"}
    assert by_region["hispania"] == {"baetica", "celtiberia", "orospeda", "idubeda"}
    assert by_region["italia"] == {"gallia_cisalpina", "etruria", "apulia", "latium", "campania",
                                   "lucania", "samnium"}
    assert by_region["islands"] == {"sicilia", "syracuse_province", "sardinia_corsica",
                                    "balearic_islands_area"}
    assert by_region["gallia"] == {"massilia_province", "liguria", "gallia_transalpina"}
    wide = {r for r in pack.by_type["region"] if rec[r]["allies_region_wide"]}
    assert wide == {"africa", "hispania", "italia"}


def test_italian_allies_and_numidias(pack, rec):
    """seed 002 §11.2.1: six Italian allies (not Latium); each Numidia gives 2 battle cards."""
    assert {p for p in provinces(pack) if rec[p]["italian_ally"]} == {
        "campania", "lucania", "apulia", "samnium", "etruria", "gallia_cisalpina"}
    assert {p for p in provinces(pack) if rec[p]["ally_cards"] == 2} == {
        "western_numidia", "eastern_numidia"}


# ---- the worked examples that use the map ------------------------------------------------------

def test_cannae_ally_example(pack, rec):
    """seed 002 §11.2.1: the battle at Cannae, Italia. Carthage holds Gallia Cisalpina and
    Lucania: 2 cards; Rome holds Campania, Samnium and Etruria: 3; nobody holds Apulia."""
    assert rec["cannae"]["province"] == "apulia"
    assert region_of(rec, "cannae") == "italia"
    assert ally_cards(pack, ["gallia_cisalpina", "lucania"], "cannae") == 2
    assert ally_cards(pack, ["campania", "samnium", "etruria"], "cannae") == 3
    assert ally_cards(pack, ["latium"], "cannae") == 0  # Latium is never an ally


def test_spain_africa_sicily_ally_examples(pack):
    """seed 002 §11.2.1 examples 1-3: Spain 3 against 1; Africa, Carthago + Carthagina against
    Numidia Occidentalis, 2 each; Sicilia, only its own province counts."""
    assert ally_cards(pack, ["baetica", "orospeda", "celtiberia"], "toletum") == 3
    assert ally_cards(pack, ["idubeda"], "toletum") == 1
    assert ally_cards(pack, ["carthage_province", "carthaginia"], "zama") == 2
    assert ally_cards(pack, ["western_numidia"], "zama") == 2
    islands = ["sicilia", "sardinia_corsica", "syracuse_province"]
    assert ally_cards(pack, islands, "agrigentum") == 1


def test_naval_example_1(rec):
    """seed 002 §8.8.3 example 1: Carthago (-2) to Carthago Nova (-2) is -4."""
    assert rec["carthago"]["port"] and rec["new_carthage"]["port"]
    assert naval_modifier(rec, "carthago", "new_carthage") == -4


def test_naval_example_2(rec):
    """seed 002 §8.8.3 example 2: one CU (-1) from Carthago Nova (-2) to Rhegium (+1), which
    holds a Roman PC (+1): -1."""
    assert rec["rhegium"]["port"] and rec["rhegium"]["naval_modifier"] == 1
    assert rec["rhegium"].get("control") == "rome"
    assert naval_modifier(rec, "new_carthage", "rhegium", single_cu=True) == -1


def test_year_end_example(pack, rec):
    """seed 002 §18.2: Rome 9 points, Carthage 7: Carthage removes 2 PCs. The start gives
    exactly these counts (research/hannibal.md §3, AAR1's turn-1 count)."""
    scoring = [p for p in provinces(pack) if rec[p]["scoring"]]
    holders = {p: start_holder(pack, p) for p in scoring}
    rome = {p for p, h in holders.items() if h == "rome"}
    carthage = {p for p, h in holders.items() if h == "carthage"}
    assert rome == {"latium", "campania", "apulia", "lucania", "samnium", "etruria",
                    "sicilia", "syracuse_province", "sardinia_corsica"}
    assert carthage == {"carthage_province", "carthaginia", "western_numidia", "eastern_numidia",
                        "baetica", "orospeda", "celtiberia"}
    assert holders["gallia_cisalpina"] is None and holders["idubeda"] is None
    assert len(rome) - len(carthage) == 2


def test_setup_spaces(rec):
    """seed 002 §4.1-§4.2, seed 003 "Подготовка к игре": Rome in Roma (Latium), Longus in
    Agrigentum (Sicilia), Hanno in Carthago, Hannibal in Saguntum, Hasdrubal in Carthago Nova."""
    assert rec["roma"]["province"] == "latium" and rec["roma"]["control"] == "rome"
    assert rec["agrigentum"]["province"] == "sicilia" and rec["agrigentum"]["control"] == "rome"
    for s in ("carthago", "saguntum", "new_carthage"):
        assert rec[s]["control"] == "carthage", s
    assert rec["saguntum"]["kind"] == "walled_city"  # taken by Hannibal in 219 BC (MAP.md)


# ---- walled cities and tribes (seed 002 §16) ----------------------------------------------------

def test_walled_cities(pack, rec):
    """research/hannibal.md §2 [V]: 8 Roman + 5 Carthaginian walled cities; seed 002 §16.2 and
    seed 003 "Крепости": 2 CUs inside, 5 in Rome and Carthage."""
    walled = [s for s in spaces(pack) if rec[s]["kind"] == "walled_city"]
    assert len(walled) == 13
    assert sum(rec[s]["control"] == "rome" for s in walled) == 8
    assert sum(rec[s]["control"] == "carthage" for s in walled) == 5
    for s in walled:
        assert rec[s]["capacity"] == (5 if s in ("roma", "carthago") else 2), s
        assert -1 <= rec[s]["siege_modifier"] <= 1, s
    assert {"capua", "tarentum", "syracuse", "massilia", "saguntum", "gades",
            "new_carthage"} <= set(walled)


def test_capitals(rec):
    """seed 002 §19 (the capitals), research/hannibal.md §9 [V] (D1: Carthage takes Rome with
    three rolls of 5-6, 4-6 with the siege train: Rome's modifier must be 0)."""
    for s, side in (("roma", "rome"), ("carthago", "carthage")):
        assert rec[s]["capital"] == side
        assert rec[s]["capacity"] == 5
        assert rec[s]["siege_modifier"] == 0


def test_tribes(pack, rec):
    """seed 002 §4.3 (eight tribes), §16.6 (Boii, Insubres, Bruttii friendly to Carthage, counted
    as its PCs), card 13 (Bruttium in Lucania); seed 003 "Племена"."""
    tribes = {s: rec[s] for s in spaces(pack) if rec[s]["kind"] == "tribe"}
    assert len(tribes) == 8
    friendly = {s for s, r in tribes.items() if r["tribe"] == "friendly"}
    assert friendly == {"boii", "insubres", "bruttii"}
    assert sum(r["tribe"] == "neutral" for r in tribes.values()) == 5
    assert rec["boii"]["province"] == rec["insubres"]["province"] == "gallia_cisalpina"
    assert rec["bruttii"]["province"] == "lucania"
    for s, r in tribes.items():
        assert r.get("control") == ("carthage" if s in friendly else None), s


# ---- ports (seed 002 §6.4.4, §8.8, cards 10, 11, 50) --------------------------------------------

def test_card_50_ports(rec):
    """seed 002 card 50: landings at Brundisium, Croton or Tarentum."""
    for s in ("brundisium", "croton", "tarentum"):
        assert rec[s]["port"], s
        assert region_of(rec, s) == "italia", s


def test_scipio_africanus_ports(pack, rec):
    """seed 002 §6.4.4: Scipio Africanus lands in a port of Italia or Hispania with a Roman PC."""
    for region in ("italia", "hispania"):
        assert any(rec[s]["port"] and rec[s].get("control") == "rome"
                   and region_of(rec, s) == region
                   for s in spaces(pack)), region


def test_ports_for_cards_10_and_11(pack, rec):
    """seed 002 card 10 (a friendly port in Africa or Italia), card 11 (a port with one's PC)."""
    ports = [s for s in spaces(pack) if rec[s]["port"]]
    assert any(region_of(rec, s) == "africa" and rec[s].get("control") == "carthage"
               for s in ports)
    assert any(region_of(rec, s) == "italia" for s in ports)
    assert rec["balearic_islands"]["port"] and rec["balearic_islands"]["control"] == "carthage"
    for s in spaces(pack):
        assert rec[s]["port"] or rec[s]["naval_modifier"] == 0, s
        assert -2 <= rec[s]["naval_modifier"] <= 1, s


# ---- connections (seed 002 §8.2-§8.3) -----------------------------------------------------------

def test_connections_undirected_unique(pack):
    """seed 002 §8.2: a line joins two spaces; one record per pair, no loops."""
    pairs = [frozenset((c["a"], c["b"])) for c in connections(pack)]
    assert all(len(p) == 2 for p in pairs)
    assert len(pairs) == len(set(pairs))


def test_costs(pack):
    """seed 002 §8.3.1, seed 003 "Движение": passes and straits cost 2 movement points."""
    for c in connections(pack):
        assert c["kind"] in ("normal", "pass", "alpine_pass", "strait")
        assert c["cost"] == (1 if c["kind"] == "normal" else 2), c["id"]


def test_straits(pack, rec):
    """seed 002 §8.3.3: the straits between Messana and Rhegium (only for a player holding both)
    and at Sardinia (always open)."""
    straits = [c for c in connections(pack) if c["kind"] == "strait"]
    assert len(straits) == 2
    pairs = {frozenset((c["a"], c["b"])) for c in straits}
    assert frozenset(("messana", "rhegium")) in pairs
    other = next(p for p in pairs if p != frozenset(("messana", "rhegium")))
    assert {rec[s]["province"] for s in other} == {"sardinia_corsica"}
    # at the start Rome holds both Messana and Rhegium, so only Rome may cross
    assert rec["messana"]["control"] == rec["rhegium"]["control"] == "rome"
    assert region_of(rec, "messana") == "islands" and region_of(rec, "rhegium") == "italia"


def test_alps_only_via_alpine_passes(pack, rec):
    """seed 002 §8.3.2: the Alps are crossed by Alpine passes. Without them, no land way leads
    from Gaul or Spain into Italia; with them, Hannibal can march from Saguntum to the Po."""
    beyond = {"gallia_transalpina", "massilia_province"}
    inside = {"gallia_cisalpina", "liguria"}
    for c in connections(pack):
        crosses = {rec[c["a"]]["province"], rec[c["b"]]["province"]}
        alpine = bool(crosses & beyond) and bool(crosses & inside)
        assert (c["kind"] == "alpine_pass") == alpine, c["id"]
    no_alps = land_adjacency(pack, kinds={"normal", "pass", "strait"})
    west = reach(no_alps, ["saguntum"])
    assert "illiberis" in west and not any(region_of(rec, s) == "italia" for s in west)
    assert "roma" in reach(land_adjacency(pack), ["saguntum"])
    # Hannibal's route crosses a Pyrenean pass and an Alpine pass: at least 2 + 2 extra points
    land = pack.graphs["land"]
    route = land.path("saguntum", "taurini")
    kinds = [rec[land.edge(a, b)]["kind"] for a, b in zip(route, route[1:])]
    assert "pass" in kinds and "alpine_pass" in kinds


def test_islands_and_africa_by_sea(pack, rec):
    """seed 002 §8.8: sea moves go from port to port; Africa, Sardinia/Corsica and the Balearics
    have no land link to Europe (Sicily only by the strait)."""
    adj = land_adjacency(pack)
    assert not adj["balearic_islands"]
    for s, near in adj.items():
        for n in near:
            if region_of(rec, s) == "africa" or region_of(rec, n) == "africa":
                assert region_of(rec, s) == region_of(rec, n) == "africa", (s, n)
    assert not any(region_of(rec, s) == "africa" for s in reach(adj, ["roma"]))


def test_every_space_reachable(pack, rec):
    """seed 002 §8.2, §8.8: every space can be reached by land from Rome, or from a port."""
    adj = land_adjacency(pack)
    seen = reach(adj, ["roma"])
    for s in spaces(pack):
        if rec[s]["port"]:
            seen |= reach(adj, [s])
    assert seen == set(spaces(pack))


def test_no_pc_isolated_at_the_start(pack, rec):
    """seed 002 §15.4: a PC is removed when no line leads from it to an own CU, walled city,
    tribe or port; the line crosses no mountain pass, enemy PC or neutral tribe. The printed
    start must survive the first isolation phase (set-up stacks: §4.1-§4.2)."""
    stacks = {"roma": "rome", "agrigentum": "rome", "carthago": "carthage", "saguntum": "carthage",
              "new_carthage": "carthage"}
    adj = land_adjacency(pack, kinds={"normal", "strait"})

    def anchor(s, side):
        r = rec[s]
        return r.get("control") == side and (r["port"] or r["kind"] != "plain"
                                             or stacks.get(s) == side)

    for s in spaces(pack):
        side = rec[s].get("control")
        if side is None or rec[s]["kind"] != "plain":
            continue
        seen, todo, found = {s}, deque([s]), False
        while todo and not found:
            n = todo.popleft()
            found = anchor(n, side)
            for m in adj[n] - seen:
                if rec[m].get("control") in (None, side) and rec[m]["tribe"] != "neutral":
                    seen.add(m)
                    todo.append(m)
        assert found, s


def test_positions(pack, rec):
    """MAP.md "Positions": every space lies inside the 1000 x 1000 canvas, no two closer than
    20 units, and no land connection jumps across the map (the longest, Iol-Siga, is under
    150)."""
    at = {s: rec[s]["position"] for s in spaces(pack)}
    assert len(at) == 98
    for s, (x, y) in at.items():
        assert 0 <= x <= 1000 and 0 <= y <= 1000, s
    names = sorted(at)
    close = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]
             if math.dist(at[a], at[b]) < 19.5]
    assert close == []
    for c in connections(pack):
        assert math.dist(at[c["a"]], at[c["b"]]) < 150, c["id"]
    # the projection keeps the geography: Gades west of Roma, Carthago south of it, Tarentum
    # east of Neapolis
    assert at["gades"][0] < at["roma"][0] < at["tarentum"][0]
    assert at["carthago"][1] > at["roma"][1] > at["placentia"][1]


def test_scale(pack, rec):
    """MAP.md: about 80-100 spaces, several per province."""
    assert 80 <= len(spaces(pack)) <= 100
    for p in provinces(pack):
        n = sum(rec[s]["province"] == p for s in spaces(pack))
        assert n >= (1 if rec[p]["kind"] == "area" else 2), p


def test_cards_name_places(pack, rec):
    """seed 002 cards 13-16, 22-24, 43, 56: the provinces they name have spaces; card 25 Capua
    and card 18 Tarentum are walled cities; card 26 Syracuse."""
    assert rec["capua"]["kind"] == "walled_city" and rec["capua"]["province"] == "campania"
    assert rec["tarentum"]["kind"] == "walled_city"
    assert rec["syracuse"]["kind"] == "walled_city"
    assert rec["syracuse"]["province"] == "syracuse_province"
    for p in ("lucania", "liguria", "gallia_cisalpina", "etruria", "gallia_transalpina", "sicilia",
              "western_numidia", "eastern_numidia", "latium"):
        assert any(rec[s]["province"] == p for s in spaces(pack)), p


# ---- provenance and names -----------------------------------------------------------------------

def test_provenance(pack, rec):
    """pack.yaml `provenance: required`: every map record cites a source or says why it was
    reconstructed."""
    for t in ("region", "province", "space", "connection"):
        for r in pack.by_type[t]:
            assert rec[r].get("source") or rec[r].get("reconstructed"), r


def test_names(pack):
    """content/translations: English for every map record; Dutch and Russian only where seed 002
    or seed 003 print the name, each with its source."""
    ids = set()
    for t in ("region", "province", "space"):
        ids |= set(pack.by_type[t])
    files = {lang: yaml.safe_load((TRANSLATIONS / f"hannibal.map.{lang}.yaml").read_text("utf-8"))
             for lang in ("en", "nl", "ru")}
    assert set(files["en"]["names"]) == ids
    for lang in ("nl", "ru"):
        names = files[lang]["names"]
        assert set(names) <= ids
        source = "seed 00" + ("2" if lang == "nl" else "3")
        assert all(e["source"].startswith(source) for e in names.values())
    assert files["nl"]["names"]["new_carthage"]["name"] == "Carthago Nova"
    assert files["ru"]["names"]["carthago"]["name"] == "Карфаген"
