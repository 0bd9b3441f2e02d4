"""Station assignment by components (STATION-6 to STATION-9, STATION-12) against exhaustive search.

When the core's ``ttr_ticket_result`` alone scores tickets, final scoring assigns stations
by the components of the owner's own tracks: tracks to one component are one choice, a
choice that cannot change a ticket is idle, and a ticket is scored through the hook once
per set of places it reaches. These tests check the pruning and the memo on letter
boards, and compare the result with a plain exhaustive search, and with the engine's own
exhaustive search (which any other ``ttr_ticket_result`` gets), on random finished games
of every edition and player count, as played and with stations placed at random.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import product
from typing import Any

import pytest

from ttr_core import Ruleset, Simulator, hookimpl
from ttr_core.rules.index import index_of
from ttr_core.rules.network import PlayerNetwork
from ttr_core.rules.scoring import (
    PlayerPosition,
    Position,
    ScoringContext,
    TicketResult,
    position_of,
    score_position,
    scoring_context,
)
from ttr_core.ruleset.plugins import Hooks
from ttr_core.testing.scenarios import fixture_ruleset, ticket, track

STATIONS: dict[str, Any] = {"stations": 3, "station_cost": [1, 2, 3], "unbuilt_station_points": 4}
"""Europe's station parameters, for letter boards."""

Holdings = tuple[Sequence[str], Sequence[str], Sequence[str]]
"""A player's tracks, tickets and station cities, by name: ``(["A-B"], ["A-D"], ["B"])``."""


class ScoresNothing:
    """A house rule that implements ``ttr_ticket_result`` but leaves every ticket to the
    core: final scoring can no longer assume the core's alone, and searches exhaustively."""

    @hookimpl
    def ttr_ticket_result(self) -> TicketResult | None:
        return None


Board = tuple[tuple[tuple[str, str, int, str], ...], tuple[tuple[str, str, int], ...]]
"""A letter board: its tracks and its tickets."""


def board(spec: Board, *, searched: bool = False) -> Ruleset:
    """The board with Europe's stations; with ``searched``, also [`ScoresNothing`][]."""
    routes, tickets = spec
    return fixture_ruleset(
        routes, tickets, plugins=[ScoresNothing()] if searched else (), **STATIONS
    )


def holdings(rs: Ruleset, players: Mapping[str, Holdings]) -> Position:
    """The end-of-game position of the players' holdings, named on the board."""
    return Position(
        players=tuple(
            PlayerPosition(
                name=name,
                routes=tuple(track(rs, spec) for spec in routes),
                tickets=tuple(ticket(rs, spec) for spec in tickets),
                stations=tuple(rs.city_index_of(city) for city in stations),
            )
            for name, (routes, tickets, stations) in players.items()
        )
    )


def borrowed(rs: Ruleset, position: Position, seat: int) -> list[str]:
    """The tracks the player's stations borrow, as ``"A-B"`` (``-`` for none)."""
    tracks = index_of(rs).routes
    return [
        "-" if use.route is None else "-".join(tracks[use.route].cities)
        for use in score_position(rs, position).players[seat].stations
    ]


# -- a plain exhaustive search ------------------------------------------------------------


def plain_assignment(
    rs: Ruleset, position: Position, seat: int
) -> tuple[tuple[int | None, ...], tuple[TicketResult, ...]]:
    """The stations' tracks and the ticket results of the best assignment, found plainly.

    Every assignment, in city and track order, is scored through the hook on its own
    network; the first with the most points, then the most completed tickets, wins.
    """
    index = index_of(rs)
    context = ScoringContext(rs, position)
    player = position.players[seat]
    owner = {r: s for s, pp in enumerate(position.players) for r in pp.routes}
    options: list[list[int | None]] = [
        [r for r in index.city_routes[city] if owner.get(r, seat) != seat] or [None]
        for city in player.stations
    ]
    best: tuple[tuple[int, int], tuple[int | None, ...], tuple[TicketResult, ...]] | None = None
    for combo in product(*options):
        network = PlayerNetwork(
            rs, seat, player.routes, sorted({r for r in combo if r is not None})
        )
        results = []
        for t in player.tickets:
            result = rs.hooks.ticket_result(
                ticket=index.tickets[t], network=network, context=context
            )
            assert result is not None
            results.append(result)
        key = (sum(r.points for r in results), sum(r.completed for r in results))
        if best is None or key > best[0]:
            best = (key, combo, tuple(results))
    assert best is not None
    return best[1], best[2]


# -- pruning and the memo on letter boards ------------------------------------------------

CHAIN: Board = (
    (
        ("A", "B", 2, "gray"),
        ("B", "Y", 1, "gray"),
        ("B", "X", 1, "gray"),
        ("E", "Z", 1, "gray"),
        ("X", "E", 1, "gray"),
        ("E", "D", 2, "gray"),
    ),
    (("A", "D", 9),),
)
CHAIN_PLAYERS: dict[str, Holdings] = {
    "Owner": (["A-B", "E-D"], ["A-D"], ["B", "E"]),
    "Other": (["B-Y", "B-X", "E-Z", "X-E"], [], []),
}


