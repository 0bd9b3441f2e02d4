"""Claiming routes and double routes (CLAIM, DOUBLE, USA-8, USA-9), on the letter board
of the fixture edition and on the USA map."""

from __future__ import annotations

from itertools import product

import pytest
from attrs import evolve

from ttr_core import ClaimRoute, DrawBlind, IllegalActionError, legal_actions
from ttr_core.model.cards import EMPTY, LOCO, NUM_KINDS
from ttr_core.model.events import RouteClaimed
from ttr_core.model.state import Phase
from ttr_core.play.functional import apply
from ttr_core.rules.index import index_of
from ttr_core.rules.payments import payment_error
from ttr_core.testing.scenarios import (
    BLUE,
    RED,
    YELLOW,
    arrange,
    assert_illegal,
    cards,
    events_of,
    started,
    step,
    track,
    track_id,
    with_player,
)


def ready(rs, players=2, hand="", seat=0, trains=None, seed=3):
    """A first-turn state of ``players`` players in which ``seat`` is to play with ``hand``."""
    state = started(rs, players, seed=seed)
    state = evolve(state, current=seat)
    state = with_player(state, seat, hand=cards(hand))
    if trains is not None:
        state = with_player(state, seat, trains=trains)
    return state


def claim(rs, spec, pay, nth=0):
    return ClaimRoute(route=track_id(rs, spec, nth), cards=cards(pay))


def listed_claims(rs, state, r=None):
    return [
        a
        for a in legal_actions(rs, state)
        if isinstance(a, ClaimRoute) and (r is None or a.route == index_of(rs).route_ids[r])
    ]


def payments_up_to(hand, length):
    """Every multiset of ``length`` cards that ``hand`` holds."""
    ranges = [range(min(n, length) + 1) for n in hand]
    return [p for p in product(*ranges) if sum(p) == length]


# -- claiming ------------------------------------------------------------------------------


def test_claim_1_cards_equal_to_length(fx):
    """CLAIM-1: a route of N spaces takes exactly N cards."""
    state = ready(fx, hand="RRRRL")
    assert_illegal(fx, state, claim(fx, "A-B", "RR"), "CLAIM-1")
    assert_illegal(fx, state, claim(fx, "A-B", "RRRR"), "CLAIM-1")
    after, _ = step(fx, state, claim(fx, "A-B", "RRR"))
    assert after.owners[track(fx, "A-B")] == 0
    assert after.players[0].hand == cards("RL")


def test_claim_1_cards_must_be_held(fx):
    """CLAIM-1: the cards paid must be in the player's hand."""
    state = ready(fx, hand="RRB")
    assert_illegal(fx, state, claim(fx, "A-B", "RRR"), "CLAIM-1")
    assert_illegal(fx, state, claim(fx, "A-B", "RRL"), "CLAIM-1")


def test_claim_1_unknown_track_and_malformed_payment(fx):
    """CLAIM-1: an unknown track id or a payment that is not nine counts is rejected."""
    state = ready(fx, hand="RRR")
    assert_illegal(fx, state, ClaimRoute(route=999, cards=cards("RRR")), "CLAIM-1")
    assert_illegal(fx, state, ClaimRoute(route=track_id(fx, "A-B"), cards=(3,)), "CLAIM-1")
    bad = ClaimRoute(route=track_id(fx, "A-B"), cards=(4, 0, 0, 0, 0, 0, 0, 0, -1))
    assert_illegal(fx, state, bad, "CLAIM-1")


def test_claim_2_set_of_the_track_colour(fx):
    """CLAIM-2: a coloured route takes cards of its colour."""
    state = ready(fx, hand="RRRBBB")
    assert_illegal(fx, state, claim(fx, "A-B", "BBB"), "CLAIM-2")
    step(fx, state, claim(fx, "A-B", "RRR"))


