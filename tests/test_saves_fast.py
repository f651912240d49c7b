"""Saves written and read by msgspec are exactly what json's writer and reader give
(engine.core.saves: canonical, parse_json), because a game state holds no fractional number:
the rules language has none, and every way one could come in is closed or noticed
(issue 16, save + load of a mid-game Hannibal <= 2 ms)."""
from __future__ import annotations

import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from packs_under_test import TESTS, pack_dirs

from engine.core import saves
from engine.core.errors import EngineFault, IllegalAction, PackError, SaveError
from engine.core.game import Game
from engine.core.loader import load_pack
from engine.core.saves import canonical_json as canonical_module
from engine.core.saves import text as text_module
from engine.dsl.places import find_packs, is_playable

# the shipped packs, then every other playable test and bench pack
PACKS = pack_dirs()
PACKS += [p.resolve() for root in (TESTS / "packs", TESTS.parent / "bench" / "packs")
          for p in find_packs(root) if is_playable(p) and p.resolve() not in PACKS]
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
MAX_DECISIONS = {"hannibal": 120}  # its decisions log ten times what other games' do
CHECKED_EVERY = 7  # decisions between two saves compared with json's writer


@cache
def pack(path: Path) -> Any:
    return load_pack(path)


def fractions_in(value: Any, path: str = "state") -> list[str]:
    """The places of every float in `value` (NaN and the infinities are floats too)."""
    if isinstance(value, float):
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in fractions_in(v, f"{path}.{k}")]
    if isinstance(value, (list, tuple)):
        return [p for i, v in enumerate(value) for p in fractions_in(v, f"{path}[{i}]")]
    return []


def jsons_text(game: Game) -> str:
    """The save as json's own writer gives it (the text Game.save must equal)."""
    return saves.canonical(game.to_data())


def jsons_reading(text: str) -> tuple[Any, bool]:
    """What json's reader gives for `text`, and whether it met a fractional number."""
    seen: list[str] = []
    data = json.loads(text, parse_float=lambda t: seen.append(t) or float(t),
                      parse_constant=lambda t: seen.append(t) or float(t))
    return data, bool(seen)


# ---- real games ------------------------------------------------------------------------------

@pytest.mark.parametrize("path", PACKS, ids=[p.name for p in PACKS])
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_random_games_hold_no_fraction_and_save_as_jsons_writer_writes(path, seed):
    """At every decision of random games of every shipped pack (and the test packs) the
    state holds no float; every few decisions the save is byte for byte json's text, and
    reading it gives json's value, with no fraction seen."""
    p = pack(path)
    assert not canonical_module.fractions_possible(p)  # no fractional number in the pack's data
    game = p.new_game(seed)
    rnd = random.Random(seed)
    limit = MAX_DECISIONS.get(path.name, 400)
    while not game.over and len(game.actions) < limit:
        assert fractions_in(game.state) == []
        if len(game.actions) % CHECKED_EVERY == 0:
            text = game.save()
            assert text == jsons_text(game)
            assert saves.parse_json(text) == jsons_reading(text) == (json.loads(text), False)
        game.apply(game.random_action(rnd))
    assert fractions_in(game.state) == []
    text = game.save()
    assert text == jsons_text(game)
    assert Game.load(p, text, verify="digest").save() == text


# ---- the writer and the reader on any JSON value -----------------------------------------------

TEXTS = st.text(st.characters(codec=None, exclude_categories=()), max_size=8) | st.sampled_from(
    ["caf\u00e9", "\U0001d11e", "del\x7f", "tab\t\x01\x1f", 'quote " and \\', "\ud800",
     "\u2028", "a:1.5", "[2e5", "", "log"])
NUMBERS = (st.integers(min_value=-2**70, max_value=2**70)
           | st.sampled_from([2**63 - 1, 2**64 - 1, 2**64, -2**63, -2**63 - 1])
           | st.floats(allow_nan=False, allow_infinity=False))
SCALARS = st.none() | st.booleans() | NUMBERS | TEXTS
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.tuples(inner, inner) | st.dictionaries(TEXTS, inner, max_size=4),
                      max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(value=VALUES)
def test_the_fast_writer_writes_jsons_text(value):
    """msgspec's canonical text (nan_free) is json's for every value without NaN or
    infinity: texts of any character (escaped as json escapes), numbers past 64 bits,
    finite floats of any size (written by json's writer: msgspec writes exponents
    otherwise), tuples."""
    assert saves.canonical(value, nan_free=True) == saves.canonical(value) == json.dumps(
        value, separators=(",", ":"), sort_keys=True)


