"""``ttr play``'s menus: every legal action is reachable by what a person types, nothing
else is offered, each screen fits an 80x24 terminal, and the lines typed mean what the
help says (numbers, pages, cities, colours, back, commands)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator

import pytest
from attrs import evolve

from ttr_core import Game, Ruleset, ruleset_for
from ttr_core.cli.play import Table
from ttr_core.cli.play_board import (
    WIDTH,
    board_lines,
    cheapest_way,
    city_lines,
    find_cities,
    missing_trains,
    ticket_lines,
    ticket_progress,
    ticket_text,
)
from ttr_core.cli.play_menus import (
    PAGE,
    Back,
    Command,
    Menu,
    MenuSession,
    Narrowing,
    Pick,
    Say,
    Show,
    keep_choice,
    menu_for,
    track_text,
)
from ttr_core.model.actions import (
    Action,
    BuildStation,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.model.cards import CARD_NAMES, LOCO
from ttr_core.model.state import Phase
from ttr_core.rules.views import PlayerView

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")

KINDS = {
    "usa": {ClaimRoute, TakeFaceUp, DrawBlind, DrawTickets, KeepTickets},
    "europe": {BuildStation, PayTunnel, WithdrawTunnel, ClaimRoute},
    "india": {ClaimRoute, KeepTickets},
    "switzerland": {PayTunnel, WithdrawTunnel, ClaimRoute},
    "nordic": {ClaimWithGroups, ChooseCard, PayTunnel, WithdrawTunnel, ClaimRoute},
}
"""Action kinds each edition's sampled games must meet, so the walk covers them."""


def reachable(rs: Ruleset, menu: Menu) -> Iterator[Action]:
    """Every action reached by typing the numbers of ``menu`` and of the menus they
    open; each number is checked to be on one of the pages ``more`` shows."""
    session = MenuSession(rs, menu)
    seen: set[int] = set()
    for _ in range(session.pages):
        for line in session.screen():
            head = line.strip().split(".")[0]
            if line.startswith("  ") and head.isdigit():
                seen.add(int(head))
        if session.pages > 1:
            assert isinstance(session.handle("more"), Show)
    assert seen == set(range(1, len(menu.options) + 1)), menu.title
    for k in range(1, len(menu.options) + 1):
        reply = session.handle(str(k))
        assert isinstance(reply, Pick)
        if reply.option.action is not None:
            yield reply.option.action
        else:
            assert reply.option.submenu is not None
            sub = reply.option.submenu()
            assert sub.back and isinstance(MenuSession(rs, sub).handle("0"), Back)
            yield from reachable(rs, sub)


def kept(view: PlayerView, legal: list[Action]) -> Iterator[Action]:
    """Every ticket choice reached by typing the numbers of a subset of the offer."""
    offered = view.offered
    for size in range(1, len(offered) + 1):
        for numbers in itertools.combinations(range(1, len(offered) + 1), size):
            chosen = keep_choice(" ".join(map(str, reversed(numbers))), offered, legal)
            if isinstance(chosen, KeepTickets):
                yield chosen


def hoarder(rng: random.Random, legal: list[Action]) -> Action:
    """A random player that mostly draws cards, so that hands grow and claims of every
    kind (tunnels, groups of any cards, stations) come up."""
    draws = [a for a in legal if isinstance(a, TakeFaceUp | DrawBlind)]
    if draws and rng.random() < 0.7:
        return rng.choice(draws)
    return rng.choice(legal)


def positions(edition: str, games: int, players: int) -> Iterator[tuple[Game, list[Action]]]:
    """Positions of games between hoarders: each decision, with its legal actions."""
    for seed in range(games):
        rng = random.Random(seed)
        game = Game.new(edition, players=players, seed=seed)
        while not game.is_over:
            legal = list(game.legal_actions())
            yield game, legal
            game.apply(hoarder(rng, legal))


