"""Final scoring: one code path for finished games and for ``ttr score`` positions.

A [`Position`][] lists what each player holds at the end (tracks, tickets, stations).
[`score_position`][] assigns stations, scores tickets through the ``ttr_ticket_result``
hook, computes every player's longest path, collects bonuses through
``ttr_final_bonuses`` and applies the edition's tie-breakers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from attrs import frozen

from ttr_core.model.errors import MapDataError
from ttr_core.model.mapdata import MapData, Parameters, Ticket
from ttr_core.rules.index import index_of
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
    rs: Ruleset, pp: PlayerPosition, network: PlayerNetwork, ctx: ScoringContext
) -> tuple[TicketResult, ...]:
    hook = rs.hooks.ticket_result
    index = index_of(rs)
    tickets, ids = index.tickets, index.ticket_ids
    results = []
    for t in pp.tickets:
        result = hook(ticket=tickets[t], network=network, context=ctx)
        if result is None:
            raise MapDataError(
                f"no plugin of edition {rs.id!r} scores {tickets[t].kind} tickets "
                f"({rs.ticket_name(t)})"
            )
        if result.ticket != ids[t]:
            result = TicketResult(ticket=ids[t], points=result.points, completed=result.completed)
        results.append(result)
    return tuple(results)


def _assign_stations(
    rs: Ruleset, seat: int, pp: PlayerPosition, owner: Mapping[int, int], ctx: ScoringContext
) -> tuple[PlayerNetwork, tuple[TicketResult, ...], tuple[StationUse, ...]]:
    """Pick, for each station, the opponent track that maximises the owner's score.

    Ties go to more completed tickets, then to the first assignment in city and track
    order (rule STATION-12).
    """
    options: list[list[int | None]] = []
    for city in pp.stations:
        candidates: list[int | None] = [
            r for r in index_of(rs).city_routes[city] if owner.get(r, seat) != seat
        ]
        options.append(candidates or [None])
    best: tuple[int, int] | None = None
    chosen: tuple[PlayerNetwork, tuple[TicketResult, ...], tuple[StationUse, ...]] | None = None
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
        results = _score_tickets(rs, pp, network, ctx)
        key = (sum(x.points for x in results), sum(x.completed for x in results))
        if best is None or key > best:
            best = key
            uses = tuple(
                StationUse(city=c, route=r) for c, r in zip(pp.stations, combo, strict=True)
            )
            chosen = (network, results, uses)
    assert chosen is not None
    return chosen


def scoring_context(rs: Ruleset, position: Position) -> ScoringContext:
    """The complete scoring context of a position, as ``ttr_final_bonuses`` sees it.

    Stations are assigned and every ticket is scored through ``ttr_ticket_result``; no
    bonus is computed. Useful to test a plugin's bonus on a hand-made position.
    """
    ctx = ScoringContext(rs, position)
    owner = {r: seat for seat, pp in enumerate(position.players) for r in pp.routes}
    networks: list[PlayerNetwork] = []
    results: list[tuple[TicketResult, ...]] = []
    uses: list[tuple[StationUse, ...]] = []
    for seat, pp in enumerate(position.players):
        if pp.stations:
            network, scored, used = _assign_stations(rs, seat, pp, owner, ctx)
        else:
            network = ctx.own_networks[seat]
            scored = _score_tickets(rs, pp, network, ctx)
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
        route_points = sum(index.route_points[r] for r in pp.routes)
        results = ctx.ticket_results[seat]
        ticket_points = sum(x.points for x in results)
        total = route_points + ticket_points + sum(bonuses[seat].values())
        scores.append(
            PlayerScore(
                name=pp.name,
                total=total,
                route_points=route_points,
                ticket_points=ticket_points,
                tickets=results,
                tickets_completed=sum(x.completed for x in results),
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
    players = []
    for seat, ps in enumerate(state.players):
        routes = tuple(r for r, o in enumerate(state.owners) if o == seat)
        stations = tuple(c for c, o in enumerate(state.station_owners) if o == seat)
        players.append(
            PlayerPosition(name=names[seat], routes=routes, tickets=ps.tickets, stations=stations)
        )
    return Position(players=tuple(players))


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
