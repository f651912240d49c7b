"""`engine play` (one game with bots and/or people, its log or its JSON), `engine simulate`
(many bot games and their statistics) and `engine balance` (many bot games per pairing, and a
page of plots): the commands that play games."""
from __future__ import annotations

import argparse
import sys

from engine.frontends.cli.output import (
    EXIT_OK,
    EXIT_PROBLEMS,
    UsageError,
    dump,
    to_stderr,
    to_stdout,
)
from engine.frontends.cli.packs import load_playable, say_read_from

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    from typing import Any

    from engine.core.errors import EngineFault
    from engine.core.game import Game, Result
    from engine.core.loader import CompiledPack
    from engine.i18n.translations import Catalog


def seat_kinds(pack: CompiledPack, spec: str) -> list[str]:
    """The seat kind of each side from `--bots`; a bad spec is a usage error."""
    from engine.frontends.seats import parse_seats
    try:
        return parse_seats(spec, pack.sides)
    except ValueError as err:
        raise UsageError(str(err)) from None


def cmd_play(args: argparse.Namespace) -> int:
    from engine.core.errors import EngineFault, SaveError
    from engine.core.game import Game
    from engine.frontends.simulate import count_turns, make_seats, play_out
    from engine.frontends.terminal import QuitGame, render_log
    from engine.i18n.translations import Catalog

    pack = load_playable(args.pack)
    where = say_read_from(pack)
    specs = seat_kinds(pack, args.bots)
    humans = [side for side, kind in zip(pack.sides, specs) if kind == "human"]
    game: Game | None = None
    if args.load:
        try:
            with open(args.load, encoding="utf-8") as fh:
                game = Game.load(pack, fh.read(), log=True, undo=bool(humans))
        except OSError as err:
            raise UsageError(f"cannot read {args.load}: {err.strerror or err}") from None
        except SaveError as err:
            raise UsageError(str(err)) from None
        seed: int = game.seed
    else:
        seed = args.seed
        if seed is None:
            import random
            seed = random.SystemRandom().randrange(1 << 31)
    # with --json, stdout holds only the JSON: the person plays on stderr
    seats_lang = {"lang": args.lang, "stream": sys.stderr if args.json else None}
    cat = Catalog(pack, args.lang)
    status, fault = "over", None
    seats: dict[str, Any] = {}
    try:
        if game is None:
            game = pack.new_game(seed, log=True, undo=bool(humans))
        seats = make_seats(pack, specs, seed, **seats_lang)
        if humans and any(getattr(seat, "sees_hidden", False) for seat in seats.values()):
            from engine.i18n import tr
            to_stderr(tr(args.lang, "note: a bot in this game looks at hidden information"))
        if not play_out(game, seats, args.max_decisions):
            status = "unfinished"
    except QuitGame:
        status = "quit"
    except EngineFault as err:
        status, fault = "fault", err
    decisions = len(game.actions) if game is not None else 0
    result = game.result if game is not None else None
    log = game.log if game is not None else []
    if args.json:
        out: dict[str, Any] = {
            "pack": pack.id, "pack_hash": pack.hash, "pack_dir": where, "seed": seed,
            "bots": ",".join(specs),
            "status": status, "over": bool(game is not None and game.over),
            "winner": result.winner if result else None,
            "reason": result.reason if result else None,
            "turns": count_turns(pack, log, decisions), "decisions": decisions,
            "actions": list(game.actions) if game is not None else [],
        }
        if fault is not None:
            out["error"] = fault.replay_info()
        to_stdout(dump(out))
        return EXIT_PROBLEMS if fault is not None else EXIT_OK
    # the result is said once, on the last line: the log's end entry is left out above it
    if humans:
        if game is not None and game.over:  # the last screen: what happened since the
            side = humans[0]                 # person's last decision, the bots' last turn
            view = {**game.view(side), "result": None}
            view["log"] = [e for e in view["log"] if e.get("t") != "end"]
            to_stdout(seats[side].screen(game, side, view))
    else:
        from engine.dsl.boardspec import log_sentences
        sentences = log_sentences(pack.meta.get("board"))
        shown = [e for e in log if e.get("t") != "end"]
        for line in render_log(shown, cat, trace=args.trace, sentences=sentences):
            to_stdout(line)
        to_stdout()
    if fault is not None:
        return _fault_said(fault)
    to_stdout(result_line(cat, status, result, log, decisions,
                          count_turns(pack, log, decisions), seed))
    return EXIT_OK


def _fault_said(fault: EngineFault) -> int:
    """A game fault on stderr, with the JSON that replays it."""
    to_stderr(f"engine play: game fault: {fault}")
    to_stderr("replay with: " + dump(fault.replay_info(), pretty=False))
    return EXIT_PROBLEMS


def result_line(cat: Catalog, status: str, result: Result | None, log: list[dict[str, Any]],
                decisions: int, turns: int, seed: int) -> str:
    """The last line of `engine play`, in the catalog's language (engine.i18n)."""
    from engine.i18n import ntr, tr
    lang = cat.lang
    n_decisions = ntr(lang, "{n} decision", "{n} decisions", decisions)
    # i18n: "12 decisions, 3 turns, seed 7": the seed replays the game
    facts = tr(lang, "{decisions}, {turns}, seed {seed}", decisions=n_decisions,
               turns=ntr(lang, "{n} turn", "{n} turns", turns), seed=seed)
    if status == "quit":
        return tr(lang, "stopped ({facts})", facts=facts)
    if status == "unfinished":
        return tr(lang, "stopped after {decisions} (--max-decisions), seed {seed}",
                  decisions=n_decisions, seed=seed)
    assert result is not None, "a game played out without a fault is over, with a result"
    outcome = cat.outcome(result.winner, cat.reason(result.reason, log))
    # i18n: outcome: "Red wins (reason)" or "no winner (reason)"
    return tr(lang, "result: {outcome}; {facts}", outcome=outcome, facts=facts)


