"""Graph algorithms on a player's tracks: connectivity and the longest trail."""

from __future__ import annotations

import heapq
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence

from ttr_core.model.errors import LongestPathError


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
    """Union-find over ``size`` cities joined by ``edges``.

    The same as `UnionFind.union` on each edge, written out: final scoring builds one for
    every network it scores.
    """
    uf = UnionFind(size)
    parent = uf.parent
    for a, b in edges:
        while parent[a] != a:
            parent[a] = a = parent[parent[a]]
        while parent[b] != b:
            parent[b] = b = parent[parent[b]]
        if a != b:
            parent[a] = b
    return uf


def two_edge_classes(size: int, edges: Sequence[tuple[int, int]]) -> UnionFind:
    """Union-find over ``size`` cities whose classes are the 2-edge-connected ones of
    ``edges``: two cities share one when no single edge's removal separates them.

    A breadth-first spanning forest, then for each edge outside it the cities of the
    cycle it closes are merged (each class rooted at its city nearest the forest's root,
    so that the cycle is walked up from both ends). Forest edges on no such cycle are the
    bridges. Cheaper than finding the bridges first.
    """
    adj: list[list[tuple[int, int]]] = [[] for _ in range(size)]
    for i, (a, b) in enumerate(edges):
        adj[a].append((i, b))
        adj[b].append((i, a))
    depth = [-1] * size
    up = list(range(size))  # each city's parent in the forest
    via = [-1] * size  # the forest edge to it
    for root, _ in edges:
        if depth[root] >= 0:
            continue
        depth[root] = 0
        queue = [root]
        for city in queue:
            below = depth[city] + 1
            for i, other in adj[city]:
                if depth[other] < 0:
                    depth[other] = below
                    up[other] = city
                    via[other] = i
                    queue.append(other)
    uf = UnionFind(size)
    find = uf.find
    parent = uf.parent
    for i, (a, b) in enumerate(edges):
        if via[a] == i or via[b] == i:
            continue
        a, b = find(a), find(b)
        while a != b:
            if depth[a] < depth[b]:
                a, b = b, a
            parent[a] = a = find(up[a])
    return uf


Edge = tuple[int, int, int]
"""A track as ``(city, city, length)``."""

MAX_TRAIL_WORK = 1_000_000
"""The most work `longest_trail` does before it gives up with a ``LongestPathError``.

Work is search states times the tracks of the graph searched; the limit is about a second
of CPU. The longest trail is NP-hard: the densest networks found that one player can hold
in a built-in edition need about 10,000, but a custom map can allow far worse.
"""


def longest_trail(edges: Sequence[Edge], labels: Sequence[int] | None = None) -> int:
    """The longest trail (no track used twice; cities may repeat) over ``(a, b, length)`` edges.

    Exact (rules PATH-1, PATH-2) for lengths of 0 or more, parallel tracks and loops
    included. A trail's tracks are connected with at most two cities of odd degree (Euler),
    so a component with at most two is walked whole, a tree's longest trail is its
    diameter, and a component with one cycle is worked out by `_longest_unicyclic`.
    Other components lose their trees first (`_longest_with_cycles`), then are cut at
    their bridges, which a trail crosses at most once, into blocks: each is walked whole
    by `_walk_block` when it is small, or else searched by `_TrailSearch`.

    ``labels``, when given, names the component of each city (cities then being indices
    into it, as in a union-find of the same edges): components are then not found
    again, and only those heavy enough to matter are looked at.

    :raises LongestPathError: the search would need more than `MAX_TRAIL_WORK`.
    """
    if labels is not None:
        return _longest_by_labels(edges, labels)
    adj: dict[int, list[tuple[int, int, int]]] = {}  # city: (track, other city, length)
    for i, (a, b, length) in enumerate(edges):
        at = adj.get(a)
        if at is None:
            adj[a] = [(i, b, length)]
        else:
            at.append((i, b, length))
        at = adj.get(b)
        if at is None:
            adj[b] = [(i, a, length)]
        else:
            at.append((i, a, length))
    # Each component: twice its weight, its cities of odd degree, twice its tracks, its cities.
    parts: list[tuple[int, int, int, list[int]]] = []
    seen: set[int] = set()
    for root in adj:
        if root in seen:
            continue
        seen.add(root)
        cities = [root]
        weight = odd = ends = 0
        for city in cities:
            tracks = adj[city]
            odd += len(tracks) & 1
            ends += len(tracks)
            for _, other, length in tracks:
                weight += length
                if other not in seen:
                    seen.add(other)
                    cities.append(other)
        parts.append((weight, odd, ends, cities))
    parts.sort(key=_first, reverse=True)
    best = 0
    work = _Work()
    for weight, odd, ends, cities in parts:
        total = weight // 2
        if total <= best:
            break
        best = _longest_in_part(adj, cities, odd, ends, total, edges, best, work)
    return best


