"""The Nordic Countries map data and edition: counts checked against the published board
and cards, the parameters (NC-n) and the triple-stacking option.

Every number here is written out by hand; the map data itself is the only input.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib.resources import files
from typing import Any

import pytest

from ttr_core import OptionError, Ruleset
from ttr_core.cli import main
from ttr_core.model.mapdata import load_map_data, unstructure_map
from ttr_core.rules.graph import components
from ttr_core.rules.index import index_of
from ttr_core.ruleset.core_plugin import CORE_OPTIONS
from ttr_core.ruleset.editions import describe_editions, find_edition

TRACKS = 81


@pytest.fixture(scope="module")
def nordic() -> Ruleset:
    return Ruleset.build("nordic")


def pair(rs: Ruleset, r: int) -> frozenset[str]:
    return frozenset(index_of(rs).routes[r].cities)


def tracks_between(rs: Ruleset, a: str, b: str) -> list[int]:
    return [r for r in range(len(index_of(rs).routes)) if pair(rs, r) == {a, b}]


# -- the edition -----------------------------------------------------------------------------


def test_edition_is_registered_with_its_aliases() -> None:
    """The edition is found by id and by its aliases, in any case, and is built in."""
    for name in ("nordic", "Nordic", "scandinavia", "SKANDINAVIEN", "Nordic-Countries"):
        assert find_edition(name).info.id == "nordic"
    info = find_edition("nordic").info
    assert info.name == "Ticket to Ride Nordic Countries"
    assert info.aliases == ("scandinavia", "skandinavien", "nordic-countries")
    assert info.rules_version == "1"
    (row,) = [e for e in describe_editions() if e["id"] == "nordic"]
    assert row["builtin"] is True
    assert row["distribution"] == "ttr-engine"
    assert row["players"] == [2, 3]


def test_ruleset_built_by_an_alias() -> None:
    """``Ruleset.build`` accepts an alias and yields the Nordic ruleset."""
    rs = Ruleset.build("skandinavien")
    assert rs.id == "nordic"
    assert rs.map.edition == "nordic"
    assert len(index_of(rs).routes) == TRACKS


# -- the option ------------------------------------------------------------------------------


def test_nc_14_triple_stacking_option_defaults_to_allowed(nordic: Ruleset) -> None:
    """NC-14: the edition declares one option, ``ferry_group_stacking``, on by default."""
    assert set(nordic.options) == {*CORE_OPTIONS, "ferry_group_stacking"}
    assert nordic.options["ferry_group_stacking"] is True
    assert nordic.params.ferry_group_stacking is True
    (spec,) = [s for s in nordic.option_specs if s.name == "ferry_group_stacking"]
    assert spec.default is True
    assert spec.choices == (True, False)
    assert "NC-14" in spec.doc


def test_nc_14_triple_stacking_can_be_switched_off(nordic: Ruleset) -> None:
    """NC-14: ``ferry_group_stacking=False`` reaches the parameters and nothing else; the
    map hash records the difference."""
    off = Ruleset.build("nordic", {"ferry_group_stacking": False})
    assert off.options["ferry_group_stacking"] is False
    assert off.params.ferry_group_stacking is False
    assert off.params.ferry_groups == 3
    assert off.map.routes == nordic.map.routes
    assert off.map_hash != nordic.map_hash
    on = Ruleset.build("nordic", {"ferry_group_stacking": True})
    assert on.params == nordic.params
    assert on.map_hash == nordic.map_hash


@pytest.mark.parametrize("value", [1, 0, "true", "no", None, [True]])
def test_nc_14_option_accepts_only_booleans(value: Any) -> None:
    """NC-14: any value other than True or False is an OptionError naming the choices."""
    with pytest.raises(OptionError, match=r"ferry_group_stacking.*choices: \[True, False\]"):
        Ruleset.build("nordic", {"ferry_group_stacking": value})


def test_unknown_option_is_refused() -> None:
    """An option of another edition is not offered here."""
    with pytest.raises(OptionError, match="has no option 'opening_tickets'"):
        Ruleset.build("nordic", {"opening_tickets": 4})


# -- parameters (NC-1 to NC-19) ----------------------------------------------------------------


def test_nc_1_players_and_trains(nordic: Ruleset) -> None:
    """NC-1: 2 or 3 players with 40 trains each; no stations."""
    p = nordic.params
    assert p.players == (2, 3)
    assert p.trains == 40
    assert p.stations == 0
    assert p.station_cost == ()
    assert p.unbuilt_station_points == 0


def test_nc_2_train_deck(nordic: Ruleset) -> None:
    """NC-2: the standard 110 cards, 12 of each colour and 14 locomotives."""
    assert len(index_of(nordic).train_deck) == 110
    assert index_of(nordic).deck_counts == (12, 12, 12, 12, 12, 12, 12, 12, 14)
    assert nordic.params.starting_hand == 4


def test_nc_3_cities_tracks_and_doubles(nordic: Ruleset) -> None:
    """NC-3: 39 cities and 81 tracks between 67 city pairs, 14 of them double routes."""
    assert len(index_of(nordic).city_ids) == 39
    assert len(index_of(nordic).routes) == TRACKS
    assert len({pair(nordic, r) for r in range(TRACKS)}) == 67
    doubled = [r for r in range(TRACKS) if index_of(nordic).route_twin[r] >= 0]
    assert len(doubled) == 28
    assert len({pair(nordic, r) for r in doubled}) == 14
    for r in doubled:
        twin = index_of(nordic).route_twin[r]
        assert index_of(nordic).route_twin[twin] == r
        assert pair(nordic, twin) == pair(nordic, r)


def test_nc_3_tunnels_and_ferries(nordic: Ruleset) -> None:
    """NC-3 / NC-10: 10 tunnels; 24 ferry tracks with 30 locomotive symbols, coloured or
    gray; no track is both."""
    assert sum(index_of(nordic).route_tunnel) == 10
    ferries = [r for r in range(TRACKS) if index_of(nordic).route_ferry[r]]
    assert len(ferries) == 24
    assert sum(index_of(nordic).route_ferry) == 30
    colours = Counter(index_of(nordic).routes[r].color for r in ferries)
    assert colours["gray"] == 4
    assert sum(colours.values()) - colours["gray"] == 20
    assert Counter(
        (index_of(nordic).route_len[r], index_of(nordic).route_ferry[r]) for r in ferries
    ) == {
        (1, 1): 2,
        (2, 1): 9,
        (3, 1): 6,
        (4, 1): 1,
        (4, 2): 4,
        (5, 2): 1,
        (6, 2): 1,
    }
    assert not any(
        index_of(nordic).route_tunnel[r] and index_of(nordic).route_ferry[r] for r in range(TRACKS)
    )


def test_nc_3_the_tunnels(nordic: Ruleset) -> None:
    """NC-3: the ten tunnels, all in Norway and on its borders."""
    tunnels = Counter(
        (frozenset(t.cities), t.length, t.color) for t in index_of(nordic).routes if t.tunnel
    )
    assert tunnels == {
        (frozenset(("Åndalsnes", "Lillehammer")), 2, "yellow"): 1,
        (frozenset(("Bergen", "Oslo")), 4, "blue"): 1,
        (frozenset(("Bergen", "Oslo")), 4, "red"): 1,
        (frozenset(("Kiruna", "Narvik")), 1, "pink"): 1,
        (frozenset(("Kiruna", "Narvik")), 1, "white"): 1,
        (frozenset(("Kristiansand", "Stavanger")), 2, "green"): 1,
        (frozenset(("Lillehammer", "Oslo")), 2, "pink"): 1,
        (frozenset(("Lillehammer", "Trondheim")), 3, "orange"): 1,
        (frozenset(("Mo I Rana", "Trondheim")), 5, "green"): 1,
        (frozenset(("Östersund", "Trondheim")), 2, "black"): 1,
    }


def test_nc_15_single_space_ferries(nordic: Ruleset) -> None:
    """NC-15: Århus-København and Vaasa-Umeå are gray 1-space ferries with 1 symbol."""
    for a, b in (("Århus", "København"), ("Vaasa", "Umeå")):
        (r,) = tracks_between(nordic, a, b)
        assert (index_of(nordic).route_len[r], index_of(nordic).route_ferry[r]) == (1, 1)
        assert index_of(nordic).routes[r].color == "gray"
    ones = {
        pair(nordic, r)
        for r in range(TRACKS)
        if index_of(nordic).route_ferry[r] == index_of(nordic).route_len[r]
    }
    assert ones == {frozenset(("Århus", "København")), frozenset(("Vaasa", "Umeå"))}


def test_nc_3_route_lengths_and_colours(nordic: Ruleset) -> None:
    """NC-3: lengths 1 to 6 and one 9; 207 spaces in all; 11 gray tracks."""
    assert Counter(index_of(nordic).route_len) == {1: 17, 2: 28, 3: 20, 4: 11, 5: 3, 6: 1, 9: 1}
    assert sum(index_of(nordic).route_len) == 207
    assert Counter(t.color for t in index_of(nordic).routes) == {
        "gray": 11,
        "pink": 10,
        "white": 9,
        "black": 9,
        "orange": 9,
        "green": 9,
        "red": 8,
        "yellow": 8,
        "blue": 8,
    }


def test_nc_3_every_city_is_reached_and_the_board_is_connected(nordic: Ruleset) -> None:
    """NC-3: each city has a track and the board is one network."""
    assert all(index_of(nordic).city_routes[c] for c in range(39))
    uf = components(39, zip(index_of(nordic).route_a, index_of(nordic).route_b, strict=True))
    assert len({uf.find(c) for c in range(39)}) == 1


def test_city_names_and_the_one_alias(nordic: Ruleset) -> None:
    """The board's spellings are the ids; Mo I Rana is also found as Mo i Rana."""
    with_aliases = {c.id: c.aliases for c in nordic.map.cities if c.aliases}
    assert with_aliases == {"Mo I Rana": ("Mo i Rana",)}
    assert index_of(nordic).city_index["Mo i Rana"] == index_of(nordic).city_index["Mo I Rana"]
    for name in ("København", "Tromsø", "Östersund", "Ålborg", "Århus", "Honningsvåg"):
        assert name in index_of(nordic).city_ids
    assert not any(c.country for c in nordic.map.cities)


