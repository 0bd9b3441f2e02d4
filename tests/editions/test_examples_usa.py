"""The worked USA examples EX-U1 to EX-U4, played through the library: EX-U1 to EX-U3 on
letter boards with ``score_position``, EX-U4 on the real USA map."""

from __future__ import annotations

import pytest
from attrs import evolve

from ttr_core import ClaimRoute, DrawBlind, legal_actions
from ttr_core.model.events import FinalRoundStarted, GameEnded
from ttr_core.model.state import Phase
from ttr_core.play.functional import apply
from ttr_core.rules.graph import longest_trail
from ttr_core.rules.index import index_of
from ttr_core.testing.scenarios import (
    assert_illegal,
    cards,
    events_of,
    fixture_ruleset,
    score,
    started,
    step,
    with_player,
)

RED, BLUE, GREEN = 0, 1, 2

# -- EX-U1 ---------------------------------------------------------------------------------

U1_ROUTES = (
    ("A", "B", 2, "gray"),
    ("B", "C", 3, "gray"),
    ("C", "D", 3, "gray"),
    ("D", "B", 3, "gray"),
    ("D", "E", 4, "gray"),
    ("K", "L", 6, "gray"),
    ("L", "M", 4, "gray"),
    ("M", "N", 3, "gray"),
)
U1_TICKETS = (
    ("A", "E", 9),
    ("C", "E", 5),
    ("A", "Z", 7),
    ("K", "N", 8),
    ("K", "P", 6),
    ("L", "N", 2),
    ("P", "K", 8),
)
RED_U1 = ["A-B", "B-C", "C-D", "D-B", "D-E"]
BLUE_U1 = ["K-L", "L-M", "M-N"]


@pytest.fixture(scope="module")
def u1():
    return fixture_ruleset(U1_ROUTES, U1_TICKETS)


def test_ex_u1_loop_in_the_longest_path(u1):
    """EX-U1 / PATH-1: Red's path D-C-B-D-E is 13 (passing D twice), not 12."""
    sheet = score(u1, {"Red": (RED_U1, []), "Blue": (BLUE_U1, [])})
    assert sheet.players[0].longest_path == 13
    assert sheet.players[1].longest_path == 13
    # The repeated-city-free walk A-B-C-D-E is only 12.
    a, b, c, d, e = (u1.city_index_of(x) for x in "ABCDE")
    assert longest_trail([(a, b, 2), (b, c, 3), (c, d, 3), (d, e, 4)]) == 12


def test_ex_u1_scores_and_tie_break_by_tickets(u1):
    """EX-U1 / PATH-4 / TICKET-7 / USA-12: 38 each, shared bonus, Red wins on tickets."""
    sheet = score(
        u1,
        {"Red": (RED_U1, ["A-E", "C-E", "A-Z"]), "Blue": (BLUE_U1, ["K-N", "K-P"])},
    )
    red, blue = sheet.players
    assert red.route_points == 2 + 4 + 4 + 4 + 7 == 21
    assert [(t.points, t.completed) for t in red.tickets] == [(9, True), (5, True), (-7, False)]
    assert red.ticket_points == 7
    assert red.bonuses["longest_path"] == 10
    assert red.total == 38
    assert blue.route_points == 15 + 7 + 4 == 26
    assert [(t.points, t.completed) for t in blue.tickets] == [(8, True), (-6, False)]
    assert blue.ticket_points == 2
    assert blue.bonuses["longest_path"] == 10
    assert blue.total == 38
    assert (red.tickets_completed, blue.tickets_completed) == (2, 1)
    assert sheet.winners == (0,)


def test_ex_u1_shared_win_when_tickets_also_tie(u1):
    """EX-U1 / TIE-4 / TIE-5: with 2 completed tickets each and the shared bonus, the win
    is shared."""
    sheet = score(
        u1,
        {"Red": (RED_U1, ["A-E", "C-E", "A-Z"]), "Blue": (BLUE_U1, ["K-N", "L-N", "P-K"])},
    )
    red, blue = sheet.players
    assert (red.total, blue.total) == (38, 38)
    assert (red.tickets_completed, blue.tickets_completed) == (2, 2)
    assert sheet.winners == (0, 1)


