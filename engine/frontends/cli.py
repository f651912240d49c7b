"""The `engine` command: validate, format, play and simulate packs; list names and terms.

Written against the library API only. Heavy modules (the parser, YAML, the compiler) are
imported inside the subcommands so that `engine --help` stays fast.

Exit codes: 0 ok, 1 problems found (or a game fault), 2 usage errors.
"""
from __future__ import annotations

import argparse
import sys

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A bad argument: reported on one line, exit code 2."""


def _out(text: str = "") -> None:
    print(text)


def _err(text: str) -> None:
    print(text, file=sys.stderr)


def _lang(value: str) -> str:
    import re
    if not re.fullmatch(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?", value):
        raise argparse.ArgumentTypeError(f"'{value}' is not a language code like 'en' or 'hu'")
    return value


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"needs at least 1, not {n}")
    return n


def _count(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"cannot be negative: {n}")
    return n


def _load(ref: str):
    """A loaded pack; a missing pack is a usage error, a broken one prints diagnostics."""
    from engine.core.errors import PackError
    from engine.core.loader import load_pack
    try:
        return load_pack(ref)
    except FileNotFoundError as err:
        raise UsageError(str(err).strip("'\"")) from None
    except PackError as err:
        from engine.dsl.errors import render_text
        _err(render_text(err.diagnostics))
        n = sum(d.is_error for d in err.diagnostics)
        _err(f"\npack '{ref}' has {n} error{'s' * (n != 1)}; see `engine validate {ref}`")
        raise _Exit(EXIT_PROBLEMS) from None
    except (OSError, UnicodeError) as err:  # e.g. a file that is not UTF-8
        _err(f"engine: cannot read pack '{ref}': {err}; see `engine validate {ref}`")
        raise _Exit(EXIT_PROBLEMS) from None


def _read_from(pack) -> str:
    """Say on stderr which directory a pack was read from (a pack's name resolves to the
    checkout the current directory is in before the installed packs: see
    `engine.dsl.places.content_root`); returns that directory for --json."""
    where = str(pack.root.resolve())
    _err(f"reading pack from {where}")
    return where


def _load_playable(ref: str):
    """A loaded pack that can be played; a data pack (`playable: false`) is a usage error."""
    pack = _load(ref)
    if not pack.playable:
        from engine.core.errors import data_pack_message
        raise UsageError(data_pack_message(pack.id, ref))
    return pack


class _Exit(Exception):
    def __init__(self, code: int):
        self.code = code


def _dump(obj, pretty: bool = True) -> str:
    import json
    return json.dumps(obj, indent=2 if pretty else None, ensure_ascii=False, default=str)


# ---- validate -----------------------------------------------------------------------------------
def cmd_validate(args: argparse.Namespace) -> int:
    from engine.core.validate import validate
    from engine.dsl.errors import render_json
    try:
        report = validate(args.paths or None, disagreements=args.disagreements)
    except FileNotFoundError as err:
        raise UsageError(str(err)) from None
    if args.format == "json":
        _out(render_json(report.diagnostics, **report.json_extra()))
        return EXIT_PROBLEMS if report.errors else EXIT_OK
    if args.quiet:  # errors only, then their count
        blocks = [d.render() for d in report.diagnostics if d.is_error]
        if blocks:
            _out("\n\n".join(blocks))
            _out()
            _out(f"{report.errors} error{'s' * (report.errors != 1)}")
        return EXIT_PROBLEMS if report.errors else EXIT_OK
    _err(f"reading packs from {', '.join(report.read_from)}")
    blocks = [d.render() for d in report.diagnostics]
    if blocks:
        _out("\n\n".join(blocks))
        _out()
    for m in report.messages:
        _out(m)
    _out(report.summary())
    return EXIT_PROBLEMS if report.errors else EXIT_OK


# ---- fmt ----------------------------------------------------------------------------------------
def _rules_files(paths: list[str]) -> list:
    from pathlib import Path
    files = []
    for arg in paths:
        p = Path(arg)
        if p.is_dir():
            from engine.dsl.pack import refused_file
            for x in sorted(p.rglob("*.rules")):
                refused = refused_file(x, p)  # fmt writes files: never one outside the pack
                if refused is not None:
                    raise UsageError(f"{refused.path}: {refused.message}")
                if x.is_file():
                    files.append(x)
        elif p.is_file():
            if p.suffix != ".rules":
                raise UsageError(f"'{arg}' is not a .rules file")
            files.append(p)
        else:
            raise UsageError(f"no such file or directory: '{arg}'")
    seen, out = set(), []
    for f in files:
        if f.resolve() not in seen:
            seen.add(f.resolve())
            out.append(f)
    return out


def cmd_fmt(args: argparse.Namespace) -> int:
    files = _rules_files(args.paths)
    try:
        from engine.dsl.formatter import format_source
    except ImportError as err:
        _err(f"engine fmt: the formatter is not available ({err})")
        return EXIT_PROBLEMS
    from engine.dsl.errors import DslError, render_text
    changed = failed = 0
    for path in files:
        try:
            with open(path, encoding="utf-8", newline="") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as err:
            _err(f"{path}: cannot read: {err}")
            failed += 1
            continue
        try:
            new = format_source(text, str(path))
        except DslError as err:
            _err(render_text(err.diagnostics))
            _err("")
            failed += 1
            continue
        if new == text:
            continue
        changed += 1
        if args.check:
            _out(str(path))
        else:
            with open(path, "w", encoding="utf-8", newline="") as fh:
                fh.write(new)
            _out(f"reformatted {path}")
    unchanged = len(files) - changed - failed
    verb = "would be reformatted" if args.check else "reformatted"
    summary = f"{changed} file{'s' * (changed != 1)} {verb}, {unchanged} unchanged"
    if failed:
        summary += f", {failed} with errors"
    _err(summary)
    if failed or (args.check and changed):
        return EXIT_PROBLEMS
    return EXIT_OK


# ---- play ---------------------------------------------------------------------------------------
def _seats_spec(pack, spec: str) -> list[str]:
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

    pack = _load_playable(args.pack)
    where = _read_from(pack)
    specs = _seats_spec(pack, args.bots)
    humans = [side for side, s in zip(pack.sides, specs) if s == "human"]
    if args.load:
        try:
            with open(args.load, encoding="utf-8") as fh:
                game = Game.load(pack, fh.read(), log=True, undo=bool(humans))
        except OSError as err:
            raise UsageError(f"cannot read {args.load}: {err.strerror or err}") from None
        except SaveError as err:
            raise UsageError(str(err)) from None
        seed = game.seed
    else:
        seed = args.seed
        if seed is None:
            import random
            seed = random.SystemRandom().randrange(1 << 31)
        game = None
    # with --json, stdout holds only the JSON: the person plays on stderr
    seats_lang = {"lang": args.lang, "stream": sys.stderr if args.json else None}
    cat = Catalog(pack, args.lang)
    status, fault = "over", None
    try:
        if game is None:
            game = pack.new_game(seed, log=True, undo=bool(humans))
        seats = make_seats(pack, specs, seed, **seats_lang)
        if humans and any(getattr(s, "sees_hidden", False) for s in seats.values()):
            from engine.i18n import tr
            _err(tr(args.lang, "note: a bot in this game looks at hidden information"))
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
        out = {
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
        _out(_dump(out))
        return EXIT_PROBLEMS if fault is not None else EXIT_OK
    # the result is said once, on the last line: the log's end entry is left out above it
    if humans:
        if game is not None and game.over:  # the last screen: what happened since the
            side = humans[0]                 # person's last decision, the bots' last turn
            view = {**game.view(side), "result": None}
            view["log"] = [e for e in view["log"] if e.get("t") != "end"]
            _out(seats[side].screen(game, side, view))
    else:
        from engine.dsl.boardspec import log_sentences
        sentences = log_sentences(pack.meta.get("board"))
        shown = [e for e in log if e.get("t") != "end"]
        for line in render_log(shown, cat, trace=args.trace, sentences=sentences):
            _out(line)
        _out()
    if fault is not None:
        _err(f"engine play: game fault: {fault}")
        _err("replay with: " + _dump(fault.replay_info(), pretty=False))
        return EXIT_PROBLEMS
    _out(_result_line(cat, status, result, log, decisions,
                      count_turns(pack, log, decisions), seed))
    return EXIT_OK


def _result_line(cat, status: str, result, log: list, decisions: int, turns: int,
                 seed: int) -> str:
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
    outcome = cat.outcome(result.winner, cat.reason(result.reason, log))
    # i18n: outcome: "Red wins (reason)" or "no winner (reason)"
    return tr(lang, "result: {outcome}; {facts}", outcome=outcome, facts=facts)


# ---- simulate -----------------------------------------------------------------------------------
def cmd_simulate(args: argparse.Namespace) -> int:
    from engine.core.errors import PackError
    from engine.frontends.simulate import Progress, simulate
    from engine.i18n.translations import Catalog
    pack = _load_playable(args.pack)  # report a broken pack once, here, not in every worker
    where = _read_from(pack)
    cat = Catalog(pack, getattr(args, "lang", "en"))
    labels = {side: cat.value(side) for side in pack.sides}  # as the pack's language names them
    show = sys.stderr.isatty() if args.progress is None else args.progress
    progress = Progress(args.games, labels) if show and args.games else None
    try:
        out = simulate(pack, args.games, args.seed, args.bots, args.workers,
                       max_decisions=args.max_decisions, invariants=args.invariants,
                       on_game=progress)
    except ValueError as err:
        raise UsageError(str(err)) from None
    except PackError as err:  # pragma: no cover - loaded above
        from engine.dsl.errors import render_text
        _err(render_text(err.diagnostics))
        return EXIT_PROBLEMS
    finally:
        if progress is not None:
            progress.close()
    out["pack_dir"] = where
    _out(_dump(out, pretty=False) if args.json else _simulate_summary(out, labels))
    return EXIT_PROBLEMS if out["errors"] else EXIT_OK


def _simulate_summary(out: dict, labels: dict[str, str]) -> str:
    """`engine simulate` for people: each side's win share with its 95% interval, then draws,
    games that did not finish or failed, and speed."""
    from engine.frontends.simulate import format_share
    n = out["games"]
    seeds = (f" (seeds {out['seed']} to {out['seed'] + n - 1})" if n > 1 else
             f" (seed {out['seed']})" if n else "")
    lines = [f"{n} game{'s' * (n != 1)} of {out['pack']}{seeds}, bots {out['bots']}; "
             "wins with their 95% interval:"]
    width = max(len(label) for label in [*labels.values(), "draws"])
    counted = [*((labels.get(side, side), k) for side, k in out["wins"].items()),
               *([("draws", out["draws"])] if out["draws"] else [])]
    shares = [format_share(k, n) for _, k in counted]
    across = max(map(len, shares))
    for (label, k), text in zip(counted, shares):
        lines.append(f"  {label:<{width}}  {text:<{across}}  {k} of {n}")
    if out["unfinished"]:
        lines.append(f"  {out['unfinished']} stopped unfinished after {out['max_decisions']} "
                     "decisions (--max-decisions)")
    if out["errors"]:
        first = out["errors"][0]
        lines.append(f"  {len(out['errors'])} failed, the first with seed {first['seed']}: "
                     f"{first['message']} (--json lists each with the actions that replay it)")
    lines.append(f"{out['mean_decisions']:g} decisions per game; {out['seconds']:g} s, "
                 f"{out['games_per_second']:g} games/s on {out['workers']} "
                 f"worker{'s' * (out['workers'] != 1)}")
    return "\n".join(lines)


# ---- cards and terms ----------------------------------------------------------------------------
def _catalog(pack, lang: str):
    from engine.i18n.translations import Catalog
    cat = Catalog(pack, lang)
    if lang != "en" and not cat.has_language():
        _err(f"note: no {lang} translation of {pack.id} (looked in "
             f"{', '.join(str(d) for d in cat.dirs)}); showing English")
    return cat


def _table(rows: list[list[str]], header: list[str]) -> list[str]:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    fmt = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip()  # noqa: E731
    return [fmt(header), fmt(["-" * w for w in widths]), *map(fmt, rows)]


def _record_types(pack, wanted: list[str] | None) -> list[str]:
    """The record types to list: those asked for (each must exist), or all with records."""
    if not wanted:
        return [t for t in pack.by_type if pack.by_type[t]]
    from engine.dsl.errors import did_you_mean
    for t in wanted:
        if t not in pack.by_type:
            hint = did_you_mean(t, pack.by_type)
            raise UsageError(f"pack {pack.id} has no record type '{t}'"
                             + (f" ({hint})" if hint else ""))
    return list(dict.fromkeys(wanted))


def _record_order(r: dict) -> tuple:
    """Type, then number (numbered records first; numbers before text), then id."""
    n = r.get("number")
    number = (2, "") if n is None else (0, n) if isinstance(n, int) else (1, str(n))
    return (r["type"], number, r["id"])


def cmd_cards(args: argparse.Namespace) -> int:
    pack = _load(args.pack)
    where = _read_from(pack)
    cat = _catalog(pack, args.lang)
    records = []
    for t in _record_types(pack, args.type):
        for rid in pack.by_type[t]:
            rec = {"type": t, "id": rid}
            number = pack.records[rid].get("number")
            if number is not None:
                rec["number"] = number
            rec.update(name=cat.name(rid), named=cat.is_named(rid),
                       derived=cat.own_name(rid) is None and cat.derived_name(rid) is not None)
            records.append(rec)
    records.sort(key=_record_order)
    if args.json:
        _out(_dump({"pack": pack.id, "pack_dir": where, "lang": args.lang,
                    "records": records}))
        return EXIT_OK
    rows = [[r["type"], r["id"], r.get("number", ""), r["name"] + ("" if r["named"] else " *")]
            for r in records]
    for line in _table(rows, ["TYPE", "ID", "NUMBER", f"NAME ({args.lang})"]):
        _out(line)
    unnamed = sum(not r["named"] for r in records)
    tail = f"; * = no {args.lang} name yet ({unnamed})" if unnamed else ""
    _out(f"\n{len(records)} record{'s' * (len(records) != 1)}{tail}")
    return EXIT_OK


def cmd_terms(args: argparse.Namespace) -> int:
    pack = _load(args.pack)
    where = _read_from(pack)
    cat = _catalog(pack, args.lang)
    ids = cat.term_ids()
    terms = [{"id": t, "name": cat.term(t)} for t in ids]
    if args.json:
        _out(_dump({"pack": pack.id, "pack_dir": where, "lang": args.lang, "terms": terms}))
        return EXIT_OK
    if not terms:
        _out(f"{pack.id} has no glossary yet: add 'terms:' to a translation file "
             f"({pack.id}.<lang>.yaml or {pack.id}.<part>.<lang>.yaml)")
        return EXIT_OK
    for line in _table([[t["id"], t["name"]] for t in terms], ["TERM", f"NAME ({args.lang})"]):
        _out(line)
    return EXIT_OK


# ---- eval ---------------------------------------------------------------------------------------
def _parse_call(text: str) -> tuple[str, list, dict]:
    """`name` or `name(arg, ..., param = arg)` with literal arguments: whole numbers, "text",
    true, false, none, [lists], and bare ids (records, sides). Read with the rules language's
    own parser."""
    from engine.dsl import ast as A
    from engine.dsl.errors import DslError
    from engine.dsl.formatter import format_expr
    from engine.dsl.pack import NOT_LITERAL, literal_value
    from engine.dsl.parser import parse_effect
    try:
        block = parse_effect(f"let _value = {text.strip()}")
    except DslError:
        block = ()
    node = block[0].value if len(block) == 1 and isinstance(block[0], A.Let) else None
    if isinstance(node, A.Name):
        return node.id, [], {}
    if not isinstance(node, A.Call):
        raise UsageError(f"cannot read {text!r}: write a value and its arguments, like "
                         "'attack_strength(3, north_gate)'")
    given = [*node.args, *(k.value for k in node.kwargs)]
    values = [literal_value(a) for a in given]
    for a, v in zip(given, values):
        if v is NOT_LITERAL:
            raise UsageError(f"'{format_expr(a)}' is not a plain argument: use whole numbers, "
                             "\"text\", true, false, none, [lists] or ids")
    n = len(node.args)
    return node.func, values[:n], {k.name: v for k, v in zip(node.kwargs, values[n:])}


def cmd_eval(args: argparse.Namespace) -> int:
    from engine.core.errors import EngineFault
    pack = _load(args.pack)
    _read_from(pack)
    name, call_args, call_kwargs = _parse_call(args.expression)
    try:
        result = pack.call_value(name, *call_args, **call_kwargs)
    except KeyError as err:
        raise UsageError(err.args[0]) from None
    except TypeError as err:
        raise UsageError(str(err)) from None
    except EngineFault as err:
        _err(f"engine eval: {err}")
        return EXIT_PROBLEMS
    _out(_dump(result, pretty=False))
    return EXIT_OK


# ---- serve --------------------------------------------------------------------------------------
def cmd_serve(args: argparse.Namespace) -> int:
    try:
        from engine.frontends.serve.app import create_app, serve
        from engine.frontends.serve.limits import Rate
        from engine.frontends.serve.migrate import import_dir
        from engine.frontends.serve.paths import default_db
        from engine.frontends.serve.signing import KeyFileError
        from engine.frontends.serve.store import StorageError
        from engine.frontends.serve.tables import ServerLimits
    except ImportError as err:  # starlette, uvicorn or platformdirs missing
        raise UsageError(f"engine serve needs the serve extra (pip install "
                         f"'engine-dsl[serve]'): {err}") from None
    packs = [_load_playable(ref) for ref in args.pack or []]
    for pack in packs:
        _read_from(pack)
    try:
        rate = Rate.parse(args.create_rate)
    except ValueError as err:
        raise UsageError(f"--create-rate: {err}") from None
    for name in ("max_loaded", "max_open_games"):
        if getattr(args, name) < 1:
            raise UsageError(f"--{name.replace('_', '-')} is at least 1")
    db = args.db or str(default_db())
    limits = ServerLimits(args.max_loaded, args.max_open_games, rate)
    try:
        app = create_app(db, packs, key=args.key, limits=limits,
                         allow_origins=tuple(args.allow_origin or ()))
        if args.import_dir:
            _err(import_dir(app.state.tables, args.import_dir).summary(args.import_dir))
    except (StorageError, KeyFileError, FileNotFoundError) as err:
        _err(f"engine serve: error: {err}")
        return EXIT_PROBLEMS
    _err(f"engine serve: games in {db} ({app.state.tables.store.backend}); open "
         f"http://{args.host}:{args.port}/")
    serve(app, args.host, args.port)
    return EXIT_OK


# ---- the parser ---------------------------------------------------------------------------------
class _Formatter(argparse.HelpFormatter):
    """argparse's layout, given the terminal's width as `shutil.get_terminal_size` finds it
    (COLUMNS, else the terminal, else 80): argparse would import shutil for it, which with
    the compression modules it imports was a tenth of `engine --help`'s start-up."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None):
        if width is None:
            width = _columns() - 2  # (as argparse leaves two columns free)
        super().__init__(prog, indent_increment, max_help_position, width)


