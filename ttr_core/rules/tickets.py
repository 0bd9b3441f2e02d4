"""Destination tickets: the opening deal, drawing tickets in play and choosing which to keep.

Each player is dealt opening tickets and keeps at least the edition's minimum (SETUP-5);
editions with long tickets deal one from their own pile. In play, drawing tickets is a
whole turn (TICKET-4: not from an empty deck); the player keeps at least the minimum of
those drawn (TICKET-1, TICKET-2) and the rest go back under the deck, or out of the
game where the edition says so.

Listing order: the largest choices first, each size in the order of the tickets offered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Final

from ttr_core.model import events as ev
from ttr_core.model.actions import Action, DrawTickets, KeepTickets
from ttr_core.model.errors import IllegalActionError, quote
from ttr_core.model.filled import filled
from ttr_core.model.state import GameState, Phase
from ttr_core.rules.table import KEEP_TICKETS, OPENING_TICKETS, TURN, Check, Table
from ttr_core.rules.turn import end_turn, require_seat


def deal_opening(t: Table, long_deck: tuple[int, ...]) -> None:
    """Deal every player's opening tickets, in seat order from the start player."""
    rs = t.rs
    ix = t.ix
    deal = rs.params.opening_tickets
    n = t.players
    deck = t.ticket_deck
    offers: list[tuple[int, ...]] = [()] * n
    for i in range(n):
        seat = (t.start_player + i) % n
        regular = deal.deal - deal.long
        offers[seat] = long_deck[i * deal.long : (i + 1) * deal.long] + deck[:regular]
        deck = deck[regular:]
        if t.events is not None:
            t.events.append(
                ev.TicketsDealt(player=seat, tickets=tuple(ix.ticket_ids[x] for x in offers[seat]))
            )
    t.ticket_deck = deck
    t.offers = tuple(offers)


def offered(t: Table, seat: int) -> tuple[int, ...]:
    """Ticket indices waiting for ``seat``'s choice (opening deals included)."""
    if t.phase == OPENING_TICKETS:
        return t.offers[seat]
    if t.phase == KEEP_TICKETS and t.current == seat:
        return t.pending
    return ()


def pending_for(state: GameState, seat: object) -> tuple[int, ...]:
    """Ticket indices waiting for ``seat``'s choice in ``state`` (opening deals included):
    [`offered`][] for a frozen state.

    :raises SetupError: ``seat`` is not a seat of the game (not an ``int``, a ``bool``, or
        out of range).
    """
    s = require_seat(seat, len(state.players))
    if state.phase is Phase.OPENING_TICKETS:
        return state.offers[s]
    if state.phase is Phase.KEEP_TICKETS and state.current == s:
        return state.pending_tickets
    return ()


def draw_ok(t: Table) -> bool:
    """Whether drawing tickets is legal now (listing)."""
    return t.phase == TURN and len(t.ticket_deck) > 0


def check_draw(t: Table) -> None:
    """Raise unless drawing tickets is listed."""
    if t.phase != TURN:
        raise IllegalActionError("TURN-1", "tickets can only be drawn as the turn's action")
    if not t.ticket_deck:
        raise IllegalActionError("TICKET-4", "the ticket deck is empty")


def draw(t: Table) -> None:
    """Draw tickets (listed); the player chooses which to keep next."""
    n = t.draw_deal
    drawn = t.ticket_deck[:n]
    t.ticket_deck = t.ticket_deck[n:]
    if t.events is not None:
        t.events.append(
            ev.TicketsDealt(player=t.current, tickets=tuple(t.ix.ticket_ids[x] for x in drawn))
        )
    t.phase = KEEP_TICKETS
    t.pending = drawn


def _rule(t: Table) -> tuple[tuple[int, ...], int]:
    """The tickets on offer to the current seat and how many it must keep at least."""
    if t.phase == OPENING_TICKETS:
        offer, keep = t.offers[t.current], t.opening_keep
    else:
        offer, keep = t.pending, t.draw_keep
    return offer, min(keep, len(offer))


def keep_choices(t: Table) -> list[tuple[int, ...]]:
    """The ticket indices that may be kept, as tuples in offer order, in listing order
    (largest first); ``keep`` takes any of them as it is (listing)."""
    if t.phase != OPENING_TICKETS and t.phase != KEEP_TICKETS:
        return []
    offer, _ = _rule(t)
    return [tuple([offer[i] for i in places]) for places in keep_places(t)]


