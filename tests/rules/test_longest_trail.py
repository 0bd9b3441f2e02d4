"""The longest path as a trail (PATH-1, PATH-2): ``longest_trail`` against a brute force.

Hypothesis compares it with a plain enumeration of every trail on small random multigraphs
(parallel tracks, loops, separate pieces, bridges between cycles). Dense networks that
the earlier exhaustive search took seconds or longer on are checked by value, and the
search's work limit by the error it raises.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core import Ruleset, TtrError
from ttr_core.formats.position import parse_position, position_to_json
from ttr_core.model.errors import MAX_MESSAGE, LongestPathError
from ttr_core.rules import graph as graph_module
from ttr_core.rules.graph import components, longest_trail
from ttr_core.rules.index import index_of
from ttr_core.rules.scoring import PlayerPosition, Position, score_position

Edge = tuple[int, int, int]


def brute_force(edges: Sequence[Edge]) -> int:
    """The longest trail by walking every trail from every city (tracks used once each)."""
    at: dict[int, list[int]] = {}
    for i, (a, b, _) in enumerate(edges):
        at.setdefault(a, []).append(i)
        if b != a:
            at.setdefault(b, []).append(i)

    @functools.cache
    def walk(city: int, used: frozenset[int]) -> int:
        best = 0
        for i in at[city]:
            if i not in used:
                a, b, length = edges[i]
                best = max(best, length + walk(b if city == a else a, used | {i}))
        return best

    return max((walk(city, frozenset()) for city in at), default=0)


# City names are arbitrary integers, negative ones included.
LABELS = st.lists(st.integers(-50, 10**6), min_size=9, max_size=9, unique=True)


@st.composite
def multigraphs(draw: st.DrawFn) -> list[Edge]:
    """Up to 10 tracks of length 1 to 6 between up to 7 cities, loops and parallels allowed."""
    names = draw(LABELS)
    size = draw(st.integers(1, 7))
    city = st.integers(0, size - 1)
    tracks = draw(st.lists(st.tuples(city, city, st.integers(1, 6)), max_size=10))
    return [(names[a], names[b], length) for a, b, length in tracks]


@st.composite
def trees_with_cycles(draw: st.DrawFn) -> list[Edge]:
    """A random tree on up to 9 cities, its tracks bridges, plus a few that close cycles."""
    names = draw(LABELS)
    size = draw(st.integers(2, 9))
    lengths = st.integers(1, 6)
    tracks = [(draw(st.integers(0, child - 1)), child, draw(lengths)) for child in range(1, size)]
    city = st.integers(0, size - 1)
    tracks += draw(
        st.lists(st.tuples(city, city, lengths).filter(lambda t: t[0] != t[1]), max_size=4)
    )
    order = draw(st.permutations(range(len(tracks))))
    return [(names[tracks[i][0]], names[tracks[i][1]], tracks[i][2]) for i in order]


@pytest.mark.slow
@settings(max_examples=300)
@given(multigraphs())
def test_path_1_matches_brute_force_on_multigraphs(edges: list[Edge]) -> None:
    """PATH-1, PATH-2: the longest trail of any small multigraph is the brute force's."""
    assert longest_trail(edges) == brute_force(edges)


@pytest.mark.slow
@settings(max_examples=300)
@given(trees_with_cycles())
def test_path_1_matches_brute_force_across_bridges(edges: list[Edge]) -> None:
    """PATH-1, PATH-2: cycles hung on trees and joined by bridges, against the brute force."""
    assert longest_trail(edges) == brute_force(edges)


@pytest.mark.slow
@settings(max_examples=200)
@given(st.one_of(multigraphs(), trees_with_cycles()))
def test_path_1_search_alone_matches_brute_force(edges: list[Edge]) -> None:
    """PATH-1, PATH-2: with no block walked whole (``WALK_CYCLES = 0``), every block goes
    to the branch and bound, which still finds the brute force's longest trail."""
    walked = graph_module.WALK_CYCLES
    graph_module.WALK_CYCLES = 0
    try:
        assert longest_trail(edges) == brute_force(edges)
    finally:
        graph_module.WALK_CYCLES = walked


@pytest.mark.slow
@settings(max_examples=200)
@given(st.one_of(multigraphs(), trees_with_cycles()))
def test_path_1_walk_alone_matches_brute_force(edges: list[Edge]) -> None:
    """PATH-1, PATH-2: with every block walked whole, however many cycles it has, the walk
    (which stops each start once no trail left can beat the best) still finds the brute
    force's longest trail."""
    cycles, steps = graph_module.WALK_CYCLES, graph_module.WALK_STEPS
    graph_module.WALK_CYCLES, graph_module.WALK_STEPS = 100, 10**9
    try:
        assert longest_trail(edges) == brute_force(edges)
    finally:
        graph_module.WALK_CYCLES, graph_module.WALK_STEPS = cycles, steps


@pytest.mark.slow
@settings(max_examples=300)
@given(st.integers(1, 9), st.data())
def test_path_1_by_component_labels_matches_brute_force(size: int, data: st.DataObject) -> None:
    """PATH-1, PATH-2: given each city's component (as a player's network has them), the
    longest trail is still the brute force's, components looked at heaviest first."""
    city = st.integers(0, size - 1)
    edges = data.draw(st.lists(st.tuples(city, city, st.integers(0, 6)), max_size=10))
    uf = components(size, [(a, b) for a, b, _ in edges])
    labels = [uf.find(c) for c in range(size)]
    assert longest_trail(edges, labels) == brute_force(edges)


