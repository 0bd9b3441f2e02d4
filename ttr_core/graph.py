"""Graph algorithms on a player's tracks: connectivity and the longest trail."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


class UnionFind:
    """Connected components of cities, built from the tracks a player can use."""

    __slots__ = ("parent",)

    def __init__(self, size: int) -> None:
        self.parent = list(range(size))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[ra] = rb

    def connected(self, a: int, b: int) -> bool:
        return self.find(a) == self.find(b)


def components(size: int, edges: Iterable[tuple[int, int]]) -> UnionFind:
    """Union-find over ``size`` cities joined by ``edges``."""
    uf = UnionFind(size)
    for a, b in edges:
        uf.union(a, b)
    return uf


def longest_trail(edges: Sequence[tuple[int, int, int]]) -> int:
    """The longest trail (no track used twice; cities may repeat) over ``(a, b, length)`` edges.

    Exhaustive depth-first search over edges from every city, which is exact and fast at
    the size of one player's network (rules PATH-1, PATH-2).
    """
    if not edges:
        return 0
    adj: dict[int, list[tuple[int, int, int]]] = {}
    for i, (a, b, length) in enumerate(edges):
        adj.setdefault(a, []).append((i, b, length))
        adj.setdefault(b, []).append((i, a, length))

    def walk(city: int, used: int) -> int:
        best = 0
        for i, other, length in adj[city]:
            bit = 1 << i
            if not used & bit:
                total = length + walk(other, used | bit)
                if total > best:
                    best = total
        return best

    # Per component: a longest trail ends at cities of odd degree when the component has
    # any (otherwise it could be extended); an all-even component is walked whole.
    best = 0
    seen: set[int] = set()
    for root in adj:
        if root in seen:
            continue
        comp = [root]
        seen.add(root)
        for city in comp:
            for _, other, _ in adj[city]:
                if other not in seen:
                    seen.add(other)
                    comp.append(other)
        if sum(len(adj[c]) for c in comp) == 2 * (len(comp) - 1):
            # A tree: trails are paths, and the longest is its weighted diameter.
            far, _ = _farthest(adj, root)
            _, length = _farthest(adj, far)
            best = max(best, length)
            continue
        odd = [c for c in comp if len(adj[c]) % 2]
        for start in odd or comp[:1]:
            length = walk(start, 0)
            if length > best:
                best = length
    return best


def _farthest(adj: dict[int, list[tuple[int, int, int]]], start: int) -> tuple[int, int]:
    """In a tree, the city farthest from ``start`` and its distance."""
    dist = {start: 0}
    stack = [start]
    while stack:
        city = stack.pop()
        for _, other, length in adj[city]:
            if other not in dist:
                dist[other] = dist[city] + length
                stack.append(other)
    far = max(dist, key=dist.__getitem__)
    return far, dist[far]


def bridges(edges: Sequence[tuple[int, int]]) -> list[int]:
    """Positions in ``edges`` of the bridges: the edges whose removal disconnects their ends.

    ``edges`` is a multigraph: two edges between the same cities are never bridges. An
    iterative depth-first search with low-links (Tarjan), skipping only the edge it came
    by, not every edge back to the parent city.
    """
    adj: dict[int, list[tuple[int, int]]] = {}
    for i, (a, b) in enumerate(edges):
        adj.setdefault(a, []).append((i, b))
        adj.setdefault(b, []).append((i, a))
    order: dict[int, int] = {}
    low: dict[int, int] = {}
    found: list[int] = []
    for root in adj:
        if root in order:
            continue
        order[root] = low[root] = len(order)
        stack = [(root, -1, iter(adj[root]))]
        while stack:
            city, via, todo = stack[-1]
            for i, other in todo:
                if i == via:
                    continue
                if other not in order:
                    order[other] = low[other] = len(order)
                    stack.append((other, i, iter(adj[other])))
                    break
                low[city] = min(low[city], order[other])
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    low[parent] = min(low[parent], low[city])
                    if low[city] > order[parent]:
                        found.append(via)
    return sorted(found)
