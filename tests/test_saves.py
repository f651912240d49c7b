"""Saves that cannot lie (issue 8, hole 8): a loaded game is the game that was saved, or a
SaveError that says what is wrong and where; never a different game, never a raw exception.

The tampered-save suite walks the JSON of real saves (tests/packs/testgame and the shipped
content/ante_portas, mid-game at a decision) and changes, drops, retypes and adds to every
top-level field, every state field and a fixed sample of the paths below them."""
from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import REPO

from engine.core.errors import SaveError
from engine.core.game import SAVE_FORMAT, Game, replay
from engine.core.loader import load_pack
from engine.core.saves import digest_of

TOP_KEYS = {"format", "pack", "pack_hash", "seed", "log", "actions", "state", "digest"}
STATE_KEYS = {"v", "z", "loc", "mods", "revealed", "stack", "decision", "log", "result", "rng",
              "steps", "decisions", "asked"}
SAMPLED_BELOW_EACH_STATE_KEY = 8  # paths mutated below each state key (fixed seed)
DROP = object()  # a mutation that deletes the key or item


def played(pack: Any, seed: int, moves: int, *, log: bool = True) -> Game:
    """A real game after `moves` random moves, still waiting for a decision."""
    rnd = random.Random(seed)
    game = pack.new_game(seed, log=log)
    for _ in range(moves):
        game.apply(game.random_action(rnd))
        assert not game.over, "pick a shorter game: the suite needs one waiting for a decision"
    return game


@pytest.fixture(scope="module")
def ante_portas() -> Any:
    return load_pack("ante_portas")


@pytest.fixture(scope="module")
def saves(testgame: Any, ante_portas: Any) -> dict[str, tuple[Any, str]]:
    return {"testgame": (testgame, played(testgame, 5, 17).save()),
            "ante_portas": (ante_portas, played(ante_portas, 4, 12).save())}


# ---- mutations --------------------------------------------------------------------------------

Path = tuple[Any, ...]


