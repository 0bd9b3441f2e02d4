"""Final scoring: one code path for finished games and for ``ttr score`` positions.

A [`Position`][] lists what each player holds at the end (tracks, tickets, stations).
[`score_position`][] assigns stations, scores tickets through the ``ttr_ticket_result``
hook, computes every player's longest path, collects bonuses through
``ttr_final_bonuses`` and applies the edition's tie-breakers.

Stations are assigned by trying every assignment, unless the core's ``ttr_ticket_result``
is the only one: its results depend only on which of a ticket's places are connected,
so only the assignments that join different parts of the owner's network for a ticket
that can change are told apart, and each ticket is scored once per set of places it
reaches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import product
from types import MappingProxyType
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from attrs import frozen

from ttr_core.model.errors import MapDataError
from ttr_core.model.mapdata import MapData, Parameters, Ticket
from ttr_core.rules.index import RulesetIndex, index_of
from ttr_core.rules.network import PlayerNetwork

if TYPE_CHECKING:
    from ttr_core.model.state import GameState
    from ttr_core.ruleset.ruleset import Ruleset


@frozen
class PlayerPosition:
    """One player's holdings at the end of a game (indices into the ruleset's tables)."""

    name: str
    routes: tuple[int, ...]
    tickets: tuple[int, ...]
    stations: tuple[int, ...] = ()
    """City indices of the player's stations."""


@frozen
class Position:
    """An end-of-game position: every player's holdings, in seat order."""

    players: tuple[PlayerPosition, ...]


@frozen
class TicketResult:
    """How one kept ticket scored: what ``ttr_ticket_result`` returns."""

    ticket: int
    """The ticket's id in the map data."""
    points: int
    """Points added to the player's total: negative for a ticket that failed."""
    completed: bool
    """Whether the ticket counts as completed (for tie-breakers and bonuses)."""


_RESULTS: dict[tuple[int, int, bool], TicketResult] = {}
"""The ticket results final scoring has made itself, by value: they are frozen, so one
object serves every score sheet that holds the same result."""

_RESULTS_LIMIT = 100_000
"""How many results [`_RESULTS`][] holds before it is emptied and fills again."""


def _result(ticket: int, points: int, completed: bool) -> TicketResult:
    """``TicketResult(ticket, points, completed)``, the same object each time."""
    key = (ticket, points, completed)
    found = _RESULTS.get(key)
    if found is None:
        if len(_RESULTS) >= _RESULTS_LIMIT:
            _RESULTS.clear()
        found = _RESULTS[key] = TicketResult(ticket=ticket, points=points, completed=completed)
    return found


@frozen
class StationUse:
    """Which opponent track a station was assigned to (None if there was none)."""

    city: int
    route: int | None


@frozen
class PlayerScore:
    """The final score of one player."""

    name: str
    total: int
    route_points: int
    ticket_points: int
    tickets: tuple[TicketResult, ...]
    tickets_completed: int
    longest_path: int
    bonuses: Mapping[str, int]
    stations: tuple[StationUse, ...] = ()
    stations_built: int = 0


@frozen
class Scoresheet:
    """The final scoring of a whole game."""

    edition: str
    players: tuple[PlayerScore, ...]
    winners: tuple[int, ...]
    """Seats of the winners after the edition's tie-breakers (several on a shared win)."""


