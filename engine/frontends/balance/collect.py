"""Playing the games of a balance run and keeping each as a JSON line, resumably.

A run is a list of `Job`s: a pack (the one reported on, or the one compared with it) and a
bot pairing, each over the same seeds S..S+N-1 (game i with seed S+i, as `engine simulate`
plays it: `engine play PACK --seed S+i --bots SPEC` shows it again). Each finished game is
written at once as one line of OUT/games.jsonl, keyed by (pack hash, bots, seed); a run in
the same folder plays only the keys not there yet, so a run stopped half-way, or asked for
more games, goes on where it was (and a pack that changed is played anew: its hash is
another).
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs

from engine.frontends.balance.records import (
    GameRecord,
    TurnValues,
    card_plays,
    end_reason,
    first_player,
    read_lines,
)

GAMES_FILE = "games.jsonl"


@attrs.frozen
class Job:
    """The games of one pack with one pairing: `role` says which pack ("pack" or
    "compare"), `specs` the seat of each side."""

    role: str
    pack: Any
    pack_path: str
    specs: list[str]
    seeds: list[int]

    @property
    def bots(self) -> str:
        return ",".join(self.specs)


# the pack's balance spec, worked out once per loaded pack (a worker plays many games)
_SPECS: dict[int, tuple[Any, Any]] = {}


def spec_of(pack: Any) -> Any:
    from engine.dsl.balancespec import balance_spec
    got = _SPECS.get(id(pack))
    if got is None or got[0] is not pack:
        got = _SPECS[id(pack)] = (pack, balance_spec(pack.model, pack.meta))
    return got[1]


class Sampler:
    """Reads the tracked vars and values whenever the turn var shows a new turn (called
    after each decision, and once before the first) and at the end."""

    def __init__(self, spec: Any, sides: list[str]):
        self.spec = spec
        self.sides = sides
        self.turn: Any = None
        self.rows: list[TurnValues] = []

    def values(self, game: Any) -> dict[str, float]:
        out: dict[str, float] = {}
        for item in self.spec.track:
            read = game.var if item.kind == "var" else game.value
            for side in self.sides if item.per_side else [None]:
                got = read(item.name, side) if side is not None else read(item.name)
                out[item.name if side is None else f"{item.name}|{side}"] = float(got)
        return out

    def __call__(self, game: Any) -> None:
        if game.over or self.spec.turn is None:
            return
        turn = game.var(self.spec.turn)
        if turn != self.turn:
            self.turn = turn
            self.rows.append(TurnValues(int(turn), self.values(game)))

    def end(self, game: Any) -> None:
        self.rows.append(TurnValues(None, self.values(game)))


def play_record(pack: Any, seed: int, specs: list[str], max_decisions: int,
                invariants: bool) -> dict[str, Any]:
    """One game with its log, and what a balance run keeps of it (GameRecord, as JSON):
    the simulate pool's play function (engine.frontends.simulate.workers)."""
    from engine.frontends.simulate import count_turns, make_seats, play_out
    spec = spec_of(pack)
    bots = ",".join(specs)
    game = None
    sampler = Sampler(spec, list(pack.sides))
    try:
        game = pack.new_game(seed, log=True, undo=False)
        seats = make_seats(pack, specs, seed)
        track = bool(spec.track)
        if track:
            sampler(game)
        finished = play_out(game, seats, max_decisions, invariants,
                            on_decision=sampler if track else None)
        if track:
            sampler.end(game)
    except Exception as err:  # a failed game is counted, with what went wrong
        decisions = len(game.actions) if game is not None else 0
        return GameRecord(pack.hash, bots, seed, "error", decisions=decisions,
                          reason="error", error=f"{type(err).__name__}: {err}").to_json()
    status = "over" if finished else "unfinished"
    result = game.result
    log = game.log
    plays = []
    if spec.cards is not None:
        cards = set(pack.model.by_type.get(spec.cards.type, []))
        plays = card_plays(log, spec.cards, cards, set(pack.sides), spec.turn)
    decisions = len(game.actions)
    turns = (sum(1 for e in log if e.get("t") == "set" and e.get("n") == spec.turn)
             if spec.turn is not None else count_turns(pack, log, decisions))
    reason, reason_args = end_reason(log, status, result.reason if result else None)
    return GameRecord(
        pack.hash, bots, seed, status, winner=result.winner if result else None,
        reason=reason, reason_args=reason_args,
        decisions=decisions, turns=turns,
        first=first_player(log, spec.first_player, spec.first_side_arg), plays=plays,
        track=sampler.rows).to_json()


def done_records(out_dir: Path) -> list[GameRecord]:
    path = out_dir / GAMES_FILE
    return read_lines(path.read_text(encoding="utf-8")) if path.exists() else []


def run_jobs(jobs: list[Job], out_dir: Path, workers: int = 1,
             progress: Callable[[Job, int], Any] | None = None,
             max_decisions: int = 100_000, backend: str = "local",
             address: str | None = None) -> dict[tuple[str, str], list[GameRecord]]:
    """Play what the jobs lack of their games (the keys not in OUT/games.jsonl yet), each
    written there as it finishes; every job's records, in the order of its seeds, by
    (role, bots). `progress(job, games to play)` may give a callable each result is handed
    to (a progress bar, closed with `close()` when the job is done), or None. `backend`
    "ray" plays them on `workers` Ray actors (at `address`, else a local instance), as
    `engine simulate --backend ray` does."""
    from engine.frontends.simulate.workers import play_parallel
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / GAMES_FILE
    known = {r.key: r for r in done_records(out_dir)}
    _end_line(path)
    out: dict[tuple[str, str], list[GameRecord]] = {}
    with path.open("a", encoding="utf-8") as fh:
        for job in jobs:
            todo = [s for s in job.seeds if (job.pack.hash, job.bots, s) not in known]
            bar = progress(job, len(todo)) if progress is not None and todo else None

            def keep(result: dict[str, Any], bar: Any = bar) -> None:
                fh.write(json.dumps(result, ensure_ascii=False) + "\n")
                fh.flush()  # a run stopped now keeps this game
                record = GameRecord.from_json(result)
                known[record.key] = record
                if bar is not None:
                    bar(result)

            try:
                if backend == "ray" and todo:
                    from engine.frontends.simulate.ray_backend import play_ray
                    play_ray(job.pack, job.pack_path, todo, job.specs, max_decisions, False,
                             workers, keep, address, play=play_record)
                elif workers == 1 or len(todo) <= 1:
                    for seed in todo:
                        keep(play_record(job.pack, seed, job.specs, max_decisions, False))
                else:
                    play_parallel(job.pack, job.pack_path, todo, job.specs, max_decisions,
                                  False, workers, keep, play=play_record)
            finally:
                if bar is not None:
                    bar.close()
            out[(job.role, job.bots)] = [known[(job.pack.hash, job.bots, s)]
                                         for s in job.seeds]
    return out


def _end_line(path: Path) -> None:
    """End the file with a line break, so that what is added starts a line of its own (a
    run stopped while writing leaves a line cut short)."""
    if path.exists() and path.stat().st_size:
        with path.open("rb+") as fh:
            fh.seek(-1, 2)
            if fh.read(1) != b"\n":
                fh.write(b"\n")
