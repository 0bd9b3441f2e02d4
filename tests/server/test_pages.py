"""The web table's routes: the page and its files, the lobby's choices, a game's board,
events and map, and what the state messages carry for the table."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from importlib import resources

from conftest import HUMAN_AND_BOT, TWO_HUMANS, new_game
from starlette.testclient import TestClient

import ttr_core as ttr
from ttr_core.bots.registry import installed_bots
from ttr_core.server.views import final_sheet, ticket_progress

STATIC = resources.files("ttr_core.server") / "static"


def test_the_page_is_served_at_the_root_with_its_scripts_and_styles(client: TestClient) -> None:
    """``GET /`` is the table's HTML; every file it names is served from /static."""
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    named = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert "/static/main.js" in named and "/static/style.css" in named
    for path in named:
        assert client.get(path).status_code == 200, path


def test_every_module_the_scripts_import_is_shipped() -> None:
    """Each ``import ... from "./x.js"`` of the page's scripts names a file of the package."""
    files = {f.name for f in STATIC.iterdir()}
    for name in files:
        if name.endswith(".js"):
            for imported in re.findall(r'from "\./([^"]+)"', (STATIC / name).read_text()):
                assert imported in files, f"{name} imports the missing {imported}"


def test_the_page_fetches_nothing_from_outside_the_server() -> None:
    """No file of the page names another host (no CDN, no web font)."""
    for f in STATIC.iterdir():
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}/", text), f.name


def test_the_lobby_choices_are_the_installed_editions_and_bots(client: TestClient) -> None:
    """``GET /api/lobby``: every installed edition with its player counts, every bot."""
    choices = client.get("/api/lobby").json()
    editions = {e["id"]: (e["min_players"], e["max_players"]) for e in choices["editions"]}
    assert editions == {i: ed.players for i, ed in ttr.installed_editions().items()}
    assert choices["bots"] == sorted(installed_bots())


def test_a_board_names_the_tracks_tickets_and_cities_of_the_game(client: TestClient) -> None:
    """``GET /api/games/{id}/board``: the map's tracks, tickets and cities, the names."""
    created = new_game(client, TWO_HUMANS)
    board = client.get(f"/api/games/{created['id']}/board").json()
    rs = ttr.ruleset_for("usa")
    assert [r["id"] for r in board["routes"]] == [r.id for r in rs.map.routes]
    assert [t["id"] for t in board["tickets"]] == [t.id for t in rs.map.tickets]
    assert board["cities"] == [c.id for c in rs.map.cities]
    assert board["names"] == ["Ann", "Bob"] and len(board["colors"]) == 2


def test_an_unknown_game_has_no_board_map_or_events(client: TestClient) -> None:
    """The table's game routes answer 404 with an error for an id of no game."""
    for tail in ("board", "map.svg", "events"):
        response = client.get(f"/api/games/nosuchgame/{tail}")
        assert response.status_code == 404 and "nosuchgame" in response.json()["error"]


def _claim_first_route(client: TestClient, created: dict[str, object]) -> int:
    """Play seat 0 of a two-human game until it has claimed a track; that track's id."""
    seats = created["seats"]
    assert isinstance(seats, list)
    base = f"/ws/games/{created['id']}?token="
    with (
        client.websocket_connect(base + seats[0]["token"]) as ws0,
        client.websocket_connect(base + seats[1]["token"]) as ws1,
    ):
        sockets, states = [ws0, ws1], [ws0.receive_json(), ws1.receive_json()]
        while True:
            seat = states[0]["view"]["current"]
            legal = states[seat]["legal"]
            claims = [i for i, a in enumerate(legal) if a["tag"] == "claim_route"]
            pick = claims[0] if claims and seat == 0 else 0
            sockets[seat].send_json({"type": "action", "index": pick})
            states = [ws0.receive_json(), ws1.receive_json()]
            if pick and claims:
                route: int = legal[pick]["route"]
                return route