def _longest_by_labels(edges: Sequence[Edge], labels: Sequence[int]) -> int:
    """`longest_trail` of ``edges`` whose cities' components are ``labels``: components
    in decreasing weight, each one's tracks gathered only when it could be the longest."""
    weight = [0] * len(labels)
    for a, _, length in edges:
        label = labels[a]
        weight[label] = weight[label] + length
    best = 0
    work = _Work()
    for root in sorted({labels[a] for a, _, _ in edges}, key=weight.__getitem__, reverse=True):
        total = weight[root]
        if total <= best:
            break
        adj: dict[int, list[tuple[int, int, int]]] = {}  # city: (track, other city, length)
        for i, (a, b, length) in enumerate(edges):
            if labels[a] == root:
                adj.setdefault(a, []).append((i, b, length))
                adj.setdefault(b, []).append((i, a, length))
        odd = ends = 0
        for tracks in adj.values():
            odd += len(tracks) & 1
            ends += len(tracks)
        best = _longest_in_part(adj, list(adj), odd, ends, total, edges, best, work)
    return best


def _longest_in_part(
    adj: dict[int, list[tuple[int, int, int]]],
    cities: list[int],
    odd: int,
    ends: int,
    total: int,
    edges: Sequence[Edge],
    best: int,
    work: _Work,
) -> int:
    """``best``, or the longest trail of one component if that is longer: its ``cities``
    (``adj`` holding at least theirs), how many are of odd degree, twice its tracks, its
    ``total`` length (more than ``best``)."""
    if odd <= 2:
        return total
    if ends == 2 * (len(cities) - 1):
        # A tree: trails are paths, and the longest is its weighted diameter.
        far, _ = _farthest(adj, cities[0])
        return max(best, _farthest(adj, far)[1])
    if ends == 2 * len(cities):
        return max(best, _longest_unicyclic(adj, cities))
    return _longest_with_cycles(adj, cities, edges, best, work)


def _first(part: tuple[int, int, int, list[int]]) -> int:
    """The first item of a component of `longest_trail`: its weight, to sort by."""
    return part[0]


def _peel(
    adj: dict[int, list[tuple[int, int, int]]], cities: list[int]
) -> tuple[dict[int, int], dict[int, list[int]], set[int]]:
    """Take off the trees of a connected component, leaves first.

    Returns each city's degree in what is left (1 or 0 for a city taken off), the two
    longest paths down its trees by different tracks (longest first, 0 if none) and the
    tracks of the trees. What is left has no city of one track: its cycles, and the
    paths between them.
    """
    degree = {city: len(adj[city]) for city in cities}
    down = {city: [0, 0] for city in cities}
    gone: set[int] = set()
    leaves = [city for city in cities if degree[city] == 1]
    for leaf in leaves:
        i, other, length = next(track for track in adj[leaf] if track[0] not in gone)
        gone.add(i)
        reach = down[leaf][0] + length
        top = down[other]
        if reach > top[0]:
            top[1], top[0] = top[0], reach
        elif reach > top[1]:
            top[1] = reach
        degree[other] = degree[other] - 1
        if degree[other] == 1:
            leaves.append(other)
    return degree, down, gone


def _longest_with_cycles(
    adj: dict[int, list[tuple[int, int, int]]],
    cities: list[int],
    edges: Sequence[Edge],
    best: int,
    work: _Work,
) -> int:
    """``best``, or the longest trail of a connected component with two cycles or more if
    that is longer.

    A trail goes down a tree only at its ends, so the trees are taken off first
    ([`_peel`][]): the longest trail within them is a candidate, and each city left keeps
    its two longest paths down as tracks to new cities of their own; what is left goes to
    `_longest_in_component`.
    """
    degree, down, gone = _peel(adj, cities)
    best = max(best, max(first + second for first, second in down.values()))
    found = sorted({i for city in cities if degree[city] > 1 for i, _, _ in adj[city]} - gone)
    hung = {
        city: [value for value in down[city] if value > 0]
        for city in cities
        if degree[city] > 1 and down[city][0] > 0
    }
    return _longest_in_component([edges[i] for i in found], best, work, hung)


