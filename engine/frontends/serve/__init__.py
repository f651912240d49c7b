"""`engine serve`: games played over HTTP and WebSockets, and the reference web page.

- `engine.frontends.serve.app`: the Starlette application (`create_app`; its routes are listed
  there).
- `engine.frontends.serve.tables`: the hosted games in memory, each move made and stored as one;
  `engine.frontends.serve.table`: one of them, its seats and its signed row.
- `engine.frontends.serve.store`: the database (SQLite or PostgreSQL): games, moves, schema
  version; `engine.frontends.serve.connections`: the two databases' connections.
- `engine.frontends.serve.signing`: the server key and the signatures of stored games.
- `engine.frontends.serve.limits`: rates and caps on what anonymous clients may make.
- `engine.frontends.serve.migrate`: games of an older server's folder of JSON files, imported.
- `engine.frontends.serve.present`: a side's screen as display-ready text for the page in
  engine/frontends/serve/web.
- `engine.frontends.serve.paths`: where the database and key are kept by default.

Needs the `serve` extra: `pip install 'engine-dsl[serve]'` (`[postgres]` for PostgreSQL).
"""