def keep_places(t: Table) -> tuple[tuple[int, ...], ...]:
    """The choices of [`keep_choices`][], in its order, as places in the offer: they
    depend only on how many tickets are offered and must be kept, so they are built
    once and shared (listing)."""
    if t.phase != OPENING_TICKETS and t.phase != KEEP_TICKETS:
        return ()
    offer, need = _rule(t)
    size = len(offer)
    key = size * _PLACES_SPAN + need
    found = _PLACES.get(key)
    if found is None:
        found = _PLACES[key] = tuple(
            combo for n in range(size, need - 1, -1) for combo in combinations(range(size), n)
        )
    return found


def kept_at(t: Table, places: tuple[int, ...]) -> tuple[int, ...]:
    """The ticket indices at ``places`` (one of [`keep_places`][]) of the current offer."""
    offer, _ = _rule(t)
    return tuple([offer[i] for i in places])


_PLACES: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}
"""The choices of ``keep_places``, by offer size times ``_PLACES_SPAN`` plus the
tickets to keep (at most the offer size)."""
_PLACES_SPAN: Final = 1 << 20


def keep_action(t: Table, kept: tuple[int, ...]) -> KeepTickets:
    """The ``KeepTickets`` action of a listed choice of ticket indices."""
    ids = t.ix.ticket_ids
    return filled(KeepTickets, {"tickets": tuple([ids[x] for x in kept])})


def check_keep(t: Table, tickets: object) -> tuple[int, ...]:
    """The kept ticket indices of a listed choice, in offer order; raise otherwise."""
    if t.phase != OPENING_TICKETS and t.phase != KEEP_TICKETS:
        raise IllegalActionError("TICKET-1", "there are no drawn tickets to choose from")
    offer, need = _rule(t)
    index = t.ix.ticket_index
    if type(tickets) is not tuple or any(type(x) is not int for x in tickets):
        raise IllegalActionError("TICKET-1", f"unknown ticket in {quote(tickets)}")
    chosen = {index.get(x, -1) for x in tickets}
    if -1 in chosen:
        raise IllegalActionError("TICKET-1", f"unknown ticket in {quote(tickets)}")
    if len(chosen) != len(tickets):
        raise IllegalActionError("TICKET-1", "a ticket is named twice")
    if not chosen <= set(offer):
        raise IllegalActionError("TICKET-2", "only the tickets just drawn can be kept")
    if len(chosen) < need:
        raise IllegalActionError(
            "TICKET-1" if t.phase == KEEP_TICKETS else "SETUP-5",
            f"keep at least {need} of the {len(offer)} tickets",
        )
    return tuple(x for x in offer if x in chosen)


def keep(t: Table, kept: tuple[int, ...]) -> None:
    """Keep these offered ticket indices (a listed choice); return or discard the rest."""
    p = t.current
    offer, _ = _rule(t)
    opening = t.phase == OPENING_TICKETS
    returned = tuple(x for x in offer if x not in kept)
    if t.opening_to_bottom if opening else t.draw_to_bottom:
        t.ticket_deck = t.ticket_deck + returned
    if t.events is not None:
        params = t.rs.params
        deal = params.opening_tickets if opening else params.ticket_draw
        ids = t.ix.ticket_ids
        t.events.append(
            ev.TicketsKept(
                player=p,
                kept=tuple(ids[x] for x in kept),
                returned=tuple(ids[x] for x in returned),
                returned_to=deal.returned,
            )
        )
    t.tickets[p] = t.tickets[p] + kept
    t.seat_changed(p)
    if t.phase == KEEP_TICKETS:
        end_turn(t)
        return
    offers = list(t.offers)
    offers[p] = ()
    nxt = (p + 1) % t.players
    done = nxt == t.start_player
    t.phase = TURN if done else OPENING_TICKETS
    t.current = nxt
    t.offers = () if done else tuple(offers)


def _draw_checked(t: Table, action: Action) -> Callable[[], None]:
    check_draw(t)
    return lambda: draw(t)


def _keep_checked(t: Table, action: Action) -> Callable[[], None]:
    assert isinstance(action, KeepTickets)
    kept = check_keep(t, action.tickets)
    return lambda: keep(t, kept)


CHECKS: Final[Mapping[type[Action], Check]] = {
    DrawTickets: _draw_checked,
    KeepTickets: _keep_checked,
}
"""The checks of drawing tickets and keeping some, by action type (see
[`Check`][ttr_core.rules.table.Check])."""
