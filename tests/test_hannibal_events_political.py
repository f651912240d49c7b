"""Hannibal: the political events of the strategy cards (seed 002 card list #1-#4, #22, #24-#27,
#35-#36, #56; §15 political control, §16 walled cities). The rules: content/hannibal/
events_political.rules; the readings: RULINGS.md "Events: political" (H-ep-1 ...).

Each test sets up a position by editing the state (tests/hannibal_play.py), plays the card as its
event and checks the board; then the case where the event's condition fails."""
from __future__ import annotations

import functools

import yaml
from hannibal_play import (
    PACK_DIR,
    add_cus,
    add_garrison,
    answer,
    board,
    cus,
    field,
    give,
    inside,
    logged,
    options,
    prompt,
    set_leader,
    set_pc,
    start_turn,
)
from hannibal_play import (
    said_values as says,
)

SPARE = {"carthage": "epidemic", "rome": "tribal_resistance"}


@functools.lru_cache(maxsize=1)
def provinces() -> dict[str, list[str]]:
    """The spaces of each province, as map.yaml lists them."""
    out: dict[str, list[str]] = {}
    for x in yaml.safe_load((PACK_DIR / "map.yaml").read_text())["space"]:
        out.setdefault(x["province"], []).append(x["id"])
    return out


def hold(g, side: str | None, province: str) -> None:
    for x in provinces()[province]:
        set_pc(g, x, side)


def play_event(g, side: str, card: str) -> None:
    """`side` holds `card` and a spare card, plays first and plays `card` as its event."""
    other = "rome" if side == "carthage" else "carthage"
    give(g, side, card, SPARE[side])
    give(g, other, SPARE[other])
    start_turn(g, side)
    answer(g, card)
    assert "event" in options(g), options(g)
    answer(g, "event")


def pcs(g, *spaces: str) -> list:
    return [field(g, x, "pc") for x in spaces]


# ---- revolts (cards 1-4) -----------------------------------------------------------------

def test_corsica_and_sardinia_revolt_removes_carthages_pcs_without_cus():
    """card list #1 ("Wanneer Uw tegenstander Corsica/Sardinië controleert moeten alle PK's
    zonder GE weggenomen worden"): Rome's event (research §7, H-ep-1, H-ep-2); the Carthaginian
    PC with a Carthaginian CU stays."""
    g = board()
    for x in ("caralis", "olbia", "aleria"):
        set_pc(g, x, "carthage")
    add_cus(g, "carthage", "olbia", 1)
    play_event(g, "rome", "corsica_and_sardinia_revolt")
    assert pcs(g, "caralis", "olbia", "aleria", "cornus") == [None, "carthage", None, None]
    assert "Sardinia/Corsica revolts: the PC of Carthage in Caralis is removed" in logged(g)


def test_a_revolt_needs_the_opponent_to_control_the_province():
    """card list #1 ("Wanneer Uw tegenstander ... controleert"), §15.1 (a majority of the
    spaces): 2 of 4 spaces is no control; nothing happens (H-ep-2)."""
    g = board()
    for x in ("caralis", "olbia"):
        set_pc(g, x, "carthage")
    play_event(g, "rome", "corsica_and_sardinia_revolt")
    assert pcs(g, "caralis", "olbia") == ["carthage", "carthage"]
    assert says(g, "{foe} does not control {p}: the revolt has no effect") == [
        ["carthage", "sardinia_corsica"]]


def test_sicilia_revolts_spares_walled_cities_and_pcs_with_cus():
    """card list #2 ("Idem voor Sicilië"); §16.1, §15.4 (a walled city is no PC to remove:
    H-ep-1): Carthage holds 4 of 5 spaces of Sicilia, Lilybaeum a walled city among them."""
    g = board()
    for x in ("messana", "panormus", "lilybaeum", "henna"):
        set_pc(g, x, "carthage")
    add_cus(g, "carthage", "henna", 2)
    add_cus(g, "rome", "messana", 1)  # a Roman CU does not hold a Carthaginian PC (H-ep-1)
    play_event(g, "rome", "sicilia_revolts")
    assert pcs(g, "messana", "panormus", "lilybaeum", "henna", "agrigentum") == [
        None, None, "carthage", "carthage", "rome"]


