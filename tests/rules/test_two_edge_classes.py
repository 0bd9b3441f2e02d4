"""``two_edge_classes``: the cities joined by two paths with no track in common.

India's Grand Tour (GRAND-3) asks whether a ticket's cities stay connected after removing
any one of the owner's tracks. Hypothesis compares the classes with that definition,
checked by removing each track in turn, on small random multigraphs.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.rules.graph import components, two_edge_classes

SIZE = 8


def connected_without_any_one(edges: list[tuple[int, int]], a: int, b: int) -> bool:
    """Whether ``a`` and ``b`` are connected after removing any one of ``edges``."""
    if not components(SIZE, edges).connected(a, b):
        return False
    return all(
        components(SIZE, edges[:i] + edges[i + 1 :]).connected(a, b) for i in range(len(edges))
    )


CITY = st.integers(0, SIZE - 1)


@settings(max_examples=300)
@given(st.lists(st.tuples(CITY, CITY), max_size=14))
def test_grand_3_classes_match_removing_each_track(edges: list[tuple[int, int]]) -> None:
    """GRAND-3: two cities share a class exactly when no single track's removal separates
    them (parallel tracks and loops included; a city shares one with itself)."""
    classes = two_edge_classes(SIZE, edges)
    for a in range(SIZE):
        for b in range(SIZE):
            expected = a == b or connected_without_any_one(edges, a, b)
            assert classes.connected(a, b) == expected, (edges, a, b)


def test_grand_3_figure_eight_and_bridge() -> None:
    """GRAND-3: two triangles sharing city 2 form one class; the bridge 4-5 joins none."""
    edges = [(0, 1), (1, 2), (2, 0), (2, 3), (3, 4), (4, 2), (4, 5)]
    classes = two_edge_classes(SIZE, edges)
    assert all(classes.connected(0, c) for c in (1, 2, 3, 4))
    assert not classes.connected(4, 5)
    assert not classes.connected(5, 6)