def table_of(game: Game) -> Table:
    seat = game.current_player
    labels = ["greedy"] * len(game.names)
    labels[seat] = "you"
    return Table(game, seat, labels, [None] * len(labels), [game.ruleset] * len(labels))


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_the_menus_reach_exactly_the_legal_actions(edition: str) -> None:
    """At every decision of sampled games, walking the menus by their numbers (and the
    ticket prompt by its number lists) reaches each legal action exactly once and
    nothing else; the decisions met include every action kind of the edition."""
    rs = ruleset_for(edition)
    met: set[type] = set()
    players = min(3, rs.params.players[1])
    for game, legal in positions(edition, games=1, players=players):
        view = game.view(game.current_player)
        menu = menu_for(rs, view, legal)
        got = list(kept(view, legal)) if menu is None else list(reachable(rs, menu))
        assert Counter(got) == Counter(legal), (edition, view.phase)
        met.update(type(a) for a in legal)
    assert KINDS[edition] <= met, KINDS[edition] - met


@pytest.mark.slow
@pytest.mark.parametrize("edition", EDITIONS)
def test_every_screen_fits_80_by_24(edition: str) -> None:
    """The table and the menu of each decision, and each page of a further menu, with
    the prompt, fit 24 lines of 80 columns; so do the map, tickets and help screens."""
    rs = ruleset_for(edition)
    players = rs.params.players[1]
    for i, (game, legal) in enumerate(positions(edition, games=1, players=players)):
        if i % 3:
            continue
        table = table_of(game)
        view = game.view(game.current_player)
        menu = menu_for(rs, view, legal)
        if menu is None:
            continue
        screens = [[*table.view_lines(view), *MenuSession(rs, menu).screen()]]
        session = MenuSession(rs, menu)
        screens.append(list(session.help()))
        for option in menu.options:
            if option.submenu is not None:
                sub = MenuSession(rs, option.submenu())
                for _ in range(sub.pages):
                    screens.append(list(sub.screen()))
                    sub.handle("more")
        screens.append(board_lines(rs, view, table.who))
        screens.append(ticket_lines(rs, view))
        for screen in screens:
            assert len(screen) + 1 <= 24, "\n".join(screen)
            assert all(len(line) <= WIDTH for line in screen), "\n".join(screen)


def test_every_track_label_fits_a_menu_line() -> None:
    """A route line with its number and its ways to pay fits 80 columns in every edition."""
    for edition in EDITIONS:
        rs = ruleset_for(edition)
        for r in range(len(rs.map.routes)):
            line = f"  99. {track_text(rs, r)}, 99 ways to pay"
            assert len(line) <= WIDTH, line


# -- the lines typed at a menu -----------------------------------------------------------------


def turn_position(
    edition: str = "usa", seed: int = 1, turns: int = 40
) -> tuple[Game, list[Action]]:
    """A position some turns into a game between hoarders, at a turn's first decision."""
    for k, (game, legal) in enumerate(positions(edition, games=seed, players=2)):
        if k >= turns and game.state.phase is Phase.TURN:
            return game, legal
    raise AssertionError("the game ended too soon")


def claims_menu(rs: Ruleset, game: Game, legal: list[Action]) -> Menu:
    menu = menu_for(rs, game.view(game.current_player), legal)
    assert menu is not None
    option = next(o for o in menu.options if o.label.startswith("Claim a route"))
    assert option.submenu is not None
    return option.submenu()


def test_a_long_claim_menu_is_paged_with_more_and_prev() -> None:
    game, legal = turn_position()
    rs = game.ruleset
    menu = claims_menu(rs, game, legal)
    assert len(menu.options) > PAGE
    session = MenuSession(rs, menu)
    first = session.screen()
    assert sum(1 for line in first if line.strip()[:1].isdigit()) == PAGE
    assert "page 1 of" in first[0] and "more: next page" in first[-1]
    second = session.handle("more")
    assert isinstance(second, Show) and "page 2 of" in second.lines[0]
    assert second.lines[1].startswith(f"  {PAGE + 1}. ")
    back = session.handle("prev")
    assert isinstance(back, Show) and back.lines == first
    # numbers are the same on every page: one on a later page is chosen from the first
    assert isinstance(session.handle(str(PAGE + 1)), Pick)


