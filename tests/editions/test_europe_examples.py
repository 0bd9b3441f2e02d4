"""The worked Europe examples EX-E1 to EX-E4, played through the library.

EX-E1 to EX-E3 are scored with ``score_position`` on letter boards of a small fixture
edition with Europe's parameters (stations included). EX-E4 is played through the engine:
its tunnels on a letter board, its ferry on the real Palermo-Smyrna track, its stations on
the real map.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from ttr_core import EditionInfo, Ruleset, hookimpl
from ttr_core.cli import main
from ttr_core.model.actions import BuildStation, ClaimRoute, PayTunnel, WithdrawTunnel
from ttr_core.model.events import RouteClaimed, TunnelRevealed, TunnelWithdrawn
from ttr_core.model.mapdata import MapData, structure_map
from ttr_core.model.state import GameState, Phase
from ttr_core.play.legal import legal_actions
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position, Scoresheet, score_position
from ttr_core.ruleset import editions as edition
from ttr_core.ruleset.editions import InstalledEdition
from ttr_core.testing.scenarios import (
    BASE_PARAMETERS,
    arrange,
    assert_illegal,
    cards,
    events_of,
    started,
    step,
    ticket,
    track,
    track_id,
    with_player,
)

# Card numbers by letter, as in the examples: G green, R red, B blue, L locomotive.
R, G, B, L = 0, 3, 4, 8

EUROPE_PARAMETERS: dict[str, Any] = {
    **BASE_PARAMETERS,
    "route_points": {"1": 1, "2": 2, "3": 4, "4": 7, "6": 15, "8": 21},
    "opening_tickets": {"deal": 4, "keep": 2, "returned": "removed", "long": 1},
    "stations": 3,
    "station_cost": [1, 2, 3],
    "unbuilt_station_points": 4,
    "tunnel_reveal": 3,
    "longest_path_bonus_name": "european_express",
    "tie_breakers": ["completed_tickets", "fewest_stations", "longest_path_bonus"],
}
"""Europe's parameters, written out for the fixture edition."""

Route = tuple[Any, ...]
"""``(a, b, length, colour)`` with an optional fifth item: ``"tunnel"`` or ``"ferry=N"``."""


def europe_map(
    routes: Iterable[Route],
    tickets: Iterable[tuple[str, str, int]] = (),
    long_tickets: Iterable[tuple[str, str, int]] = (),
) -> dict[str, Any]:
    """Map data in our JSON format for a letter board with Europe's parameters.

    Tracks get ids 1, 2, ... in order; a second track between the same two cities becomes
    the parallel of the first. Long tickets follow the regular ones.
    """
    out_routes: list[dict[str, Any]] = []
    first: dict[frozenset[str], dict[str, Any]] = {}
    names: set[str] = set()
    for i, (a, b, length, color, *mark) in enumerate(routes, start=1):
        names.update((a, b))
        entry: dict[str, Any] = {"id": i, "cities": [a, b], "length": length, "color": color}
        for m in mark:
            if m == "tunnel":
                entry["tunnel"] = True
            else:
                entry["ferry"] = int(m.removeprefix("ferry="))
        other = first.get(frozenset((a, b)))
        if other is None:
            first[frozenset((a, b))] = entry
        else:
            other["parallel"] = i
            entry["parallel"] = other["id"]
        out_routes.append(entry)
    out_tickets: list[dict[str, Any]] = []
    for kind, group in (("regular", tickets), ("long", long_tickets)):
        for a, b, points in group:
            names.update((a, b))
            t: dict[str, Any] = {"id": len(out_tickets) + 1, "a": a, "b": b, "points": points}
            if kind == "long":
                t["kind"] = "long"
            out_tickets.append(t)
    return {
        "format": 1,
        "edition": "eurofix",
        "name": "Europe fixture",
        "source": "test fixture",
        "parameters": copy.deepcopy(EUROPE_PARAMETERS),
        "cities": [{"id": c} for c in sorted(names)],
        "routes": out_routes,
        "tickets": out_tickets,
    }


class EuropeFixture:
    """An edition plugin serving a letter board with Europe's rules."""

    def __init__(self, data: MapData) -> None:
        self.data = data

    @hookimpl
    def ttr_edition_info(self) -> EditionInfo:
        return EditionInfo(id="eurofix", name="Europe fixture", aliases=(), rules_version="1")

    @hookimpl
    def ttr_map_data(self, options: Mapping[str, Any]) -> MapData:
        return self.data


