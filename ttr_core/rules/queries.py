"""Questions about a position, for bots, tools and user interfaces outside the rules.

Each function answers one question from a [`GameState`][ttr_core.model.state.GameState] or a
seat's [`PlayerView`][ttr_core.rules.views.PlayerView] (or from a track and some cards) and
hands it to the module whose rule decides it, so that every rule is written once:

- which tracks a seat may claim: [`open_tracks`][], by the double-route rules of
  [`ttr_core.rules.claims`][ttr_core.rules.claims];
- what a track costs and whether a hand can pay for it: [`track_cost`][], [`payment_error`][],
  [`track_payments`][], [`group_payments`][], [`max_groups`][] and [`can_pay`][], by
  [`ttr_core.rules.payments`][ttr_core.rules.payments] and the claim mechanics; whether a value is a
  payment at all: [`is_counts`][];
- whether a value is a seat of a game: [`require_seat`][], by
  [`ttr_core.rules.turn`][ttr_core.rules.turn];
- which train cards a seat cannot see: [`unseen_cards`][], by
  [`ttr_core.rules.piles`][ttr_core.rules.piles];
- a player's network and which of its tickets are completed: [`player_network`][],
  [`ticket_results`][] and [`completed_tickets`][], by final scoring
  ([`ttr_core.rules.scoring`][ttr_core.rules.scoring]).

Tracks are named by index, their position in ``rs.map.routes`` (the order of
``owners``); cards as nine counts in card order; tickets by their map ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

from attrs import frozen

from ttr_core.model.errors import SetupError
from ttr_core.model.state import GameState
from ttr_core.rules import claims, double_routes, piles
from ttr_core.rules.card_groups import group_options
from ttr_core.rules.index import index_of
from ttr_core.rules.network import PlayerNetwork
from ttr_core.rules.payments import is_counts, route_shape
from ttr_core.rules.payments import max_groups as _max_groups
from ttr_core.rules.payments import payment_error as _payment_error
from ttr_core.rules.scoring import PlayerPosition, Position, TicketResult, scoring_context
from ttr_core.rules.turn import require_seat

if TYPE_CHECKING:
    from ttr_core.rules.views import PlayerView
    from ttr_core.ruleset.ruleset import Ruleset

StateOrView: TypeAlias = "GameState | PlayerView"
"""A position as the rules hold it, or as one seat sees it."""

__all__ = [
    "StateOrView",
    "TrackCost",
    "can_pay",
    "completed_tickets",
    "group_payments",
    "is_counts",
    "max_groups",
    "open_tracks",
    "open_tracks_for",
    "payment_error",
    "player_network",
    "require_seat",
    "ticket_results",
    "track_cost",
    "track_payments",
    "unseen_cards",
]


# -- which tracks a seat may claim -------------------------------------------------------------


def open_tracks(rs: Ruleset, position: StateOrView, seat: int) -> tuple[int, ...]:
    """The tracks ``seat`` may claim in ``position`` as far as owners go, in map order:
    unclaimed, not the parallel of one of its own tracks (DOUBLE-1) and not closed by a
    claimed parallel in a game of too few players (DOUBLE-2). Trains and cards aside.

    :raises SetupError: ``seat`` is not a seat of the game.
    """
    players = len(position.players)
    return double_routes.open_tracks(rs, position.owners, require_seat(seat, players), players)


def open_tracks_for(rs: Ruleset, owners: Sequence[int], seat: int, players: int) -> tuple[int, ...]:
    """[`open_tracks`][] from the track owners alone (a seat or -1 per track, as
    ``GameState.owners``) in a game of ``players`` players."""
    return double_routes.open_tracks(rs, owners, seat, players)


# -- what a track costs ------------------------------------------------------------------------


@frozen
class TrackCost:
    """What claiming a track takes, whatever the hand."""

    trains: int
    """The track's spaces: the trains it takes, and the cards of a payment without groups."""
    color: int
    """The colour its cards must be ([`GRAY`][ttr_core.model.cards.GRAY]: any one colour)."""
    locomotives: int
    """The locomotives a payment must hold at least (a ferry's locomotive symbols); where
    the track takes groups of any cards, a group may stand in for one."""
    locomotives_allowed: bool
    """Whether locomotives may be played on it as single cards, wild for the colour."""
    group_size: int
    """How many cards of any kind make a group that covers one space; 0 if it takes none."""


def track_cost(rs: Ruleset, track: int) -> TrackCost:
    """What claiming track index ``track`` takes (CLAIM-1 to CLAIM-4, FERRY-2, GROUP-1)."""
    shape = route_shape(rs, track)
    return TrackCost(
        trains=shape.length,
        color=shape.color,
        locomotives=shape.symbols,
        locomotives_allowed=shape.locos_ok,
        group_size=shape.size,
    )