class ScoringContext:
    """The final scoring in progress, as the scoring hooks see it: read-only, in map ids.

    ``ttr_final_bonuses`` sees it complete. ``ttr_ticket_result`` sees it while tickets
    are scored: everything is ready then except [`networks`][] and
    [`ticket_results`][], which stay empty until every ticket of every player is scored
    ([`complete`][] tells which). Per-player values are tuples in seat order.
    """

    __slots__ = (
        "_complete",
        "_names",
        "_networks",
        "_options",
        "_own",
        "_paths",
        "_results",
        "_rs",
        "_station_uses",
        "_stations",
        "_tickets",
    )

    def __init__(self, rs: Ruleset, position: Position) -> None:
        """The context of ``position`` before any ticket is scored; see [`scoring_context`][]."""
        players = position.players
        self._rs = rs
        self._names = tuple(pp.name for pp in players)
        self._options: Mapping[str, Any] = MappingProxyType(dict(rs.options))
        index = index_of(rs)
        self._tickets = tuple(tuple(index.tickets[t] for t in pp.tickets) for pp in players)
        self._stations = tuple(tuple(index.city_ids[c] for c in pp.stations) for pp in players)
        self._own = tuple(PlayerNetwork(rs, seat, pp.routes) for seat, pp in enumerate(players))
        self._paths = tuple(network.longest_path() for network in self._own)
        self._complete = False
        self._networks: tuple[PlayerNetwork, ...] = ()
        self._results: tuple[tuple[TicketResult, ...], ...] = ()
        self._station_uses: tuple[tuple[StationUse, ...], ...] = ()

    @property
    def edition(self) -> str:
        """The edition id."""
        return self._rs.id

    @property
    def options(self) -> Mapping[str, Any]:
        """The ruleset's options, defaults filled in (read-only)."""
        return self._options

    @property
    def parameters(self) -> Parameters:
        """The rule parameters in force."""
        return self._rs.params

    @property
    def map(self) -> MapData:
        """The edition's map data: cities, tracks and tickets."""
        return self._rs.map

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names; their number is the number of players."""
        return self._names

    @property
    def tickets(self) -> tuple[tuple[Ticket, ...], ...]:
        """Each player's kept tickets, in the order of their ticket results."""
        return self._tickets

    @property
    def stations(self) -> tuple[tuple[str, ...], ...]:
        """The cities of each player's built stations (empty without stations)."""
        return self._stations

    @property
    def own_networks(self) -> tuple[PlayerNetwork, ...]:
        """Each player's network of their own tracks, nothing borrowed."""
        return self._own

    @property
    def longest_paths(self) -> tuple[int, ...]:
        """Each player's longest continuous path on own tracks (rules PATH-1 to PATH-3)."""
        return self._paths

    @property
    def complete(self) -> bool:
        """Whether every ticket is scored: [`networks`][] and [`ticket_results`][] are
        filled. False in ``ttr_ticket_result``, True in ``ttr_final_bonuses``."""
        return self._complete

    @property
    def networks(self) -> tuple[PlayerNetwork, ...]:
        """Each player's network as their tickets were scored: own tracks plus those
        borrowed by the chosen station assignment. Empty until [`complete`][]."""
        return self._networks

    @property
    def ticket_results(self) -> tuple[tuple[TicketResult, ...], ...]:
        """Each player's ticket results, in the order of [`tickets`][]. Empty until
        [`complete`][]."""
        return self._results

    def _finish(
        self,
        networks: Sequence[PlayerNetwork],
        results: Sequence[tuple[TicketResult, ...]],
        uses: Sequence[tuple[StationUse, ...]],
    ) -> None:
        self._networks = tuple(networks)
        self._results = tuple(results)
        self._station_uses = tuple(uses)
        self._complete = True


def _score_tickets(
    rs: Ruleset, tickets: Sequence[int], network: PlayerNetwork, ctx: ScoringContext
) -> tuple[TicketResult, ...]:
    """The ``tickets`` (indices into the map's) scored on ``network`` through
    ``ttr_ticket_result``, in order, each result naming its ticket by id.

    When the core's implementation is called directly (``rs.hooks.tickets_scored_directly``),
    its result is worked out here from the network's components, as the core would.
    """
    hook = rs.hooks.ticket_result
    index = index_of(rs)
    labels = network._component_labels() if rs.hooks.tickets_scored_directly else None
    find = None if labels is None else labels.__getitem__
    simple = _simple_tickets(index) if labels is not None else ()
    results = []
    for t in tickets:
        if labels is not None:
            known = simple[t]
            if known is not None:
                a, b, done, failed = known
                results.append(done if labels[a] == labels[b] else failed)
                continue
        ticket = index.tickets[t]
        result = None if find is None else _core_result(rs, ticket, find)
        if result is None:
            result = hook(ticket=ticket, network=network, context=ctx)
            if result is None:
                raise MapDataError(
                    f"no plugin of edition {rs.id!r} scores {ticket.kind} tickets "
                    f"({rs.ticket_name(t)})"
                )
            if result.ticket != ticket.id:
                result = TicketResult(
                    ticket=ticket.id, points=result.points, completed=result.completed
                )
        results.append(result)
    return tuple(results)


_SimpleTicket = tuple[int, int, TicketResult, TicketResult]
"""A ticket between two cities: their indices, its result completed and failed."""

_SIMPLE: WeakKeyDictionary[RulesetIndex, tuple[_SimpleTicket | None, ...]] = WeakKeyDictionary()
"""[`_simple_tickets`][] of each ruleset index, made on first use."""


