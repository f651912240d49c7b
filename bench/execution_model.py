"""What the execution model costs, for issue 34: prints figures, asserts nothing.

Two measurements of where a small game's time goes, each against the engine as it is:

`lowering`: tic-tac-toe's setup rule as the compiler writes it (a state machine: `while
True: if pc == ...` over numbered blocks, its locals in the frame's `L` dict) against the
same rule written by hand as the approved design would generate it (structured code, one
entry per resume point, its locals Python locals, saved to the frame only where it waits).
Only that function differs; the games are the same (checked).

`cython`: the runtime and each pack's generated rules compiled to C by Cython, as they
are (no type declarations added), against plain Python, built as a user builds them: the
runtime by `ENGINE_COMPILE=1 pip wheel` (hatch_build.py: the modules pyproject.toml lists),
the rules by `engine compile` (engine.dsl.native), into a scratch folder and cache. Four
configurations, each in its own process, after a check that every one plays the same games.
Needs `pip install -e '.[compile]'` and a C compiler; compiling Hannibal's rules takes a few
minutes.

Run: python bench/execution_model.py [--part lowering|cython|both] [--packs P,...]
     [--seconds S]
(packs by name or path; the default: the bench packs tic-tac-toe, Kuhn and ap_battle)

Measured at 3867f4c (one core, the other idle; games/s by Game.playout, log and undo off;
every configuration played the same games; timed then in batches, now by bench/run.py's
games_per_second, which reads the clock every game: Kuhn's come out a few % lower):
  lowering, tic-tac-toe: state machine 48,627, structured by hand 49,714 (1.02x)
  cython (compiled in 361 s)  python  runtime C  rules C   both C   issue 34's target
    tictactoe                 44,707   47,991    53,844    57,930   94,500 (0.6x pyspiel C++)
    kuhn                     127,396  131,616   122,722   136,769  167,400 (1.0x pyspiel C++)
    ap_battle                  8,889   12,363    10,126    13,151   25,500 (0.5x hand-written)
    hannibal                      92      112       121       153      150
Since then the compiled build is a feature (`engine compile`, ENGINE_COMPILE=1; README,
"Faster: compiled to C", for today's figures: Hannibal 140-157 with both compiled, rules at
-O3, on a machine where the Python gives 94-103).
So the state machine is not where a small game's time goes (2%), and Python's
interpretation of the rules (0-32%) and of the runtime (3-39%) only part of it: the rest is
the work itself in the engine's protocol per decision and per change (the state's dicts,
the frames, the event queue), which the same code in C does not remove. Compiled, Hannibal
reaches its target; the small games do not (tic-tac-toe's would be faster than the
hand-written Python reference, 84,000).
Where a small game's fixed cost goes, at d14fb32 (rules and runtime as Python), in
instructions by callgrind (bench/instructions.py --hand and --new-only, 2000 games after
1000; the parts by the same method on a loop of each call alone):
  kuhn: 116,826 a game, of which the new game 63,920 (55%); the hand-written whole game
    35,297 (0.30x). The new game: its kept start found 34,431 (the two draws of the seeded
    dice that lead to it 14,223, SplitMix64 on Python's big ints; the start's copy built
    from its literal 17,956), the Game and its Runtime 22,838 (Runtime.attach 8,763, the
    bare Runtime object 2,728, the UndoRun 2,250).
  tictactoe: 327,428 a game, the new game 51,933 (16%); hand-written 161,285 (0.49x).
  Timed the same day, a quiet machine (bench/run.py --compare): tic-tac-toe 0.43x
  hand-written and 0.22x pyspiel's C++, Kuhn 0.24x and 0.49x, ap_battle 0.18x; Hannibal 46
  random games/s (this machine runs the hand-written games at about half the speed of the
  figures above).
So a Kuhn game without its new game would run at about 0.67x the hand-written by
instructions: the fixed cost is Kuhn's gap, and it is not one slow call but about 800
bytecodes of objects made and a nested state of dicts copied. Reusing the Game and Runtime
objects between games (a reset instead of a new game) would save about 12,000 of the
116,826. A state held as flat lists indexed by numbers the compiler assigns (copied by one
list copy, read and written by index in the rules) removes the start's copy and most of the
attach, and would speed every rule step too; it changes the save format and the generated
code throughout, so it is a design of its own, not a tuning of this one.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_PACKS = ("bench/packs/tictactoe", "bench/packs/kuhn", "bench/packs/ap_battle")
# tic-tac-toe's setup rule (bench/packs/tictactoe/rules.rules) lowered by hand as the
# approved design would: what the compiler writes for it, block by block, restructured
STRUCTURED_TICTACTOE = '''
def t0_on_setup(G, F):
    PV = G.pv
    L = F['L']
    pc = F['pc']
    if pc == 0:
        it1 = list(range(G.count(9)))
        ix2 = 0
    elif pc == 3:
        it1, ix2 = L['_it1'], L['_ix2']
    else:
        G.fault(f'no resume point {pc!r} in this rule')
    while True:
        if pc == 3:
            l_c = F.pop('in')
            G.set('mark', l_c, PV['active'][''])
            if p_won(G, PV['active']['']):
                G.win(PV['active'][''])
            G.set('active', '', G.other[PV['active']['']])
        if ix2 >= len(it1):
            L.pop('_it1', None)
            L.pop('_ix2', None)
            G.win(None)
            return 0
        ix2 += 1
        _t1 = []
        _t2 = PV['mark']
        for l_c in G.all('cell'):
            if _t2[l_c] is None:
                _t1.append(l_c)
        if not G.pick1(F, PV['active'][''], _t1, False, None):
            F['pc'] = 3
            L['_it1'], L['_ix2'] = it1, ix2
            return 1
        pc = 3
'''


def games(pack: Any, seeds: range) -> list[Any]:
    """Each game of `seeds` played out at random: its result and its state's counters."""
    out = []
    for seed in seeds:
        game = pack.new_game(seed, log=False, undo=False)
        game.playout(random.Random(seed))
        s = game.rt.s
        out.append((game.result.winner, game.result.reason, s["decisions"], s["steps"],
                    s["rng"]))
    return out