def test_station_12_two_stations_join_through_a_city_of_no_ticket() -> None:
    """STATION-6, STATION-7, STATION-12: the stations at B and E both borrow a track to X,
    a city of no ticket, and complete A-D together; Y and Z lead nowhere, so their tracks,
    although first in track order, are never chosen."""
    rs = board(CHAIN)
    pos = holdings(rs, CHAIN_PLAYERS)
    assert borrowed(rs, pos, 0) == ["B-X", "X-E"]
    owner = score_position(rs, pos).players[0]
    assert [(t.points, t.completed) for t in owner.tickets] == [(9, True)]
    assert score_position(board(CHAIN, searched=True), pos) == score_position(rs, pos)


def test_station_12_stations_of_separate_parts_are_chosen_apart() -> None:
    """STATION-6, STATION-7, STATION-12: the stations at B and F touch no common component,
    so each is chosen for its own ticket (B-C completes A-C, F-G completes E-G, though
    the dead ends B-X and F-Y come first); A-G, whose places they would have to join
    together, fails whatever they borrow. Exhaustive search agrees."""
    spec: Board = (
        (
            ("A", "B", 2, "gray"),
            ("E", "F", 2, "gray"),
            ("B", "X", 1, "gray"),
            ("B", "C", 1, "gray"),
            ("F", "Y", 1, "gray"),
            ("F", "G", 1, "gray"),
        ),
        (("A", "C", 5), ("E", "G", 4), ("A", "G", 7)),
    )
    rs = board(spec)
    pos = holdings(
        rs,
        {
            "Owner": (["A-B", "E-F"], ["A-C", "E-G", "A-G"], ["B", "F"]),
            "Other": (["B-X", "B-C", "F-Y", "F-G"], [], []),
        },
    )
    assert borrowed(rs, pos, 0) == ["B-C", "F-G"]
    owner = score_position(rs, pos).players[0]
    assert [(t.points, t.completed) for t in owner.tickets] == [(5, True), (4, True), (-7, False)]
    assert score_position(board(spec, searched=True), pos) == score_position(rs, pos)


def test_station_12_idle_stations_take_their_first_track() -> None:
    """STATION-8, STATION-12: when no track of a station can change a ticket, it borrows
    its first track in order, whether that leads back into the owner's network or to a
    dead end, as exhaustive search does."""
    spec: Board = (
        (
            ("A", "B", 2, "gray"),
            ("B", "C", 2, "gray"),
            ("C", "A", 1, "gray"),
            ("C", "P", 1, "gray"),
            ("D", "Q", 1, "gray"),
        ),
        (("A", "D", 7),),
    )
    rs = board(spec)
    pos = holdings(
        rs,
        {
            "Owner": (["A-B", "B-C"], ["A-D"], ["C", "Q"]),
            "Other": (["C-A", "C-P"], [], []),
        },
    )
    # Q's only track is unclaimed (STATION-8): nothing to borrow.
    assert borrowed(rs, pos, 0) == ["C-A", "-"]
    assert score_position(rs, pos).players[0].ticket_points == -7
    assert score_position(board(spec, searched=True), pos) == score_position(rs, pos)


def test_station_12_a_station_nothing_else_reaches_takes_its_first_track() -> None:
    """STATION-7, STATION-12: a station at Q, a city of no ticket that no other station
    can join, completes nothing whichever track it borrows, so it takes its first (Q-C);
    the station at B borrows B-C and completes A-C."""
    spec: Board = (
        (
            ("A", "B", 2, "gray"),
            ("Q", "C", 1, "gray"),
            ("Q", "A", 1, "gray"),
            ("B", "C", 1, "gray"),
        ),
        (("A", "C", 5),),
    )
    rs = board(spec)
    pos = holdings(
        rs,
        {"Owner": (["A-B"], ["A-C"], ["B", "Q"]), "Other": (["Q-C", "Q-A", "B-C"], [], [])},
    )
    assert borrowed(rs, pos, 0) == ["B-C", "Q-C"]
    assert score_position(rs, pos).players[0].ticket_points == 5
    assert score_position(board(spec, searched=True), pos) == score_position(rs, pos)


