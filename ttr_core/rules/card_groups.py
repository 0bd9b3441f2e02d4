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
from ttr_core.rules.claims import blocked_in, complete_claim, open_to, track_error
from ttr_core.rules.index import GroupShape, index_of
from ttr_core.rules.payments import (
    fits,
    is_counts,
    max_groups,
    payment_error,
    payment_size,
    route_shape,
    shape_units_fit,
)
from ttr_core.rules.table import CHOOSE_CARDS, Check, Choosing, Table

if TYPE_CHECKING:
    from ttr_core.rules.payment_counts import GroupClass
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
    grown = list(chosen)
    held = 0
    for n in grown:
        held += n
    spare = 0
    for k in range(least, NUM_KINDS):
        spare += hand[k] - grown[k]
    remaining = payment_size(shape, groups) - held
    return _completes(shape, groups, remaining, spare, grown, least, hand)


def _completes(
    shape: GroupShape,
    groups: int,
    remaining: int,
    spare: int,
    chosen: list[int],
    least: int,
    hand: tuple[int, ...],
) -> bool:
    """[`can_complete`][] once ``remaining`` cards are still to choose and ``spare``
    cards of kind ``least`` or later are held but not chosen (in plain loops: this runs
    for every card kind at every choice)."""
    if remaining < 0 or spare < remaining:
        return False
    locos_ok = shape.locos_ok
    held_locos = hand[LOCO] - chosen[LOCO]
    add_locos = (remaining if remaining < held_locos else held_locos) if locos_ok else 0
    rest = remaining - add_locos
    color = shape.color
    if color == GRAY:
        # More cards of the colour never hurt, so the best colour decides.
        color_cards = -1
        for c in range(LOCO):
            n = chosen[c]
            if c >= least:
                more = hand[c] - n
                n += rest if rest < more else more
            if n > color_cards:
                color_cards = n
    else:
        color_cards = chosen[color]
        if color >= least:
            more = hand[color] - color_cards
            color_cards += rest if rest < more else more
    return shape_units_fit(
        shape.length,
        shape.symbols,
        locos_ok,
        shape.covers_color,
        groups,
        color_cards,
        chosen[LOCO] + add_locos,
    )


def group_options(shape: GroupShape, hand: tuple[int, ...]) -> tuple[int, ...]:
    """The numbers of groups (1 or more) that ``hand`` can pay a track of ``shape`` with.

    They form one unbroken range: more groups need more cards, but never make the
    units harder to fill (fewer singles, more owed locomotives covered). So the search
    stops at the first payable number and the top is set by the cards held.
    """
    first, last = _group_range(shape, hand)
    return tuple(range(first, last + 1)) if first else ()


def _group_range(shape: GroupShape, hand: tuple[int, ...]) -> tuple[int, int]:
    """The first and last of [`group_options`][], (0, 0) if there is none."""
    size = shape.size
    if not size:
        return 0, 0
    held = 0
    for n in hand:
        held += n
    top = max_groups(shape)
    afford = (held - shape.length) // (size - 1)
    if afford < top:
        top = afford
    empty = [0] * NUM_KINDS
    for t in range(1, top + 1):
        if _completes(shape, t, payment_size(shape, t), held, empty, 0, hand):
            return t, top
    return 0, 0


def choosable(
    shape: GroupShape, groups: int, chosen: tuple[int, ...], hand: tuple[int, ...]
) -> tuple[int, ...]:
    """The card kinds that may be chosen next: in card order, and still completable."""
    grown = list(chosen)
    held = 0
    last = 0
    for k in range(NUM_KINDS):
        n = grown[k]
        held += n
        if n:
            last = k
    remaining = payment_size(shape, groups) - held - 1
    spare = 0
    for k in range(last, NUM_KINDS):
        spare += hand[k] - grown[k]
    out = []
    for k in range(last, NUM_KINDS):
        free = hand[k] - grown[k]
        if free >= 1:
            grown[k] = grown[k] + 1
            if _completes(shape, groups, remaining, spare - 1, grown, k, hand):
                out.append(k)
            grown[k] = grown[k] - 1
        spare -= free
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


def _hand_counts(t: Table) -> tuple[int, int, int]:
    """The current seat's cards, locomotives and most cards of one colour: all that the
    numbers of groups its hand can pay a track with depend on."""
    hands = t.hands
    base = t.current * NUM_KINDS
    size = 0
    top = 0
    for c in range(LOCO):
        n = hands[base + c]
        size += n
        if n > top:
            top = n
    locos = hands[base + LOCO]
    return size + locos, locos, top