def europe_fixture(
    routes: Iterable[Route],
    tickets: Iterable[tuple[str, str, int]] = (),
    long_tickets: Iterable[tuple[str, str, int]] = (),
) -> Ruleset:
    """A ruleset with Europe's parameters on a letter board."""
    return Ruleset(EuropeFixture(structure_map(europe_map(routes, tickets, long_tickets))))


Holdings = tuple[Sequence[str], Sequence[str], Sequence[str]]


def europe_position(rs: Ruleset, players: Mapping[str, Holdings]) -> Position:
    """``{name: (["A-B", ...], ["A-E", ...], ["X", ...])}``: routes, tickets, stations."""
    return Position(
        players=tuple(
            PlayerPosition(
                name=name,
                routes=tuple(track(rs, spec) for spec in routes),
                tickets=tuple(ticket(rs, spec) for spec in tickets),
                stations=tuple(index_of(rs).city_index[c] for c in stations),
            )
            for name, (routes, tickets, stations) in players.items()
        )
    )


def europe_score(rs: Ruleset, players: Mapping[str, Holdings]) -> Scoresheet:
    return score_position(rs, europe_position(rs, players))


# -- EX-E1 ---------------------------------------------------------------------------------

E1_ROUTES: tuple[Route, ...] = (
    ("W", "X", 3, "gray"),
    ("Y", "U", 2, "gray"),
    ("Z", "V", 2, "gray"),
    ("X", "Y", 2, "gray"),
    ("X", "Z", 3, "gray"),
    ("P", "Q", 6, "gray"),
)
E1_TICKETS = (("W", "U", 12), ("W", "V", 7), ("X", "V", 6))
# Red also owns P-Q so that Green's path of 3 is not the longest at the table.
E1_PLAYERS: dict[str, Holdings] = {
    "Green": (["W-X", "Y-U", "Z-V"], ["W-U", "W-V", "X-V"], ["X"]),
    "Red": (["X-Y", "P-Q"], [], []),
    "Blue": (["X-Z"], [], []),
}


@pytest.fixture(scope="module")
def e1() -> Ruleset:
    return europe_fixture(E1_ROUTES, E1_TICKETS)


def test_ex_e1_station_borrows_the_route_worth_most(e1: Ruleset) -> None:
    """EX-E1 / STATION-6 / STATION-12: borrowing X-Z (+1) beats borrowing X-Y (-1)."""
    green = europe_score(e1, E1_PLAYERS).players[0]
    assert green.route_points == 4 + 2 + 2 == 8
    assert green.longest_path == 3
    assert [(s.city, s.route) for s in green.stations] == [
        (e1.city_index_of("X"), track(e1, "X-Z"))
    ]
    assert [(t.points, t.completed) for t in green.tickets] == [(-12, False), (7, True), (6, True)]
    assert green.ticket_points == 1


def test_ex_e1_total_is_17_not_15(e1: Ruleset) -> None:
    """EX-E1 / STATION-7 / STATION-11: 8 + 1 + 8 = 17; serving the single most valuable
    ticket (W-U through X-Y) would give only 15."""
    green = europe_score(e1, E1_PLAYERS).players[0]
    assert green.bonuses == {"european_express": 0, "unbuilt_stations": 8}
    assert green.stations_built == 1
    assert green.total == 17
    # The other choice, forced by leaving only X-Y to borrow, is the 15 of the example.
    only_xy = {**E1_PLAYERS, "Blue": ([], [], [])}
    forced = europe_score(e1, only_xy).players[0]
    assert forced.ticket_points == -1
    assert forced.total == 15


def test_station_12_equal_scores_go_to_more_completed_tickets() -> None:
    """STATION-12: two borrowings score 0 each; the one completing two tickets wins,
    although the other comes first in track order."""
    rs = europe_fixture(
        (("A", "S", 2, "gray"), ("S", "C", 2, "gray"), ("S", "D", 2, "gray")),
        (("A", "C", 10), ("A", "D", 4), ("S", "D", 6)),
    )
    sheet = europe_score(
        rs,
        {
            "Owner": (["A-S"], ["A-C", "A-D", "S-D"], ["S"]),
            "Other": (["S-C", "S-D"], [], []),
        },
    )
    owner = sheet.players[0]
    assert [s.route for s in owner.stations] == [track(rs, "S-D")]
    assert owner.ticket_points == 0
    assert owner.tickets_completed == 2


