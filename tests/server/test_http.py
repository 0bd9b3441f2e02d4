"""The HTTP API: creating, listing and showing games, records, and every kind of bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import HUMAN_AND_BOT, TWO_HUMANS, new_game
from starlette.testclient import TestClient

import ttr_core as ttr
from ttr_core.cli import main
from ttr_core.server import create_app
from ttr_core.server.limits import MAX_BODY_BYTES


def test_create_answers_id_and_tokens_for_human_seats_only(client: TestClient) -> None:
    """Each human seat gets a token; a bot seat gets none."""
    created = new_game(client, HUMAN_AND_BOT)
    assert isinstance(created["id"], str)
    ann, bot = created["seats"]
    assert (ann["seat"], ann["name"], bot["seat"], bot["name"]) == (0, "Ann", 1, "Bot")
    assert len(ann["token"]) >= 43 and "token" not in bot


def test_games_are_listed_with_players_status_and_turn(client: TestClient) -> None:
    """``GET /api/games`` lists edition, players (with bots), status and whose turn."""
    created = new_game(client, TWO_HUMANS)
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [created["id"]]
    game = listed[0]
    assert game["edition"] == "usa" and game["status"] == "playing" and game["current"] == 0
    assert game["players"] == [
        {"seat": 0, "name": "Ann", "bot": None},
        {"seat": 1, "name": "Bob", "bot": None},
    ]
    assert game["scores"] is None and game["actions"] == 0


def test_a_game_shows_the_public_view_only(client: TestClient) -> None:
    """``GET /api/games/{id}`` shows no hand, no tickets and no offer of any seat."""
    created = new_game(client, TWO_HUMANS)
    shown = client.get(f"/api/games/{created['id']}").json()
    view = shown["view"]
    assert view["seat"] == -1 and view["hand"] == {} and view["tickets"] == []
    assert view["offered"] == [] and view["phase"] == "opening_tickets"
    assert [p["hand_size"] for p in view["players"]] == [4, 4]
    assert shown["status"] == "playing"


def test_the_record_replays_at_any_moment(client: TestClient, tmp_path: Path) -> None:
    """The record of a fresh game, and of one some actions in, loads and ``ttr replay``s."""
    created = new_game(client, TWO_HUMANS)
    record = client.get(f"/api/games/{created['id']}/record")
    assert record.status_code == 200 and record.headers["content-type"] == "application/json"
    game = ttr.Game.load(record.text)
    assert len(game.log) == 0 and game.names == ("Ann", "Bob") and game.seed == 7
    path = tmp_path / "game.json"
    path.write_text(record.text)
    assert main(["replay", str(path)]) == 0


def test_a_game_without_a_seed_gets_one(client: TestClient) -> None:
    """Without a seed, the server picks one, and the record holds it."""
    created = new_game(client, {"edition": "usa", "players": [{"name": "A"}, {"name": "B"}]})
    game = ttr.Game.load(client.get(f"/api/games/{created['id']}/record").text)
    assert isinstance(game.seed, int)


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ("{oops", "malformed JSON"),
        ('{"edition": "usa", "players": [{"name": "A"}, {"name": "B"}], "x": 1}', "unknown field"),
        ('{"edition": "narnia", "players": [{"name": "A"}, {"name": "B"}]}', "narnia"),
        ('{"edition": "usa", "players": [{"name": "A"}]}', "player"),
        ('{"edition": "usa", "players": [{"name": "A"}, {"name": "A"}]}', "unique"),
        ('{"edition": "usa", "players": [{"name": "A"}, {"name": "B", "bot": "nobot"}]}', "nobot"),
        ('{"edition": "usa", "players": [{"name": "A"}, {"name": "B"}], "options": {"z": 1}}', "z"),
        ('{"edition": "usa", "players": [{"name": "A"}, {"name": "B", "bot": "os:getcwd"}]}', "os"),
        ('{"edition": "usa", "players": [{"name": "A"}, {"name": "B", "bot": "mcts:x=1"}]}', "'x'"),
    ],
)
def test_bad_bodies_get_400_and_make_no_game(client: TestClient, body: str, says: str) -> None:
    """Malformed JSON, unknown fields, editions, seats, bots, options: a 400 with a message."""
    response = client.post("/api/games", content=body)
    assert response.status_code == 400
    assert says in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []


def test_a_body_that_is_not_utf8_gets_400(client: TestClient) -> None:
    """Bytes that are not UTF-8 are malformed JSON: a 400."""
    response = client.post("/api/games", content=b"\xff\xfe{}")
    assert response.status_code == 400 and "malformed JSON" in response.json()["error"]


def test_an_oversized_body_gets_413(client: TestClient) -> None:
    """A body over MAX_BODY_BYTES is refused before it is read as JSON."""
    body = json.dumps({**TWO_HUMANS, "options": {"pad": "x" * MAX_BODY_BYTES}})
    response = client.post("/api/games", content=body)
    assert response.status_code == 413 and str(MAX_BODY_BYTES) in response.json()["error"]
    assert client.get("/api/games").json()["games"] == []


@pytest.mark.parametrize("path", ["/api/games/nope", "/api/games/nope/record", "/nothing"])
def test_unknown_games_and_paths_get_a_json_404(client: TestClient, path: str) -> None:
    """An unknown game or path is a 404 with a JSON error body."""
    response = client.get(path)
    assert response.status_code == 404 and "error" in response.json()


def test_a_wrong_method_gets_a_json_405(client: TestClient) -> None:
    """``DELETE /api/games`` is not allowed: a 405 with a JSON body."""
    response = client.delete("/api/games")
    assert response.status_code == 405 and "error" in response.json()


def test_an_internal_failure_shows_no_traceback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure of the server itself is a 500 with a plain JSON message."""
    registry = client.app.state.registry  # type: ignore[attr-defined]

    async def broken() -> None:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(registry, "rows", broken)
    response = client.get("/api/games")
    assert response.status_code == 500
    assert response.json() == {"error": "internal server error"}
    assert "Traceback" not in response.text and "secret" not in response.text


@pytest.mark.parametrize("game_id", ["%00", "a%00b", "x" * 65, "%C3%A9t%C3%A9", "a.b"])
def test_an_id_that_no_game_can_have_is_a_404(database: str, game_id: str) -> None:
    """An id with characters no game id has (NUL among them, which PostgreSQL refuses in
    text) or longer than any is an unknown game on both stores: a 404 with a JSON error,
    never a 500."""
    with TestClient(create_app(database), raise_server_exceptions=False) as client:
        _no_such_game(client, game_id)


def _no_such_game(client: TestClient, game_id: str) -> None:
    for path in (f"/api/games/{game_id}", f"/api/games/{game_id}/record"):
        response = client.get(path)
        assert response.status_code == 404, (path, response.text)
        assert "error" in response.json()
