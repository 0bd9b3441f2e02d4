"""The stores: SQLite always, PostgreSQL when ``TTR_TEST_POSTGRES_URL`` names a database
(each test gets a schema of its own there, dropped afterwards)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import TWO_HUMANS, new_game
from starlette.testclient import TestClient

import ttr_core as ttr
from ttr_core.server import create_app
from ttr_core.server.storage import (
    FINISHED,
    GameRow,
    PostgresStore,
    SeatRow,
    SQLiteStore,
    Store,
    StoreError,
    open_store,
)

POSTGRES_URL = os.environ.get("TTR_TEST_POSTGRES_URL")


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """The URL of a schema of its own in the test database, dropped afterwards."""
    if not POSTGRES_URL:
        pytest.skip("set TTR_TEST_POSTGRES_URL to a PostgreSQL database to test it")
    import psycopg

    schema = f"ttr_test_{uuid.uuid4().hex}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    joiner = "&" if "?" in POSTGRES_URL else "?"
    try:
        yield f"{POSTGRES_URL}{joiner}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """Each store kind, empty."""
    if request.param == "sqlite":
        opened: Store = SQLiteStore(tmp_path / "s.sqlite")
    else:
        opened = PostgresStore(request.getfixturevalue("postgres_url"))
    yield opened
    opened.close()


def _row(created: float = 1.0) -> GameRow:
    return GameRow(
        id=uuid.uuid4().hex,
        edition="usa",
        options={"opening_tickets": 3},
        seed=2**62 + 5,
        start_player=1,
        created=created,
        seats=(SeatRow(0, "Ann", None, "ab" * 32), SeatRow(1, "Bot", "greedy", None)),
        current=1,
    )


def test_a_game_and_its_actions_come_back(store: Store) -> None:
    """What is stored is read back: the row, its seats, its actions in order."""
    row = _row()
    store.create_game(row)
    store.append_action(
        row.id, 0, '{"tag": "draw_blind"}', status="playing", current=0, scores=None
    )
    scores = [{"seat": 0, "name": "Ann", "total": 3, "winner": True}]
    store.append_action(row.id, 1, '{"tag": "pass"}', status=FINISHED, current=None, scores=scores)
    got = store.game(row.id)
    assert got is not None
    assert got.seats == row.seats and got.seed == row.seed and got.options == row.options
    assert (got.status, got.current, got.actions, got.scores) == (FINISHED, None, 2, scores)
    assert store.actions(row.id) == ['{"tag": "draw_blind"}', '{"tag": "pass"}']
    assert row.id in [g.id for g in store.games()]
    assert store.game("nope") is None


def test_an_action_out_of_sequence_writes_nothing(store: Store) -> None:
    """An index already taken, or one that skips ahead, raises StoreError and writes nothing."""
    row = _row()
    store.create_game(row)
    store.append_action(row.id, 0, "{}", status="playing", current=0, scores=None)
    for index in (0, 2):
        with pytest.raises(StoreError):
            store.append_action(row.id, index, "[]", status=FINISHED, current=None, scores=None)
    got = store.game(row.id)
    assert got is not None and (got.status, got.actions) == ("playing", 1)
    assert store.actions(row.id) == ["{}"]


def test_sqlite_file_is_created_and_reopened(tmp_path: Path) -> None:
    """The SQLite file is made on first use and keeps its games when opened again."""
    path = tmp_path / "new.sqlite"
    first = open_store(str(path))
    row = _row()
    first.create_game(row)
    first.close()
    assert path.exists()
    again = open_store(str(path))
    assert [g.id for g in again.games()] == [row.id]
    again.close()


def test_postgres_urls_pick_the_postgres_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """``postgresql://`` and ``postgres://`` URLs open a PostgresStore, anything else SQLite."""
    opened: list[str] = []
    monkeypatch.setattr(PostgresStore, "__init__", lambda self, url: opened.append(url))
    open_store("postgresql://u@h/db")
    open_store("postgres://u@h/db")
    assert opened == ["postgresql://u@h/db", "postgres://u@h/db"]


def test_a_server_on_postgres_resumes_after_a_restart(postgres_url: str) -> None:
    """A game played on a PostgreSQL-backed server is found at its last action by a new
    server on the same database, which plays on."""
    first_store = PostgresStore(postgres_url)
    with TestClient(create_app(first_store)) as first:
        created = new_game(first, TWO_HUMANS)
        ann, bob = created["seats"]
        with first.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
            ws.receive_json()
            ws.send_json({"type": "action", "index": 0})
            ws.receive_json()
        before = first.get(f"/api/games/{created['id']}/record").text
    first_store.close()
    second_store = PostgresStore(postgres_url)
    with TestClient(create_app(second_store)) as second:
        assert second.get(f"/api/games/{created['id']}/record").text == before
        with second.websocket_connect(f"/ws/games/{created['id']}?token={bob['token']}") as ws:
            assert ws.receive_json()["legal"]
            ws.send_json({"type": "action", "index": 0})
            assert ws.receive_json()["legal"] == []
        assert len(ttr.Game.load(second.get(f"/api/games/{created['id']}/record").text).log) == 2
    second_store.close()