def test_station_12_fully_equal_choices_take_the_first_track() -> None:
    """STATION-12: when every choice is worth the same, the first track in map order is
    taken, reproducibly."""
    rs = europe_fixture(
        (("A", "S", 2, "gray"), ("S", "C", 2, "gray"), ("S", "D", 2, "gray")),
        (("A", "B", 5),),
    )
    players: dict[str, Holdings] = {
        "Owner": (["A-S"], ["A-B"], ["S"]),
        "Other": (["S-D", "S-C"], [], []),
    }
    first = europe_score(rs, players).players[0].stations
    assert [s.route for s in first] == [track(rs, "S-C")]
    assert europe_score(rs, players).players[0].stations == first


# -- EX-E2 ---------------------------------------------------------------------------------

E2_ROUTES: tuple[Route, ...] = (
    ("A", "B", 4, "gray"),
    ("B", "C", 2, "gray"),
    ("C", "D", 6, "gray"),
    ("F", "G", 4, "gray"),
    ("G", "H", 4, "gray"),
)
E2_TICKETS = (("A", "D", 11), ("F", "H", 8))
E2_PLAYERS: dict[str, Holdings] = {
    "Red": (["A-B", "C-D"], ["A-D"], ["B"]),
    "Yellow": (["F-G", "G-H", "B-C"], ["F-H"], []),
}


@pytest.fixture(scope="module")
def e2() -> Ruleset:
    return europe_fixture(E2_ROUTES, E2_TICKETS)


def test_ex_e2_borrowed_route_completes_the_ticket(e2: Ruleset) -> None:
    """EX-E2 / STATION-7: the station at B borrows B-C and completes A-D (+11)."""
    red = europe_score(e2, E2_PLAYERS).players[0]
    assert [s.route for s in red.stations] == [track(e2, "B-C")]
    assert [(t.points, t.completed) for t in red.tickets] == [(11, True)]
    assert red.route_points == 7 + 15 == 22


def test_ex_e2_borrowed_route_not_in_the_longest_path(e2: Ruleset) -> None:
    """EX-E2 / STATION-10 / PATH-3: Red's path is 6 (C-D), not 12 (A-B-C-D)."""
    red, yellow = europe_score(e2, E2_PLAYERS).players
    assert red.longest_path == 6
    assert yellow.longest_path == 8


def test_ex_e2_totals_41_and_46(e2: Ruleset) -> None:
    """EX-E2 / STATION-11 / EU-14: Red 22 + 11 + 8 = 41; Yellow 16 + 8 + 12 + 10 = 46 wins
    (counting the borrowed route in the path would give 51 and 36)."""
    sheet = europe_score(e2, E2_PLAYERS)
    red, yellow = sheet.players
    assert red.bonuses == {"european_express": 0, "unbuilt_stations": 8}
    assert red.total == 41
    assert yellow.route_points == 16
    assert yellow.ticket_points == 8
    assert yellow.bonuses == {"european_express": 10, "unbuilt_stations": 12}
    assert yellow.total == 46
    assert sheet.winners == (1,)


# -- EX-E3 ---------------------------------------------------------------------------------

E3_ROUTES: tuple[Route, ...] = (
    # Red: 21 + 15 + 4 = 40 route points, path 14.
    ("A", "B", 8, "gray"),
    ("B", "C", 6, "gray"),
    ("D", "E", 3, "gray"),
    # Blue: 21 + 15 + 2 = 38 route points, path 14.
    ("G", "H", 8, "gray"),
    ("H", "I", 6, "gray"),
    ("J", "K", 2, "gray"),
    # Green: path 16, the European Express.
    ("M", "N", 8, "gray"),
    ("N", "O", 8, "gray"),
)
E3_TICKETS = (
    ("A", "B", 5),
    ("B", "C", 6),
    ("A", "C", 7),
    ("D", "E", 8),
    ("A", "D", 7),
    ("C", "E", 7),
    ("G", "H", 4),
    ("H", "I", 5),
    ("G", "I", 6),
    ("J", "K", 8),
    ("G", "J", 6),
    ("I", "K", 7),
    ("M", "Z", 21),
)
E3_PLAYERS: dict[str, Holdings] = {
    "Red": (["A-B", "B-C", "D-E"], ["A-B", "B-C", "A-C", "D-E", "A-D", "C-E"], ["Z"]),
    "Blue": (["G-H", "H-I", "J-K"], ["G-H", "H-I", "G-I", "J-K", "G-J", "I-K"], []),
    "Green": (["M-N", "N-O"], ["M-Z"], []),
}