@settings(max_examples=400, deadline=None)
@given(value=VALUES)
def test_a_fraction_written_canonically_is_always_noticed(value):
    """A canonical text holding a fractional number is always suspected of one (its token
    found), and the reader notes it; a value without one is read exactly as json reads it."""
    text = saves.canonical(value)
    if fractions_in(value):
        assert canonical_module.holds_fraction_token(text)
    data, fractions = saves.parse_json(text)
    json_data, json_fractions = jsons_reading(text)
    assert fractions == json_fractions == bool(fractions_in(value))
    assert saves.canonical(data) == saves.canonical(json_data) == text


def test_nan_and_infinity_are_written_by_jsons_writer_where_data_hold_fractions(
        inline_pack, monkeypatch):
    """msgspec writes NaN and the infinities as null, which no look at its text can tell
    from a null: so a pack whose data hold a fraction (the only way to a NaN or an
    infinity in a state; a table's data may) has its saves written by json's writer, which
    writes them as json does (and loading such a save refuses it)."""
    nan = [float("nan")]
    assert saves.canonical(nan, nan_free=True) == "[null]" != saves.canonical(nan) == "[NaN]"
    p = inline_pack(RULES, records())
    monkeypatch.setattr(text_module, "fractions_possible", lambda pack: True)
    game = p.new_game(1)
    for value in (float("nan"), float("inf"), -float("inf")):
        game.state["v"]["held"][""] = value  # as a broken rule could leave it
        text = game.save()
        assert text == jsons_text(game) and '"held":{"":' + json.dumps(value) in text
        with pytest.raises(SaveError, match="fractional number"):
            Game.load(p, text, verify="digest")


# ---- where a fraction could come in -------------------------------------------------------

RULES = """
var held: any = none
var got: int = 0
type card:
    power: int
    extra: any?
zone hand of card
on setup:
    move card to hand
    let c = choose c from hand by red
    held = c.extra
    let k = choose k from numbers(1, 3) by blue
    got = k
    let yes = ask red "again?"
"""


def records(power: str = "1", extra: str = "x") -> str:
    return f"card:\n  - {{id: one, power: {power}, extra: {extra}}}\n  - {{id: two, power: 2}}\n"


@pytest.mark.parametrize("power, code", [("1.5", "E316"), ("1.0e3", "E316"), ("1e3", "E004")])
def test_pack_data_of_a_whole_number_field_refuses_fractions(inline_pack, power, code):
    """A field of type int written 1.5, 1.0e3 or 1e3 is a pack error: pack data of a typed
    field never brings a fraction into a state."""
    with pytest.raises(PackError, match=code):
        inline_pack(RULES, records(power=power))


def test_an_any_field_written_with_a_fraction_is_a_pack_error(inline_pack):
    """A field of type `any` would carry what YAML gives into a state, 1.5 included: the
    pack refuses a fraction anywhere in it (E316), as it does in an int field."""
    with pytest.raises(PackError, match=r"E316.*got 2\.5 \(the rules count in whole numbers\)"):
        inline_pack(RULES, records(extra="[2, {a: 1}, 2.5]"))
    with pytest.raises(PackError, match=r"E316.*got 1000\.0"):
        inline_pack(RULES, records(extra="{a: [1.0e3]}"))


def test_whole_number_data_in_an_any_field_keeps_the_fast_writer(inline_pack):
    p = inline_pack(RULES, records(extra="[2, {a: 1000}]"))
    assert not canonical_module.fractions_possible(p)
    game = p.new_game(1)
    game.apply("one")
    assert game.save() == jsons_text(game)


def test_a_hosts_action_is_the_option_itself(inline_pack):
    """Game.validate answers with the option, never the host's value: 1.0 and true are not
    the option 1, an answer to a yes/no question is true or false only."""
    p = inline_pack(RULES, records())
    game = p.new_game(1)
    game.apply("one")
    before = game.save()
    for action in (1.0, True, 1.5, float("nan")):
        with pytest.raises(IllegalAction):
            game.apply(action)
    assert game.save() == before
    game.apply(1)
    for action in (1, 1.0, 0.0):
        with pytest.raises(IllegalAction):
            game.apply(action)
    game.apply(True)
    assert fractions_in(game.state) == [] and fractions_in(game.actions, "actions") == []
    assert game.actions == ["one", 1, True] and type(game.actions[1]) is int
    assert game.save() == jsons_text(game)


