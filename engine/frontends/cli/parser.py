"""The `engine` command's arguments: each command, its options and their help, and the
function that runs it (each command's module imports what it needs only when it runs, so
that `engine --help` stays fast)."""
from __future__ import annotations

import argparse

from engine.frontends.cli.editor import cmd_lsp
from engine.frontends.cli.explain import cmd_explain
from engine.frontends.cli.games import cmd_balance, cmd_play, cmd_simulate
from engine.frontends.cli.help_layout import CommandParser, Formatter, VersionAction
from engine.frontends.cli.info import cmd_cards, cmd_eval, cmd_schema, cmd_terms
from engine.frontends.cli.server import cmd_serve
from engine.frontends.cli.sources import cmd_compile, cmd_fmt, cmd_validate

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[CommandParser]


def language(value: str) -> str:
    """A language code argument (`--lang`)."""
    import re
    if not re.fullmatch(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?", value):
        raise argparse.ArgumentTypeError(f"'{value}' is not a language code like 'en' or 'hu'")
    return value


def _whole_number(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{value}' is not a whole number") from None


def positive(value: str) -> int:
    """A whole number argument of at least 1."""
    number = _whole_number(value)
    if number < 1:
        raise argparse.ArgumentTypeError(f"needs at least 1, not {number}")
    return number


def count(value: str) -> int:
    """A whole number argument of at least 0."""
    number = _whole_number(value)
    if number < 0:
        raise argparse.ArgumentTypeError(f"cannot be negative: {number}")
    return number


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="engine", description="A rules engine for card and board games: check, format, "
        "play and simulate content packs.",
        epilog="Exit codes: 0 ok, 1 problems found or a game fault, 2 usage errors.",
        formatter_class=Formatter)
    parser.add_argument("--version", action=VersionAction)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND",
                                     parser_class=CommandParser)
    _add_validate(commands)
    _add_fmt(commands)
    _add_compile(commands)
    _add_lsp(commands)
    _add_play(commands)
    _add_simulate(commands)
    _add_balance(commands)
    _add_cards(commands)
    _add_explain(commands)
    _add_eval(commands)
    _add_terms(commands)
    _add_schema(commands)
    _add_serve(commands)
    return parser


def _add_validate(commands: Subparsers) -> None:
    command = commands.add_parser(
        "validate", help="check packs, their self-checks and translations",
        description="Build packs (all YAML and rules files in one run), run their "
        "`check`s and check translation files. Default: the shipped packs.")
    command.add_argument("paths", nargs="*", metavar="PACK|PATH",
                         help="a shipped pack's name, a pack directory or a directory of packs")
    command.add_argument("--format", choices=("text", "json"), default="text",
                         help="json: diagnostics, coverage per language and disagreements")
    command.add_argument("--disagreements", action="store_true",
                         help="list every place where the pack's sources disagree (note N520)")
    command.add_argument("--strict", action="store_true",
                         help="count warnings (data no rule reads, W6xx, and the others) as "
                         "errors")
    command.add_argument("-q", "--quiet", action="store_true",
                         help="print errors only (no notes, warnings or summary), then their "
                         "count")
    command.set_defaults(func=cmd_validate, quick_exit=True)


def _add_fmt(commands: Subparsers) -> None:
    command = commands.add_parser(
        "fmt", help="format .rules files",
        description="Rewrite .rules files in the canonical layout, wrapped at "
        "99 columns.")
    command.add_argument("paths", nargs="+", metavar="PATH", help=".rules files or directories")
    command.add_argument("--check", action="store_true",
                         help="change nothing; list files that would change and exit 1 if any")
    command.set_defaults(func=cmd_fmt)


def _add_compile(commands: Subparsers) -> None:
    command = commands.add_parser(
        "compile", help="compile packs' rules to C, for faster games and bots",
        description="Compile each pack's rules (the Python the engine generates from them) "
        "to C with Cython, into the build cache: games, bots and simulations that load the "
        "pack run them from then on, until its rules change. Needs Cython and a C compiler: "
        "pip install 'engine-dsl[compile]'. ENGINE_NATIVE=off runs the Python instead.",
        lists_packs=True)
    command.add_argument("packs", nargs="+", metavar="PACK")
    command.add_argument("--force", action="store_true", help="compile again if compiled")
    command.set_defaults(func=cmd_compile)


def _add_lsp(commands: Subparsers) -> None:
    command = commands.add_parser(
        "lsp", help="a language server for .rules and record files, for editors",
        description="Speak the Language Server Protocol on stdin and stdout to an editor: "
        "the diagnostics of `engine validate` as you type, hover, go to definition, find "
        "references, completion and formatting (docs/language.md, \"Editors\"). Needs the "
        "lsp extra: pip install 'engine-dsl[lsp]'.")
    command.add_argument("--stdio", action="store_true",
                         help="talk over stdin and stdout (the default and only way; editors' "
                         "clients pass it)")
    command.set_defaults(func=cmd_lsp)