def test_a_city_narrows_the_routes_to_those_touching_it() -> None:
    """The name, a prefix in any case, or without accents; two cities narrow to the routes
    between them; all widens again."""
    game, legal = turn_position()
    rs = game.ruleset
    menu = claims_menu(rs, game, legal)
    city = menu.options[0].cities[0]
    session = MenuSession(rs, menu)
    for typed in (city, city.upper(), city[:5].lower()):
        if len(find_cities(rs, typed)) != 1:
            continue
        session = MenuSession(rs, menu)
        reply = session.handle(typed)
        assert isinstance(reply, Show), reply
        assert all(city in o.cities for o in session.shown)
        assert session.shown and len(session.shown) < len(menu.options)
        assert f"at {city}" in reply.lines[0]
    other = next(c for c in menu.options[0].cities if c != city)
    session.handle(other)
    assert all(set(o.cities) == {city, other} for o in session.shown)
    assert isinstance(session.handle("all"), Show)
    assert session.shown == menu.options


def test_a_colour_narrows_the_routes() -> None:
    game, legal = turn_position()
    rs = game.ruleset
    menu = claims_menu(rs, game, legal)
    color = menu.options[0].color
    assert color is not None
    session = MenuSession(rs, menu)
    reply = session.handle(color.upper())
    assert isinstance(reply, Show)
    assert session.shown and all(o.color == color for o in session.shown)
    assert f"{color} route" in reply.lines[0]


def test_a_city_typed_at_the_turn_menu_opens_its_claims() -> None:
    game, legal = turn_position()
    rs = game.ruleset
    view = game.view(game.current_player)
    menu = menu_for(rs, view, legal)
    assert menu is not None
    city = claims_menu(rs, game, legal).options[0].cities[0]
    reply = MenuSession(rs, menu).handle(city.lower())
    assert isinstance(reply, Pick) and reply.narrowing == Narrowing((city,))
    assert reply.option.label.startswith("Claim a route")


def test_a_city_with_nothing_to_claim_is_one_line() -> None:
    """A city none of whose routes the hand pays for says so; an ambiguous prefix lists the
    cities it could be; a word that is no city is refused like any wrong choice."""
    game, legal = turn_position()
    rs = game.ruleset
    menu = claims_menu(rs, game, legal)
    touched = {c for o in menu.options for c in o.cities}
    lonely = next(c.id for c in rs.map.cities if c.id not in touched)
    session = MenuSession(rs, menu)
    reply = session.handle(lonely)
    assert isinstance(reply, Say) and f"at {lonely}" in reply.text
    san = session.handle("san")
    assert isinstance(san, Say) and "San Francisco" in san.text and "Santa Fe" in san.text
    nothing = session.handle("xyzzy")
    assert isinstance(nothing, Say) and "'xyzzy' is not a choice here" in nothing.text


@pytest.mark.parametrize(
    ("edition", "typed", "city"),
    [
        ("switzerland", "zurich", "Zürich"),
        ("nordic", "kobenhavn", "København"),
        ("nordic", "tromso", "Tromsø"),
        ("nordic", "aalborg", "Ålborg"),
        ("europe", "MUNCH", "München"),
        ("usa", "saint lou", "Saint Louis"),
        ("usa", "louis", "Saint Louis"),
        ("usa", "calg", "Calgary"),
        ("switzerland", "Zuerich", "Zürich"),
    ],
)
def test_cities_are_found_without_case_or_accents(edition: str, typed: str, city: str) -> None:
    rs = ruleset_for(edition)
    assert city in [c.id for c in rs.map.cities]
    assert find_cities(rs, typed) == (city,)