def rate(pack: Any, seconds: float) -> float:
    """Random games a second of process time, the best of three runs of `seconds` / 3 by
    bench/run.py's `games_per_second` (game i with seed i, by Game.playout, log and undo
    off), which loads the pack again by its folder: the very pack given (load_pack keeps
    one a folder), its functions as this module set them."""
    from bench.run import games_per_second
    from engine.core.loader import load_pack
    assert load_pack(pack.root) is pack, "a pack of its own (instantiate) is not timed"
    return max(games_per_second(pack.root, seconds / 3)[0] for _ in range(3))


def lowering(seconds: float) -> None:
    from engine.core.loader import load_pack
    pack = load_pack(ROOT / "bench" / "packs" / "tictactoe")
    ns = pack.ns
    machine = ns["FUNCS"]["t0_on_setup"]
    scratch: dict[str, Any] = {}
    exec(compile(STRUCTURED_TICTACTOE, "<structured>", "exec"), ns, scratch)
    structured = scratch["t0_on_setup"]
    # the rule is reached through FUNCS by its name (the run loop reads it from there)
    same = []
    for fn in (machine, structured):
        ns["FUNCS"]["t0_on_setup"] = fn
        same.append(games(pack, range(200)))
    print(f"lowering, tictactoe: the same 200 games: {same[0] == same[1]}")
    rates: dict[str, list[float]] = {"state machine": [], "structured": []}
    for _ in range(3):  # alternating, so a change of the machine's load falls on both
        for label, fn in (("state machine", machine), ("structured", structured)):
            ns["FUNCS"]["t0_on_setup"] = fn
            rates[label].append(rate(pack, seconds / 6))
    ns["FUNCS"]["t0_on_setup"] = machine
    a, b = max(rates["state machine"]), max(rates["structured"])
    print(f"  state machine {a:,.0f} games/s, structured by hand {b:,.0f} ({b / a:.2f}x)")