def walk(node: Any, path: Path = ()) -> Iterator[Path]:
    yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from walk(value, (*path, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from walk(value, (*path, i))


def at(data: Any, path: Path) -> Any:
    for step in path:
        data = data[step]
    return data


def mutations(value: Any, strings: list[str], rnd: random.Random) -> list[tuple[str, Any]]:
    """Ways to damage one node: changed, retyped, dropped, grown."""
    out: list[tuple[str, Any]] = [("dropped", DROP)]
    if isinstance(value, bool):
        out += [("flipped", not value), ("retyped", int(value))]
    elif isinstance(value, int):
        out += [("+1", value + 1), ("retyped", str(value)), ("fractional", value + 0.5)]
    elif isinstance(value, str):
        others = [s for s in strings if s != value]
        out += [("other string", rnd.choice(others)), ("retyped", len(value))]
    elif value is None:
        out += [("retyped", 0), ("retyped", "")]
    elif isinstance(value, list):
        extra = copy.deepcopy(value[0]) if value else 0
        out += [("extra item", [*value, extra]), ("retyped", {"0": value})]
        if value:
            out += [("first item dropped", value[1:])]
    elif isinstance(value, dict):
        out += [("extra key", {**value, "extra": 0}), ("retyped", list(value.values()))]
    return out


def mutated(original: str, path: Path, new: Any) -> str:
    data = json.loads(original)
    parent = at(data, path[:-1])
    if new is DROP:
        del parent[path[-1]]
    else:
        parent[path[-1]] = new
    return json.dumps(data)


def sampled_paths(data: dict[str, Any], rnd: random.Random) -> list[Path]:
    """Every top-level and state field, and a fixed sample of the paths below each."""
    paths = [(key,) for key in data] + [("state", key) for key in data["state"]]
    for key in data["state"]:
        below = [p for p in walk(data["state"][key], ("state", key)) if len(p) > 2]
        paths += rnd.sample(below, min(SAMPLED_BELOW_EACH_STATE_KEY, len(below)))
    below_actions = [p for p in walk(data["actions"], ("actions",)) if len(p) > 1]
    paths += rnd.sample(below_actions, min(SAMPLED_BELOW_EACH_STATE_KEY, len(below_actions)))
    return paths


def loads_as_saved_or_refused(pack: Any, text: str, original: str, verify: str,
                              label: str) -> str:
    """'refused' (SaveError) or 'same' (loads as exactly the saved game); anything else
    fails the test, named by `label`."""
    try:
        game = Game.load(pack, text, verify=verify)
    except SaveError as err:
        assert str(err), label
        return "refused"
    except Exception as err:  # noqa: BLE001 - any other exception is the bug looked for
        pytest.fail(f"{label}: {type(err).__name__}: {err}")
    assert game.save() == original, f"{label}: loaded as a different game"
    return "same"


def tamper_suite(pack: Any, original: str, verify: str) -> tuple[Counter, set[Path]]:
    rnd = random.Random(8)
    data = json.loads(original)
    strings = sorted({s for p in walk(data) if isinstance(s := at(data, p), str)} |
                     {k for p in walk(data) if isinstance(n := at(data, p), dict) for k in n})
    outcomes: Counter = Counter()
    covered: set[Path] = set()
    for path in sampled_paths(data, rnd):
        covered.add(path[:2] if path[0] == "state" else path[:1])
        for what, new in mutations(at(data, path), strings, rnd):
            label = f"{pack.id} {verify}: {'.'.join(map(str, path))} {what}"
            outcomes[loads_as_saved_or_refused(pack, mutated(original, path, new), original,
                                               verify, label)] += 1
    return outcomes, covered


# ---- the tampered-save suite --------------------------------------------------------------------

@pytest.mark.parametrize("verify", ["replay", "digest"])
@pytest.mark.parametrize("which", ["testgame", "ante_portas"])
def test_tampered_saves_are_refused_or_load_as_saved(saves, which, verify):
    """Hole 8: a changed integer, seed, action list, RNG state or decision option used to
    load silently as a different game, or raise a raw KeyError/TypeError. Every field of
    the save changed, dropped, retyped or grown now loads as exactly the saved game, or
    raises SaveError."""
    pack, original = saves[which]
    outcomes, covered = tamper_suite(pack, original, verify)
    assert covered >= {(k,) for k in TOP_KEYS} | {("state", k) for k in STATE_KEYS}
    assert outcomes["refused"] >= 200


@pytest.mark.parametrize("verify", ["replay", "digest"])
def test_truncated_saves_are_refused(saves, verify):
    """Hole 8: a save cut short (a full disk, a lost connection) is a SaveError."""
    pack, original = saves["testgame"]
    for end in (0, 1, 2, 17, len(original) // 3, len(original) // 2, len(original) - 2,
                len(original) - 1):
        with pytest.raises(SaveError, match="not a saved game"):
            Game.load(pack, original[:end], verify=verify)


def test_another_packs_save_is_refused(saves, tmp_path):
    """Hole 8: a save of another pack, or of an older version of this pack, is refused by
    name, whichever the verify mode."""
    testgame, original = saves["testgame"]
    ante_portas, other = saves["ante_portas"]
    for verify in ("replay", "digest"):
        with pytest.raises(SaveError, match="saved with pack 'ante_portas', not 'testgame'"):
            Game.load(testgame, other, verify=verify)
        with pytest.raises(SaveError, match="saved with pack 'testgame', not 'ante_portas'"):
            Game.load(ante_portas, original, verify=verify)
    source = REPO / "tests" / "packs" / "testgame"
    changed = tmp_path / "testgame"
    changed.mkdir()
    for f in source.iterdir():
        changed.joinpath(f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    with changed.joinpath("rules.rules").open("a", encoding="utf-8") as fh:
        fh.write("\n# a comment changes the pack's hash\n")
    with pytest.raises(SaveError, match="pack 'testgame' changed since this game was saved"):
        Game.load(load_pack(changed), original)


def test_a_frame_running_another_function_is_refused(saves):
    """Hole 8: a waiting rule's function swapped for another function of the pack (one that
    can wait, or one that cannot) is a SaveError, not a game resumed in the wrong rule."""
    pack, original = saves["testgame"]
    data = json.loads(original)
    frames = [i for i, fr in enumerate(data["state"]["stack"]) if fr["k"] == "p"]
    assert len(frames) >= 2
    waiting = sorted(pack.ns["SUSPENDING"] & set(pack.ns["FUNCS"]))
    plain = sorted(set(pack.ns["FUNCS"]) - pack.ns["SUSPENDING"])
    tried = 0
    for i in frames:
        for other in [f for f in waiting if f != data["state"]["stack"][i]["f"]][:3] + plain[:1]:
            bad = copy.deepcopy(data)
            bad["state"]["stack"][i]["f"] = other
            for verify in ("replay", "digest"):
                with pytest.raises(SaveError, match=r"state\.stack|state\.decision|digest"):
                    Game.load(pack, json.dumps(bad), verify=verify)
                tried += 1
    assert tried >= 8


# ---- honest saves -------------------------------------------------------------------------------

@pytest.mark.parametrize("which", ["testgame", "ante_portas"])
def test_an_honest_save_loads_and_plays_on_identically(saves, which):
    """Hole 8: an honest save loads in both modes as the very game saved, and the game
    continues exactly as the original does."""
    pack, _ = saves[which]
    original = played(pack, 5, 9)
    text = original.save()
    games = [Game.load(pack, text), Game.load(pack, text, verify="digest")]
    assert all(g.save() == text for g in games)
    assert all(g.decision == original.decision for g in games)
    for game in [original, *games]:
        rnd = random.Random(11)
        for _ in range(15):
            if game.over:
                break
            game.apply(game.random_action(rnd))
    assert games[0].save() == games[1].save() == original.save()
    assert games[0].log == original.log


def test_a_finished_game_loads_and_save_is_its_canonical_data(testgame):
    """Hole 8: a game that is over loads as itself in both modes; `save()` is exactly the
    canonical JSON of `to_data()` (sorted keys, no spaces), digest included."""
    rnd = random.Random(2)
    game = testgame.new_game(2)
    while not game.over:
        game.apply(game.random_action(rnd))
    text = game.save()
    assert text == json.dumps(game.to_data(), separators=(",", ":"), sort_keys=True)
    for verify in ("replay", "digest"):
        loaded = Game.load(testgame, text, verify=verify)
        assert loaded.over and loaded.result == game.result and loaded.save() == text


def test_the_save_records_the_log_flag_and_load_honours_log(testgame):
    """Hole 8: a save says whether its log was on, so that replay can check the log too; a
    game saved without its log and loaded with log=True gets the whole log back."""
    quiet = played(testgame, 3, 6, log=False)
    text = quiet.save()
    assert json.loads(text)["log"] is False
    same = Game.load(testgame, text, log=False)
    assert same.save() == text
    loud = Game.load(testgame, text, log=True)
    assert loud.log == replay(testgame, 3, quiet.actions).log
    assert json.loads(loud.save())["log"] is True
    back = Game.load(testgame, loud.save(), log=False, verify="digest")
    assert back.save() == text


# ---- clear errors -------------------------------------------------------------------------------

def edited(text: str, edit: Any) -> str:
    data = json.loads(text)
    edit(data)
    return json.dumps(data)


def test_messages_say_what_is_wrong_and_where(saves):
    """Hole 8: the messages of a damaged save locate the damage for a person."""
    pack, original = saves["testgame"]

    def set_options(d: dict) -> None:
        d["state"]["decision"]["options"] = 3

    def bump_rng(d: dict) -> None:
        d["state"]["rng"] += 1

    def extra_option(d: dict) -> None:
        d["state"]["decision"]["options"].append(d["state"]["decision"]["options"][0])

    def no_var(d: dict) -> None:
        d["state"]["v"]["no_such_var"] = {"": 1}

    def fraction(d: dict) -> None:
        name = next(iter(d["state"]["v"]))
        key = next(iter(d["state"]["v"][name]))
        d["state"]["v"][name][key] = 1.5

    cases = [
        (set_options, "replay", "state.decision.options: expected a list, got 3"),
        (bump_rng, "replay", re.escape("the saved state does not match its own actions: "
                                       "replaying them gives a different rng (first "
                                       "difference: state.rng: saved ")),
        (bump_rng, "digest", "digest: the save does not match its digest"),
        (extra_option, "replay", "first difference: state.decision.options"),
        (no_var, "replay", "state.v.no_such_var: the pack has no var 'no_such_var'"),
        (fraction, "digest", "expected game data .*got a fractional number 1.5"),
        (lambda d: d.update(seed=d["seed"] + 1), "replay", "seed|actions|state"),
        (lambda d: d["actions"].pop(), "replay", r"actions: \d+ actions, but the state counts"),
        (lambda d: d["state"].pop("asked"), "replay",
         re.escape("state.asked: missing (the key 'asked' is required)")),
        (lambda d: d.update(extra=1), "digest", "extra: unknown key 'extra'"),
    ]
    for edit, verify, message in cases:
        with pytest.raises(SaveError, match=message):
            Game.load(pack, edited(original, edit), verify=verify)


NOT_SAVES = {
    "nested lists": "[" * 100_000 + "]" * 100_000,
    "nested objects": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "huge number": "1" * 5000,
    "list": "[]", "number": "3", "null": "null", "text": '"engine-save/2"', "empty": "",
    "cut": "{", "words": "not json",
    "duplicate key": '{"format": "engine-save/2", "format": "engine-save/2"}',
}


@pytest.mark.parametrize("text", NOT_SAVES.values(), ids=NOT_SAVES.keys())
def test_json_that_is_no_save_is_refused(testgame, text):
    """Hole 8: deeply nested JSON, numbers of thousands of digits, truncated JSON and JSON
    that is not an object are SaveError, not RecursionError, ValueError or TypeError."""
    for verify in ("replay", "digest"):
        with pytest.raises(SaveError, match="not a saved game"):
            Game.load(testgame, text, verify=verify)


def test_bombs_inside_a_save_are_refused(saves):
    """Hole 8: nesting, huge numbers and foreign values inside an otherwise good save."""
    pack, original = saves["testgame"]
    data = json.loads(original)
    name = next(iter(data["state"]["v"]))
    key = next(iter(data["state"]["v"][name]))
    texts = [
        original.replace(f'"rng":{data["state"]["rng"]}', '"rng":' + "9" * 5000),
        original.replace(f'"rng":{data["state"]["rng"]}', f'"rng":{2 ** 64}'),
        original.replace(f'"seed":{data["seed"]}', '"seed":' + "9" * 4000),
        edited(original, lambda d: d["state"]["v"][name].update({key: [[[[[]]]]] * 3})),
        edited(original, lambda d: d["state"]["v"][name].update({key: float("nan")})),
        edited(original, lambda d: d["actions"].append("x")),
    ]
    marked = edited(original, lambda d: d["state"]["v"][name].update({key: "DEEP"}))
    for depth in (70, 900, 5000):  # below and beyond what the JSON reader itself allows
        texts.append(marked.replace('"DEEP"', "[" * depth + "]" * depth))
    for text in texts:
        for verify in ("replay", "digest"):
            with pytest.raises(SaveError):
                Game.load(pack, text, verify=verify)


def test_an_old_format_save_says_how_to_recover(saves):
    """Hole 8: a save of the older format (which could not be checked) is refused, saying
    it comes from an older engine and how to get the game back: replay seed and actions."""
    pack, original = saves["testgame"]
    data = json.loads(original)
    old = {"format": "engine-save/1", "pack": data["pack"], "pack_hash": data["pack_hash"],
           "seed": data["seed"], "actions": data["actions"], "state": data["state"]}
    with pytest.raises(SaveError, match="older engine.*replay.*seed.*actions"):
        Game.load(pack, json.dumps(old))
    game = replay(pack, old["seed"], old["actions"])
    assert game.save() == original
    assert json.loads(game.save())["format"] == SAVE_FORMAT


def test_verify_must_be_replay_or_digest(saves):
    """Hole 8: a verify mode that does not exist is a programming error (ValueError), not a
    silent unchecked load."""
    pack, original = saves["testgame"]
    for verify in ("none", "", None, True):
        with pytest.raises(ValueError, match="verify must be 'replay' or 'digest'"):
            Game.load(pack, original, verify=verify)


def test_the_digest_is_over_what_the_save_claims(saves):
    """Hole 8: `verify='digest'` refuses a save whose seed, log flag, actions or state
    differ from what was digested, even when the change fits the schema."""
    pack, original = saves["testgame"]
    edits = [lambda d: d.update(seed=d["seed"] + 1), lambda d: d.update(log=False),
             lambda d: d["state"].update(steps=d["state"]["steps"] + 1),
             lambda d: d.update(digest="0" * 64)]
    for edit in edits:
        with pytest.raises(SaveError, match="digest"):
            Game.load(pack, edited(original, edit), verify="digest")
    # replay proves the state itself: a damaged digest alone does not make a different game
    assert Game.load(pack, edited(original, edits[-1])).save() == original


def test_a_save_writes_the_log_once_and_the_same_text(ante_portas):
    """Game.save keeps the log's JSON between saves (engine.core.saves.LogText); through undo
    (the log cut back and grown again) and clones its text stays what writing the whole
    game gives."""
    from engine.core import saves as saves_module
    game = ante_portas.new_game(seed=4)
    rnd = random.Random(4)
    games = [game]
    for i in range(120):
        if game.over:
            break
        side = game.decider
        game.apply(game.random_action(rnd))
        if i % 7 == 3 and game.can_undo(side):
            game.undo(side)
        if i % 25 == 0:
            games.append(game.clone())
        for g in (game, games[-1]):
            whole = saves_module.save_text(g.pack, g.seed, g.rt.logging, g.actions, g.state)
            assert g.save() == whole
    assert len(game.log) > 100


def test_the_step_count_is_no_part_of_the_replayed_game(saves):
    """The step count is a budget counter (engine.core.limits), not game state: a save whose
    count differs (one written before the count was defined as it is now) loads by replay
    as the game its actions give; a changed game state is still refused, and the digest
    still covers the count."""
    pack, original = saves["ante_portas"]
    for steps in (0, json.loads(original)["state"]["steps"] + 12345):
        def edit(d: dict, steps: int = steps) -> None:
            d["state"]["steps"] = steps
            d["digest"] = digest_of(d["seed"], d["log"], d["actions"], d["state"])
        assert Game.load(pack, edited(original, edit)).save() == original
        with pytest.raises(SaveError, match="digest"):
            Game.load(pack, edited(original,
                                   lambda d, steps=steps: d["state"].update(steps=steps)),
                      verify="digest")

    def edit_game(d: dict) -> None:
        d["state"]["steps"] += 1
        d["state"]["rng"] += 1
        d["digest"] = digest_of(d["seed"], d["log"], d["actions"], d["state"])
    with pytest.raises(SaveError, match="replaying them gives a different rng"):
        Game.load(pack, edited(original, edit_game))


def test_the_digest_is_checked_on_the_text_or_on_the_json(saves):
    """A save as `Game.save` writes it has its digest checked on the text itself (no second
    writing of the state); laid out otherwise (indented, keys in another order) it is
    checked on its JSON; either way a changed byte of what it claims is refused."""
    from engine.core import saves as saves_module
    pack, original = saves["ante_portas"]
    assert saves_module.digest_holds(pack, original)
    game = Game.load(pack, original, verify="digest")
    assert game.save() == original
    pretty = json.dumps(json.loads(original), indent=1)
    assert not saves_module.digest_holds(pack, pretty)
    assert Game.load(pack, pretty, verify="digest").save() == original
    i = original.index(",", original.index('"rng":')) - 1  # the random state's last digit
    damaged = original[:i] + str((int(original[i]) + 5) % 10) + original[i + 1:]
    for text in (damaged, json.dumps(json.loads(damaged), indent=1)):
        with pytest.raises(SaveError, match="digest"):
            Game.load(pack, text, verify="digest")


def redigested(text: str) -> str:
    """`text`, a save laid out as `Game.save` writes it, with the digest of what it now
    claims: damage that the digest does not find."""
    head, digest, rest = re.fullmatch(r'(\{"actions":.*?),"code":"[0-9a-f]{16}",'
                                      r'"digest":"([0-9a-f]{64})"(.*)', text, re.S).groups()
    log, seed, state = re.fullmatch(r'.*?"log":(true|false),.*?"seed":(-?[0-9]+),'
                                    r'"state":(.*)\}', rest, re.S).groups()
    claimed = f'{head},"log":{log},"seed":{seed},"state":{state}}}'
    fresh = hashlib.sha256(claimed.encode("utf-8", "surrogatepass")).hexdigest()
    return text.replace(digest, fresh, 1)


def test_a_key_given_twice_is_refused_in_a_save_laid_out_as_written(saves):
    """A save read at C speed (json without a hook per object, see saves.parse_json) still
    refuses a key given twice, also when the save looks exactly as `Game.save` writes it
    and its digest is of the text with the key twice."""
    from engine.core import saves as saves_module
    from engine.core.saves.reading import written_canonically
    pack, original = saves["ante_portas"]
    assert written_canonically(json.loads(original), original)
    asked = re.search(r'"asked":[0-9]+', original).group()
    for twice in (asked + "," + asked, asked + "," + asked.replace('":', '":1')):
        text = redigested(original.replace(asked, twice, 1))
        assert saves_module.digest_holds(pack, text)
        assert not written_canonically(json.loads(text), text)
        for verify in ("replay", "digest"):
            with pytest.raises(SaveError, match="the key 'asked' appears twice in one object"):
                Game.load(pack, text, verify=verify)


@pytest.mark.parametrize("value", ["caf\u00e9", "\U0001d11e", "del\x7f", "tab\t\x01",
                                   'quote " and \\', "\ud800", 2 ** 64 - 1, 2 ** 64, -2 ** 63 - 1])
def test_json_read_at_c_speed_is_what_the_careful_reader_reads(value):
    """saves.parse_json reads a text laid out as `canonical` writes it without the
    duplicate-key hook; every other text goes to the careful reader, and both give the
    same value (texts, escapes, lone surrogates, numbers past 64 bits)."""
    from engine.core import saves as saves_module
    from engine.core.saves.reading import written_canonically
    data = {"b": [value, {"k": value}], "a": {value if isinstance(value, str) else "n": 1}}
    text = saves_module.canonical(data)
    for given in (text, text.encode("utf-8", "surrogatepass"), json.dumps(data, indent=1)):
        if isinstance(given, bytes) and "\ud800" in text:
            continue  # not UTF-8: json refuses it either way
        assert saves_module.parse_json(given) == (data, False)
    assert written_canonically(data, text) == (value != "\ud800")  # msgspec writes no such text


def test_fractions_in_a_save_laid_out_as_written_are_still_found(saves):
    """Game data with a fractional number is refused also when the save is laid out as
    `Game.save` writes it (read at C speed): the reader still says it saw one."""
    from engine.core import saves as saves_module
    from engine.core.saves.reading import written_canonically
    pack, original = saves["testgame"]
    data = json.loads(original)
    name = next(iter(data["state"]["v"]))
    key = next(iter(data["state"]["v"][name]))
    data["state"]["v"][name][key] = 1.5
    text = saves_module.canonical(data)
    assert written_canonically(json.loads(text), text)
    assert saves_module.parse_json(text) == (data, True)
    for verify in ("replay", "digest"):
        with pytest.raises(SaveError, match="expected game data .*got a fractional number 1.5"):
            Game.load(pack, text, verify=verify)


def test_zones_and_loc_that_disagree_are_refused_with_the_place(saves):
    """The zones and `loc` are checked together at C speed when they agree; when they do
    not, the message still names the record and the zones."""
    pack, original = saves["ante_portas"]
    data = json.loads(original)
    zones = list(data["state"]["z"])
    zone = next(k for k in zones if data["state"]["z"][k])
    other = zones[zones.index(zone) + 1]  # read after it
    items = data["state"]["z"][zone]
    rid = items[0]

    def twice(d: dict) -> None:
        d["state"]["z"][other].append(rid)

    def moved(d: dict) -> None:
        d["state"]["loc"][rid] = other

    def unknown(d: dict) -> None:
        d["state"]["z"][zone].append("no_such_record")
        d["state"]["loc"]["no_such_record"] = zone

    def dropped(d: dict) -> None:
        d["state"]["z"][zone].remove(rid)

    cases = [(twice, f"{rid!r} lies in two zones"),
             (moved, f"says {rid!r} lies in {other!r}, but it lies in zone {zone!r}"),
             (unknown, "'no_such_record' is not a record of pack"),
             (dropped, f"says {rid!r} lies in {zone!r}, which does not hold it")]
    for edit, message in cases:
        with pytest.raises(SaveError, match=re.escape(message)):
            Game.load(pack, edited(original, edit), verify="digest")


@pytest.mark.parametrize("live, saved", [
    ({"a": [1, 2]}, {"a": [1, 2]}), ({"a": (1, 2)}, {"a": [1, 2]}), ([1.0], [1]), ([True], [1]),
    ([float("nan")], [None]), ([float("inf")], [None]), ([-float("inf")], [None]),
    ([2 ** 70], [2 ** 70]), ([2 ** 70], [2 ** 70 + 1]), ({"b": 1, "a": 2}, {"a": 2, "b": 1}),
    ({"a": "caf\u00e9"}, {"a": "cafe"}), ({"a": [[[]]]}, {"a": [[[]]]}), ([None], [0])])
def test_the_replayed_state_is_compared_as_its_canonical_json(live, saved):
    """saves.verify.same_json, which compares the replayed state with the saved one most
    often without json's writer, says what comparing their canonical JSON says (floats, NaN
    written as null by msgspec, 1 and true, tuples, numbers of more than 64 bits)."""
    from engine.core import saves as saves_module
    from engine.core.saves.verify import same_json
    assert same_json(live, saved) == (
        saves_module.canonical(live) == saves_module.canonical(saved))
