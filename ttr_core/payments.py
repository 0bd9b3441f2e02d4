"""Which cards may pay for a track: the one rule, its enumeration and its count.

``payment_error`` is the single definition of a valid payment. ``class_payment_count`` and
``class_payment`` enumerate the same set without building it, per route class (tracks
that accept exactly the same payments), so legal actions can be counted and indexed
cheaply. Tests check that the enumeration and the rule agree exhaustively.

Payment order within a class (stable, part of the public behaviour of indexing):
all-locomotive first where it is allowed, then each colour in card order with the most
coloured cards first.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING

from ttr_core.cards import CARD_NAMES, GRAY, LOCO, NUM_KINDS

if TYPE_CHECKING:
    from ttr_core.ruleset import Ruleset


def is_counts(cards: object) -> bool:
    """Whether ``cards`` is a payment: a tuple of nine non-negative integers (not bools)."""
    return (
        type(cards) is tuple
        and len(cards) == NUM_KINDS
        and set(map(type, cards)) == {int}
        and min(cards) >= 0
    )


def payment_error(rs: Ruleset, r: int, cards: tuple[int, ...]) -> tuple[str, str] | None:
    """Why ``cards`` cannot pay for track ``r``, as ``(rule id, message)``; None if they can."""
    length = rs.route_len[r]
    if not is_counts(cards):
        return "CLAIM-1", "a payment is a tuple of nine card counts"
    if sum(cards) != length:
        return "CLAIM-1", f"the track has {length} spaces but {sum(cards)} cards were paid"
    colored = cards[:LOCO]
    used = LOCO - colored.count(0)
    if used > 1:
        return "CLAIM-4", "a payment may not mix colours"
    route_color = rs.route_color[r]
    if used and route_color != GRAY and not colored[route_color]:
        paid = colored.index(max(colored))
        return (
            "CLAIM-2",
            f"the track is {CARD_NAMES[route_color]} but {CARD_NAMES[paid]} cards were paid",
        )
    locos = cards[LOCO]
    if locos and not rs.route_locos_ok[r]:
        return "CLAIM-3", "locomotives cannot be played on this track in this edition"
    ferry = rs.route_ferry[r]
    if locos < ferry:
        return "FERRY-2", f"the ferry needs at least {ferry} locomotives"
    return None


def _class_shape(rs: Ruleset, k: int) -> tuple[int, int, int, bool]:
    color, length, ferry, _tunnel, locos_ok, _group, _cover = rs.class_keys[k]
    return color, length, ferry, locos_ok


def class_payment_count(rs: Ruleset, k: int, hand: tuple[int, ...]) -> int:
    """How many distinct payments from ``hand`` fit a track of route class ``k``."""
    color, length, ferry, locos_ok = _class_shape(rs, k)
    h_loco = hand[LOCO] if locos_ok else 0
    lo = length - h_loco if length > h_loco else 0
    top = length - ferry
    if color != GRAY:
        hi = hand[color] if hand[color] < top else top
        return hi - lo + 1 if hi >= lo else 0
    total = 1 if h_loco >= length else 0
    if lo < 1:
        lo = 1
    for c in range(LOCO):
        hc = hand[c]
        hi = hc if hc < top else top
        if hi >= lo:
            total += hi - lo + 1
    return total


def class_payment(rs: Ruleset, k: int, hand: tuple[int, ...], j: int) -> tuple[int, ...]:
    """The ``j``-th payment of ``class_payment_count`` for route class ``k`` and ``hand``."""
    color, length, ferry, locos_ok = _class_shape(rs, k)
    h_loco = hand[LOCO] if locos_ok else 0
    lo = length - h_loco if length > h_loco else 0
    top = length - ferry
    counts = [0] * NUM_KINDS
    if color != GRAY:
        hi = hand[color] if hand[color] < top else top
        n = hi - j
        counts[color] = n
        counts[LOCO] = length - n
        return tuple(counts)
    if h_loco >= length:
        if j == 0:
            counts[LOCO] = length
            return tuple(counts)
        j -= 1
    if lo < 1:
        lo = 1
    for c in range(LOCO):
        hc = hand[c]
        hi = hc if hc < top else top
        if hi >= lo:
            span = hi - lo + 1
            if j < span:
                n = hi - j
                counts[c] = n
                counts[LOCO] = length - n
                return tuple(counts)
            j -= span
    raise IndexError("payment index out of range")


def station_payment_error(cost: int, cards: tuple[int, ...]) -> tuple[str, str] | None:
    """Why ``cards`` cannot pay for a station costing ``cost`` cards; None if they can."""
    if not is_counts(cards):
        return "STATION-5", "a payment is a tuple of nine card counts"
    if sum(cards) != cost:
        return "STATION-5", f"this station costs {cost} cards, {sum(cards)} were paid"
    if sum(1 for i in range(LOCO) if cards[i]) > 1:
        return "STATION-5", "station cards must be of one colour (locomotives are wild)"
    return None


def station_payments(cost: int, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every distinct payment for a station costing ``cost`` cards from ``hand``."""
    out: list[tuple[int, ...]] = []
    if hand[LOCO] >= cost:
        counts = [0] * NUM_KINDS
        counts[LOCO] = cost
        out.append(tuple(counts))
    lo = max(1, cost - hand[LOCO])
    for c in range(LOCO):
        for n in range(min(hand[c], cost), lo - 1, -1):
            counts = [0] * NUM_KINDS
            counts[c] = n
            counts[LOCO] = cost - n
            out.append(tuple(counts))
    return out