MEMO: Board = (
    (
        ("A", "B", 2, "gray"),
        ("B", "D", 1, "gray"),
        ("B", "E", 1, "gray"),
        ("B", "C", 1, "gray"),
        ("W", "Z", 1, "gray"),
    ),
    (("A", "C", 5), ("A", "Z", 3)),
)
MEMO_PLAYERS: dict[str, Holdings] = {
    "Owner": (["A-B"], ["A-C", "A-Z"], ["B"]),
    "Other": (["B-D", "B-E", "B-C"], [], []),
}


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the calls of ``ttr_ticket_result`` by final scoring (one item per call)."""
    calls: list[int] = []
    real: Callable[..., TicketResult | None] = Hooks.ticket_result

    def counted(self: Hooks, **kwargs: Any) -> TicketResult | None:
        calls.append(1)
        return real(self, **kwargs)

    monkeypatch.setattr(Hooks, "ticket_result", counted)
    return calls


def test_station_7_each_ticket_scored_once_per_places_reached(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """STATION-7, STATION-12: with three tracks to borrow, each ticket goes through the
    hook once on the owner's own tracks, and A-C once more for the one choice that reaches
    C: 3 calls, where trying every assignment takes 6. When the core's hook is called
    directly, final scoring works the results out itself: no call, the same sheet."""
    rs, searched = board(MEMO), board(MEMO, searched=True)
    pos = holdings(rs, MEMO_PLAYERS)
    calls = counting(monkeypatch)
    assert rs.hooks.tickets_scored_directly
    direct = score_position(rs, pos)
    assert calls == []
    monkeypatch.setattr(rs.hooks, "tickets_scored_directly", False)
    sheet = score_position(rs, pos)
    assert len(calls) == 3
    assert sheet == direct
    owner = sheet.players[0]
    assert [(t.points, t.completed) for t in owner.tickets] == [(5, True), (-3, False)]
    assert [use.route for use in owner.stations] == [track(rs, "B-C")]
    calls.clear()
    assert score_position(searched, pos) == sheet
    assert len(calls) == 6


def test_station_9_two_stations_borrow_one_track() -> None:
    """STATION-9: the stations at B and C both borrow B-C, which the network holds once."""
    rs = board(
        ((("A", "B", 2, "gray"), ("B", "C", 1, "gray"), ("C", "D", 2, "gray")), (("A", "D", 6),))
    )
    pos = holdings(
        rs,
        {"Owner": (["A-B", "C-D"], ["A-D"], ["B", "C"]), "Other": (["B-C"], [], [])},
    )
    assert borrowed(rs, pos, 0) == ["B-C", "B-C"]
    context = scoring_context(rs, pos)
    assert [t.cities for t in context.networks[0].borrowed_routes] == [("B", "C")]
    assert context.ticket_results[0][0].completed


def test_station_12_only_the_core_scoring_is_pruned() -> None:
    """STATION-12: the assignment by components is used only while the core's
    ``ttr_ticket_result`` is the only one; any plugin's brings back the exhaustive search."""
    assert Ruleset.build("europe").hooks.tickets_scored_by_core
    assert not Ruleset.build("europe", plugins=[ScoresNothing()]).hooks.tickets_scored_by_core


# -- random finished games of every edition -----------------------------------------------

EDITIONS = ("usa", "europe", "india", "switzerland", "nordic")
GAMES = 12
"""Random games per edition and player count."""


def player_counts() -> list[tuple[str, int]]:
    """Every edition with every player count it allows."""
    out = []
    for edition in EDITIONS:
        lo, hi = Ruleset.build(edition).params.players
        out += [(edition, n) for n in range(lo, hi + 1)]
    return out


def finished(rs: Ruleset, players: int, seed: int) -> Position:
    """The end-of-game position of a game of uniformly random legal actions."""
    sim = Simulator.new(rs, players, seed=seed, record=False)
    choose = random.Random(seed)
    while not sim.is_over:
        sim.apply_index(choose.randrange(sim.legal_count()))
    return position_of(rs, sim.snapshot(), [f"P{i}" for i in range(players)])


def restationed(rs: Ruleset, position: Position, seed: int) -> Position:
    """``position`` with 0 to 3 stations per player on random cities, one per city
    (STATION-2, STATION-3), whatever the edition."""
    choose = random.Random(seed)
    cities = list(range(len(index_of(rs).city_ids)))
    choose.shuffle(cities)
    players = []
    for pp in position.players:
        count = choose.randint(0, 3)
        taken, cities = cities[:count], cities[count:]
        players.append(PlayerPosition(pp.name, pp.routes, pp.tickets, tuple(sorted(taken))))
    return Position(players=tuple(players))


@pytest.mark.parametrize(("edition", "players"), player_counts())
def test_station_12_by_components_matches_exhaustive_search(edition: str, players: int) -> None:
    """STATION-6 to STATION-9, STATION-12: on random finished games, as played and with
    stations placed at random, the stations borrow the tracks, and the tickets score, as a
    plain exhaustive search finds; the whole score sheet is the one the engine's
    exhaustive search gives."""
    rs = Ruleset.build(edition)
    searched = Ruleset.build(edition, plugins=[ScoresNothing()])
    for game in range(GAMES):
        seed = 1000 * players + game
        played = finished(rs, players, seed)
        for pos in (played, restationed(rs, played, seed)):
            sheet = score_position(rs, pos)
            for seat, player in enumerate(sheet.players):
                routes, results = plain_assignment(rs, pos, seat)
                assert tuple(use.route for use in player.stations) == routes
                assert player.tickets == results
            assert score_position(searched, pos) == sheet
