"""``ttr serve``: its command line, and one real server on 127.0.0.1 in a subprocess."""

from __future__ import annotations

import importlib
import json
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from ttr_core.cli import main, serve
from ttr_core.model.errors import MissingExtraError
from ttr_core.server.bots import BOT_SECONDS
from ttr_core.server.limits import CREATE_RATE_PER_SECOND

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _request(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=5) as response:
        return json.loads(response.read())


@pytest.mark.parametrize("port", ["99999", "-1", "http"])
def test_a_bad_port_is_a_usage_error(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--port`` takes 0 to 65535 only: exit status 2 and one line on stderr."""
    assert main(["serve", "--port", port]) == 2
    err = capsys.readouterr().err
    assert err.startswith("ttr: error: argument --port") and err.count("\n") == 1


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("--bot-seconds", "0"),
        ("--bot-seconds", "-2"),
        ("--bot-seconds", "nan"),
        ("--bot-seconds", "soon"),
        ("--create-rate", "-1"),
        ("--create-rate", "inf"),
        ("--create-rate", "many"),
    ],
)
def test_a_bad_limit_is_a_usage_error(
    option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--bot-seconds`` takes seconds above 0, ``--create-rate`` a rate of 0 or more:
    anything else is exit status 2 and one line on stderr."""
    assert main(["serve", option, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ttr: error: argument {option}") and err.count("\n") == 1


def test_the_limits_default_to_the_servers_and_reach_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command's defaults are the server's constants, and the values given are the
    ones the app is built with."""
    assert serve.DEFAULT_BOT_SECONDS == BOT_SECONDS
    assert serve.DEFAULT_CREATE_RATE == CREATE_RATE_PER_SECOND
    built: list[dict[str, Any]] = []

    def fake_app(store: object, **limits: Any) -> object:
        built.append(limits)
        return object()

    monkeypatch.setattr("ttr_core.server.create_app", fake_app)
    monkeypatch.setattr("uvicorn.run", lambda app, **kwargs: None)
    db = str(tmp_path / "x.sqlite")
    assert main(["serve", "--db", db]) == 0
    assert main(["serve", "--db", db, "--bot-seconds", "2.5", "--create-rate", "0"]) == 0
    assert built == [
        {"bot_seconds": BOT_SECONDS, "create_rate": CREATE_RATE_PER_SECOND},
        {"bot_seconds": 2.5, "create_rate": 0.0},
    ]


def test_an_unopenable_database_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A SQLite file in a folder that does not exist: exit status 1, one line on stderr."""
    assert main(["serve", "--db", str(tmp_path / "no" / "such" / "x.sqlite")]) == 1
    assert "cannot open the database" in capsys.readouterr().err


def test_without_the_extra_the_import_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Importing the server without Starlette raises MissingExtraError with pip's command."""
    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.delitem(sys.modules, "ttr_core.server")
    with pytest.raises(MissingExtraError, match="pip install"):
        importlib.import_module("ttr_core.server")


@pytest.mark.slow
def test_a_real_server_serves_and_resumes(tmp_path: Path) -> None:
    """``ttr serve`` on a free port of 127.0.0.1: create a game, play over a WebSocket,
    stop the server, start it again on the same file and find the game where it was."""
    from websockets.sync.client import connect

    db = tmp_path / "served.sqlite"

    def start() -> tuple[subprocess.Popen[bytes], str]:
        port = _free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "ttr_core", "serve", "--port", str(port), "--db", str(db)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"127.0.0.1:{port}"
        end = time.monotonic() + 30
        while True:
            try:
                _request(f"http://{base}/api/games")
                return process, base
            except (urllib.error.URLError, ConnectionError):
                assert process.poll() is None, "the server exited"
                assert time.monotonic() < end, "the server did not start"
                time.sleep(0.1)

    def stop(process: subprocess.Popen[bytes]) -> None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    process, base = start()
    try:
        created = _request(
            f"http://{base}/api/games",
            {"edition": "usa", "players": [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}]},
        )
        token = created["seats"][0]["token"]
        url = f"ws://{base}/ws/games/{created['id']}?token={token}"
        with connect(url, open_timeout=5, close_timeout=2) as ws:
            assert json.loads(ws.recv(timeout=5))["legal"]
            ws.send(json.dumps({"type": "action", "index": 0}))
            state = json.loads(ws.recv(timeout=5))
            while not state["legal"]:
                state = json.loads(ws.recv(timeout=10))
    finally:
        stop(process)
    assert db.exists()
    process, base = start()
    try:
        listed = _request(f"http://{base}/api/games")["games"]
        assert [(g["id"], g["actions"], g["current"]) for g in listed] == [(created["id"], 2, 0)]
        url = f"ws://{base}/ws/games/{created['id']}?token={token}"
        with connect(url, open_timeout=5, close_timeout=2) as ws:
            assert json.loads(ws.recv(timeout=5))["view"] == state["view"]
        client = _how_to_client()
        assert client["play"](base, created["id"], token)["phase"] == "game_over"
        (finished,) = _request(f"http://{base}/api/games")["games"]
        assert finished["status"] == "finished" and len(finished["scores"]) == 2
    finally:
        stop(process)


def _how_to_client() -> dict[str, Any]:
    """The namespace of the client example in the how-to on game servers."""
    page = (DOCS / "how-to" / "run-a-game-server.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```$", page, re.M | re.S)
    (client,) = [b for b in blocks if "websockets" in b]
    namespace: dict[str, Any] = {"__name__": "how_to_client"}
    exec(compile(client, "run-a-game-server.md", "exec"), namespace)
    return namespace