def _longest_unicyclic(adj: dict[int, list[tuple[int, int, int]]], cities: list[int]) -> int:
    """The longest trail of a connected component with exactly one cycle (as many tracks
    as cities), found without search: most random networks with a cycle have one.

    Taking off the cities of one track, leaves first, leaves the cycle (a loop, two
    parallel tracks, or a ring) with trees hanging from its cities; meanwhile each city
    keeps the two longest paths down its trees, by different tracks. A trail holds none
    of the cycle (a path through trees, turning at its highest city), an arc between two
    cities of it (each end going on down its longest path), or all of it (closed at one
    city, which goes down its two longest paths).
    """
    degree, down, gone = _peel(adj, cities)
    best = max(first + second for first, second in down.values())
    # Walk the cycle: its cities in order, and the length up to each from the first.
    start = next(city for city in cities if degree[city] > 1)
    ring = [start]
    at = [0]
    city, came = start, -1
    while True:
        i, city, length = next(t for t in adj[city] if t[0] not in gone and t[0] != came)
        came = i
        if city == start:
            break
        ring.append(city)
        at.append(at[-1] + length)
    total = at[-1] + length
    # An arc from ring[j] on to ring[k] is at[k] - at[j] long one way round and the rest of
    # total the other: for each k, the best j before it is the one of highest
    # first - at[j] one way and first + at[j] the other.
    first, second = down[start]
    best = max(best, total + first + second)
    ahead = behind = first  # at[0] is 0
    for k in range(1, len(ring)):
        first, second = down[ring[k]]
        here = at[k]
        best = max(
            best, total + first + second, ahead + first + here, behind + first + total - here
        )
        if first - here > ahead:
            ahead = first - here
        if first + here > behind:
            behind = first + here
    return best


def _farthest(adj: dict[int, list[tuple[int, int, int]]], start: int) -> tuple[int, int]:
    """In a tree, the city farthest from ``start`` and its distance."""
    dist = {start: 0}
    stack = [start]
    far, longest = start, 0
    while stack:
        city = stack.pop()
        here = dist[city]
        if here > longest:
            far, longest = city, here
        for _, other, length in adj[city]:
            if other not in dist:
                dist[other] = here + length
                stack.append(other)
    return far, longest


class _Work:
    """The work done so far by one call of `longest_trail`."""

    __slots__ = ("done",)

    def __init__(self) -> None:
        self.done = 0