def test_help_back_commands_and_refusals_at_a_menu() -> None:
    """help lists what the prompt takes; map, tickets and view are commands; 0 goes back
    only where there is a menu before; Enter shows the menu again."""
    game, legal = turn_position()
    rs = game.ruleset
    menu = menu_for(rs, game.view(game.current_player), legal)
    assert menu is not None
    session = MenuSession(rs, menu)
    helped = session.handle("help")
    assert isinstance(helped, Show)
    text = "\n".join(helped.lines)
    for word in ("a city", "map svg", "tickets", "view", "q "):
        assert word in text
    assert "0 or back" not in text
    assert session.handle("map") == Command("map")
    assert session.handle("map svg out.svg") == Command("map", "svg out.svg")
    assert session.handle("map Denver") == Command("map", "Denver")
    assert session.handle("tickets") == Command("tickets")
    assert session.handle("view") == Command("view")
    assert session.handle("") == Show(session.screen())
    zero = session.handle("0")
    assert isinstance(zero, Say) and zero.text.startswith("'0' is not a choice here")
    claims = MenuSession(rs, claims_menu(rs, game, legal))
    assert isinstance(claims.handle("0"), Back) and isinstance(claims.handle("back"), Back)
    assert "0 or back" in "\n".join(claims.help())


def test_face_up_cards_are_offered_in_table_order() -> None:
    """The menu's face-up lines follow the display left to right, whatever the card order."""
    checked = 0
    for game, legal in positions("usa", games=2, players=2):
        view = game.view(game.current_player)
        menu = menu_for(game.ruleset, view, legal)
        if menu is None:
            continue
        offered = [o.action.card for o in menu.options if isinstance(o.action, TakeFaceUp)]
        expected = list(dict.fromkeys(c for c in view.display if c >= 0))
        expected = [c for c in expected if TakeFaceUp(c) in legal]
        assert offered == expected
        shown = [CARD_NAMES[c] for c in offered]
        labels = [o.label for o in menu.options if isinstance(o.action, TakeFaceUp)]
        assert all(name in label for name, label in zip(shown, labels, strict=True))
        checked += offered != sorted(offered)
    assert checked, "no display out of card order was met"


def test_a_locomotive_taken_as_the_whole_draw_says_so() -> None:
    for game, legal in positions("usa", games=3, players=2):
        view = game.view(game.current_player)
        if view.phase is Phase.TURN and TakeFaceUp(LOCO) in legal:
            menu = menu_for(game.ruleset, view, legal)
            assert menu is not None
            assert "Take the face-up locomotive (your whole draw)" in [
                o.label for o in menu.options
            ]
            return
    raise AssertionError("no face-up locomotive was met")


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("", "Type numbers from 1 to 3, separated by spaces, or all."),
        ("4", "'4' is not a ticket number: type numbers from 1 to 3."),
        ("1 1", "Ticket 1 is named twice."),
        ("2", "Keep at least 2 tickets."),
        ("one", "'one' is not a ticket number"),
    ],
)
def test_a_refused_ticket_choice_says_why(typed: str, why: str) -> None:
    game = Game.new("usa", players=2, seed=1)
    view = game.view(game.current_player)
    legal = list(game.legal_actions())
    reply = keep_choice(typed, view.offered, legal)
    assert isinstance(reply, str) and reply.startswith(why)


def test_ticket_numbers_in_any_order_keep_those_tickets() -> None:
    game = Game.new("usa", players=2, seed=1)
    view = game.view(game.current_player)
    legal = list(game.legal_actions())
    assert keep_choice("3, 1", view.offered, legal) == KeepTickets(
        (view.offered[0], view.offered[2])
    )
    assert keep_choice("ALL", view.offered, legal) == KeepTickets(view.offered)


# -- the board and the tickets in words --------------------------------------------------------


def test_ticket_progress_counts_the_track_still_missing() -> None:
    """A kept ticket is done as scoring counts it; otherwise its way is the cheapest
    through the person's tracks (free) and open ones, whose tracks are all open."""
    rs = ruleset_for("usa")
    for game, _ in positions("usa", games=2, players=2):
        if game.state.phase is not Phase.TURN:
            continue
        view = game.view(game.current_player)
        for p in ticket_progress(rs, view):
            if p.completed or p.way is None:
                assert p.completed or len(p.apart) == 2
                continue
            assert p.way.trains == sum(rs.map.routes[r].length for r in p.way.tracks) > 0
            assert all(view.owners[r] < 0 for r in p.way.tracks)


