"""`engine serve`: host games over HTTP and WebSockets (engine.frontends.serve), its limits
and database from the command line; the server's libraries imported only when it starts."""
from __future__ import annotations

import argparse

from engine.frontends.cli.output import EXIT_OK, EXIT_PROBLEMS, UsageError, to_stderr
from engine.frontends.cli.packs import load_playable, say_read_from


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
    packs = [load_playable(ref) for ref in args.pack or []]
    for pack in packs:
        say_read_from(pack)
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
            to_stderr(import_dir(app.state.tables, args.import_dir).summary(args.import_dir))
    except (StorageError, KeyFileError, FileNotFoundError) as err:
        to_stderr(f"engine serve: error: {err}")
        return EXIT_PROBLEMS
    to_stderr(f"engine serve: games in {db} ({app.state.tables.store.backend}); open "
              f"http://{args.host}:{args.port}/")
    serve(app, args.host, args.port)
    return EXIT_OK