@pytest.fixture(scope="module")
def e3() -> Ruleset:
    return europe_fixture(E3_ROUTES, E3_TICKETS)


def test_ex_e3_totals_tie_at_60(e3: Ruleset) -> None:
    """EX-E3: Red 40 + 12 + 8 = 60 and Blue 38 + 10 + 12 = 60, 4 tickets each; Green holds
    the European Express."""
    red, blue, green = europe_score(e3, E3_PLAYERS).players
    assert (red.route_points, red.ticket_points, red.bonuses["unbuilt_stations"]) == (40, 12, 8)
    assert (blue.route_points, blue.ticket_points, blue.bonuses["unbuilt_stations"]) == (
        38,
        10,
        12,
    )
    assert red.total == blue.total == 60
    assert red.tickets_completed == blue.tickets_completed == 4
    assert (red.stations_built, blue.stations_built) == (1, 0)
    assert [p.bonuses["european_express"] for p in (red, blue, green)] == [0, 0, 10]
    assert green.total < 60


def test_ex_e3_fewest_stations_wins(e3: Ruleset) -> None:
    """EX-E3 / EU-15 / TIE-2: equal totals and tickets; Blue built fewer stations and wins."""
    sheet = europe_score(e3, E3_PLAYERS)
    assert sheet.winners == (1,)


def test_eu_15_completed_tickets_come_before_stations(e3: Ruleset) -> None:
    """EU-15 / TIE-2: with 3 completed tickets against Red's 4, Blue loses the tie although
    it built no station."""
    blue_routes, _, blue_stations = E3_PLAYERS["Blue"]
    players = {**E3_PLAYERS, "Blue": (blue_routes, ["G-H", "H-I", "J-K", "I-K"], blue_stations)}
    sheet = europe_score(e3, players)
    red, blue, _ = sheet.players
    assert blue.total == 38 + (4 + 5 + 8 - 7) + 12 == red.total == 60
    assert (red.tickets_completed, blue.tickets_completed) == (4, 3)
    assert sheet.winners == (0,)


EXPRESS_ROUTES: tuple[Route, ...] = (
    ("A", "B", 8, "gray"),
    ("C", "D", 6, "gray"),
    ("E", "F", 6, "gray"),
    ("G", "H", 1, "gray"),
    ("J", "K", 6, "gray"),
)


def test_eu_15_express_is_the_last_tie_breaker() -> None:
    """EU-15: equal totals, tickets and stations; the holder of the European Express wins."""
    rs = europe_fixture(EXPRESS_ROUTES)
    sheet = europe_score(rs, {"Red": (["A-B"], [], []), "Blue": (["C-D", "E-F", "G-H"], [], [])})
    red, blue = sheet.players
    assert (red.longest_path, blue.longest_path) == (8, 6)
    assert red.total == 21 + 12 + 10 == 43
    assert blue.total == 15 + 15 + 1 + 12 == 43
    assert sheet.winners == (0,)


def test_eu_14_express_is_shared_and_then_the_win() -> None:
    """EU-14 / TIE-5: both paths are 6, both score the European Express, and with nothing
    else to separate them the win is shared."""
    rs = europe_fixture(EXPRESS_ROUTES)
    sheet = europe_score(rs, {"Red": (["C-D"], [], []), "Blue": (["J-K"], [], [])})
    assert [p.bonuses["european_express"] for p in sheet.players] == [10, 10]
    assert [p.total for p in sheet.players] == [37, 37]
    assert sheet.winners == (0, 1)


# -- EX-E1 to EX-E3 through ttr score ------------------------------------------------------


def position_json(players: Mapping[str, Holdings]) -> dict[str, Any]:
    """The ``ttr score`` input for holdings written as for :func:`europe_position`."""
    return {
        "edition": "eurofix",
        "players": [
            {
                "name": name,
                "routes": [dict(zip("ab", spec.split("-"), strict=True)) for spec in routes],
                "tickets": [dict(zip("ab", spec.split("-"), strict=True)) for spec in tickets],
                "stations": list(stations),
            }
            for name, (routes, tickets, stations) in players.items()
        ],
    }


