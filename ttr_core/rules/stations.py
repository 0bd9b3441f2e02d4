"""Stations: built in a city instead of claiming a track, paid with cards of one colour.

A station needs a city without one (STATION-2) and a station left in the supply
(STATION-3); the n-th station costs the edition's n-th price in cards of one colour,
locomotives being wild (STATION-5). Stations are assigned to routes at the end of the
game (see [`ttr_core.rules.scoring`][ttr_core.rules.scoring]).

Listing order: cities in map order, then payments (all locomotives first, then each
colour in card order, the most coloured cards first).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from ttr_core.model import events as ev
from ttr_core.model.actions import Action, BuildStation
from ttr_core.model.cards import LOCO, NUM_KINDS, describe
from ttr_core.model.errors import IllegalActionError, quote
from ttr_core.rules import piles
from ttr_core.rules.index import HAND_MEMO_LIMIT
from ttr_core.rules.payment_counts import pay_cards
from ttr_core.rules.payments import is_counts
from ttr_core.rules.table import TURN, Check, Table
from ttr_core.rules.turn import end_turn


def station_payment_error(cost: int, cards: object) -> tuple[str, str] | None:
    """Why ``cards`` cannot pay for a station costing ``cost`` cards; None if they can."""
    if not is_counts(cards):
        return "STATION-5", "a payment is a tuple of nine card counts"
    if sum(cards) != cost:
        return "STATION-5", f"this station costs {cost} cards, {sum(cards)} were paid"
    if sum(1 for i in range(LOCO) if cards[i]) > 1:
        return "STATION-5", "station cards must be of one colour (locomotives are wild)"
    return None


def station_payments(cost: int, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct payment for a station costing ``cost`` cards from ``hand``.

    The candidates (all locomotives, then each colour with the most coloured cards
    first) are those [`station_payment_error`][] accepts and the hand holds.
    """
    out: list[tuple[int, ...]] = []
    candidates = [(-1, 0)] + [(c, n) for c in range(LOCO) for n in range(cost, 0, -1)]
    for c, n in candidates:
        if cost - n > hand[LOCO] or (c >= 0 and n > hand[c]):
            continue
        counts = [0] * NUM_KINDS
        if c >= 0:
            counts[c] = n
        counts[LOCO] = cost - n
        payment = tuple(counts)
        if station_payment_error(cost, payment) is None:
            out.append(payment)
    return out


def _payments(t: Table, seat: int) -> list[tuple[int, ...]]:
    """``station_payments`` for ``seat``'s next station, memoised per ruleset."""
    price = cost(t, seat)
    key = (price, bytes(min(n, price) for n in t.hand(seat)))
    cache = t.memos.station_payment_cache
    found = cache.get(key)
    if found is None:
        if len(cache) >= HAND_MEMO_LIMIT:
            cache.clear()
        found = cache[key] = station_payments(price, t.hand(seat))
    return found


def cost(t: Table, seat: int) -> int:
    """What ``seat``'s next station costs, in cards."""
    params = t.rs.params
    return params.station_cost[params.stations - t.stations[seat]]


def choices(t: Table) -> tuple[tuple[int, ...], list[tuple[int, ...]]]:
    """The cities (indices) and payments a station may be built with now (listing)."""
    p = t.current
    if t.phase != TURN or t.stations[p] <= 0:
        return (), []
    pay = _payments(t, p)
    if not pay:
        return (), []
    cities = tuple(c for c, owner in enumerate(t.station_owners) if owner < 0)
    return cities, pay


def check_build(t: Table, city: object, cards: object) -> int:
    """The city index of a listed station; raise `IllegalActionError` otherwise."""
    rs = t.rs
    ix = t.ix
    if not rs.params.stations:
        raise IllegalActionError("STATION-1", f"{rs.id} has no stations")
    if t.phase != TURN:
        raise IllegalActionError("TURN-1", "a station can only be built as the turn's action")
    c = ix.city_index.get(city, -1) if type(city) is str else -1
    if c < 0:
        raise IllegalActionError("STATION-1", f"there is no city {quote(city)}")
    if t.station_owners[c] >= 0:
        raise IllegalActionError("STATION-2", f"{ix.city_ids[c]} already has a station")
    p = t.current
    if t.stations[p] <= 0:
        raise IllegalActionError("STATION-3", "you have no stations left")
    why = station_payment_error(cost(t, p), cards)
    if why is not None:
        raise IllegalActionError(*why)
    assert isinstance(cards, tuple)
    if any(cards[k] > t.hands[p * NUM_KINDS + k] for k in range(NUM_KINDS)):
        raise IllegalActionError("STATION-5", f"you do not hold {describe(cards)}")
    return c


def build(t: Table, c: int, cards: tuple[int, ...]) -> None:
    """Build a listed station in city index ``c``, paying ``cards``."""
    p = t.current
    piles.to_discard(t, cards)
    pay_cards(t, p, cards)
    t.station_owners[c] = p
    t.owners_changed()
    if t.events is not None:
        t.events.append(ev.StationBuilt(player=p, city=t.ix.city_ids[c], cards=cards))
    piles.refill(t)
    t.stations[p] = t.stations[p] - 1
    t.seat_changed(p)
    end_turn(t)


def _build_checked(t: Table, action: Action) -> Callable[[], None]:
    assert isinstance(action, BuildStation)
    cards = action.cards
    c = check_build(t, action.city, cards)
    return lambda: build(t, c, cards)


CHECKS: Final[Mapping[type[Action], Check]] = {BuildStation: _build_checked}
"""The check of building a station (see [`Check`][ttr_core.rules.table.Check])."""
