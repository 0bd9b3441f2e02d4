"""Switzerland played through the engine on the real map: setup and tickets (CH-1, CH-9,
CH-10), double routes (CH-3), locomotives only on tunnels (CH-4, CH-7, EX-S4), the
display (CH-5, CH-6), and random games that end normally with 2 and 3 players.

The ``locomotives: "tunnels"`` setting is checked at both moments cards are paid: the
claim itself and a tunnel's extra cards, on a tunnel and on an ordinary route.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from attrs import evolve

from ttr_core import Ruleset, SetupError, score_game
from ttr_core.model.actions import (
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.model.cards import LOCO
from ttr_core.model.events import DisplayFlushed, Event, TicketsKept, TunnelRevealed
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply, new_game
from ttr_core.play.legal import legal_actions
from ttr_core.rules.index import index_of
from ttr_core.testing.invariants import card_totals
from ttr_core.testing.play import play_random
from ttr_core.testing.scenarios import (
    arrange,
    assert_illegal,
    card_list,
    cards,
    events_of,
    started,
    step,
    with_player,
)

R, G, B, W, L = 0, 3, 4, 7, LOCO
TICKETS = 46
RED_3 = 9
"""St. Gallen-Winterthur: red, 3 spaces, not a tunnel."""
RED_3_TUNNEL = 52
"""Baden-Basel: red, 3 spaces, a tunnel."""
GRAY_2 = 46
"""St. Gallen-Deutschland 5: gray, 2 spaces, not a tunnel."""
GRAY_2_TUNNEL = 87
"""Martigny-France 1: gray, 2 spaces, a tunnel."""


@pytest.fixture(scope="module")
def ch() -> Ruleset:
    return Ruleset.build("switzerland")


def turn(rs: Ruleset, players: int = 2, seed: int = 7, **piles: Any) -> GameState:
    """Seat 0's first turn after every player kept all opening tickets."""
    return arrange(started(rs, players, seed=seed), **piles)


