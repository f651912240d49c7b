"""Rules compiled to C (`engine compile`, engine.dsl.native) and the runtime compiled to C
(`ENGINE_COMPILE=1 pip install .`, hatch_build.py): the same games as the Python they are
compiled from, and faults that name the rule's line. Issue 34 (the execution model): the
compiled build takes Hannibal from about 95 to about 147 random games a second (README,
"Faster: compiled to C"; bench/execution_model.py).

Each game is played in a process of its own (a compiled module loads once a process, and
conftest turns compiled rules off in this one)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from engine.dsl.native import NativeError, compile_native, native_key, source_name

REPO = Path(__file__).resolve().parent.parent
TESTGAME = REPO / "tests" / "packs" / "testgame"

# Plays the pack of argv[1]: 25 games by `apply` (the digest bench/digests.py takes: actions,
# state, log and views) and 25 by `Game.playout` (the bots' and simulate's path, where
# choices are answered inside the rules); prints JSON with how the rules ran.
CHILD = textwrap.dedent("""
    import json, random, sys
    from engine.core.loader import load_pack, runtime_compiled
    sys.path.append(sys.argv[2])  # (after the engine is imported: the one on PYTHONPATH)
    from bench.digests import pack_digest
    pack = load_pack(sys.argv[1])
    played = []
    for seed in range(25):
        game = pack.new_game(seed, log=False, undo=False)
        game.playout(random.Random(seed))
        played.append([game.result.winner, str(game.result.reason), game.rt.s["steps"],
                       len(game.actions)])
    print(json.dumps({"code_file": pack.code_file,
                      "rule_type": type(next(iter(pack.ns["FUNCS"].values()))).__name__,
                      "runtime_compiled": runtime_compiled(),
                      "digest": pack_digest(sys.argv[1], 25)[1], "playouts": played}))
