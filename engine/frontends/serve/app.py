"""The HTTP and WebSocket routes of `engine serve` (Starlette), over the library API.

    GET  /                          the reference web page (engine/web)
    GET  /api/packs                 the packs to play, with their sides' names
    GET  /api/packs/{pack}/map      the pack's map to draw (`BoardMap`, docs/api.md)
    POST /api/games                 {"pack", "seed"?, "bots"?: {side: kind}, "join"?: side}
    GET  /api/games/{id}            the screen and view of the token's side (none: spectator)
                                    (?screen=0: the view alone, for programs)
    POST /api/games/{id}/join       {"side"} -> {"token"}: the seat's secret token
    POST /api/games/{id}/act        {"decision": id, "action": value}, for the token's side
    WS   /api/games/{id}/ws?token=  the screen and view, pushed after every change

A token goes in the `Authorization: Bearer TOKEN` header (in the query for the WebSocket,
which browsers cannot give headers). `?lang=hu` chooses the language of the screen and of
the messages. A refused request gets a 4xx (503 when the database failed, with
`Retry-After`) and `{"error": message, "rule": what refused it}`, and changes nothing.

Every action names the decision it answers, and is acknowledged (200) only once it is
stored: the same answer sent again (a reply lost on the way) is answered 200 with
`"repeated": true` and made once. A move is applied and stored in the event loop itself:
it takes well under a millisecond for the shipped packs (one small row), and a hop to a
worker thread and back cost more than that under load (the threads take turns with the
loop for the GIL). Reading a game from the database, building a pack and a bot's thinking
run in worker threads. POSTs are `application/json` and come from no page but
the server's own (or an `allow_origins` one), and so do WebSockets. What a side is shown is
made once per change and kept as JSON text (`Table.screens`). One game's moves are
made under its lock, so a bot that thinks holds up no other game.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import attrs
import msgspec
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine.core.errors import EngineError, IllegalAction
from engine.frontends.serve.limits import RateLimit, retry_after
from engine.frontends.serve.present import screen, words
from engine.frontends.serve.signing import load_or_make_key
from engine.frontends.serve.store import Store, is_postgres, open_store
from engine.frontends.serve.table import PERSON, Refused, Table
from engine.frontends.serve.tables import ServerLimits, Tables
from engine.i18n.translations import catalog

WEB_DIR = Path(__file__).resolve().parent / "web"
LANG = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]+)*")
MAX_LANG = 35  # the longest language tag worth a catalogue (RFC 5646 suggests 35)
MAX_BODY = 64 * 1024  # an action is small; a bigger body is refused unread
MAX_DEPTH = 32  # nesting of a request's JSON: an action is a value or a list of values
# the game moved on since the page asked: the page refreshes and asks again
LATE_RULES = ("stale", "side", "no-decision")


@attrs.define(eq=False)
class Socket:
    """An open WebSocket and what it is shown: `side`'s screen (None: a spectator's)."""
    ws: WebSocket
    side: str | None
    lang: str


def default_key_path(db: str | Path) -> Path:
    """Where the server key of database `db` is kept: beside a SQLite file; for
    PostgreSQL, in the user's data folder."""
    if is_postgres(str(db)):
        from engine.frontends.serve.paths import data_dir
        return data_dir() / "server.key"
    return Path(f"{db}.key")


