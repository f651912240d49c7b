"""Where a pack's random games spend their time, counted in Python bytecodes: per function
(a rule by its name and place in the pack, an engine function by module) and per line of the
pack's rules. The counts are exact and the same on every run, like bench/instructions.py's,
but they name the Python code, which callgrind cannot do for Python 3.11. A bytecode is not a
fixed cost (a dict copy is one), so compare versions with bench/instructions.py; use this to
find what to look at. Prints figures, asserts nothing.

Run: python bench/bytecodes.py PACK [--games N] [--warm W] [--top K] [--defaults] [--apply]
(the games of bench/run.py: game i with seed i, one random.Random(0), log and undo off
unless --defaults, played by Game.playout as `engine simulate` plays them, or with --apply
by `apply` of each `random_action`; the first W are played untraced). Tracing makes play
about 20x slower: Hannibal takes about 3 s a game.
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import sys
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from run import pack_ref, play_game  # noqa: E402  (bench/run.py, beside this file)

from engine.core.loader import load_pack  # noqa: E402
from engine.core.runtime import describe_rule, rule_site  # noqa: E402


def play(pack: Any, first: int, games: int, defaults: bool, rnd: random.Random,
         apply: bool = False) -> int:
    """Play games first..first+games-1 as bench/run.py does (by `Game.playout`, or by
    `apply` of each `random_action` as front-ends answer); the decisions taken."""
    return sum(len(play_game(pack, seed, rnd, defaults, apply).actions)
               for seed in range(first, first + games))


def counted(pack: Any, first: int, games: int, defaults: bool, rnd: random.Random,
            apply: bool = False) -> tuple[collections.Counter, collections.Counter, int]:
    """Bytecodes run by (file, function) and by (file, function, line), and the decisions."""
    funcs: collections.Counter = collections.Counter()
    lines: collections.Counter = collections.Counter()

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            code = frame.f_code
            funcs[code.co_filename, code.co_name] += 1
            lines[code.co_filename, code.co_name, frame.f_lineno] += 1
        return trace

    sys.settrace(trace)
    try:
        decisions = play(pack, first, games, defaults, rnd, apply)
    finally:
        sys.settrace(None)
    return funcs, lines, decisions


def rule_line(pack: Any, filename: str, fname: str, lineno: int | None) -> str | None:
    """'file:line' of the rule a generated line belongs to (engine.core.runtime.rule_site), or
    None for code that is not the pack's."""
    if not filename.startswith("<pack ") or fname not in pack.ns["SITES"]:
        return None
    rules_file, line = rule_site(pack, filename, fname, lineno or 0)
    return f"{rules_file}:{line}"


def label(pack: Any, filename: str, fname: str) -> str:
    if filename.startswith("<pack ") and fname in pack.ns["SITES"]:
        return describe_rule(fname, pack).replace(str(pack.root) + os.sep, "")
    return f"{Path(filename).name}: {fname}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("pack", help="a pack's name or path (bench packs by name too)")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--warm", type=int, default=100, help="games played first, untraced")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--defaults", action="store_true", help="log and undo on")
    ap.add_argument("--apply", action="store_true",
                    help="play by apply(random_action(...)) rather than Game.playout")
    args = ap.parse_args()
    pack = load_pack(pack_ref(args.pack))
    rnd = random.Random(0)
    play(pack, 0, args.warm, args.defaults, rnd, args.apply)
    funcs, lines, decisions = counted(pack, args.warm, args.games, args.defaults, rnd,
                                      args.apply)
    total = sum(funcs.values())
    n = args.games
    print(f"{args.pack}: {total / n:,.0f} bytecodes a game, {decisions / n:.1f} decisions a game "
          f"({n} games after {args.warm})")
    print(f"\n{'a game':>10} {'share':>6}  function")
    for (filename, fname), count in funcs.most_common(args.top):
        print(f"{count / n:>10,.0f} {count / total:>6.1%}  {label(pack, filename, fname)}")
    by_rule: collections.Counter = collections.Counter()
    for (filename, fname, lineno), count in lines.items():
        where = rule_line(pack, filename, fname, lineno)
        if where is not None:
            by_rule[where] += count
    print(f"\n{'a game':>10} {'share':>6}  line of the pack's rules")
    for where, count in by_rule.most_common(args.top):
        print(f"{count / n:>10,.0f} {count / total:>6.1%}  {where}")


if __name__ == "__main__":
    main()
