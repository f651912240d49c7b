"""`engine validate` (build packs, run their checks, check their translations) and `engine
fmt` (rewrite .rules files in the canonical layout): the commands on a pack's sources."""
from __future__ import annotations

import argparse

from engine.frontends.cli.output import (
    EXIT_OK,
    EXIT_PROBLEMS,
    UsageError,
    to_stderr,
    to_stdout,
)

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    from pathlib import Path


def cmd_validate(args: argparse.Namespace) -> int:
    from engine.core.validate import validate
    from engine.dsl.errors import render_json
    try:
        report = validate(args.paths or None, disagreements=args.disagreements,
                          strict=args.strict)
    except FileNotFoundError as err:
        raise UsageError(str(err)) from None
    if args.format == "json":
        to_stdout(render_json(report.diagnostics, **report.json_extra()))
        return EXIT_PROBLEMS if report.errors else EXIT_OK
    if args.quiet:  # errors only, then their count
        blocks = [d.render() for d in report.diagnostics if d.is_error]
        if blocks:
            to_stdout("\n\n".join(blocks))
            to_stdout()
            to_stdout(f"{report.errors} error{'s' * (report.errors != 1)}")
        return EXIT_PROBLEMS if report.errors else EXIT_OK
    to_stderr(f"reading packs from {', '.join(report.read_from)}")
    blocks = [d.render() for d in report.diagnostics]
    if blocks:
        to_stdout("\n\n".join(blocks))
        to_stdout()
    for message in report.messages:
        to_stdout(message)
    to_stdout(report.summary())
    return EXIT_PROBLEMS if report.errors else EXIT_OK


def rules_files(paths: list[str]) -> list[Path]:
    """The .rules files named, and those under the directories named, each once."""
    from pathlib import Path
    files = []
    for arg in paths:
        path = Path(arg)
        if path.is_dir():
            from engine.dsl.files import refused_file
            for found in sorted(path.rglob("*.rules")):
                refused = refused_file(found, path)  # fmt writes files: never one outside
                if refused is not None:              # the pack
                    raise UsageError(f"{refused.path}: {refused.message}")
                if found.is_file():
                    files.append(found)
        elif path.is_file():
            if path.suffix != ".rules":
                raise UsageError(f"'{arg}' is not a .rules file")
            files.append(path)
        else:
            raise UsageError(f"no such file or directory: '{arg}'")
    seen: set[Path] = set()
    once = []
    for file in files:
        if file.resolve() not in seen:
            seen.add(file.resolve())
            once.append(file)
    return once


def cmd_fmt(args: argparse.Namespace) -> int:
    files = rules_files(args.paths)
    try:
        from engine.dsl.formatter import format_source
    except ImportError as err:
        to_stderr(f"engine fmt: the formatter is not available ({err})")
        return EXIT_PROBLEMS
    from engine.dsl.errors import DslError, render_text
    changed = failed = 0
    for path in files:
        try:
            with open(path, encoding="utf-8", newline="") as fh:
                text = fh.read()
        except (OSError, UnicodeDecodeError) as err:
            to_stderr(f"{path}: cannot read: {err}")
            failed += 1
            continue
        try:
            new = format_source(text, str(path))
        except DslError as err:
            to_stderr(render_text(err.diagnostics))
            to_stderr("")
            failed += 1
            continue
        if new == text:
            continue
        changed += 1
        if args.check:
            to_stdout(str(path))
        else:
            with open(path, "w", encoding="utf-8", newline="") as fh:
                fh.write(new)
            to_stdout(f"reformatted {path}")
    unchanged = len(files) - changed - failed
    verb = "would be reformatted" if args.check else "reformatted"
    summary = f"{changed} file{'s' * (changed != 1)} {verb}, {unchanged} unchanged"
    if failed:
        summary += f", {failed} with errors"
    to_stderr(summary)
    if failed or (args.check and changed):
        return EXIT_PROBLEMS
    return EXIT_OK


def cmd_compile(args: argparse.Namespace) -> int:
    """`engine compile PACK...`: each pack's rules compiled to C, then said where; and
    whether the runtime is compiled too."""
    import time

    from engine.core.loader import compile_rules, compiled_path, runtime_compiled
    from engine.dsl.native import NativeError
    from engine.frontends.cli.packs import load_playable
    failed = 0
    for ref in args.packs:
        pack = load_playable(ref)
        kept = compiled_path(pack)
        if kept is not None and not args.force:
            to_stdout(f"{pack.id}: compiled already, at {kept} (--force compiles it again)")
            continue
        lines = pack.code.count("\n")
        to_stderr(f"{pack.id}: compiling its rules to C ({lines:,} lines of generated Python; "
                  "a big pack takes a few minutes) ...")
        start = time.perf_counter()
        try:
            done = compile_rules(pack)
        except NativeError as err:
            to_stderr(f"engine compile: {pack.id}: {err}")
            failed += 1
            continue
        to_stdout(f"{pack.id}: compiled in {time.perf_counter() - start:.0f} s, at {done}; "
                  "games load it from now on, until the pack's rules change")
    if runtime_compiled():
        to_stdout("the runtime is compiled to C too")
    else:
        to_stdout("the runtime runs as Python; to compile it as well, install with "
                  "ENGINE_COMPILE=1, e.g. ENGINE_COMPILE=1 pip install .")
    return EXIT_PROBLEMS if failed else EXIT_OK