""")


def run_child(pack: Path, env: dict[str, str], pythonpath: str | None = None) -> dict:
    if pythonpath is not None:
        env = {**env, "PYTHONPATH": pythonpath}
    # run elsewhere, so that the engine is the one installed or on `pythonpath`
    done = python(["-c", CHILD, str(pack), str(REPO)], env, cwd=pack.parent)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def engine_compile(pack: Path, env: dict[str, str], **kw: Any
                   ) -> subprocess.CompletedProcess[str]:
    return python(["-m", "engine", "compile", str(pack)], env, **kw)


def python(args: list[str], env: dict[str, str], **kw: Any) -> subprocess.CompletedProcess[str]:
    """This Python run with `args` in a process of its own, with `env` added to the
    environment, its output captured as text."""
    return subprocess.run([sys.executable, *args], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=900, **kw)


def test_rules_compiled_to_c_play_the_same_games(tmp_path: Path) -> None:
    """The test pack (every rule the language has, tests/test_engine.py's coverage test)
    compiled: `engine compile` says where it put it, a new process loads it instead of the
    Python text and plays the same games, by `apply` and by playouts; ENGINE_NATIVE=off
    runs the Python again."""
    env = {"ENGINE_DSL_CACHE": str(tmp_path / "cache"), "ENGINE_NATIVE": "on"}
    done = engine_compile(TESTGAME, env)
    assert done.returncode == 0, done.stderr
    assert "testgame: compiled in" in done.stdout and "/native/engine_rules_" in done.stdout
    assert "the runtime runs as Python" in done.stdout  # (this test's install is plain)
    again = engine_compile(TESTGAME, env)
    assert "testgame: compiled already, at" in again.stdout and again.returncode == 0

    compiled = run_child(TESTGAME, env)
    plain = run_child(TESTGAME, {**env, "ENGINE_NATIVE": "off"})
    assert compiled["code_file"].startswith("engine_rules_")
    assert compiled["rule_type"] == "cython_function_or_method"
    assert plain["code_file"].startswith("<pack ") and plain["rule_type"] == "function"
    assert compiled["digest"] == plain["digest"]
    assert compiled["playouts"] == plain["playouts"]
    assert len({tuple(p) for p in plain["playouts"]}) > 5  # (games that differ)
    # simulate says what ran compiled, in its summary and its JSON
    for native, said in (("on", ["rules"]), ("off", [])):
        done = python(["-m", "engine", "simulate", str(TESTGAME), "--games", "4", "--bots",
                       "random,random", "--json"], {**env, "ENGINE_NATIVE": native})
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["compiled"] == said
    done = python(["-m", "engine", "simulate", str(TESTGAME), "--games", "4", "--bots",
                   "random,random", "--no-progress"], env)
    assert "worker (rules compiled to C)" in done.stdout, done.stdout


# Saves a game of the pack of argv[1] after 12 random answers (argv[2] == "save"), or loads
# that save from stdin and plays it to the end (argv[2] == "load"): the rest of the game.
SAVE_LOAD = textwrap.dedent("""
    import json, random, sys
    from engine.core.game import Game
    from engine.core.loader import load_pack
    pack = load_pack(sys.argv[1])
    rnd = random.Random(7)
    if sys.argv[2] == "save":
        game = pack.new_game(7)
        for _ in range(12):
            game.apply(game.random_action(rnd))
        print(game.save())
    else:
        game = Game.load(pack, sys.stdin.read())
        while not game.over:
            game.apply(game.random_action(rnd))
        print(json.dumps([pack.code_file[:13], game.actions, game.result.winner,
                          game.view(pack.sides[0])["log"][-5:]]))
""")


def test_a_save_from_compiled_rules_loads_and_goes_on_in_the_python(tmp_path: Path) -> None:
    """A game saved by a process running the compiled rules is loaded by one running the
    Python text, and the other way round, and each goes on exactly as in the process that
    saved it: the state is the same plain data, the code (its `code` hash) the same."""
    env = {"ENGINE_DSL_CACHE": str(tmp_path / "cache")}
    assert engine_compile(TESTGAME, env).returncode == 0

    def run(native: str, part: str, given: str = "") -> str:
        done = python(["-c", SAVE_LOAD, str(TESTGAME), part], {**env, "ENGINE_NATIVE": native},
                      input=given)
        assert done.returncode == 0, done.stderr
        return done.stdout

    saved = {native: run(native, "save") for native in ("on", "off")}
    assert saved["on"] == saved["off"]
    ends = {(a, b): json.loads(run(b, "load", saved[a])) for a in ("on", "off")
            for b in ("on", "off")}
    assert ends[("off", "on")][0] == "engine_rules_" and ends[("on", "off")][0] == "<pack testgam"
    assert len({json.dumps(end[1:]) for end in ends.values()}) == 1
    assert ends[("on", "on")][1]  # (a game played on after loading)


def test_a_fault_in_compiled_rules_names_its_line(tmp_path: Path, write_pack) -> None:
    """A runaway loop in compiled rules stops at its line, as in the Python (the step
    budget is charged inline: engine.core.runtime.budget), and the fault names the rules
    file and line (engine.core.runtime.faults maps the compiled module's traceback)."""
    root = write_pack("""
        var active: side = red
        var n: int = 0
        on setup:
            while true:
                n += 1
    """)
    env = {"ENGINE_DSL_CACHE": str(tmp_path / "cache"), "ENGINE_NATIVE": "on"}
    assert engine_compile(root, env).returncode == 0
    script = textwrap.dedent("""
        import sys
        from engine.core.errors import EngineFault
        from engine.core.loader import load_pack
        pack = load_pack(sys.argv[1])
        try:
            pack.new_game(3)
        except EngineFault as err:
            print(pack.code_file)
            print(err)
    """)
    out = {}
    for native in ("on", "off"):
        done = python(["-c", script, str(root)], {**env, "ENGINE_NATIVE": native})
        assert done.returncode == 0, done.stderr
        out[native] = done.stdout
    assert out["on"].startswith("engine_rules_") and out["off"].startswith("<pack ")
    for text in out.values():
        assert f"{root / 'rules.rules'}:4: more than 1,000,000 rule steps" in text


def test_compiled_rules_are_found_by_their_code_not_the_packs_name() -> None:
    """A module's name is a hash of the generated code (never a pack's id or file name,
    which could be anything), so two packs with the same rules share one and an edit that
    changes the code finds none."""
    name = native_key("x = 1\n")
    assert name.startswith("engine_rules_") and name[len("engine_rules_"):].isalnum()
    assert native_key("x = 1\n") == name != native_key("x = 2\n")
    assert source_name(name) == name + ".py"


def test_the_cache_keeps_the_compiled_modules_used_last(tmp_path: Path) -> None:
    """Each edit of a pack's rules compiles another module (megabytes for a big pack):
    `prune` keeps those used last, and removes what a compile that died left behind."""
    import time

    from engine.dsl.native import PREFIX, prune
    for i in range(5):
        module = tmp_path / f"{PREFIX}{i:024x}.so"
        module.write_bytes(b"")
        os.utime(module, (1_000_000 + i, 1_000_000 + i))
    left = tmp_path / ".native-abc"
    left.write_bytes(b"")
    os.utime(left, (time.time() - 7200,) * 2)
    fresh = tmp_path / ".native-def"  # (a compile writing now)
    fresh.write_bytes(b"")
    prune(tmp_path, keep=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".native-def", f"{PREFIX}{3:024x}.so", f"{PREFIX}{4:024x}.so"]


def test_compiling_says_why_it_cannot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGINE_DSL_CACHE", "off")
    with pytest.raises(NativeError, match="the build cache is off"):
        compile_native("x = 1\n")


def test_the_compiled_runtime_wheel(tmp_path: Path) -> None:
    """`ENGINE_COMPILE=1 pip install .` builds a wheel with the runtime compiled to C
    (hatch_build.py): installed, its runtime modules are extension modules, and it plays
    the same games as the Python, with the rules compiled too (both, the fastest build)."""
    wheels = tmp_path / "wheels"
    done = python(["-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(REPO)],
                  {"ENGINE_COMPILE": "1"})
    assert done.returncode == 0, done.stderr
    (wheel,) = wheels.glob("engine_dsl-*.whl")
    assert "py3-none-any" not in wheel.name  # for this Python and platform
    target = tmp_path / "site"
    done = python(["-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                   str(wheel)], {})
    assert done.returncode == 0, done.stderr
    assert list((target / "engine" / "core" / "runtime").glob("loop.*.so")) or \
        list((target / "engine" / "core" / "runtime").glob("loop.*.pyd"))
    env = {"ENGINE_DSL_CACHE": str(tmp_path / "cache"), "ENGINE_NATIVE": "on"}
    pack = REPO / "bench" / "packs" / "tictactoe"
    # Python's semantics, not Cython's reading of annotations: `apply_index(index: int)`
    # refuses 1.0 and True as the Python does (Cython would take 1.0 for 1)
    refused = textwrap.dedent("""
        import sys
        from engine.core.errors import IllegalAction
        from engine.core.loader import load_pack, runtime_compiled
        game = load_pack(sys.argv[1]).new_game(1)
        for bad in (1.0, True, "0", -1):
            try:
                game.apply_index(bad)
            except IllegalAction:
                continue
            raise SystemExit(f"apply_index({bad!r}) was not refused")
        print(runtime_compiled())
    """)
    done = python(["-c", refused, str(pack)], {**env, "PYTHONPATH": str(target)},
                  cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stdout + done.stderr
    compiled = run_child(pack, {**env, "ENGINE_NATIVE": "off"}, pythonpath=str(target))
    plain = run_child(pack, {**env, "ENGINE_NATIVE": "off"})
    assert compiled["runtime_compiled"] and not plain["runtime_compiled"]
    assert compiled["digest"] == plain["digest"]
    assert compiled["playouts"] == plain["playouts"]
    done = engine_compile(pack, {**env, "PYTHONPATH": str(target)}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "the runtime is compiled to C too" in done.stdout
    both = run_child(pack, env, pythonpath=str(target))
    assert both["code_file"].startswith("engine_rules_") and both["runtime_compiled"]
    assert both["digest"] == plain["digest"] and both["playouts"] == plain["playouts"]