# -- EX-U2 ---------------------------------------------------------------------------------

U2_ROUTES = (
    ("P", "Q", 5, "gray"),
    ("Q", "R", 5, "gray"),
    ("S", "T", 6, "gray"),
    ("T", "U", 6, "gray"),
    ("A", "B", 1, "gray"),
)
U2_TICKETS = (
    ("P", "R", 12),
    ("Q", "X", 8),
    ("P", "Y", 10),
    ("A", "B", 10),
    ("A", "C", 8),
    ("A", "D", 6),
)


def test_ex_u2_failed_tickets_subtract():
    """EX-U2 / TICKET-7: 20 route points, tickets 12 - 8 - 10 = -6, total 14."""
    rs = fixture_ruleset(U2_ROUTES, U2_TICKETS)
    sheet = score(
        rs,
        {"Green": (["P-Q", "Q-R"], ["P-R", "Q-X", "P-Y"]), "Other": (["S-T", "T-U"], [])},
    )
    green = sheet.players[0]
    assert green.route_points == 20
    assert green.longest_path == 10
    assert green.bonuses["longest_path"] == 0
    assert green.ticket_points == -6
    assert green.total == 14


def test_ex_u2_smaller_scale():
    """EX-U2: tickets worth 10, 8 and 6 with only the 10 done give -4."""
    rs = fixture_ruleset(U2_ROUTES, U2_TICKETS)
    sheet = score(rs, {"Green": (["A-B"], ["A-B", "A-C", "A-D"]), "Other": (["S-T"], [])})
    assert sheet.players[0].ticket_points == -4


# -- EX-U3 ---------------------------------------------------------------------------------

U3_ROUTES = (
    ("X", "Y", 4, "gray"),
    ("Y", "Z", 4, "gray"),
    ("Y", "W", 2, "gray"),
    ("A", "B", 3, "gray"),
    ("B", "C", 3, "gray"),
    ("D", "E", 6, "gray"),
    ("E", "F", 1, "gray"),
)


def test_ex_u3_branch_and_separate_networks():
    """EX-U3 / PATH-2: the T gives 8 (not 10); A-B-C plus D-E-F gives 7 (not 13)."""
    rs = fixture_ruleset(U3_ROUTES, ())
    sheet = score(
        rs,
        {
            "T": (["X-Y", "Y-Z", "Y-W"], []),
            "Split": (["A-B", "B-C", "D-E", "E-F"], []),
        },
    )
    assert sheet.players[0].longest_path == 8
    assert sheet.players[1].longest_path == 7
    assert [p.bonuses["longest_path"] for p in sheet.players] == [10, 0]


# -- EX-U4 (the real USA map) --------------------------------------------------------------


def usa_track(rs, a, b, nth=0):
    found = [r for r, t in enumerate(index_of(rs).routes) if set(t.cities) == {a, b}]
    return found[nth]


def usa_claim(rs, a, b, pay, nth=0):
    return ClaimRoute(route=index_of(rs).route_ids[usa_track(rs, a, b, nth)], cards=cards(pay))


def draw_two(rs, state):
    state = apply(rs, state, DrawBlind())
    if state.phase is Phase.SECOND_CARD:
        state = apply(rs, state, DrawBlind())
    return state


