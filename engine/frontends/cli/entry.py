"""The `engine` command's entry point: parse the arguments, run the command, and turn how it
ended (a usage error, an exit code, Ctrl-C, a closed pipe) into the exit code."""
from __future__ import annotations

import os
import sys

from engine.frontends.cli.output import EXIT_PROBLEMS, EXIT_USAGE, ExitCode, UsageError, to_stderr
from engine.frontends.cli.parser import build_parser

# set by `main` for a command that leaves nothing to finish at exit (`quick_exit=True` in
# its parser defaults): then `script` skips the interpreter's teardown
_quick_exit = False


def script() -> None:
    """The console script (`engine`, `python -m engine`): `main`, then the exit. A command
    that leaves nothing to finish (no workers, threads, servers or files open) ends without
    Python's teardown, which frees every object one by one and collects them once more:
    ~0.07 s of a cold `engine validate` of 1 s, the objects of three built packs."""
    code = main()
    if _quick_exit:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):  # a closed pipe: reported by the usual way out
            sys.exit(code)
        os._exit(code)
    sys.exit(code)


def main(argv: list[str] | None = None) -> int:
    global _quick_exit
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    _quick_exit = bool(getattr(args, "quick_exit", False))
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