def test_claim_2_gray_takes_any_one_colour(fx):
    """CLAIM-2: a gray route takes cards of any single colour."""
    state = ready(fx, hand="RRYYKKWW")
    r = track(fx, "A-C")
    listed = {a.cards for a in listed_claims(fx, state, r)}
    assert listed == {cards("RR"), cards("YY"), cards("KK"), cards("WW")}
    for pay in ("RR", "YY", "KK", "WW"):
        step(fx, state, claim(fx, "A-C", pay))


def test_claim_3_locomotives_are_wild(fx):
    """CLAIM-3: locomotives replace any card of the set, on coloured and gray routes."""
    state = ready(fx, hand="RRLLL")
    for pay in ("RRL", "RLL", "LLL"):
        step(fx, state, claim(fx, "A-B", pay))
    for pay in ("RL", "LL"):
        step(fx, state, claim(fx, "A-C", pay))


def test_claim_3_all_locomotive_payment(fx):
    """CLAIM-3: a set made only of locomotives is valid, on any route."""
    state = ready(fx, hand="LLLLLL")
    for r in range(len(index_of(fx).routes)):
        action = ClaimRoute(
            route=index_of(fx).route_ids[r], cards=cards("L" * index_of(fx).route_len[r])
        )
        step(fx, state, action)


def test_claim_4_no_mixed_colours(fx):
    """CLAIM-4: two colours of ordinary cards never form a set, not even on gray."""
    state = ready(fx, hand="RRBBL")
    assert_illegal(fx, state, claim(fx, "A-C", "RB"), "CLAIM-4")
    assert_illegal(fx, state, claim(fx, "A-B", "RRB"), "CLAIM-4")
    assert_illegal(fx, state, claim(fx, "A-B", "RBL"), "CLAIM-4")


def test_claim_5_trains_placed_and_points_scored_at_once(fx):
    """CLAIM-5: the claim uses one train per space and scores the route at once."""
    state = ready(fx, hand="RRRBBBBB")
    after, events = step(fx, state, claim(fx, "A-B", "RRR"))
    assert after.players[0].trains == 45 - 3
    assert after.players[0].score == 4
    assert events_of(events, RouteClaimed) == [
        RouteClaimed(player=0, route=track_id(fx, "A-B"), cards=cards("RRR"), points=4)
    ]
    state = with_player(evolve(after, current=0), 0, hand=cards("BBBB"))
    after, _ = step(fx, state, claim(fx, "C-D", "BBBB"))
    assert after.players[0].trains == 45 - 7
    assert after.players[0].score == 4 + 7


def test_claim_6_no_connection_required(fx):
    """CLAIM-6: any unclaimed route may be claimed, connected to the player's or not."""
    state = ready(fx, hand="RRRLL")
    after, _ = step(fx, state, claim(fx, "A-B", "RRR"))
    state = evolve(after, current=0)
    step(fx, state, claim(fx, "G-H", "LL"))


def test_claim_7_enough_trains_required(fx):
    """CLAIM-7: a route of N spaces needs at least N trains left."""
    state = ready(fx, hand="RRRLLLLLL", trains=2)
    assert_illegal(fx, state, claim(fx, "A-B", "RRR"), "CLAIM-7")
    assert_illegal(fx, state, claim(fx, "E-F", "LLLLLL"), "CLAIM-7")
    lengths = {
        index_of(fx).route_len[index_of(fx).route_index[a.route]] for a in listed_claims(fx, state)
    }
    assert lengths == {1, 2}
    after, _ = step(fx, state, claim(fx, "A-C", "LL"))
    assert after.players[0].trains == 0


def test_claim_7_exactly_enough_trains(fx):
    """CLAIM-7: exactly N trains are enough for a route of N spaces."""
    state = ready(fx, hand="RRR", trains=3)
    after, _ = step(fx, state, claim(fx, "A-B", "RRR"))
    assert after.players[0].trains == 0


