"""Driving the web table in the browser tests: opening a seat, waiting for the page to be
ready to act, listing and clicking its controls."""

from __future__ import annotations

import json
import random
import urllib.request
from typing import Any

from playwright.sync_api import Locator, Page

READY = """() => {
  const t = document.getElementById("table");
  return t && Number(t.dataset.seq) > 0 && !t.dataset.busy &&
    (t.dataset.phase === "game_over" ? "over" : t.dataset.toAct === "true" && "act");
}"""

ACTION_CONTROLS = "[data-action-index]:not([disabled]):not([data-testid=every-action])"
MAP_TARGETS = "#map g.route.claimable, #map g.city.buildable"


def api(base: str, path: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or, with ``body``, POST) ``path`` of the server; the JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def open_table(page: Page, base: str, game_id: str, token: str | None = None) -> None:
    """Open the table of a game, as a seat (with its token) or as a spectator, and wait for
    its first state to be drawn."""
    hash_ = f"#game={game_id}" + (f"&token={token}" if token else "")
    page.goto(f"{base}/{hash_}")
    page.wait_for_function("() => Number(document.getElementById('table').dataset.seq) > 0")


def wait_to_act(page: Page, timeout: float = 20_000) -> bool:
    """Wait until the seat is to act or the game is over; True while the game goes on."""
    state: str = page.wait_for_function(READY, timeout=timeout).json_value()
    return state != "over"


def controls(page: Page) -> list[Locator]:
    """Every enabled control that acts, in page order: the payment buttons of a chosen
    track or city if one is chosen, else the action buttons and the marked map targets."""
    payments = page.locator(f"[data-testid=payments] {ACTION_CONTROLS}")
    if payments.count():
        return payments.all()
    return page.locator(ACTION_CONTROLS).all() + page.locator(MAP_TARGETS).all()


def click_target(target: Locator) -> None:
    """Click a control; a track of the map is clicked on its middle space."""
    if target.evaluate("e => e.matches('g.route')"):
        spaces = target.locator("rect")
        spaces.nth(spaces.count() // 2).click(force=True)
    elif target.evaluate("e => e.matches('g.city')"):
        target.locator("circle").first.click(force=True)
    else:
        target.click(force=True)


def click_route(page: Page, route: int) -> None:
    """Click track ``route`` of the map (it must be marked claimable)."""
    click_target(page.locator(f'#map g.route.claimable[id="route-{route}"]'))


MARK_CHOICES = """(preferClaims) => {
  for (const old of document.querySelectorAll("[data-pick]")) old.removeAttribute("data-pick");
  const q = (sel) => [...document.querySelectorAll(sel)];
  const payments = q("[data-testid=payments] " + ACTION);
  const routes = q("#map g.route.claimable");
  let chosen = payments.length ? payments : preferClaims && routes.length ? routes
    : q(ACTION).concat(routes, q("#map g.city.buildable"));
  chosen = chosen.map((e) => e.matches("g.route") ? e.querySelectorAll("rect")[
    Math.floor(e.querySelectorAll("rect").length / 2)] : e.matches("g.city")
    ? e.querySelector("circle") : e);
  chosen.forEach((e, i) => e.setAttribute("data-pick", String(i)));
  return chosen.length;
}""".replace("ACTION", repr(ACTION_CONTROLS).replace("'", '"'))


def click_random(page: Page, rng: random.Random, prefer_claims: bool = False) -> None:
    """Click one of the page's controls at random, in one round trip to mark them: a
    payment of the chosen track if one is chosen, else (with ``prefer_claims``, while there
    is one) a bright track, else any action control or map target."""
    count = page.evaluate(MARK_CHOICES, prefer_claims)
    assert count > 0, "the seat is to act but the page offers no control"
    page.locator(f'[data-pick="{rng.randrange(count)}"]').click(force=True)


def play_randomly(page: Page, rng: random.Random, max_clicks: int) -> int:
    """Click random controls of the page until the game is over; the number of clicks."""
    clicks = 0
    while wait_to_act(page):
        assert clicks < max_clicks, f"the game is not over after {clicks} clicks"
        click_random(page, rng)
        clicks += 1
    return clicks


def hand_on_page(page: Page) -> dict[str, int]:
    """The hand the page shows, as card counts."""
    out: dict[str, int] = {}
    for chip in page.locator("#hand .card").all():
        count, _, name = (chip.text_content() or "").partition(" × ")
        out[name] = int(count)
    return out


def actions_on_page(page: Page) -> list[dict[str, Any]]:
    """The tags of the action controls shown (each with its action index)."""
    return [
        {
            "index": int(c.get_attribute("data-action-index") or -1),
            "tag": c.get_attribute("data-tag"),
        }
        for c in page.locator(ACTION_CONTROLS).all()
    ]
