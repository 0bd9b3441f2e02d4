"""The game server as an ASGI application (Starlette): the HTTP API and the WebSockets.

[`create_app`][] builds it over a database; ``ttr serve`` runs it with uvicorn. Every
error reaches the client as JSON (``{"error": ...}`` with a 4xx status, or an error
message on a WebSocket), never as a traceback.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from ttr_core.model.errors import TtrError
from ttr_core.server.bots import BOT_SECONDS, check_bot_seconds
from ttr_core.server.connection import CLOSE_ERROR, CLOSE_POLICY, Connection
from ttr_core.server.limits import CREATE_RATE_PER_SECOND, MAX_BODY_BYTES, ClientRateLimits
from ttr_core.server.pages import page_routes
from ttr_core.server.protocol import ProtocolError, parse_create, parse_json
from ttr_core.server.registry import GameRegistry
from ttr_core.server.storage import Store, StoreError, open_store
from ttr_core.server.views import SPECTATOR, seat_view, summary

log = logging.getLogger("ttr.server")

BOT_THREADS = 2
"""Worker threads the bots of all games think on."""


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


async def _body(request: Request) -> Any:
    """The request's JSON body, read up to the size limit.

    :raises HTTPException: 413 when it is larger than ``MAX_BODY_BYTES``.
    :raises ProtocolError: it is not JSON.
    """
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise HTTPException(413, f"the body is larger than {MAX_BODY_BYTES} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY_BYTES:
            raise HTTPException(413, f"the body is larger than {MAX_BODY_BYTES} bytes")
    return parse_json(bytes(data))


def _registry(request: Request | WebSocket) -> GameRegistry:
    registry: GameRegistry = request.app.state.registry
    return registry


async def create_game(request: Request) -> Response:
    """``POST /api/games``: set up a game; answer its id and the human seats' tokens."""
    limits: ClientRateLimits = request.app.state.create_limits
    address = request.client.host if request.client is not None else "unknown"
    retry = limits.retry_after(address, time.monotonic())
    if retry is not None:
        return JSONResponse(
            {"error": f"too many games created: at most {limits.rate:g} a second per client"},
            status_code=429,
            headers={"retry-after": str(retry)},
        )
    try:
        wanted = parse_create(await _body(request))
        live, tokens = await _registry(request).create(wanted)
    except (ProtocolError, TtrError) as exc:
        return _error(str(exc), 400)
    except StoreError as exc:
        log.error("a new game could not be saved: %s", exc)
        return _error("the game could not be saved; try again", 503)
    seats = [
        {"seat": s.seat, "name": s.name, **({"token": tokens[s.seat]} if s.seat in tokens else {})}
        for s in live.row.seats
    ]
    return JSONResponse({"id": live.id, "seats": seats}, status_code=201)


async def list_games(request: Request) -> Response:
    """``GET /api/games``: every game, with edition, players, status, whose turn, scores."""
    return JSONResponse({"games": [summary(row) for row in await _registry(request).rows()]})


async def _found(request: Request) -> Any:
    live = await _registry(request).get(request.path_params["game_id"])
    if live is None:
        raise HTTPException(404, f"no game {request.path_params['game_id']!r}")
    return live


async def show_game(request: Request) -> Response:
    """``GET /api/games/{id}``: the game's summary and its public (spectator) view."""
    live = await _found(request)
    return JSONResponse({**summary(live.row), "view": seat_view(live.game, SPECTATOR)})


async def game_record(request: Request) -> Response:
    """``GET /api/games/{id}/record``: the game so far as a record ``ttr replay`` checks."""
    live = await _found(request)
    return Response(
        live.game.save(),
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="{live.id}.json"'},
    )


async def game_socket(ws: WebSocket) -> None:
    """``/ws/games/{id}?token=...``: a seat's (or, without a token, a spectator's) socket."""
    await ws.accept()
    game_id = ws.path_params["game_id"]
    try:
        live = await _registry(ws).get(game_id)
    except Exception:
        log.exception("game %s cannot be loaded", game_id)
        live = None
    if live is None:
        await ws.send_json({"type": "error", "message": f"no game {game_id!r}"})
        await ws.close(code=CLOSE_POLICY)
        return
    token = ws.query_params.get("token")
    seat = SPECTATOR if token is None else live.seat_of(token)
    if seat is None:
        await ws.send_json({"type": "error", "message": "this token holds no seat of this game"})
        await ws.close(code=CLOSE_POLICY)
        return
    conn = Connection(ws, live, seat)
    live.listen(conn.push)  # before the first state, so that no change is missed
    try:
        await conn.push()
        await conn.serve()
    except Exception:
        log.exception("game %s: a connection failed", game_id)
        with contextlib.suppress(Exception):
            await conn.error("internal server error")
            await ws.close(code=CLOSE_ERROR)
    finally:
        live.unlisten(conn.push)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(str(exc.detail), exc.status_code)


async def _server_error(request: Request, exc: Exception) -> Response:
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return _error("internal server error", 500)


def create_app(
    db: str | Store,
    *,
    bot_seconds: float = BOT_SECONDS,
    create_rate: float = CREATE_RATE_PER_SECOND,
) -> Starlette:
    """The server over ``db``: a ``postgresql://`` URL or a SQLite file path (created on
    first start), or an open [`Store`][ttr_core.server.storage.Store] (then the caller
    closes it). On start every unfinished game is loaded and its bots play on.

    A bot move may take ``bot_seconds`` of thinking (then its seat plays the fallback
    bot); each client address may create ``create_rate`` games a second after a burst of
    ``CREATE_BURST`` (0: no limit).

    :raises ValueError: ``bot_seconds`` is not above zero, or ``create_rate`` is negative.
    """
    bot_seconds = check_bot_seconds(bot_seconds)
    create_limits = ClientRateLimits(create_rate)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = open_store(db) if isinstance(db, str) else db
        executor = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="ttr-bot")
        registry = GameRegistry(store, executor, bot_seconds)
        app.state.registry = registry
        app.state.create_limits = create_limits
        resumed = await registry.resume()
        log.info("resumed %d unfinished games", resumed)
        try:
            yield
        finally:
            await registry.stop()
            executor.shutdown(wait=True, cancel_futures=True)
            if isinstance(db, str):
                store.close()

    routes = [
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games/{game_id}", show_game, methods=["GET"]),
        Route("/api/games/{game_id}/record", game_record, methods=["GET"]),
        WebSocketRoute("/ws/games/{game_id}", game_socket),
        *page_routes(),
    ]
    return Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error, Exception: _server_error},
    )
