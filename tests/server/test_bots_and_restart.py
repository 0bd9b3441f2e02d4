"""Bots in server seats, finished games, and a restart that loses nothing (on each kind of
database: the PostgreSQL cases skip without ``TTR_TEST_POSTGRES_URL``)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import Any

import pytest
from conftest import HUMAN_AND_BOT, TWO_HUMANS, new_game, wait_for
from starlette.testclient import TestClient

import ttr_core as ttr
from ttr_core.bots.greedy import GreedyBot
from ttr_core.formats.serialize import action_to_json
from ttr_core.server import create_app, games
from ttr_core.server.bots import SeatBot
from ttr_core.server.storage import StoreError, open_store

ALL_BOTS: dict[str, Any] = {
    "edition": "usa",
    "players": [{"name": "G", "bot": "greedy"}, {"name": "R", "bot": "random"}],
    "seed": 3,
}


def _listed(client: TestClient, game_id: str) -> dict[str, Any]:
    games: list[dict[str, Any]] = client.get("/api/games").json()["games"]
    return next(g for g in games if g["id"] == game_id)


def test_a_bot_answers_a_human_move(client: TestClient) -> None:
    """After the human's opening choice, the bot in seat 1 makes its own, server-side."""
    created = new_game(client, HUMAN_AND_BOT)
    ann = created["seats"][0]
    with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "index": 0})
        state = ws.receive_json()
        while not state["legal"]:
            state = ws.receive_json()
    assert state["view"]["current"] == 0 and state["view"]["phase"] == "turn"
    assert [e["tag"] for e in state["events"]] == ["tickets_kept"]
    assert _listed(client, created["id"])["actions"] == 2


def test_a_game_of_bots_finishes_and_stays_listed_with_scores(client: TestClient) -> None:
    """Bots in every seat play to the end; the game is listed finished with its scores,
    and its record replays to the same scores."""
    created = new_game(client, ALL_BOTS)
    wait_for(lambda: _listed(client, created["id"])["status"] == "finished", 60)
    listed = _listed(client, created["id"])
    assert listed["current"] is None
    game = ttr.Game.load(client.get(f"/api/games/{created['id']}/record").text)
    assert game.is_over and len(game.log) == listed["actions"]
    sheet = game.scores()
    assert [s["total"] for s in listed["scores"]] == [p.total for p in sheet.players]
    assert [s["seat"] for s in listed["scores"] if s["winner"]] == list(sheet.winners)


def test_a_restart_resumes_at_the_last_acknowledged_action(database: str) -> None:
    """A new server on the same database has every game at its last acknowledged action;
    the seat's token still works and play carries on."""
    with TestClient(create_app(database)) as first:
        created = new_game(first, TWO_HUMANS)
        ann, bob = created["seats"]
        with first.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
            ws.receive_json()
            ws.send_json({"type": "action", "index": 1})
            acknowledged = ws.receive_json()
        before = first.get(f"/api/games/{created['id']}/record").text
    with TestClient(create_app(database)) as second:
        assert second.get(f"/api/games/{created['id']}/record").text == before
        with second.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
            again = ws.receive_json()
        assert again["view"] == acknowledged["view"] and again["legal"] == []
        with second.websocket_connect(f"/ws/games/{created['id']}?token={bob['token']}") as ws:
            ws.receive_json()
            ws.send_json({"type": "action", "index": 0})
            assert ws.receive_json()["type"] == "state"
        game = ttr.Game.load(second.get(f"/api/games/{created['id']}/record").text)
        assert len(game.log) == 2


def test_every_acknowledged_action_is_in_the_database_before_its_state(database: str) -> None:
    """When a seat is sent the state that acknowledges its action, another connection to
    the database (a new store) already finds that action and the game's new status."""
    with TestClient(create_app(database)) as client:
        created = new_game(client, TWO_HUMANS)
        game_id = created["id"]
        for seat in created["seats"]:
            with client.websocket_connect(f"/ws/games/{game_id}?token={seat['token']}") as ws:
                ws.receive_json()
                ws.send_json({"type": "action", "index": 0})
                acknowledged = ws.receive_json()
                assert acknowledged["type"] == "state"
                other = open_store(database)
                try:
                    row = other.game(game_id)
                    stored = other.actions(game_id)
                finally:
                    other.close()
                record = ttr.Game.load(client.get(f"/api/games/{game_id}/record").text)
                assert row is not None and row.actions == len(record.log) == len(stored)
                assert row.current == acknowledged["view"]["current"]
                assert [json.loads(a) for a in stored] == [
                    action_to_json(e.action) for e in record.log
                ]


