"""The packs a command reads: loaded through the core's loader, a missing pack a usage error,
a broken one its diagnostics and exit code 1, and where each was read from said on stderr."""
from __future__ import annotations

from engine.frontends.cli.output import EXIT_PROBLEMS, ExitCode, UsageError, to_stderr

TYPE_CHECKING = False  # typing itself is not imported: `engine --help` stays light
if TYPE_CHECKING:
    from engine.core.loader import CompiledPack


def load(ref: str) -> CompiledPack:
    """A loaded pack; a missing pack is a usage error, a broken one prints diagnostics."""
    from engine.core.errors import PackError
    from engine.core.loader import load_pack
    try:
        return load_pack(ref)
    except FileNotFoundError as err:
        raise UsageError(str(err).strip("'\"")) from None
    except PackError as err:
        from engine.dsl.errors import render_text
        to_stderr(render_text(err.diagnostics))
        errors = sum(d.is_error for d in err.diagnostics)
        to_stderr(f"\npack '{ref}' has {errors} error{'s' * (errors != 1)}; "
                  f"see `engine validate {ref}`")
        raise ExitCode(EXIT_PROBLEMS) from None
    except (OSError, UnicodeError) as err:  # e.g. a file that is not UTF-8
        to_stderr(f"engine: cannot read pack '{ref}': {err}; see `engine validate {ref}`")
        raise ExitCode(EXIT_PROBLEMS) from None


def load_playable(ref: str) -> CompiledPack:
    """A loaded pack that can be played; a data pack (`playable: false`) is a usage error."""
    pack = load(ref)
    if not pack.playable:
        from engine.core.errors import data_pack_message
        raise UsageError(data_pack_message(pack.id, ref))
    return pack


def say_read_from(pack: CompiledPack) -> str:
    """Say on stderr which directory a pack was read from (a pack's name resolves to the
    checkout the current directory is in before the installed packs: see
    `engine.dsl.places.content_root`); returns that directory for --json."""
    where = str(pack.root.resolve())
    to_stderr(f"reading pack from {where}")
    return where
