"""The WebSocket protocol: states, actions by index or in full, seats, spectators, abuse."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import TWO_HUMANS, new_game
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import ttr_core as ttr
from ttr_core.server import connection
from ttr_core.server.connection import CLOSE_ERROR, CLOSE_POLICY, CLOSE_TOO_BIG
from ttr_core.server.games import LiveGame
from ttr_core.server.limits import MAX_BAD_MESSAGES, MAX_MESSAGE_BYTES, RATE_BURST


def _record(client: TestClient, game_id: str) -> ttr.Game:
    return ttr.Game.load(client.get(f"/api/games/{game_id}/record").text)


def _closed_with(ws: Any) -> int:
    with pytest.raises(WebSocketDisconnect) as info:
        ws.receive_json()
    return info.value.code


def test_a_seat_gets_its_view_and_legal_actions_on_connect(client: TestClient) -> None:
    """On connect the seat to act gets its own view, its legal actions and no events."""
    created = new_game(client, TWO_HUMANS)
    ann, bob = created["seats"]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        state = ws.receive_json()
    assert state["type"] == "state" and state["events"] == []
    assert state["view"]["seat"] == 0 and len(state["view"]["offered"]) == 3
    assert state["legal"] and all(a["tag"] == "keep_tickets" for a in state["legal"])
    with client.websocket_connect(f"/ws/games/{created['id']}?token={bob['token']}") as ws:
        state = ws.receive_json()
    assert state["view"]["seat"] == 1 and state["legal"] == []


def test_actions_by_index_and_in_full_are_applied_and_broadcast(client: TestClient) -> None:
    """Seat 0 acts by index, seat 1 in full; both get each new state with its events."""
    created = new_game(client, TWO_HUMANS)
    ann, bob = created["seats"]
    base = f"/ws/games/{created['id']}?token="
    with (
        client.websocket_connect(base + ann["token"]) as ws0,
        client.websocket_connect(base + bob["token"]) as ws1,
    ):
        first = ws0.receive_json()
        ws1.receive_json()
        ws0.send_json({"type": "action", "index": 0})
        after0 = ws0.receive_json()
        seen1 = ws1.receive_json()
        assert after0["legal"] == [] and seen1["view"]["current"] == 1
        assert [e["tag"] for e in seen1["events"]] == ["tickets_kept"]
        ws1.send_json({"type": "action", "action": seen1["legal"][-1]})
        assert ws1.receive_json()["legal"] == []
        assert ws0.receive_json()["legal"]
    game = _record(client, created["id"])
    assert [ttr_json(e.action) for e in game.log] == [first["legal"][0], seen1["legal"][-1]]


def ttr_json(action: ttr.Action) -> dict[str, Any]:
    from ttr_core.formats.serialize import action_to_json

    return action_to_json(action)


def test_an_action_out_of_turn_is_refused_and_changes_nothing(client: TestClient) -> None:
    """Seat 1 acting while seat 0 is to act gets an error naming rule TURN-4."""
    created = new_game(client, TWO_HUMANS)
    bob = created["seats"][1]
    ann_legal = _record(client, created["id"]).legal_actions()
    with client.websocket_connect(f"/ws/games/{created['id']}?token={bob['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "action": ttr_json(ann_legal[0])})
        error = ws.receive_json()
        assert error["type"] == "error" and "TURN-4" in error["message"]
        ws.send_json({"type": "action", "index": 0})
        assert "not in the last legal list" in ws.receive_json()["message"]
    assert len(_record(client, created["id"]).log) == 0


def test_a_token_sees_only_its_own_seat(client: TestClient) -> None:
    """Seat 1's socket shows seat 1's hand and offer; seat 0's events reach it redacted."""
    created = new_game(client, TWO_HUMANS)
    ann, bob = created["seats"]
    truth = _record(client, created["id"])
    base = f"/ws/games/{created['id']}?token="
    with (
        client.websocket_connect(base + ann["token"]) as ws0,
        client.websocket_connect(base + bob["token"]) as ws1,
    ):
        ws0.receive_json()
        view1 = ws1.receive_json()["view"]
        assert view1 == ttr.view_to_json(truth.view(1))
        assert view1["offered"] != ttr.view_to_json(truth.view(0))["offered"]
        ws0.send_json({"type": "action", "index": 0})
        ws0.receive_json()
        kept = ws1.receive_json()["events"][0]
        assert kept["tag"] == "tickets_kept" and set(kept["kept"]) == {-1}


def test_a_token_of_another_game_is_refused(client: TestClient) -> None:
    """A seat's token opens no seat of another game: an error, then the socket is closed."""
    one = new_game(client, TWO_HUMANS)
    other = new_game(client, TWO_HUMANS)
    with client.websocket_connect(
        f"/ws/games/{other['id']}?token={one['seats'][0]['token']}"
    ) as ws:
        assert "no seat" in ws.receive_json()["message"]
        assert _closed_with(ws) == CLOSE_POLICY