def test_nc_4_ticket_deck(nordic: Ruleset) -> None:
    """NC-4: 46 regular tickets worth 460 points, from 3 to 24."""
    assert len(index_of(nordic).tickets) == 46
    assert index_of(nordic).long_tickets == ()
    assert {t.kind for t in index_of(nordic).tickets} == {"regular"}
    points = [t.points or 0 for t in index_of(nordic).tickets]
    assert sum(points) == 460
    assert (min(points), max(points)) == (3, 24)
    (longest,) = [t for t in index_of(nordic).tickets if t.points == 24]
    assert {longest.a, longest.b} == {"København", "Murmansk"}
    for t in index_of(nordic).tickets:
        assert t.a in index_of(nordic).city_ids and t.b in index_of(nordic).city_ids


def test_nc_4_and_nc_5_ticket_deals(nordic: Ruleset) -> None:
    """NC-4 / NC-5: deal 5 keep 2 at the start, draw 3 keep 1 in play; every returned
    ticket leaves the game."""
    opening, draw = nordic.params.opening_tickets, nordic.params.ticket_draw
    assert (opening.deal, opening.long, opening.keep, opening.returned) == (5, 0, 2, "removed")
    assert (draw.deal, draw.long, draw.keep, draw.returned) == (3, 0, 1, "removed")


