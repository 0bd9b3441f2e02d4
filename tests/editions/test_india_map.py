"""The India map data and edition: counts checked against the published board and cards,
and the parameters (IN-1 to IN-12).

Every number here is written out by hand; the map data itself is the only input.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib.resources import files

import pytest

from ttr_core import Ruleset
from ttr_core.cli import main
from ttr_core.model.mapdata import load_map_data, unstructure_map
from ttr_core.rules.graph import components
from ttr_core.rules.index import index_of
from ttr_core.ruleset.core_plugin import CORE_OPTIONS
from ttr_core.ruleset.editions import describe_editions, find_edition

TRACKS = 108

CITIES = [
    "Agra",
    "Ahmadabad",
    "Ambala",
    "Bareilly",
    "Bezwada",
    "Bhatinda",
    "Bhopal",
    "Bilaspur",
    "Bombay",
    "Calcutta",
    "Calicut",
    "Chittagong",
    "Delhi",
    "Dhubri",
    "Erode",
    "Guntakal",
    "Indur",
    "Jacobabad",
    "Jaipur",
    "Jarhat",
    "Jodhpur",
    "Karachi",
    "Katni",
    "Khandwa",
    "Lahore",
    "Lucknow",
    "Madras",
    "Mangalore",
    "Manmad",
    "Mormugau",
    "Patna",
    "Peshawar",
    "Poona",
    "Quilon",
    "Raipur",
    "Ratiam",
    "Rohri",
    "Wadi",
    "Waltain",
]
"""The 39 cities, as printed on the board."""


@pytest.fixture(scope="module")
def india() -> Ruleset:
    return Ruleset.build("india")


def pair(rs: Ruleset, r: int) -> frozenset[str]:
    return frozenset(index_of(rs).routes[r].cities)


def tracks_between(rs: Ruleset, a: str, b: str) -> list[int]:
    return [r for r in range(len(index_of(rs).routes)) if pair(rs, r) == {a, b}]


# -- the edition -----------------------------------------------------------------------------


def test_edition_is_registered_with_its_aliases() -> None:
    """The edition is found by id and by its aliases, in any case, and is built in."""
    for name in ("india", "India", "indien", "INDIEN", "inde", "Zug-um-Zug-Indien"):
        assert find_edition(name).info.id == "india"
    info = find_edition("india").info
    assert info.name == "Ticket to Ride India"
    assert info.aliases == ("indien", "inde", "zug-um-zug-indien")
    assert info.rules_version == "1"
    (row,) = [e for e in describe_editions() if e["id"] == "india"]
    assert row["builtin"] is True
    assert row["distribution"] == "ttr-engine"
    assert row["players"] == [2, 4]


def test_ruleset_built_by_an_alias_with_the_core_options_only() -> None:
    """``Ruleset.build`` accepts an alias; India declares no options of its own."""
    rs = Ruleset.build("indien")
    assert rs.id == "india"
    assert rs.map.edition == "india"
    assert set(rs.options) == set(CORE_OPTIONS)
    assert len(index_of(rs).routes) == TRACKS


# -- parameters and map (IN-1 to IN-12) --------------------------------------------------------


def test_in_1_players_trains_and_deck(india: Ruleset) -> None:
    """IN-1: 2 to 4 players with 45 trains each, no stations, the standard 110 cards."""
    p = india.params
    assert p.players == (2, 4)
    assert p.trains == 45
    assert (p.stations, p.station_cost, p.unbuilt_station_points) == (0, (), 0)
    assert len(index_of(india).train_deck) == 110
    assert index_of(india).deck_counts == (12, 12, 12, 12, 12, 12, 12, 12, 14)
    assert p.starting_hand == 4


def test_in_2_cities_tracks_and_doubles(india: Ruleset) -> None:
    """IN-2: 39 cities and 108 tracks between 80 city pairs, 28 of them double routes
    whose two tracks have the same length and differ in colour unless both are gray."""
    assert index_of(india).city_ids == tuple(CITIES)
    assert len(index_of(india).routes) == TRACKS
    assert len({pair(india, r) for r in range(TRACKS)}) == 80
    doubled = [r for r in range(TRACKS) if index_of(india).route_twin[r] >= 0]
    assert len(doubled) == 56
    assert len({pair(india, r) for r in doubled}) == 28
    for r in doubled:
        twin = index_of(india).route_twin[r]
        assert index_of(india).route_twin[twin] == r
        assert pair(india, twin) == pair(india, r)
        assert index_of(india).route_len[twin] == index_of(india).route_len[r]
        assert index_of(india).route_ferry[twin] == index_of(india).route_ferry[r]
        colours = {index_of(india).routes[r].color, index_of(india).routes[twin].color}
        assert len(colours) == 2 or colours == {"gray"}


def test_in_2_and_in_7_ferries(india: Ruleset) -> None:
    """IN-2 / IN-7: 8 gray ferry tracks with 12 locomotive symbols, among them
    Calcutta-Madras of 8 spaces and 2 symbols; no tunnels (IN-9)."""
    ferries = Counter(
        (pair(india, r), index_of(india).route_len[r], index_of(india).route_ferry[r])
        for r in range(TRACKS)
        if index_of(india).route_ferry[r]
    )
    assert ferries == {
        (frozenset(("Bombay", "Calicut")), 6, 2): 1,
        (frozenset(("Bombay", "Karachi")), 6, 2): 2,
        (frozenset(("Calcutta", "Chittagong")), 2, 1): 2,
        (frozenset(("Calcutta", "Madras")), 8, 2): 1,
        (frozenset(("Calicut", "Quilon")), 2, 1): 2,
    }
    assert sum(index_of(india).route_ferry) == 12
    assert all(t.color == "gray" for t in index_of(india).routes if t.ferry)
    assert not any(index_of(india).route_tunnel)


def test_in_2_route_lengths_and_colours(india: Ruleset) -> None:
    """IN-2: lengths 1, 2, 3, 4, 6 and 8 (one track of 8, none of 5 or 7), 238 spaces,
    30 gray tracks."""
    assert Counter(index_of(india).route_len) == {1: 31, 2: 47, 3: 17, 4: 9, 6: 3, 8: 1}
    assert sum(index_of(india).route_len) == 238
    assert Counter(t.color for t in index_of(india).routes) == {
        "gray": 30,
        "pink": 10,
        "red": 10,
        "blue": 10,
        "white": 10,
        "green": 10,
        "black": 10,
        "orange": 9,
        "yellow": 9,
    }
    (longest,) = [t for t in index_of(india).routes if t.length == 8]
    assert (set(longest.cities), longest.id) == ({"Calcutta", "Madras"}, 52)


def test_in_2_every_city_is_reached_and_the_board_is_connected(india: Ruleset) -> None:
    """IN-2: each city has a track and the board is one network."""
    assert all(index_of(india).city_routes[c] for c in range(39))
    uf = components(39, zip(index_of(india).route_a, index_of(india).route_b, strict=True))
    assert len({uf.find(c) for c in range(39)}) == 1


def test_city_names_as_printed(india: Ruleset) -> None:
    """The cities keep the board's spellings, which the tickets print too: Waltain,
    Jarhat, Ratiam, Mormugau and Indur; there are no aliases and no border arrows."""
    printed = {"Waltain": "Waltair", "Jarhat": "Jorhat", "Ratiam": "Ratlam"}
    printed |= {"Mormugau": "Mormugao", "Indur": "Indore"}
    for name, other in printed.items():
        assert name in index_of(india).city_ids
        assert other not in index_of(india).city_index
    assert not any(c.aliases or c.country for c in india.map.cities)
    on_tickets = {city for t in index_of(india).tickets for city in (t.a, t.b)}
    assert set(printed) <= on_tickets


def test_in_3_ticket_deck(india: Ruleset) -> None:
    """IN-3: 58 regular tickets worth 473 points, from 5 to 17."""
    assert len(index_of(india).tickets) == 58
    assert index_of(india).long_tickets == ()
    assert {t.kind for t in index_of(india).tickets} == {"regular"}
    points = [t.points or 0 for t in index_of(india).tickets]
    assert sum(points) == 473
    assert Counter(points) == {5: 14, 6: 6, 7: 8, 8: 4, 9: 9, 10: 6, 11: 3, 12: 3, 13: 4, 17: 1}
    (longest,) = [t for t in index_of(india).tickets if t.points == 17]
    assert (longest.a, longest.b) == ("Peshawar", "Madras")
    first, last = index_of(india).tickets[0], index_of(india).tickets[-1]
    assert (first.id, first.a, first.b, first.points) == (1, "Agra", "Jarhat", 8)
    assert (last.id, last.a, last.b, last.points) == (58, "Waltain", "Mangalore", 6)
    for t in index_of(india).tickets:
        assert t.a in index_of(india).city_ids and t.b in index_of(india).city_ids
    assert len({frozenset((t.a, t.b)) for t in index_of(india).tickets}) == 58


def test_in_4_and_in_5_ticket_deals(india: Ruleset) -> None:
    """IN-4 / IN-5: deal 4 keep 2 at the start, draw 3 keep 1 in play; every returned
    ticket goes under the deck."""
    opening, draw = india.params.opening_tickets, india.params.ticket_draw
    assert (opening.deal, opening.long, opening.keep, opening.returned) == (4, 0, 2, "bottom")
    assert (draw.deal, draw.long, draw.keep, draw.returned) == (3, 0, 1, "bottom")


def test_in_6_double_routes_with_four_players(india: Ruleset) -> None:
    """IN-6: both tracks of a double route are used only with 4 players, the maximum."""
    assert india.params.double_routes_min_players == 4 == india.params.players[1]
    assert index_of(india).double_open_min == 4


def test_in_8_card_rules(india: Ruleset) -> None:
    """IN-8: locomotives are wild everywhere; a face-up locomotive is the whole draw; 3
    face-up locomotives flush the display, at most 3 times in a row."""
    p = india.params
    assert p.locomotives == "anywhere"
    assert all(index_of(india).route_locos_ok)
    assert p.face_up_locomotive == "whole_draw" and index_of(india).face_up_loco_whole_draw
    assert (p.display.size, p.display.flush_locomotives, p.display.flush_repeats) == (5, 3, 3)
    assert (p.ferry_groups, sum(t.card_groups for t in index_of(india).routes)) == (0, 0)


def test_in_10_route_points(india: Ruleset) -> None:
    """IN-10: 1, 2, 4, 7, 15 and 21 points for 1, 2, 3, 4, 6 and 8 spaces."""
    assert dict(india.params.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    for r in range(TRACKS):
        assert (
            index_of(india).route_points[r]
            == india.params.route_points[index_of(india).route_len[r]]
        )
    # 31 x 1 + 47 x 2 + 17 x 4 + 9 x 7 + 3 x 15 + 1 x 21
    assert sum(index_of(india).route_points) == 322


def test_in_11_india_express(india: Ruleset) -> None:
    """IN-11: a longest path bonus of 10 named ``india_express``."""
    assert india.params.longest_path_bonus == 10
    assert india.params.longest_path_bonus_name == "india_express"


def test_in_12_tie_breakers(india: Ruleset) -> None:
    """IN-12: completed tickets, then the holder of the India Express."""
    assert india.params.tie_breakers == ("completed_tickets", "longest_path_bonus")


# -- the data file -----------------------------------------------------------------------------


def test_map_file_loads_and_round_trips() -> None:
    """The packaged file loads, and writing it back and reading it again gives the same
    data; ids run 1 to 108 and 1 to 58."""
    text = files("ttr_india").joinpath("india.json").read_text(encoding="utf-8")
    data = load_map_data(text)
    assert data.edition == "india"
    assert data.name == "India"
    assert load_map_data(json.dumps(unstructure_map(data))) == data
    assert json.loads(text)["format"] == 1
    assert [t.id for t in data.routes] == list(range(1, TRACKS + 1))
    assert [t.id for t in data.tickets] == list(range(1, 59))
    assert data == Ruleset.build("india").map


def test_source_names_the_printed_components() -> None:
    """The data says where its facts come from: the published board and ticket cards."""
    data = Ruleset.build("india").map
    assert data.source.startswith("Ticket to Ride Map Collection vol. 2: India.")
    assert "board" in data.source and "ticket cards" in data.source
    lowered = data.source.lower()
    for word in ("http", "www", "github", ".php", "/"):
        assert word not in lowered


def test_cli_knows_the_edition(capsys: pytest.CaptureFixture[str]) -> None:
    """``ttr editions`` lists India and ``ttr map indien --json`` prints its map data."""
    assert main(["editions", "--json"]) == 0
    (row,) = [e for e in json.loads(capsys.readouterr().out) if e["id"] == "india"]
    assert row["name"] == "Ticket to Ride India"
    assert row["players"] == [2, 4]
    assert main(["editions"]) == 0
    assert "india" in capsys.readouterr().out
    assert main(["map", "indien", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["edition"] == "india"
    assert len(data["routes"]) == TRACKS
    assert data["parameters"]["longest_path_bonus_name"] == "india_express"
    assert main(["map", "india"]) == 0
    shown = capsys.readouterr().out
    assert "108 between 80 city pairs" in shown
