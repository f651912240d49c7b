"""Playing one game out with its seats (bots or people): the seats of a `--bots` list, the
play until the game ends or stops, its turns, and a bot game's summary or the record that
replays its failure."""
from __future__ import annotations

from typing import Any

DEFAULT_MAX_DECISIONS = 100_000


def make_seats(pack: Any, specs: list[str], seed: int, **human_options: Any) -> dict[str, Any]:
    """side -> seat for a game with `seed`."""
    from engine.frontends.bots import bot_seed
    from engine.frontends.seats import make_seat
    seats = {}
    for i, (side, spec) in enumerate(zip(pack.sides, specs)):
        opts = human_options if spec == "human" else {}
        seats[side] = make_seat(spec, bot_seed(seed, i), **opts)
    return seats


def play_out(game: Any, seats: dict[str, Any], max_decisions: int = DEFAULT_MAX_DECISIONS,
             invariants: bool = False, on_decision: Any = None) -> bool:
    """Let the seats answer decisions until the game ends (True) or `max_decisions`
    actions have been taken (False). Raises EngineFault, and AssertionError for a failed
    invariant when `invariants` is set."""
    from engine.frontends.bots import UNDONE, RandomBot
    if not invariants and on_decision is None \
            and all(type(seat) is RandomBot for seat in seats.values()):
        # the same game, each side drawing from its bot's generator, without the checks an
        # answer from outside needs (most simulations: random bots only)
        return bool(game.playout({side: seat.rnd for side, seat in seats.items()},
                                 max_decisions))
    while not game.over and len(game.actions) < max_decisions:
        side = game.decider
        seat = seats[side]
        # a bot's answer by index when it gives one: no Decision made, no answer checked;
        # addressed all the same (side and decision id), as every answer a seat gives is,
        # so a bot of one's own that changed the game while choosing is refused
        by_index = getattr(seat, "choose_index", None)
        asked = game.state["decision"]["id"]
        index = None if by_index is None else by_index(game, side)
        if index is not None:
            game.apply_index(index, side, asked)
        else:
            action = seat.choose(game, side)
            if action is UNDONE:
                continue
            game.apply(action, side=side, decision=asked)
        if invariants:
            failed = game.check_invariants()
            if failed:
                raise InvariantFailed(failed)
        if on_decision is not None:
            on_decision(game)
    return bool(game.over)


class InvariantFailed(AssertionError):
    def __init__(self, messages: list[str]):
        super().__init__("invariant failed: " + "; ".join(messages))
        self.messages = messages


def count_turns(pack: Any, log: list[dict[str, Any]], decisions: int) -> int:
    """Turns played: the turn events in the log; for a pack whose board names its turn var
    (pack.yaml `board: {turn: {var: ...}}`), the times that var was set; else the
    occurrences of the pack's `turn_event:`; else decisions."""
    from engine.dsl.boardspec import board_spec
    turn = board_spec(pack.meta.get("board")).get("turn")
    var = turn.get("var") if isinstance(turn, dict) else None
    if var is not None and any(e.get("t") == "set" and e.get("n") == var for e in log):
        return sum(1 for e in log if e.get("t") == "set" and e.get("n") == var)
    name = pack.turn_event
    if name is None:
        return decisions
    return sum(1 for e in log if e.get("t") == "event" and e.get("n") == name)


def fault_record(err: BaseException, game: Any, seed: int) -> dict[str, Any]:
    """A replayable record of a game that went wrong."""
    from engine.core.errors import EngineFault
    if isinstance(err, EngineFault):
        info = err.replay_info()
        info["kind"] = "fault"
    else:
        info = {"message": f"{type(err).__name__}: {err}", "pack": game.pack.id if game else None,
                "pack_hash": game.pack.hash if game else None, "seed": seed,
                "actions": list(game.actions) if game else [],
                "kind": "invariant" if isinstance(err, InvariantFailed) else "crash"}
    if info.get("seed") is None:
        info["seed"] = seed
    if info.get("actions") is None:
        info["actions"] = list(game.actions) if game is not None else []
    return info


def run_one(pack: Any, seed: int, specs: list[str], max_decisions: int = DEFAULT_MAX_DECISIONS,
            invariants: bool = False) -> dict[str, Any]:
    """Play one all-bot game without log or undo; a small JSON-ready summary."""
    game = None
    try:
        game = pack.new_game(seed, log=False, undo=False)
        seats = make_seats(pack, specs, seed)
        finished = play_out(game, seats, max_decisions, invariants)
    except Exception as err:  # any failure is reported with what replays it
        return {"seed": seed, "status": "error", "decisions": len(game.actions) if game else 0,
                "error": fault_record(err, game, seed)}
    if not finished:
        return {"seed": seed, "status": "unfinished", "decisions": len(game.actions)}
    return {"seed": seed, "status": "over", "winner": game.result.winner,
            "decisions": len(game.actions)}