def test_sicilia_revolts_without_carthaginian_control_does_nothing():
    """card list #2: Carthage holds 2 of 5 spaces of Sicilia; nothing happens (H-ep-2)."""
    g = board()
    for x in ("messana", "panormus"):
        set_pc(g, x, "carthage")
    play_event(g, "rome", "sicilia_revolts")
    assert pcs(g, "messana", "panormus") == ["carthage", "carthage"]


def test_numidia_revolts_in_the_province_chosen():
    """card list #3 ("Kies één van beide provincies ... Uw tegenstander moet alle PK's zonder GE
    wegnemen"): no control is needed (H-ep-2); Rome chooses Numidia Orientalis."""
    g = board()
    add_cus(g, "carthage", "cirta", 1)
    play_event(g, "rome", "numidia_revolts")
    assert "which Numidia revolts" in prompt(g)
    assert options(g) == ["western_numidia", "eastern_numidia"]
    answer(g, "eastern_numidia")
    assert pcs(g, "cirta", "hippo_regius", "thabraca") == ["carthage", None, None]
    assert pcs(g, "siga", "iol", "saldae") == ["carthage"] * 3


def test_numidia_revolts_with_every_pc_held_removes_nothing():
    """card list #3: every Carthaginian PC of the province chosen has CUs: nothing happens."""
    g = board()
    for x in ("siga", "iol", "saldae"):
        add_cus(g, "carthage", x, 1)
    play_event(g, "rome", "numidia_revolts")
    answer(g, "western_numidia")
    assert pcs(g, "siga", "iol", "saldae") == ["carthage"] * 3
    assert says(g, "{p} revolts, but {foe} has no PC there without CUs: nothing happens") == [
        ["western_numidia", "carthage"]]


def test_celtiberia_revolts_at_the_start():
    """card list #4 ("Idem voor Celtiberia"): Carthage holds 3 of its 4 spaces at the start
    (seed 002 §4); Toletum keeps its PC under a Carthaginian CU."""
    g = board()
    add_cus(g, "carthage", "toletum", 1)
    play_event(g, "rome", "celtiberia_revolts")
    assert pcs(g, "toletum", "salmantica", "segobriga") == ["carthage", None, None]


def test_celtiberia_revolts_only_against_control():
    """card list #4: with Salmantica gone Carthage holds 2 of 4: nothing happens."""
    g = board()
    set_pc(g, "salmantica", None)
    play_event(g, "rome", "celtiberia_revolts")
    assert pcs(g, "toletum", "segobriga") == ["carthage", "carthage"]


def test_revolts_are_romes_events():
    """research/hannibal.md §7 (cards 1-4 Rome's; the Dutch text is generic: CARDS.md): Carthage
    plays them for ops or discards them (seed 002 §7.4)."""
    g = board()
    give(g, "carthage", "sicilia_revolts", SPARE["carthage"])
    give(g, "rome", SPARE["rome"])
    start_turn(g, "carthage")
    answer(g, "sicilia_revolts")
    assert "event" not in options(g)


# ---- Muttines' Numidians (card 22) -------------------------------------------------------

def test_muttines_places_a_cu_and_a_pc_in_sicilia():
    """card list #22 ("Zet een GE van de Carthagers en één PK in een veld in Sicilia dat geen
    Romeins GE bevat"): Carthage's event (H-ep-3); not where Roman CUs stand, not on Rome's
    walled city Lilybaeum; the Roman PC of Panormus is replaced."""
    g = board()
    add_cus(g, "rome", "messana", 2)
    play_event(g, "carthage", "mutins_numidians")
    assert set(options(g)) == {"panormus", "agrigentum", "henna"}
    answer(g, "panormus")
    assert len(cus(g, "panormus", "carthage")) == 1 and field(g, "panormus", "pc") == "carthage"
    assert "Carthage places a PC in Panormus" in logged(g)


def test_muttines_finds_no_space():
    """card list #22: every space of Sicilia holds Roman CUs or is Rome's walled city: nothing
    happens, no CU is placed."""
    g = board()
    for x in ("messana", "panormus", "agrigentum", "henna"):
        add_cus(g, "rome", x, 1)
    play_event(g, "carthage", "mutins_numidians")
    assert all(not cus(g, x, "carthage") for x in provinces()["sicilia"])
    assert "nothing happens" in logged(g)


# ---- Sophonisba (card 24) ----------------------------------------------------------------