def _simple_tickets(index: RulesetIndex) -> tuple[_SimpleTicket | None, ...]:
    """For each ticket of the map, by index, its cities and the core's two results when
    it joins two cities, None for a ticket to a country or a choice of places: what
    [`_core_result`][] works out each time, once."""
    found = _SIMPLE.get(index)
    if found is None:
        city_index = index.city_index
        table: list[_SimpleTicket | None] = []
        for ticket in index.tickets:
            a, b = city_index.get(ticket.a), city_index.get(ticket.b or "")
            if ticket.targets is not None or a is None or b is None or ticket.points is None:
                table.append(None)
            else:
                points = ticket.points
                done = _result(ticket.id, points, True)
                failed = _result(ticket.id, -points, False)
                table.append((a, b, done, failed))
        found = _SIMPLE[index] = tuple(table)
    return found


def _core_result(rs: Ruleset, ticket: Ticket, find: Callable[[int], int]) -> TicketResult | None:
    """The core's ``ttr_ticket_result`` for ``ticket`` on the network whose cities are in
    components ``find``, or None where the core would raise or return None (the hook is
    then called, to do just that)."""
    targets = ticket.targets
    if targets is None:
        city_index = index_of(rs).city_index
        a, b = city_index.get(ticket.a), city_index.get(ticket.b or "")
        if a is None or b is None or ticket.points is None:
            return None
        done = find(a) == find(b)
        return _result(ticket.id, ticket.points if done else -ticket.points, done)
    origin = rs.place_cities(ticket.a)
    if not origin:
        return None
    roots = {find(c) for c in origin}
    best: int | None = None
    for place, value in targets.items():
        cities = rs.place_cities(place)
        if not cities:
            return None
        if (best is None or value > best) and any(find(c) in roots for c in cities):
            best = value
    if best is not None:
        return _result(ticket.id, best, True)
    return _result(ticket.id, -min(targets.values()), False)


_Assignment = tuple[PlayerNetwork, tuple[TicketResult, ...], tuple[StationUse, ...]]
"""A player's network, ticket results and station uses, as a station assignment gives them."""


def _station_candidates(
    rs: Ruleset, seat: int, pp: PlayerPosition, owner: Mapping[int, int]
) -> list[list[int]]:
    """For each station, the tracks it may borrow: an opponent's, at its city, in track
    order (STATION-6, STATION-8)."""
    city_routes = index_of(rs).city_routes
    return [[r for r in city_routes[c] if owner.get(r, seat) != seat] for c in pp.stations]


def _uses(pp: PlayerPosition, routes: Sequence[int | None]) -> tuple[StationUse, ...]:
    """The station uses of ``pp`` when its stations borrow ``routes`` (None for nothing)."""
    return tuple(StationUse(city=c, route=r) for c, r in zip(pp.stations, routes, strict=True))


def _assign_exhaustively(
    rs: Ruleset, seat: int, pp: PlayerPosition, owner: Mapping[int, int], ctx: ScoringContext
) -> _Assignment:
    """Pick, for each station, the opponent track that maximises the owner's score.

    Ties go to more completed tickets, then to the first assignment in city and track
    order (rule STATION-12). Every assignment is tried in that order, for any
    deterministic ``ttr_ticket_result``: each distinct set of borrowed tracks is scored
    once through the hook, since a result depends on nothing but the ticket and the
    network given (the context does not change while tickets are scored).
    """
    options: list[Sequence[int | None]] = [
        routes or [None] for routes in _station_candidates(rs, seat, pp, owner)
    ]
    best: tuple[int, int] | None = None
    chosen: _Assignment | None = None
    seen: set[frozenset[int]] = set()
    for combo in product(*options):
        borrowed_set = frozenset(r for r in combo if r is not None)
        if borrowed_set in seen:
            continue  # the same borrowed tracks score the same
        seen.add(borrowed_set)
        if borrowed_set:
            network = PlayerNetwork(rs, seat, pp.routes, sorted(borrowed_set))
        else:
            network = ctx.own_networks[seat]
        results = _score_tickets(rs, pp.tickets, network, ctx)
        key = (sum(x.points for x in results), sum(x.completed for x in results))
        if best is None or key > best:
            best = key
            chosen = (network, results, _uses(pp, combo))
    assert chosen is not None
    return chosen


class _OpenTicket:
    """A ticket whose result a station assignment may change, in components of own tracks.

    Sets of components are bit masks, a component being the bit of its root city.
    ``origin`` holds the components of the cities of the ticket's origin; ``targets`` the
    bit and the components of each place it lists but does not reach on own tracks
    (places already reached stay reached); ``reached`` the bits of those it does.
    """

    __slots__ = ("origin", "places", "position", "reached", "targets", "unreached")

    def __init__(
        self, position: int, origin: int, targets: list[tuple[int, int]], reached: int
    ) -> None:
        self.position = position
        self.origin = origin
        self.targets = targets
        self.reached = reached
        unreached = 0
        for _, nodes in targets:
            unreached |= nodes
        self.unreached = unreached
        """The components of the places it does not reach."""
        self.places = origin | unreached
        """The components whose joining can change this ticket."""

    def mask(self, groups: Sequence[int]) -> int:
        """The bits of the places reached once components are joined into ``groups``
        (disjoint sets of components; those in none stay alone)."""
        mask = self.reached
        origin = self.origin
        for group in groups:
            if group & origin:
                for bit, nodes in self.targets:
                    if group & nodes:
                        mask |= bit
        return mask


