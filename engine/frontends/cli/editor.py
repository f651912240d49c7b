"""`engine lsp`: the language server for editors (engine.frontends.lsp), over stdio."""
from __future__ import annotations

import argparse

from engine.frontends.cli.help_layout import installed_version
from engine.frontends.cli.output import EXIT_OK, EXIT_PROBLEMS, to_stderr


def cmd_lsp(args: argparse.Namespace) -> int:
    try:  # pygls is the `lsp` extra: imported here only, so that `engine --help` stays fast
        from engine.frontends.lsp.server import serve_stdio
    except ImportError as err:
        to_stderr(f"engine lsp: the language server needs pygls ({err}): "
                  "pip install 'engine-dsl[lsp]'")
        return EXIT_PROBLEMS
    serve_stdio(installed_version())
    return EXIT_OK
