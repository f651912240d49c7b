"""Data packs (`playable: false`) and calling a pack's values from Python (`call_value`,
`engine eval`)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import write_pack_files

from engine.frontends.cli import main

DATA_RULES = """
type space:
    x: int
type road:
    a: space
    b: space
var bonus: int = 10
value double(n: int): int = 2 * n
value road_cost(r: road): int = r.a.x + r.b.x
value with_bonus(n: int): int = n + bonus
value broken(n: int): int = 10 / n
value ends(r: road): list of space = [r.a, r.b]
value side_score(s: side): int = 1 if s == red else 2
check "three spaces": count(space) == 3
"""

DATA_RECORDS = """
space:
  - {id: north, x: 1}
  - {id: south, x: 2}
  - {id: east, x: 4}
road:
  - {id: north_south, a: north, b: south}
"""

GAME_RULES = """
on setup:
    win red
"""


def data_pack(root: Path, pack_id: str = "atlas") -> Path:
    write_pack_files(root, DATA_RULES, DATA_RECORDS, pack_id=pack_id)
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write("playable: false\n")
    return root


@pytest.fixture
def atlas(tmp_path):
    from engine.core.loader import load_pack
    return load_pack(data_pack(tmp_path / "atlas"))


# ---- data packs -----------------------------------------------------------------------------
def test_data_pack_validates_without_setup(tmp_path, capsys):
    root = data_pack(tmp_path / "atlas")
    assert main(["validate", str(root)]) == 0
    out = capsys.readouterr().out
    assert "E250" not in out and "setup" not in out
    assert out.strip().splitlines()[-1] == "checked 1 pack, 3 files: ok"
    # the same pack as a game needs `on setup:`
    text = (root / "pack.yaml").read_text().replace("playable: false\n", "")
    (root / "pack.yaml").write_text(text)
    assert main(["validate", str(root)]) == 1
    assert "error[E250]" in capsys.readouterr().out


def test_playable_must_be_true_or_false(tmp_path, capsys):
    root = data_pack(tmp_path / "atlas")
    text = (root / "pack.yaml").read_text().replace("playable: false", "playable: later")
    (root / "pack.yaml").write_text(text)
    assert main(["validate", str(root)]) == 1
    assert f"{root / 'pack.yaml'}:5:11: error[E304]: 'playable' is true or false" in \
        capsys.readouterr().out


def test_new_game_of_a_data_pack_raises(atlas):
    from engine.core.errors import EngineError, NotPlayable
    from engine.core.game import Game
    from engine.frontends.simulate import simulate
    assert not atlas.playable
    with pytest.raises(NotPlayable) as err:
        atlas.new_game(1)
    assert isinstance(err.value, EngineError) and err.value.pack == "atlas"
    assert str(err.value) == ("atlas is a data pack (playable: false): it has records, tables "
                              "and checks but no rules to play yet; see `engine cards atlas`")
    with pytest.raises(NotPlayable):
        Game.load(atlas, "{}")
    with pytest.raises(NotPlayable):
        simulate(atlas, 3)
    import engine
    assert engine.NotPlayable is NotPlayable


@pytest.mark.parametrize("command", [["play"], ["simulate", "--games", "2"]])
def test_play_and_simulate_refuse_a_data_pack(tmp_path, capsys, command):
    root = data_pack(tmp_path / "atlas")
    assert main([*command, str(root)]) == 2
    cap = capsys.readouterr()
    assert cap.out == ""
    lines = cap.err.strip().splitlines()
    assert lines == [f"engine {command[0]}: error: atlas is a data pack (playable: false): it "
                     "has records, tables and checks but no rules to play yet; see `engine "
                     f"cards {root}`"]


def test_cards_and_eval_work_on_a_data_pack(tmp_path, capsys):
    root = data_pack(tmp_path / "atlas")
    assert main(["cards", str(root), "--type", "space"]) == 0
    out = capsys.readouterr().out
    assert "north" in out and "north_south" not in out


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A content directory with one game and one data pack, as the shipped packs."""
    import engine.dsl.places as L
    content = tmp_path / "content"
    write_pack_files(content / "duel", GAME_RULES, pack_id="duel")
    data_pack(content / "atlas")
    monkeypatch.setattr(L, "content_root", lambda: content)
    return content


def test_pack_lists_mark_data_packs(shipped, capsys):
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    assert "shipped packs to play: duel\n" in out
    assert "data packs (records and checks, no rules to play yet; see `engine cards PACK`): " \
           "atlas" in out
    assert main(["play", "nope"]) == 2
    assert "shipped packs: atlas (data pack), duel" in capsys.readouterr().err
    assert main(["play", "atlas"]) == 2
    assert "see `engine cards atlas`" in capsys.readouterr().err