def test_the_map_shows_each_claim_in_its_owners_colour(client: TestClient) -> None:
    """``GET /api/games/{id}/map.svg`` is the library's drawing of the game so far: every
    track a ``route-<id>`` group, a claimed one with ``data-owner``."""
    created = new_game(client, TWO_HUMANS)
    url = f"/api/games/{created['id']}/map.svg"
    before = ET.fromstring(client.get(url).content)
    groups = [g for g in before.iter() if g.get("class", "").split(" ")[0] == "route"]
    assert len(groups) == len(ttr.ruleset_for("usa").map.routes)
    assert all(g.get("data-owner") is None for g in groups)
    route = _claim_first_route(client, created)
    response = client.get(url)
    assert response.headers["content-type"].startswith("image/svg+xml")
    owners = {
        g.get("id"): g.get("data-owner")
        for g in ET.fromstring(response.content).iter()
        if g.get("data-owner") is not None and g.get("id", "").startswith("route-")
    }
    assert owners == {f"route-{route}": "0"}


def test_the_public_events_hide_every_secret_and_stop_where_asked(client: TestClient) -> None:
    """``GET /api/games/{id}/events?until=N``: the spectators' events of the first N
    actions; a bad ``until`` is a 400."""
    created = new_game(client, HUMAN_AND_BOT)
    seat = created["seats"][0]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={seat['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "index": 0})
        state = ws.receive_json()
        while not state["legal"]:
            state = ws.receive_json()
    url = f"/api/games/{created['id']}/events"
    events = client.get(url).json()["events"]
    kept = [e for e in events if e["tag"] == "tickets_kept"]
    assert len(kept) == 2 and all(set(e["kept"]) == {-1} for e in kept)
    assert client.get(url + "?until=0").json()["events"] == []
    assert client.get(url + f"?until={state['actions']}").json()["events"] == events
    for bad in ("-1", "x", str(state["actions"] + 1)):
        response = client.get(f"{url}?until={bad}")
        assert response.status_code == 400 and "until" in response.json()["error"]


def test_a_state_carries_the_action_count_and_the_seats_ticket_progress(
    client: TestClient,
) -> None:
    """The state message holds ``actions`` and, per kept ticket, whether it is joined; a
    spectator gets no progress; ``final`` is null while the game goes on."""
    created = new_game(client, TWO_HUMANS)
    ann = created["seats"][0]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        first = ws.receive_json()
        ws.send_json({"type": "action", "index": 0})
        kept = ws.receive_json()
    assert first["actions"] == 0 and first["progress"] == [] and first["final"] is None
    assert kept["actions"] == 1
    assert [p["ticket"] for p in kept["progress"]] == kept["view"]["tickets"]
    assert not any(p["completed"] for p in kept["progress"])
    with client.websocket_connect(f"/ws/games/{created['id']}") as ws:
        watched = ws.receive_json()
    assert watched["progress"] == [] and watched["actions"] == 1


def test_the_final_sheet_is_the_library_scoring_with_the_winners_seats() -> None:
    """Once a game is over, ``final`` is its score sheet as ``ttr score`` writes it (totals,
    tickets completed and failed, longest path, bonuses) plus the winners' seats; progress
    agrees with the sheet's tickets."""
    game = ttr.Game.new("usa", ["Ann", "Bob"], seed=3)
    assert final_sheet(game) is None
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    sheet = final_sheet(game)
    scores = game.scores()
    assert sheet is not None
    assert [p["total"] for p in sheet["players"]] == [p.total for p in scores.players]
    assert sheet["winner_seats"] == list(scores.winners)
    for seat, player in enumerate(sheet["players"]):
        assert {"route_points", "tickets", "longest_path", "bonuses"} <= set(player)
        done = {t["id"]: t["completed"] for t in player["tickets"]}
        assert {p["ticket"]: p["completed"] for p in ticket_progress(game, seat)} == done