def test_claim_8_claimed_route_cannot_be_taken(fx):
    """CLAIM-8: a claimed route stays its owner's; nobody else may claim it."""
    state = ready(fx, hand="RRR")
    after, _ = step(fx, state, claim(fx, "A-B", "RRR"))
    other = with_player(after, 1, hand=cards("RRRLLL"))
    assert other.current == 1
    assert_illegal(fx, other, claim(fx, "A-B", "RRR"), "CLAIM-8")
    assert_illegal(fx, other, claim(fx, "A-B", "LLL"), "CLAIM-8")
    # Still owned by seat 0 after more turns.
    later = apply(fx, apply(fx, other, DrawBlind()), DrawBlind())
    assert later.owners[track(fx, "A-B")] == 0
    own = evolve(with_player(after, 0, hand=cards("RRR")), current=0)
    assert_illegal(fx, own, claim(fx, "A-B", "RRR"), "CLAIM-8")


def test_claim_payments_listed_in_documented_order(fx):
    """CLAIM-1..CLAIM-4: every payment is listed once, all-locomotive first, then each
    colour with the most coloured cards first."""
    state = ready(fx, hand="RRBLL")
    gray = [a.cards for a in listed_claims(fx, state, track(fx, "A-C"))]
    assert gray == [cards("LL"), cards("RR"), cards("RL"), cards("BL")]
    red = [a.cards for a in listed_claims(fx, state, track(fx, "A-B"))]
    assert red == [cards("RRL"), cards("RLL")]


@pytest.mark.parametrize("hand", ["RRBLL", "RRRRRRYYYLLL", "L", "", "BBBBBBBBLLLLL", "RGBYOPKWL"])
def test_claim_payments_listed_exactly_once_each(fx, hand):
    """CLAIM-1..CLAIM-4: the listed claims are exactly the valid payments held, once each."""
    state = ready(fx, hand=hand)
    h = state.players[0].hand
    listed = listed_claims(fx, state)
    assert len(listed) == len(set(listed))
    expected = set()
    for r in range(len(index_of(fx).routes)):
        for pay in payments_up_to(h, index_of(fx).route_len[r]):
            action = ClaimRoute(route=index_of(fx).route_ids[r], cards=pay)
            try:
                apply(fx, state, action)
            except IllegalActionError:
                assert action not in legal_actions(fx, state)
            else:
                expected.add(action)
                assert action in legal_actions(fx, state)
    assert set(listed) == expected


# -- double routes -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_double_1_never_both_tracks(fx, players):
    """DOUBLE-1: no player may own both tracks of a double route, at any player count."""
    state = ready(fx, players, hand="LLLLLL")
    after, _ = step(fx, state, claim(fx, "B-C", "LL", nth=0))
    again = evolve(after, current=0)
    assert_illegal(fx, again, claim(fx, "B-C", "LL", nth=1), "DOUBLE-1")
    assert not listed_claims(fx, again, track(fx, "B-C", 1))


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("first", [0, 1])
def test_double_2_other_track_closes_below_threshold(fx, players, first):
    """DOUBLE-2: with fewer players than the threshold, one claim closes the other track."""
    state = ready(fx, players, hand="LLLLLL")
    after, _ = step(fx, state, claim(fx, "B-C", "LL", nth=first))
    other = with_player(after, 1, hand=cards("LLLLLL"))
    assert other.current == 1
    assert_illegal(fx, other, claim(fx, "B-C", "LL", nth=1 - first), "DOUBLE-2")
    assert not listed_claims(fx, other, track(fx, "B-C", 1 - first))


@pytest.mark.parametrize("players", [4, 5])
def test_double_3_both_tracks_open_at_threshold(fx, players):
    """DOUBLE-3: from the threshold on, a second player may claim the other track."""
    state = ready(fx, players, hand="LLLLLL")
    after, _ = step(fx, state, claim(fx, "B-C", "LL", nth=0))
    other = with_player(after, 1, hand=cards("LLLLLL"))
    assert listed_claims(fx, other, track(fx, "B-C", 1))
    done, _ = step(fx, other, claim(fx, "B-C", "LL", nth=1))
    assert done.owners[track(fx, "B-C", 0)] == 0
    assert done.owners[track(fx, "B-C", 1)] == 1


