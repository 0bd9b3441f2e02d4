"""Fixtures of the server tests: an app over a fresh SQLite file, and games made on it."""

from __future__ import annotations

import time
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
