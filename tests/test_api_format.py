"""The public format (engine.core.api, docs/api.md) is what the engine really gives: real views,
decisions, log entries and saves of random games of every playable pack validate against
`engine schema --api` (with the `jsonschema` library) and against `engine.core.api.structure`;
a malformed one is refused with a message saying where."""
from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest

from engine.core import api
from engine.core.errors import SaveError
from engine.core.game import Game
from engine.core.loader import load_pack
from engine.core.schema import api_schema, schema_for
from engine.dsl.places import find_packs, is_playable
from engine.frontends.cli import main

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
# every playable pack: the test packs, the benchmark packs, and the shipped games
PACKS = [p for p in [*find_packs(TESTS / "packs"), *find_packs(ROOT / "bench" / "packs"),
                     ROOT / "content" / "ante_portas", ROOT / "content" / "hannibal"]
         if is_playable(p)]
# decisions played per game: Hannibal's views are large, a few of its decisions suffice
DECISIONS = {"hannibal": 6}


def validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema_for(name))


VALIDATORS = {name: validator(name) for name in ("View", "LogEntry", "Save", "Action")}


def valid(name: str, value: object) -> None:
    errors = sorted(VALIDATORS[name].iter_errors(value), key=lambda e: list(e.path))
    assert not errors, f"{name} at {list(errors[0].absolute_path)}: {errors[0].message}"
    api.structure(value, api.TYPES[name])


def test_the_schema_is_a_valid_2020_12_schema(capsys):
    """`engine schema --api` prints it; jsonschema accepts it as a draft 2020-12 schema."""
    assert main(["schema", "--api"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == api_schema()
    jsonschema.Draft202012Validator.check_schema(printed)
    assert printed["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    view = printed["$defs"]["View"]
    assert view["properties"]["format_version"] == {
        "const": api.FORMAT_VERSION, "description": "The version of this format "
        "(`FORMAT_VERSION`)."}
    # every key of every object says what a front-end reads there
    for name, d in printed["$defs"].items():
        assert d["description"], name
        for key, prop in d.get("properties", {}).items():
            assert prop.get("description"), f"{name}.{key}"


@pytest.mark.parametrize("root", PACKS, ids=[p.name for p in PACKS])
def test_real_games_fit_the_format(root):
    """Random games: the view of every side and of a spectator at every decision, the
    host's log, the actions and saves, against the schema."""
    pack = load_pack(root)
    limit = DECISIONS.get(pack.id, 60)
    hidden = 0
    kinds = set()
    for seed in (1, 2):
        game = pack.new_game(seed)
        rnd = random.Random(seed)
        while not game.over and len(game.actions) < limit:
            # a whole view is long to check: the first decisions, then every 20th, and the
            # end; the decision part of every view at every decision
            whole = len(game.actions) < 3 or len(game.actions) % 20 == 0
            for side in [*pack.sides, None]:
                view = game.view(side)
                if whole:
                    valid("View", view)
                else:
                    valid("View", {**view, "log": [], "zones": {}, "vars": {}})
            kinds.add(game.decision.kind)
            action = game.random_action(rnd)
            valid("Action", action)
            game.apply(action, side=game.decider, decision=game.decision.id)
        for entry in game.log:
            valid("LogEntry", entry)
        for side in [*pack.sides, None]:  # every entry as each side saw it
            view = game.view(side)
            valid("View", view)
            # hidden cards: null in a log entry's record or arguments
            hidden += sum(1 for e in view["log"]
                          if "e" in e and e["e"] is None or None in (e.get("a") or ()))
        save = game.to_data()
        valid("Save", save)
        assert json.loads(game.save()) == save
        assert save["format_version"] == api.FORMAT_VERSION
    assert kinds
    if pack.id in ("leakgame", "ante_portas", "kuhn", "hannibal", "stackgame", "testgame"):
        assert hidden > 0  # their views' logs hide cards, and the schema allows it


def test_views_with_names_fit_the_format():
    pack = load_pack("ante_portas")
    game = pack.new_game(3)
    view = game.view("rome", lang="hu")
    valid("View", view)
    assert view["lang"] == "hu" and view["names"]["rome"] == "Róma"


# ---- what structure() says about a malformed value ---------------------------------------------
def _view() -> dict:
    return load_pack(TESTS / "packs" / "tinygame").new_game(1).view("red")


@pytest.mark.parametrize("change, message", [
    (lambda v: v["decision"].update(id="7"),
     "not a valid View: $.decision.id: expected a whole number, got '7'"),
    (lambda v: v.update(colour="red"), "not a valid View: $: unknown key 'colour' (keys: "),
    (lambda v: v.pop("zones"), "not a valid View: $: missing key 'zones'"),
    (lambda v: v["log"].append({"t": "teleport"}),
     "not a valid View: $.log[{n}].t: unknown kind 'teleport' (kinds: event, done, "),
    (lambda v: v["log"].append({"t": "move", "e": 3, "from": None, "to": "x"}),
     "not a valid View: $.log[{n}].e: expected a text or null, got 3"),
    (lambda v: v.update(format_version=1),
     f"not a valid View: $.format_version: expected {api.FORMAT_VERSION}, got 1"),
    (lambda v: v["decision"].update(kind="some"),
     "not a valid View: $.decision.kind: expected 'one' or 'many' or 'ask' or 'order'"),
])
def test_a_malformed_view_is_refused_with_where(change, message):
    view = _view()
    n = len(view["log"])
    change(view)
    with pytest.raises(api.FormatError) as err:
        api.structure(view, api.View)
    assert str(err.value).startswith(message.format(n=n)), str(err.value)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(view, schema_for("View"))


def test_an_action_is_json_data():
    assert api.structure(["card_01", 3, None, True], api.Action) == ["card_01", 3, None, True]
    with pytest.raises(api.FormatError, match=r"\$\[1\]: expected JSON data, got set"):
        api.structure([1, {2}], api.Action)


# ---- format_version in saves -------------------------------------------------------------------
def test_a_save_of_another_version_is_refused():
    pack = load_pack(TESTS / "packs" / "tinygame")
    game = pack.new_game(4)
    data = game.to_data()
    assert data["format_version"] == api.FORMAT_VERSION
    for version in (api.FORMAT_VERSION + 1, "2", None):
        with pytest.raises(SaveError, match=f"this save is of format_version .*; this engine "
                           f"reads format_version {api.FORMAT_VERSION}"):
            Game.load(pack, json.dumps({**data, "format_version": version}))


def test_a_save_written_before_format_version_loads():
    """engine-save/2 files written before the key was added are of version 2."""
    pack = load_pack(TESTS / "packs" / "tinygame")
    game = pack.new_game(4)
    game.apply(game.legal_actions()[0])
    data = game.to_data()
    del data["format_version"]
    again = Game.load(pack, json.dumps(data), verify="digest")
    assert again.state == game.state and again.save() == game.save()


def test_a_views_decision_converts_back_to_the_games():
    """cattrs both ways: Game.decision -> the view's JSON -> the same attrs Decision."""
    pack = load_pack(TESTS / "packs" / "windowgame")
    game = pack.new_game(0)
    game.apply(game.legal_actions()[0])
    d = game.decision
    assert d.window is not None
    wire = json.loads(json.dumps(game.view(d.side)["decision"]))
    assert api.decision_of(wire) == d
    with pytest.raises(api.FormatError, match=r"\$.min: expected a whole number"):
        api.decision_of({**wire, "min": "1"})
