"""Nordic payments on the real map: ferries with groups of 3 (NC-9 to NC-16), Murmansk-Lieksa
with groups of 4 (MURMANSK-1 to MURMANSK-4) and the claim with groups (GROUP-1 to GROUP-3).

Payments are played through ``claim_actions``, ``legal_actions`` and ``apply``. Which
payments are valid is written out from the rules, and for the completeness checks decided
by an independent split into units; :mod:`ttr_core.groups` is not used as an oracle.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import NamedTuple

import pytest

from ttr_core import IllegalActionError, Ruleset, claim_actions
from ttr_core.cli import main
from ttr_core.model.actions import (
    Action,
    ChooseCard,
    ClaimRoute,
    ClaimWithGroups,
    DrawBlind,
    DrawTickets,
    Pass,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.model.cards import GRAY, LOCO, NUM_KINDS
from ttr_core.model.events import (
    CardChosen,
    Event,
    FinalRoundStarted,
    GroupClaimStarted,
    RouteClaimed,
    TunnelRevealed,
)
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply
from ttr_core.play.game import Game
from ttr_core.play.legal import legal_actions
from ttr_core.rules.index import index_of
from ttr_core.rules.payments import fits, route_shape
from ttr_core.rules.views import CardChoiceView, redact, view_of
from ttr_core.testing import play_game
from ttr_core.testing.scenarios import (
    arrange,
    assert_illegal,
    card_list,
    cards,
    claimed,
    events_of,
    started,
    step,
    with_player,
)

R, ORANGE, Y, G, B, P, K, W, L = range(9)


class Rule(NamedTuple):
    """How a track is paid, written from the rules (not read from the engine)."""

    color: int
    """Card colour, or GRAY: one colour of the player's choice."""
    length: int
    symbols: int
    group: int
    """Cards in a group of any cards (0: no groups)."""
    locos: bool
    """Whether a single locomotive may fill a space."""
    cover: bool
    """Whether a group may also cover a space of the colour, not only an owed locomotive."""


def ferry_rule(color: int, length: int, symbols: int, stacking: bool = True) -> Rule:
    """NC-13, NC-14: N units of a colour card, a locomotive or any 3 cards."""
    return Rule(color, length, symbols, 3, True, stacking)


MURMANSK_RULE = Rule(GRAY, 9, 0, 4, False, True)
"""MURMANSK-2, MURMANSK-3: 9 cards of one colour, any missing one replaced by any 4 cards."""


def unit_groups(rule: Rule, pay: tuple[int, ...]) -> int:
    """The number of groups if ``pay`` splits into valid units, else -1 (brute force).

    Tries every number of groups ``t``, colour ``c`` and number of single locomotives
    ``b``: the singles are ``a`` cards of ``c`` and ``b`` locomotives, ``a + b + t`` is
    the length, the owed locomotives are covered (``b + t >= symbols``) and what is left
    over is exactly ``t`` groups.
    """
    colors = range(LOCO) if rule.color == GRAY else (rule.color,)
    most_groups = rule.length if rule.group else 0
    for t in range(most_groups + 1):
        if not rule.cover and t > rule.symbols:
            continue
        for c in colors:
            for b in range((pay[LOCO] if rule.locos else 0) + 1):
                a = rule.length - t - b
                if (
                    0 <= a <= pay[c]
                    and b + t >= rule.symbols
                    and sum(pay) - a - b == rule.group * t
                ):
                    return t
    return -1