def test_nc_6_double_routes_from_three_players(nordic: Ruleset) -> None:
    """NC-6: both tracks of a double route are used from 3 players."""
    assert nordic.params.double_routes_min_players == 3
    assert index_of(nordic).double_open_min == 3


def test_nc_6_the_three_uneven_double_routes(nordic: Ruleset) -> None:
    """NC-6: exactly three double routes have tracks of different length or type."""

    def kind(r: int) -> tuple[int, bool, int]:
        return (
            index_of(nordic).route_len[r],
            index_of(nordic).route_tunnel[r],
            index_of(nordic).route_ferry[r],
        )

    uneven = {
        pair(nordic, r)
        for r in range(TRACKS)
        if index_of(nordic).route_twin[r] >= 0 and kind(r) != kind(index_of(nordic).route_twin[r])
    }
    assert uneven == {
        frozenset(("Helsinki", "Stockholm")),
        frozenset(("Kristiansand", "Stavanger")),
        frozenset(("Mo I Rana", "Trondheim")),
    }
    shapes = {
        frozenset((*kind(r), index_of(nordic).routes[r].color) for r in tracks_between(nordic, *p))
        for p in (
            ("Helsinki", "Stockholm"),
            ("Kristiansand", "Stavanger"),
            ("Mo I Rana", "Trondheim"),
        )
    }
    assert shapes == {
        frozenset({(4, False, 2, "gray"), (4, False, 1, "yellow")}),
        frozenset({(2, True, 0, "green"), (3, False, 1, "orange")}),
        frozenset({(5, True, 0, "green"), (6, False, 2, "red")}),
    }


def test_nc_7_and_nc_8_display_rules(nordic: Ruleset) -> None:
    """NC-7 / NC-8: a face-up locomotive is an ordinary draw and the display never
    flushes."""
    p = nordic.params
    assert p.face_up_locomotive == "ordinary"
    assert index_of(nordic).face_up_loco_whole_draw is False
    assert (p.display.size, p.display.flush_locomotives) == (5, None)
    assert index_of(nordic).flush_at is None


def test_nc_9_locomotives_only_on_tunnels_and_ferries(nordic: Ruleset) -> None:
    """NC-9 / MURMANSK-3: single locomotives are accepted on the 34 tunnels and ferries and
    nowhere else, not on Murmansk-Lieksa either."""
    assert nordic.params.locomotives == "tunnels_and_ferries"
    allowed = [r for r in range(TRACKS) if index_of(nordic).route_locos_ok[r]]
    assert len(allowed) == 34
    assert allowed == [
        r
        for r in range(TRACKS)
        if index_of(nordic).route_tunnel[r] or index_of(nordic).route_ferry[r] > 0
    ]
    (murmansk,) = tracks_between(nordic, "Murmansk", "Lieksa")
    assert not index_of(nordic).route_locos_ok[murmansk]


