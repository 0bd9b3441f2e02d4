"""A player's network at final scoring: their tracks, and graph questions about them in map ids.

Scoring hooks receive a [`PlayerNetwork`][] for each player. It names cities by their map
ids (or aliases) and tracks by the map's [`Track`][ttr_core.model.mapdata.Track] objects,
and answers the questions an edition's bonus or ticket asks: are two places connected, which
of a set of places (cities, or countries by their border arrows) are reached, are two cities
joined by two paths with no track in common, which tracks are bridges, how long is the
longest path. Answers are computed on first use and kept, so asking twice costs nothing.

    network.connected("Bombay", "Madras")
    network.reaches("Bern", ["Italia 1", "Italia 2"])
    network.reached("France", ["Deutschland", "Österreich", "Italia"])
    network.own.two_edge_connected("Delhi", "Agra")
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from ttr_core.model.errors import MapDataError
from ttr_core.model.mapdata import Track
from ttr_core.rules.graph import UnionFind, bridges, components, longest_trail, two_edge_classes
from ttr_core.rules.index import index_of

if TYPE_CHECKING:
    from ttr_core.ruleset.ruleset import Ruleset


class PlayerNetwork:
    """The tracks one player may use for tickets: their own, plus any borrowed by stations.

    Cities are named by map id or alias, countries by name or alias; an unknown name raises
    [`MapDataError`][ttr_core.model.errors.MapDataError]. Every question is answered on this
    network's tracks, own and borrowed alike; [`own`][] is the network of the player's own tracks,
    for what the rules count on a player's own trains only (the longest path, India's Grand Tour).
    Built by final scoring; read-only.
    """

    __slots__ = (
        "_borrowed",
        "_bridges",
        "_components",
        "_index",
        "_labels",
        "_longest",
        "_own",
        "_own_network",
        "_rs",
        "_two_edge",
        "seat",
    )

    def __init__(
        self, rs: Ruleset, seat: int, own: Sequence[int], borrowed: Sequence[int] = ()
    ) -> None:
        """The network of seat ``seat``: ``own`` and ``borrowed`` are track indices of ``rs``."""
        self.seat = seat
        """The player's seat."""
        self._rs = rs
        self._index = index_of(rs)
        self._own = tuple(own)
        self._borrowed = tuple(borrowed)
        self._components: UnionFind | None = None
        self._labels: list[int] | None = None
        self._own_network: PlayerNetwork | None = None if self._borrowed else self
        self._bridges: tuple[int, ...] | None = None
        self._two_edge: UnionFind | None = None
        self._longest: int | None = None

    def __repr__(self) -> str:
        ids = self._index.route_ids
        own = [ids[r] for r in self._own]
        borrowed = [ids[r] for r in self._borrowed]
        return f"PlayerNetwork(seat={self.seat}, own={own}, borrowed={borrowed})"

    # -- tracks and cities ---------------------------------------------------------------

    @property
    def routes(self) -> tuple[Track, ...]:
        """Every track of the network, own then borrowed; ``track.cities`` is its city pair."""
        tracks = self._index.routes
        return tuple(tracks[r] for r in (*self._own, *self._borrowed))

    @property
    def own_routes(self) -> tuple[Track, ...]:
        """The tracks the player claimed."""
        tracks = self._index.routes
        return tuple(tracks[r] for r in self._own)

    @property
    def borrowed_routes(self) -> tuple[Track, ...]:
        """Opponents' tracks the player uses through stations (Europe); usually empty."""
        tracks = self._index.routes
        return tuple(tracks[r] for r in self._borrowed)

    @property
    def cities(self) -> frozenset[str]:
        """The ids of the cities at either end of a track of the network."""
        return frozenset(city for track in self.routes for city in track.cities)

    @property
    def own(self) -> PlayerNetwork:
        """The network of the player's own tracks only (this network when none is borrowed)."""
        if self._own_network is None:
            self._own_network = PlayerNetwork(self._rs, self.seat, self._own)
        return self._own_network

    # -- graph questions -------------------------------------------------------------------

    def connected(self, a: str, b: str) -> bool:
        """Whether places ``a`` and ``b`` are joined by a chain of the network's tracks.

        ``network.connected("Denver", "El Paso")``; a city is connected to itself. A
        place is a city or a country (by name or alias), which stands for any of its
        border arrows: ``network.connected("France", "Italia")``.
        """
        city_index = self._index.city_index
        try:
            ia, ib = city_index.get(a), city_index.get(b)
        except TypeError:
            ia = ib = None
        if ia is not None and ib is not None:  # two cities: no country to expand
            find = (self._components or self._union_find()).find
            return find(ia) == find(ib)
        return bool(self.reached(a, (b,)))

    def reaches(self, city: str, targets: Iterable[str]) -> bool:
        """Whether place ``city`` is connected to at least one place of ``targets``.

        For tickets to a place with several cities, such as a country's border arrows:
        ``network.reaches("Zürich", ["Italia 1", "Italia 2"])`` or
        ``network.reaches("Zürich", ["Italia"])``. Every name is checked.
        """
        return bool(self.reached(city, targets))

    def reached(self, origin: str, targets: Iterable[str]) -> tuple[str, ...]:
        """The places of ``targets`` connected to place ``origin``, as named, in order.

        Places are cities or countries (a country means any of its border arrows), so
        a country ticket asks ``network.reached(ticket.a, ticket.targets)``: for
        ``"France"`` and ``["Deutschland", "Italia"]``, the countries that some French
        arrow is joined to. Every name is checked.
        """
        find = (self._components or self._union_find()).find
        roots = {find(c) for c in self._places(origin)}
        named = [(t, self._places(t)) for t in targets]
        return tuple(t for t, cities in named if any(find(c) in roots for c in cities))

    def two_edge_connected(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are joined by two paths that share no track.

        The paths may meet at cities. Equivalently, ``a`` and ``b`` stay connected after
        removing any one track of the network (Menger). India's Grand Tour asks this of
        the player's own tracks: ``network.own.two_edge_connected("Delhi", "Agra")``.
        A city is 2-edge-connected to itself.
        """
        ia, ib = self._city(a), self._city(b)
        if ia == ib:
            return True
        if self._two_edge is None:
            route_a, route_b = self._index.route_a, self._index.route_b
            self._two_edge = two_edge_classes(
                len(self._index.city_ids),
                [(route_a[r], route_b[r]) for r in (*self._own, *self._borrowed)],
            )
        return self._two_edge.connected(ia, ib)

    def bridges(self) -> tuple[Track, ...]:
        """The tracks whose removal disconnects their two cities, in network order.

        A track of a cycle is never a bridge; a track a city hangs on always is.
        """
        tracks = self._index.routes
        return tuple(tracks[r] for r in self._bridge_indices())

    def longest_path(self) -> int:
        """The length in spaces of the longest continuous path (no track used twice).

        The rules measure it on own tracks only: ``network.own.longest_path()``
        (rules PATH-1 to PATH-3); the score sheet's ``longest_path`` is that figure.
        """
        if self._longest is None:
            index = self._index
            self._longest = longest_trail(
                [
                    (index.route_a[r], index.route_b[r], index.route_len[r])
                    for r in (*self._own, *self._borrowed)
                ],
                self._component_labels(),
            )
        return self._longest

    # -- internals ------------------------------------------------------------------------

    def _union_find(self) -> UnionFind:
        """The connected components of the cities, by city index, built on first use."""
        if self._components is None:
            index = self._index
            route_a, route_b = index.route_a, index.route_b
            self._components = components(
                len(index.city_ids),
                [(route_a[r], route_b[r]) for r in (*self._own, *self._borrowed)],
            )
        return self._components

    def _component_labels(self) -> list[int]:
        """Each city's component, by city index, as the root city of its set in
        [`_union_find`][]: for final scoring, which asks of many cities."""
        if self._labels is None:
            labels = list(self._union_find().parent)
            for city, root in enumerate(labels):
                while labels[root] != root:
                    root = labels[root]
                labels[city] = root
            self._labels = labels
        return self._labels

    def _places(self, name: str) -> tuple[int, ...]:
        try:
            found = self._rs.place_cities(name)
        except TypeError:
            found = ()
        if not found:
            what = "city or country" if self._index.country_arrows else "city"
            raise MapDataError(f"no {what} {name!r} on the map of edition {self._rs.id!r}")
        return found

    def _city(self, name: str) -> int:
        try:
            return self._index.city_index[name]
        except (KeyError, TypeError):
            raise MapDataError(f"no city {name!r} on the map of edition {self._rs.id!r}") from None

    def _bridge_indices(self) -> tuple[int, ...]:
        if self._bridges is None:
            index = self._index
            edges = (*self._own, *self._borrowed)
            found = bridges([(index.route_a[r], index.route_b[r]) for r in edges])
            self._bridges = tuple(edges[i] for i in found)
        return self._bridges
