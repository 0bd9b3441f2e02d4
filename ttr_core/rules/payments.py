"""What pays for a track: the one definition of a valid payment, with or without groups.

A payment is nine card counts ([`is_counts`][]). Without groups of any cards,
[`payment_error`][] says whether it pays for a track (CLAIM-1 to CLAIM-4, FERRY-2):
as many cards as spaces, one colour (the track's, any for gray) plus locomotives where
the edition allows them, and at least the ferry's locomotives.

With groups (Nordic ferries, 3 cards for a locomotive; Murmansk-Lieksa, 4), a track of
N spaces with S locomotive symbols is paid with N *units*. A unit is one card of the
chosen colour, one locomotive (where locomotives may be played on the track), or a group
of ``G`` cards of any kind. At least S units must be locomotives or groups (the owed
locomotives). Whether a group may also cover a space of the colour depends on the track:
always on a ``card_groups`` track, and on a ferry only with ``ferry_group_stacking``. A
payment with ``t`` groups therefore holds ``N + (G - 1) * t`` cards, so the number of
groups follows from the number of cards (GROUP-1); [`fits`][] tells it.

These are questions about a track and some cards only, asked by the claim mechanics
([`ttr_core.rules.claims`][ttr_core.rules.claims],
[`ttr_core.rules.card_groups`][ttr_core.rules.card_groups]) and by the index of what each hand can
pay ([`ttr_core.rules.payment_counts`][ttr_core.rules.payment_counts]), which all build on them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeGuard

from ttr_core.model.cards import CARD_NAMES, GRAY, LOCO, NUM_KINDS
from ttr_core.rules.index import index_of

if TYPE_CHECKING:
    from ttr_core.rules.index import GroupShape
    from ttr_core.ruleset.ruleset import Ruleset


def is_counts(cards: object) -> TypeGuard[tuple[int, ...]]:
    """Whether ``cards`` is a payment: a tuple of nine non-negative integers (not bools)."""
    return (
        type(cards) is tuple
        and len(cards) == NUM_KINDS
        and set(map(type, cards)) == {int}
        and min(cards) >= 0
    )


def payment_error(rs: Ruleset, r: int, cards: object) -> tuple[str, str] | None:
    """Why ``cards`` cannot pay for track ``r``, as ``(rule id, message)``; None if they can."""
    ix = index_of(rs)
    length = ix.route_len[r]
    if not is_counts(cards):
        return "CLAIM-1", "a payment is a tuple of nine card counts"
    if sum(cards) != length:
        return "CLAIM-1", f"the track has {length} spaces but {sum(cards)} cards were paid"
    colored = cards[:LOCO]
    used = LOCO - colored.count(0)
    if used > 1:
        return "CLAIM-4", "a payment may not mix colours"
    route_color = ix.route_color[r]
    if used and route_color != GRAY and not colored[route_color]:
        paid = colored.index(max(colored))
        return (
            "CLAIM-2",
            f"the track is {CARD_NAMES[route_color]} but {CARD_NAMES[paid]} cards were paid",
        )
    locos = cards[LOCO]
    if locos and not ix.route_locos_ok[r]:
        return "CLAIM-3", "locomotives cannot be played on this track in this edition"
    ferry = ix.route_ferry[r]
    if locos < ferry:
        return "FERRY-2", f"the ferry needs at least {ferry} locomotives"
    return None


# -- payments with groups of any cards -----------------------------------------------------


def route_shape(rs: Ruleset, r: int) -> GroupShape:
    """The group shape of track index ``r`` (group size 0 if it takes no groups)."""
    ix = index_of(rs)
    return ix.group_shapes[ix.class_of[r]]


def payment_size(shape: GroupShape, groups: int) -> int:
    """How many cards a payment with ``groups`` groups holds."""
    return shape.length + (shape.size - 1) * groups


def max_groups(shape: GroupShape) -> int:
    """The most groups a payment can hold (each group covers one space)."""
    return shape.length if shape.covers_color else shape.symbols


def units_fit(shape: GroupShape, groups: int, color_cards: int, locos: int) -> bool:
    """Whether a payment with ``groups`` groups and these single-eligible cards is valid.

    ``color_cards`` and ``locos`` count the cards of the chosen colour and the
    locomotives in the whole payment; the rest of the payment sits in the groups.
    """
    return shape_units_fit(
        shape.length, shape.symbols, shape.locos_ok, shape.covers_color, groups, color_cards, locos
    )


def shape_units_fit(
    length: int,
    symbols: int,
    locos_ok: bool,
    covers_color: bool,
    groups: int,
    color_cards: int,
    locos: int,
) -> bool:
    """[`units_fit`][] for a shape given by its fields (read once by callers that ask many
    times about one track)."""
    singles = length - groups
    if singles < 0:
        return False
    on_symbols = groups if groups < symbols else symbols
    if groups > on_symbols and not covers_color:
        return False
    usable_locos = locos if locos_ok else 0
    if color_cards + usable_locos < singles:
        return False
    single_locos = usable_locos if usable_locos < singles else singles
    return single_locos >= symbols - on_symbols


def fits(shape: GroupShape, cards: tuple[int, ...]) -> int:
    """The number of groups if ``cards`` (nine counts) is a valid payment, else -1.

    ``shape`` is that of a track that takes groups (group size 2 or more).
    """
    extra = sum(cards) - shape.length
    if extra < 0 or extra % (shape.size - 1):
        return -1
    groups = extra // (shape.size - 1)
    colors = range(LOCO) if shape.color == GRAY else (shape.color,)
    locos = cards[LOCO]
    if any(units_fit(shape, groups, cards[c], locos) for c in colors):
        return groups
    return -1
