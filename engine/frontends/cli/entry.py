"""The `engine` command's entry point: parse the arguments, run the command, and turn how it
ended (a usage error, an exit code, Ctrl-C, a closed pipe) into the exit code."""
from __future__ import annotations

import sys

from engine.frontends.cli.output import EXIT_PROBLEMS, EXIT_USAGE, ExitCode, UsageError, to_stderr
from engine.frontends.cli.parser import build_parser


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
        code: int = args.func(args)
        return code
    except UsageError as err:
        to_stderr(f"engine {args.command}: error: {err}")
        return EXIT_USAGE
    except ExitCode as ex:
        return ex.code
    except KeyboardInterrupt:
        to_stderr("interrupted")
        return 130
    except BrokenPipeError:
        import os
        try:  # keep Python from complaining when stdout is closed early (`| head`)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except OSError:
            pass
        return EXIT_PROBLEMS