def test_ex_u4_final_round_timing(usa):
    """EX-U4 / END-1 / END-2 / END-3 / CLAIM-7: Blue ends a turn with 2 trains; Green, Red
    and Blue play once more; Blue may then claim only 1- or 2-space routes; Green falling
    to 1 train changes nothing."""
    state = started(usa, 3, seed=21)
    state = evolve(state, current=BLUE)
    state = with_player(state, BLUE, trains=4, hand=cards("LLLLRRRR"))
    state = with_player(state, GREEN, trains=2, hand=cards("LL"))
    state, events = step(usa, state, usa_claim(usa, "El Paso", "Santa Fe", "LL"))
    assert state.players[BLUE].trains == 2
    assert events_of(events, FinalRoundStarted) == [FinalRoundStarted(player=BLUE, trains=2)]
    order = []
    # Green falls to 1 train: nothing further happens.
    order.append(state.current)
    state, events = step(usa, state, usa_claim(usa, "Atlanta", "Nashville", "L"))
    assert state.players[GREEN].trains == 1
    assert events_of(events, FinalRoundStarted) == []
    assert state.final_trigger == BLUE
    # Red plays a turn.
    order.append(state.current)
    state = draw_two(usa, state)
    # Blue's last turn: only routes of 1 or 2 spaces.
    order.append(state.current)
    assert order == [GREEN, RED, BLUE]
    claims = [a for a in legal_actions(usa, state) if isinstance(a, ClaimRoute)]
    assert claims
    assert {index_of(usa).route_len[index_of(usa).route_index[a.route]] for a in claims} == {1, 2}
    assert_illegal(usa, state, usa_claim(usa, "Chicago", "Pittsburgh", "LLL"), "CLAIM-7")
    state, events = step(usa, state, usa_claim(usa, "Denver", "Santa Fe", "RR"))
    assert state.is_over
    assert state.ended_by == "final_round"
    assert events_of(events, GameEnded) == [GameEnded(reason="final_round")]


def test_ex_u4_double_route_three_players(usa):
    """EX-U4 / DOUBLE-1 / DOUBLE-2 / USA-9: at 3 players Red's claim of one Kansas
    City-Omaha track closes the other for everyone."""
    first, second = (usa_track(usa, "Kansas City", "Omaha", n) for n in (0, 1))
    assert index_of(usa).route_len[first] == index_of(usa).route_len[second] == 1
    assert index_of(usa).route_color[first] == index_of(usa).route_color[second] == 8
    assert index_of(usa).route_twin[first] == second
    state = with_player(started(usa, 3, seed=22), RED, hand=cards("LL"))
    state, _ = step(usa, state, usa_claim(usa, "Kansas City", "Omaha", "L", 0))
    blue = with_player(state, BLUE, hand=cards("LLRR"))
    assert_illegal(usa, blue, usa_claim(usa, "Kansas City", "Omaha", "L", 1), "DOUBLE-2")
    green = with_player(draw_two(usa, blue), GREEN, hand=cards("LLRR"))
    assert green.current == GREEN
    assert_illegal(usa, green, usa_claim(usa, "Kansas City", "Omaha", "R", 1), "DOUBLE-2")
    red = with_player(evolve(state, current=RED), RED, hand=cards("LL"))
    assert_illegal(usa, red, usa_claim(usa, "Kansas City", "Omaha", "L", 1), "DOUBLE-1")


def test_ex_u4_double_route_four_players(usa):
    """EX-U4 / DOUBLE-1 / DOUBLE-3 / USA-9: at 4 players Blue may take the other track;
    Red may not."""
    state = with_player(started(usa, 4, seed=22), RED, hand=cards("LL"))
    state, _ = step(usa, state, usa_claim(usa, "Kansas City", "Omaha", "L", 0))
    red = with_player(evolve(state, current=RED), RED, hand=cards("LL"))
    assert_illegal(usa, red, usa_claim(usa, "Kansas City", "Omaha", "L", 1), "DOUBLE-1")
    blue = with_player(state, BLUE, hand=cards("R"))
    done, _ = step(usa, blue, usa_claim(usa, "Kansas City", "Omaha", "R", 1))
    assert done.owners[usa_track(usa, "Kansas City", "Omaha", 0)] == RED
    assert done.owners[usa_track(usa, "Kansas City", "Omaha", 1)] == BLUE
