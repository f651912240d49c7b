"""The HTTP and WebSocket routes of `engine serve` (Starlette), over the library API.

    GET  /                          the reference web page (engine/web)
    GET  /api/packs                 the packs to play, with their sides' names
    POST /api/games                 {"pack", "seed"?, "bots"?: {side: kind}, "join"?: side}
    GET  /api/games/{id}            the screen and view of the token's side (none: spectator)
    POST /api/games/{id}/join       {"side"} -> {"token"}: the seat's secret token
    POST /api/games/{id}/act        {"decision": id, "action": value}, for the token's side
    WS   /api/games/{id}/ws?token=  the screen and view, pushed after every change

A token goes in the `Authorization: Bearer TOKEN` header (in the query for the WebSocket,
which browsers cannot give headers). `?lang=hu` chooses the language of the screen and of
the messages. A refused request gets a 4xx and `{"error": message, "rule": what refused
it}`, and changes nothing. Bots move in a worker thread, one game's moves under its lock,
so the server goes on answering while they think.
"""
from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import attrs
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from engine.errors import EngineError, IllegalAction
from engine.serve.present import screen, words
from engine.serve.tables import Refused, Table, Tables
from engine.translations import catalog

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
LANG = re.compile(r"[a-z]{2,3}(?:[-_][A-Za-z0-9]+)?")
MAX_BODY = 64 * 1024  # an action is small; a bigger body is refused unread
# the game moved on since the page asked: the page refreshes and asks again
LATE_RULES = ("stale", "side", "no-decision")


@attrs.define(eq=False)
class Socket:
    """An open WebSocket and what it is shown: `side`'s screen (None: a spectator's)."""
    ws: WebSocket
    side: str | None
    lang: str