def _open_tickets(
    rs: Ruleset, pp: PlayerPosition, component: Callable[[int], int], touched: int
) -> list[_OpenTicket]:
    """The tickets of ``pp`` that joins of the components ``touched`` (a mask) may change,
    as [`_OpenTicket`][]s over the ``component`` of each city.

    A ticket may change when it does not reach a place it lists on own tracks, and both
    its origin and that place lie in touched components.
    """
    index = index_of(rs)
    tickets = index.tickets
    simple = _simple_tickets(index)
    places = rs.place_cities
    out = []
    for position, t in enumerate(pp.tickets):
        known = simple[t]
        if known is not None:
            a = 1 << component(known[0])  # the usual ticket, city to city
            if a & touched:
                b = 1 << component(known[1])
                if a != b and b & touched:
                    out.append(_OpenTicket(position, a, [(1, b)], 0))
            continue
        ticket = tickets[t]
        origin = 0
        for c in places(ticket.a):
            origin |= 1 << component(c)
        if not origin & touched:
            continue
        named = (ticket.b,) if ticket.targets is None else tuple(ticket.targets)
        targets: list[tuple[int, int]] = []
        reached = 0
        for k, place in enumerate(named):
            nodes = 0
            for c in places(place or ""):
                nodes |= 1 << component(c)
            if nodes & origin:
                reached |= 1 << k
            elif nodes & touched:
                targets.append((1 << k, nodes))
        if targets:
            out.append(_OpenTicket(position, origin, targets, reached))
    return out


def _prune_choices(
    homes: Sequence[int], choices: list[dict[int, int]], idle: list[int], tickets: list[_OpenTicket]
) -> list[_OpenTicket]:
    """Make idle the station choices that cannot change any of ``tickets``; return those
    tickets that can still change.

    Station ``i`` at component ``homes[i]`` joins it to component ``c`` by its choice
    ``choices[i][c]`` (the position of its first track to ``c``); ``idle[i]`` is the
    position of its first track that changes nothing, -1 if none. A component in which
    no place of a ticket that can change lies, and which no other station's choice
    touches, hangs off at most one chosen track: joining it changes no ticket, so that
    choice is idle (a station's own home likewise). Then tickets whose origin or
    unreached places are no longer touched cannot change. Repeated until nothing more
    is made idle.
    """
    while True:
        touched_by: dict[int, int] = {}  # component: the one station touching it, -1 if several
        touched = 0
        for i, chosen in enumerate(choices):
            if chosen:
                for node in (homes[i], *chosen):
                    touched_by[node] = i if touched_by.get(node, i) == i else -1
                    touched |= 1 << node
        # A ticket can change while its origin and a place it does not reach are touched.
        tickets = [t for t in tickets if t.origin & touched and t.unreached & touched]
        places = 0
        for t in tickets:
            places |= t.places
        dropped = False
        for i, chosen in enumerate(choices):
            if not chosen:
                continue
            home = homes[i]
            if not places >> home & 1 and touched_by[home] == i:
                dead = list(chosen)
            else:
                dead = [n for n in chosen if not places >> n & 1 and touched_by[n] == i]
            for node in dead:
                first = chosen.pop(node)
                idle[i] = first if idle[i] < 0 else min(idle[i], first)
                dropped = True
        if not dropped:
            return tickets


