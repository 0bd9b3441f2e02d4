"""Facts of the USA map data (USA-2, USA-3, USA-7, USA-11)."""

from __future__ import annotations

from collections import Counter

import pytest

from ttr_core import BuildStation, legal_actions
from ttr_core.rules.graph import components
from ttr_core.rules.index import index_of
from ttr_core.testing.scenarios import started


@pytest.fixture(scope="module")
def usa_map(usa):
    return usa.map


def test_usa_2_cities(usa_map):
    """USA-2: 36 cities with unique names."""
    assert len(usa_map.cities) == 36
    assert len({c.id for c in usa_map.cities}) == 36


def test_usa_2_tracks_and_city_pairs(usa_map):
    """USA-2: 100 tracks between 78 pairs of cities, 22 of them double routes."""
    assert len(usa_map.routes) == 100
    assert len({t.id for t in usa_map.routes}) == 100
    pairs = Counter(frozenset(t.cities) for t in usa_map.routes)
    assert len(pairs) == 78
    assert sum(1 for n in pairs.values() if n == 2) == 22
    assert max(pairs.values()) == 2


def test_usa_2_double_routes_name_each_other(usa_map):
    """USA-2 / DOUBLE-5: each track of a double route names the other as its parallel."""
    by_id = {t.id: t for t in usa_map.routes}
    doubles = [t for t in usa_map.routes if t.parallel is not None]
    assert len(doubles) == 44
    for t in doubles:
        other = by_id[t.parallel]
        assert other.parallel == t.id
        assert set(other.cities) == set(t.cities)
        assert other.id != t.id
    pairs = Counter(frozenset(t.cities) for t in usa_map.routes)
    for t in usa_map.routes:
        assert (t.parallel is not None) == (pairs[frozenset(t.cities)] == 2)


def test_usa_2_double_routes_in_the_ruleset(usa):
    """USA-2: the compiled twins agree with the map data."""
    for r, t in enumerate(index_of(usa).routes):
        twin = index_of(usa).route_twin[r]
        if t.parallel is None:
            assert twin == -1
        else:
            assert index_of(usa).route_ids[twin] == t.parallel
            assert index_of(usa).route_twin[twin] == r


def test_usa_2_length_histogram(usa_map):
    """USA-2: route lengths run from 1 to 6: 9, 36, 20, 16, 10 and 9 tracks."""
    lengths = Counter(t.length for t in usa_map.routes)
    assert dict(lengths) == {1: 9, 2: 36, 3: 20, 4: 16, 5: 10, 6: 9}
    assert sum(t.length for t in usa_map.routes) == 309


def test_usa_2_colours(usa_map):
    """USA-2: 44 gray tracks and 7 of each of the eight colours."""
    colours = Counter(t.color for t in usa_map.routes)
    assert colours["gray"] == 44
    for name in ("red", "orange", "yellow", "green", "blue", "pink", "black", "white"):
        assert colours[name] == 7


def test_usa_2_map_is_connected(usa):
    """USA-2: every city can be reached from every other."""
    uf = components(
        len(index_of(usa).city_ids), zip(index_of(usa).route_a, index_of(usa).route_b, strict=True)
    )
    roots = {uf.find(c) for c in range(len(index_of(usa).city_ids))}
    assert len(roots) == 1


def test_usa_3_thirty_tickets(usa_map, usa):
    """USA-3: 30 tickets (not 33), worth 349 points in all, between known cities."""
    assert len(usa_map.tickets) == 30
    assert len({t.id for t in usa_map.tickets}) == 30
    assert sum(t.points for t in usa_map.tickets) == 349
    cities = {c.id for c in usa_map.cities}
    for t in usa_map.tickets:
        assert t.a in cities and t.b in cities and t.a != t.b
        assert t.points > 0
        assert t.kind == "regular"
    state = started(usa, 2, seed=1)
    held = sum(len(p.tickets) for p in state.players)
    assert held + len(state.ticket_deck) == 30


def test_usa_7_route_points(usa):
    """USA-7: lengths 1 to 6 score 1, 2, 4, 7, 10 and 15 points."""
    assert dict(usa.params.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15}
    total = sum(index_of(usa).route_points)
    assert total == 9 * 1 + 36 * 2 + 20 * 4 + 16 * 7 + 10 * 10 + 9 * 15


def test_usa_11_no_tunnels_ferries_or_stations(usa, usa_map):
    """USA-11: no tunnels, no ferries and no stations on the USA map."""
    assert not any(t.tunnel for t in usa_map.routes)
    assert all(t.ferry == 0 for t in usa_map.routes)
    assert usa.params.stations == 0
    state = started(usa, 2, seed=1)
    assert not any(isinstance(a, BuildStation) for a in legal_actions(usa, state))
    assert all(p.stations == 0 for p in state.players)
    assert state.station_owners == ()


def test_usa_8_parameters(usa):
    """USA-8: locomotives anywhere, the face-up locomotive restriction and the flush."""
    assert usa.params.locomotives == "anywhere"
    assert usa.params.face_up_locomotive == "whole_draw"
    assert usa.params.display.flush_locomotives == 3
    assert usa.params.display.flush_repeats == 3
    assert usa.params.display.size == 5
    assert usa.params.starting_hand == 4
