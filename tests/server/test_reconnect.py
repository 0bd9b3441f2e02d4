"""A PostgreSQL store whose connection is lost: its backend is terminated for real from a
second connection (``pg_terminate_backend``), as a database restart would end it. These
tests skip without ``TTR_TEST_POSTGRES_URL``."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import TWO_HUMANS, new_game
from starlette.testclient import TestClient

from ttr_core.server import create_app
from ttr_core.server.storage import GameRow, PostgresStore, SeatRow, StoreError


def _backend(store: PostgresStore) -> int:
    """The process id of the store's PostgreSQL backend (the store's own connection)."""
    pid: int = store._conn.info.backend_pid
    return pid


def _terminate(url: str, pid: int) -> None:
    """End backend ``pid`` from a connection of its own; return once it is gone."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as admin:
        assert admin.execute("SELECT pg_terminate_backend(%s)", (pid,)).fetchone() == (True,)
        end = time.monotonic() + 10
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone():
            assert time.monotonic() < end, "the backend did not go away"
            time.sleep(0.02)


@pytest.fixture
def store(postgres_url: str) -> Iterator[PostgresStore]:
    """A PostgreSQL store in a schema of its own."""
    opened = PostgresStore(postgres_url)
    yield opened
    opened.close()


def _row() -> GameRow:
    return GameRow(
        id=uuid.uuid4().hex,
        edition="usa",
        options={},
        seed=5,
        start_player=0,
        created=1.0,
        seats=(SeatRow(0, "Ann", None, "ab" * 32), SeatRow(1, "Bob", None, "cd" * 32)),
    )


def test_reads_and_writes_go_on_after_the_backend_is_terminated(
    store: PostgresStore, postgres_url: str
) -> None:
    """After its backend is killed between two operations, the store connects again and
    the next read, creation and action all succeed, each written once."""
    row = _row()
    store.create_game(row)
    first = _backend(store)
    _terminate(postgres_url, first)
    assert [g.id for g in store.games()] == [row.id]
    assert _backend(store) != first
    _terminate(postgres_url, _backend(store))
    store.append_action(row.id, 0, '{"tag": "pass"}', status="playing", current=1, scores=None)
    _terminate(postgres_url, _backend(store))
    other = _row()
    store.create_game(other)
    assert store.actions(row.id) == ['{"tag": "pass"}']
    got = store.game(row.id)
    assert got is not None and (got.actions, got.current) == (1, 1)
    assert sorted(g.id for g in store.games()) == sorted([row.id, other.id])


def test_an_unreachable_database_is_a_store_error_then_a_retry_works(
    store: PostgresStore, postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed while the database cannot be reached again, an action raises StoreError and
    writes nothing; once the database is back, the same action is taken."""
    import psycopg

    row = _row()
    store.create_game(row)
    _terminate(postgres_url, _backend(store))
    connect = store._connect

    def unreachable() -> Any:
        raise psycopg.OperationalError("connection refused (the database is down)")

    monkeypatch.setattr(store, "_connect", unreachable)
    with pytest.raises(StoreError, match="cannot reach the PostgreSQL database"):
        store.append_action(row.id, 0, "{}", status="playing", current=1, scores=None)
    monkeypatch.setattr(store, "_connect", connect)
    assert store.actions(row.id) == []
    store.append_action(row.id, 0, "{}", status="playing", current=1, scores=None)
    assert store.actions(row.id) == ["{}"]


def _cut_commit(
    store: PostgresStore, url: str, monkeypatch: pytest.MonkeyPatch, *, after: bool
) -> None:
    """Make the next commit of the store's connection lose it: the backend is terminated
    just before the commit (``after=False``), or just after it, before the store hears
    the answer (``after=True``: the store then finds the connection broken)."""
    conn = store._conn
    commit: Callable[[], None] = conn.commit

    def cut() -> None:
        monkeypatch.undo()
        if after:
            commit()
        _terminate(url, conn.info.backend_pid)
        if after:
            conn.execute("SELECT 1")  # raises: the connection is gone
        commit()

    monkeypatch.setattr(conn, "commit", cut)


def test_a_commit_cut_off_is_refused_and_a_retry_works(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The backend killed at the action's commit: the seat gets an error message, the
    action is not applied (not in the database, not in the game: the server's state is
    as before) and the same action, sent again, is taken."""
    store = PostgresStore(postgres_url)
    try:
        with TestClient(create_app(store)) as client:
            created = new_game(client, TWO_HUMANS)
            game_id, ann = created["id"], created["seats"][0]
            with client.websocket_connect(f"/ws/games/{game_id}?token={ann['token']}") as ws:
                ws.receive_json()
                before = client.get(f"/api/games/{game_id}").json()
                _cut_commit(store, postgres_url, monkeypatch, after=False)
                ws.send_json({"type": "action", "index": 0})
                refused = ws.receive_json()
                assert refused == {
                    "type": "error",
                    "message": "the action could not be saved; nothing changed",
                }
                assert client.get(f"/api/games/{game_id}").json() == before
                assert before["actions"] == 0
                assert store.actions(game_id) == []
                ws.send_json({"type": "action", "index": 0})
                taken = ws.receive_json()
                assert taken["type"] == "state" and taken["view"]["current"] == 1
            assert len(store.actions(game_id)) == 1
    finally:
        store.close()


def test_a_commit_whose_answer_is_lost_is_found_saved_and_acknowledged(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The backend killed after the commit, before the store hears of it: the store asks
    a new connection, finds the action saved, and the seat is sent the new state."""
    store = PostgresStore(postgres_url)
    try:
        with TestClient(create_app(store)) as client:
            created = new_game(client, TWO_HUMANS)
            game_id, ann = created["id"], created["seats"][0]
            with client.websocket_connect(f"/ws/games/{game_id}?token={ann['token']}") as ws:
                ws.receive_json()
                _cut_commit(store, postgres_url, monkeypatch, after=True)
                ws.send_json({"type": "action", "index": 0})
                taken = ws.receive_json()
                assert taken["type"] == "state" and taken["view"]["current"] == 1
            assert len(store.actions(game_id)) == 1
            assert client.get(f"/api/games/{game_id}").json()["actions"] == 1
    finally:
        store.close()


def test_a_server_serves_on_after_its_backend_is_terminated(postgres_url: str) -> None:
    """Between two requests the server's connection is killed: games are listed, created
    and played on as if nothing had happened."""
    store = PostgresStore(postgres_url)
    try:
        with TestClient(create_app(store)) as client:
            created = new_game(client, TWO_HUMANS)
            _terminate(postgres_url, _backend(store))
            assert [g["id"] for g in client.get("/api/games").json()["games"]] == [created["id"]]
            _terminate(postgres_url, _backend(store))
            again = new_game(client, TWO_HUMANS)
            ann = again["seats"][0]
            _terminate(postgres_url, _backend(store))
            with client.websocket_connect(f"/ws/games/{again['id']}?token={ann['token']}") as ws:
                ws.receive_json()
                ws.send_json({"type": "action", "index": 0})
                assert ws.receive_json()["type"] == "state"
            assert len(store.actions(again["id"])) == 1
    finally:
        store.close()