def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.core.errors import PackError
    from engine.frontends.simulate import Progress, simulate
    from engine.i18n.translations import Catalog
    pack = load_playable(args.pack)  # report a broken pack once, here, not in every worker
    where = say_read_from(pack)
    cat = Catalog(pack, getattr(args, "lang", "en"))
    labels = {side: cat.value(side) for side in pack.sides}  # as the pack's language names them
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress = Progress(args.games, labels) if show and args.games else None
    try:
        out = simulate(pack, args.games, args.seed, args.bots, args.workers,
                       max_decisions=args.max_decisions, invariants=args.invariants,
                       on_game=progress, backend=args.backend, address=args.address)
    except ValueError as err:
        raise UsageError(str(err)) from None
    except PackError as err:  # pragma: no cover - loaded above
        from engine.dsl.errors import render_text
        to_stderr(render_text(err.diagnostics))
        return EXIT_PROBLEMS
    finally:
        if progress is not None:
            progress.close()
    out["pack_dir"] = where
    to_stdout(dump(out, pretty=False) if args.json else simulate_summary(out, labels))
    return EXIT_PROBLEMS if out["errors"] else EXIT_OK


def simulate_summary(out: dict[str, Any], labels: dict[str, str]) -> str:
    """`engine simulate` for people: each side's win share with its 95% interval, then draws,
    games that did not finish or failed, and speed."""
    from engine.frontends.simulate import format_share
    games = out["games"]
    seeds = (f" (seeds {out['seed']} to {out['seed'] + games - 1})" if games > 1 else
             f" (seed {out['seed']})" if games else "")
    lines = [f"{games} game{'s' * (games != 1)} of {out['pack']}{seeds}, bots {out['bots']}; "
             "wins with their 95% interval:"]
    width = max(len(label) for label in [*labels.values(), "draws"])
    counted = [*((labels.get(side, side), wins) for side, wins in out["wins"].items()),
               *([("draws", out["draws"])] if out["draws"] else [])]
    shares = [format_share(wins, games) for _, wins in counted]
    across = max(map(len, shares))
    for (label, wins), text in zip(counted, shares):
        lines.append(f"  {label:<{width}}  {text:<{across}}  {wins} of {games}")
    if out["unfinished"]:
        lines.append(f"  {out['unfinished']} stopped unfinished after {out['max_decisions']} "
                     "decisions (--max-decisions)")
    if out["errors"]:
        first = out["errors"][0]
        lines.append(f"  {len(out['errors'])} failed, the first with seed {first['seed']}: "
                     f"{first['message']} (--json lists each with the actions that replay it)")
    lines.append(f"{out['mean_decisions']:g} decisions per game; {out['seconds']:g} s, "
                 f"{out['games_per_second']:g} games/s on {out['workers']} "
                 f"worker{'s' * (out['workers'] != 1)}"
                 + (f" ({' and '.join(out['compiled'])} compiled to C)" if out["compiled"]
                    else ""))
    return "\n".join(lines)


def cmd_balance(args: argparse.Namespace) -> int:
    from pathlib import Path

    from engine.frontends.balance.plots import missing
    from engine.frontends.bots import BOT_KINDS
    from engine.frontends.simulate import Progress
    from engine.frontends.simulate.simulation import backend_problem
    from engine.i18n.translations import Catalog
    why = missing()
    if why is not None:
        raise UsageError(why)
    pack = load_playable(args.pack)
    where = say_read_from(pack)
    other = other_where = None
    if args.compare is not None:
        other = load_playable(args.compare)
        other_where = say_read_from(other)
        if list(other.sides) != list(pack.sides):
            raise UsageError(f"--compare: the pack's sides ({', '.join(other.sides)}) are not "
                             f"those of {pack.id} ({', '.join(pack.sides)})")
    pairings = []
    for spec in args.bots or ["random"]:
        kinds = seat_kinds(pack, spec)
        for kind in kinds:
            if kind not in BOT_KINDS:
                raise UsageError(f"balance plays bots only ({', '.join(BOT_KINDS)}), "
                                 f"not '{kind}'")
        if kinds not in pairings:
            pairings.append(kinds)
    out = Path(args.out or f"balance-{pack.id}")
    cat = Catalog(pack, args.lang)
    labels = {side: cat.value(side) for side in pack.sides}
    show = sys.stderr.isatty() if args.progress is None else args.progress

    def progress(job: Any, todo: int) -> Any:
        if not show:
            return None
        return Progress(todo, labels, desc=job.bots + (" (compared)" if job.role != "pack"
                                                       else ""))

    problem = backend_problem(args.backend, args.address)
    if problem is not None:
        raise UsageError(problem)
    from engine.frontends.balance.run import balance
    index = balance(pack, where, pairings, args.games, args.seed, out, workers=args.workers,
                    other=other, other_path=other_where, lang=args.lang, progress=progress,
                    backend=args.backend, address=args.address)
    to_stdout(f"wrote {index} (plots beside it, each game in {out / 'games.jsonl'})")
    return EXIT_OK
