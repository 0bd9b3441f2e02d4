"""The India edition (Map Collection vol. 2): map data and the Grand Tour bonus.

Registered through the ``ttr.editions`` entry point like any third-party edition. The
map, the parameters (4 opening tickets, double routes only with 4 players, ferries, the
India Express) are declared in ``india.json`` and played by the core's shared mechanics.
The plugin adds the Grand Tour (rules GRAND-1 to GRAND-7), written against the public
plugin API only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ttr_core.plugin import (
    PlayerNetwork,
    ScoringContext,
    Ticket,
    TicketResult,
    hookimpl,
    packaged_edition,
)

ttr_edition_info, ttr_map_data = packaged_edition(
    __name__,
    "india.json",
    name="Ticket to Ride India",
    aliases=("indien", "inde", "zug-um-zug-indien"),
)

GRAND_TOUR = "grand_tour"
"""The name of the bonus in score sheets and in the ``ttr score`` output."""

GRAND_TOUR_POINTS = (0, 5, 10, 20, 30, 40)
"""Grand Tour points by number of qualifying tickets; 5 or more score the last (GRAND-6)."""


def grand_tour_points(qualifying: int) -> int:
    """The Grand Tour points for ``qualifying`` tickets: 0, 5, 10, 20, 30, then 40 at most."""
    return GRAND_TOUR_POINTS[min(qualifying, len(GRAND_TOUR_POINTS) - 1)]


def qualifies(ticket: Ticket, result: TicketResult, network: PlayerNetwork) -> bool:
    """Whether a kept ticket counts for the Grand Tour (GRAND-1 to GRAND-5).

    It must be completed, and its two cities must be joined by two paths of the owner's
    own tracks with no track in common, which may meet at cities: that is, the cities
    stay connected after removing any one own track (2-edge-connected).
    """
    if not result.completed or ticket.b is None:
        return False
    return network.own.two_edge_connected(ticket.a, ticket.b)


def qualifying_tickets(context: ScoringContext, seat: int) -> tuple[int, ...]:
    """The ids of the player's tickets that qualify for the Grand Tour, in the order held."""
    network = context.networks[seat]
    return tuple(
        result.ticket
        for ticket, result in zip(context.tickets[seat], context.ticket_results[seat], strict=True)
        if qualifies(ticket, result, network)
    )


@hookimpl
def ttr_final_bonuses(context: ScoringContext) -> Mapping[str, Sequence[int]]:
    """The Grand Tour: 5, 10, 20, 30 or 40 points for 1, 2, 3, 4 or 5 and more tickets
    whose cities are joined by two paths of the owner's own tracks with no track in common.

    Every player scores it for their own tickets (GRAND-7); a ticket counts once, and only
    when completed (GRAND-4). The paths may meet at cities (GRAND-2); the test is that the
    cities stay connected after removing any one of the player's own tracks (GRAND-3).
    """
    return {
        GRAND_TOUR: [
            grand_tour_points(len(qualifying_tickets(context, seat)))
            for seat in range(len(context.names))
        ]
    }
