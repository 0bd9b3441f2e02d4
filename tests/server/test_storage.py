"""The stores: SQLite always, PostgreSQL when ``TTR_TEST_POSTGRES_URL`` names a database
(each test gets a schema of its own there, dropped afterwards: see conftest)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

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