def test_an_unknown_game_is_refused(client: TestClient) -> None:
    """A socket to a game that does not exist gets an error and is closed."""
    with client.websocket_connect("/ws/games/nope") as ws:
        assert ws.receive_json() == {"type": "error", "message": "no game 'nope'"}
        assert _closed_with(ws) == CLOSE_POLICY


def test_a_spectator_sees_public_information_and_cannot_act(client: TestClient) -> None:
    """Without a token: the public view, events with every secret hidden, no acting."""
    created = new_game(client, TWO_HUMANS)
    ann = created["seats"][0]
    with (
        client.websocket_connect(f"/ws/games/{created['id']}") as watcher,
        client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws0,
    ):
        first = watcher.receive_json()
        assert first["view"]["seat"] == -1 and first["view"]["hand"] == {}
        assert first["view"]["offered"] == [] and first["legal"] == []
        ws0.receive_json()
        ws0.send_json({"type": "action", "index": 0})
        ws0.receive_json()
        seen = watcher.receive_json()
        assert set(seen["events"][0]["kept"]) == {-1} and seen["view"]["tickets"] == []
        watcher.send_json({"type": "action", "action": {"tag": "draw_blind"}})
        assert "spectator" in watcher.receive_json()["message"]
    assert len(_record(client, created["id"]).log) == 1


@pytest.mark.parametrize(
    "message",
    [
        "{nope",
        '{"type": "action", "index": 0, "also": 1}',
        '{"type": "hello"}',
        '{"type": "action", "action": {"tag": "claim_route", "route": "x"}}',
    ],
)
def test_bad_messages_get_an_error_and_lose_nothing(client: TestClient, message: str) -> None:
    """Malformed JSON, unknown fields and types, bad actions: an error; the socket goes on."""
    created = new_game(client, TWO_HUMANS)
    ann = created["seats"][0]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        ws.receive_json()
        ws.send_text(message)
        assert ws.receive_json()["type"] == "error"
        ws.send_json({"type": "action", "index": 0})
        assert ws.receive_json()["type"] == "state"
    assert len(_record(client, created["id"]).log) == 1


def test_an_oversized_message_closes_the_socket(client: TestClient) -> None:
    """A message over MAX_MESSAGE_BYTES gets an error, then the socket is closed (1009)."""
    created = new_game(client, TWO_HUMANS)
    ann = created["seats"][0]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        ws.receive_json()
        ws.send_text(json.dumps({"type": "action", "index": 0, "pad": "x" * MAX_MESSAGE_BYTES}))
        assert str(MAX_MESSAGE_BYTES) in ws.receive_json()["message"]
        assert _closed_with(ws) == CLOSE_TOO_BIG
    assert len(_record(client, created["id"]).log) == 0


def test_a_flood_closes_the_socket(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """More messages at once than the burst allows: an error, then the socket is closed.
    The connection's clock stands still, so that no token comes back during the flood."""
    monkeypatch.setattr(connection, "time", SimpleNamespace(monotonic=lambda: 0.0))
    created = new_game(client, TWO_HUMANS)
    ann = created["seats"][0]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        ws.receive_json()
        for _ in range(RATE_BURST + 5):
            ws.send_text('{"type": "action", "index": 99}')
        messages = []
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                messages.append(ws.receive_json())
        assert info.value.code == CLOSE_POLICY
        assert "rate limit" in messages[-1]["message"]
        assert len(messages) <= RATE_BURST + 1


def test_too_many_refused_messages_close_the_socket(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After MAX_BAD_MESSAGES refused messages (slowly sent) the socket is closed."""
    monkeypatch.setattr("ttr_core.server.connection.RateLimiter.allow", lambda self, now: True)
    created = new_game(client, TWO_HUMANS)
    ann = created["seats"][0]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        ws.receive_json()
        for _ in range(MAX_BAD_MESSAGES - 1):
            ws.send_text("[]")
            assert ws.receive_json()["type"] == "error"
        ws.send_text("[]")
        assert "too many refused" in ws.receive_json()["message"]
        assert _closed_with(ws) == CLOSE_POLICY


def test_a_failure_of_the_server_closes_the_socket_without_a_traceback(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unexpected failure while handling a message: a plain error, then close 1011."""
    created = new_game(client, TWO_HUMANS)
    ann = created["seats"][0]

    async def broken(self: LiveGame, seat: int, action: ttr.Action) -> None:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(LiveGame, "act", broken)
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "index": 0})
        assert ws.receive_json() == {"type": "error", "message": "internal server error"}
        assert _closed_with(ws) == CLOSE_ERROR


def test_a_binary_message_is_read_as_text(client: TestClient) -> None:
    """A message sent as a binary frame is read as UTF-8 text; undecodable bytes are refused."""
    created = new_game(client, TWO_HUMANS)
    ann = created["seats"][0]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        ws.receive_json()
        ws.send_bytes(b"\xff\xfe")
        assert "malformed JSON" in ws.receive_json()["message"]
        ws.send_bytes(b'{"type": "action", "index": 0}')
        assert ws.receive_json()["type"] == "state"