def _longest_in_component(
    part: list[Edge], best: int, work: _Work, hung: Mapping[int, Sequence[int]] | None = None
) -> int:
    """``best``, or the longest trail of one connected component if that is longer.

    ``hung`` gives, for some cities, the lengths of paths that hang from them by tracks of
    their own (trees taken off the component): a trail may end down one of them.

    The blocks (2-edge-connected parts, or single cities) and bridges form a tree. A trail
    visits a path of it; at the path's block nearest the root, it leaves at most twice,
    each time down into one child's subtree. So, children first, each block is walked
    (`_walk_block`) or searched with the paths hanging from its cities (the top two per
    city: each child bridge with the longest trail from its far end down, and ``hung``):
    its longest trail is a candidate, and the longest from its own port is what its parent
    hangs on.
    """
    cut = set(bridges([(a, b) for a, b, _ in part]))
    uf: dict[int, int] = {}

    def find(x: int) -> int:
        root = x
        while uf.setdefault(root, root) != root:
            root = uf[root]
        while uf[x] != root:
            uf[x], x = root, uf[x]
        return root

    for i, (a, b, _) in enumerate(part):
        if i in cut:
            find(a)
            find(b)
        else:
            uf[find(a)] = find(b)
    inner: dict[int, list[Edge]] = {}
    links: dict[int, list[Edge]] = {}  # block: its bridges, as (here, there, length)
    for i, (a, b, length) in enumerate(part):
        if i in cut:
            links.setdefault(find(a), []).append((a, b, length))
            links.setdefault(find(b), []).append((b, a, length))
        else:
            inner.setdefault(find(a), []).append((a, b, length))
    # The largest block is the root: it alone needs no search from a port.
    top = max(inner, key=lambda block: len(inner[block])) if inner else find(part[0][0])
    port: dict[int, tuple[int, int, int]] = {}  # block: (its port, parent's port, bridge)
    order = [top]
    for block in order:
        for here, there, length in links.get(block, ()):
            child = find(there)
            if child != top and child not in port:
                port[child] = (there, here, length)
                order.append(child)
    hanging: dict[int, dict[int, list[int]]] = {}  # block: city: trails down from it
    for city, lengths in (hung or {}).items():
        hanging.setdefault(find(city), {}).setdefault(city, []).extend(lengths)
    leaf = min(uf) - 1  # a new city at the end of each hanging track
    for block in reversed(order):
        entry = port.get(block)
        below = hanging.get(block, {})
        if block not in inner:  # a single city: the trails down from it, one or two
            values = sorted(below.get(block, ()), reverse=True)[:2]
            down = values[0] if values else 0
            best = max(best, sum(values))
        else:
            start = None if entry is None else entry[0]
            ends: dict[int, tuple[int, int]] = {}
            for city, values in below.items():
                highest = sorted(values, reverse=True)[:2]
                ends[city] = (highest[0], highest[1] if len(highest) > 1 else 0)
            walked = _walk_block(inner[block], ends, start, best)
            if walked is not None:
                down, best = walked
            else:
                tracks = list(inner[block])
                for city, (first, second) in ends.items():
                    for value in (first, second)[: len(below[city])]:
                        tracks.append((city, leaf, value))
                        leaf -= 1
                keep = () if start is None else (start,)
                search = _TrailSearch(_contract(tracks, keep), work)
                if start is not None:
                    down = search.longest(0, start)
                    best = max(best, down)
                best = search.longest(best)
        if entry is not None:
            here, there, length = entry
            hanging.setdefault(find(there), {}).setdefault(there, []).append(length + down)
    return best


def _contract(tracks: list[Edge], keep: Container[int]) -> list[Edge]:
    """``tracks`` with each city of exactly two tracks, but those of ``keep``, bypassed by
    one track.

    A longest trail ends only at cities of odd degree, at its given start or where a path
    hangs (those kept), so it takes both tracks at such a city one after the other, or
    neither.
    """
    at: dict[int, list[int]] = {}
    for i, (a, b, _) in enumerate(tracks):
        at.setdefault(a, []).append(i)
        at.setdefault(b, []).append(i)  # a loop counts twice
    alive = [True] * len(tracks)
    for city, mine in list(at.items()):
        live = [i for i in mine if alive[i]]
        if city in keep or len(live) != 2 or live[0] == live[1]:
            continue
        (a, b, x), (c, d, y) = tracks[live[0]], tracks[live[1]]
        one, two = a + b - city, c + d - city
        alive[live[0]] = alive[live[1]] = False
        at[one].append(len(tracks))
        at[two].append(len(tracks))
        tracks.append((one, two, x + y))
        alive.append(True)
    return [track for track, live in zip(tracks, alive, strict=True) if live]


WALK_STEPS = 400
"""The most steps `_walk_block` takes in a block before it leaves it to `_TrailSearch`."""

WALK_CYCLES = 4
"""The most independent cycles of a contracted block that `_walk_block` walks: blocks of
played networks with four need a few hundred steps at most, as walks stop once nothing
longer is left to find."""