@pytest.mark.slow
def test_a_restart_lets_bots_play_on(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot game cut off by a shutdown after five actions is resumed on start, from
    exactly those five, and its bots finish it."""
    choose = SeatBot.choose

    async def five_then_wait(self: SeatBot, game: ttr.Game, executor: Executor) -> ttr.Action:
        if len(game.log) >= 5:
            await asyncio.Event().wait()  # until the shutdown cancels it
        return await choose(self, game, executor)

    monkeypatch.setattr(SeatBot, "choose", five_then_wait)
    with TestClient(create_app(database)) as first:
        created = new_game(first, ALL_BOTS)
        wait_for(lambda: _listed(first, created["id"])["actions"] == 5)
        before = ttr.Game.load(first.get(f"/api/games/{created['id']}/record").text)
    monkeypatch.undo()
    stopped = open_store(database)
    row = stopped.game(created["id"])
    stopped.close()
    assert row is not None and (row.status, row.actions) == ("playing", 5)
    with TestClient(create_app(database)) as second:
        wait_for(lambda: _listed(second, created["id"])["status"] == "finished", 60)
        game = ttr.Game.load(second.get(f"/api/games/{created['id']}/record").text)
    assert game.is_over and len(game.log) > 5 and game.log[:5] == before.log


def test_a_failed_commit_is_refused_and_changes_nothing(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the database refuses the write, the client gets an error and the game is as
    before the action (nothing acknowledged that was not saved); sent again, it is taken."""
    with TestClient(create_app(database)) as client:
        created = new_game(client, TWO_HUMANS)
        ann = created["seats"][0]
        store = client.app.state.registry.store  # type: ignore[attr-defined]

        def refuse(*args: object, **kwargs: object) -> None:
            raise StoreError("disk full")

        with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
            first = ws.receive_json()
            monkeypatch.setattr(store, "append_action", refuse)
            ws.send_json({"type": "action", "index": 0})
            assert "could not be saved" in ws.receive_json()["message"]
            monkeypatch.undo()
            shown = client.get(f"/api/games/{created['id']}").json()
            assert shown["actions"] == 0 and shown["view"]["current"] == 0
            ws.send_json({"type": "action", "index": 0})
            after = ws.receive_json()
            assert after["type"] == "state" and after["view"]["tickets"]
            assert first["legal"][0]["tickets"] == after["view"]["tickets"]


def test_a_bot_whose_action_cannot_be_saved_tries_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot's action refused by the database is not applied; after a wait the bot moves
    again, and once the database takes writes again the game goes on."""
    monkeypatch.setattr(games, "BOT_SAVE_RETRY_SECONDS", 0.01)
    store = client.app.state.registry.store  # type: ignore[attr-defined]
    append = store.append_action
    refusals: list[object] = []

    def refuse_twice(*args: Any, **kwargs: Any) -> None:
        if len(refusals) < 2:
            refusals.append(args[1])
            raise StoreError("the database is down")
        append(*args, **kwargs)

    monkeypatch.setattr(store, "append_action", refuse_twice)
    created = new_game(client, ALL_BOTS)
    wait_for(lambda: _listed(client, created["id"])["actions"] >= 3)
    assert refusals == [0, 0]
    game = ttr.Game.load(client.get(f"/api/games/{created['id']}/record").text)
    assert len(game.log) >= 3


def test_a_slow_bot_blocks_no_other_game(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a bot thinks (on a worker thread, until released or for 10 s), the server
    answers requests and another game is created and played: all before the bot acts."""
    choose = GreedyBot.choose
    release = threading.Event()

    def slow(self: GreedyBot, view: ttr.PlayerView, legal: Sequence[ttr.Action]) -> ttr.Action:
        release.wait(timeout=10)
        return choose(self, view, legal)

    monkeypatch.setattr(GreedyBot, "choose", slow)
    bots = [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "greedy"}]
    thinking = new_game(client, {"edition": "usa", "players": bots})
    other = new_game(client, TWO_HUMANS)
    ann = other["seats"][0]
    with client.websocket_connect(f"/ws/games/{other['id']}?token={ann['token']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "index": 0})
        assert ws.receive_json()["type"] == "state"
    assert _listed(client, other["id"])["actions"] == 1
    assert _listed(client, thinking["id"])["actions"] == 0
    release.set()
    wait_for(lambda: _listed(client, thinking["id"])["actions"] > 0)