def test_sophonisba_places_up_to_three_pcs_in_numidia():
    """card list #24 ("Plaats tot 3 PK's van de Carthagers in Numidia OC. of OR. Er mogen zich
    geen Rom. GE's bevinden"), §15.2 (a Roman PC is replaced only where Carthaginian CUs stand):
    H-ep-4."""
    g = board()
    for x in ("siga", "iol", "saldae"):
        set_pc(g, x, "rome")
    add_cus(g, "carthage", "iol", 1)
    add_cus(g, "rome", "icosium", 1)
    play_event(g, "carthage", "beautiful_sophonisba")
    assert set(options(g)) == {"iol", "theveste", None}
    answer(g, "iol", "theveste")
    assert pcs(g, "iol", "theveste", "siga", "saldae", "icosium") == [
        "carthage", "carthage", "rome", "rome", None]


def test_sophonisba_with_no_room():
    """card list #24: every Numidian space already Carthaginian: nothing happens."""
    g = board()
    for x in ("theveste", "icosium"):
        set_pc(g, x, "carthage")
    play_event(g, "carthage", "beautiful_sophonisba")
    assert says(g, "No space of Numidia can take a PC of {s}: nothing happens") == [["carthage"]]


# ---- Capua (card 25) ---------------------------------------------------------------------

def test_capua_goes_over_and_its_roman_garrison_is_lost():
    """card list #25 ("Wanneer de Carthagers meer dan 3 provincies in Italia controleren, komt
    Capua onmiddellijk aan zijn kant"); §16.4.1 as for a city taken (CUs inside eliminated,
    the siege markers go), H-sg-4 (a leader inside displaced): H-ep-5."""
    g = board()
    for p in ("apulia", "lucania", "samnium", "etruria"):
        hold(g, "carthage", p)
    set_leader(g, "hannibal", "capua")
    add_cus(g, "carthage", "capua", 3)
    garrison = add_garrison(g, "rome", "capua", 2)
    set_leader(g, "fabius", "capua")
    g.state["f"]["fabius"]["inside"] = True
    g.state["f"]["capua"].update(siege=1, besieger="carthage")
    play_event(g, "carthage", "capua_sides_with_carthage")
    assert field(g, "capua", "pc") == "carthage"
    assert inside(g, "capua") == [] and all(u not in g.state["f"] for u in garrison)
    assert field(g, "fabius", "where") == "displaced"
    assert field(g, "capua", "siege") == 0 and len(cus(g, "capua", "carthage")) == 3
    assert "Capua goes over to Carthage" in logged(g)
    assert "capua_sides_with_carthage" in g.zone("removed")


def test_capua_goes_over_under_a_roman_army_outside():
    """card list #25 ("onmiddellijk"); H-ep-5: a Roman army outside the walls stays where it
    stands, before an enemy walled city."""
    g = board()
    for p in ("apulia", "lucania", "samnium", "etruria"):
        hold(g, "carthage", p)
    set_leader(g, "fabius", "capua")
    add_cus(g, "rome", "capua", 4)
    play_event(g, "carthage", "capua_sides_with_carthage")
    assert field(g, "capua", "pc") == "carthage"
    assert len(cus(g, "capua", "rome")) == 4 and field(g, "fabius", "at") == "capua"


def test_capua_stays_with_three_provinces():
    """card list #25 ("meer dan 3"): three Italian provinces are not enough."""
    g = board()
    for p in ("apulia", "lucania", "samnium"):
        hold(g, "carthage", p)
    play_event(g, "carthage", "capua_sides_with_carthage")
    assert field(g, "capua", "pc") == "rome"
    assert says(g, "{s} controls {n} provinces of Italia, not more than 3: Capua stays as it is"
                ) == [["carthage", 3]]


# ---- Syracuse (card 26) ------------------------------------------------------------------

def test_syracuse_goes_over_at_once():
    """card list #26 ("De Carthager krijgt meteen de controle van Syracuse"), H-ep-6: its
    Roman garrison is lost; the -1 at sea is sea.rules fleet_modifier reading the control of
    Syracuse (test_hannibal_sea.py::test_each_minus_one_modifier)."""
    g = board()
    garrison = add_garrison(g, "rome", "syracuse", 1)
    play_event(g, "carthage", "syracuse_allies_with_carthage")
    assert field(g, "syracuse", "pc") == "carthage"
    assert all(u not in g.state["f"] for u in garrison)


