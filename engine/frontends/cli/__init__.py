"""The `engine` command: validate, format, play and simulate packs and report on their
balance; list names and terms; serve games. Written against the library API only.

- `entry`: `main`, `script` (the console script `engine`, pyproject.toml), and its exit
  codes;
- `parser`: the commands and their arguments; `help_layout`: how the help is laid out;
- `sources` (validate, fmt), `games` (play, simulate, balance), `info` (cards, terms, eval,
  schema), `explain`, `server` (serve), `editor` (lsp): the commands, each importing what
  it needs (the parser, YAML, the compiler, matplotlib, pygls) only when it runs, so that
  `engine --help` stays fast;
- `packs`: loading the packs a command reads; `output`: what it prints, and the exit codes.

Exit codes: 0 ok, 1 problems found (or a game fault), 2 usage errors.
"""
from engine.frontends.cli.entry import main
from engine.frontends.cli.output import EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, UsageError
from engine.frontends.cli.parser import build_parser

__all__ = ["EXIT_OK", "EXIT_PROBLEMS", "EXIT_USAGE", "UsageError", "build_parser", "main"]