def _assign_by_components(
    rs: Ruleset, seat: int, pp: PlayerPosition, owner: Mapping[int, int], ctx: ScoringContext
) -> _Assignment:
    """[`_assign_exhaustively`][]'s choice, when tickets are scored by which of their
    places are connected (``rs.hooks.tickets_scored_by_core``), found with less work.

    The core's ``ttr_ticket_result`` gives the same result for a ticket on any two networks
    that connect the same of its places, so a station's choice is only which component of
    the owner's own tracks its city is joined to: tracks to one component are one choice
    (its first track stands for it, as the first in order wins a tie), and tracks that
    cannot change a ticket are one idle choice (see [`_prune_choices`][]). Only the
    tickets that can change are scored for each distinct set of joins, each once per set
    of places it reaches (see [`_best_joins`][]).
    """
    own = ctx.own_networks[seat]
    base = _score_tickets(rs, pp.tickets, own, ctx)
    candidates = _station_candidates(rs, seat, pp, owner)
    component = own._component_labels().__getitem__
    homes = [component(c) for c in pp.stations]
    choices, idle = _station_choices(rs, pp, candidates, homes, component)
    touched = 0
    for home, chosen in zip(homes, choices, strict=True):
        if chosen:
            touched |= 1 << home
            for node in chosen:
                touched |= 1 << node
    tickets = _open_tickets(rs, pp, component, touched) if touched else []
    if tickets:
        tickets = _prune_choices(homes, choices, idle, tickets)
    if not tickets:
        # Nothing changes a ticket: the first assignment in order wins the tie.
        borrowed = [routes[0] if routes else None for routes in candidates]
        return _borrowing(rs, seat, pp, own, borrowed), base, _uses(pp, borrowed)
    # Each station's choices in track order: (position of the first track, component
    # joined, -1 for an idle choice); (-1, -1) for a station with nothing to borrow.
    options: list[list[tuple[int, int]]] = []
    for chosen, first_idle in zip(choices, idle, strict=True):
        listed = [(k, node) for node, k in chosen.items()]
        if first_idle >= 0:
            listed.append((first_idle, -1))
        options.append(sorted(listed) or [(-1, -1)])
    memo = {(t.position, t.reached): base[t.position] for t in tickets}
    search = _JoinSearch(rs, seat, pp, ctx, candidates, homes, tickets, memo)
    combo = search.best(options)
    borrowed = [candidates[i][k] if k >= 0 else None for i, (k, _) in enumerate(combo)]
    network = search.network(combo)
    results = list(base)
    groups = _groups([(homes[i], node) for i, (_, node) in enumerate(combo) if node >= 0])
    for t in tickets:
        results[t.position] = search.result(t, t.mask(groups), combo)
    return network, tuple(results), _uses(pp, borrowed)


def _station_choices(
    rs: Ruleset,
    pp: PlayerPosition,
    candidates: Sequence[Sequence[int]],
    homes: Sequence[int],
    component: Callable[[int], int],
) -> tuple[list[dict[int, int]], list[int]]:
    """Each station's choices, for [`_prune_choices`][]: the component each of its
    ``candidates`` leads to, first track first, and the first that leads home, -1 if none."""
    index = index_of(rs)
    route_a, route_b = index.route_a, index.route_b
    choices: list[dict[int, int]] = []
    idle: list[int] = []
    for c, home, routes in zip(pp.stations, homes, candidates, strict=True):
        chosen: dict[int, int] = {}
        first_idle = -1
        for k, r in enumerate(routes):
            node = component(route_b[r] if route_a[r] == c else route_a[r])
            if node != home:
                chosen.setdefault(node, k)
            elif first_idle < 0:
                first_idle = k
        choices.append(chosen)
        idle.append(first_idle)
    return choices, idle


def _borrowing(
    rs: Ruleset, seat: int, pp: PlayerPosition, own: PlayerNetwork, borrowed: Sequence[int | None]
) -> PlayerNetwork:
    """The network of ``pp``'s own tracks and the ``borrowed`` ones (``own`` if none)."""
    tracks = sorted({r for r in borrowed if r is not None})
    return PlayerNetwork(rs, seat, pp.routes, tracks) if tracks else own