def test_syracuse_already_carthaginian():
    """card list #26: Syracuse already Carthage's: nothing happens."""
    g = board()
    set_pc(g, "syracuse", "carthage")
    add_garrison(g, "carthage", "syracuse", 1)
    play_event(g, "carthage", "syracuse_allies_with_carthage")
    assert len(inside(g, "syracuse", "carthage")) == 1
    assert says(g, "{x} is already held by {s}: nothing happens") == [["syracuse", "carthage"]]


# ---- "I have come to Italy" (card 27) ----------------------------------------------------

def test_hannibal_in_italia_flips_two_roman_pcs():
    """card list #27 ("Wanneer Hannibal in Italia is, worden 2 Rom. PK's (geen steden), zonder
    GE's, omgedraaid"): H-ep-7; not Rome's walled city Capua, not under Roman CUs."""
    g = board()
    set_leader(g, "hannibal", "nola")
    add_cus(g, "rome", "beneventum", 1)
    play_event(g, "carthage", "i_have_come_to_italy")
    opts = options(g)
    assert "nola" in opts and "capua" not in opts and "beneventum" not in opts
    answer(g, "nola", "caralis")
    assert pcs(g, "nola", "caralis", "beneventum") == ["carthage", "carthage", "rome"]


def test_hannibal_outside_italia_flips_nothing():
    """card list #27: Hannibal in Hispania: nothing happens."""
    g = board()
    set_leader(g, "hannibal", "saguntum")
    play_event(g, "carthage", "i_have_come_to_italy")
    assert says(g, "Hannibal is not in Italia: no PC is flipped") == [[]]
    assert field(g, "nola", "pc") == "rome"


# ---- Diplomacy (cards 35, 36) ------------------------------------------------------------

def test_diplomacy_flips_one_pc_either_side():
    """card list #35-#36 ("Draai een willekeurige PK, zonder vijandelijke GE, om. Geen vesting of
    volksstam"): either side's event (research §7); H-ep-8."""
    g = board()
    add_cus(g, "rome", "beneventum", 1)
    play_event(g, "carthage", "diplomacy_35")
    opts = options(g)
    assert "nola" in opts and "beneventum" not in opts and "capua" not in opts
    answer(g, "nola")
    assert field(g, "nola", "pc") == "carthage"
    g = board()
    play_event(g, "rome", "diplomacy_36")
    opts = options(g)
    assert "toletum" in opts and "saguntum" not in opts
    assert all(field(g, x, "pc") == "carthage" for x in opts)
    answer(g, "toletum")
    assert field(g, "toletum", "pc") == "rome"


def test_diplomacy_with_nothing_to_flip():
    """card list #35: no Roman PC without Roman CUs on the board: nothing happens."""
    g = board()
    for x, f in list(g.state["f"].items()):
        if f.get("pc") == "rome" and "siege" in f:
            add_cus(g, "rome", x, 1)
    play_event(g, "carthage", "diplomacy_35")
    assert says(g, "No PC of {other(s)} can be flipped: nothing happens") == [["rome"]]


# ---- Grain Shortage (card 56) ------------------------------------------------------------

def test_grain_shortage_removes_three_roman_pcs():
    """card list #56 ("Verwijder 3 PK's van de Romeinen, maar enkel wanneer je Sicilia
    controleert"): Carthage's event (H-ep-9); not a walled city; Roman CUs do not save a PC."""
    g = board()
    for x in ("messana", "panormus", "agrigentum"):
        set_pc(g, x, "carthage")
    add_cus(g, "rome", "nola", 2)
    play_event(g, "carthage", "grain_shortage")
    assert "roma" not in options(g) and "nola" in options(g)
    answer(g, "nola", "caralis", "olbia")
    assert pcs(g, "nola", "caralis", "olbia", "aleria") == [None, None, None, "rome"]


def test_grain_shortage_needs_sicilia():
    """card list #56 ("maar enkel wanneer"): Carthage holds 2 of 5 spaces of Sicilia."""
    g = board()
    for x in ("messana", "panormus"):
        set_pc(g, x, "carthage")
    play_event(g, "carthage", "grain_shortage")
    assert says(g, "{s} does not control Sicilia: no PC is removed") == [["carthage"]]
    assert field(g, "nola", "pc") == "rome"
