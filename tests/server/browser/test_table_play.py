"""Whole games and their hard moments played through the web table in Chromium, clicking
only: a USA game to its score sheet, a Europe tunnel, a Nordic ferry paid card by card,
and two people at one game, each with their own hand."""

from __future__ import annotations

import random
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Locator, Page

import ttr_core as ttr

from .table_driver import (
    ACTION_CONTROLS,
    api,
    click_random,
    click_route,
    click_target,
    hand_on_page,
    open_table,
    wait_to_act,
)

pytestmark = pytest.mark.browser


def _create(base: str, edition: str, players: list[dict[str, str]], seed: int) -> dict[str, str]:
    made = api(base, "/api/games", {"edition": edition, "players": players, "seed": seed})
    return {"id": made["id"], **{str(s["seat"]): s["token"] for s in made["seats"] if "token" in s}}


def _record(base: str, game_id: str) -> ttr.Game:
    with urllib.request.urlopen(f"{base}/api/games/{game_id}/record", timeout=10) as response:
        return ttr.Game.load(response.read())


def _shot(page: Page, folder: Path, name: str) -> None:
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    print(f"screenshot of the table: {path}")


@pytest.mark.slow
def test_a_whole_usa_game_against_a_greedy_bot_by_clicks_shows_the_recorded_scores(
    page: Page, server: str, screenshot_dir: Path
) -> None:
    """A seeded USA game, one person against the greedy bot, played to the end by clicking
    seeded random controls of the page (a bright track when there is one); the score sheet
    the page shows is the final scoring of the game's record as the library scores it."""
    made = _create(server, "usa", [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=11)
    open_table(page, server, made["id"], made["0"])
    rng = random.Random(5)
    clicks = 0
    while wait_to_act(page, timeout=30_000):
        assert clicks < 400, "the game is not over after 400 clicks"
        click_random(page, rng, prefer_claims=True)
        clicks += 1
        if clicks == 40:
            _shot(page, screenshot_dir, "usa-table-mid-game")
    page.wait_for_selector("[data-testid=final]:not([hidden])")
    _shot(page, screenshot_dir, "usa-table-final")
    print(f"the USA game took {clicks} clicks")
    game = _record(server, made["id"])
    assert game.is_over
    sheet = game.scores()
    shown = [int(page.text_content(f"[data-testid=final-total-{s}]") or "") for s in range(2)]
    assert shown == [p.total for p in sheet.players]
    for seat in range(2):
        assert page.text_content(f"[data-testid=score-{seat}]") is not None
    winners = page.locator("[data-testid=final] tr.winner").count()
    assert winners == len(sheet.winners)


def _keep_offer_if_asked(page: Page) -> bool:
    keep = page.locator("[data-testid=keep-tickets][data-action-index]")
    if keep.count():
        keep.click(force=True)
        return True
    return False


def _route_id(track: Locator) -> int:
    return int((track.get_attribute("id") or "").removeprefix("route-"))


def _draw_or_first(page: Page) -> None:
    """Draw from the deck if the page offers it, else click its first action control."""
    deck = page.locator(f"[data-testid=deck]{ACTION_CONTROLS}")
    (deck if deck.count() else page.locator(ACTION_CONTROLS).first).click(force=True)


def _tag_buttons(page: Page, tag: str) -> list[Locator]:
    return page.locator(f"[data-testid=other-actions] [data-tag={tag}]:not([disabled])").all()


@pytest.mark.slow
def test_a_europe_tunnel_is_paid_or_withdrawn_on_the_page(
    page: Page, server: str, screenshot_dir: Path
) -> None:
    """The first turns of a Europe game against the greedy bot: the person claims the first
    bright tunnel by clicking it, and when the reveal asks for more cards (TUNNEL-3,
    TUNNEL-4) the page offers paying (TUNNEL-6) and withdrawing (TUNNEL-7) as buttons;
    paying claims the tunnel in the seat's colour, withdrawing leaves it open."""
    made = _create(server, "europe", [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=3)
    tunnels = {r.id for r in ttr.ruleset_for("europe").map.routes if r.tunnel}
    open_table(page, server, made["id"], made["0"])
    claiming = None
    for _ in range(80):
        assert wait_to_act(page), "the game ended before a tunnel came up"
        if _keep_offer_if_asked(page):
            continue
        pay, withdraw = _tag_buttons(page, "pay_tunnel"), _tag_buttons(page, "withdraw_tunnel")
        if withdraw:
            assert claiming is not None
            assert page.locator("[data-testid=tunnel-info]").is_visible()
            _shot(page, screenshot_dir, "europe-tunnel")
            (pay[0] if pay else withdraw[0]).click(force=True)
            track = f'#map g.route[id="route-{claiming}"]'
            if pay:
                page.wait_for_selector(f'{track}[data-owner="0"]', state="attached")
            else:
                page.wait_for_selector("[data-testid=log] li[data-tag=tunnel_withdrawn]")
                assert page.get_attribute(track, "data-owner") is None
            return
        bright = [_route_id(g) for g in page.locator("#map g.route.claimable").all()]
        chosen = sorted(r for r in bright if r in tunnels)
        if chosen:
            claiming = chosen[0]
            click_route(page, claiming)
            page.locator(f"[data-testid=payments] {ACTION_CONTROLS}").first.click(force=True)
        else:
            _draw_or_first(page)
    pytest.fail("no tunnel asked for more cards in the first 80 clicks")


@pytest.mark.slow
def test_a_nordic_ferry_is_claimed_with_cards_chosen_one_at_a_time_on_the_page(
    page: Page, server: str, screenshot_dir: Path
) -> None:
    """Nordic: the person clicks a bright ferry, picks the payment with a group of any cards,
    then names the cards one at a time from the page's buttons (rule GROUP-3: each choice is
    a legal action of its own); the ferry ends up in the seat's colour."""
    made = _create(server, "nordic", [{"name": "Ann"}, {"name": "Bot", "bot": "greedy"}], seed=0)
    open_table(page, server, made["id"], made["0"])
    chosen_cards = 0
    ferry = None
    for _ in range(60):
        assert wait_to_act(page), "the game ended before a ferry could be claimed"
        if _keep_offer_if_asked(page):
            continue
        cards = _tag_buttons(page, "choose_card")
        if cards:
            assert ferry is not None
            assert page.locator("[data-testid=choice-info]").is_visible()
            if chosen_cards == 0:
                _shot(page, screenshot_dir, "nordic-ferry-choice")
            cards[0].click(force=True)
            chosen_cards += 1
            continue
        if ferry is not None:
            break
        for track in page.locator("#map g.route.claimable.ferry").all():
            click_target(track)
            groups = page.locator(
                f"[data-testid=payments] {ACTION_CONTROLS}[data-tag=claim_with_groups]"
            )
            if groups.count():
                ferry = _route_id(track)
                groups.first.click(force=True)
                break
            page.click("[data-testid=cancel]")
        else:
            _draw_or_first(page)
    assert ferry is not None, "no ferry could be paid with a group of any cards"
    assert chosen_cards >= 1
    page.wait_for_selector(f'#map g.route[id="route-{ferry}"][data-owner="0"]', state="attached")
    mine = page.locator("[data-testid=log] li[data-tag=card_chosen][data-player='0']")
    assert mine.count() == chosen_cards


@pytest.mark.slow
def test_two_people_at_one_game_each_see_only_their_own_hand_and_take_turns(
    browser: Browser, server: str
) -> None:
    """Two browser contexts hold the two seats of one USA game: each page shows its own
    seat's hand (as the record's view of that seat has it), only the seat to act has
    controls, and the turns pass from one page to the other."""
    made = _create(server, "usa", [{"name": "Ann"}, {"name": "Bob"}], seed=7)
    contexts = [browser.new_context(viewport={"width": 1300, "height": 900}) for _ in range(2)]
    try:
        pages = [ctx.new_page() for ctx in contexts]
        for seat, p in enumerate(pages):
            open_table(p, server, made["id"], made[str(seat)])
        acted = [0, 0]
        for _ in range(8):
            current = api(server, f"/api/games/{made['id']}")["current"]
            other = 1 - current
            assert wait_to_act(pages[current])
            pages[other].wait_for_function(
                f"() => document.getElementById('table').dataset.current === '{current}'"
            )
            assert pages[other].locator(ACTION_CONTROLS).count() == 0
            game = _record(server, made["id"])
            for seat, p in enumerate(pages):
                assert hand_on_page(p) == ttr.view_to_json(game.view(seat))["hand"]
            if not _keep_offer_if_asked(pages[current]):
                _draw_or_first(pages[current])
            pages[current].wait_for_function("() => !document.getElementById('table').dataset.busy")
            acted[current] += 1
        assert acted[0] > 0 and acted[1] > 0
    finally:
        for ctx in contexts:
            ctx.close()