def test_double_4_usa_threshold_is_four(usa):
    """DOUBLE-4 / USA-9: in the USA edition both tracks are usable from 4 players."""
    assert usa.params.double_routes_min_players == 4
    assert index_of(usa).double_open_min == 4


@pytest.mark.parametrize("players", [2, 4])
def test_double_5_uneven_pair_is_a_double_route(fx, players):
    """DOUBLE-5: tracks of different lengths between the same cities form a double route."""
    yellow, pink = track(fx, "C-E", 0), track(fx, "C-E", 1)
    assert index_of(fx).route_len[yellow] != index_of(fx).route_len[pink]
    assert index_of(fx).route_twin[yellow] == pink and index_of(fx).route_twin[pink] == yellow
    state = ready(fx, players, hand="YYPPP")
    after, _ = step(fx, state, claim(fx, "C-E", "YY", nth=0))
    assert_illegal(
        fx,
        with_player(evolve(after, current=0), 0, hand=cards("PPP")),
        claim(fx, "C-E", "PPP", 1),
        "DOUBLE-1",
    )
    other = with_player(after, 1, hand=cards("PPP"))
    if players < 4:
        assert_illegal(fx, other, claim(fx, "C-E", "PPP", nth=1), "DOUBLE-2")
    else:
        step(fx, other, claim(fx, "C-E", "PPP", nth=1))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_usa_9_every_double_route(usa, players):
    """USA-9: on the USA map, each of the 22 double routes closes at 2-3 players and stays
    open to other players at 4-5; the claiming player never gets the second track."""
    base = ready(usa, players, hand="LLLLLL")
    pairs = [
        (r, index_of(usa).route_twin[r])
        for r in range(len(index_of(usa).routes))
        if r < index_of(usa).route_twin[r]
    ]
    assert len(pairs) == 22
    for r, twin in pairs:
        pay = cards("L" * index_of(usa).route_len[r])
        after = apply(usa, base, ClaimRoute(route=index_of(usa).route_ids[r], cards=pay))
        twin_pay = cards("L" * index_of(usa).route_len[twin])
        action = ClaimRoute(route=index_of(usa).route_ids[twin], cards=twin_pay)
        same = with_player(evolve(after, current=0), 0, hand=cards("LLLLLL"))
        assert action not in legal_actions(usa, same)
        other = with_player(after, 1, hand=cards("LLLLLL"))
        assert (action in legal_actions(usa, other)) == (players >= 4)


def test_usa_8_locomotives_wild_on_every_route(usa):
    """USA-8: locomotives may be played on every USA route."""
    state = ready(usa, hand="LLLLLL")
    listed = set(listed_claims(usa, state))
    for r in range(len(index_of(usa).routes)):
        action = ClaimRoute(
            route=index_of(usa).route_ids[r], cards=cards("L" * index_of(usa).route_len[r])
        )
        assert action in listed
        assert payment_error(usa, r, action.cards) is None
        if index_of(usa).route_color[r] != LOCO:
            mixed = [0] * NUM_KINDS
            mixed[index_of(usa).route_color[r]] = index_of(usa).route_len[r] - 1
            mixed[LOCO] = 1
            assert payment_error(usa, r, tuple(mixed)) is None


def test_claim_not_allowed_mid_draw(fx):
    """TURN-1 / TURN-2: a claim cannot be combined with a card draw in one turn."""
    state = arrange(ready(fx, hand="RRR"), deck=[RED, BLUE, YELLOW, RED], discard=EMPTY)
    mid, _ = step(fx, state, DrawBlind())
    assert mid.phase is Phase.SECOND_CARD
    assert_illegal(fx, mid, claim(fx, "A-B", "RRR"), "TURN-1")
