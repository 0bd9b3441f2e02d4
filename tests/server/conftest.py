"""Fixtures of the server tests: an app over a fresh SQLite file, games made on it, and
databases of both kinds (PostgreSQL when ``TTR_TEST_POSTGRES_URL`` names a database: each
test gets a schema of its own there, dropped afterwards, so parallel workers never meet)."""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from ttr_core.server import create_app

TWO_HUMANS: dict[str, Any] = {
    "edition": "usa",
    "players": [{"name": "Ann"}, {"name": "Bob"}],
    "seed": 7,
}
HUMAN_AND_BOT: dict[str, Any] = {
    "edition": "usa",
    "players": [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}],
    "seed": 7,
}


POSTGRES_URL = os.environ.get("TTR_TEST_POSTGRES_URL")
"""A PostgreSQL database the tests may create schemas in; without it they skip."""


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
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each kind of database, empty, as ``--db`` takes it: a SQLite path or a URL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite file that does not exist yet."""
    return tmp_path / "games.sqlite"


@pytest.fixture
def client(db_path: Path) -> Iterator[TestClient]:
    """A test client of a server over a fresh SQLite file, started (lifespan run)."""
    with TestClient(create_app(str(db_path)), raise_server_exceptions=False) as c:
        yield c


def new_game(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    """Create a game; its id and seats (with tokens)."""
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def wait_for(check: Callable[[], bool], seconds: float = 30.0) -> None:
    """Poll ``check`` until it holds; fail after ``seconds``."""
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "timed out waiting"
        time.sleep(0.02)