# run in a configuration's process: the engine on its PYTHONPATH (the installed wheel's
# compiled runtime, or this checkout's Python), compiled rules by its ENGINE_NATIVE
CHILD = textwrap.dedent('''
    import json, sys
    from engine.core.loader import load_pack, runtime_compiled
    pack = load_pack(sys.argv[2])
    sys.path.append(sys.argv[1])  # (after the engine is imported: bench's own path insert)
    import bench.execution_model as em
    print(json.dumps({"games": repr(em.games(pack, range(100))),
                      "rate": em.rate(pack, float(sys.argv[3])),
                      "runtime": runtime_compiled(),
                      "rules": not pack.code_file.startswith("<pack ")}))
''')


def cython(packs: list[str], seconds: float) -> None:
    """The four configurations, built as a user builds them: the runtime by
    `ENGINE_COMPILE=1 pip wheel` (hatch_build.py), each pack's rules by `engine compile`
    (engine.dsl.native), into a scratch folder and a scratch cache."""
    import importlib.util
    if importlib.util.find_spec("Cython") is None:
        print("cython: not installed (pip install -e '.[compile]'); skipped")
        return
    from engine.dsl.places import resolve_pack
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        env = {**os.environ, "ENGINE_DSL_CACHE": str(scratch / "cache")}
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                        str(scratch / "wheel"), str(ROOT)],
                       env={**env, "ENGINE_COMPILE": "1"}, check=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                        str(scratch / "site"), *map(str, (scratch / "wheel").glob("*.whl"))],
                       check=True)
        print(f"cython: the runtime compiled in {time.perf_counter() - start:.0f} s")
        roots = {}
        for ref in packs:
            roots[ref] = root = resolve_pack(str(ROOT / ref) if (ROOT / ref).is_dir() else ref)
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "engine", "compile", str(root)], env=env,
                           check=True, stdout=subprocess.DEVNULL)
            print(f"cython: {Path(ref).name}'s rules compiled in "
                  f"{time.perf_counter() - start:.0f} s")
        print(f"{'games/s':18s} {'python':>10s} {'runtime C':>10s} {'rules C':>10s} "
              f"{'both C':>10s}")
        configurations = ((str(ROOT), "off"), (str(scratch / "site"), "off"),
                          (str(ROOT), "on"), (str(scratch / "site"), "on"))
        for ref, root in roots.items():
            row, played = [], []
            for engine, native in configurations:
                got = subprocess.run(
                    [sys.executable, "-c", CHILD, str(ROOT), str(root), str(seconds)],
                    env={**env, "PYTHONPATH": engine, "ENGINE_NATIVE": native}, cwd=scratch,
                    check=True, capture_output=True, text=True).stdout
                data = json.loads(got.strip().splitlines()[-1])
                assert (data["runtime"], data["rules"]) == (engine != str(ROOT), native == "on")
                row.append(data["rate"])
                played.append(data["games"])
            same = "" if len(set(played)) == 1 else "  (not the same games: no figure)"
            print(f"{Path(ref).name:18s} " + " ".join(f"{r:10,.0f}" for r in row) + same)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("lowering", "cython", "both"), default="both")
    parser.add_argument("--packs", default=",".join(DEFAULT_PACKS))
    parser.add_argument("--seconds", type=float, default=6.0,
                        help="play time per figure")
    args = parser.parse_args(argv)
    if args.part in ("lowering", "both"):
        lowering(args.seconds)
    if args.part in ("cython", "both"):
        cython(args.packs.split(","), args.seconds)


if __name__ == "__main__":
    main()