def create_app(directory: str | Path, packs: list[Any] | None = None) -> Starlette:
    """The server's application, keeping its games in `directory`; `packs`: loaded packs
    to offer besides the shipped ones."""
    tables = Tables(directory, packs)

    def lang_of(request: Any, table: Table | None = None) -> str:
        lang = request.query_params.get("lang") or (table.lang if table else "en")
        if not LANG.fullmatch(lang):
            raise Refused(400, f"{lang!r} is not a language code like 'en' or 'hu'", "lang")
        return lang

    def token_of(request: Request) -> str | None:
        auth = request.headers.get("authorization")
        if auth is None:
            return None
        kind, _, token = auth.partition(" ")
        if kind.lower() != "bearer" or not token.strip():
            raise Refused(401, "give the seat token as 'Authorization: Bearer TOKEN'", "token")
        return token.strip()

    async def table_of(request: Any) -> Table:
        # reading a table back from disk loads its pack and its save: not in the event loop
        table = await asyncio.to_thread(tables.get, request.path_params["game"])
        wake_bots(table)  # after a restart, a bot whose turn it was plays on
        return table

    def payload(table: Table, side: str | None, lang: str) -> dict[str, Any]:
        """What a side is sent (under the table's lock): its screen and its view."""
        return {"screen": screen(table, side, lang), "view": table.game.view(side)}

    def pushes(table: Table) -> list[tuple[Socket, dict[str, Any]]]:
        """Every open socket of the table with what it is shown now (under the lock)."""
        made: dict[tuple[str | None, str], dict[str, Any]] = {}
        out = []
        for sock in list(table.sockets):
            key = (sock.side, sock.lang)
            if key not in made:
                made[key] = payload(table, sock.side, sock.lang)
            out.append((sock, made[key]))
        return out

    async def push(table: Table, sends: list[tuple[Socket, dict[str, Any]]]) -> None:
        for sock, data in sends:
            try:
                await sock.ws.send_json(data)
            except Exception:  # a socket that closed meanwhile: forget it
                table.sockets.discard(sock)

    def wake_bots(table: Table) -> None:
        if table.bot_to_move and (table.bot_task is None or table.bot_task.done()):
            table.bot_task = asyncio.get_running_loop().create_task(run_bots(table))

    def bot_move(table: Table, side: str) -> None:
        """One bot decision, in a worker thread (the caller holds the lock)."""
        decision = table.game.decision
        action = table.bot(side).choose(table.game, side)
        table.game.apply(action, side=side, decision=decision.id)
        tables.store(table)

    async def run_bots(table: Table) -> None:
        while True:
            async with table.lock:
                side = table.bot_to_move
                if side is None:
                    return
                try:
                    await asyncio.to_thread(bot_move, table, side)
                except EngineError as err:  # a fault in the pack: the game is unchanged
                    print(f"engine serve: game {table.id}: the {side} bot cannot move: {err}",
                          file=sys.stderr)
                    return
                sends = pushes(table)
            await push(table, sends)

    async def body_of(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > MAX_BODY:
            raise Refused(413, f"the request is larger than {MAX_BODY} bytes", "body")
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError) as err:
            raise Refused(400, f"the request's body is not JSON: {err}", "json") from None
        if not isinstance(data, dict):
            raise Refused(400, "the request's body is a JSON object", "json")
        return data

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

    async def packs(request: Request) -> JSONResponse:
        lang = lang_of(request)
        out = await asyncio.to_thread(pack_list, lang)
        return JSONResponse({"packs": out, "words": words(lang)})

    async def create(request: Request) -> JSONResponse:
        body = await body_of(request)
        lang = lang_of(request)
        side = body.get("join")
        table, token = await asyncio.to_thread(tables.create, body.get("pack"),
                                               body.get("seed"), body.get("bots"), lang, side)
        out: dict[str, Any] = {"game": table.id, "seats": table.seats}
        if token is not None:
            out.update(token=token, side=side)
        wake_bots(table)
        return JSONResponse(out, status_code=201)

    async def show(request: Request) -> JSONResponse:
        table = await table_of(request)
        lang = lang_of(request, table)
        async with table.lock:
            side = table.side_of(token_of(request))
            return JSONResponse(payload(table, side, lang))

    async def join(request: Request) -> JSONResponse:
        table = await table_of(request)
        body = await body_of(request)
        async with table.lock:
            token = tables.join(table, body.get("side"))
            sends = pushes(table)  # the others see the seat taken
        await push(table, sends)
        return JSONResponse({"token": token, "side": body.get("side")}, status_code=201)

    async def act(request: Request) -> JSONResponse:
        table = await table_of(request)
        lang = lang_of(request, table)
        body = await body_of(request)
        if "decision" not in body or "action" not in body:
            raise Refused(400, "send {\"decision\": the id of the decision you answer, "
                          "\"action\": your answer}", "json")
        async with table.lock:
            side = table.side_of(token_of(request))
            if side is None:
                raise Refused(401, "only a seated player acts: send your seat token "
                              "('Authorization: Bearer TOKEN'; join the game to get one)",
                              "token")
            try:
                table.game.apply(body["action"], side=side, decision=body["decision"])
            except IllegalAction as err:
                status = 409 if err.rule in LATE_RULES else 422
                raise Refused(status, err.text(lang), err.rule) from None
            tables.store(table)
            out = payload(table, side, lang)
            sends = pushes(table)
        await push(table, sends)
        wake_bots(table)
        return JSONResponse(out)

    async def socket(ws: WebSocket) -> None:
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
            await ws.send_json(first)
            while True:  # the page sends nothing: this waits for it to go
                await ws.receive_text()
        except WebSocketDisconnect:
            pass
        finally:
            table.sockets.discard(sock)

    async def refused(request: Request, err: Exception) -> JSONResponse:
        assert isinstance(err, Refused)
        return JSONResponse({"error": err.message, "rule": err.rule}, status_code=err.status)

    async def http_error(request: Request, err: Exception) -> JSONResponse:
        assert isinstance(err, HTTPException)
        return JSONResponse({"error": err.detail, "rule": "http"}, status_code=err.status_code)

    routes = [
        Route("/", index),
        Route("/api/packs", packs),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game}", show),
        Route("/api/games/{game}/join", join, methods=["POST"]),
        Route("/api/games/{game}/act", act, methods=["POST"]),
        WebSocketRoute("/api/games/{game}/ws", socket),
        Mount("/web", StaticFiles(directory=WEB_DIR), name="web"),
    ]
    app = Starlette(routes=routes, exception_handlers={Refused: refused,
                                                      HTTPException: http_error})
    app.state.tables = tables
    return app


def serve(host: str = "127.0.0.1", port: int = 8000, directory: str | Path = "games",
          packs: list[Any] | None = None) -> None:
    """Run the server until interrupted (uvicorn)."""
    import uvicorn
    uvicorn.run(create_app(directory, packs), host=host, port=port, log_level="info")