def _columns() -> int:
    import os
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class _Parser(argparse.ArgumentParser):
    """An argument parser whose help may end with the shipped packs to play, listed only
    when the help is printed (reading them needs the YAML loader, which `engine --help`
    avoids)."""

    def __init__(self, *args, lists_packs: bool = False, **kwargs):
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self.lists_packs = lists_packs

    def format_help(self) -> str:
        text = super().format_help()
        return text + "\n" + _pack_list() + "\n" if self.lists_packs else text


def _pack_list() -> str:
    """The shipped packs to play, then the data packs (which cannot be played)."""
    from engine.dsl.places import shipped_packs
    games, data = shipped_packs()
    out = f"shipped packs to play: {', '.join(games) or 'none'}"
    if data:
        out += (f"\ndata packs (records and checks, no rules to play yet; see `engine cards "
                f"PACK`): {', '.join(data)}")
    return out


def _version() -> str:
    """This package's installed version (read from its metadata: no heavy imports)."""
    from importlib.metadata import PackageNotFoundError, version

    from engine import DIST_NAME
    try:
        return version(DIST_NAME)
    except PackageNotFoundError:
        return "unknown (not installed)"


def cmd_schema(args: argparse.Namespace) -> int:
    import json
    if not args.api:
        raise UsageError("say which schema: --api (views, decisions, actions, log entries "
                         "and saves)")
    from engine.core.schema import api_schema
    print(json.dumps(api_schema(), indent=2, ensure_ascii=False))
    return 0


