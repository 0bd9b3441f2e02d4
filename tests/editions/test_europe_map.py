"""The Europe map data and edition: counts checked against the published board and cards.

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


@pytest.fixture(scope="module")
def europe() -> Ruleset:
    return Ruleset.build("europe")


def pairs(rs: Ruleset, r: int) -> frozenset[str]:
    return frozenset(index_of(rs).routes[r].cities)


def test_edition_is_registered_with_its_aliases() -> None:
    """The edition is found by id and by its aliases, any case."""
    for name in ("europe", "Europa", "EU", "zug-um-zug-europa"):
        assert find_edition(name).info.id == "europe"
    info = find_edition("europe").info
    assert info.name == "Ticket to Ride Europe"
    assert info.rules_version == "1"
    (row,) = [e for e in describe_editions() if e["id"] == "europe"]
    assert row["builtin"] is True
    assert row["players"] == [2, 5]


def test_edition_has_no_options(europe: Ruleset) -> None:
    """Europe declares no options of its own (only the core's, which every edition has)."""
    assert set(europe.options) == set(CORE_OPTIONS)


def test_eu_1_players_trains_and_stations(europe: Ruleset) -> None:
    """EU-1: 2 to 5 players, 45 trains and 3 stations each."""
    p = europe.params
    assert p.players == (2, 5)
    assert p.trains == 45
    assert p.stations == 3
    assert p.station_cost == (1, 2, 3)
    assert p.unbuilt_station_points == 4


def test_eu_2_cities_and_tracks(europe: Ruleset) -> None:
    """EU-2: 47 cities, 101 tracks between 90 pairs of cities, 11 double routes."""
    assert len(index_of(europe).city_ids) == 47
    assert len(index_of(europe).routes) == 101
    assert len({pairs(europe, r) for r in range(101)}) == 90
    assert sum(1 for r in range(101) if index_of(europe).route_twin[r] >= 0) == 22
    for r in range(101):
        twin = index_of(europe).route_twin[r]
        if twin >= 0:
            assert index_of(europe).route_twin[twin] == r
            assert pairs(europe, twin) == pairs(europe, r)


def test_eu_2_tunnels_and_ferries(europe: Ruleset) -> None:
    """EU-2 / TUNNEL-1 / FERRY-1: 18 tunnels; 13 ferry tracks with 17 locomotive symbols,
    all of them gray."""
    assert sum(index_of(europe).route_tunnel) == 18
    ferries = [r for r in range(101) if index_of(europe).route_ferry[r]]
    assert len(ferries) == 13
    assert sum(index_of(europe).route_ferry) == 17
    assert {index_of(europe).routes[r].color for r in ferries} == {"gray"}


def test_ferry_5_no_track_is_both_ferry_and_tunnel(europe: Ruleset) -> None:
    """FERRY-5: in Europe no route is both a ferry and a tunnel."""
    assert not any(
        index_of(europe).route_tunnel[r] and index_of(europe).route_ferry[r] for r in range(101)
    )


def test_ferry_4_amsterdam_london_is_all_symbols(europe: Ruleset) -> None:
    """FERRY-4: Amsterdam-London has 2 spaces and 2 symbols."""
    (r,) = [r for r in range(101) if pairs(europe, r) == {"Amsterdam", "London"}]
    assert (index_of(europe).route_len[r], index_of(europe).route_ferry[r]) == (2, 2)


def test_eu_2_route_lengths(europe: Ruleset) -> None:
    """EU-2: lengths 1, 2, 3, 4, 6 and 8, none of 5; 300 spaces in all; 37 gray tracks."""
    assert Counter(index_of(europe).route_len) == {1: 4, 2: 35, 3: 30, 4: 29, 6: 2, 8: 1}
    assert sum(index_of(europe).route_len) == 300
    assert sum(1 for t in index_of(europe).routes if t.color == "gray") == 37


def test_eu_2_the_only_eight_space_track(europe: Ruleset) -> None:
    """EU-2: Petrograd-Stockholm is the only track of 8 spaces (a gray tunnel)."""
    (r,) = [r for r in range(101) if index_of(europe).route_len[r] == 8]
    assert pairs(europe, r) == {"Petrograd", "Stockholm"}
    assert index_of(europe).route_tunnel[r]
    assert index_of(europe).routes[r].color == "gray"


def test_eu_2_every_city_is_reached_and_the_board_is_connected(europe: Ruleset) -> None:
    """EU-2: each city has a track and the board is one network."""
    assert all(index_of(europe).city_routes[c] for c in range(47))
    uf = components(47, zip(index_of(europe).route_a, index_of(europe).route_b, strict=True))
    assert len({uf.find(c) for c in range(47)}) == 1


def test_eu_3_city_aliases(europe: Ruleset) -> None:
    """EU-3: the board's and the cards' spellings name the same city."""
    aliases = {
        "Kobenhavn": "København",
        "Kyiv": "Kyïv",
        "Zagrab": "Zágráb",
        "Athina": "Athína",
        "Cadiz": "Cádiz",
    }
    for board, card in aliases.items():
        assert board in index_of(europe).city_ids
        assert index_of(europe).city_index[card] == index_of(europe).city_index[board]
    with_aliases = {c.id: c.aliases for c in europe.map.cities if c.aliases}
    assert with_aliases == {board: (card,) for board, card in aliases.items()}


def test_eu_4_ticket_deck(europe: Ruleset) -> None:
    """EU-4: 40 regular tickets worth 321 points and 6 long tickets worth 123."""
    regular = [index_of(europe).tickets[i] for i in index_of(europe).regular_tickets]
    long = [index_of(europe).tickets[i] for i in index_of(europe).long_tickets]
    assert (len(regular), len(long)) == (40, 6)
    assert sum(t.points or 0 for t in regular) == 321
    assert sum(t.points or 0 for t in long) == 123
    assert {t.kind for t in regular} == {"regular"}
    for t in index_of(europe).tickets:
        assert t.a in index_of(europe).city_ids and t.b in index_of(europe).city_ids


def test_eu_4_long_tickets(europe: Ruleset) -> None:
    """EU-4: the six long tickets as printed."""
    long = {
        frozenset((t.a, t.b or "")): t.points
        for t in (index_of(europe).tickets[i] for i in index_of(europe).long_tickets)
    }
    assert long == {
        frozenset(("Brest", "Petrograd")): 20,
        frozenset(("Cadiz", "Stockholm")): 21,
        frozenset(("Edinburgh", "Athina")): 21,
        frozenset(("Kobenhavn", "Erzurum")): 21,
        frozenset(("Lisboa", "Danzig")): 20,
        frozenset(("Palermo", "Moskva")): 20,
    }


def test_eu_5_to_9_ticket_deal_parameters(europe: Ruleset) -> None:
    """EU-5 to EU-9: deal 1 long + 3 regular, keep 2, the rest removed; draw 3, keep 1,
    returns to the bottom."""
    opening, draw = europe.params.opening_tickets, europe.params.ticket_draw
    assert (opening.deal, opening.long, opening.keep, opening.returned) == (4, 1, 2, "removed")
    assert (draw.deal, draw.long, draw.keep, draw.returned) == (3, 0, 1, "bottom")


def test_eu_10_route_points(europe: Ruleset) -> None:
    """EU-10: 1, 2, 4, 7, 15 and 21 points for 1, 2, 3, 4, 6 and 8 spaces."""
    assert dict(europe.params.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21}
    for r in range(101):
        assert (
            index_of(europe).route_points[r]
            == europe.params.route_points[index_of(europe).route_len[r]]
        )


def test_eu_11_card_rules(europe: Ruleset) -> None:
    """EU-11: 110 train cards, locomotives wild everywhere, the face-up locomotive
    restriction and the display flush."""
    p = europe.params
    assert len(index_of(europe).train_deck) == 110
    assert index_of(europe).deck_counts == (12, 12, 12, 12, 12, 12, 12, 12, 14)
    assert p.locomotives == "anywhere"
    assert all(index_of(europe).route_locos_ok)
    assert p.face_up_locomotive == "whole_draw"
    assert (p.display.size, p.display.flush_locomotives, p.display.flush_repeats) == (5, 3, 3)
    assert p.tunnel_reveal == 3


def test_eu_12_double_routes_from_four_players(europe: Ruleset) -> None:
    """EU-12: both tracks of a double route are used only with 4 or 5 players."""
    assert europe.params.double_routes_min_players == 4


def test_eu_14_and_15_bonus_and_tie_breakers(europe: Ruleset) -> None:
    """EU-14 / EU-15: the European Express of 10; tickets, stations, then the Express."""
    p = europe.params
    assert (p.longest_path_bonus, p.longest_path_bonus_name) == (10, "european_express")
    assert p.tie_breakers == ("completed_tickets", "fewest_stations", "longest_path_bonus")


def test_map_file_loads_and_round_trips() -> None:
    """The packaged file loads, and writing it back and reading it again gives the same
    data."""
    text = files("ttr_europe").joinpath("europe.json").read_text(encoding="utf-8")
    data = load_map_data(text)
    assert data.edition == "europe"
    assert load_map_data(json.dumps(unstructure_map(data))) == data
    assert json.loads(text)["format"] == 1
    assert [t.id for t in data.routes] == list(range(1, 102))
    assert [t.id for t in data.tickets] == list(range(1, 47))


def test_source_names_the_printed_components() -> None:
    """The data says where its facts come from: the published board and ticket cards."""
    data = Ruleset.build("europe").map
    assert "board" in data.source and "ticket cards" in data.source
    lowered = data.source.lower()
    for word in ("http", "www", "github", ".php", "/"):
        assert word not in lowered


def test_cli_knows_the_edition(capsys: pytest.CaptureFixture[str]) -> None:
    """``ttr editions`` lists Europe and ``ttr map eu --json`` prints its map data."""
    assert main(["editions", "--json"]) == 0
    (row,) = [e for e in json.loads(capsys.readouterr().out) if e["id"] == "europe"]
    assert row["name"] == "Ticket to Ride Europe"
    assert "europa" in row["aliases"] and "eu" in row["aliases"]
    assert main(["map", "eu", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["edition"] == "europe"
    assert len(data["routes"]) == 101
    assert data["parameters"]["longest_path_bonus_name"] == "european_express"
