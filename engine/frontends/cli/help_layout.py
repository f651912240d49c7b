"""How the `engine` command's help is laid out and what it costs: argparse's layout at the
terminal's width without the imports argparse makes for it, the shipped packs listed after a
command's help only when it is printed, and `--version` read only when asked."""
from __future__ import annotations

import argparse
import sys

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


class Formatter(argparse.HelpFormatter):
    """argparse's layout, given the terminal's width as `shutil.get_terminal_size` finds it
    (COLUMNS, else the terminal, else 80): argparse would import shutil for it, which with
    the compression modules it imports was a tenth of `engine --help`'s start-up."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None:
            width = terminal_columns() - 2  # (as argparse leaves two columns free)
        super().__init__(prog, indent_increment, max_help_position, width)


def terminal_columns() -> int:
    import os
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    stdout = sys.__stdout__  # None when Python runs without one
    if columns <= 0 and stdout is not None:
        try:
            columns = os.get_terminal_size(stdout.fileno()).columns
        except (AttributeError, ValueError, OSError):  # not a terminal, or a closed one
            columns = 0
    return columns if columns > 0 else 80


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose help may end with the shipped packs to play, listed only
    when the help is printed (reading them needs the YAML loader, which `engine --help`
    avoids)."""

    def __init__(self, *args: Any, lists_packs: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)
        self.lists_packs = lists_packs

    def format_help(self) -> str:
        text = super().format_help()
        return text + "\n" + shipped_pack_list() + "\n" if self.lists_packs else text


def shipped_pack_list() -> str:
    """The shipped packs to play, then the data packs (which cannot be played)."""
    from engine.dsl.places import shipped_packs
    games, data = shipped_packs()
    out = f"shipped packs to play: {', '.join(games) or 'none'}"
    if data:
        out += (f"\ndata packs (records and checks, no rules to play yet; see `engine cards "
                f"PACK`): {', '.join(data)}")
    return out


def installed_version() -> str:
    """This package's installed version (read from its metadata: no heavy imports)."""
    from importlib.metadata import PackageNotFoundError, version

    from engine import DIST_NAME
    try:
        return version(DIST_NAME)
    except PackageNotFoundError:
        return "unknown (not installed)"


class VersionAction(argparse.Action):
    """`--version`: reads the installed version only when asked (importlib.metadata costs
    about a fifth of `engine --help`'s start-up)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: Any = argparse.SUPPRESS,
                 help: str = "show the program's version number and exit") -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: str | Sequence[Any] | None, option_string: str | None = None) -> None:
        parser._print_message(f"{parser.prog} {installed_version()}\n", sys.stdout)
        parser.exit()