def payment_error(rs: Ruleset, track: int, cards: object) -> tuple[str, str] | None:
    """Why ``cards`` (nine counts) cannot pay for track index ``track`` without groups of
    any cards, as ``(rule id, message)``; None if they can."""
    return _payment_error(rs, track, cards)


def track_payments(rs: Ruleset, track: int, hand: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The payments without groups for track index ``track`` that ``hand`` (nine counts)
    holds, in the order the legal actions list them."""
    return claims.track_payments(rs, track, hand)


def group_payments(rs: Ruleset, track: int, hand: Sequence[int]) -> tuple[int, ...]:
    """The numbers of groups of any cards that ``hand`` can pay track index ``track``
    with (GROUP-1), smallest first; empty where the track takes no groups."""
    return group_options(route_shape(rs, track), tuple(hand))


def can_pay(rs: Ruleset, track: int, hand: Sequence[int]) -> bool:
    """Whether ``hand`` can pay for track index ``track`` at all, with or without groups
    of any cards; owners and trains aside."""
    return bool(track_payments(rs, track, hand) or group_payments(rs, track, hand))


# -- the cards a seat cannot see ---------------------------------------------------------------


def unseen_cards(rs: Ruleset, view: PlayerView) -> tuple[int, ...]:
    """Nine counts of the train cards ``view``'s seat cannot see: every card of the edition
    but its own hand, the discard pile, the display and a pending tunnel's turned-over
    cards. They are in the deck and in the opponents' hands (with any cards an opponent
    has laid down for a pending claim, which stay in its hand until the claim completes)."""
    shown = [*view.display, *(view.tunnel.revealed if view.tunnel is not None else ())]
    return tuple(piles.unseen_cards(rs, view.hand, view.discard, shown))


# -- a player's network and tickets ------------------------------------------------------------


def player_network(rs: Ruleset, position: StateOrView, seat: int) -> PlayerNetwork:
    """The network of the tracks ``seat`` claimed in ``position``: the graph questions of
    [`PlayerNetwork`][ttr_core.rules.network.PlayerNetwork] (connected places, the longest path).

    :raises SetupError: ``seat`` is not a seat of the game.
    """
    seat = require_seat(seat, len(position.players))
    return PlayerNetwork(rs, seat, [r for r, o in enumerate(position.owners) if o == seat])


def ticket_results(rs: Ruleset, position: StateOrView, seat: int) -> tuple[TicketResult, ...]:
    """How each kept ticket of ``seat`` would score if the game ended in ``position``, in
    the order it holds them: its own tracks, plus the opponents' tracks its stations
    would borrow at final scoring, decide (TICKET-6, TICKET-7, COUNTRY-5 to COUNTRY-9,
    STATION-12). A view answers for its own seat only.

    :raises SetupError: ``seat`` is not a seat of the game, or a view's other seat.
    """
    ix = index_of(rs)
    n = len(position.players)
    seat = require_seat(seat, n)
    if isinstance(position, GameState):
        tickets = position.players[seat].tickets
    elif seat == position.seat:
        tickets = tuple(ix.ticket_index[t] for t in position.tickets)
    else:
        raise SetupError(
            f"a view shows the tickets of seat {position.seat} only, not of seat {seat}"
        )
    owners, stations = position.owners, position.station_owners
    players = tuple(
        PlayerPosition(
            name=f"Player {p + 1}",
            routes=tuple(r for r, o in enumerate(owners) if o == p),
            tickets=tickets if p == seat else (),
            stations=tuple(c for c, o in enumerate(stations) if o == p) if p == seat else (),
        )
        for p in range(n)
    )
    return scoring_context(rs, Position(players=players)).ticket_results[seat]


def completed_tickets(rs: Ruleset, position: StateOrView, seat: int) -> tuple[int, ...]:
    """The ids of ``seat``'s kept tickets that are completed in ``position``, as
    [`ticket_results`][] counts them, in the order it holds them.

    :raises SetupError: as [`ticket_results`][].
    """
    return tuple(result.ticket for result in ticket_results(rs, position, seat) if result.completed)


# -- payments with groups of any cards ---------------------------------------------------------


def max_groups(rs: Ruleset, track: int) -> int:
    """The most groups of any cards a payment for track index ``track`` can hold, each
    covering one space (GROUP-1); 0 where the track takes no groups."""
    shape = route_shape(rs, track)
    return _max_groups(shape) if shape.size else 0
