"""Payments with groups of any cards (rules GROUP-1 to GROUP-3, NC-13, NC-14, MURMANSK-2..4).

The model in :mod:`ttr_core.groups` is checked against an independent brute force that
tries every split of a payment into units, and the card-by-card choice is checked to
reach every valid payment exactly once, on shapes and hands chosen by Hypothesis.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ttr_core.model.actions import ChooseCard, ClaimRoute, ClaimWithGroups, DrawBlind
from ttr_core.model.cards import GRAY, LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError, MapDataError
from ttr_core.model.events import CardChosen, GroupClaimStarted, RouteClaimed
from ttr_core.model.mapdata import structure_map
from ttr_core.model.state import Phase
from ttr_core.play.functional import apply
from ttr_core.play.legal import LegalActions
from ttr_core.rules import card_groups as groups
from ttr_core.rules import payments
from ttr_core.rules.index import GroupShape
from ttr_core.rules.views import view_of
from ttr_core.ruleset.ruleset import Ruleset
from ttr_core.testing.scenarios import (
    FixtureEdition,
    assert_illegal,
    cards,
    map_dict,
    started,
    step,
    with_player,
)

Shape = GroupShape


def unit_split_exists(shape: Shape, payment: tuple[int, ...]) -> bool:
    """Brute force: can ``payment`` be split into the track's units as the rules say?"""
    color, length, symbols, size, locos_ok, cover_color = shape
    total = sum(payment)
    for c in range(LOCO) if color == GRAY else (color,):
        for t in range(length + 1):
            singles = length - t
            if singles + size * t != total:
                continue
            for locos in range(singles + 1):
                if locos and not locos_ok:
                    continue
                if singles - locos > payment[c] or locos > payment[LOCO]:
                    continue
                for on_symbols in range(min(t, symbols) + 1):
                    on_color = t - on_symbols
                    if on_color and not cover_color:
                        continue
                    if on_color > length - symbols:
                        continue
                    if locos >= symbols - on_symbols:
                        return True
    return False


def sub_multisets(hand: tuple[int, ...], size: int) -> list[tuple[int, ...]]:
    """Every selection of ``size`` cards from ``hand``, as nine counts."""
    out: list[tuple[int, ...]] = []

    def walk(k: int, left: int, acc: list[int]) -> None:
        if k == NUM_KINDS - 1:
            if left <= hand[k]:
                out.append((*acc, left))
            return
        for n in range(min(hand[k], left) + 1):
            walk(k + 1, left - n, [*acc, n])

    walk(0, size, [])
    return out