class _JoinSearch:
    """The search of [`_assign_by_components`][] over the stations' joins of components.

    A ticket's result for a set of places reached is kept in ``memo``. When the core's
    ``ttr_ticket_result`` is called directly (``rs.hooks.tickets_scored_directly``) a new
    one is worked out from the places reached, as the core would; otherwise it is scored
    through the hook on the network of the assignment (built once, when first needed).
    """

    __slots__ = (
        "built",
        "candidates",
        "ctx",
        "direct",
        "homes",
        "memo",
        "pp",
        "rs",
        "seat",
        "tickets",
    )

    def __init__(
        self,
        rs: Ruleset,
        seat: int,
        pp: PlayerPosition,
        ctx: ScoringContext,
        candidates: Sequence[Sequence[int]],
        homes: Sequence[int],
        tickets: Sequence[_OpenTicket],
        memo: dict[tuple[int, int], TicketResult],
    ) -> None:
        self.rs = rs
        self.seat = seat
        self.pp = pp
        self.ctx = ctx
        self.candidates = candidates
        self.homes = homes
        self.tickets = tickets
        self.memo = memo
        self.direct = rs.hooks.tickets_scored_directly
        self.built: tuple[tuple[tuple[int, int], ...], PlayerNetwork] | None = None

    def result(self, t: _OpenTicket, mask: int, combo: Sequence[tuple[int, int]]) -> TicketResult:
        """The result of ticket ``t`` when it reaches the places of ``mask`` under the
        assignment ``combo`` (whose network is built only if the hook must be called)."""
        key = (t.position, mask)
        found = self.memo.get(key)
        if found is None:
            ticket = index_of(self.rs).tickets[self.pp.tickets[t.position]]
            found = _core_result_of_mask(ticket, mask) if self.direct else None
            if found is None:
                network = self.network(combo)
                (found,) = _score_tickets(
                    self.rs, (self.pp.tickets[t.position],), network, self.ctx
                )
            self.memo[key] = found
        return found

    def best(self, options: Sequence[Sequence[tuple[int, int]]]) -> tuple[tuple[int, int], ...]:
        """The first of the ``options`` of every station, in order, that gives the tickets
        the highest (points, completed tickets).

        Stations fall into parts that share no component, counting the components of
        each ticket's origin as shared. A part joins only its own components, so it
        changes only the tickets whose origin it touches: each part is searched alone
        (its first best choices are also first in the whole order), and tickets no part
        can change are left out, as they add the same to every assignment.
        """
        chosen = tuple(option[0] for option in options)
        if all(len(option) == 1 for option in options):
            return chosen
        homes = self.homes
        parts: list[tuple[list[int], int]] = []  # stations, the components they touch
        for i, option in enumerate(options):
            stations, touched = [i], 1 << homes[i]
            for _, node in option:
                if node >= 0:
                    touched |= 1 << node
            parts = _merged(parts, stations, touched)
        for t in self.tickets:
            if t.origin & (t.origin - 1):  # an origin of several components joins their parts
                parts = _merged(parts, [], t.origin)
        combo = list(chosen)
        for stations, touched in parts:
            tickets = [t for t in self.tickets if t.origin & touched]
            if tickets and any(len(options[i]) > 1 for i in stations):
                self._best_part(options, sorted(stations), tickets, combo)
        return tuple(combo)

    def _best_part(
        self,
        options: Sequence[Sequence[tuple[int, int]]],
        stations: Sequence[int],
        open_tickets: Sequence[_OpenTicket],
        combo: list[tuple[int, int]],
    ) -> None:
        """Set in ``combo`` the first of the ``options`` of the ``stations`` of one part, in
        order, that gives its ``open_tickets`` the highest (points, completed tickets).

        Choices that join the components into the same groups score the same and are
        scored once.
        """
        homes = self.homes
        memo = self.memo
        # A ticket of one place the core scores has two results, worked out here: its
        # origin, the place's components, and (points, completed) joined and not.
        pairs: list[tuple[int, int, int, int, int, int]] = []
        tickets: list[tuple[_OpenTicket, int, int, int, list[tuple[int, int]]]] = []
        ticket_of = index_of(self.rs).tickets
        for t in open_tickets:
            done = alone = None
            if self.direct and len(t.targets) == 1:
                ticket = ticket_of[self.pp.tickets[t.position]]
                alone = _core_result_of_mask(ticket, t.reached)
                done = _core_result_of_mask(ticket, t.reached | t.targets[0][0])
            if done is None or alone is None:
                tickets.append((t, t.position, t.reached, t.origin, t.targets))
            else:
                nodes = t.targets[0][1]
                pairs.append(
                    (t.origin, nodes, done.points, done.completed, alone.points, alone.completed)
                )
        # Each option beside the components it joins: its home's bit and its component's,
        # 0 for an idle one.
        paired = [
            [
                (choice, 1 << homes[i] | 1 << choice[1] if choice[1] >= 0 else 0)
                for choice in options[i]
            ]
            for i in stations
        ]
        best: tuple[int, int] | None = None
        first: tuple[tuple[int, int], ...] = ()
        seen: set[frozenset[int]] = set()
        for picked in product(*paired):
            groups: list[int] = []  # _groups of the joins, written out
            for _, joined in picked:
                if joined:
                    rest = []
                    for group in groups:
                        if group & joined:
                            joined |= group
                        else:
                            rest.append(group)
                    rest.append(joined)
                    groups = rest
            key = frozenset(groups)
            if key in seen:
                continue
            seen.add(key)
            points = completed = 0
            for origin, nodes, done_points, done_completed, alone_points, alone_completed in pairs:
                for group in groups:
                    if group & origin and group & nodes:
                        points += done_points
                        completed += done_completed
                        break
                else:
                    points += alone_points
                    completed += alone_completed
            for t, position, mask, origin, targets in tickets:
                for group in groups:  # t.mask(groups), written out
                    if group & origin:
                        for bit, nodes in targets:
                            if group & nodes:
                                mask |= bit
                result = memo.get((position, mask))
                if result is None:
                    whole = list(combo)
                    for i, (choice, _) in zip(stations, picked, strict=True):
                        whole[i] = choice
                    result = self.result(t, mask, whole)
                points += result.points
                completed += result.completed
            if best is None or (points, completed) > best:
                best = (points, completed)
                first = tuple(choice for choice, _ in picked)
        for i, choice in zip(stations, first, strict=True):
            combo[i] = choice

    def network(self, combo: Sequence[tuple[int, int]]) -> PlayerNetwork:
        """The network of the assignment ``combo``: own tracks and those it borrows (the
        last one built is kept)."""
        if self.built is not None and self.built[0] == tuple(combo):
            return self.built[1]
        candidates = self.candidates
        borrowed = [candidates[i][k] if k >= 0 else None for i, (k, _) in enumerate(combo)]
        own = self.ctx.own_networks[self.seat]
        network = _borrowing(self.rs, self.seat, self.pp, own, borrowed)
        self.built = (tuple(combo), network)
        return network