def test_the_cheapest_way_goes_through_the_persons_own_tracks() -> None:
    rs = ruleset_for("usa")
    game = Game.new("usa", players=2, seed=1)
    view = game.view(0)
    way = cheapest_way(rs, view, ["Denver"], ["Omaha"])
    assert way is not None and way.trains == 4
    assert [rs.map.routes[r].cities for r in way.tracks] in (
        [("Denver", "Omaha")],
        [("Omaha", "Denver")],
    )
    assert missing_trains(rs, view, ["Omaha"], ["Kansas City"]) == 1
    assert missing_trains(rs, view, ["Vancouver"], ["Miami"]) is not None
    denver_omaha = next(
        r for r, t in enumerate(rs.map.routes) if set(t.cities) == {"Denver", "Omaha"}
    )
    owners = list(view.owners)
    owners[denver_omaha] = 0
    mine = evolve(view, owners=tuple(owners))
    assert missing_trains(rs, mine, ["Denver"], ["Omaha"]) == 0
    owners[denver_omaha] = 1
    cut = evolve(view, owners=tuple(owners))
    way = cheapest_way(rs, cut, ["Denver"], ["Omaha"])
    assert way is not None and way.trains > 4 and denver_omaha not in way.tracks


def test_ticket_lines_name_each_ticket_and_its_state() -> None:
    """A line per ticket, numbered; tickets N lists the tracks of N's cheapest way, whose
    lengths add up to what the line says is to go."""
    game, _ = turn_position()
    rs = game.ruleset
    view = game.view(game.current_player)
    lines = ticket_lines(rs, view)
    assert lines[0].startswith("Your tickets (") and len(lines) == 1 + len(view.tickets)
    progress = ticket_progress(rs, view)
    for k, (line, p) in enumerate(zip(lines[1:], progress, strict=True), start=1):
        assert line.startswith(f"  {k}. {ticket_text(rs, p.ticket)}: ")
        if p.completed:
            assert line.endswith(": done")
            continue
        assert p.way is not None, "sampled tickets are not cut off"
        assert f": {p.way.trains} to go" in line
        detail = ticket_lines(rs, view, str(k))
        assert detail[-1] == f"  {p.way.trains} trains in all." or p.way.trains == 1
        assert sum(int(x.rsplit(": ", 1)[1].split()[0]) for x in detail[1:-1]) == p.way.trains
    assert "is not one of your tickets" in ticket_lines(rs, view, "99")[0]


def test_the_board_in_words_shows_every_player_and_a_city() -> None:
    game, _ = turn_position()
    rs = game.ruleset
    view = game.view(game.current_player)
    who = ["Player 1 (you)", "Player 2 (greedy)"]
    text = "\n".join(board_lines(rs, view, who))
    assert who[0] in text and who[1] in text and "map svg" in text
    claimed = next(r for r, o in enumerate(view.owners) if o >= 0)
    a, b = rs.map.routes[claimed].cities
    at = "\n".join(city_lines(rs, view, a, who))
    assert f"to {b}: " in at and who[view.owners[claimed]] in at


def test_a_station_is_built_at_a_city_typed_by_name() -> None:
    """Europe: the station menu counts its cities, and a city's name narrows it to that
    city, whose payments come next."""
    game, legal = turn_position("europe", turns=10)
    rs = game.ruleset
    menu = menu_for(rs, game.view(game.current_player), legal)
    assert menu is not None
    option = next(o for o in menu.options if o.label.startswith("Build a station"))
    assert option.submenu is not None
    stations = MenuSession(rs, option.submenu())
    assert "cities" in stations.screen()[0] and "type a city ·" in stations.screen()[-1]
    reply = stations.handle("zur")
    assert isinstance(reply, Show) and reply.lines[0].endswith("(1 city at Zürich)")
    red = stations.handle("red")
    assert isinstance(red, Say) and red.text.startswith("'red' is not a choice here")
    pick = stations.handle("1")
    assert isinstance(pick, Pick) and pick.option.submenu is not None
    pays = pick.option.submenu().options
    assert pays and all(
        isinstance(o.action, BuildStation) and o.action.city == "Zürich" for o in pays
    )