def reached(shape: Shape, t: int, hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every payment reached by choosing cards one at a time as offered (with repeats)."""
    out: list[tuple[int, ...]] = []
    size = payments.payment_size(shape, t)

    def walk(chosen: tuple[int, ...]) -> None:
        if sum(chosen) == size:
            out.append(chosen)
            return
        for k in groups.choosable(shape, t, chosen, hand):
            grown = list(chosen)
            grown[k] += 1
            walk(tuple(grown))

    if groups.can_complete(shape, t, (0,) * NUM_KINDS, 0, hand):
        walk((0,) * NUM_KINDS)
    return out


shapes = st.tuples(
    st.sampled_from([0, 4, GRAY]),
    st.integers(1, 4),
    st.integers(0, 4),
    st.sampled_from([3, 4]),
    st.booleans(),
    st.booleans(),
).map(lambda s: GroupShape(s[0], s[1], min(s[2], s[1]), s[3], s[4], s[5]))
hands = st.tuples(*[st.integers(0, 3)] * LOCO, st.integers(0, 4))


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(shape=shapes, hand=hands)
def test_group_choice_reaches_every_valid_payment_exactly_once(shape: Shape, hand: Any) -> None:
    """GROUP-3, NC-13, NC-14, MURMANSK-2: each valid payment has one choice sequence."""
    for t in range(1, payments.max_groups(shape) + 1):
        size = payments.payment_size(shape, t)
        if size > 10:
            break
        want = {p for p in sub_multisets(hand, size) if unit_split_exists(shape, p)}
        got = reached(shape, t, hand)
        assert len(got) == len(set(got)), "a payment is reached by two sequences"
        assert set(got) == want
        assert (t in groups.group_options(shape, hand)) == bool(want)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(shape=shapes, hand=hands)
def test_fits_agrees_with_the_unit_split(shape: Shape, hand: Any) -> None:
    """NC-13: ``fits`` accepts exactly the payments that split into valid units."""
    top = min(payments.payment_size(shape, payments.max_groups(shape)), 9)
    for size in range(1, top + 1):
        for payment in sub_multisets(hand, size):
            assert (payments.fits(shape, payment) >= 0) == unit_split_exists(shape, payment)


def test_stacking_bounds_the_number_of_groups() -> None:
    """NC-14: with stacking a group may cover every space; without, only the symbols."""
    red_ferry: Shape = GroupShape(0, 6, 2, 3, True, True)
    assert payments.max_groups(red_ferry) == 6
    assert payments.max_groups(GroupShape(0, 6, 2, 3, True, False)) == 2
    # Three red cards and three groups of three: one group covers a red space.
    payment = cards("RRRBBBYYYGGG")
    assert payments.fits(red_ferry, payment) == 3
    assert payments.fits(GroupShape(0, 6, 2, 3, True, False), payment) == -1


def test_murmansk_shape_sizes() -> None:
    """MURMANSK-4: k cards of the colour plus 9 - k groups of 4."""
    murmansk: Shape = GroupShape(GRAY, 9, 0, 4, False, True)
    assert [payments.payment_size(murmansk, t) for t in (0, 2, 9)] == [9, 15, 36]
    assert payments.fits(murmansk, cards(green=7, red=8)) == 2
    assert payments.fits(murmansk, cards("LLRB", green=8)) == 1
    assert payments.fits(murmansk, cards("L", green=8)) == -1
    assert payments.fits(murmansk, cards(locomotive=9)) == -1


# -- through the engine, on a small board ---------------------------------------------------


def group_ruleset(**parameters: Any) -> Ruleset:
    """A board with a red 3-space ferry (1 symbol), a gray 4-space groups track and a tunnel."""
    data = map_dict(
        [("A", "B", 3, "red"), ("B", "C", 4, "gray"), ("C", "D", 2, "blue"), ("A", "D", 2, "gray")],
        [("A", "C", 5), ("B", "D", 4)],
        players=[2, 3],
        locomotives="tunnels_and_ferries",
        ferry_groups=3,
        **parameters,
    )
    data["routes"][0]["ferry"] = 1
    data["routes"][1]["card_groups"] = 4
    data["routes"][2]["tunnel"] = True
    return Ruleset(FixtureEdition(structure_map(data)))


def test_group_claim_walkthrough() -> None:
    """GROUP-1, GROUP-3: name the groups, choose cards in order, the claim completes."""
    rs = group_ruleset()
    state = started(rs)
    p = state.current
    state = with_player(state, p, hand=cards("RRYYGB"))
    legal = LegalActions(rs, state)
    claim = ClaimWithGroups(route=1, groups=1)
    assert claim in legal and claim in list(legal)
    assert ClaimWithGroups(route=1, groups=2) not in legal
    state, events = step(rs, state, claim)
    assert state.phase is Phase.CHOOSE_CARDS and state.current == p
    assert events == [GroupClaimStarted(player=p, route=1, groups=1, size=5)]
    # Two red singles, then a group of three from yellow, yellow, green, blue.
    for card, offered in ((0, [0]), (0, [0]), (2, [2]), (2, [2, 3])):
        assert list(LegalActions(rs, state)) == [ChooseCard(card=k) for k in offered]
        state, events = step(rs, state, ChooseCard(card=card))
        assert events == [CardChosen(player=p, card=card)]
        assert state.choice is not None
    assert list(LegalActions(rs, state)) == [ChooseCard(card=3), ChooseCard(card=4)]
    state, events = step(rs, state, ChooseCard(card=3))
    claimed = [e for e in events if isinstance(e, RouteClaimed)]
    assert claimed == [RouteClaimed(player=p, route=1, cards=cards("RRYYG"), points=4)]
    assert state.phase is Phase.TURN and state.choice is None and state.current != p
    assert state.players[p].hand == cards("B")
    assert state.players[p].trains == rs.params.trains - 3


def test_group_claim_errors_leave_the_state_alone() -> None:
    """GROUP-1, GROUP-2, GROUP-3 (TURN-1 for a wrong type): each refusal names its rule
    and changes nothing."""
    rs = group_ruleset()
    state = with_player(started(rs), 0, hand=cards("RRRBGGYL"))
    assert_illegal(rs, state, ClaimWithGroups(route=4, groups=1), "GROUP-1")
    assert_illegal(rs, state, ClaimWithGroups(route=3, groups=1), "GROUP-1")
    assert_illegal(rs, state, ClaimWithGroups(route=1, groups=4), "GROUP-1")
    assert_illegal(rs, state, ClaimWithGroups(route=1, groups=0), "GROUP-1")
    assert_illegal(rs, state, ClaimWithGroups(route=2, groups=2), "GROUP-2")
    assert_illegal(rs, state, ChooseCard(card=0), "GROUP-3")
    assert_illegal(rs, state, ClaimRoute(route=1, cards=cards("RRBGY")), "GROUP-2")
    state = apply(rs, state, ClaimWithGroups(route=1, groups=1))
    # A locomotive first would leave nothing to choose after it: refused.
    error = assert_illegal(rs, state, ChooseCard(card=8), "GROUP-3")
    assert "can no longer be completed" in str(error)
    for card in (0, 0, 2):
        state = apply(rs, state, ChooseCard(card=card))
    assert_illegal(rs, state, ChooseCard(card=0), "GROUP-3")  # out of card order
    assert_illegal(rs, state, ChooseCard(card=5), "GROUP-3")  # not held
    assert_illegal(rs, state, ChooseCard(card=9), "GROUP-3")
    assert_illegal(rs, state, ChooseCard(card=True), "TURN-1")  # a bool is no card number
    assert_illegal(rs, state, DrawBlind(), "TURN-1")
    assert_illegal(rs, state, ClaimRoute(route=4, cards=cards("RR")), "TURN-1")
    # One more card after a locomotive would have to be a locomotive: none is left.
    assert list(LegalActions(rs, state)) == [ChooseCard(card=k) for k in (3, 4)]


def test_card_choice_is_public() -> None:
    """GROUP-3: the cards laid down are public; the rest of the hand stays hidden."""
    rs = group_ruleset()
    state = with_player(started(rs), 0, hand=cards("RRBGYL"))
    state = apply(rs, state, ClaimWithGroups(route=1, groups=1))
    state = apply(rs, state, ChooseCard(card=0))
    for seat in (0, 1):
        view = view_of(rs, state, seat)
        assert view.choice is not None
        assert (view.choice.route, view.choice.groups, view.choice.size) == (1, 1, 5)
        assert view.choice.chosen == cards("R")
    assert view_of(rs, state, 1).hand == state.players[1].hand


def test_random_choices_always_complete() -> None:
    """GROUP-3: whatever is chosen among the offered cards, the payment completes validly."""
    rs = group_ruleset()
    chooser = random.Random(7)
    for _ in range(200):
        hand = tuple(chooser.randint(0, 4) for _ in range(NUM_KINDS))
        state = with_player(started(rs), 0, hand=hand)
        offers = [a for a in LegalActions(rs, state) if isinstance(a, ClaimWithGroups)]
        if not offers:
            continue
        state = apply(rs, state, chooser.choice(offers))
        while state.phase is Phase.CHOOSE_CARDS:
            legal = LegalActions(rs, state)
            assert 1 <= len(legal) <= NUM_KINDS
            state = apply(rs, state, legal[chooser.randrange(len(legal))])
        assert state.phase is Phase.TURN


def test_claim_actions_turns_a_payment_into_steps() -> None:
    """GROUP-1: a whole payment becomes one claim, or a claim with groups and its cards."""
    rs = group_ruleset()
    assert groups.claim_actions(rs, 1, cards("RRL")) == [ClaimRoute(route=1, cards=cards("RRL"))]
    assert groups.claim_actions(rs, 1, cards("RRBGY")) == [
        ClaimWithGroups(route=1, groups=1),
        *(ChooseCard(card=k) for k in (0, 0, 2, 3, 4)),
    ]
    with pytest.raises(IllegalActionError) as info:
        groups.claim_actions(rs, 1, cards("RRB"))
    assert info.value.rule == "CLAIM-4"
    with pytest.raises(IllegalActionError):
        groups.claim_actions(rs, 99, cards("RRR"))


@pytest.mark.parametrize(
    ("where", "value", "message"),
    [
        ("card_groups", 1, "card_groups: a group has at least 2 cards"),
        ("card_groups_tunnel", 4, "card_groups: not allowed on a tunnel or a ferry"),
        ("ferry_groups", 1, "ferry_groups: a group has at least 2 cards"),
    ],
)
def test_group_declarations_are_validated(where: str, value: int, message: str) -> None:
    """Map format: group sizes below 2 and groups on tunnels are refused with a path."""
    data = map_dict([("A", "B", 3, "red")], [("A", "B", 4)])
    if where == "ferry_groups":
        data["parameters"]["ferry_groups"] = value
    else:
        data["routes"][0]["card_groups"] = value
        data["routes"][0]["tunnel"] = where.endswith("tunnel")
    with pytest.raises(MapDataError, match=message):
        structure_map(data)


def test_counted_claims_with_groups_agree_with_group_options() -> None:
    """GROUP-2, MURMANSK-2: the count of claims with groups, read from the memo of
    numbers of groups by clamped hand, is each free track times ``group_options`` of the
    hand, for hands of every size up to past the largest payment, one memo for all."""
    from ttr_core.play.simulator import Simulator

    rs = Ruleset.build("nordic")
    t = Simulator.new(rs, ["a", "b"], seed=3)._table
    t.current = 0
    t.trains[0] = 40
    shapes = [(g.klass, t.ix.group_shapes[g.klass]) for g in t.claims.groups]
    rng = random.Random(5)
    for _ in range(3000):
        top = rng.choice([2, 4, 7])
        hand = tuple(rng.randint(0, top) for _ in range(NUM_KINDS))
        t.hands[0:NUM_KINDS] = list(hand)
        want = sum(
            (t.free_count[k] - groups.blocked_in(t, 0, k)) * len(groups.group_options(shape, hand))
            for k, shape in shapes
        )
        assert groups.count_group_claims(t) == want, hand
