"""The longest path of a network with exactly one cycle (PATH-1, PATH-2), found without search.

``longest_trail`` works out a component with as many tracks as cities (one cycle: a loop,
two parallel tracks or a ring, with trees hanging from it) directly, as most networks
with a cycle in random games are. Hypothesis checks it against a plain walk of every
trail and against the general block search it replaces, on random trees closed by one
more track, zero lengths, loops and parallel tracks included.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.rules import graph
from ttr_core.rules.graph import longest_trail

Edge = tuple[int, int, int]


def every_trail(edges: Sequence[Edge]) -> int:
    """The longest trail by walking from every city along every unused track in turn."""
    at: dict[int, list[int]] = {}
    for i, (a, b, _) in enumerate(edges):
        at.setdefault(a, []).append(i)
        if a != b:
            at.setdefault(b, []).append(i)

    @functools.cache
    def walk(city: int, used: frozenset[int]) -> int:
        longest = 0
        for i in at[city]:
            if i not in used:
                a, b, length = edges[i]
                longest = max(longest, length + walk(a if city == b else b, used | {i}))
        return longest

    return max((walk(city, frozenset()) for city in at), default=0)


def block_search(edges: Sequence[Edge]) -> int:
    """The longest trail of one connected component by the general search, bridges and blocks."""
    return graph._longest_in_component(list(edges), 0, graph._Work())


@st.composite
def one_cycle(draw: st.DrawFn) -> list[Edge]:
    """A random tree on up to 10 cities and one more track (maybe a loop or a parallel
    track), so one component with one cycle; lengths 0 to 6, cities named at random."""
    size = draw(st.integers(1, 10))
    names = draw(st.lists(st.integers(-40, 10**6), min_size=size, max_size=size, unique=True))
    lengths = st.integers(0, 6)
    tracks = [(draw(st.integers(0, child - 1)), child, draw(lengths)) for child in range(1, size)]
    city = st.integers(0, size - 1)
    tracks.append((draw(city), draw(city), draw(lengths)))
    order = draw(st.permutations(range(len(tracks))))
    return [(names[tracks[i][0]], names[tracks[i][1]], tracks[i][2]) for i in order]


@settings(max_examples=300)
@given(one_cycle())
def test_path_1_one_cycle_matches_every_trail(edges: list[Edge]) -> None:
    """PATH-1, PATH-2: with one cycle, the longest trail is the one a walk of every trail finds."""
    assert longest_trail(edges) == every_trail(edges)


@settings(max_examples=300)
@given(one_cycle())
def test_path_1_one_cycle_matches_the_block_search(edges: list[Edge]) -> None:
    """PATH-1, PATH-2: the direct answer for one cycle is the general search's."""
    assert longest_trail(edges) == block_search(edges)


@settings(max_examples=100)
@given(one_cycle(), one_cycle())
def test_path_2_cycles_apart_are_not_summed(first: list[Edge], second: list[Edge]) -> None:
    """PATH-2: two separate networks with a cycle each: the longer of their trails."""
    shifted = [(a + 2 * 10**6, b + 2 * 10**6, length) for a, b, length in second]
    assert longest_trail(first + shifted) == max(every_trail(first), every_trail(second))


def test_path_1_one_cycle_hand_cases() -> None:
    """PATH-1, PATH-2: a ring with tails, a loop with tails and parallel tracks, by hand."""
    # A ring of 4 with a tail of 5 at one city: the ring whole, then the tail.
    assert longest_trail([(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 0, 1), (0, 9, 5)]) == 9
    # Tails of 5 at opposite cities of a ring of 1+1+1+1: the tails and the longer arc (2).
    ring = [(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 0, 1)]
    assert longest_trail([*ring, (0, 8, 5), (2, 9, 5)]) == 5 + 4 + 5 - 2
    # A ring of 2+8 with tails of 6 at its two cities: tail, the long arc, tail.
    assert longest_trail([(0, 1, 2), (1, 0, 8), (0, 5, 6), (1, 6, 6)]) == 20
    # A loop of 3 at a city with two tails of 4 and 2: tail, loop, tail.
    assert longest_trail([(0, 0, 3), (0, 1, 4), (0, 2, 2)]) == 9
    # Three tails at a city of a ring: the two longest, around the ring between them.
    assert longest_trail([(0, 1, 1), (1, 2, 1), (2, 0, 1), (0, 3, 2), (0, 4, 3), (0, 5, 9)]) == 15