@pytest.mark.parametrize(
    ("routes", "tickets", "players", "totals", "winners"),
    [
        (E1_ROUTES, E1_TICKETS, E1_PLAYERS, [17, 2 + 15 + 12 + 10, 4 + 12], ["Red"]),
        (E2_ROUTES, E2_TICKETS, E2_PLAYERS, [41, 46], ["Yellow"]),
        (E3_ROUTES, E3_TICKETS, E3_PLAYERS, [60, 60, 42 - 21 + 10 + 12], ["Blue"]),
    ],
    ids=["EX-E1", "EX-E2", "EX-E3"],
)
def test_ex_e1_to_e3_through_ttr_score(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    routes: tuple[Route, ...],
    tickets: tuple[tuple[str, str, int], ...],
    players: Mapping[str, Holdings],
    totals: list[int],
    winners: list[str],
) -> None:
    """EX-E1 / EX-E2 / EX-E3: the same positions give the same totals and winners through
    the command line, with the fixture edition installed."""
    plugin = EuropeFixture(structure_map(europe_map(routes, tickets)))
    found = dict(edition.installed_editions())
    found["eurofix"] = InstalledEdition(
        info=plugin.ttr_edition_info(),
        plugin=plugin,
        distribution="tests",
        builtin=False,
        players=(2, 5),
    )
    monkeypatch.setattr(edition, "installed_editions", lambda refresh=False: found)
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position_json(players)), encoding="utf-8")
    assert main(["score", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    sheet = json.loads(out)
    assert [p["total"] for p in sheet["players"]] == totals
    assert sheet["winners"] == winners


# -- EX-E4 ---------------------------------------------------------------------------------

E4_ROUTES: tuple[Route, ...] = (
    ("A", "B", 3, "green", "tunnel"),
    ("C", "D", 2, "gray", "tunnel"),
    ("A", "C", 2, "red"),
    ("B", "D", 4, "gray", "ferry=1"),
    ("D", "E", 6, "gray"),
)
E4_TICKETS = tuple(
    (a, b, 5) for a, b in ("AB", "AC", "AD", "AE", "BC", "BD", "BE", "CD", "CE", "DE")
)
E4_LONG = (("A", "E", 20), ("B", "E", 21), ("C", "E", 20), ("D", "A", 21), ("E", "B", 20))
GREEN_TUNNEL, GRAY_TUNNEL = "A-B", "C-D"


@pytest.fixture(scope="module")
def e4() -> Ruleset:
    return europe_fixture(E4_ROUTES, E4_TICKETS, E4_LONG)


def tunnel_turn(rs: Ruleset, hand: str, deck: Sequence[int], discard: str = "") -> GameState:
    """Seat 0's turn holding ``hand``, with the deck (top first) and discard pile set."""
    state = with_player(started(rs, 2, seed=4), 0, hand=cards(hand))
    return arrange(state, deck=deck, discard=cards(discard))


def claim(rs: Ruleset, spec: str, pay: str) -> ClaimRoute:
    return ClaimRoute(route=track_id(rs, spec), cards=cards(pay))


def test_ex_e4_green_tunnel_two_extra_cards_paid(e4: Ruleset) -> None:
    """EX-E4 / TUNNEL-3 / TUNNEL-4 / TUNNEL-6 / TUNNEL-8 / TUNNEL-11: G G L laid, reveal
    G L R: 2 extra cards; paid with G and L, the tunnel scores 4 and the discard pile gets
    the 5 played and the 3 revealed cards."""
    state = tunnel_turn(e4, "GGGLL", [G, L, R, B, B])
    state, events = step(e4, state, claim(e4, GREEN_TUNNEL, "GGL"))
    assert events_of(events, TunnelRevealed) == [
        TunnelRevealed(player=0, route=track_id(e4, GREEN_TUNNEL), cards=(G, L, R), extra=2)
    ]
    assert state.phase is Phase.TUNNEL
    assert state.tunnel is not None and state.tunnel.extra == 2
    assert list(legal_actions(e4, state)) == [PayTunnel(cards=cards("GL")), WithdrawTunnel()]
    state, events = step(e4, state, PayTunnel(cards=cards("GL")))
    assert state.owners[track(e4, GREEN_TUNNEL)] == 0
    assert state.players[0].score == 4
    assert state.players[0].hand == cards("")
    # 5 played (G G L + G L) and 3 revealed (G L R).
    assert state.discard == cards("GGGGLLLR")
    assert events_of(events, RouteClaimed)[0].cards == cards("GGGLL")
    assert state.phase is Phase.TURN and state.current == 1


def test_ex_e4_all_locomotive_set_ignores_coloured_cards(e4: Ruleset) -> None:
    """EX-E4 / TUNNEL-5: L L laid on a gray tunnel; a reveal of G G R costs nothing."""
    state = tunnel_turn(e4, "LLLG", [G, G, R, B])
    state, events = step(e4, state, claim(e4, GRAY_TUNNEL, "LL"))
    assert events_of(events, TunnelRevealed)[0].extra == 0
    assert state.owners[track(e4, GRAY_TUNNEL)] == 0
    assert state.phase is Phase.TURN and state.current == 1
    assert state.players[0].hand == cards("LG")
    assert state.discard == cards("LLGGR")


def test_ex_e4_all_locomotive_set_extra_must_be_a_locomotive(e4: Ruleset) -> None:
    """EX-E4 / TUNNEL-5 / TUNNEL-6: L L laid, reveal L G B: 1 extra card, a locomotive."""
    state = tunnel_turn(e4, "LLLG", [L, G, B, R])
    state, _ = step(e4, state, claim(e4, GRAY_TUNNEL, "LL"))
    assert state.tunnel is not None and state.tunnel.extra == 1
    assert list(legal_actions(e4, state)) == [PayTunnel(cards=cards("L")), WithdrawTunnel()]
    assert_illegal(e4, state, PayTunnel(cards=cards("G")), "TUNNEL-6")
    state, _ = step(e4, state, PayTunnel(cards=cards("L")))
    assert state.owners[track(e4, GRAY_TUNNEL)] == 0
    assert state.players[0].hand == cards("G")


def test_ex_e4_green_tunnel_declined(e4: Ruleset) -> None:
    """EX-E4 / TUNNEL-7 / TUNNEL-8: G G G laid, reveal G G B: 2 extra cards and none in
    hand; the player takes the cards back, the turn ends, the 3 revealed cards are
    discarded."""
    state = tunnel_turn(e4, "GGGR", [G, G, B, R])
    state, _ = step(e4, state, claim(e4, GREEN_TUNNEL, "GGG"))
    assert state.tunnel is not None and state.tunnel.extra == 2
    assert list(legal_actions(e4, state)) == [WithdrawTunnel()]
    state, events = step(e4, state, WithdrawTunnel())
    assert events_of(events, TunnelWithdrawn) == [
        TunnelWithdrawn(player=0, route=track_id(e4, GREEN_TUNNEL))
    ]
    assert state.players[0].hand == cards("GGGR")
    assert state.owners[track(e4, GREEN_TUNNEL)] == -1
    assert state.discard == cards("GGB")
    assert state.phase is Phase.TURN and state.current == 1 and state.tunnel is None


def test_ex_e4_reveal_continues_from_the_discard_pile(e4: Ruleset) -> None:
    """EX-E4 / TUNNEL-3 / TUNNEL-9: 1 card in the deck and 1 in the discard pile: 2 cards
    are revealed, the discard pile being reshuffled."""
    state = tunnel_turn(e4, "GGGGG", [R], discard="B")
    state, events = step(e4, state, claim(e4, GREEN_TUNNEL, "GGG"))
    assert events_of(events, TunnelRevealed)[0].cards == (R, B)
    assert state.owners[track(e4, GREEN_TUNNEL)] == 0
    assert state.discard == cards("GGGRB")


def test_ex_e4_nothing_to_reveal_costs_nothing(e4: Ruleset) -> None:
    """EX-E4 / TUNNEL-9: deck and discard pile empty: nothing is revealed, no extra cost."""
    state = tunnel_turn(e4, "GGGLL", [])
    state, events = step(e4, state, claim(e4, GREEN_TUNNEL, "GGL"))
    assert events_of(events, TunnelRevealed)[0].cards == ()
    assert state.owners[track(e4, GREEN_TUNNEL)] == 0
    assert state.players[0].hand == cards("GL")


@pytest.fixture(scope="module")
def europe() -> Ruleset:
    return Ruleset.build("europe")


def europe_track(rs: Ruleset, a: str, b: str) -> int:
    (r,) = [r for r, t in enumerate(index_of(rs).routes) if set(t.cities) == {a, b}]
    return r


PALERMO_SMYRNA_VALID = ("RRRRLL", "RRRLLL", "LLLLLL")
PALERMO_SMYRNA_INVALID = (("RRRRRL", "FERRY-2"), ("RRRRLB", "CLAIM-4"))


@pytest.mark.parametrize("pay", PALERMO_SMYRNA_VALID)
def test_ex_e4_palermo_smyrna_valid_payments(europe: Ruleset, pay: str) -> None:
    """EX-E4 / FERRY-2 / FERRY-3: 4 coloured + 2 locomotives, 3 + 3, or 6 locomotives."""
    r = europe_track(europe, "Palermo", "Smyrna")
    assert (index_of(europe).route_len[r], index_of(europe).route_ferry[r]) == (6, 2)
    state = with_player(started(europe, 2, seed=3), 0, hand=cards("RRRRRBLLLLLL"))
    action = ClaimRoute(route=index_of(europe).route_ids[r], cards=cards(pay))
    state, _ = step(europe, state, action)
    assert state.owners[r] == 0
    assert state.players[0].score == 15


@pytest.mark.parametrize(("pay", "rule"), PALERMO_SMYRNA_INVALID)
def test_ex_e4_palermo_smyrna_invalid_payments(europe: Ruleset, pay: str, rule: str) -> None:
    """EX-E4 / FERRY-2 / FERRY-3: 5 coloured + 1 locomotive leaves a symbol unpaid; 4 red +
    1 locomotive + 1 blue mixes colours."""
    r = europe_track(europe, "Palermo", "Smyrna")
    state = with_player(started(europe, 2, seed=3), 0, hand=cards("RRRRRBLLLLLL"))
    assert_illegal(
        europe, state, ClaimRoute(route=index_of(europe).route_ids[r], cards=cards(pay)), rule
    )


def station_turn(rs: Ruleset, hand: str, built: int) -> GameState:
    state = started(rs, 2, seed=5)
    return with_player(state, 0, hand=cards(hand), stations=3 - built)


def test_ex_e4_first_station_costs_any_one_card(europe: Ruleset) -> None:
    """EX-E4 / STATION-4: the first station costs 1 card of any kind."""
    for card in ("R", "B", "L"):
        state = station_turn(europe, "RBL", 0)
        state, _ = step(europe, state, BuildStation(city="Wien", cards=cards(card)))
        assert state.players[0].stations == 2
    state = station_turn(europe, "RBL", 0)
    assert_illegal(europe, state, BuildStation(city="Wien", cards=cards("RR")), "STATION-5")


def test_ex_e4_second_station_two_of_one_colour(europe: Ruleset) -> None:
    """EX-E4 / STATION-5: the second station: R R or R L, not R B."""
    for pay in ("RR", "RL"):
        state = station_turn(europe, "RRBL", 1)
        state, _ = step(europe, state, BuildStation(city="Roma", cards=cards(pay)))
        assert state.players[0].stations == 1
        assert state.players[0].hand == tuple(
            a - b for a, b in zip(cards("RRBL"), cards(pay), strict=True)
        )
    state = station_turn(europe, "RRBL", 1)
    assert_illegal(europe, state, BuildStation(city="Roma", cards=cards("RB")), "STATION-5")
    assert_illegal(europe, state, BuildStation(city="Roma", cards=cards("R")), "STATION-5")


def test_ex_e4_third_station_three_of_one_colour(europe: Ruleset) -> None:
    """EX-E4 / STATION-5: the third station: R R L is fine, R B L is not."""
    state = station_turn(europe, "RRBL", 2)
    assert_illegal(europe, state, BuildStation(city="Kyïv", cards=cards("RBL")), "STATION-5")
    state, _ = step(europe, state, BuildStation(city="Kyïv", cards=cards("RRL")))
    assert state.players[0].stations == 0
    assert state.station_owners[index_of(europe).city_index["Kyiv"]] == 0
    assert state.players[0].hand == cards("B")
