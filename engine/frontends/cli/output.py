"""What the `engine` command prints and how a command ends: lines on stdout and stderr, JSON,
the exit codes, and the exceptions that end a command with one of them.

Exit codes: 0 ok, 1 problems found (or a game fault), 2 usage errors.
"""
from __future__ import annotations

import sys

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A bad argument: reported on one line, exit code 2."""


class ExitCode(Exception):
    """Ends a command with `code`, what went wrong already printed."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def to_stdout(text: str = "") -> None:
    print(text)


def to_stderr(text: str) -> None:
    print(text, file=sys.stderr)


def dump(data: object, pretty: bool = True) -> str:
    """`data` as JSON: indented for people, or on one line."""
    import json
    return json.dumps(data, indent=2 if pretty else None, ensure_ascii=False, default=str)
