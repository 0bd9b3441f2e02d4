"""Claims with groups of any cards: Nordic ferries (3 for a locomotive), Murmansk-Lieksa (4).

What a payment with groups is, and when it is valid (GROUP-1), is defined in
[`ttr_core.rules.payments`][ttr_core.rules.payments]; payments without groups are ordinary claims
([`ttr_core.rules.claims`][ttr_core.rules.claims]). Payments with groups are too many to list (a
36-card Murmansk-Lieksa payment from a large hand has millions of forms), so a claim names only the
track and the number of groups ([`ClaimWithGroups`][ttr_core.model.actions.ClaimWithGroups],
GROUP-2), and the player then names the cards one at a time, in card order
([`ChooseCard`][ttr_core.model.actions.ChooseCard], GROUP-3). A card is offered only if the payment
can still be completed with it, so every choice leads to a valid payment and every valid payment is
reached by exactly one sequence of choices.

Listing order: claims with groups follow the other claims, by group class (in
``rs.group_classes`` order), track in map order, then the number of groups; while a
payment is being chosen, the cards that may come next, in card order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final

from ttr_core.model import events as ev
from ttr_core.model.actions import Action, ChooseCard, ClaimRoute, ClaimWithGroups
from ttr_core.model.cards import CARD_NAMES, GRAY, LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError, quote
from ttr_core.model.state import CardChoice
from ttr_core.rules.claims import blocked_in, complete_claim, open_to, track_error
from ttr_core.rules.index import HAND_MEMO_LIMIT, GroupShape, index_of, memos_of
from ttr_core.rules.payments import (
    fits,
    is_counts,
    max_groups,
    payment_error,
    payment_size,
    route_shape,
    units_fit,
)
from ttr_core.rules.table import CHOOSE_CARDS, Check, Table

if TYPE_CHECKING:
    from ttr_core.ruleset.ruleset import Ruleset


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
    remaining = payment_size(shape, groups) - sum(chosen)
    if remaining < 0 or sum(hand[least:]) - sum(chosen[least:]) < remaining:
        return False
    held_locos = hand[LOCO] - chosen[LOCO]
    add_locos = (remaining if remaining < held_locos else held_locos) if shape.locos_ok else 0
    rest = remaining - add_locos
    color = shape.color
    if color == GRAY:
        # More cards of the colour never hurt, so the best colour decides.
        color_cards = max(
            chosen[c] + (min(rest, hand[c] - chosen[c]) if c >= least else 0) for c in range(LOCO)
        )
    else:
        extra = min(rest, hand[color] - chosen[color]) if color >= least else 0
        color_cards = chosen[color] + extra
    return units_fit(shape, groups, color_cards, chosen[LOCO] + add_locos)


def group_options(shape: GroupShape, hand: tuple[int, ...]) -> tuple[int, ...]:
    """The numbers of groups (1 or more) that ``hand`` can pay a track of ``shape`` with.

    They form one unbroken range: more groups need more cards, but never make the
    units harder to fill (fewer singles, more owed locomotives covered). So the search
    stops at the first payable number and the top is set by the cards held.
    """
    size = shape.size
    if not size:
        return ()
    top = min(max_groups(shape), (sum(hand) - shape.length) // (size - 1))
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
    ix = index_of(rs)
    memo = memos_of(rs).group_option_memo
    size, locos, top = sum(hand), hand[LOCO], max(hand[:LOCO])
    out = []
    for k, color in zip(ix.group_classes, ix.group_class_colors, strict=True):
        key = (k, size, locos, top if color == GRAY else hand[color])
        found = memo.get(key)
        if found is None:
            found = memo[key] = group_options(ix.group_shapes[k], hand)
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


def claim_actions(rs: Ruleset, route: int, cards: tuple[int, ...]) -> list[Action]:
    """The actions that claim track ``route`` (an id) paying exactly ``cards``.

    A payment without groups is one [`ClaimRoute`][ttr_core.model.actions.ClaimRoute]; a payment
    with groups is a [`ClaimWithGroups`][ttr_core.model.actions.ClaimWithGroups] followed by one
    [`ChooseCard`][ttr_core.model.actions.ChooseCard] per card, in card order. Useful for a server
    or a user interface that collects a whole payment at once. Only the payment is
    checked here; the hand, the trains and the track's owner are checked when the
    actions are applied.

    :raises IllegalActionError: no such track, or ``cards`` cannot pay for it.
    """
    ix = index_of(rs)
    r = ix.route_index.get(route, -1) if type(route) is int else -1
    if r < 0:
        raise IllegalActionError("CLAIM-1", f"there is no track with id {quote(route)}")
    why = payment_error(rs, r, cards)
    if why is None:
        return [ClaimRoute(route=route, cards=cards)]
    shape = route_shape(rs, r)
    n = fits(shape, cards) if shape.size and is_counts(cards) else -1
    if n < 1:
        raise IllegalActionError(*why)
    steps: list[Action] = [ClaimWithGroups(route=route, groups=n)]
    steps.extend(ChooseCard(card=k) for k in choice_steps(cards))
    return steps


# -- claims with groups: listing ---------------------------------------------------------


def _options(t: Table) -> tuple[tuple[int, ...], ...]:
    """Per group class, the numbers of groups the current hand can pay with (memoised)."""
    rs = t.rs
    hand = t.hand(t.current)
    key = bytes(hand)
    cache = memos_of(rs).group_options_by_hand
    options = cache.get(key)
    if options is None:
        if len(cache) >= HAND_MEMO_LIMIT:
            cache.clear()
        options = cache[key] = group_options_per_class(rs, hand)
    return options


def _sizes(t: Table) -> list[int]:
    """Per group class, how many of its tracks the current seat may claim now."""
    ix = t.ix
    p = t.current
    trains = t.trains[p]
    return [
        t.free_count[k] - blocked_in(t, p, k) if ix.class_len[k] <= trains else 0
        for k in ix.group_classes
    ]


def count_group_claims(t: Table) -> int:
    """How many claims with groups of any cards (track, number of groups) are legal now."""
    if not t.ix.has_groups:
        return 0
    return sum(n * len(opts) for n, opts in zip(_sizes(t), _options(t), strict=True))


def group_claim_at(t: Table, i: int) -> tuple[int, int]:
    """The ``i``-th legal claim with groups as (track index, number of groups)."""
    ix = t.ix
    p = t.current
    for k, opts, n in zip(ix.group_classes, _options(t), _sizes(t), strict=True):
        span = n * len(opts)
        if i >= span:
            i -= span
            continue
        pick, j = divmod(i, len(opts))
        for r in ix.class_routes[k]:
            if open_to(t, r, p):
                if not pick:
                    return r, opts[j]
                pick -= 1
    raise IndexError("claim index out of range")


# -- claims with groups: applying --------------------------------------------------------


def group_claim_error(
    t: Table, route: object, groups: object
) -> tuple[int, tuple[str, str] | None]:
    """The track index of a claim with ``groups`` groups, and why it is refused (or None)."""
    r, why = track_error(t, route)
    if why is not None:
        return r, why
    rs = t.rs
    ix = t.ix
    shape = route_shape(rs, r)
    if not shape.size:
        return r, ("GROUP-1", f"{rs.route_name(r)} cannot be paid with groups of any cards")
    if type(groups) is not int or not 1 <= groups <= max_groups(shape):
        return r, (
            "GROUP-1",
            f"a payment for {rs.route_name(r)} holds 1 to {max_groups(shape)} groups, "
            f"not {quote(groups)}",
        )
    position = ix.group_class_position[ix.class_of[r]]
    if groups not in _options(t)[position]:
        return r, (
            "GROUP-2",
            f"your hand cannot pay for {rs.route_name(r)} with {groups} groups of any cards",
        )
    return r, None


def check_group_claim(t: Table, route: object, groups: object) -> int:
    """The track index of a listed claim with groups; raise otherwise."""
    r, why = group_claim_error(t, route, groups)
    if why is not None:
        raise IllegalActionError(*why)
    return r


def start_group_claim(t: Table, r: int, groups: int) -> None:
    """Begin a listed claim with groups: the cards are chosen next."""
    size = payment_size(route_shape(t.rs, r), groups)
    if t.events is not None:
        t.events.append(
            ev.GroupClaimStarted(
                player=t.current, route=t.ix.route_ids[r], groups=groups, size=size
            )
        )
    t.phase = CHOOSE_CARDS
    t.choice = CardChoice(route=r, groups=groups, size=size, chosen=(0,) * NUM_KINDS)


# -- choosing the cards ------------------------------------------------------------------


def card_choices(t: Table) -> tuple[int, ...]:
    """The card kinds that may be chosen next for the payment being chosen (listing)."""
    choice = t.choice
    if t.phase != CHOOSE_CARDS or choice is None:
        return ()
    shape = route_shape(t.rs, choice.route)
    return choosable(shape, choice.groups, choice.chosen, t.hand(t.current))


def choose_error(t: Table, card: object) -> tuple[str, str]:
    """Why choosing ``card`` next is refused (it is not among ``card_choices``)."""
    choice = t.choice
    if t.phase != CHOOSE_CARDS or choice is None:
        return "GROUP-3", "no payment is being chosen"
    if type(card) is not int or not 0 <= card < NUM_KINDS:
        return "GROUP-3", f"there is no card kind {quote(card)}"
    chosen = choice.chosen
    if any(chosen[k] for k in range(card + 1, NUM_KINDS)):
        return "GROUP-3", "cards are chosen in card order: colours, then locomotives"
    if chosen[card] >= t.hands[t.current * NUM_KINDS + card]:
        return "GROUP-3", f"you hold no further {CARD_NAMES[card]} card"
    return (
        "GROUP-3",
        f"with another {CARD_NAMES[card]} card the payment for "
        f"{t.rs.route_name(choice.route)} can no longer be completed",
    )


def check_choose(t: Table, card: object) -> None:
    """Raise unless choosing ``card`` next is listed."""
    if type(card) is not int or card not in card_choices(t):
        raise IllegalActionError(*choose_error(t, card))


def choose_card(t: Table, card: int) -> None:
    """Add a listed card to the payment; the claim completes with the last card."""
    if t.events is not None:
        t.events.append(ev.CardChosen(player=t.current, card=card))
    choice = t.choice
    assert choice is not None
    grown = list(choice.chosen)
    grown[card] += 1
    total = tuple(grown)
    if sum(total) < choice.size:
        t.choice = CardChoice(
            route=choice.route, groups=choice.groups, size=choice.size, chosen=total
        )
        return
    complete_claim(t, choice.route, total, ())


def _group_claim_checked(t: Table, action: Action) -> Callable[[], None]:
    assert isinstance(action, ClaimWithGroups)
    groups = action.groups
    r = check_group_claim(t, action.route, groups)
    return lambda: start_group_claim(t, r, groups)


def _choose_checked(t: Table, action: Action) -> Callable[[], None]:
    assert isinstance(action, ChooseCard)
    card = action.card
    check_choose(t, card)
    return lambda: choose_card(t, card)


CHECKS: Final[Mapping[type[Action], Check]] = {
    ClaimWithGroups: _group_claim_checked,
    ChooseCard: _choose_checked,
}
"""The checks of claims with groups and of choosing their cards, by action type (see
[`Check`][ttr_core.rules.table.Check])."""
