"""Digests of random games, to show a change of the code left the games alone.
Run: python bench/digests.py [--games N] [--write FILE | --check FILE] [PACK ...]

For each playable pack (shipped, test and bench packs, or those named), games 0..N-1 are
played answer by answer (`apply`, log and undo on: the defaults a front-end gets), game i
from `random.Random(i)`. One sha256 per pack covers, for every game, the actions, the final
state, the log and every side's view at the end, each written by the standard library's
json (sorted keys), so the digest does not depend on the engine's own save writer. `--write`
keeps the digests; `--check` compares with kept ones and exits 1 on any difference, naming
the pack. Prints figures, asserts nothing else.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _text(x: Any) -> bytes:
    return json.dumps(x, sort_keys=True, separators=(",", ":"), default=repr).encode()


def pack_digest(path: str, games: int) -> tuple[str, str, int]:
    """(pack name, sha256 of its `games` games, decisions made)."""
    from engine.core.loader import load_pack
    pack = load_pack(path)
    sha = hashlib.sha256()
    decisions = 0
    for seed in range(games):
        game = pack.new_game(seed=seed)
        rnd = random.Random(seed)
        while not game.over:
            game.apply(game.random_action(rnd))
        decisions += len(game.actions)
        data = game.to_data()
        sha.update(_text([data["actions"], data["state"], data["digest"], game.log]))
        for side in pack.sides:
            sha.update(_text(game.view(side)))
    return Path(path).name, sha.hexdigest(), decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("packs", nargs="*")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--write", type=Path)
    parser.add_argument("--check", type=Path)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    from engine.dsl.places import content_root, find_packs, is_playable, resolve_pack
    if args.packs:
        paths = [resolve_pack(n) for n in args.packs]
    else:
        paths = (find_packs(content_root()) + find_packs(ROOT / "tests" / "packs")
                 + find_packs(ROOT / "bench" / "packs"))
    paths = [p for p in paths if is_playable(p)]
    with ProcessPoolExecutor(args.workers) as pool:
        got = list(pool.map(pack_digest, [str(p) for p in paths], [args.games] * len(paths)))
    digests = {name: digest for name, digest, _ in got}
    for name, digest, decisions in got:
        print(f"{name:16} {args.games} games {decisions:8} decisions  {digest[:16]}")
    if args.write:
        args.write.write_text(json.dumps({"games": args.games, "digests": digests}, indent=1,
                                         sort_keys=True) + "\n")
    if args.check:
        kept = json.loads(args.check.read_text())
        if kept["games"] != args.games:
            print(f"kept digests are of {kept['games']} games, not {args.games}")
            return 1
        differ = [n for n in kept["digests"] if digests.get(n) != kept["digests"][n]]
        print("same digests" if not differ else f"different: {', '.join(differ)}")
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
