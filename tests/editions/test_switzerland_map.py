"""The Switzerland map data: the facts of the published board and ticket cards.

The figures below were counted from the board and the cards (rules CH-2, CH-8,
COUNTRY-1, COUNTRY-4); the map file must agree with every one of them.
"""

from __future__ import annotations

from collections import Counter

import pytest

from ttr_core import Ruleset, installed_editions
from ttr_core.model.errors import MapDataError
from ttr_core.model.mapdata import structure_map, unstructure_map
from ttr_core.rules.index import index_of

COUNTRIES = {"France": 4, "Deutschland": 5, "Österreich": 3, "Italia": 5}
"""Border arrows per country (COUNTRY-1)."""

COUNTRY_CARDS = {
    "France": {"Deutschland": 5, "Österreich": 14, "Italia": 11},
    "Deutschland": {"France": 5, "Österreich": 5, "Italia": 13},
    "Österreich": {"France": 14, "Deutschland": 5, "Italia": 6},
    "Italia": {"France": 11, "Deutschland": 13, "Österreich": 6},
    "Bern": {"France": 5, "Deutschland": 6, "Österreich": 11, "Italia": 8},
    "Chur": {"France": 12, "Deutschland": 6, "Österreich": 3, "Italia": 5},
    "Zürich": {"France": 7, "Deutschland": 3, "Österreich": 7, "Italia": 11},
    "Lugano": {"France": 14, "Deutschland": 12, "Österreich": 13, "Italia": 2},
}
"""The 8 country ticket cards by origin (COUNTRY-4); the first 4 are in the deck twice."""


@pytest.fixture(scope="module")
def ch() -> Ruleset:
    return Ruleset.build("switzerland")


def test_edition_is_installed_with_its_aliases() -> None:
    """``ttr editions`` lists Switzerland, built in, for 2 to 3 players; ``schweiz`` finds it."""
    ed = installed_editions()["switzerland"]
    assert ed.builtin and ed.players == (2, 3)
    assert "schweiz" in ed.info.aliases
    assert Ruleset.build("schweiz").id == "switzerland"


def test_ch_2_cities_and_border_arrows(ch: Ruleset) -> None:
    """CH-2, COUNTRY-1: 34 Swiss cities and 17 border arrows of 4 countries."""
    cities = [c for c in ch.map.cities if c.country is None]
    arrows = Counter(c.country for c in ch.map.cities if c.country is not None)
    assert len(cities) == 34
    assert dict(arrows) == COUNTRIES and sum(arrows.values()) == 17


def test_ch_2_tracks_doubles_tunnels_lengths(ch: Ruleset) -> None:
    """CH-2, CH-13: 88 tracks, 12 double routes, 42 tunnels, no ferries; lengths 1 to 6."""
    tracks = ch.map.routes
    assert len(tracks) == 88
    assert sum(t.parallel is not None for t in tracks) == 2 * 12
    assert len({frozenset(t.cities) for t in tracks}) == 76
    assert sum(t.tunnel for t in tracks) == 42
    assert not any(t.ferry or t.card_groups for t in tracks)
    lengths = Counter(t.length for t in tracks)
    assert lengths == {1: 31, 2: 21, 3: 18, 4: 14, 5: 2, 6: 2}
    assert ch.params.stations == 0


def test_country_1_country_3_each_arrow_ends_one_track(ch: Ruleset) -> None:
    """COUNTRY-1, COUNTRY-3: every arrow ends exactly one track, whose other end is a Swiss
    city: arrows are never linked, so no path crosses a country."""
    for c, country in enumerate(index_of(ch).city_country):
        if country is None:
            continue
        (r,) = index_of(ch).city_routes[c]
        other = index_of(ch).route_b[r] if index_of(ch).route_a[r] == c else index_of(ch).route_a[r]
        assert index_of(ch).city_country[other] is None


def test_ch_8_country_4_ticket_deck(ch: Ruleset) -> None:
    """CH-8, COUNTRY-4: 46 tickets, 34 between two cities and 12 country tickets: the 4
    city-to-country cards once and the 4 country-to-country cards twice."""
    tickets = ch.map.tickets
    assert len(tickets) == 46
    city = [t for t in tickets if t.kind == "regular"]
    country = [t for t in tickets if t.kind == "country"]
    assert len(city) == 34 and len(country) == 12
    assert all(t.b is not None and t.points and t.points > 0 for t in city)
    by_origin = Counter(t.a for t in country)
    assert by_origin == {o: (2 if o in COUNTRIES else 1) for o in COUNTRY_CARDS}
    for t in country:
        assert dict(t.targets or {}) == COUNTRY_CARDS[t.a]
    assert len({t.id for t in tickets}) == 46


def test_ch_11_route_points(ch: Ruleset) -> None:
    """CH-11: 1, 2, 4, 7, 10 and 15 points for lengths 1 to 6."""
    assert dict(ch.params.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}


def test_country_names_and_aliases(ch: Ruleset) -> None:
    """The German names Frankreich and Italien (and English names) name the countries."""
    for alias, country in (
        ("Frankreich", "France"),
        ("Italien", "Italia"),
        ("Italy", "Italia"),
        ("Germany", "Deutschland"),
        ("Austria", "Österreich"),
    ):
        assert index_of(ch).country_id[alias] == country
        assert ch.place_cities(alias) == index_of(ch).country_arrows[country]
    assert len(ch.place_cities("Italien")) == 5
    assert ch.place_cities("Bern") == (index_of(ch).city_index["Bern"],)
    assert ch.place_cities("Atlantis") == ()


def test_country_aliases_are_checked_in_map_data(ch: Ruleset) -> None:
    """A declared country must be one border arrows lead to, and its names must be new."""
    raw = unstructure_map(ch.map)
    unknown = {**raw, "countries": [{"id": "Liechtenstein", "aliases": []}]}
    with pytest.raises(MapDataError, match=r"\$\.countries\[0\]\.id: no border arrow"):
        structure_map(unknown)
    clash = {**raw, "countries": [{"id": "France", "aliases": ["Bern"]}]}
    with pytest.raises(MapDataError, match="name 'Bern' is already used by 'Bern'"):
        structure_map(clash)


def test_countries_are_left_out_of_the_hash_when_none_are_declared() -> None:
    """Maps without ``countries`` keep the digest they had before the key existed, so
    saved games replay: the USA hash is the one recorded before."""
    usa = Ruleset.build("usa")
    assert unstructure_map(usa.map)["countries"] == []
    assert usa.map_hash == "180eeec5a7b6869481f296a69f51f22ead40a0d743329e77236a7b867cabdfcc"
    assert usa.map.digest() == usa.map_hash