def _add_play(commands: Subparsers) -> None:
    command = commands.add_parser(
        "play", help="play a game with bots and/or people",
        description="Play a game. SPEC gives one seat per side, in the pack's "
        "side order: random, greedy, mcts (a search; mcts:200 playouts or mcts:0.5s a "
        "decision) or human (e.g. human,mcts).",
        lists_packs=True)
    command.add_argument("pack", metavar="PACK")
    command.add_argument("--seed", type=int, default=None, help="random seed (default: a new one)")
    command.add_argument("--bots", default="random", metavar="SPEC",
                         help="seats, comma-separated (default: random for every side)")
    command.add_argument("--json", action="store_true", help="print one JSON object at the end")
    command.add_argument("--max-decisions", type=positive, default=100_000, metavar="N")
    command.add_argument("--lang", type=language, default="en", metavar="CODE")
    command.add_argument("--trace", action="store_true", help="show which rules ran in the log")
    command.add_argument("--load", metavar="FILE", help="continue a game saved with `w FILE`")
    command.set_defaults(func=cmd_play)


def _add_workers(command: CommandParser) -> None:
    """--workers, --backend and --address: where `simulate` and `balance` play their games."""
    command.add_argument("--workers", type=positive, default=1, metavar="W")
    command.add_argument("--backend", choices=("local", "ray"), default="local",
                         help="where the games are played: this machine's processes "
                         "(default) or Ray actors (pip install 'engine-dsl[ray]'); the same "
                         "results for the same seeds")
    command.add_argument("--address", default=None, metavar="ADDRESS",
                         help="with --backend ray: the Ray cluster to use (e.g. auto, or "
                         "ray://HOST:10001); default: a local Ray instance for the run")


def _add_progress(command: CommandParser) -> None:
    command.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                         help="show a progress bar on stderr (default: when stderr is a terminal)")


def _add_simulate(commands: Subparsers) -> None:
    command = commands.add_parser(
        "simulate", help="play many bot games and print statistics",
        description="Play N games (game i with seed S+i, the same results "
        "on any number of workers) and print each side's win share with its "
        "95% (Wilson) interval, draws, errors (replayable with --json) and "
        "speed. A progress bar shows on stderr when it is a terminal.",
        lists_packs=True)
    command.add_argument("pack", metavar="PACK")
    command.add_argument("--games", type=count, default=100, metavar="N")
    command.add_argument("--seed", type=int, default=0, metavar="S")
    command.add_argument("--bots", default="random", metavar="SPEC",
                         help="bots, one per side, comma-separated: random, greedy or mcts "
                         "(mcts:200 playouts or mcts:0.5s a decision)")
    _add_workers(command)
    command.add_argument("--max-decisions", type=positive, default=100_000, metavar="N")
    command.add_argument("--invariants", action="store_true",
                         help="check the pack's invariants after every decision")
    command.add_argument("--json", action="store_true",
                         help="one JSON object on one line: counts, shares with lower/upper "
                         "bounds, "
                         "errors with what replays them")
    _add_progress(command)
    command.set_defaults(func=cmd_simulate)


def _add_balance(commands: Subparsers) -> None:
    command = commands.add_parser(
        "balance", help="play many bot games and write a page of plots",
        description="Play N games per bot pairing (game i with seed S+i, as "
        "simulate plays it) and write OUT/index.html with PNG plots: each side's "
        "win share with its 95% interval, end reasons, game length, the first "
        "player's share, tracked values by turn and the cards played, how and "
        "with what result (pack.yaml `balance:`). Each game is kept as a line of "
        "OUT/games.jsonl: a run in the same OUT plays only the games not there. "
        "Needs the balance extra (matplotlib). A progress bar shows on stderr "
        "when it is a terminal.",
        lists_packs=True)
    command.add_argument("pack", metavar="PACK")
    command.add_argument("--bots", action="append", metavar="SPEC",
                         help="a pairing, seats comma-separated; repeat for several "
                         "(default: random for every side)")
    command.add_argument("--games", type=count, default=100, metavar="N",
                         help="games per pairing (default: 100)")
    command.add_argument("--seed", type=int, default=0, metavar="S")
    _add_workers(command)
    command.add_argument("--out", metavar="DIR", help="where the page, its plots and the "
                         "games go (default: balance-PACK in the current directory)")
    command.add_argument("--compare", metavar="OTHER_PACK_DIR",
                         help="play the same games on another version of the pack and show "
                         "both side by side, differences beyond chance highlighted")
    command.add_argument("--lang", type=language, default="en", metavar="CODE",
                         help="the language of the pack's names and sentences on the page "
                         "(default: en)")
    _add_progress(command)
    command.set_defaults(func=cmd_balance)


def _add_cards(commands: Subparsers) -> None:
    command = commands.add_parser(
        "cards", help="list a pack's records with their names",
        description="List records (type, id, number, name in a language), "
        "sorted by type, number and id. --json adds whether each record is "
        "named in the language ('named') and whether that name is derived "
        "from other records (pack.yaml names_from). --text adds each record's rules "
        "text (a card's event) in the language, under its line ('text' in --json).")
    command.add_argument("pack", metavar="PACK")
    command.add_argument("--text", action="store_true",
                         help="show each record's rules text (a card's event)")
    command.add_argument("--lang", type=language, default="en", metavar="CODE")
    command.add_argument("--type", metavar="TYPE", action="append",
                         help="only records of this type (repeat for several types)")
    command.add_argument("--json", action="store_true")
    command.set_defaults(func=cmd_cards)