def ids(rs: Ruleset, tickets: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(index_of(rs).ticket_ids[t] for t in tickets)


def claims(rs: Ruleset, state: GameState, route: int) -> set[tuple[int, ...]]:
    """The payments listed for claiming track ``route`` (an id)."""
    return {
        a.cards for a in legal_actions(rs, state) if isinstance(a, ClaimRoute) and a.route == route
    }


def test_track_constants(ch: Ruleset) -> None:
    """The tracks named above are what their names say."""
    for route, cities, length, color, tunnel in (
        (RED_3, {"St. Gallen", "Winterthur"}, 3, "red", False),
        (RED_3_TUNNEL, {"Baden", "Basel"}, 3, "red", True),
        (GRAY_2, {"St. Gallen", "Deutschland 5"}, 2, "gray", False),
        (GRAY_2_TUNNEL, {"Martigny", "France 1"}, 2, "gray", True),
    ):
        t = index_of(ch).routes[index_of(ch).route_index[route]]
        assert (set(t.cities), t.length, t.color, t.tunnel) == (cities, length, color, tunnel)


# -- setup and tickets (CH-1, CH-9, CH-10) -------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_ch_1_ch_9_setup(ch: Ruleset, players: int) -> None:
    """CH-1 / CH-9: 40 trains, 4 train cards and an offer of 5 different tickets each;
    the ticket deck holds the other 46 - 5n."""
    state = new_game(ch, players, seed=3)
    assert state.phase is Phase.OPENING_TICKETS
    for p in state.players:
        assert (p.trains, p.stations, sum(p.hand)) == (40, 0, 4)
    assert [len(o) for o in state.offers] == [5] * players
    offered = [t for o in state.offers for t in o]
    assert sorted([*offered, *state.ticket_deck]) == list(range(TICKETS))
    assert card_totals(state) == index_of(ch).deck_counts and sum(index_of(ch).deck_counts) == 110


def test_ch_1_two_or_three_players(ch: Ruleset) -> None:
    """CH-1: a game needs 2 or 3 players."""
    for players in (1, 4):
        with pytest.raises(SetupError, match="switzerland is played by 2 to 3 players"):
            new_game(ch, players, seed=1)


def test_ch_9_keep_at_least_two_of_five(ch: Ruleset) -> None:
    """CH-9: 26 ways to keep 2 to 5 of the 5 opening tickets; 1 is too few."""
    state = new_game(ch, 2, seed=1)
    offer = ids(ch, state.offers[0])
    legal = [a for a in legal_actions(ch, state) if isinstance(a, KeepTickets)]
    assert Counter(len(a.tickets) for a in legal) == {2: 10, 3: 10, 4: 5, 5: 1}
    assert_illegal(ch, state, KeepTickets(tickets=offer[:1]), "SETUP-5")


def test_ch_10_returned_opening_tickets_leave_the_game(ch: Ruleset) -> None:
    """CH-10: the opening tickets returned leave the game; the deck is not refilled."""
    state = new_game(ch, 3, seed=4)
    deck = state.ticket_deck
    events: list[Event] = []
    while state.phase is Phase.OPENING_TICKETS:
        offer = state.offers[state.current]
        state = apply(ch, state, KeepTickets(tickets=ids(ch, offer[:2])), events=events)
    assert state.ticket_deck == deck and len(deck) == TICKETS - 15
    assert [e.returned_to for e in events_of(events, TicketsKept)] == ["removed"] * 3
    held = [t for p in state.players for t in p.tickets]
    assert len(held) == 6 and len(held) + len(state.ticket_deck) == TICKETS - 9


def test_ch_9_ch_10_draw_three_keep_one_rest_removed(ch: Ruleset) -> None:
    """CH-9 / CH-10: a draw deals the top 3, one is enough, the rest leave the game."""
    state = turn(ch)
    top, rest = state.ticket_deck[:3], state.ticket_deck[3:]
    state, _ = step(ch, state, DrawTickets())
    assert state.pending_tickets == top
    keeps = [a for a in legal_actions(ch, state) if isinstance(a, KeepTickets)]
    assert {len(a.tickets) for a in keeps} == {1, 2, 3}
    state, events = step(ch, state, KeepTickets(tickets=ids(ch, top[1:2])))
    assert events_of(events, TicketsKept)[0].returned_to == "removed"
    assert state.ticket_deck == rest


@pytest.mark.parametrize("left", [2, 1])
def test_ch_10_short_deck_then_no_draw(ch: Ruleset, left: int) -> None:
    """CH-10: with fewer than 3 tickets left a player draws what is left; once the deck
    is used up, drawing tickets is not a legal action."""
    state = turn(ch)
    state = evolve(state, ticket_deck=state.ticket_deck[:left])
    top = state.ticket_deck
    state, _ = step(ch, state, DrawTickets())
    assert state.pending_tickets == top
    state, _ = step(ch, state, KeepTickets(tickets=ids(ch, top[:1])))
    assert state.ticket_deck == ()
    assert DrawTickets() not in legal_actions(ch, state)
    assert_illegal(ch, state, DrawTickets(), "TICKET-4")


# -- double routes (CH-3) --------------------------------------------------------------------


def test_ch_3_two_players_first_claim_closes_the_double(ch: Ruleset) -> None:
    """CH-3 / DOUBLE-2: with 2 players the blue Winterthur-Zürich track closes
    the pink one."""
    state = with_player(turn(ch, 2), 0, hand=cards("B"))
    state, _ = step(ch, state, ClaimRoute(route=4, cards=cards("B")))
    state = with_player(state, 1, hand=cards("P"))
    assert_illegal(ch, state, ClaimRoute(route=5, cards=cards("P")), "DOUBLE-2")


def test_ch_3_three_players_both_tracks_open(ch: Ruleset) -> None:
    """CH-3 / DOUBLE-1: with 3 players another player claims the twin; the first never may."""
    state = with_player(turn(ch, 3), 0, hand=cards("BP"))
    state, _ = step(ch, state, ClaimRoute(route=4, cards=cards("B")))
    again = evolve(state, current=0)
    assert_illegal(ch, again, ClaimRoute(route=5, cards=cards("P")), "DOUBLE-1")
    state = with_player(state, 1, hand=cards("P"))
    state, _ = step(ch, state, ClaimRoute(route=5, cards=cards("P")))
    assert (
        state.owners[index_of(ch).route_index[4]],
        state.owners[index_of(ch).route_index[5]],
    ) == (0, 1)


# -- locomotives only on tunnels (CH-4, CH-7, EX-S4) ------------------------------------------


def test_ex_s4_ch_4_red_r_r_l(ch: Ruleset) -> None:
    """EX-S4 / CH-4: with R R L an ordinary red 3 cannot be claimed, a red 3 tunnel can."""
    state = with_player(turn(ch), 0, hand=cards("RRL"))
    assert claims(ch, state, RED_3) == set()
    assert_illegal(ch, state, ClaimRoute(route=RED_3, cards=cards("RRL")), "CLAIM-3")
    assert claims(ch, state, RED_3_TUNNEL) == {cards("RRL")}


def test_ex_s4_ch_4_gray_two(ch: Ruleset) -> None:
    """EX-S4 / CH-4: on an ordinary gray 2, L L is invalid and B B valid; on a gray tunnel
    of 2, locomotives join any colour and pay alone."""
    state = with_player(turn(ch), 0, hand=cards("BBLL"))
    assert claims(ch, state, GRAY_2) == {cards("BB")}
    for pay in ("LL", "BL"):
        assert_illegal(ch, state, ClaimRoute(route=GRAY_2, cards=cards(pay)), "CLAIM-3")
    assert claims(ch, state, GRAY_2_TUNNEL) == {cards("BB"), cards("BL"), cards("LL")}


def test_ch_4_every_claim_payment_with_locomotives(ch: Ruleset) -> None:
    """CH-4: with R R R L L L the ordinary red 3 lists R R R alone; the red tunnel lists
    every mix of red and locomotives, the all-locomotive set included."""
    state = with_player(turn(ch), 0, hand=cards("RRRLLL"))
    assert claims(ch, state, RED_3) == {cards("RRR")}
    expected = {cards("RRR"), cards("RRL"), cards("RLL"), cards("LLL")}
    assert claims(ch, state, RED_3_TUNNEL) == expected


def test_ch_4_no_ordinary_route_ever_lists_a_locomotive(ch: Ruleset) -> None:
    """CH-4: with every card in hand, no listed claim of a track that is not a tunnel
    holds a locomotive, and some tunnel claims do."""
    state = with_player(turn(ch), 0, hand=(6,) * 9)
    tunnels = {t.id for t in index_of(ch).routes if t.tunnel}
    listed = [a for a in legal_actions(ch, state) if isinstance(a, ClaimRoute)]
    assert all(a.cards[L] == 0 for a in listed if a.route not in tunnels)
    assert {a.route for a in listed if a.cards[L]} == tunnels


def test_ex_s4_ch_7_tunnel_extra_cards_in_colour_or_locomotives(ch: Ruleset) -> None:
    """EX-S4 / CH-7 / TUNNEL-6: a red tunnel paid R R L reveals R L G: 2 extra cards, paid
    by any mix of red and locomotives, or the claim is withdrawn."""
    state = with_player(turn(ch), 0, hand=cards("RRRRLLL"))
    state = arrange(state, deck=card_list("RLGWWW"))
    state, events = step(ch, state, ClaimRoute(route=RED_3_TUNNEL, cards=cards("RRL")))
    assert events_of(events, TunnelRevealed)[0].extra == 2
    assert state.phase is Phase.TUNNEL
    assert set(legal_actions(ch, state)) == {
        PayTunnel(cards=cards("RR")),
        PayTunnel(cards=cards("RL")),
        PayTunnel(cards=cards("LL")),
        WithdrawTunnel(),
    }
    assert_illegal(ch, state, PayTunnel(cards=cards("RG")), "TUNNEL-6")
    state, _ = step(ch, state, PayTunnel(cards=cards("LL")))
    assert state.owners[index_of(ch).route_index[RED_3_TUNNEL]] == 0
    assert state.players[0].hand == cards("RR") and state.players[0].score == 4


def test_ch_7_all_locomotive_tunnel_payment(ch: Ruleset) -> None:
    """CH-7 / TUNNEL-5: paid L L L, only revealed locomotives cost extra, paid in
    locomotives."""
    state = with_player(turn(ch), 0, hand=cards("RRRLLLL"))
    state = arrange(state, deck=card_list("RLGWWW"))
    state, events = step(ch, state, ClaimRoute(route=RED_3_TUNNEL, cards=cards("LLL")))
    assert events_of(events, TunnelRevealed)[0].extra == 1
    assert set(legal_actions(ch, state)) == {PayTunnel(cards=cards("L")), WithdrawTunnel()}
    assert_illegal(ch, state, PayTunnel(cards=cards("R")), "TUNNEL-6")


# -- the display (CH-5, CH-6) ------------------------------------------------------------------


def test_ex_s4_ch_5_two_face_up_locomotives(ch: Ruleset) -> None:
    """EX-S4 / CH-5: a face-up locomotive leaves a second card to draw, which may be
    another face-up locomotive."""
    state = turn(ch, display=[L, L, R, G, B], deck=[W, W, W, W])
    before = state.players[0].hand
    state, _ = step(ch, state, TakeFaceUp(card=L))
    assert state.phase is Phase.SECOND_CARD and state.current == 0
    assert TakeFaceUp(card=L) in legal_actions(ch, state)
    state, _ = step(ch, state, TakeFaceUp(card=L))
    assert state.phase is Phase.TURN and state.current == 1
    gained = [a - b for a, b in zip(state.players[0].hand, before, strict=True)]
    assert gained == list(cards("LL"))


def test_ch_5_face_up_locomotive_as_second_card(ch: Ruleset) -> None:
    """CH-5: a face-up locomotive may follow a coloured card or a blind draw."""
    for first in (TakeFaceUp(card=R), DrawBlind()):
        state = turn(ch, display=[R, L, G, B, W], deck=[W, W, W, W])
        state, _ = step(ch, state, first)
        assert TakeFaceUp(card=L) in legal_actions(ch, state)
        state, _ = step(ch, state, TakeFaceUp(card=L))
        assert state.phase is Phase.TURN and state.current == 1


def test_ch_6_ch_5_flush_between_two_ordinary_picks(ch: Ruleset) -> None:
    """CH-6 with CH-5: the refill after the first pick shows a third locomotive, so the
    display is flushed; the player still takes a second card, a locomotive if shown."""
    assert ch.params.display.flush_locomotives == 3 and not index_of(ch).face_up_loco_whole_draw
    state = turn(ch, display=[L, L, R, G, B], deck=card_list("L" + "WWWLW" + "RRRR"))
    state, events = step(ch, state, TakeFaceUp(card=R))
    assert len(events_of(events, DisplayFlushed)) == 1
    assert state.display == (W, W, W, L, W)
    assert state.phase is Phase.SECOND_CARD
    state, _ = step(ch, state, TakeFaceUp(card=L))
    assert state.phase is Phase.TURN


def test_ch_6_flush_at_setup(ch: Ruleset) -> None:
    """CH-6 / FLUSH-1: random starts never leave 3 face-up locomotives when cards remain."""
    for seed in range(40):
        state = new_game(ch, 2, seed=seed)
        assert state.display.count(L) < 3


# -- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_random_games_end_normally(ch: Ruleset, players: int) -> None:
    """Random games at 2 and 3 players end normally and score every ticket."""
    for seed in range(4):
        state, _ = play_random(ch, players, seed, seed)
        assert state.phase is Phase.GAME_OVER
        sheet = score_game(ch, state)
        assert [len(p.tickets) for p in sheet.players] == [len(p.tickets) for p in state.players]
        kinds = {
            index_of(ch).tickets[index_of(ch).ticket_index[r.ticket]].kind
            for p in sheet.players
            for r in p.tickets
        }
        assert kinds <= {"regular", "country"}


def test_all_opening_keeps_are_distinct(ch: Ruleset) -> None:
    """CH-9: the 26 listed keeps are exactly the subsets of 2 or more of the offer."""
    state = new_game(ch, 2, seed=2)
    offer = ids(ch, state.offers[0])
    listed = {a.tickets for a in legal_actions(ch, state) if isinstance(a, KeepTickets)}
    subsets = {c for n in range(2, 6) for c in itertools.combinations(offer, n)}
    assert {tuple(sorted(t)) for t in listed} == {tuple(sorted(t)) for t in subsets}
