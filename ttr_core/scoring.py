"""Final scoring: one code path for finished games and for ``ttr score`` positions.

A :class:`Position` lists what each player holds at the end (tracks, tickets, stations).
:func:`score_position` assigns stations, scores tickets through the ``ttr_ticket_result``
hook, computes every player's longest path, collects bonuses through
``ttr_final_bonuses`` and applies the edition's tie-breakers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product
from typing import TYPE_CHECKING, Any

from attrs import field, frozen

from ttr_core.errors import MapDataError
from ttr_core.graph import UnionFind, longest_trail

if TYPE_CHECKING:
    from ttr_core.ruleset import Ruleset
    from ttr_core.state import GameState


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
class PlayerNetwork:
    """The tracks one player may use for tickets: their own plus any borrowed by stations."""

    seat: int
    own: tuple[int, ...]
    borrowed: tuple[int, ...]
    components: UnionFind = field(eq=False, repr=False)

    def connects(self, a: int, b: int) -> bool:
        """Whether cities ``a`` and ``b`` (indices) are joined by the network."""
        return self.components.connected(a, b)


@frozen
class TicketResult:
    """How one kept ticket scored."""

    ticket: int
    """Ticket index."""
    points: int
    completed: bool


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
    """The scoring in progress, handed to the scoring hooks."""

    def __init__(self, rs: Ruleset, position: Position) -> None:
        self.ruleset = rs
        self.position = position
        self.owner: dict[int, int] = {
            r: seat for seat, pp in enumerate(position.players) for r in pp.routes
        }
        self.longest_paths: list[int] = [
            longest_trail([(rs.route_a[r], rs.route_b[r], rs.route_len[r]) for r in pp.routes])
            for pp in position.players
        ]
        self.networks: list[PlayerNetwork] = []
        self.ticket_results: list[tuple[TicketResult, ...]] = []
        self.station_uses: list[tuple[StationUse, ...]] = []


def _network(rs: Ruleset, seat: int, own: Sequence[int], borrowed: Sequence[int]) -> PlayerNetwork:
    uf = UnionFind(len(rs.city_ids))
    for r in (*own, *borrowed):
        uf.union(rs.route_a[r], rs.route_b[r])
    return PlayerNetwork(seat=seat, own=tuple(own), borrowed=tuple(borrowed), components=uf)


def _score_tickets(
    rs: Ruleset, pp: PlayerPosition, network: PlayerNetwork, ctx: ScoringContext
) -> tuple[TicketResult, ...]:
    hook = rs.plugin_manager.hook.ttr_ticket_result
    results = []
    for t in pp.tickets:
        result = hook(ticket=rs.tickets[t], network=network, context=ctx)
        if result is None:
            raise MapDataError(
                f"no plugin of edition {rs.id!r} scores {rs.tickets[t].kind} tickets "
                f"({rs.ticket_name(t)})"
            )
        results.append(TicketResult(ticket=t, points=result.points, completed=result.completed))
    return tuple(results)


def _assign_stations(
    rs: Ruleset, seat: int, pp: PlayerPosition, ctx: ScoringContext
) -> tuple[PlayerNetwork, tuple[TicketResult, ...], tuple[StationUse, ...]]:
    """Pick, for each station, the opponent track that maximises the owner's score.

    Ties go to more completed tickets, then to the first assignment in city and track
    order (rule STATION-12).
    """
    options: list[list[int | None]] = []
    for city in pp.stations:
        candidates: list[int | None] = [
            r for r in rs.city_routes[city] if ctx.owner.get(r, seat) != seat
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
        borrowed = sorted(borrowed_set)
        network = _network(rs, seat, pp.routes, borrowed)
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


def score_position(rs: Ruleset, position: Position) -> Scoresheet:
    """Score an end-of-game position by the ruleset's rules."""
    ctx = ScoringContext(rs, position)
    for seat, pp in enumerate(position.players):
        if pp.stations:
            network, results, uses = _assign_stations(rs, seat, pp, ctx)
        else:
            network = _network(rs, seat, pp.routes, ())
            results = _score_tickets(rs, pp, network, ctx)
            uses = ()
        ctx.networks.append(network)
        ctx.ticket_results.append(results)
        ctx.station_uses.append(uses)
    bonuses: list[dict[str, int]] = [{} for _ in position.players]
    for contribution in reversed(rs.plugin_manager.hook.ttr_final_bonuses(context=ctx)):
        if not contribution:
            continue
        for name, per_player in contribution.items():
            for seat, points in enumerate(per_player):
                bonuses[seat][name] = bonuses[seat].get(name, 0) + points
    scores = []
    for seat, pp in enumerate(position.players):
        route_points = sum(rs.route_points[r] for r in pp.routes)
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
                stations=ctx.station_uses[seat],
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
    """Final scoring of a game state (usually a finished one) through :func:`score_position`."""
    if names is None:
        names = [f"Player {i + 1}" for i in range(len(state.players))]
    return score_position(rs, position_of(rs, state, names))


def scoresheet_json(rs: Ruleset, sheet: Scoresheet) -> dict[str, Any]:
    """The documented JSON form of a scoresheet (the ``ttr score`` output)."""
    players = []
    for ps in sheet.players:
        tickets = []
        for tr in ps.tickets:
            t = rs.tickets[tr.ticket]
            entry: dict[str, Any] = {"a": t.a}
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
                    "city": rs.city_ids[u.city],
                    "route": None
                    if u.route is None
                    else {
                        "a": rs.city_ids[rs.route_a[u.route]],
                        "b": rs.city_ids[rs.route_b[u.route]],
                        "color": rs.routes[u.route].color,
                        "length": rs.route_len[u.route],
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