class PaymentTables:
    """Payment counts by route shape, looked up instead of computed on the hot path.

    A shape is (length, ferry symbols, locomotives allowed). Indexed by the number of
    locomotives held and then the number of cards of one colour held (both clamped to
    the longest route length): ``colored[l][c]`` gives, per shape, the payments of a
    coloured track of that colour; ``gray[l][c]`` what that colour adds to a gray
    track; ``all_loco[l]`` per shape 1 if an all-locomotive payment is possible.
    """

    def __init__(self, shapes: tuple[tuple[int, int, bool], ...], top: int) -> None:
        self.colored: list[list[tuple[int, ...]]] = []
        self.gray: list[list[tuple[int, ...]]] = []
        self.all_loco: list[tuple[int, ...]] = []
        for held_locos in range(top + 1):
            colored_row: list[tuple[int, ...]] = []
            gray_row: list[tuple[int, ...]] = []
            for held in range(top + 1):
                colored, gray = [], []
                for length, ferry, locos_ok in shapes:
                    h_loco = held_locos if locos_ok else 0
                    lo = max(0, length - h_loco)
                    cap = length - ferry
                    colored.append(max(0, min(held, cap) - lo + 1))
                    gray.append(max(0, min(held, cap) - max(1, lo) + 1))
                colored_row.append(tuple(colored))
                gray_row.append(tuple(gray))
            self.colored.append(colored_row)
            self.gray.append(gray_row)
            self.all_loco.append(
                tuple(
                    1 if (held_locos if locos_ok else 0) >= length else 0
                    for length, _ferry, locos_ok in shapes
                )
            )


def all_class_payment_counts(rs: Ruleset, clamped: bytes) -> tuple[int, ...]:
    """``class_payment_count`` for every route class at once (the hot path of legal actions).

    ``clamped`` is the hand as bytes with every count clamped to the longest route
    length (larger counts never change a count). Rows of per-shape counts are looked
    up per colour, the gray row is their sum, and each class picks its entry at
    ``colour * shapes + shape`` (gray being colour 8).
    """
    tables = rs.payment_tables
    held_locos = clamped[LOCO]
    colors = clamped[:LOCO]
    rows = list(map(tables.colored[held_locos].__getitem__, colors))
    gray_parts = map(tables.gray[held_locos].__getitem__, colors)
    rows.append(tuple(map(sum, zip(tables.all_loco[held_locos], *gray_parts, strict=True))))
    flat = tuple(chain.from_iterable(rows))
    return tuple(map(flat.__getitem__, rs.class_flat_index))
