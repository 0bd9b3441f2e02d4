"""Tunnel odds: how likely a tunnel claim is to need 0, 1, 2 or 3 extra cards.

The reveal of a tunnel (rules TUNNEL-3 to TUNNEL-5) turns over cards the player has not
seen, so the number of matching cards among them follows a hypergeometric law. Every
probability here is an exact `Fraction`.

[`tunnel_extra_odds`][] answers the question for a pool given by two numbers.
[`tunnel_odds_for_view`][] works out that pool from what one player can see: the
train cards not in their own hand, not face up in the display and not in the discard
pile. Opponents' hands are unknown to the player, so they belong to the unseen pool along
with the deck. When the deck holds fewer cards than the reveal needs, the rest comes from
the discard pile, whose cards are known; that part is counted separately.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import TYPE_CHECKING

from ttr_core.hidden.view_check import validate_view
from ttr_core.model.cards import NUM_KINDS
from ttr_core.rules.index import index_of
from ttr_core.rules.queries import payment_error, unseen_cards
from ttr_core.rules.tunnels import tunnel_matching_kinds

if TYPE_CHECKING:
    from ttr_core.rules.views import PlayerView
    from ttr_core.ruleset.ruleset import Ruleset

__all__ = ["cumulative", "tunnel_extra_odds", "tunnel_odds_for_view"]


def _count(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if value < 0:
        raise ValueError(f"{name} must not be negative, got {value}")
    return value


def tunnel_extra_odds(pool: int, matching: int, reveal: int = 3) -> tuple[Fraction, ...]:
    """The exact chance of exactly 0, 1, ..., ``reveal`` extra cards.

    ``reveal`` cards are turned over from ``pool`` unseen cards, ``matching`` of which
    demand an extra card. With fewer than ``reveal`` cards in the pool, all of them are
    turned over (rule TUNNEL-9). The result has ``reveal + 1`` entries summing to 1.

    :raises ValueError: a count is negative or not an integer, or ``matching > pool``.
    """
    pool = _count(pool, "pool")
    matching = _count(matching, "matching")
    reveal = _count(reveal, "reveal")
    if matching > pool:
        raise ValueError(f"matching ({matching}) cannot exceed pool ({pool})")
    n = min(reveal, pool)
    total = comb(pool, n)
    return tuple(
        Fraction(comb(matching, k) * comb(pool - matching, n - k), total) if k <= n else Fraction(0)
        for k in range(reveal + 1)
    )


def cumulative(odds: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    """Running sums of ``odds``: the chance of at most 0, 1, 2, ... extra cards."""
    out: list[Fraction] = []
    running = Fraction(0)
    for p in odds:
        running += p
        out.append(running)
    return tuple(out)


def _convolve(a: tuple[Fraction, ...], b: tuple[Fraction, ...], size: int) -> tuple[Fraction, ...]:
    """The law of the sum of two independent counts, as ``size`` entries."""
    out = [Fraction(0)] * size
    for i, p in enumerate(a):
        if not p:
            continue
        for j, q in enumerate(b):
            if q and i + j < size:
                out[i + j] += p * q
    return tuple(out)


def tunnel_odds_for_view(
    ruleset: Ruleset, view: PlayerView, route_id: int, payment: tuple[int, ...]
) -> tuple[Fraction, ...]:
    """The chance of exactly 0, 1, ... extra cards if ``view``'s player claimed a tunnel.

    ``payment`` is the nine-count set the player would lay for the track with id
    ``route_id``. Matching cards are locomotives and cards of the payment's colour, or
    only locomotives for an all-locomotive payment (rules TUNNEL-4, TUNNEL-5). The unseen
    pool is every train card except the player's hand (which holds the payment), the
    display, the discard pile and any cards shown by a pending reveal. The top cards of the
    deck are a random draw from that pool; if the deck holds fewer cards than the reveal
    turns over, the rest come from the reshuffled discard pile, whose make-up is known.

    The model treats every unseen card alike: it does not remember cards an opponent is
    known to hold, e.g. taken from the display.

    :raises ViewError: (a ``ValueError``) no position of the ruleset's game shows the view
        (see [`validate_view`][ttr_core.hidden.view_check.validate_view]).
    :raises ValueError: the track is unknown or not a tunnel, or the payment does not fit
        the track or is not in the hand.
    """
    validate_view(ruleset, view)
    r = index_of(ruleset).route_index.get(route_id, -1) if isinstance(route_id, int) else -1
    if r < 0:
        raise ValueError(f"there is no track with id {route_id!r}")
    if not ruleset.map.routes[r].tunnel:
        raise ValueError(f"{ruleset.route_name(r)} is not a tunnel")
    if not isinstance(payment, tuple) or len(payment) != NUM_KINDS:
        raise ValueError("a payment is a tuple of nine card counts")
    why = payment_error(ruleset, r, payment)
    if why is not None:
        raise ValueError(why[1])
    hand = view.hand
    if any(payment[k] > hand[k] for k in range(NUM_KINDS)):
        raise ValueError("the payment is not in the player's hand")
    kinds = tunnel_matching_kinds(payment)
    unseen = unseen_cards(ruleset, view)
    reveal = ruleset.params.tunnel_reveal
    from_deck = min(reveal, view.deck_size)
    discard = sum(view.discard)
    from_discard = min(reveal - from_deck, discard)
    deck_part = tunnel_extra_odds(sum(unseen), sum(unseen[k] for k in kinds), from_deck)
    discard_part = tunnel_extra_odds(discard, sum(view.discard[k] for k in kinds), from_discard)
    return _convolve(deck_part, discard_part, reveal + 1)
