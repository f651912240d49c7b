"""Hannibal: political control, PC placement and political isolation (seed 002 §5.5, §15.1-§15.4,
§16.6; seed 003 "Фаза стратегии" (ОЧ (2)), "Племена", "Порядок хода" (5)).

Each test arranges a position on real spaces of the pack's map (tests/hannibal_play.py) and plays
the rules: a strategy card for PCs, or a strategy phase with empty hands, after which the winter
attrition and isolation phases run before turn 2's reinforcements. Rulings: RULINGS.md
"## Political control" (H-pc-N)."""
from __future__ import annotations

from hannibal_play import (
    add_cus,
    add_garrison,
    answer,
    board,
    field,
    give,
    options,
    pack,
    pay_backlash,
    play_ops,
    prompt,
    said_values,
    set_leader,
    set_pc,
    start_turn,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.i18n.translations import fill

REMOVED = "The {s} PC in {x} is isolated and removed"


def to_isolation(g, dice=()):
    """Both hands empty: the strategy phase ends at once; winter attrition (with these dice)
    and political isolation run; the game stops at turn 2's first reinforcement."""
    give(g, "carthage")
    give(g, "rome")
    if dice:
        g.load_dice(list(dice))
    start_turn(g)
    pay_backlash(g)  # the arranged board may leave a side behind (seed 002 §18.2)
    assert "reinforcement" in prompt(g)


def removed(g) -> list[list[str]]:
    return said_values(g, REMOVED)


def pc(g, x):
    return field(g, x, "pc")


def value(g, name, *args):
    """A value of the rules on the game's state now (records and sides by id)."""
    return g.pack.ns["VALUES"][name](g.rt, *args)


# ---- placing PCs (seed 002 §15.2; seed 003 "Фаза стратегии" ОЧ (2)) -----------------------

def pcs_offered(g, side="carthage"):
    """The spaces offered for the first PC of an ops-3 card played by `side`."""
    card, other = ("african_reinforcements", "grain_shortage")
    if side == "carthage":
        give(g, "carthage", card, other)
        start_turn(g)
    else:
        give(g, "rome", card, other)
        start_turn(g, first="rome")
    play_ops(g, card, "pcs")
    return options(g)


def test_pc_goes_where_no_enemy_army_and_no_enemy_pc():
    """seed 002 §15.2 ("in elk veld ... waarin zich geen vijandelijk leger of PK bevindt"); seed
    003 "Фаза стратегии" ОЧ (2) (НЕ в область с вражескими ПК или ВЧ). An enemy leader alone is
    no army; enemy CUs inside a walled city stand in an enemy walled city (RULINGS.md H-pc-1)."""
    g = board()
    set_leader(g, "hannibal", "saguntum")
    set_leader(g, "flaminius", "arpi", office="consul")  # a Roman leader alone, no PC
    add_cus(g, "rome", "cannae", 2)  # Roman CUs, no PC
    offered = pcs_offered(g)
    assert "arpi" in offered and "larinum" in offered
    assert "cannae" not in offered  # an enemy army
    assert "luceria" not in offered  # an enemy PC, no Carthaginian CUs
    assert "castulo" not in offered  # already Carthage's


def test_flip_an_enemy_pc_only_where_own_cus_stand():
    """seed 002 §15.2 (exception: one's own PC on an enemy PC where one's own army stands); seed
    003 "Фаза стратегии" ОЧ (2) (можно перевернуть вражеский ПК ... если в области есть
    дружественные ВЧ). With enemy CUs there too (a battle space never lasts) it is not allowed."""
    g = board()
    set_leader(g, "hannibal", "saguntum")
    add_cus(g, "carthage", "nola", 2)  # Roman PC, Carthaginian CUs
    offered = pcs_offered(g)
    assert "nola" in offered and "beneventum" not in offered
    answer(g, "nola", None)
    assert pc(g, "nola") == "carthage"


def test_rome_flips_a_carthaginian_pc_with_roman_cus():
    """seed 002 §15.2 works for both sides: Rome flips Castulo where its CUs stand, not
    Hispalis."""
    g = board()
    set_leader(g, "flaminius", "roma", office="consul")
    add_cus(g, "rome", "castulo", 3)
    offered = pcs_offered(g, side="rome")
    assert "castulo" in offered and "hispalis" not in offered


def test_never_in_a_tribe_space_nor_on_an_enemy_walled_city():
    """seed 002 §16.1 (a walled city changes hands by a siege; a tribe's marker is flipped or
    removed only by subjugation), §16.6 (friendly tribes are Carthage's PCs); seed 003 "Фаза
    стратегии" ОЧ (2) (НЕ в область с племенем; НЕ крепость и НЕ племя). RULINGS.md H-st-6,
    H-pc-1."""
    g = board()
    set_leader(g, "flaminius", "roma", office="consul")
    add_cus(g, "rome", "insubres", 3)  # Roman CUs in a tribe friendly to Carthage
    add_cus(g, "rome", "ilergetes", 3)  # Roman CUs in a neutral tribe
    add_cus(g, "rome", "saguntum", 3)  # Roman CUs at a Carthaginian walled city
    offered = pcs_offered(g, side="rome")
    for x in ("insubres", "ilergetes", "taurini", "saguntum", "new_carthage"):
        assert x not in offered


def test_a_subjugated_tribe_is_a_plain_pc_space():
    """seed 002 §16.4.2 (a subjugated tribe's marker is replaced by a normal PC and never comes
    back): PCs go there and are flipped there like anywhere else; RULINGS.md H-pc-1."""
    g = board()
    set_leader(g, "hannibal", "saguntum")
    g.state["f"]["taurini"]["subjugated"] = True  # subjugated, its PC since removed
    g.state["f"]["ilergetes"]["subjugated"] = True
    set_pc(g, "ilergetes", "rome")  # subjugated by Rome
    add_cus(g, "carthage", "ilergetes", 3)
    offered = pcs_offered(g)
    assert "taurini" in offered and "ilergetes" in offered


# ---- friendly tribes (seed 002 §16.6; seed 003 "Племена" (2)) ----------------------------

def test_friendly_tribes_count_for_province_control():
    """seed 002 §15.1 (a majority of the spaces, not of the PCs), §16.6 (Boii and Insubres are
    Carthage's PCs in every situation); seed 003 "Племена" (2) (friendly tribes count towards the
    province). Gallia Cisalpina has 8 spaces: the two tribes and three more PCs are a majority, the
    neutral Taurini count for nobody."""
    g = board()
    assert not value(g, "controls_province", "carthage", "gallia_cisalpina")
    for x in ("mutina", "patavium", "cremona"):
        set_pc(g, x, "carthage")
    assert value(g, "controls_province", "carthage", "gallia_cisalpina")
    set_pc(g, "cremona", "rome")  # 4 of 8 is no majority
    assert not value(g, "controls_province", "carthage", "gallia_cisalpina")
    assert not value(g, "controls_province", "rome", "gallia_cisalpina")


def test_friendly_tribe_gives_no_card_once_subjugated():
    """seed 002 §16.6 (Carthage one more battle card in a friendly tribe's space), §16.4.2 (a
    subjugated tribe is gone for good): a Carthaginian PC later placed on subjugated Boii is a
    plain PC and gives no card (RULINGS.md H-pc-4). The card itself:
    tests/test_hannibal_battle.py::test_friendly_tribe_card_for_carthage."""
    from test_hannibal_battle import attack, hand, windows
    g = board()
    g.state["f"]["boii"]["subjugated"] = True
    set_pc(g, "boii", "carthage")
    set_leader(g, "mago", "boii")
    add_cus(g, "carthage", "boii", 3)
    set_leader(g, "flaminius", "mutina", office="consul")
    add_cus(g, "rome", "mutina", 5)
    attack(g, "flaminius", "mutina", "boii", 5, side="rome")
    windows(g, attacker="rome")
    assert len(hand(g, "carthage")) == 2 + 3


# ---- political isolation (seed 002 §5.5, §15.4, §16.6; seed 003 "Порядок хода" (5)) --------

def dutch_example(g, roman_cu: bool = True):
    """The situation of seed 002 §15.4's example, on Gallia, Liguria and Etruria after Hannibal
    came down from the Alps. Rome: A Illiberis (Roman Emporiae lies over the Pyrenees pass), B
    Narbo (the neutral Volcae shut the way to Massilia; its other way runs over that pass) and
    Luna (between Carthaginian Genua and Pisae): isolated; C Patavium reaches a Roman CU in
    Cremona (a Carthaginian PC there, passable where Roman units stand). Carthage: Genua and
    Pisae are ports; Faesulae traces to the port of Pisae; Cremona to the friendly Insubres."""
    for x in ("illiberis", "narbo", "luna", "patavium"):
        set_pc(g, x, "rome")
    for x in ("genua", "pisae", "faesulae", "cremona"):
        set_pc(g, x, "carthage")
    if roman_cu:
        add_cus(g, "rome", "cremona", 1)


def test_the_dutch_isolation_example():
    """seed 002 §15.4 Voorbeeld ("De PK's van de Romeinen A en B zijn geïsoleerd ... over de
    bergpas, noch door velden met een neutrale volksstam of vijandelijke PK's ... De PK 'C' is niet
    geïsoleerd. Hij kan naar een eigen gevechtseenheid 'lonken'. De PK's van de Carthagers kunnen
    allen een lijn naar de haven trekken"); seed 003 "Порядок хода" (5); RULINGS.md H-pc-2."""
    g = board()
    dutch_example(g)
    to_isolation(g, dice=[1])  # the Roman CU on a Carthaginian PC rolls for winter: a 1 costs none
    assert sorted(removed(g)) == [["rome", "illiberis"], ["rome", "luna"], ["rome", "narbo"]]
    assert pc(g, "patavium") == "rome"
    for x in ("genua", "pisae", "faesulae", "cremona", "boii", "insubres"):
        assert pc(g, x) == "carthage"
    assert "The rome PC in illiberis is isolated and removed" in logged_raw(g)


def logged_raw(g) -> str:
    """The log lines with their placeholders filled by ids."""
    return "\n".join(fill(e["m"], e.get("a", [])) for e in g.log if e.get("t") == "say")


def test_without_the_roman_cu_c_is_isolated_too():
    """seed 002 §15.4: C's only lines run into a tribe friendly to Carthage (an enemy PC for
    Rome, §16.6) and Carthaginian Cremona; with no Roman unit there it is isolated."""
    g = board()
    dutch_example(g, roman_cu=False)
    to_isolation(g)
    assert ["rome", "patavium"] in removed(g)
    assert all(s == "rome" for s, _ in removed(g))


def test_a_pass_alone_isolates():
    """seed 002 §15.4 ("Deze lijn kan niet over een bergpas ... getrokken worden, tenzij een eigen
    eenheid zich in een van deze velden bevindt"): Roman Illiberis reaches empty Narbo, then only
    the neutral Volcae; Roman Emporiae over the Pyrenees never counts. A Roman CU in the Volcae'
    land lets the line in (and ends it there)."""
    g = board()
    set_pc(g, "illiberis", "rome")
    add_cus(g, "rome", "volcae", 1)
    to_isolation(g, dice=[1])
    assert removed(g) == []
    g = board()
    set_pc(g, "illiberis", "rome")
    to_isolation(g)
    assert removed(g) == [["rome", "illiberis"]]


def test_a_port_ends_the_line_only_with_ones_own_pc():
    """seed 002 §15.4 ("naar een eigen GE, vesting, volksstam of haven"): RULINGS.md H-pc-2 reads
    "eigen" for all four: an empty port (Genua with no PC) does not save Roman Luna; the line goes
    through Genua and then meets only the neutral Ingauni and the pass to Placentia."""
    g = board()
    set_pc(g, "luna", "rome")
    set_pc(g, "genua", None)
    set_pc(g, "pisae", "carthage")
    to_isolation(g)
    assert removed(g) == [["rome", "luna"]]


def test_the_line_crosses_enemy_cus_only_on_its_own_pc():
    """seed 002 §15.4 ("De lijn kan wel door velden met een vijandelijke GE, maar er moet zich dan
    wel een eigen PK bevinden"): Carthaginian Salmantica's only way runs through Toletum, where a
    Roman army stands: with Carthage's PC in Toletum the line goes on to Saguntum (Segobriga,
    Numantia, Salduie, Dertosa), without it Salmantica is isolated."""
    g = board()
    add_cus(g, "rome", "toletum", 3)  # on a Carthaginian PC: it rolls for winter
    to_isolation(g, dice=[1])
    assert removed(g) == []
    g = board()
    set_pc(g, "toletum", None)
    add_cus(g, "rome", "toletum", 3)
    to_isolation(g)
    assert removed(g) == [["carthage", "salmantica"]]


def test_rome_removes_first():
    """seed 002 §5.5 ("Beide spelers, eerst de Romeinen"), §15.4 ("de Romein begint"): Roman
    Toletum, between Carthaginian Salmantica and Segobriga and over the pass from Castulo, goes
    first; then Salmantica's line runs through the empty Toletum and it stays."""
    g = board()
    set_pc(g, "toletum", "rome")
    to_isolation(g)
    assert removed(g) == [["rome", "toletum"]]
    assert pc(g, "salmantica") == "carthage"


def test_walled_cities_and_tribes_stay_a_subjugated_tribe_goes():
    """seed 002 §15.4 ("PK's 'Vesting' en 'Volksstammen' worden niet verwijderd"), §16.4.2 (a
    subjugated tribe's marker is replaced by a normal PC): Roman Placentia cut off by Carthaginian
    PCs stays; Taurini subjugated by Rome (only passes and the Insubres around it) is removed."""
    g = board()
    for x in ("cremona", "mutina", "genua"):
        set_pc(g, x, "carthage")
    g.state["f"]["taurini"]["subjugated"] = True
    set_pc(g, "taurini", "rome")
    to_isolation(g)
    assert pc(g, "placentia") == "rome" and pc(g, "insubres") == "carthage"
    assert removed(g) == [["rome", "taurini"]]


def test_a_strait_is_no_mountain_pass():
    """seed 002 §15.4 names only the mountain pass; RULINGS.md H-pc-3: Roman Tauromenium, between
    Carthaginian Leontini and an empty Messana whose other neighbour Panormus is Carthaginian,
    traces over the Strait of Messana to Roman Rhegium (a port)."""
    g = board()
    for x in ("leontini", "panormus"):
        set_pc(g, x, "carthage")
    set_pc(g, "messana", None)
    to_isolation(g)
    assert pc(g, "tauromenium") == "rome"
    assert ["rome", "tauromenium"] not in removed(g)
    assert value(g, "isolated", "rome", "tauromenium") is False


def test_friendly_tribes_carry_carthaginian_lines():
    """seed 002 §16.6 ("Normale PK's van de Carthager kunnen door deze velden met een lijn
    verbonden worden om isolatie te voorkomen"); seed 003 "Племена": Carthaginian Mutina reaches
    the Boii; the same space Roman is cut off by them."""
    g = board()
    set_pc(g, "mutina", "carthage")
    set_pc(g, "placentia", "rome")
    assert not value(g, "isolated", "carthage", "mutina")
    set_pc(g, "mutina", "rome")
    set_pc(g, "placentia", "carthage")
    assert value(g, "isolated", "rome", "mutina")


# ---- the isolation search gives the rule's answer (seed 002 §15.4) -------------------------

SPACES = list(pack().by_type["space"])  # in map order, as the rules walk them
TRIBES = [x for x in SPACES if pack().records[x].get("kind") == "tribe"]


@st.composite
def isolation_boards(draw):
    """PCs of either side or none on any spaces, a few CUs of either side outside or inside the
    walls, some tribes subjugated: positions no game may have reached, which the rules read
    all the same."""
    pcs = draw(st.dictionaries(st.sampled_from(SPACES),
                               st.sampled_from([None, "rome", "carthage"]), max_size=60))
    units = draw(st.lists(st.tuples(st.sampled_from(SPACES), st.sampled_from(["rome", "carthage"]),
                                    st.booleans()), max_size=12))
    # both sides' CUs in one space: a line ends there for one side and is blocked for the other
    # unless its PC lies there
    units += [(x, s, False) for x in draw(st.lists(st.sampled_from(SPACES), max_size=6))
              for s in ("rome", "carthage")]
    subjugated = draw(st.lists(st.sampled_from(TRIBES), max_size=3))
    return pcs, units, subjugated


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(isolation_boards())
def test_remove_isolated_removes_exactly_the_isolated_pcs(position):
    """seed 002 §5.5 (Rome first, then Carthage), §15.4 (a PC that can trace no line is removed;
    walled cities and tribes are not), §16.4.2; RULINGS.md H-pc-5 (each side's isolated PCs found
    first, then removed together). The phase searches each area once and reads where lines end
    only where it needs to; whatever the board, it removes the PCs for which the rule as written
    for one PC (`isolated`, a search from that PC) holds, in map order."""
    pcs, units, subjugated = position
    g = board()
    for x, s in pcs.items():
        set_pc(g, x, s)
    for x, s, walled in units:
        if walled and pack().records[x].get("kind") == "walled_city":
            add_garrison(g, s, x, 1)
        else:
            add_cus(g, s, x, 1)
    for x in subjugated:
        g.state["f"][x]["subjugated"] = True
    for s in ("rome", "carthage"):
        expected = [[s, x] for x in SPACES
                    if value(g, "isolation_candidate", s, x) and value(g, "isolated", s, x)]
        start = len(g.log)
        g.pack.ns["p_remove_isolated"](g.rt, s)
        assert [e["a"] for e in g.log[start:] if e.get("m") == REMOVED.replace(
            "{s}", "{0}").replace("{x}", "{1}")] == expected
        assert all(pc(g, x) is None for _, x in expected)
