"""`engine serve`: games played over HTTP and WebSockets, and the reference web page.

`engine.serve.app.create_app(directory)` is the Starlette application (its routes are listed
there); `engine.serve.tables` keeps the games and their seats on disk; `engine.serve.present`
makes a side's screen as display-ready text for the page in engine/web. Needs the `serve`
extra: `pip install 'engine-dsl[serve]'`.
"""
