"""Fixtures of the browser tests: a real ``ttr serve`` on a free port of 127.0.0.1 over a
temporary SQLite file, Debian's Chromium driven by Playwright, and a folder for the
screenshots a person can look at."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from .table_driver import api

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """The Chromium to drive: ``TTR_CHROMIUM`` if set, else ``chromium`` or
    ``chromium-browser`` on the PATH."""
    chosen = os.environ.get("TTR_CHROMIUM")
    if chosen:
        return chosen
    return shutil.which("chromium") or shutil.which("chromium-browser")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip the browser tests, saying why, only when no Chromium is installed."""
    if chromium_path() is not None:
        return
    skip = pytest.mark.skip(reason="no Chromium installed (set TTR_CHROMIUM or install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a ``ttr serve`` running over a fresh SQLite file; stopped at the end."""
    db = tmp_path_factory.mktemp("served") / "games.sqlite"
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "ttr_core", "serve", "--port", str(port), "--db", str(db)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        end = time.monotonic() + 30
        while True:
            try:
                api(base, "/api/games")
                break
            except (urllib.error.URLError, ConnectionError):
                assert process.poll() is None, "the server exited"
                assert time.monotonic() < end, "the server did not start"
                time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright (its own download is not used)."""
    path = chromium_path()
    assert path is not None  # the tests that use it are skipped otherwise
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser context (its own storage) with a large window."""
    ctx = browser.new_context(viewport={"width": 1500, "height": 950})
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    """A page of a fresh context; a script error on it fails the test."""
    new = context.new_page()
    errors: list[str] = []
    new.on("pageerror", lambda exc: errors.append(str(exc)))
    yield new
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture(scope="session")
def screenshot_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots of the table go: ``TTR_SCREENSHOT_DIR``, else a folder of pytest's
    temporary directory."""
    chosen = os.environ.get("TTR_SCREENSHOT_DIR")
    folder = Path(chosen) if chosen else tmp_path_factory.getbasetemp() / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
