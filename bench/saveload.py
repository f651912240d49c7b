"""A mid-game Hannibal's save and load, in CPU milliseconds (time.process_time: other
helpers share the machine, and CPU time is what they take from it least). Prints figures,
asserts nothing. Run: python bench/saveload.py [--rounds N]

The game is `run.mid_game("hannibal")` (150 random decisions, log and undo on), the one
`run.py --compare` measures. Each figure is the best of several rounds of repeated calls:
`Game.save`, `Game.load(..., verify="digest")` (storage the host trusts: schema, pack
checks, digest) and `Game.load` (verify="replay", the default: every action replayed),
and the parts of a digest load (engine.core.saves) one by one.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from run import cpu_ms, mid_game

    from engine.core import saves
    from engine.core.game import Game
    game = mid_game("hannibal")
    pack, text = game.pack, game.save()
    file, _data = saves.read_as_written(text)
    print(f"hannibal mid-game: {len(game.actions)} actions, {len(game.rt.s['log'])} log "
          f"entries, a save of {len(text) / 1000:.0f} kB; CPU ms, best of {args.rounds}")
    figures = [
        ("save", lambda: game.save(), 300),
        ("load, verify='digest'", lambda: Game.load(pack, text, verify="digest"), 100),
        ("load, verify='replay'", lambda: Game.load(pack, text), 10),
        ("  digest load: read into the schema", lambda: saves.read_as_written(text), 100),
        ("  digest load: the pack checks", lambda: saves.check_against_pack(pack, file), 100),
        ("  digest load: the digest", lambda: saves.digest_holds(pack, text), 100),
    ]
    for label, fn, calls in figures:
        print(f"{label:<34} {cpu_ms(fn, calls, args.rounds):8.3f} ms", flush=True)


if __name__ == "__main__":
    main()