def sub_hands(hand: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every sub-multiset of ``hand`` (nine counts each)."""
    return list(itertools.product(*(range(n + 1) for n in hand)))


@pytest.fixture(scope="module")
def nordic() -> Ruleset:
    return Ruleset.build("nordic")


@pytest.fixture(scope="module")
def unstacked() -> Ruleset:
    return Ruleset.build("nordic", {"ferry_group_stacking": False})


def real_id(
    rs: Ruleset,
    a: str,
    b: str,
    *,
    length: int,
    color: str,
    ferry: int = 0,
    tunnel: bool = False,
    card_groups: int = 0,
    twins: bool = False,
) -> int:
    """The id of the one real track between two cities with exactly these properties (the
    first of two identical tracks if ``twins``)."""
    found = [
        t.id
        for t in index_of(rs).routes
        if set(t.cities) == {a, b}
        and (t.length, t.color, t.ferry, t.tunnel, t.card_groups or 0)
        == (length, color, ferry, tunnel, card_groups)
    ]
    assert len(found) == (2 if twins else 1), (a, b, found)
    return found[0]


def mo_ferry(rs: Ruleset) -> int:
    return real_id(rs, "Mo I Rana", "Trondheim", length=6, color="red", ferry=2)


def mo_tunnel(rs: Ruleset) -> int:
    return real_id(rs, "Mo I Rana", "Trondheim", length=5, color="green", tunnel=True)


def murmansk(rs: Ruleset) -> int:
    return real_id(rs, "Murmansk", "Lieksa", length=9, color="gray", card_groups=4)


def at_turn(
    rs: Ruleset, hand: tuple[int, ...], players: int = 3, trains: int | None = None
) -> GameState:
    """The first turn of a game, the current player holding ``hand`` (and ``trains``)."""
    state = started(rs, players=players, seed=1)
    state = with_player(state, state.current, hand=hand)
    if trains is not None:
        state = with_player(state, state.current, trains=trains)
    assert state.phase is Phase.TURN
    return state


def plus(*parts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(map(sum, zip(*parts, strict=True)))


def pay_through(
    rs: Ruleset, state: GameState, route: int, pay: tuple[int, ...]
) -> tuple[GameState, list[Event], list[Action]]:
    """Claim ``route`` paying ``pay`` with the actions of ``claim_actions``, each listed."""
    actions = claim_actions(rs, route, pay)
    events: list[Event] = []
    for action in actions:
        state, got = step(rs, state, action)
        events.extend(got)
    return state, events, actions


def assert_claimed(
    rs: Ruleset,
    before: GameState,
    after: GameState,
    events: list[Event],
    route: int,
    pay: tuple[int, ...],
    *,
    trains: int,
    points: int,
    revealed: tuple[int, ...] = (0,) * NUM_KINDS,
) -> None:
    """The claim completed: cards paid and discarded (with any tunnel reveal), trains
    placed, points scored, turn over."""
    p = before.current
    assert events_of(events, RouteClaimed) == [
        RouteClaimed(player=p, route=route, cards=pay, points=points)
    ]
    old, new = before.players[p], after.players[p]
    assert new.hand == tuple(h - c for h, c in zip(old.hand, pay, strict=True))
    assert new.trains == old.trains - trains
    assert new.score == old.score + points
    assert after.discard == plus(before.discard, pay, revealed)
    assert after.owners[index_of(rs).route_index[route]] == p
    assert after.phase is Phase.TURN
    assert after.choice is None
    assert after.current == (p + 1) % len(after.players)
    assert after.turn == before.turn + 1


def group_claims(rs: Ruleset, state: GameState, route: int) -> list[int]:
    """The numbers of groups listed for ``route``, in listing order."""
    return [
        a.groups
        for a in legal_actions(rs, state)
        if isinstance(a, ClaimWithGroups) and a.route == route
    ]


def plain_claims(rs: Ruleset, state: GameState, route: int) -> list[tuple[int, ...]]:
    """The payments of the listed ``ClaimRoute`` actions for ``route``."""
    return [
        a.cards for a in legal_actions(rs, state) if isinstance(a, ClaimRoute) and a.route == route
    ]


# -- EX-N3: the Mo i Rana-Trondheim ferry --------------------------------------------------


def test_ex_n3_the_ferry_is_red_6_spaces_2_symbols(nordic: Ruleset) -> None:
    """EX-N3: the Mo i Rana-Trondheim pair is a red 6-space ferry with 2 symbols and a
    green 5-space tunnel."""
    r = index_of(nordic).route_index[mo_ferry(nordic)]
    assert (
        index_of(nordic).route_len[r],
        index_of(nordic).route_color[r],
        index_of(nordic).route_ferry[r],
    ) == (6, R, 2)
    assert not index_of(nordic).route_tunnel[r]
    assert index_of(nordic).route_twin[r] == index_of(nordic).route_index[mo_tunnel(nordic)]
    assert index_of(nordic).route_points[r] == 15


@pytest.mark.parametrize("pay", ["RRRRLL", "RRRLLL", "LLLLLL"])
def test_ex_n3_nc_10_nc_12_plain_ferry_payments(nordic: Ruleset, pay: str) -> None:
    """EX-N3, NC-10, NC-12: 4R+2L, 3R+3L and 6L are ordinary claims, listed and applied."""
    route = mo_ferry(nordic)
    spare = cards("OWK")
    state = at_turn(nordic, plus(cards(pay), spare))
    assert claim_actions(nordic, route, cards(pay)) == [ClaimRoute(route=route, cards=cards(pay))]
    assert cards(pay) in plain_claims(nordic, state, route)
    after, events, _ = pay_through(nordic, state, route, cards(pay))
    assert_claimed(nordic, state, after, events, route, cards(pay), trains=6, points=15)
    assert after.players[state.current].hand == spare


@pytest.mark.parametrize(
    ("pay", "groups"),
    [("RRRRLBBY", 1), ("RRRRBBYGGK", 2), ("RRRRLLLGGK", 2), ("RRRBBBYYYGGW", 3)],
)
def test_ex_n3_nc_11_nc_13_nc_14_ferry_payments_with_groups(
    nordic: Ruleset, pay: str, groups: int
) -> None:
    """EX-N3, NC-11, NC-13, NC-14: 4R+1L+any 3, 4R+any 6 and (stacking) 3R+any 9 are
    claims with 1, 2 and 3 groups; they complete with the last card chosen."""
    route = mo_ferry(nordic)
    spare = cards("OPL")
    state = at_turn(nordic, plus(cards(pay), spare))
    payment = cards(pay)
    actions = claim_actions(nordic, route, payment)
    steps = [k for k in range(NUM_KINDS) for _ in range(payment[k])]
    assert actions == [
        ClaimWithGroups(route=route, groups=groups),
        *(ChooseCard(card=k) for k in steps),
    ]
    after, events, _ = pay_through(nordic, state, route, payment)
    p = state.current
    assert events[0] == GroupClaimStarted(player=p, route=route, groups=groups, size=len(pay))
    assert events_of(events, CardChosen) == [CardChosen(player=p, card=k) for k in steps]
    assert_claimed(nordic, state, after, events, route, payment, trains=6, points=15)
    assert after.players[p].hand == spare


def test_ex_n3_cards_stay_in_hand_while_chosen(nordic: Ruleset) -> None:
    """GROUP-3: until the last card, the chosen cards stay in hand and nothing is scored."""
    route = mo_ferry(nordic)
    hand = cards("RRRRLBBYK")
    state = at_turn(nordic, hand)
    p = state.current
    actions = claim_actions(nordic, route, cards("RRRRLBBY"))
    for n, action in enumerate(actions[:-1]):
        state, events = step(nordic, state, action)
        assert state.phase is Phase.CHOOSE_CARDS
        assert state.current == p
        assert state.players[p].hand == hand
        assert state.players[p].score == 0
        assert state.players[p].trains == 40
        assert state.choice is not None
        assert sum(state.choice.chosen) == n
        assert events_of(events, RouteClaimed) == []


@pytest.mark.parametrize(("pay", "rule"), [("RRRRRL", "FERRY-2"), ("RRRRBB", "CLAIM-4")])
def test_ex_n3_invalid_ferry_payments(nordic: Ruleset, pay: str, rule: str) -> None:
    """EX-N3: 5R+1L leaves a symbol unpaid; 4R+2B mixes colours and 2 cards are no group."""
    route = mo_ferry(nordic)
    with pytest.raises(IllegalActionError) as info:
        claim_actions(nordic, route, cards(pay))
    assert info.value.rule == rule
    state = at_turn(nordic, plus(cards(pay), cards("YGK")))
    assert_illegal(nordic, state, ClaimRoute(route=route, cards=cards(pay)), rule)
    assert cards(pay) not in plain_claims(nordic, state, route)


def test_ex_n3_nc_14_three_groups_need_stacking(nordic: Ruleset, unstacked: Ruleset) -> None:
    """NC-14: 3R+any 9 (three groups) is valid only with stacking; 4R+any 6 both ways."""
    route = mo_ferry(unstacked)
    three = cards("RRRBBBYYYGGW")
    two = cards("RRRRBBYGGK")
    state = at_turn(unstacked, plus(three, cards("R")))
    assert group_claims(nordic, state, route) == [2, 3]
    assert group_claims(unstacked, state, route) == [2]
    with pytest.raises(IllegalActionError) as info:
        claim_actions(unstacked, route, three)
    assert info.value.rule == "CLAIM-1"
    assert_illegal(unstacked, state, ClaimWithGroups(route=route, groups=3), "GROUP-1")
    assert_illegal(unstacked, state, ClaimRoute(route=route, cards=three), "CLAIM-1")
    assert len(claim_actions(nordic, route, three)) == 13

    state = at_turn(unstacked, plus(two, cards("L")))
    after, events, actions = pay_through(unstacked, state, route, two)
    assert actions[0] == ClaimWithGroups(route=route, groups=2)
    assert_claimed(unstacked, state, after, events, route, two, trains=6, points=15)


def test_nc_14_unstacked_groups_cover_only_owed_locomotives(unstacked: Ruleset) -> None:
    """NC-14 off: 2 groups on the 2 symbols plus locomotives on red spaces is fine, but
    5R + any 3 (one group, one symbol unpaid) is not, with or without stacking."""
    route = mo_ferry(unstacked)
    ok = cards("RRRLBBYGGK")
    actions = claim_actions(unstacked, route, ok)
    assert actions[0] == ClaimWithGroups(route=route, groups=2)
    for rs in (unstacked, Ruleset.build("nordic")):
        with pytest.raises(IllegalActionError):
            claim_actions(rs, route, cards("RRRRRBBY"))
        state = at_turn(rs, cards("RRRRRRBBY"))
        assert group_claims(rs, state, route) == []
        assert_illegal(rs, state, ClaimWithGroups(route=route, groups=1), "GROUP-2")


# -- NC-15: single-space ferries ------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"), [("Århus", "København"), ("Vaasa", "Umeå")], ids=["arhus", "vaasa"]
)
def test_nc_15_single_space_ferries(nordic: Ruleset, a: str, b: str) -> None:
    """NC-15, EX-N3: a gray 1-space ferry with 1 symbol takes 1 locomotive or any 3 cards
    (R,G,B or L,L,R); 1 red card, 2 cards or 5 cards are refused."""
    route = real_id(nordic, a, b, length=1, color="gray", ferry=1)
    hand = cards("RGBLLK")
    state = at_turn(nordic, hand)
    assert plain_claims(nordic, state, route) == [cards("L")]
    assert group_claims(nordic, state, route) == [1]
    for pay in ("L", "RGB", "LLR"):
        after, events, actions = pay_through(nordic, state, route, cards(pay))
        assert len(actions) == (1 if pay == "L" else 4)
        assert_claimed(nordic, state, after, events, route, cards(pay), trains=1, points=1)
    for pay, rule in (("R", "FERRY-2"), ("RL", "CLAIM-1"), ("RGBKL", "CLAIM-1")):
        with pytest.raises(IllegalActionError) as info:
            claim_actions(nordic, route, cards(pay))
        assert info.value.rule == rule
        assert_illegal(nordic, state, ClaimRoute(route=route, cards=cards(pay)), rule)
    assert_illegal(nordic, state, ClaimWithGroups(route=route, groups=2), "GROUP-1")


# -- NC-16: tunnels take no groups ------------------------------------------------------------


def test_nc_16_ex_n3_bergen_oslo_tunnel(nordic: Ruleset) -> None:
    """NC-16, EX-N3: B B B L is a listed claim of the blue Bergen-Oslo tunnel; a claim with
    groups and B B B plus 3 other cards are refused."""
    route = real_id(nordic, "Bergen", "Oslo", length=4, color="blue", tunnel=True)
    state = at_turn(nordic, cards("BBBLRGY"))
    assert cards("BBBL") in plain_claims(nordic, state, route)
    assert group_claims(nordic, state, route) == []
    assert_illegal(nordic, state, ClaimWithGroups(route=route, groups=1), "GROUP-1")
    assert_illegal(nordic, state, ClaimRoute(route=route, cards=cards("BBBRGY")), "CLAIM-1")
    with pytest.raises(IllegalActionError) as info:
        claim_actions(nordic, route, cards("BBBRGY"))
    assert info.value.rule == "CLAIM-1"
    top = [R, R, G]
    quiet = arrange(state, deck=[*top, *state.deck[state.deck_pos :]])
    after, events = step(nordic, quiet, ClaimRoute(route=route, cards=cards("BBBL")))
    assert events_of(events, TunnelRevealed)[0].extra == 0
    assert_claimed(
        nordic,
        quiet,
        after,
        events,
        route,
        cards("BBBL"),
        trains=4,
        points=7,
        revealed=cards("RRG"),
    )


def test_nc_16_no_groups_for_the_extra_tunnel_cards(nordic: Ruleset) -> None:
    """NC-16: the extra cards a tunnel reveal demands are paid in colour or locomotives only."""
    route = real_id(nordic, "Bergen", "Oslo", length=4, color="blue", tunnel=True)
    state = at_turn(nordic, cards("BBBBLLRGY"))
    state = arrange(state, deck=[B, R, G, *state.deck[state.deck_pos :]])
    state, _ = step(nordic, state, ClaimRoute(route=route, cards=cards("BBBL")))
    assert state.phase is Phase.TUNNEL
    assert list(legal_actions(nordic, state)) == [
        PayTunnel(cards=cards("B")),
        PayTunnel(cards=cards("L")),
        WithdrawTunnel(),
    ]
    assert_illegal(nordic, state, PayTunnel(cards=cards("RGY")), "TUNNEL-6")
    assert_illegal(nordic, state, PayTunnel(cards=cards("R")), "TUNNEL-6")
    assert_illegal(nordic, state, ClaimWithGroups(route=route, groups=1), "TURN-1")
    assert_illegal(nordic, state, ChooseCard(card=R), "GROUP-3")


def test_nc_16_no_tunnel_is_offered_a_claim_with_groups(nordic: Ruleset) -> None:
    """NC-16, GROUP-1: with a big hand, claims with groups are listed for ferries and
    Murmansk-Lieksa only, never for a tunnel or a plain route."""
    state = at_turn(nordic, (3,) * NUM_KINDS)
    routes = {a.route for a in legal_actions(nordic, state) if isinstance(a, ClaimWithGroups)}
    expected = {
        t.id for t in index_of(nordic).routes if (t.ferry and not t.tunnel) or t.card_groups
    }
    assert len(expected) == 24 + 1
    assert routes == expected
    for t in index_of(nordic).routes:
        if t.tunnel:
            assert_illegal(nordic, state, ClaimWithGroups(route=t.id, groups=1), "GROUP-1")


# -- NC-9: plain routes take no locomotives -------------------------------------------------


def test_nc_9_plain_coloured_route_refuses_locomotives(nordic: Ruleset) -> None:
    """NC-9, CLAIM-3: black Boden-Kiruna lists only K K K; a locomotive in the payment is
    refused; no claim with groups is accepted."""
    route = real_id(nordic, "Boden", "Kiruna", length=3, color="black")
    state = at_turn(nordic, cards("KKKKLLLOO"))
    assert plain_claims(nordic, state, route) == [cards("KKK")]
    for pay in ("KKL", "KLL", "LLL"):
        assert_illegal(nordic, state, ClaimRoute(route=route, cards=cards(pay)), "CLAIM-3")
    assert_illegal(nordic, state, ClaimWithGroups(route=route, groups=1), "GROUP-1")
    assert group_claims(nordic, state, route) == []


def test_nc_9_plain_gray_route_refuses_locomotives(nordic: Ruleset) -> None:
    """NC-9, CLAIM-3: gray Stockholm-Sundsvall lists one single-colour payment per colour
    held 4 times, never a locomotive."""
    route = real_id(nordic, "Stockholm", "Sundsvall", length=4, color="gray", twins=True)
    state = at_turn(nordic, cards("RRRRRGGGGBBBLLLL"))
    assert plain_claims(nordic, state, route) == [cards("RRRR"), cards("GGGG")]
    for pay in ("BBBL", "GGLL", "LLLL"):
        assert_illegal(nordic, state, ClaimRoute(route=route, cards=cards(pay)), "CLAIM-3")
    with pytest.raises(IllegalActionError) as info:
        claim_actions(nordic, route, cards("BBBRGY"))
    assert info.value.rule == "CLAIM-1"
    assert_illegal(nordic, state, ClaimWithGroups(route=route, groups=1), "GROUP-1")


# -- EX-N2: Murmansk-Lieksa -----------------------------------------------------------------


MURMANSK_PAYMENTS = [
    ("GGGGGGGGG", 0),
    ("GGGGGGGGRYBW", 1),
    ("GGGGGGGGLLRB", 1),
    ("GGGGGGGRRYYBBWW", 2),
    ("GGGGGRRROOOYYYBBBLLLL", 4),
    ("RRRROOOOYYYYGGGGBBBBPPPPKKKKWWWWLLLL", 9),
]


@pytest.mark.parametrize(("pay", "groups"), MURMANSK_PAYMENTS)
def test_ex_n2_murmansk_payments(nordic: Ruleset, pay: str, groups: int) -> None:
    """EX-N2, MURMANSK-1, MURMANSK-2, MURMANSK-4: 9G, 8G+any 4, 8G+L L R B, 7G+any 8,
    5G+any 16 and any 36 each claim the route for 9 trains and 27 points."""
    route = murmansk(nordic)
    payment = cards(pay)
    assert sum(payment) == 9 + 3 * groups
    spare = cards("PKW")
    state = at_turn(nordic, plus(payment, spare))
    after, events, actions = pay_through(nordic, state, route, payment)
    if groups:
        assert actions[0] == ClaimWithGroups(route=route, groups=groups)
        assert len(actions) == 1 + sum(payment)
    else:
        assert actions == [ClaimRoute(route=route, cards=payment)]
    assert_claimed(nordic, state, after, events, route, payment, trains=9, points=27)
    assert after.players[state.current].hand == spare


@pytest.mark.parametrize(
    ("pay", "rule"),
    [("GGGGGGGGL", "CLAIM-3"), ("LLLLLLLLL", "CLAIM-3"), ("GGGGGGGRY", "CLAIM-4")],
)
def test_ex_n2_murmansk_3_invalid_payments(nordic: Ruleset, pay: str, rule: str) -> None:
    """EX-N2, MURMANSK-3: 8G+1L and 9L are refused (a locomotive never replaces a single
    card); so is 7G+R+Y."""
    route = murmansk(nordic)
    with pytest.raises(IllegalActionError) as info:
        claim_actions(nordic, route, cards(pay))
    assert info.value.rule == rule
    state = at_turn(nordic, plus(cards(pay), cards("OOO")))
    assert_illegal(nordic, state, ClaimRoute(route=route, cards=cards(pay)), rule)


def test_murmansk_3_a_locomotive_is_never_a_single(nordic: Ruleset) -> None:
    """MURMANSK-3: 7G + L + R R R R cannot be split (the locomotive would fill a green
    space), so a hand of exactly these cards is offered no claim for the route."""
    route = murmansk(nordic)
    hand = cards("GGGGGGGLRRRR")
    with pytest.raises(IllegalActionError):
        claim_actions(nordic, route, hand)
    state = at_turn(nordic, hand)
    assert group_claims(nordic, state, route) == []
    assert plain_claims(nordic, state, route) == []
    assert_illegal(nordic, state, ClaimWithGroups(route=route, groups=1), "GROUP-2")
    assert_illegal(nordic, state, ClaimWithGroups(route=route, groups=2), "GROUP-2")


def test_murmansk_1_needs_nine_trains(nordic: Ruleset) -> None:
    """MURMANSK-1, CLAIM-7: with 8 trains the route is not offered and both kinds of claim
    are refused; with 9 it is claimed, and the 0 trains left start the final round."""
    route = murmansk(nordic)
    hand = cards("GGGGGGGGGRYBW")
    state = at_turn(nordic, hand, trains=8)
    assert plain_claims(nordic, state, route) == []
    assert group_claims(nordic, state, route) == []
    assert_illegal(nordic, state, ClaimRoute(route=route, cards=cards("GGGGGGGGG")), "CLAIM-7")
    assert_illegal(nordic, state, ClaimWithGroups(route=route, groups=1), "CLAIM-7")
    state = at_turn(nordic, hand, trains=9)
    assert group_claims(nordic, state, route) == [1]
    after, events, _ = pay_through(nordic, state, route, cards("GGGGGGGGRYBW"))
    assert_claimed(nordic, state, after, events, route, cards("GGGGGGGGRYBW"), trains=9, points=27)
    assert events_of(events, FinalRoundStarted) == [
        FinalRoundStarted(player=state.current, trains=0)
    ]


# -- GROUP-1 to GROUP-3 on the real map ------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "stacked", "unstacked_options"),
    [
        ("RRRRBBYL", [1], [1]),
        ("RRRRRRBBB", [], []),
        ("RRRRRRBBBYYY", [2, 3], [2]),
        ("LLLLLLLLLLLL", [1, 2, 3], [1, 2]),
        ("RRLBBBYYYGGG", [3], []),
    ],
)
def test_group_2_listed_group_numbers(
    nordic: Ruleset, unstacked: Ruleset, hand: str, stacked: list[int], unstacked_options: list[int]
) -> None:
    """GROUP-1, GROUP-2: a claim with groups of the ferry is listed for exactly the numbers
    of groups the hand can pay; the others are refused with GROUP-2."""
    route = mo_ferry(nordic)
    state = at_turn(nordic, cards(hand))
    for rs, options, most in ((nordic, stacked, 6), (unstacked, unstacked_options, 2)):
        assert group_claims(rs, state, route) == options
        for n in range(1, most + 1):
            if n not in options:
                assert_illegal(rs, state, ClaimWithGroups(route=route, groups=n), "GROUP-2")


def test_group_1_number_of_groups_out_of_range(nordic: Ruleset, unstacked: Ruleset) -> None:
    """GROUP-1: 0, negative or too many groups are refused; TURN-1: a bool is no number."""
    state = at_turn(nordic, (5,) * NUM_KINDS)
    ferry, route9 = mo_ferry(nordic), murmansk(nordic)
    assert group_claims(nordic, state, ferry) == [1, 2, 3, 4, 5, 6]
    assert group_claims(nordic, state, route9) == [4, 5, 6, 7, 8, 9]
    assert group_claims(unstacked, state, ferry) == [1, 2]
    for n in (0, -1, 7):
        assert_illegal(nordic, state, ClaimWithGroups(route=ferry, groups=n), "GROUP-1")
    # True == 1, but a bool is not a number of groups: a value of the wrong type (TURN-1).
    with pytest.raises(IllegalActionError) as info:
        apply(nordic, state, ClaimWithGroups(route=ferry, groups=True))
    assert info.value.rule == "TURN-1"
    assert ClaimWithGroups(route=ferry, groups=True) not in legal_actions(nordic, state)
    for n in (0, 10):
        assert_illegal(nordic, state, ClaimWithGroups(route=route9, groups=n), "GROUP-1")
    for n in (3, 6):
        assert_illegal(unstacked, state, ClaimWithGroups(route=ferry, groups=n), "GROUP-1")


def test_group_1_track_must_be_claimable(nordic: Ruleset) -> None:
    """GROUP-1: a claim with groups needs a free track (CLAIM-8) that is not the parallel
    of one's own (DOUBLE-1) and that is open in a 2-player game (DOUBLE-2)."""
    ferry, tunnel = mo_ferry(nordic), mo_tunnel(nordic)
    hand = cards("RRRRRRLLLBBBYYY")
    state = at_turn(nordic, hand)
    p = state.current
    assert group_claims(nordic, state, ferry) == [1, 2, 3, 4]
    taken = claimed(nordic, state, {index_of(nordic).route_index[ferry]: (p + 1) % 3})
    assert group_claims(nordic, taken, ferry) == []
    assert_illegal(nordic, taken, ClaimWithGroups(route=ferry, groups=1), "CLAIM-8")
    # DOUBLE-1: the player claims the green tunnel, then it is their turn again.
    own = with_player(state, p, hand=plus(hand, cards("GGGGG")))
    own = arrange(own, deck=[R, R, Y, *own.deck[own.deck_pos :]])  # the reveal matches nothing
    own, _ = step(nordic, own, ClaimRoute(route=tunnel, cards=cards("GGGGG")))
    own = arrange(own, current=p)
    assert own.owners[index_of(nordic).route_index[tunnel]] == p
    assert group_claims(nordic, own, ferry) == []
    assert_illegal(nordic, own, ClaimWithGroups(route=ferry, groups=1), "DOUBLE-1")
    # DOUBLE-2: with 2 players a claim with groups closes the parallel track.
    two = at_turn(nordic, plus(hand, cards("GGGGG")), players=2)
    after, _, _ = pay_through(nordic, two, ferry, cards("RRRRLBBY"))
    after = with_player(after, after.current, hand=cards("GGGGGL"))
    assert plain_claims(nordic, after, tunnel) == []
    assert_illegal(nordic, after, ClaimRoute(route=tunnel, cards=cards("GGGGG")), "DOUBLE-2")


def test_group_2_claim_route_with_a_group_payment(nordic: Ruleset) -> None:
    """GROUP-2: a payment holding groups offered as one ClaimRoute is refused, pointing to
    the claim with groups."""
    hand = cards("RRRRLBBYGGGGGGGGLR")
    state = at_turn(nordic, hand)
    for route, pay in (
        (mo_ferry(nordic), "RRRRLBBY"),
        (mo_ferry(nordic), "RRRRBBYGGG"),
        (murmansk(nordic), "GGGGGGGGLLRB"),
        (real_id(nordic, "Århus", "København", length=1, color="gray", ferry=1), "RGB"),
    ):
        error = assert_illegal(nordic, state, ClaimRoute(route=route, cards=cards(pay)), "GROUP-2")
        assert "ClaimWithGroups" in str(error)


def choosing(rs: Ruleset, hand: str, route: int, groups: int, chosen: str) -> GameState:
    """A state in CHOOSE_CARDS for ``route`` with ``groups`` groups and ``chosen`` laid."""
    state, _ = step(rs, at_turn(rs, cards(hand)), ClaimWithGroups(route=route, groups=groups))
    for k in sorted(card_list(chosen)):
        state, _ = step(rs, state, ChooseCard(card=k))
    assert state.phase is Phase.CHOOSE_CARDS
    return state


def test_group_3_refused_card_choices(nordic: Ruleset) -> None:
    """GROUP-3: a card out of order, a card not held, an unknown card and a card after
    which the payment cannot be completed are refused; the state is unchanged."""
    route = mo_ferry(nordic)
    state = choosing(nordic, "RRRRBBYGGKLL", route, 2, "RRRY")
    assert list(legal_actions(nordic, state)) == [ChooseCard(card=G)]
    assert_illegal(nordic, state, ChooseCard(card=R), "GROUP-3")  # out of order
    assert_illegal(nordic, state, ChooseCard(card=Y), "GROUP-3")  # no further yellow
    assert_illegal(nordic, state, ChooseCard(card=W), "GROUP-3")  # no white held
    for k in (-1, 9):
        assert_illegal(nordic, state, ChooseCard(card=k), "GROUP-3")
    # Blue first leaves only 1 locomotive for the 5 single spaces of 1 group.
    state = choosing(nordic, "RRRRBBBYYYGGL", route, 1, "")
    assert list(legal_actions(nordic, state)) == [ChooseCard(card=R)]
    for k in (B, Y, G, L):
        assert_illegal(nordic, state, ChooseCard(card=k), "GROUP-3")
    # After R R R Y with 2 groups, blue, black or a locomotive leaves too few cards to
    # choose from (6 more are needed); after R R R, green still just fits.
    state = choosing(nordic, "RRRRBBYGGKLL", route, 2, "RRRY")
    for k in (B, K, L):
        assert_illegal(nordic, state, ChooseCard(card=k), "GROUP-3")
    state = choosing(nordic, "RRRRBBYGGKLL", route, 2, "RRR")
    assert list(legal_actions(nordic, state)) == [ChooseCard(card=k) for k in (R, Y, G)]
    for k in (B, K, L):
        assert_illegal(nordic, state, ChooseCard(card=k), "GROUP-3")


def test_group_3_only_card_choices_in_choose_cards(nordic: Ruleset) -> None:
    """GROUP-3: while cards are chosen, drawing, claiming, passing and tunnel actions are
    refused and only ChooseCard actions are listed; ChooseCard outside it is refused."""
    route = mo_ferry(nordic)
    at = at_turn(nordic, cards("RRRRBBYGGKLL"))
    assert_illegal(nordic, at, ChooseCard(card=R), "GROUP-3")
    state = choosing(nordic, "RRRRBBYGGKLL", route, 2, "RR")
    assert all(isinstance(a, ChooseCard) for a in legal_actions(nordic, state))
    for action, rule in (
        (DrawBlind(), "TURN-1"),
        (TakeFaceUp(card=state.display[0]), "TURN-1"),
        (DrawTickets(), "TURN-1"),
        (ClaimRoute(route=route, cards=cards("RRRRLL")), "TURN-1"),
        (ClaimWithGroups(route=route, groups=2), "TURN-1"),
        (Pass(), "PASS-1"),
        (PayTunnel(cards=cards("R")), "TUNNEL-6"),
        (WithdrawTunnel(), "TUNNEL-7"),
    ):
        assert_illegal(nordic, state, action, rule)


def walk(
    rs: Ruleset, state: GameState, route: int, chooser: random.Random
) -> tuple[int, tuple[int, ...]]:
    """Claim track ``route`` with a random listed number of groups and random listed
    cards to the end, checking each step; returns the groups and the final payment."""
    p = state.current
    hand = state.players[p].hand
    start = chooser.choice(
        [a for a in legal_actions(rs, state) if isinstance(a, ClaimWithGroups) and a.route == route]
    )
    state, _ = step(rs, state, start)
    last = 0
    while True:
        assert state.phase is Phase.CHOOSE_CARDS
        assert state.choice is not None
        chosen = state.choice.chosen
        legal = list(legal_actions(rs, state))
        assert 1 <= len(legal) <= NUM_KINDS
        assert all(isinstance(a, ChooseCard) for a in legal)
        kinds = [a.card for a in legal if isinstance(a, ChooseCard)]
        assert kinds == sorted(set(kinds))
        assert all(k >= last and chosen[k] < hand[k] for k in kinds)
        last = chooser.choice(kinds)
        state, events = step(rs, state, ChooseCard(card=last))
        claims = events_of(events, RouteClaimed)
        if claims:
            assert state.phase is Phase.TURN
            assert claims[0].route == start.route
            assert claims[0].player == p
            return start.groups, claims[0].cards


@pytest.mark.parametrize("which", ["ferry", "murmansk"])
def test_group_3_every_listed_choice_leads_to_a_valid_payment(nordic: Ruleset, which: str) -> None:
    """GROUP-3: random walks through the listed choices always end in a valid payment of
    the number of groups claimed, drawn from the hand (27 cards; 45 for Murmansk)."""
    if which == "ferry":
        route, rule, hand, walks = mo_ferry(nordic), ferry_rule(R, 6, 2), (3,) * NUM_KINDS, 300
    else:
        route, rule, hand, walks = murmansk(nordic), MURMANSK_RULE, (5,) * NUM_KINDS, 60
    state = at_turn(nordic, hand)
    shape = route_shape(nordic, nordic.route_index_of(route))
    chooser = random.Random(20240607)
    seen: set[int] = set()
    for _ in range(walks):
        groups, pay = walk(nordic, state, route, chooser)
        seen.add(groups)
        assert all(pay[k] <= hand[k] for k in range(NUM_KINDS))
        assert fits(shape, pay) == groups
        assert unit_groups(rule, pay) == groups
    assert seen == set(group_claims(nordic, state, route))


# -- completeness: every valid payment reached exactly once ---------------------------------


def reachable(rs: Ruleset, state: GameState, route: int) -> list[tuple[int, ...]]:
    """Every payment for ``route`` reachable through the listed actions, with repeats."""
    found = plain_claims(rs, state, route)
    for n in group_claims(rs, state, route):
        found.extend(choices_below(rs, apply(rs, state, ClaimWithGroups(route=route, groups=n))))
    return found


def choices_below(rs: Ruleset, state: GameState) -> list[tuple[int, ...]]:
    """The payments completed below a CHOOSE_CARDS state, one per path of listed choices."""
    legal = list(legal_actions(rs, state))
    assert legal, "a listed choice led to a dead end"
    out: list[tuple[int, ...]] = []
    for action in legal:
        assert isinstance(action, ChooseCard)
        events: list[Event] = []
        nxt = apply(rs, state, action, events=events)
        if nxt.phase is Phase.CHOOSE_CARDS:
            out.extend(choices_below(rs, nxt))
        else:
            (claim,) = events_of(events, RouteClaimed)
            out.append(claim.cards)
    return out


FERRY_HANDS = [
    "RRRRBBYGGKLL",
    "RRRLLLBGY",
    "LLLLLLLRB",
    "RRRRRRRBBBBB",
    "RGBYKWPOLLRG",
    "GGGGBBBBLLY",
    "RRRRRLLLBYG",
]
FERRIES = [
    ("Mo I Rana", "Trondheim", 6, "red", 2, R),
    ("Helsinki", "Stockholm", 4, "gray", 2, GRAY),
    ("Ålborg", "Göteborg", 2, "gray", 1, GRAY),
    ("Århus", "København", 1, "gray", 1, GRAY),
]


@pytest.mark.parametrize("stacking", [True, False])
@pytest.mark.parametrize(
    ("a", "b", "length", "color", "symbols", "code"),
    FERRIES,
    ids=["mo-i-rana-trondheim", "helsinki-stockholm", "alborg-goteborg", "arhus-kobenhavn"],
)
def test_nc_13_ferry_payments_are_complete_and_unique(
    nordic: Ruleset,
    unstacked: Ruleset,
    stacking: bool,
    a: str,
    b: str,
    length: int,
    color: str,
    symbols: int,
    code: int,
) -> None:
    """NC-13, NC-14, GROUP-3: for several hands, the listed claims and card choices reach
    every valid ferry payment from the hand exactly once, and nothing else."""
    rs = nordic if stacking else unstacked
    route = real_id(rs, a, b, length=length, color=color, ferry=symbols)
    rule = ferry_rule(code, length, symbols, stacking)
    for spec in FERRY_HANDS:
        hand = cards(spec)
        valid = [s for s in sub_hands(hand) if unit_groups(rule, s) >= 0]
        reached = reachable(rs, at_turn(rs, hand), route)
        assert Counter(reached) == Counter(valid), spec
        assert len(reached) == len(set(reached))


MURMANSK_HANDS = [
    ("GGGGGGGGGRRBBLLY", {0, 1, 2}),
    ("GGGGGGGGRRRRRRRRLLL", {1, 2, 3}),
    ("GGGGGGRRRRRRLLLBBBY", {3}),
    ("GGGGGGGRRRRRRRLLLLL", {2, 3}),
]


@pytest.mark.parametrize(("spec", "group_counts"), MURMANSK_HANDS)
def test_murmansk_payments_are_complete_and_unique(
    nordic: Ruleset, spec: str, group_counts: set[int]
) -> None:
    """MURMANSK-2 to MURMANSK-4, GROUP-3: the listed claims and choices reach every valid
    Murmansk-Lieksa payment from the hand exactly once, and nothing else."""
    route = murmansk(nordic)
    hand = cards(spec)
    valid = [s for s in sub_hands(hand) if unit_groups(MURMANSK_RULE, s) >= 0]
    assert {unit_groups(MURMANSK_RULE, s) for s in valid} == group_counts
    reached = reachable(nordic, at_turn(nordic, hand), route)
    assert Counter(reached) == Counter(valid)
    assert len(reached) == len(set(reached))


# -- size of the legal action lists ---------------------------------------------------------


@pytest.mark.parametrize("count", [3, 5])
def test_group_1_legal_actions_stay_small_with_big_hands(nordic: Ruleset, count: int) -> None:
    """GROUP-1, GROUP-3: with 27 or 45 cards the turn lists a few hundred actions, each
    applicable, and a card choice never lists more than the 9 card kinds."""
    state = at_turn(nordic, (count,) * NUM_KINDS)
    legal = legal_actions(nordic, state)
    assert 100 < len(legal) < 400
    assert len(list(legal)) == len(set(legal)) == len(legal)
    for action in legal:
        apply(nordic, state, action)
    for action in legal:
        if isinstance(action, ClaimWithGroups):
            inner = legal_actions(nordic, apply(nordic, state, action))
            assert 1 <= len(inner) <= NUM_KINDS
            assert all(isinstance(a, ChooseCard) for a in inner)


# -- views ----------------------------------------------------------------------------------


def test_views_of_a_payment_being_chosen(nordic: Ruleset) -> None:
    """GROUP-3: the claim being chosen (track, groups, size, cards laid) is public; the
    chooser's hand is not shown to the other seats."""
    route = mo_ferry(nordic)
    hand = cards("RRRRLBBYK")
    state = at_turn(nordic, hand)
    p = state.current
    before = {seat: view_of(nordic, state, seat) for seat in range(3)}
    assert all(v.choice is None for v in before.values())
    events: list[Event] = []
    for action in claim_actions(nordic, route, cards("RRRRLBBY"))[:4]:
        state, got = step(nordic, state, action)
        events.extend(got)
    expected = CardChoiceView(route=route, groups=1, size=8, chosen=cards("RRR"))
    for seat in range(3):
        view = view_of(nordic, state, seat)
        assert view.phase is Phase.CHOOSE_CARDS
        assert view.current == p
        assert view.choice == expected
        assert view.hand == state.players[seat].hand
        assert view.players[p].hand_size == sum(hand)
        for event in events:
            assert redact(event, seat) == event
    other = (p + 1) % 3
    assert view_of(nordic, state, other).hand != hand


# -- records with card choices, through the command line -------------------------------------


def test_group_3_records_with_card_choices_replay_through_ttr_replay(
    nordic: Ruleset, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GROUP-1, GROUP-3: a saved Nordic game whose claims include card groups replays with
    ``ttr replay``; the same record with one card choice changed is refused in one line."""
    game: Game | None = None
    for seed in range(1, 40):
        candidate = play_game(nordic, 2, seed)
        kinds = [type(entry.action).__name__ for entry in candidate.log]
        if "ClaimWithGroups" in kinds and kinds.count("ChooseCard") >= 6:
            game = candidate
            break
    assert game is not None
    good = tmp_path / "nordic.json"
    good.write_text(game.save(compact=False), encoding="utf-8")
    assert main(["replay", str(good), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["edition"] == "nordic" and out["actions"] == len(game.log)
    assert [s["total"] for s in out["scores"]] == [p.total for p in game.scores().players]

    record = json.loads(game.save(compact=False))
    entry = next(e for e in record["log"] if e["action"]["tag"] == "choose_card")
    entry["action"]["card"] = "locomotive" if entry["action"]["card"] != "locomotive" else "red"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(bad)]) != 0
    err = capsys.readouterr().err
    assert err.startswith("ttr: error:") and err.count("\n") == 1 and "Traceback" not in err