def test_chance_outcomes_and_loaded_dice_must_be_whole_numbers(inline_pack):
    """A host's chance outcome (Game.new(chance=...)) or loaded die that is a fraction is
    refused before it reaches the state."""
    p = inline_pack(RULES.replace("    move card to hand\n",
                                  "    move card to hand\n    got = roll(1, 6)\n"), records())
    for outcome in (1.0, 2.5):
        with pytest.raises(EngineFault, match="chance outcome"):
            Game.new(p, 1, chance=[outcome])
    game = p.new_game(1)
    with pytest.raises(ValueError, match="whole numbers"):
        game.load_dice([2.0])
    assert fractions_in(game.state) == []


# ---- the pack checks at C speed still say where ----------------------------------------------

def test_made_records_and_their_fields_checked_at_c_speed_still_say_where():
    """Records made in play and their fields are checked a set at a time; an id not as the
    engine writes it, a count far past the ids (no set of that size is made) and a field
    too many still get the located message."""
    from packs_under_test import STACKGAME
    p = pack(STACKGAME)
    game = p.new_game(3)
    rnd = random.Random(3)
    while not game.state["made"] or not any(game.state["made"].values()):
        game.apply(game.random_action(rnd))
    tname, ids = next((t, ids) for t, ids in game.state["made"].items() if ids)
    data = json.loads(game.save())
    assert Game.load(p, game.save(), verify="digest").save() == game.save()

    def refused(change) -> str:
        d = json.loads(json.dumps(data))
        change(d["state"])
        d["digest"] = saves.digest_of(d["seed"], d["log"], d["actions"], d["state"])
        with pytest.raises(SaveError) as err:
            Game.load(p, json.dumps(d), verify="digest")
        return str(err.value)

    head, _, number = ids[0].partition("#")
    assert f"state.made.{tname}[0]: '{head}#0{number}' is not the id of a {tname}" in refused(
        lambda s: s["made"][tname].__setitem__(0, f"{head}#0{number}"))
    assert f"state.made.{tname}[0]: '{head}#{10**12}' is not the id" in refused(
        lambda s: (s["made"][tname].__setitem__(0, f"{head}#{10**12}"),
                   s["serial"].__setitem__(tname, 10**12 - 1)))
    assert f"state.f['{ids[0]}'].extra: the pack has no field of '{ids[0]}'" in refused(
        lambda s: s["f"][ids[0]].__setitem__("extra", 0))


# ---- a save as written, read straight into the structs ------------------------------------

def same_data(read: Any, given: Any) -> bool:
    """Equal, of the same types (a list is no tuple, true no 1) and in the same key order,
    at every level."""
    if type(read) is not type(given):
        return False
    if isinstance(read, dict):
        return list(read) == list(given) and all(same_data(read[k], given[k]) for k in read)
    if isinstance(read, list):
        return len(read) == len(given) and all(map(same_data, read, given))
    return bool(read == given)


@pytest.mark.parametrize("name", ["testgame", "stackgame", "windowgame", "choicegame"])
def test_a_save_as_written_is_read_into_the_structs_as_json_reads_it(name):
    """Game.save's texts take the quick way (engine.core.saves.reading.read_as_written:
    msgspec reads them into the structs, the runtime's data taken from them), and the
    data are those json's reader gives, types and key order included (frames, decisions
    with and without a window, an event's state, records made in play)."""
    from engine.core.saves.reading import read_as_written
    p = pack(TESTS / "packs" / name)
    for seed in range(6):
        game = p.new_game(seed)
        rnd = random.Random(seed)
        while not game.over:
            game.apply(game.random_action(rnd))
            if len(game.actions) % 3 == 1 or game.over:
                text = game.save()
                read = read_as_written(text)
                assert read is not None and same_data(read[1], json.loads(text))
    pretty = json.dumps(json.loads(text), indent=1)  # laid out otherwise: the careful way
    assert read_as_written(pretty) is None
    assert Game.load(p, pretty, verify="digest").save() == text


@pytest.mark.parametrize("value", [1.5, 1e16, 1e-07, 1.2345678901234568e+17, -0.0, 5e-324,
                                   1e22, [0.1, {"a": 2.5e-5}], 2 ** 64, -2 ** 63 - 1,
                                   "caf\u00e9 \u2028 del\x7f", "\ud800", "a:1.5", (1, [2])])
def test_the_one_canonical_writer_writes_jsons_text(value):
    """msgspec writes floats' exponents otherwise than json ("1e16", not "1e+16"): the
    canonical writer notices a fraction in its text and writes that value with json's
    writer; numbers past 64 bits, text outside ASCII (escaped again) and tuples it writes
    as json does, lone surrogates by json's writer."""
    assert saves.canonical(value, nan_free=True) == json.dumps(
        value, separators=(",", ":"), sort_keys=True) == saves.canonical(value)