def test_path_1_hand_cases() -> None:
    """PATH-1, PATH-2: a few networks worked out by hand."""
    assert longest_trail([]) == 0
    assert longest_trail([(0, 1, 6)]) == 6
    # Two triangles joined by a bridge: one triangle, the bridge, the other triangle.
    triangles = [(0, 1, 1), (1, 2, 1), (2, 0, 1), (2, 3, 5), (3, 4, 1), (4, 5, 1), (5, 3, 1)]
    assert longest_trail(triangles) == 11
    # A star of three long arms: two arms only (PATH-2).
    assert longest_trail([(0, 1, 4), (0, 2, 5), (0, 3, 6)]) == 11
    # Two separate networks are never summed (PATH-2).
    assert longest_trail([(0, 1, 3), (5, 6, 4)]) == 4
    # Parallel tracks form a cycle, walked whole.
    assert longest_trail([(0, 1, 2), (0, 1, 3), (1, 2, 1)]) == 6


def test_path_1_complete_graph_of_8_cities() -> None:
    """PATH-1: 28 tracks of length 1 joining 8 cities (every city odd, degree 7).

    A trail has at most two odd cities, so at least three tracks are left out, one at
    each of six cities; leaving out three disjoint ones keeps the rest connected: 25.
    The earlier exhaustive search had not finished after 15 s.
    """
    complete = [(a, b, 1) for a, b in itertools.combinations(range(8), 2)]
    assert len(complete) == 28
    assert longest_trail(complete) == 25


INDIA_DENSE = (
    ("Agra", "Bhopal", 1), ("Agra", "Jaipur", 1), ("Ahmadabad", "Ratiam", 1),
    ("Bareilly", "Delhi", 1), ("Bareilly", "Lucknow", 1), ("Bezwada", "Madras", 1),
    ("Bilaspur", "Katni", 1), ("Bombay", "Manmad", 1), ("Bombay", "Mormugau", 1),
    ("Bombay", "Poona", 1), ("Guntakal", "Wadi", 1), ("Jaipur", "Ratiam", 1),
    ("Katni", "Lucknow", 1), ("Khandwa", "Manmad", 1), ("Manmad", "Poona", 1),
    ("Mormugau", "Poona", 1), ("Poona", "Wadi", 1), ("Agra", "Delhi", 2),
    ("Agra", "Katni", 2), ("Agra", "Lucknow", 2), ("Ahmadabad", "Khandwa", 2),
    ("Bezwada", "Guntakal", 2), ("Bhopal", "Bilaspur", 2), ("Bhopal", "Khandwa", 2),
    ("Bhopal", "Ratiam", 2), ("Delhi", "Jaipur", 2), ("Delhi", "Lucknow", 2),
    ("Guntakal", "Madras", 2), ("Guntakal", "Mormugau", 2), ("Khandwa", "Ratiam", 2),
    ("Mormugau", "Wadi", 2),
)  # fmt: skip
"""31 tracks of India's map, 45 trains, packed into 19 cities."""


def test_path_1_dense_india_network() -> None:
    """PATH-1: India's 31 tracks in 19 cities have a longest trail of 43 (of 45).

    The value was confirmed by the earlier exhaustive search, which took 4.6 s of CPU.
    """
    names = sorted({city for a, b, _ in INDIA_DENSE for city in (a, b)})
    assert len(names) == 19
    assert sum(length for _, _, length in INDIA_DENSE) == 45
    number = {name: i for i, name in enumerate(names)}
    assert longest_trail([(number[a], number[b], n) for a, b, n in INDIA_DENSE]) == 43


def test_path_1_dense_india_position_scores() -> None:
    """PATH-1: the same network as a legal India position, through final scoring."""
    rs = Ruleset.build("india")
    routes = []
    for a, b, length in INDIA_DENSE:
        pair = {index_of(rs).city_index[a], index_of(rs).city_index[b]}
        routes.append(
            next(
                r
                for r in range(len(index_of(rs).routes))
                if {index_of(rs).route_a[r], index_of(rs).route_b[r]} == pair
                and index_of(rs).route_len[r] == length
            )
        )
    held = Position(players=(PlayerPosition(name="Ann", routes=tuple(routes), tickets=()),))
    position = parse_position(rs, position_to_json(rs, held))  # checks that it is legal
    assert score_position(rs, position).players[0].longest_path == 43


def test_path_1_work_limit_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """PATH-1: a search that would exceed ``MAX_TRAIL_WORK`` raises ``LongestPathError``."""
    monkeypatch.setattr(graph_module, "MAX_TRAIL_WORK", 100)
    complete = [(a, b, 1) for a, b in itertools.combinations(range(8), 2)]
    with pytest.raises(LongestPathError) as caught:
        longest_trail(complete)
    assert isinstance(caught.value, TtrError)
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    assert "MAX_TRAIL_WORK" in message
    assert "\n" not in message
    assert len(message) <= MAX_MESSAGE
    # Networks that need no search are never limited.
    assert longest_trail([(0, 1, 3), (1, 2, 4), (2, 0, 5)]) == 12