def test_nc_11_and_nc_16_tunnel_and_ferry_parameters(nordic: Ruleset) -> None:
    """NC-11 / NC-16: groups of 3 cards for ferry locomotives; tunnels reveal 3 cards."""
    p = nordic.params
    assert p.ferry_groups == 3
    assert p.tunnel_reveal == 3


def test_nc_17_route_points(nordic: Ruleset) -> None:
    """NC-17: 1, 2, 4, 7, 10 and 15 points for 1 to 6 spaces, 27 for 9."""
    assert dict(nordic.params.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 9: 27}
    for r in range(TRACKS):
        assert (
            index_of(nordic).route_points[r]
            == nordic.params.route_points[index_of(nordic).route_len[r]]
        )
    # 17 x 1 + 28 x 2 + 20 x 4 + 11 x 7 + 3 x 10 + 1 x 15 + 1 x 27
    assert sum(index_of(nordic).route_points) == 302


def test_nc_18_no_longest_path_bonus(nordic: Ruleset) -> None:
    """NC-18: no longest path bonus is declared."""
    assert nordic.params.longest_path_bonus is None


def test_nc_19_tie_breakers(nordic: Ruleset) -> None:
    """NC-19: completed tickets is the only tie-breaker."""
    assert nordic.params.tie_breakers == ("completed_tickets",)


# -- Murmansk-Lieksa -----------------------------------------------------------------------


def test_murmansk_1_the_nine_space_route(nordic: Ruleset) -> None:
    """MURMANSK-1: Murmansk-Lieksa (track 53) is gray, 9 spaces, 27 points, the only track
    of its length, and neither a tunnel nor a ferry."""
    (r,) = [r for r in range(TRACKS) if index_of(nordic).route_len[r] == 9]
    track = index_of(nordic).routes[r]
    assert track.id == 53
    assert set(track.cities) == {"Murmansk", "Lieksa"}
    assert track.color == "gray"
    assert index_of(nordic).route_points[r] == 27
    assert (track.tunnel, track.ferry, track.parallel) == (False, 0, None)


def test_murmansk_2_groups_of_four_on_that_track_only(nordic: Ruleset) -> None:
    """MURMANSK-2: Murmansk-Lieksa declares groups of 4 cards, and no other track declares
    card groups."""
    groups = {t.id: t.card_groups for t in index_of(nordic).routes if t.card_groups}
    assert groups == {53: 4}


# -- the data file -----------------------------------------------------------------------------


def test_map_file_loads_and_round_trips() -> None:
    """The packaged file loads, and writing it back and reading it again gives the same
    data; ids run 1 to 81 and 1 to 46."""
    text = files("ttr_nordic").joinpath("nordic.json").read_text(encoding="utf-8")
    data = load_map_data(text)
    assert data.edition == "nordic"
    assert data.name == "Nordic Countries"
    assert load_map_data(json.dumps(unstructure_map(data))) == data
    raw = json.loads(text)
    assert raw["format"] == 1
    assert [t.id for t in data.routes] == list(range(1, 82))
    assert [t.id for t in data.tickets] == list(range(1, 47))
    assert data == Ruleset.build("nordic").map


def test_source_names_the_printed_components() -> None:
    """The data says where its facts come from: the published board and ticket cards."""
    data = Ruleset.build("nordic").map
    assert data.source.startswith("Ticket to Ride Nordic Countries.")
    assert "board" in data.source and "ticket cards" in data.source
    lowered = data.source.lower()
    for word in ("http", "www", "github", ".php", "/"):
        assert word not in lowered


def test_cli_knows_the_edition(capsys: pytest.CaptureFixture[str]) -> None:
    """``ttr editions`` lists Nordic Countries and ``ttr map skandinavien --json`` prints
    its map data with the option applied."""
    assert main(["editions", "--json"]) == 0
    (row,) = [e for e in json.loads(capsys.readouterr().out) if e["id"] == "nordic"]
    assert row["name"] == "Ticket to Ride Nordic Countries"
    assert row["aliases"] == ["scandinavia", "skandinavien", "nordic-countries"]
    assert main(["map", "skandinavien", "--json", "--option", "ferry_group_stacking=false"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["edition"] == "nordic"
    assert len(data["routes"]) == TRACKS
    (murmansk,) = [t for t in data["routes"] if t["length"] == 9]
    assert murmansk["card_groups"] == 4
    assert data["parameters"]["ferry_groups"] == 3
    assert data["parameters"]["ferry_group_stacking"] is False
    assert data["parameters"]["longest_path_bonus"] is None