def _core_result_of_mask(ticket: Ticket, mask: int) -> TicketResult | None:
    """The core's result for ``ticket`` when it reaches the places of bit mask ``mask``
    (bit ``k`` for its ``k``-th listed place, as [`_open_tickets`][] numbers them), or
    None for a ticket the core does not score."""
    if ticket.targets is None:
        if ticket.b is None or ticket.points is None:
            return None
        done = bool(mask & 1)
        return _result(ticket.id, ticket.points if done else -ticket.points, done)
    values = [value for k, value in enumerate(ticket.targets.values()) if mask >> k & 1]
    if values:
        return _result(ticket.id, max(values), True)
    return _result(ticket.id, -min(ticket.targets.values()), False)


def _merged(
    parts: list[tuple[list[int], int]], stations: list[int], touched: int
) -> list[tuple[list[int], int]]:
    """``parts`` (stations and the components they touch) with ``stations`` touching
    ``touched`` added: merged into one with every part that touches any of the same."""
    rest = []
    for part in parts:
        if part[1] & touched:
            stations = stations + part[0]
            touched |= part[1]
        else:
            rest.append(part)
    rest.append((stations, touched))
    return rest


def _groups(joins: Iterable[tuple[int, int]]) -> list[int]:
    """The groups of components (bit masks) that the pairs of components ``joins`` join;
    components in no pair are left out."""
    groups: list[int] = []
    for a, b in joins:
        joined = 1 << a | 1 << b
        rest = []
        for group in groups:
            if group & joined:
                joined |= group
            else:
                rest.append(group)
        rest.append(joined)
        groups = rest
    return groups


def scoring_context(rs: Ruleset, position: Position) -> ScoringContext:
    """The complete scoring context of a position, as ``ttr_final_bonuses`` sees it.

    Stations are assigned and every ticket is scored through ``ttr_ticket_result``; no
    bonus is computed. Useful to test a plugin's bonus on a hand-made position.
    """
    ctx = ScoringContext(rs, position)
    players = position.players
    owner = {r: seat for seat, pp in enumerate(players) for r in pp.routes}
    assign = _assign_exhaustively
    if any(pp.stations for pp in players) and rs.hooks.tickets_scored_by_core:
        assign = _assign_by_components
    networks: list[PlayerNetwork] = []
    results: list[tuple[TicketResult, ...]] = []
    uses: list[tuple[StationUse, ...]] = []
    for seat, pp in enumerate(players):
        if pp.stations:
            network, scored, used = assign(rs, seat, pp, owner, ctx)
        else:
            network = ctx.own_networks[seat]
            scored = _score_tickets(rs, pp.tickets, network, ctx)
            used = ()
        networks.append(network)
        results.append(scored)
        uses.append(used)
    ctx._finish(networks, results, uses)
    return ctx


def score_position(rs: Ruleset, position: Position) -> Scoresheet:
    """Score an end-of-game position by the ruleset's rules."""
    ctx = scoring_context(rs, position)
    bonuses: list[dict[str, int]] = [{} for _ in position.players]
    index = index_of(rs)
    for contribution in reversed(rs.hooks.final_bonuses(ctx)):
        if not contribution:
            continue
        for name, per_player in contribution.items():
            for seat, points in enumerate(per_player):
                bonuses[seat][name] = bonuses[seat].get(name, 0) + points
    scores = []
    for seat, pp in enumerate(position.players):
        route_points = sum(map(index.route_points.__getitem__, pp.routes))
        results = ctx.ticket_results[seat]
        ticket_points = sum([x.points for x in results])
        total = route_points + ticket_points + sum(bonuses[seat].values())
        scores.append(
            PlayerScore(
                name=pp.name,
                total=total,
                route_points=route_points,
                ticket_points=ticket_points,
                tickets=results,
                tickets_completed=sum([x.completed for x in results]),
                longest_path=ctx.longest_paths[seat],
                bonuses=bonuses[seat],
                stations=ctx._station_uses[seat],
                stations_built=len(pp.stations),
            )
        )
    return Scoresheet(edition=rs.id, players=tuple(scores), winners=winners(rs, scores))


