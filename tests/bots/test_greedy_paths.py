"""The greedy bot's shortest paths and planned steps, against a plain heap-based search.

`Board.path` settles the nearest reached city first, the lowest city index among equally
near ones, and keeps the first track that reached a city at its distance. A textbook
Dijkstra search with a heap of ``(distance, city)`` pairs does exactly that, so both must
give the same trains, the same tracks and the same searched ways on any board.
"""

from __future__ import annotations

import heapq

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_core import Ruleset
from ttr_core.bots.greedy import Board, Goal, map_facts, ticket_goals


@pytest.fixture(scope="module", params=["usa", "europe", "switzerland"])
def rs(request: pytest.FixtureRequest) -> Ruleset:
    return Ruleset.build(request.param)


def heap_path(
    board: Board, goal: Goal, zero: frozenset[int], chain: list[int]
) -> tuple[int, list[int]] | None:
    """The way `Board.path` is documented to find, by a heap of (distance, city) pairs."""
    facts = board.facts
    cost = [0 if r in zero and c >= 0 else c for r, c in enumerate(board.cost)]
    if not goal.sources or not goal.targets:
        return None
    dist: dict[int, int] = {c: 0 for c in goal.sources}
    via: dict[int, int] = {}
    settled: set[int] = set()
    heap = [(0, c) for c in sorted(set(goal.sources))]
    while heap:
        d, u = heapq.heappop(heap)
        if u in settled or d > dist[u]:
            continue
        settled.add(u)
        if u in goal.targets:
            needed = []
            while u not in goal.sources:
                r = via[u]
                chain.append(r)
                if cost[r] > 0:
                    needed.append(r)
                a, b = facts.ends[r]
                u = a if b == u else b
            return d, needed[::-1]
        if facts.border[u] and u not in goal.sources:
            continue
        for r, v in facts.neighbours[u]:
            if cost[r] < 0 or v in settled:
                continue
            if d + cost[r] < dist.get(v, 1 << 60):
                dist[v] = d + cost[r]
                via[v] = r
                heapq.heappush(heap, (d + cost[r], v))
    return None


@given(data=st.data())
def test_the_greedy_path_is_the_heap_searchs_way(rs: Ruleset, data: st.DataObject) -> None:
    """The cheapest way to a ticket on random boards (CLAIM-8: claimed tracks are closed)."""
    facts = map_facts(rs)
    tracks = len(facts.length)
    players = data.draw(st.integers(2, 4), label="players")
    owners = data.draw(
        st.lists(st.sampled_from([-1, -1, -1, 0, 1]), min_size=tracks, max_size=tracks),
        label="owners",
    )
    trains = data.draw(st.integers(0, 45), label="trains")
    zero = frozenset(data.draw(st.sets(st.integers(0, tracks - 1), max_size=6), label="zero"))
    goals = ticket_goals(rs)
    goal = goals[data.draw(st.integers(0, len(goals) - 1), label="ticket")]
    board = Board.at(rs, 0, owners, trains, players)
    chain: list[int] = []
    expected_chain: list[int] = []
    assert board.path(goal, zero, chain) == heap_path(board, goal, zero, expected_chain)
    assert chain == expected_chain


def test_a_planned_step_holds_the_track_and_its_free_parallel(rs: Ruleset) -> None:
    """DOUBLE-1: a step lists the parallel track as well only while the bot may claim it."""
    facts = map_facts(rs)
    tracks = len(facts.length)
    for owners in ([-1] * tracks, [1 if r % 3 == 0 else -1 for r in range(tracks)]):
        board = Board.at(rs, 0, owners, 45, 4)
        for r in range(tracks):
            twin = facts.twin[r]
            step = board.edge(r)
            expected = (r,) if twin < 0 or not board.free(twin) else tuple(sorted((r, twin)))
            assert step.tracks == expected
            assert step.length == facts.length[r]