def _option_code(t: Table, g: GroupClass, size: int, locos: int, top: int) -> int:
    """The numbers of groups the current hand (of ``_hand_counts``) can pay group class
    ``g`` with, as ``first * g.side + count`` (0 for none), memoised by the hand's cell."""
    held = top if g.color == GRAY else t.hands[t.current * NUM_KINDS + g.color]
    at = g.cell(size, locos, held)
    code = t.claims.group_codes[at]
    return code if code >= 0 else _new_code(t, g, at)


def _new_code(t: Table, g: GroupClass, at: int) -> int:
    """Work out and keep the code of cell ``at`` of group class ``g``, for the current hand."""
    first, last = _group_range(g.shape, t.hand(t.current))
    code = t.claims.group_codes[at] = first * g.side + last - first + 1 if first else 0
    return code


def _claimable(t: Table, p: int, trains: int, g: GroupClass) -> int:
    """How many tracks of group class ``g`` seat ``p`` may claim now, cards aside."""
    if g.length > trains:
        return 0
    free = t.free_count[g.klass]
    if t.blocked[p]:
        free -= blocked_in(t, p, g.klass)
    return free


def count_group_claims(t: Table) -> int:
    """How many claims with groups of any cards (track, number of groups) are legal now.

    (``_claimable``, ``_option_code`` and ``GroupClass.cell`` written out in the loop, and
    the classes of the seat's blocked tracks read once: this runs at every turn.)
    """
    groups = t.claims.groups
    if not groups:
        return 0
    p = t.current
    trains = t.trains[p]
    blocked: list[int] = []
    if t.blocked[p]:
        class_of = t.claims.class_of
        blocked = [class_of[b] for b in t.blocked[p]]
    free_count = t.free_count
    hands = t.hands
    base = p * NUM_KINDS
    codes = t.claims.group_codes
    size, locos, top = _hand_counts(t)
    n = 0
    for g in groups:
        if g.length > trains:
            continue
        k = g.klass
        free = free_count[k]
        for x in blocked:
            if x == k:
                free -= 1
        if free <= 0:
            continue
        bound = g.bound
        held = top if g.color == GRAY else hands[base + g.color]
        at = (
            g.offset
            + (size if size < bound else bound) * g.size_step
            + (held if held < bound else bound)
        )
        if g.locos_ok:
            at += (locos if locos < bound else bound) * g.side
        code = codes[at]
        if code < 0:
            code = _new_code(t, g, at)
        n += free * (code % g.side)
    return n


def group_claim_at(t: Table, i: int) -> tuple[int, int]:
    """The ``i``-th legal claim with groups as (track index, number of groups)."""
    p = t.current
    trains = t.trains[p]
    size, locos, top = _hand_counts(t)
    for g in t.claims.groups:
        free = _claimable(t, p, trains, g)
        if free <= 0:
            continue
        code = _option_code(t, g, size, locos, top)
        if not code:
            continue
        first = code // g.side
        count = code % g.side
        span = free * count
        if i >= span:
            i -= span
            continue
        pick, j = divmod(i, count)
        for r in t.ix.class_routes[g.klass]:
            if open_to(t, r, p):
                if not pick:
                    return r, first + j
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
    g = t.claims.groups[ix.group_class_position[ix.class_of[r]]]
    size, locos, top = _hand_counts(t)
    code = _option_code(t, g, size, locos, top)
    first = code // g.side
    if not code or not first <= groups < first + code % g.side:
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
    shape = route_shape(t.rs, r)
    size = payment_size(shape, groups)
    if t.events is not None:
        t.events.append(
            ev.GroupClaimStarted(
                player=t.current, route=t.ix.route_ids[r], groups=groups, size=size
            )
        )
    t.phase = CHOOSE_CARDS
    t.choice = Choosing(r, groups, size, (0,) * NUM_KINDS, shape)


# -- choosing the cards ------------------------------------------------------------------


def card_choices(t: Table) -> tuple[int, ...]:
    """The card kinds that may be chosen next for the payment being chosen (listing)."""
    choice = t.choice
    if t.phase != CHOOSE_CARDS or choice is None:
        return ()
    return choosable(choice.shape, choice.groups, choice.chosen, t.hand(t.current))


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
    grown[card] = grown[card] + 1
    total = tuple(grown)
    held = 0
    for n in grown:
        held += n
    if held < choice.size:
        t.choice = Choosing(choice.route, choice.groups, choice.size, total, choice.shape)
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