def _walk_block(
    tracks: list[Edge], ends: Mapping[int, tuple[int, int]], start: int | None, best: int
) -> tuple[int, int] | None:
    """The longest trail from ``start`` (0 without one), and ``best`` or the longest trail
    if that is longer, by walking every trail of a small block; None if the block has more
    than `WALK_CYCLES` independent cycles or the walk would take more than `WALK_STEPS` steps.

    ``ends`` gives, for some cities, the two longest paths hanging from them: a trail
    ending there goes on down the first, one both starting and ending there down both.
    A longest trail can be taken maximal (lengths are never negative), so it starts at a
    city of odd degree or where paths hang, unless it walks the whole block; only those
    are starts, and cities of two tracks are passed straight through (`_contract`). A
    walk stops once its trails cannot beat the best: none is longer than the whole block
    with the paths down at its two ends. A block of a few tracks has few trails: walking
    them is quicker than a search.
    """
    keep = set(ends)
    if start is not None:
        keep.add(start)
    adj: dict[int, list[tuple[int, int, int]]] = {}  # city: (track bit, other city, length)
    odd: set[int] = set()
    total = 0
    tracks_left = _contract(list(tracks), keep)
    for i, (a, b, length) in enumerate(tracks_left):
        bit = 1 << i
        total += length
        adj.setdefault(a, []).append((bit, b, length))
        if a != b:
            adj.setdefault(b, []).append((bit, a, length))
            odd ^= {a, b}
    cycles = len(tracks_left) - len(adj) + 1
    if cycles > WALK_CYCLES:
        return None  # too many trails
    # The tracks a trail leaves out have odd degree at the cities of odd degree but its
    # ends, and at its ends of even degree (none for a closed trail): each such city
    # keeps one, and a track serves two. So a closed trail leaves out at least half of
    # left_out, one from a to b at least half of left_out + shift[a] + shift[b]. Worked
    # out for blocks of several cycles only: smaller ones are walked at once.
    left_out = 0
    shift: dict[int, int] = {}
    if cycles > 2:
        least: dict[int, int] = {}  # city: its shortest track, loops aside
        for a, b, length in tracks_left:
            if a != b:
                if length < least.get(a, _NEVER):
                    least[a] = length
                if length < least.get(b, _NEVER):
                    least[b] = length
        left_out = sum(least[city] for city in odd)
        shift = {city: -least[city] if city in odd else least.get(city, 0) for city in adj}
    none = (0, 0)
    steps = WALK_STEPS
    down = 0
    if start is not None:
        lack = left_out + shift.get(start, 0)
        onward = max(
            [2 * ends.get(c, none)[0] - shift.get(c, 0) for c in adj if c != start], default=0
        )
        ceiling = max(
            total + ends.get(start, none)[0] - (left_out + 1) // 2,
            (2 * total - lack + onward) // 2,
        )
        stack = [(start, 0, 0)]
        while stack and down < ceiling:
            city, used, length = stack.pop()
            steps -= 1
            value = length + ends.get(city, none)[0]
            if value > down:
                down = value
            for bit, other, step in adj[city]:
                if not used & bit:
                    stack.append((other, used | bit, length + step))
            if steps < 0:
                return None
        best = max(best, down)
    starts = [city for city in adj if city in odd or city in ends]
    if not starts:
        return down, max(best, total)
    # A trail and its reverse score the same, so a walk need not end at a start walked
    # before it, and it stops once no trail left can beat the best. Starts of the
    # longest paths down go first, so that later walks have less to find.
    starts.sort(key=lambda city: ends.get(city, none)[0], reverse=True)
    onward = -_NEVER  # the most 2 * path down - shift of the starts after this one
    ahead = []
    for city in reversed(starts):
        ahead.append(onward)
        onward = max(onward, 2 * ends.get(city, none)[0] - shift.get(city, 0))
    ahead.reverse()
    for first, onward in zip(starts, ahead, strict=True):
        one, two = ends.get(first, none)
        lack = left_out + shift.get(first, 0)
        ceiling = max(
            total + one + two - (left_out + 1) // 2,  # a closed trail
            total + one - (lack + 1) // 2,  # to a city of even degree, no path down
            (2 * (total + one) - lack + onward) // 2,  # to a later start
        )
        stack = [(first, 0, one)]
        while stack and best < ceiling:
            city, used, length = stack.pop()
            steps -= 1
            value = length + (two if city == first else ends.get(city, none)[0])
            if value > best:
                best = value
            for bit, other, step in adj[city]:
                if not used & bit:
                    stack.append((other, used | bit, length + step))
            if steps < 0:
                return None
    return down, best


_NEVER = 1 << 62
"""The cost of a city that cannot lose a track."""


