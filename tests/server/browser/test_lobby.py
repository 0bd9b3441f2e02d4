"""The lobby of the web table in Chromium: a game set up with bots from the form, listed,
watched as a spectator to its end, and then listed as finished with its record."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from .table_driver import api

pytestmark = pytest.mark.browser


def test_the_lobby_offers_the_editions_and_the_registry_bots(page: Page, server: str) -> None:
    """The form lists every installed edition and every bot of the library's registry, and
    its player counts follow the chosen edition's."""
    page.goto(server + "/")
    page.wait_for_selector("[data-testid=create-edition] option", state="attached")
    choices = api(server, "/api/lobby")
    editions = page.locator("[data-testid=create-edition] option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    assert editions == [e["id"] for e in choices["editions"]]
    kinds = page.locator("[data-testid=seat-kind-0] option").evaluate_all(
        "os => os.map(o => o.value)"
    )
    assert kinds == ["", *choices["bots"]] and "greedy" in kinds
    page.select_option("[data-testid=create-edition]", "nordic")
    counts = page.locator("[data-testid=create-count] option").evaluate_all(
        "os => os.map(o => Number(o.value))"
    )
    assert counts == [2, 3]


@pytest.mark.slow
def test_a_game_of_bots_made_in_the_lobby_is_listed_and_watched_to_its_end(
    page: Page, server: str, screenshot_dir: Path
) -> None:
    """Create a USA game of two greedy bots with a seed from the form; it is listed with its
    players; its watch link opens the spectators' table (no hand, no controls) that follows
    the game to the score sheet; back in the lobby it is finished, with a record link."""
    page.goto(server + "/")
    page.wait_for_selector("[data-testid=seat-kind-1]")
    page.select_option("[data-testid=create-edition]", "usa")
    page.select_option("[data-testid=create-count]", "2")
    page.fill("[data-testid=seat-name-0]", "Ada")
    page.select_option("[data-testid=seat-kind-0]", "greedy")
    page.fill("[data-testid=seat-name-1]", "Bea")
    page.select_option("[data-testid=seat-kind-1]", "random")
    page.fill("[data-testid=create-seed]", "5")
    page.click("[data-testid=create-submit]")
    page.wait_for_selector("[data-testid=created]:not([hidden])")
    game_id = page.get_attribute("[data-testid=created]", "data-game")
    assert game_id
    row = page.locator(f"[data-testid=game-{game_id}]")
    row.wait_for()
    assert "Ada (greedy)" in (row.text_content() or "")
    assert "Bea (random)" in (row.text_content() or "")
    page.screenshot(path=str(screenshot_dir / "lobby.png"), full_page=True)
    print(f"screenshot of the lobby: {screenshot_dir / 'lobby.png'}")
    page.click(f"[data-testid=watch-{game_id}]")
    page.wait_for_function("() => Number(document.getElementById('table').dataset.seq) > 0")
    assert "watching" in (page.text_content("[data-testid=status]") or "")
    assert page.locator("#hand-panel").is_hidden()
    page.wait_for_selector("[data-testid=final]:not([hidden])", timeout=60_000)
    assert page.locator("[data-action-index]").count() == 0
    assert page.locator("[data-testid=log] li").count() > 0
    finished = api(server, f"/api/games/{game_id}")
    shown = [int(page.text_content(f"[data-testid=final-total-{s}]") or "") for s in range(2)]
    assert shown == [s["total"] for s in finished["scores"]]
    page.click("[data-testid=home]")
    page.wait_for_selector(f"[data-testid=game-{game_id}][data-status=finished]")
    record = page.locator(f"[data-testid=record-{game_id}]")
    assert record.get_attribute("href") == f"/api/games/{game_id}/record"