def _tie_value(rs: Ruleset, key: str, score: PlayerScore) -> int:
    """A number where larger wins, for one named tie-breaker."""
    if key == "completed_tickets":
        return score.tickets_completed
    if key == "fewest_stations":
        return -score.stations_built
    if key == "longest_path_bonus":
        return 1 if score.bonuses.get(rs.params.longest_path_bonus_name, 0) > 0 else 0
    raise ValueError(f"unknown tie-breaker {key!r}")


def winners(rs: Ruleset, scores: Sequence[PlayerScore]) -> tuple[int, ...]:
    """Seats with the highest total after the tie-breakers (rules TIE-1 to TIE-6)."""
    if not scores:
        return ()
    top = max(s.total for s in scores)
    alive = [i for i, s in enumerate(scores) if s.total == top]
    if rs.options.get("tie_break") == "auxiliary":
        unbuilt = rs.params.stations
        aux = {
            i: 1000 * scores[i].tickets_completed
            + 100 * (unbuilt - scores[i].stations_built)
            + scores[i].longest_path
            for i in alive
        }
        best = max(aux.values())
        return tuple(i for i in alive if aux[i] == best)
    for key in rs.params.tie_breakers:
        if len(alive) <= 1:
            break
        values = {i: _tie_value(rs, key, scores[i]) for i in alive}
        best = max(values.values())
        alive = [i for i in alive if values[i] == best]
    return tuple(alive)


def position_of(rs: Ruleset, state: GameState, names: Sequence[str]) -> Position:
    """The end-of-game position of a game state (what the players hold)."""
    n = len(state.players)
    routes: list[list[int]] = [[] for _ in range(n)]
    stations: list[list[int]] = [[] for _ in range(n)]
    for held, owners in ((routes, state.owners), (stations, state.station_owners)):
        for item, seat in enumerate(owners):
            if 0 <= seat < n:
                held[seat].append(item)
    return Position(
        players=tuple(
            PlayerPosition(
                name=names[seat],
                routes=tuple(routes[seat]),
                tickets=ps.tickets,
                stations=tuple(stations[seat]),
            )
            for seat, ps in enumerate(state.players)
        )
    )


def score_game(rs: Ruleset, state: GameState, names: Sequence[str] | None = None) -> Scoresheet:
    """Final scoring of a game state (usually a finished one) through [`score_position`][]."""
    if names is None:
        names = [f"Player {i + 1}" for i in range(len(state.players))]
    return score_position(rs, position_of(rs, state, names))


def scoresheet_json(rs: Ruleset, sheet: Scoresheet) -> dict[str, Any]:
    """The documented JSON form of a scoresheet (the ``ttr score`` output)."""
    index = index_of(rs)
    players = []
    for ps in sheet.players:
        tickets = []
        for tr in ps.tickets:
            t = index.tickets[index.ticket_index[tr.ticket]]
            entry: dict[str, Any] = {"id": t.id, "a": t.a}
            if t.targets is not None:
                entry["to_any"] = list(t.targets)
            else:
                entry["b"] = t.b
            entry["points"] = tr.points
            entry["completed"] = tr.completed
            tickets.append(entry)
        out: dict[str, Any] = {
            "name": ps.name,
            "total": ps.total,
            "route_points": ps.route_points,
            "ticket_points": ps.ticket_points,
            "tickets": tickets,
            "tickets_completed": ps.tickets_completed,
            "longest_path": ps.longest_path,
            "bonuses": dict(ps.bonuses),
        }
        if rs.params.stations:
            out["stations"] = [
                {
                    "city": index.city_ids[u.city],
                    "route": None
                    if u.route is None
                    else {
                        "a": index.city_ids[index.route_a[u.route]],
                        "b": index.city_ids[index.route_b[u.route]],
                        "color": index.routes[u.route].color,
                        "length": index.route_len[u.route],
                    },
                }
                for u in ps.stations
            ]
        players.append(out)
    return {
        "edition": sheet.edition,
        "players": players,
        "winners": [sheet.players[i].name for i in sheet.winners],
    }