class _VersionAction(argparse.Action):
    """`--version`: reads the installed version only when asked (importlib.metadata costs
    about a fifth of `engine --help`'s start-up)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show the program's version number and exit"):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        parser._print_message(f"{parser.prog} {_version()}\n", sys.stdout)
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="engine", description="A rules engine for card and board games: check, format, "
        "play and simulate content packs.",
        epilog="Exit codes: 0 ok, 1 problems found or a game fault, 2 usage errors.",
        formatter_class=_Formatter)
    p.add_argument("--version", action=_VersionAction)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    v = sub.add_parser("validate", help="check packs, their self-checks and translations",
                       description="Build packs (all YAML and rules files in one run), run their "
                       "`check`s and check translation files. Default: the shipped packs.")
    v.add_argument("paths", nargs="*", metavar="PACK|PATH",
                   help="a shipped pack's name, a pack directory or a directory of packs")
    v.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: diagnostics, coverage per language and disagreements")
    v.add_argument("--disagreements", action="store_true",
                   help="list every place where the pack's sources disagree (note N520)")
    v.add_argument("-q", "--quiet", action="store_true",
                   help="print errors only (no notes, warnings or summary), then their count")
    v.set_defaults(func=cmd_validate)

    f = sub.add_parser("fmt", help="format .rules files",
                       description="Rewrite .rules files in the canonical layout, wrapped at "
                       "99 columns.")
    f.add_argument("paths", nargs="+", metavar="PATH", help=".rules files or directories")
    f.add_argument("--check", action="store_true",
                   help="change nothing; list files that would change and exit 1 if any")
    f.set_defaults(func=cmd_fmt)

    pl = sub.add_parser("play", help="play a game with bots and/or people",
                        description="Play a game. SPEC gives one seat per side, in the pack's "
                        "side order: random, greedy or human (e.g. human,random).",
                        lists_packs=True)
    pl.add_argument("pack", metavar="PACK")
    pl.add_argument("--seed", type=int, default=None, help="random seed (default: a new one)")
    pl.add_argument("--bots", default="random", metavar="SPEC",
                    help="seats, comma-separated (default: random for every side)")
    pl.add_argument("--json", action="store_true", help="print one JSON object at the end")
    pl.add_argument("--max-decisions", type=_positive, default=100_000, metavar="N")
    pl.add_argument("--lang", type=_lang, default="en", metavar="CODE")
    pl.add_argument("--trace", action="store_true", help="show which rules ran in the log")
    pl.add_argument("--load", metavar="FILE", help="continue a game saved with `s FILE`")
    pl.set_defaults(func=cmd_play)

    s = sub.add_parser("simulate", help="play many bot games and print statistics",
                       description="Play N games (game i with seed S+i, the same results "
                       "on any number of workers) and print each side's win share with its "
                       "95% (Wilson) interval, draws, errors (replayable with --json) and "
                       "speed. A progress bar shows on stderr when it is a terminal.",
                       lists_packs=True)
    s.add_argument("pack", metavar="PACK")
    s.add_argument("--games", type=_count, default=100, metavar="N")
    s.add_argument("--seed", type=int, default=0, metavar="S")
    s.add_argument("--bots", default="random", metavar="SPEC")
    s.add_argument("--workers", type=_positive, default=1, metavar="W")
    s.add_argument("--max-decisions", type=_positive, default=100_000, metavar="N")
    s.add_argument("--invariants", action="store_true",
                   help="check the pack's invariants after every decision")
    s.add_argument("--json", action="store_true",
                   help="one JSON object on one line: counts, shares with lower/upper bounds, "
                   "errors with what replays them")
    s.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar on stderr (default: when stderr is a terminal)")
    s.set_defaults(func=cmd_simulate)

    c = sub.add_parser("cards", help="list a pack's records with their names",
                       description="List records (type, id, number, name in a language), "
                       "sorted by type, number and id. --json adds whether each record is "
                       "named in the language ('named') and whether that name is derived "
                       "from other records (pack.yaml names_from).")
    c.add_argument("pack", metavar="PACK")
    c.add_argument("--lang", type=_lang, default="en", metavar="CODE")
    c.add_argument("--type", metavar="TYPE", action="append",
                   help="only records of this type (repeat for several types)")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_cards)

    e = sub.add_parser("eval", help="evaluate one of a pack's values (tables, formulas)",
                       description="Evaluate a `value` declaration of a pack on the state "
                       "before setup (as `check`s see it) and print the result as JSON. Works "
                       "on data packs too.",
                       epilog="example: engine eval my_game 'attack_strength(3, north_gate)'")
    e.add_argument("pack", metavar="PACK")
    e.add_argument("expression", metavar="VALUE(ARGS)",
                   help="a value's name and literal arguments: numbers, \"text\", true, "
                   "false, none, [lists], record and side ids")
    e.set_defaults(func=cmd_eval)

    t = sub.add_parser("terms", help="print a pack's glossary of rules terms",
                       description="The rules terms of a pack, in a language.")
    t.add_argument("pack", metavar="PACK")
    t.add_argument("--lang", type=_lang, default="en", metavar="CODE")
    t.add_argument("--json", action="store_true")
    t.set_defaults(func=cmd_terms)

    sc = sub.add_parser("schema", help="print the JSON Schema of the public format",
                        description="Print the JSON Schema (draft 2020-12) of what the engine "
                        "gives and takes: views, decisions, actions, log entries and saves "
                        "(engine.core.api; docs/api.md explains every key).")
    sc.add_argument("--api", action="store_true",
                    help="the format of views, decisions, actions, log entries and saves")
    sc.set_defaults(func=cmd_schema)

    sv = sub.add_parser("serve", help="host games over HTTP and WebSockets, with a web page",
                        description="Serve games to play in a browser (the page at /) or from "
                        "any program (the JSON API under /api, see engine/serve/app.py). "
                        "Every move is stored in a database before it is acknowledged, and "
                        "games resume after a restart.")
    sv.add_argument("--host", default="127.0.0.1", help="address to listen on "
                    "(default: 127.0.0.1, this machine only)")
    sv.add_argument("--port", type=int, default=8000, help="default: 8000")
    sv.add_argument("--db", metavar="PATH|URL",
                    help="where the games are kept: a SQLite file, or a PostgreSQL URL "
                    "(postgresql://user@host/dbname; needs pip install 'engine-dsl[postgres]')"
                    "; default: games.sqlite3 in your data folder")
    sv.add_argument("--key", metavar="FILE",
                    help="the key that signs stored games, made on first start (default: "
                    "beside a SQLite file, as DB.key; in your data folder for PostgreSQL)")
    sv.add_argument("--import-dir", metavar="DIR",
                    help="first bring in the games of an older server's folder of JSON files "
                    "(each replayed to check it); games already in the database are kept")
    sv.add_argument("--allow-origin", action="append", metavar="ORIGIN",
                    help="let pages of ORIGIN (e.g. https://games.example.org) use the API, "
                    "besides the server's own page; repeatable")
    sv.add_argument("--max-loaded", type=int, default=256, metavar="N",
                    help="games kept in memory at most; idle ones are unloaded, least "
                    "recently used first (default: 256)")
    sv.add_argument("--max-open-games", type=int, default=10_000, metavar="N",
                    help="games not over that the server hosts at most; more are refused "
                    "(429) (default: 10000)")
    sv.add_argument("--create-rate", default="20/60", metavar="N/SECONDS",
                    help="new games one client address may make: at most N in SECONDS "
                    "(default: 20/60)")
    sv.add_argument("--pack", action="append", metavar="PACK",
                    help="offer this pack too (a directory: your own pack); repeatable")
    sv.set_defaults(func=cmd_serve)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.func(args)
    except UsageError as err:
        _err(f"engine {args.command}: error: {err}")
        return EXIT_USAGE
    except _Exit as ex:
        return ex.code
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    except BrokenPipeError:
        import os
        try:  # keep Python from complaining when stdout is closed early (`| head`)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return EXIT_PROBLEMS


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
