"""The time limit of a server-side bot's move: a bot past it does not hang its game, and
other games go on."""

from __future__ import annotations

import logging
import math
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import new_game, wait_for
from starlette.testclient import TestClient

import ttr_core as ttr
from ttr_core.bots import registry as bot_registry
from ttr_core.server import create_app
from ttr_core.server import registry as server_registry
from ttr_core.server.bots import BOT_SECONDS, FALLBACK_BOT, check_bot_seconds

RELEASE = threading.Event()
"""Lets every SlowBot answer; set when a test ends, so that no thread is left waiting."""

ASKED: list[int] = []
"""The seats a SlowBot was asked to move for, in order."""


class SlowBot:
    """A test-only bot that thinks until it is released (or 30 s), then takes the first
    legal action."""

    def __init__(self, ruleset: ttr.Ruleset, seat: int, seed: int) -> None:
        self.seat = seat

    def choose(self, view: ttr.PlayerView, legal: Sequence[ttr.Action]) -> ttr.Action:
        ASKED.append(self.seat)
        RELEASE.wait(timeout=30)
        return legal[0]


@pytest.fixture
def slow_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The spec ``slow`` names SlowBot among the installed bots while the test runs."""
    installed = bot_registry.installed_bots()
    with_slow = {**installed, "slow": f"{__name__}:SlowBot"}
    monkeypatch.setattr(bot_registry, "installed_bots", lambda: with_slow)
    monkeypatch.setattr(server_registry, "installed_bots", lambda: with_slow)
    RELEASE.clear()
    ASKED.clear()
    try:
        yield "slow"
    finally:
        RELEASE.set()


def _listed(client: TestClient, game_id: str) -> dict[str, Any]:
    games: list[dict[str, Any]] = client.get("/api/games").json()["games"]
    return next(g for g in games if g["id"] == game_id)


def test_the_default_limit_is_documented_and_sensible() -> None:
    """The default is 10 s per move, and the fallback is the library's random bot."""
    assert BOT_SECONDS == 10.0
    assert FALLBACK_BOT in bot_registry.installed_bots()


@pytest.mark.slow
def test_a_bot_past_its_limit_is_replaced_for_the_move_and_the_game_goes_on(
    tmp_path: Path, slow_bot: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A bot that does not answer within ``bot_seconds`` is logged; its seat plays the
    fallback's move, and every move until the late call returns (the bot is asked once),
    so its game reaches its end while the bot still thinks."""
    caplog.set_level(logging.WARNING, logger="ttr.server")
    app = create_app(str(tmp_path / "g.sqlite"), bot_seconds=0.2)
    with TestClient(app) as client:
        body = {
            "edition": "usa",
            "players": [{"name": "S", "bot": slow_bot}, {"name": "G", "bot": "greedy"}],
        }
        created = new_game(client, body)
        wait_for(lambda: _listed(client, created["id"])["status"] == "finished", 60)
        assert ASKED == [0]
        assert any("took longer than 0.2 s" in r.getMessage() for r in caplog.records)
        game = ttr.Game.load(client.get(f"/api/games/{created['id']}/record").text)
        assert game.is_over  # seat 0 took every one of its turns with the fallback
        RELEASE.set()


def test_a_bot_is_asked_again_once_its_late_call_returns(tmp_path: Path, slow_bot: str) -> None:
    """The seat's fallback plays only while the late call lasts: once the slow bot has
    answered (its answer dropped), it is asked for the next move again."""
    app = create_app(str(tmp_path / "g.sqlite"), bot_seconds=0.2)
    with TestClient(app) as client:
        body = {"edition": "usa", "players": [{"name": "Ann"}, {"name": "S", "bot": slow_bot}]}
        created = new_game(client, body)
        ann = created["seats"][0]
        with client.websocket_connect(f"/ws/games/{created['id']}?token={ann['token']}") as ws:
            ws.receive_json()
            ws.send_json({"type": "action", "index": 0})
            state = ws.receive_json()
            while not state["legal"]:  # the fallback keeps the slow bot's opening tickets
                state = ws.receive_json()
            assert ASKED == [1] and _listed(client, created["id"])["actions"] == 2
            RELEASE.set()
            wait_for(lambda: _late_call_done(client, created["id"]))
            for _ in range(10):  # Ann's turn may take two actions (a second card)
                ws.send_json({"type": "action", "index": 0})
                state = ws.receive_json()
                while not state["legal"]:
                    state = ws.receive_json()
                if len(ASKED) > 1:
                    break
        assert len(ASKED) > 1 and set(ASKED) == {1}


def _late_call_done(client: TestClient, game_id: str) -> bool:
    """Whether the slow seat's late call has returned (as the server's game sees it)."""
    live = client.app.state.registry._live[game_id]  # type: ignore[attr-defined]
    overrun = live._bots[1]._overrun
    return overrun is None or bool(overrun.done())


@pytest.mark.slow
def test_a_bot_past_its_limit_holds_up_no_other_game(tmp_path: Path, slow_bot: str) -> None:
    """While a slow bot thinks, both its own game (its seat played by the fallback) and a
    game of greedy bots on the same server are played to their ends."""
    app = create_app(str(tmp_path / "g.sqlite"), bot_seconds=0.2)
    with TestClient(app) as client:
        slow_players = [{"name": "S", "bot": slow_bot}, {"name": "R", "bot": "random"}]
        slow = new_game(client, {"edition": "usa", "players": slow_players})
        greedy_players = [{"name": "A", "bot": "greedy"}, {"name": "B", "bot": "greedy"}]
        other = new_game(client, {"edition": "usa", "players": greedy_players, "seed": 4})
        wait_for(lambda: _listed(client, other["id"])["status"] == "finished", 60)
        wait_for(lambda: _listed(client, slow["id"])["status"] == "finished", 60)
        assert not RELEASE.is_set() and ASKED == [0]
        RELEASE.set()


@pytest.mark.parametrize("seconds", [0, -1.0, math.nan, math.inf, True, "5"])
def test_a_bad_time_limit_is_refused(tmp_path: Path, seconds: Any) -> None:
    """A limit that is not a finite number of seconds above zero is a ValueError, from
    ``create_app`` as from the check itself."""
    with pytest.raises(ValueError, match="bot time limit"):
        check_bot_seconds(seconds)
    with pytest.raises(ValueError, match="bot time limit"):
        create_app(str(tmp_path / "g.sqlite"), bot_seconds=seconds)
