"""The rate limit on creating games over HTTP, per client address."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import TWO_HUMANS
from starlette.testclient import TestClient

from ttr_core.server import app as app_module
from ttr_core.server import create_app
from ttr_core.server.limits import (
    CREATE_BURST,
    CREATE_RATE_PER_SECOND,
    MAX_TRACKED_CLIENTS,
    ClientRateLimits,
)


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The app's clock stands still, so that no token comes back while games are made."""
    monkeypatch.setattr(app_module, "time", SimpleNamespace(monotonic=lambda: 0.0))
    yield


@pytest.mark.usefixtures("frozen_clock")
def test_a_burst_is_created_then_429_with_retry_after(tmp_path: Path) -> None:
    """A client may create CREATE_BURST games at once; the next is a 429 with a JSON
    error and a Retry-After of whole seconds, and it creates no game."""
    with TestClient(create_app(str(tmp_path / "g.sqlite"))) as client:
        for _ in range(CREATE_BURST):
            assert client.post("/api/games", json=TWO_HUMANS).status_code == 201
        refused = client.post("/api/games", json=TWO_HUMANS)
        assert refused.status_code == 429
        assert "too many games created" in refused.json()["error"]
        assert int(refused.headers["retry-after"]) >= 1
        assert len(client.get("/api/games").json()["games"]) == CREATE_BURST


@pytest.mark.usefixtures("frozen_clock")
def test_a_refused_body_counts_too(tmp_path: Path) -> None:
    """Every POST takes its token before the body is read: bad bodies cannot flood."""
    with TestClient(create_app(str(tmp_path / "g.sqlite"))) as client:
        for _ in range(CREATE_BURST):
            assert client.post("/api/games", content=b"not json").status_code == 400
        assert client.post("/api/games", json=TWO_HUMANS).status_code == 429


@pytest.mark.slow
@pytest.mark.usefixtures("frozen_clock")
def test_a_rate_of_zero_switches_the_limit_off(tmp_path: Path) -> None:
    """``create_rate=0``: twice the burst and more, at one instant from one client, all
    created."""
    count = 2 * CREATE_BURST + 1
    with TestClient(create_app(str(tmp_path / "g.sqlite"), create_rate=0)) as client:
        statuses = {client.post("/api/games", json=TWO_HUMANS).status_code for _ in range(count)}
        assert statuses == {201}
        assert len(client.get("/api/games").json()["games"]) == count


def test_each_address_has_its_own_bucket_which_refills() -> None:
    """A client past its burst is refused (with the wait until its next token) while
    another is not; after 1/rate seconds the first may create one game again."""
    limits = ClientRateLimits(rate=2.0, burst=3)
    assert [limits.retry_after("a", 0.0) for _ in range(3)] == [None, None, None]
    assert limits.retry_after("a", 0.0) == 1  # half a second, rounded up
    assert limits.retry_after("b", 0.0) is None
    assert limits.retry_after("a", 0.5) is None
    assert limits.retry_after("a", 0.5) == 1


def test_a_slow_rate_asks_for_a_long_wait() -> None:
    """Retry-After is the time until the next token, in whole seconds rounded up."""
    limits = ClientRateLimits(rate=0.1, burst=1)
    assert limits.retry_after("a", 0.0) is None
    assert limits.retry_after("a", 0.0) == 10
    assert limits.retry_after("a", 7.5) == 3


def test_no_limit_at_rate_zero() -> None:
    """Rate 0: every request may go on, and no client is tracked."""
    limits = ClientRateLimits(rate=0)
    assert all(limits.retry_after("a", 0.0) is None for _ in range(10 * CREATE_BURST))


def test_the_tracked_clients_stay_bounded() -> None:
    """However many addresses come, at most MAX_TRACKED_CLIENTS buckets are kept; when
    the table is full, the idle ones (full again) are forgotten first."""
    limits = ClientRateLimits(rate=1.0, burst=2)
    for i in range(MAX_TRACKED_CLIENTS + 5):
        limits.retry_after(f"a{i}", 0.0)
        assert len(limits) <= MAX_TRACKED_CLIENTS
    refill = ClientRateLimits(rate=1.0, burst=2)
    for i in range(MAX_TRACKED_CLIENTS):
        refill.retry_after(f"b{i}", 0.0)
    assert len(refill) == MAX_TRACKED_CLIENTS
    assert refill.retry_after("late", 10.0) is None  # every earlier bucket is full again
    assert len(refill) == 1


def test_the_defaults_are_documented_values() -> None:
    """A burst of 20 games, then 1 a second, per client address."""
    assert (CREATE_BURST, CREATE_RATE_PER_SECOND) == (20, 1.0)


@pytest.mark.parametrize("rate", [-1, math.nan, math.inf, "5", True])
def test_a_bad_rate_is_refused(tmp_path: Path, rate: Any) -> None:
    """A creation rate that is negative, not finite or not a number is a ValueError."""
    with pytest.raises(ValueError, match="creation rate"):
        ClientRateLimits(rate)
    with pytest.raises(ValueError, match="creation rate"):
        create_app(str(tmp_path / "g.sqlite"), create_rate=rate)
