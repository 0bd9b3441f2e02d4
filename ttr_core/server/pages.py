"""The web table's routes: the page and its static files, the lobby's choices, each game's
board (map data the page labels its controls with) and its map drawn as SVG.

The map is drawn by the library's own renderer from the game's public position (claims and
stations), so the page draws nothing itself: it fetches the SVG again after a claim.
"""

from __future__ import annotations

import asyncio
from importlib import resources
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

import ttr_core as ttr
from ttr_core.bots.registry import installed_bots
from ttr_core.formats.render import PLAYER_COLORS, draw_map
from ttr_core.server.games import LiveGame
from ttr_core.server.registry import GameRegistry
from ttr_core.server.views import public_events

STATIC_DIR = resources.files("ttr_core.server") / "static"
"""The page's HTML, CSS and JavaScript, shipped as package data."""


def _static_path() -> str:
    return str(STATIC_DIR)


async def index(request: Request) -> Response:
    """``GET /``: the web table's single page (lobby and table)."""
    return FileResponse(str(STATIC_DIR / "index.html"), media_type="text/html")


async def lobby_choices(request: Request) -> Response:
    """``GET /api/lobby``: the editions (with their player counts) and the bots a new game
    may use."""
    editions = [
        {
            "id": ed.info.id,
            "name": ed.info.name,
            "min_players": ed.players[0],
            "max_players": ed.players[1],
        }
        for ed in ttr.installed_editions().values()
    ]
    return JSONResponse({"editions": editions, "bots": sorted(installed_bots())})


def board_json(game: ttr.Game) -> dict[str, Any]:
    """What the page needs to name a game's tracks, tickets and cities, and the seats'
    colours (the map's own, by seat)."""
    rs = game.ruleset
    routes = [
        {
            "id": r.id,
            "a": r.cities[0],
            "b": r.cities[1],
            "length": r.length,
            "color": r.color,
            "tunnel": r.tunnel,
            "ferry": r.ferry,
            "card_groups": r.card_groups,
        }
        for r in rs.map.routes
    ]
    tickets = [
        {
            "id": t.id,
            "a": t.a,
            "b": t.b,
            "targets": None if t.targets is None else dict(t.targets),
            "points": t.points,
        }
        for t in rs.map.tickets
    ]
    return {
        "edition": rs.id,
        "map": rs.map.name,
        "names": list(game.names),
        "colors": list(PLAYER_COLORS[: len(game.names)]),
        "routes": routes,
        "tickets": tickets,
        "cities": [c.id for c in rs.map.cities],
        "stations": rs.params.stations,
    }


async def game_board(request: Request) -> Response:
    """``GET /api/games/{id}/board``: the game's map data as the page uses it."""
    live = await _live(request)
    return JSONResponse(board_json(live.game))


async def game_events(request: Request) -> Response:
    """``GET /api/games/{id}/events?until=N``: the public events of the game's first ``N``
    actions (of every action without ``until``), as a spectator sees them."""
    live = await _live(request)
    taken = len(live.game.log)
    raw = request.query_params.get("until")
    until = taken
    if raw is not None:
        if not raw.isdigit() or int(raw) > taken:
            raise HTTPException(400, f"until: expected an integer from 0 to {taken}")
        until = int(raw)
    return JSONResponse({"events": public_events(live.game, until)})


async def game_map(request: Request) -> Response:
    """``GET /api/games/{id}/map.svg``: the map with the claims and stations so far, drawn
    by ``ttr_core.formats.render.draw_map`` (on a worker thread: it takes a few tens of
    milliseconds)."""
    live = await _live(request)
    game = live.game
    state, names = game.state, list(game.names)
    svg = await asyncio.to_thread(draw_map, game.ruleset, state=state, names=names)
    return Response(svg, media_type="image/svg+xml", headers={"cache-control": "no-store"})


async def _live(request: Request) -> LiveGame:
    """The game the path names; a 404 when there is none."""
    registry: GameRegistry = request.app.state.registry
    live = await registry.get(request.path_params["game_id"])
    if live is None:
        raise HTTPException(404, f"no game {request.path_params['game_id']!r}")
    return live


def page_routes() -> list[BaseRoute]:
    """The routes of the web table, added to the server's API routes."""
    return [
        Route("/", index, methods=["GET"]),
        Route("/api/lobby", lobby_choices, methods=["GET"]),
        Route("/api/games/{game_id}/board", game_board, methods=["GET"]),
        Route("/api/games/{game_id}/events", game_events, methods=["GET"]),
        Route("/api/games/{game_id}/map.svg", game_map, methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=_static_path()), name="static"),
    ]