def test_property_tests_leave_data_packs_out(shipped, monkeypatch):
    import packs_under_test
    monkeypatch.setattr(packs_under_test, "content_root", lambda: shipped)
    names = [p.name for p in packs_under_test.pack_dirs()]
    assert names == ["duel", "testgame", "leakgame", "windowgame", "stackgame"]


def test_is_playable(shipped):
    from engine.dsl.places import is_playable
    assert is_playable(shipped / "duel") and not is_playable(shipped / "atlas")
    assert is_playable(shipped / "missing")  # unreadable: building it reports the problem
    from engine.dsl.places import pack_meta
    assert pack_meta(shipped / "atlas")["playable"] is False
    assert pack_meta(shipped / "missing") == {}
    (shipped / "listed").mkdir()
    (shipped / "listed" / "pack.yaml").write_text("- playable\n- false\n")
    assert pack_meta(shipped / "listed") == {} and is_playable(shipped / "listed")


def test_shipped_packs_split_games_from_data(shipped):
    from engine.dsl.places import shipped_list, shipped_packs
    assert shipped_packs() == (["duel"], ["atlas"])
    assert shipped_list() == "atlas (data pack), duel"


# ---- call_value -------------------------------------------------------------------------------
def test_call_value(atlas):
    assert atlas.call_value("double", 21) == 42
    assert atlas.call_value("road_cost", "north_south") == 3
    assert atlas.call_value("with_bonus", 1) == 11  # vars at their defaults, as checks see them
    assert atlas.call_value("ends", "north_south") == ["north", "south"]


def test_call_value_errors(atlas):
    from engine.core.errors import EngineFault
    with pytest.raises(KeyError, match="no value 'dubble'; did you mean 'double'"):
        atlas.call_value("dubble", 1)
    with pytest.raises(TypeError, match=r"takes 1 argument \(n: int\), got 2"):
        atlas.call_value("double", 1, 2)
    with pytest.raises(TypeError, match="argument 'r' is a road, not 'north'"):
        atlas.call_value("road_cost", "north")
    with pytest.raises(TypeError, match="argument 'n' is an int, not '3'"):
        atlas.call_value("double", "3")
    with pytest.raises(TypeError):
        atlas.call_value("double", True)
    with pytest.raises(TypeError, match=r"argument 's' is a side, not \[1\]"):
        atlas.call_value("side_score", [1])  # a list is no side (and is not hashable)
    with pytest.raises(EngineFault, match=r"value broken\(0\) failed: ZeroDivisionError"):
        atlas.call_value("broken", 0)


def test_engine_eval(tmp_path, capsys):
    root = data_pack(tmp_path / "atlas")
    assert main(["eval", str(root), "road_cost(north_south)"]) == 0
    assert capsys.readouterr().out.strip() == "3"
    assert main(["eval", str(root), "ends(north_south)"]) == 0
    assert json.loads(capsys.readouterr().out) == ["north", "south"]
    assert main(["eval", str(root), "double(-4)"]) == 0
    assert capsys.readouterr().out.strip() == "-8"
    assert main(["eval", str(root), "doubel(2)"]) == 2
    assert "did you mean 'double'?" in capsys.readouterr().err
    assert main(["eval", str(root), "double(1, 2)"]) == 2
    assert "takes 1 argument" in capsys.readouterr().err
    assert main(["eval", str(root), "2 * double(1)"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["eval", str(root), "broken(0)"]) == 1
    assert "ZeroDivisionError" in capsys.readouterr().err


def test_engine_eval_ids_that_are_python_keywords(tmp_path, capsys):
    # record ids are slugs: `global`, `with` or `yield` are fine ids and must be passable
    root = write_pack_files(tmp_path / "kw", """
type space:
    x: int
value sx(s: space): int = s.x
value both(a: space, b: list of space): int = a.x + sum(c.x for c in b)
""", """
space:
  - {id: global, x: 1}
  - {id: with, x: 2}
  - {id: yield, x: 4}
""", pack_id="kw")
    with open(root / "pack.yaml", "a", encoding="utf-8") as fh:
        fh.write("playable: false\n")
    assert main(["eval", str(root), "sx(global)"]) == 0
    assert capsys.readouterr().out.strip() == "1"
    assert main(["eval", str(root), "both(with, [global, yield])"]) == 0
    assert capsys.readouterr().out.strip() == "7"
    assert main(["eval", str(root), "sx(global + 1)"]) == 2
    assert "'global + 1' is not a plain argument" in capsys.readouterr().err