def create_app(db: str | Path | Store, packs: list[Any] | None = None, *,
               key: bytes | str | Path | None = None, limits: ServerLimits | None = None,
               allow_origins: tuple[str, ...] = ()) -> Starlette:
    """The server's application, keeping its games in `db` (a SQLite file's path, a
    PostgreSQL URL or an open Store); `packs`: loaded packs to offer besides the shipped
    ones; `key`: the signing key, or the path of its file (default: beside the database,
    made on first start); `allow_origins`: pages of other origins that may use the API
    (e.g. "https://games.example.org")."""
    store = db if isinstance(db, Store) else open_store(db)
    if not isinstance(key, bytes):
        key = load_or_make_key(key if key is not None else default_key_path(store.url))
    tables = Tables(store, key, packs, limits)
    creations = RateLimit(tables.limits.create_rate)
    allowed = frozenset(o.rstrip("/").lower() for o in allow_origins)

    def lang_of(request: Any, table: Table | None = None) -> str:
        lang = request.query_params.get("lang") or (table.lang if table else "en")
        if len(lang) > MAX_LANG or not LANG.fullmatch(lang):
            raise Refused(400, f"{lang[:40]!r} is not a language code like 'en' or 'hu'",
                          "lang")
        return lang

    def token_of(request: Request) -> str | None:
        auth = request.headers.get("authorization")
        if auth is None:
            return None
        kind, _, token = auth.partition(" ")
        if kind.lower() != "bearer" or not token.strip():
            raise Refused(401, "give the seat token as 'Authorization: Bearer TOKEN'", "token")
        return token.strip()

    def check_origin(conn: Any) -> None:
        """Refuse a browser's request from a page of another site. Browsers send `Origin`
        with every POST and WebSocket; a program that sends none is no page."""
        origin = conn.headers.get("origin")
        if origin is None:
            return
        host = (conn.headers.get("host") or "").lower()
        parts = urlsplit(origin)
        if origin.rstrip("/").lower() in allowed or (
                parts.scheme in ("http", "https") and parts.netloc.lower() == host):
            return
        raise Refused(403, f"requests from pages of {origin[:100]} are not accepted here "
                      "(the server can be started with --allow-origin for them)", "origin")

    async def table_of(request: Any) -> Table:
        table = tables.loaded(request.path_params["game"])
        if table is None:
            # reading a table from the database loads its pack and its save: not in the
            # event loop
            table = await asyncio.to_thread(tables.get, request.path_params["game"])
        wake_bots(table)  # after a restart, a bot whose turn it was plays on
        return table

    def payload(table: Table, side: str | None, lang: str | None) -> str:
        """What a side is sent (under the table's lock): its screen in `lang` and its view,
        or (lang None) its view alone, as JSON text made once per change of the game."""
        text = table.screens.get((side, lang))
        if text is None:
            data = {"view": table.game.view(side)}
            if lang is not None:
                data["screen"] = screen(table, side, lang)
            text = table.screens[(side, lang)] = to_json(data)
        return text

    def shown_lang(request: Request, lang: str) -> str | None:
        """The screen's language (`lang`), or None when the client asks for the view
        alone (`?screen=0`: a program that draws its own board, or none)."""
        return None if request.query_params.get("screen") == "0" else lang

    def pushes(table: Table) -> list[tuple[Socket, str]]:
        """Every open socket of the table with what it is shown now (under the lock)."""
        return [(sock, payload(table, sock.side, sock.lang)) for sock in list(table.sockets)]

    async def push(table: Table, sends: list[tuple[Socket, str]]) -> None:
        for sock, text in sends:
            try:
                await sock.ws.send_text(text)
            except Exception:  # a socket that closed meanwhile: forget it
                table.sockets.discard(sock)

    def wake_bots(table: Table) -> None:
        if table.bot_to_move and (table.bot_task is None or table.bot_task.done()):
            table.bot_task = asyncio.get_running_loop().create_task(run_bots(table))

    def bot_choice(table: Table, side: str) -> Any:
        """What the bot in `side`'s seat answers, thought out in a worker thread (the
        caller holds the lock)."""
        return table.bot(side).choose(table.game, side)

    async def run_bots(table: Table) -> None:
        while True:
            async with table.lock:
                side = table.bot_to_move
                if side is None:
                    return
                pending = table.game.decision
                # a bot to move is the decider of the decision the game waits for
                assert pending is not None
                decision = pending.id
                try:
                    action = await asyncio.to_thread(bot_choice, table, side)
                    tables.play(table, action, side, decision, table.seats[side])
                except (EngineError, Refused) as err:  # the game is unchanged
                    print(f"engine serve: game {table.id}: the {side} bot cannot move: {err}",
                          file=sys.stderr)
                    return
                sends = pushes(table)
            await push(table, sends)

    async def body_of(request: Request) -> dict[str, Any]:
        check_origin(request)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise Refused(415, "send the request's body as JSON, with 'Content-Type: "
                          "application/json'", "json")
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_BODY:
            raise Refused(413, f"the request is larger than {MAX_BODY} bytes", "body")
        raw = bytearray()
        async for chunk in request.stream():  # counted as it comes: never read past
            raw += chunk
            if len(raw) > MAX_BODY:
                raise Refused(413, f"the request is larger than {MAX_BODY} bytes", "body")
        try:
            data = json.loads(bytes(raw) or b"{}")
        except RecursionError:
            raise Refused(400, f"the request's JSON is nested more than {MAX_DEPTH} deep",
                          "json") from None
        except (ValueError, UnicodeDecodeError) as err:
            raise Refused(400, f"the request's body is not JSON: {err}", "json") from None
        if not isinstance(data, dict):
            raise Refused(400, "the request's body is a JSON object", "json")
        if nested_deeper(data, MAX_DEPTH):
            raise Refused(400, f"the request's JSON is nested more than {MAX_DEPTH} deep",
                          "json")
        return data

    def json_text(text: str, status: int = 200) -> Response:
        return Response(text, status_code=status, media_type="application/json")

    # ---- routes --------------------------------------------------------------------------
    async def index(request: Request) -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    def pack_list(lang: str) -> list[dict[str, Any]]:
        out = []
        for ref in tables.playable():
            pack = tables.pack(ref)  # built once (a pack not in the build cache: seconds)
            cat = catalog(pack, lang)
            out.append({"pack": ref, "name": pack.name,
                        "sides": [{"side": s, "name": cat.value(s)} for s in pack.sides]})
        return out

    async def list_packs(request: Request) -> JSONResponse:
        lang = lang_of(request)
        out = await asyncio.to_thread(pack_list, lang)
        return JSONResponse({"packs": out, "words": words(lang)})

    async def pack_map(request: Request) -> JSONResponse:
        """A pack's map to draw (`pack.board_map(lang)`, the same for all its games): 404
        for a pack not played here or one without a map."""
        lang = lang_of(request)
        pack = await asyncio.to_thread(tables.pack, request.path_params["pack"])
        the_map = pack.board_map(lang)
        if the_map is None:
            raise Refused(404, f"{pack.name} has no map", "pack")
        return JSONResponse(the_map)

    async def create(request: Request) -> JSONResponse:
        body = await body_of(request)
        lang = lang_of(request)
        wait = creations.take(request.client.host if request.client else "")
        if wait is not None:
            raise Refused(429, f"too many new games from here: at most "
                          f"{creations.rate.count} in {creations.rate.seconds:g} seconds",
                          "limit", {"Retry-After": retry_after(wait)})
        side = body.get("join")
        if not tables.has_pack(body.get("pack")):  # built once, in seconds: not in the loop
            await asyncio.to_thread(tables.pack, body.get("pack"))
        table, token = tables.create(body.get("pack"), body.get("seed"), body.get("bots"),
                                     lang, side)
        out: dict[str, Any] = {"game": table.id, "seats": table.seats}
        if token is not None:
            out.update(token=token, side=side)
        wake_bots(table)
        return JSONResponse(out, status_code=201)

    async def show(request: Request) -> Response:
        table = await table_of(request)
        lang = shown_lang(request, lang_of(request, table))
        side = table.side_of(token_of(request))
        text = table.screens.get((side, lang))  # made since the last change: no lock needed
        if text is None:
            async with table.lock:
                text = payload(table, side, lang)
        return json_text(text)

    async def join(request: Request) -> JSONResponse:
        table = await table_of(request)
        body = await body_of(request)
        async with table.lock:
            token = tables.join(table, body.get("side"))
            sends = pushes(table)  # the others see the seat taken
        await push(table, sends)
        return JSONResponse({"token": token, "side": body.get("side")}, status_code=201)

    async def act(request: Request) -> Response:
        table = await table_of(request)
        lang = lang_of(request, table)
        shown = shown_lang(request, lang)
        body = await body_of(request)
        if "action" not in body:  # (the decision's id is checked by Tables.play)
            raise Refused(400, "send {\"decision\": the id of the decision you answer, "
                          "\"action\": your answer}", "json")
        async with table.lock:
            side = table.side_of(token_of(request))
            if side is None:
                raise Refused(401, "only a seated player acts: send your seat token "
                              "('Authorization: Bearer TOKEN'; join the game to get one)",
                              "token")
            try:
                made = tables.play(table, body["action"], side, body.get("decision"), PERSON)
            except IllegalAction as err:
                status = 409 if err.rule in LATE_RULES else 422
                raise Refused(status, err.text(lang), err.rule) from None
            out = payload(table, side, shown)
            sends = pushes(table) if made else []
        await push(table, sends)
        wake_bots(table)
        return json_text(out if made else out[:-1] + ',"repeated":true}')

    async def socket(ws: WebSocket) -> None:
        try:
            check_origin(ws)
        except Refused:
            await ws.close(code=1008)  # before the handshake: the page gets a 403
            return
        await ws.accept()
        try:
            table = await table_of(ws)
            lang = lang_of(ws, table)
            async with table.lock:
                side = table.side_of(ws.query_params.get("token") or None)
                sock = Socket(ws, side, lang)
                table.sockets.add(sock)
                first = payload(table, side, lang)
        except Refused as err:
            await ws.send_json({"error": err.message, "rule": err.rule})
            await ws.close(code=4000 + err.status, reason=err.message[:120])
            return
        try:
            await ws.send_text(first)
            while True:  # the page sends nothing: this waits for it to go
                await ws.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            table.sockets.discard(sock)

    async def refused(request: Request, err: Exception) -> JSONResponse:
        assert isinstance(err, Refused)
        return JSONResponse({"error": err.message, "rule": err.rule}, status_code=err.status,
                            headers=err.headers)

    async def http_error(request: Request, err: Exception) -> JSONResponse:
        assert isinstance(err, HTTPException)
        return JSONResponse({"error": err.detail, "rule": "http"}, status_code=err.status_code)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        store.close()

    routes = [
        Route("/", index),
        Route("/api/packs", list_packs),
        Route("/api/packs/{pack}/map", pack_map),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game}", show),
        Route("/api/games/{game}/join", join, methods=["POST"]),
        Route("/api/games/{game}/act", act, methods=["POST"]),
        WebSocketRoute("/api/games/{game}/ws", socket),
        Mount("/web", StaticFiles(directory=WEB_DIR), name="web"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={Refused: refused, HTTPException: http_error})
    app.state.tables = tables
    return app


def to_json(data: Any) -> str:
    """JSON text of what a side is sent: msgspec's writer (the saves' own serialiser, a few
    times faster than json on a view with its log), or json for a value msgspec does not
    write."""
    try:
        return msgspec.json.encode(data).decode("utf-8")
    except (TypeError, OverflowError):
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def nested_deeper(value: Any, limit: int) -> bool:
    """Whether JSON data nests lists and objects more than `limit` deep (without
    recursion: the data came from a client)."""
    todo = [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            todo.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict)
                                                 else item))
    return False


def serve(app: Starlette, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Run the server until interrupted (uvicorn)."""
    import uvicorn
    uvicorn.run(app, host=host, port=port, log_level="info")
