"""Payments with groups of any cards: Nordic ferries (3 for a locomotive), Murmansk-Lieksa (4).

A track of N spaces with S locomotive symbols is paid with N *units*. A unit is one
card of the chosen colour, one locomotive (where locomotives may be played on the
track), or a group of ``G`` cards of any kind. At least S units must be locomotives or
groups (the owed locomotives). Whether a group may also cover a space of the colour
depends on the track: always on a ``card_groups`` track, and on a ferry only with
``ferry_group_stacking``. A payment with ``t`` groups therefore holds ``N + (G - 1) * t``
cards, so the number of groups follows from the number of cards.

Payments without groups are ordinary claims (:mod:`ttr_core.payments`). Payments with
groups are too many to list (a 36-card Murmansk-Lieksa payment from a large hand has
millions of forms), so a claim names only the track and the number of groups
(:class:`~ttr_core.actions.ClaimWithGroups`), and the player then names the cards one
at a time, in card order (:class:`~ttr_core.actions.ChooseCard`). A card is offered
only if the payment can still be completed with it, so every choice leads to a valid
payment and every valid payment is reached by exactly one sequence of choices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ttr_core.actions import Action, ChooseCard, ClaimRoute, ClaimWithGroups
from ttr_core.cards import GRAY, LOCO, NUM_KINDS
from ttr_core.errors import IllegalActionError
from ttr_core.payments import is_counts, payment_error

if TYPE_CHECKING:
    from ttr_core.ruleset import Ruleset

GroupShape = tuple[int, int, int, int, bool, bool]
"""(colour, length, ferry symbols, group size, locomotives allowed, groups cover colour)."""


def _units_fit(shape: GroupShape, groups: int, color_cards: int, locos: int) -> bool:
    """Whether a payment with ``groups`` groups and these single-eligible cards is valid.

    ``color_cards`` and ``locos`` count the cards of the chosen colour and the
    locomotives in the whole payment; the rest of the payment sits in the groups.
    """
    _color, length, symbols, _size, locos_ok, cover_color = shape
    singles = length - groups
    if singles < 0:
        return False
    on_symbols = groups if groups < symbols else symbols
    if groups > on_symbols and not cover_color:
        return False
    usable_locos = locos if locos_ok else 0
    if color_cards + usable_locos < singles:
        return False
    single_locos = usable_locos if usable_locos < singles else singles
    return single_locos >= symbols - on_symbols


def payment_size(shape: GroupShape, groups: int) -> int:
    """How many cards a payment with ``groups`` groups holds."""
    return shape[1] + (shape[3] - 1) * groups


def max_groups(shape: GroupShape) -> int:
    """The most groups a payment can hold (each group covers one space)."""
    _color, length, symbols, _size, _locos_ok, cover_color = shape
    return length if cover_color else symbols


def fits(shape: GroupShape, cards: tuple[int, ...]) -> int:
    """The number of groups if ``cards`` (nine counts) is a valid payment, else -1.

    ``shape`` is that of a track that takes groups (group size 2 or more).
    """
    size = shape[3]
    extra = sum(cards) - shape[1]
    if extra < 0 or extra % (size - 1):
        return -1
    groups = extra // (size - 1)
    colors = range(LOCO) if shape[0] == GRAY else (shape[0],)
    locos = cards[LOCO]
    if any(_units_fit(shape, groups, cards[c], locos) for c in colors):
        return groups
    return -1


def can_complete(
    shape: GroupShape,
    groups: int,
    chosen: tuple[int, ...] | list[int],
    least: int,
    hand: tuple[int, ...],
) -> bool:
    """Whether ``chosen`` can grow into a valid payment with cards of kind ``least`` or later.

    The completion most favourable to the rules takes as many locomotives as possible
    (where they count as singles), then as many cards of the colour; both only help.
    """
    remaining = shape[1] + (shape[3] - 1) * groups - sum(chosen)
    if remaining < 0 or sum(hand[least:]) - sum(chosen[least:]) < remaining:
        return False
    held_locos = hand[LOCO] - chosen[LOCO]
    add_locos = (remaining if remaining < held_locos else held_locos) if shape[4] else 0
    rest = remaining - add_locos
    color = shape[0]
    if color == GRAY:
        # More cards of the colour never hurt, so the best colour decides.
        color_cards = max(
            chosen[c] + (min(rest, hand[c] - chosen[c]) if c >= least else 0) for c in range(LOCO)
        )
    else:
        extra = min(rest, hand[color] - chosen[color]) if color >= least else 0
        color_cards = chosen[color] + extra
    return _units_fit(shape, groups, color_cards, chosen[LOCO] + add_locos)


def group_options(shape: GroupShape, hand: tuple[int, ...]) -> tuple[int, ...]:
    """The numbers of groups (1 or more) that ``hand`` can pay a track of ``shape`` with.

    They form one unbroken range: more groups need more cards, but never make the
    units harder to fill (fewer singles, more owed locomotives covered). So the search
    stops at the first payable number and the top is set by the cards held.
    """
    size = shape[3]
    if not size:
        return ()
    top = min(max_groups(shape), (sum(hand) - shape[1]) // (size - 1))
    empty = (0,) * NUM_KINDS
    for t in range(1, top + 1):
        if can_complete(shape, t, empty, 0, hand):
            return tuple(range(t, top + 1))
    return ()


def group_options_per_class(rs: Ruleset, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """``group_options`` of every group class of ``rs`` (in ``rs.group_classes`` order).

    With nothing chosen yet, only three numbers of the hand matter: its size, its
    locomotives, and its cards of the colour (for a gray track, of the colour held most,
    since more cards of the colour never hurt); results are memoised on those.
    """
    memo = rs.group_option_memo
    size, locos, top = sum(hand), hand[LOCO], max(hand[:LOCO])
    out = []
    for k, color in zip(rs.group_classes, rs.group_class_colors, strict=True):
        key = (k, size, locos, top if color == GRAY else hand[color])
        found = memo.get(key)
        if found is None:
            found = memo[key] = group_options(rs.group_shapes[k], hand)
        out.append(found)
    return tuple(out)


def choosable(
    shape: GroupShape, groups: int, chosen: tuple[int, ...], hand: tuple[int, ...]
) -> tuple[int, ...]:
    """The card kinds that may be chosen next: in card order, and still completable."""
    last = max((k for k in range(NUM_KINDS) if chosen[k]), default=0)
    out = []
    grown = list(chosen)
    for k in range(last, NUM_KINDS):
        if hand[k] - chosen[k] < 1:
            continue
        grown[k] += 1
        if can_complete(shape, groups, grown, k, hand):
            out.append(k)
        grown[k] -= 1
    return tuple(out)


def choice_steps(cards: tuple[int, ...]) -> list[int]:
    """The card kinds to choose, in order, to lay down the payment ``cards``."""
    return [k for k in range(NUM_KINDS) for _ in range(cards[k])]


def route_shape(rs: Ruleset, r: int) -> GroupShape:
    """The group shape of track index ``r`` (group size 0 if it takes no groups)."""
    return rs.group_shapes[rs.class_of[r]]


def claim_actions(rs: Ruleset, route: int, cards: tuple[int, ...]) -> list[Action]:
    """The actions that claim track ``route`` (an id) paying exactly ``cards``.

    A payment without groups is one :class:`~ttr_core.actions.ClaimRoute`; a payment
    with groups is a :class:`~ttr_core.actions.ClaimWithGroups` followed by one
    :class:`~ttr_core.actions.ChooseCard` per card, in card order. Useful for a server
    or a user interface that collects a whole payment at once. Only the payment is
    checked here; the hand, the trains and the track's owner are checked when the
    actions are applied.

    :raises IllegalActionError: no such track, or ``cards`` cannot pay for it.
    """
    r = rs.route_index.get(route, -1) if type(route) is int else -1
    if r < 0:
        raise IllegalActionError("CLAIM-1", f"there is no track with id {route!r}")
    why = payment_error(rs, r, cards)
    if why is None:
        return [ClaimRoute(route=route, cards=cards)]
    shape = route_shape(rs, r)
    n = fits(shape, cards) if shape[3] and is_counts(cards) else -1
    if n < 1:
        raise IllegalActionError(*why)
    steps: list[Action] = [ClaimWithGroups(route=route, groups=n)]
    steps.extend(ChooseCard(card=k) for k in choice_steps(cards))
    return steps