class _TrailSearch:
    """Branch and bound over what the longest trail of a small connected graph leaves out.

    A trail is its tracks: a connected set with at most two cities of odd degree, its
    ends. A longest trail cannot be extended, so its ends are odd in the whole graph and
    keep all their tracks (a given start excepted). A state is a connected set of tracks
    kept and the ends chosen so far; every other odd city must still lose a track, and the
    search branches on the one with the fewest choices: lose one of them, or (if it may)
    become an end. Removing a track that disconnects the kept tracks makes each side a
    state of its own. The bound is the weight kept less half the cheapest way each odd city
    can be paired with another by one or two removed tracks (a removed set of tracks with
    these odd cities joins them in pairs by paths). States are expanded best bound first.
    """

    __slots__ = (
        "adj",
        "best",
        "ceiling",
        "cheapest",
        "cities",
        "ends",
        "full",
        "groups",
        "inc",
        "index",
        "length",
        "loose",
        "odd",
        "start",
        "visited",
        "work",
    )

    def __init__(self, edges: Sequence[Edge], work: _Work) -> None:
        index: dict[int, int] = {}
        for a, b, _ in edges:
            index.setdefault(a, len(index))
            index.setdefault(b, len(index))
        size = len(index)
        self.index = index
        self.cities = range(size)
        self.ends = [(index[a], index[b]) for a, b, _ in edges]
        self.length = [length for _, _, length in edges]
        self.adj: list[list[tuple[int, int]]] = [[] for _ in self.cities]
        self.inc = [0] * size  # every track at a city, as a bit mask
        self.odd = [0] * size  # those that count for its parity: all but loops
        incident: list[list[tuple[int, int, int]]] = [[] for _ in self.cities]
        by_length: dict[int, int] = {}
        for i, (a, b) in enumerate(self.ends):
            bit = 1 << i
            length = self.length[i]
            by_length[length] = by_length.get(length, 0) | bit
            self.inc[a] = self.inc[a] | bit
            self.inc[b] = self.inc[b] | bit
            self.adj[a].append((bit, b))
            if a != b:
                self.adj[b].append((bit, a))
                self.odd[a] = self.odd[a] | bit
                self.odd[b] = self.odd[b] | bit
                incident[a].append((length, bit, b))
                incident[b].append((length, bit, a))
        self.cheapest = [sorted(tracks) for tracks in incident]
        self.groups = sorted(by_length.items())
        self.full = (1 << len(edges)) - 1
        self.loose = sum(1 << c for c in self.cities if self.odd[c].bit_count() % 2)
        self.visited: set[tuple[int, int]] = set()
        self.work = work
        self.best = self.ceiling = 0
        self.start = -1

    def longest(self, best: int, start: int | None = None) -> int:
        """``best``, or the longest trail (from city ``start`` if given) if that is longer.

        Best first: the state of highest bound is expanded next, so that no state whose
        bound is below the longest trail is ever expanded.
        """
        self.start = -1 if start is None else self.index[start]
        self.best = best
        self.visited = set()
        ends = 0 if start is None else 1 << self.start
        root = self._visit((self.full, ends, self._weight(self.full), self.loose, 0))
        if root is None:
            return self.best
        heap = [(-self.ceiling, 0, 0, root)]
        count = 0
        while heap and -heap[0][0] > self.best:
            for state in heapq.heappop(heap)[3]:
                branches = self._visit(state)
                if branches is not None:
                    count -= 1  # among equal bounds, the lightest, then the newest
                    heapq.heappush(heap, (-self.ceiling, state[2], count, branches))
        return self.best

    def _weight(self, kept: int) -> int:
        return sum(length * (kept & mask).bit_count() for length, mask in self.groups)

    def _visit(self, state: _State) -> Iterator[_State] | None:
        """Visit a state; return its branches if one of them could still beat the best.

        A state is ``(kept, ends, weight, odd, fixed)``: the tracks kept and the ends
        chosen, the weight of those tracks, the cities of odd degree in them, and the
        tracks that must stay (those of the ends but the start), the sets as bit masks.
        """
        kept, ends, weight, odd, fixed = state
        if weight <= self.best or (kept, ends) in self.visited:
            return None
        self.visited.add((kept, ends))
        work = self.work
        work.done += len(self.ends)
        if work.done > MAX_TRAIL_WORK:
            raise LongestPathError(
                f"the longest path of {len(self.ends)} tracks in a block needs more than "
                f"MAX_TRAIL_WORK = {MAX_TRAIL_WORK} steps of search: too many cycles"
            )
        todo_cities = odd & ~ends
        if not todo_cities:
            self.best = weight  # an Euler trail
            return None
        free = kept & ~fixed
        targets = todo_cities if self.start < 0 else todo_cities | 1 << self.start
        slots = 2 - ends.bit_count()
        cheapest, loose, inc = self.cheapest, self.loose, self.inc
        # A removed track leads from an odd city to another (or the start), or on to a
        # second removed track: a city that stays even keeps an even number.
        todo: list[tuple[int, int, int, bool, list[tuple[int, int]]]] = []
        spare: list[int] = []
        waste = 0
        rest = todo_cities
        while rest:
            low = rest & -rest
            rest ^= low
            city = low.bit_length() - 1
            moves: list[tuple[int, int]] = []
            cost = _NEVER
            for step, bit, other in cheapest[city]:
                if not free & bit:
                    continue
                if not targets >> other & 1:
                    more = _onward(cheapest[other], bit, free)
                    if more < 0:
                        continue
                    step += more
                moves.append((step, bit))
                if step < cost:
                    cost = step
            can_end = slots > 0 and bool(loose & low) and inc[city] & kept == inc[city]
            if can_end:
                spare.append(cost)
            elif not moves:
                return None
            else:
                waste += cost
            todo.append((len(moves) + can_end, -cost, city, can_end, moves))
        spare.sort()
        paid = len(spare) - slots  # the cheapest spare cities cannot all be ends
        if paid > 0:
            if spare[paid - 1] == _NEVER:
                return None
            waste += sum(spare[:paid])
        bound = weight - (waste + 1) // 2
        self.ceiling = bound
        if bound <= self.best:
            return None
        # Branch on the city of fewest choices, the costliest of those.
        _, cost, city, can_end, moves = min(todo)
        # Try first what the bound assumes: an end for a costly city, else its cheapest move.
        end_first = can_end and (paid <= 0 or -cost >= spare[paid - 1])
        moves.sort()
        return self._branches(state, city, can_end, end_first, moves, bound)

    def _branches(
        self,
        state: _State,
        city: int,
        can_end: bool,
        end_first: bool,
        moves: list[tuple[int, int]],
        bound: int,
    ) -> Iterator[_State]:
        """The states after ``city`` becomes an end, or loses the track of one of ``moves``."""
        kept, ends, weight, odd, fixed = state
        ended = (kept, ends | 1 << city, weight, odd, fixed | self.inc[city])
        if end_first:
            yield ended
        tracks, length = self.ends, self.length
        for _, bit in moves:
            if bound <= self.best:
                return
            rest = kept & ~bit
            i = bit.bit_length() - 1
            a, b = tracks[i]
            flipped = odd ^ (1 << a) ^ (1 << b)
            part = self._split(a, b, rest)
            if part < 0:
                yield rest, ends, weight - length[i], flipped, fixed
                continue
            for piece in sorted((part, rest & ~part), key=self._weight, reverse=True):
                if piece and (self.start < 0 or self.inc[self.start] & piece):
                    cities = self._cities(piece)
                    yield piece, ends & cities, self._weight(piece), flipped & cities, fixed
        if can_end and not end_first and bound > self.best:
            yield ended

    def _split(self, a: int, b: int, kept: int) -> int:
        """The tracks of ``kept`` connected to city ``a``, or -1 if city ``b`` is among them."""
        adj = self.adj
        near = 0
        for bit, other in adj[a]:
            if kept & bit:
                near |= 1 << other
        if near >> b & 1:
            return -1
        for bit, other in adj[b]:
            if kept & bit and near >> other & 1:
                return -1  # a triangle
        seen = 1 << a
        stack = [a]
        found = 0
        while stack:
            for bit, other in adj[stack.pop()]:
                if kept & bit:
                    found |= bit
                    if not seen >> other & 1:
                        if other == b:
                            return -1
                        seen |= 1 << other
                        stack.append(other)
        return found

    def _cities(self, kept: int) -> int:
        """The cities at the ends of the tracks of ``kept``, as a bit mask."""
        inc = self.inc
        return sum(1 << city for city in self.cities if inc[city] & kept)


_State = tuple[int, int, int, int, int]
"""A state of `_TrailSearch`: tracks kept, ends, weight, odd cities, fixed tracks."""


def _onward(tracks: list[tuple[int, int, int]], bit: int, free: int) -> int:
    """The length of the cheapest of ``tracks`` in ``free`` but ``bit``, or -1 if none."""
    for length, track, _ in tracks:
        if track != bit and free & track:
            return length
    return -1


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