def _add_explain(commands: Subparsers) -> None:
    command = commands.add_parser(
        "explain", help="one card (or any record): its fields, rules, texts and mentions",
        description="Show one record of a pack, a card most often: its fields, the rules "
        "text of its effects and where the procedures they call are written, its name and "
        "text in each of the pack's languages, and every line of the pack's rules files "
        "that names it.",
        epilog="example: engine explain messenger_intercepted --lang nl")
    command.add_argument("card", metavar="CARD",
                         help="the record's id, or its English name")
    command.add_argument("--pack", metavar="PACK",
                         help="the pack to look in (default: the shipped pack that has CARD)")
    command.add_argument("--lang", type=language, metavar="CODE",
                         help="only this language (default: each of the pack's languages)")
    command.add_argument("--json", action="store_true")
    command.set_defaults(func=cmd_explain)


def _add_eval(commands: Subparsers) -> None:
    command = commands.add_parser(
        "eval", help="evaluate one of a pack's values (tables, formulas)",
        description="Evaluate a `value` declaration of a pack on the state "
        "before setup (as `check`s see it) and print the result as JSON. Works "
        "on data packs too.",
        epilog="example: engine eval my_game 'attack_strength(3, north_gate)'")
    command.add_argument("pack", metavar="PACK")
    command.add_argument("expression", metavar="VALUE(ARGS)",
                         help="a value's name and literal arguments: numbers, \"text\", true, "
                         "false, none, [lists], record and side ids")
    command.set_defaults(func=cmd_eval)


def _add_terms(commands: Subparsers) -> None:
    command = commands.add_parser(
        "terms", help="print a pack's glossary of rules terms",
        description="The rules terms of a pack, in a language.")
    command.add_argument("pack", metavar="PACK")
    command.add_argument("--lang", type=language, default="en", metavar="CODE")
    command.add_argument("--json", action="store_true")
    command.set_defaults(func=cmd_terms)


def _add_schema(commands: Subparsers) -> None:
    command = commands.add_parser(
        "schema", help="print a JSON Schema: of the public format, or of a pack's records",
        description="Print a JSON Schema: with --api (draft 2020-12), of what the engine "
        "gives and takes: views, decisions, actions, log entries and saves "
        "(engine.core.api; docs/api.md explains every key); with --pack (draft-07), of the pack's "
        "record files, made from its types, for an editor's YAML language server "
        "(docs/language.md, \"Editors\").")
    which = command.add_mutually_exclusive_group()
    which.add_argument("--api", action="store_true",
                       help="the format of views, decisions, actions, log entries and saves")
    which.add_argument("--pack", metavar="PACK",
                       help="the record files of PACK (a shipped pack's name or a directory): "
                       "fields, types, enums and record ids")
    command.set_defaults(func=cmd_schema)


def _add_serve(commands: Subparsers) -> None:
    command = commands.add_parser(
        "serve", help="host games over HTTP and WebSockets, with a web page",
        description="Serve games to play in a browser (the page at /) or from "
        "any program (the JSON API under /api, see engine/frontends/serve/app.py). "
        "Every move is stored in a database before it is acknowledged, and "
        "games resume after a restart.")
    command.add_argument("--host", default="127.0.0.1", help="address to listen on "
                         "(default: 127.0.0.1, this machine only)")
    command.add_argument("--port", type=int, default=8000, help="default: 8000")
    command.add_argument("--db", metavar="PATH|URL",
                         help="where the games are kept: a SQLite file, or a PostgreSQL URL "
                         "(postgresql://user@host/dbname; needs pip install "
                         "'engine-dsl[postgres]')"
                         "; default: games.sqlite3 in your data folder")
    command.add_argument("--key", metavar="FILE",
                         help="the key that signs stored games, made on first start (default: "
                         "beside a SQLite file, as DB.key; in your data folder for PostgreSQL)")
    command.add_argument("--import-dir", metavar="DIR",
                         help="first bring in the games of an older server's folder of JSON files "
                         "(each replayed to check it); games already in the database are kept")
    command.add_argument("--allow-origin", action="append", metavar="ORIGIN",
                         help="let pages of ORIGIN (e.g. https://games.example.org) use the API, "
                         "besides the server's own page; repeatable")
    command.add_argument("--max-loaded", type=int, default=256, metavar="N",
                         help="games kept in memory at most; idle ones are unloaded, least "
                         "recently used first (default: 256)")
    command.add_argument("--max-open-games", type=int, default=10_000, metavar="N",
                         help="games not over that the server hosts at most; more are refused "
                         "(429) (default: 10000)")
    command.add_argument("--create-rate", default="20/60", metavar="N/SECONDS",
                         help="new games one client address may make: at most N in SECONDS "
                         "(default: 20/60)")
    command.add_argument("--pack", action="append", metavar="PACK",
                         help="offer this pack too (a directory: your own pack); repeatable")
    command.set_defaults(func=cmd_serve)
