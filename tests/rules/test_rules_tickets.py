"""Destination tickets: the opening deal and draws during play (SETUP-5, TICKET, USA-3 to
USA-6), and ticket scoring through ``score_position``."""

from __future__ import annotations

import pytest
from attrs import evolve

from ttr_core import (
    ClaimRoute,
    DrawTickets,
    Game,
    KeepTickets,
    Pass,
    Ruleset,
    legal_actions,
    new_game,
)
from ttr_core.model.events import TicketsDealt, TicketsKept
from ttr_core.model.state import Phase
from ttr_core.play.functional import apply
from ttr_core.rules.index import index_of
from ttr_core.testing.scenarios import (
    assert_illegal,
    cards,
    events_of,
    fixture_ruleset,
    score,
    started,
    step,
    ticket,
    track_id,
    with_player,
)


def ids(rs, indices):
    return tuple(index_of(rs).ticket_ids[i] for i in indices)


def keep_options(rs, state):
    return {frozenset(a.tickets) for a in legal_actions(rs, state)}


def drawn(rs, state):
    """The state after the current player drew tickets, and the ids drawn."""
    after, _ = step(rs, state, DrawTickets())
    assert after.phase is Phase.KEEP_TICKETS
    assert after.current == state.current
    return after, ids(rs, after.pending_tickets)


# -- the opening deal ----------------------------------------------------------------------


def test_setup_5_opening_deal_and_minimum(usa):
    """SETUP-5 / USA-4: each player is dealt 3 tickets and keeps at least 2."""
    events = []
    state = new_game(usa, 3, seed=4, events=events)
    assert state.phase is Phase.OPENING_TICKETS
    dealt = events_of(events, TicketsDealt)
    assert [e.player for e in dealt] == [0, 1, 2]
    all_offered = [t for offer in state.offers for t in offer]
    assert len(all_offered) == 9 == len(set(all_offered))
    assert len(state.ticket_deck) == 30 - 9
    offer = ids(usa, state.offers[0])
    assert keep_options(usa, state) == {
        frozenset(offer),
        frozenset(offer[:2]),
        frozenset(offer[1:]),
        frozenset((offer[0], offer[2])),
    }
    assert_illegal(usa, state, KeepTickets(tickets=offer[:1]), "SETUP-5")
    assert_illegal(usa, state, KeepTickets(tickets=()), "SETUP-5")
    # Nothing but the choice of opening tickets can happen before play begins.
    assert_illegal(usa, state, DrawTickets(), "TURN-1")


def test_setup_5_players_choose_independently(usa):
    """SETUP-5: each player chooses from their own offer; a choice does not change the
    others' offers."""
    state = new_game(usa, 3, seed=4)
    offers = state.offers
    for seat in range(3):
        assert state.current == seat
        assert state.offers[seat] == offers[seat]
        assert state.offers[(seat + 1) % 3] in ((), offers[(seat + 1) % 3])
        mine = ids(usa, offers[seat])
        # A ticket offered to someone else cannot be kept.
        other = ids(usa, offers[(seat + 1) % 3])[:1]
        assert_illegal(usa, state, KeepTickets(tickets=(*mine[:1], *other)), "TICKET-2")
        state = apply(usa, state, KeepTickets(tickets=mine[:2]))
        assert state.players[seat].tickets == offers[seat][:2]
    assert state.phase is Phase.TURN


def test_usa_4_default_opening_deal(usa):
    """USA-4: by default 3 opening tickets are dealt and at least 2 kept."""
    deal = usa.params.opening_tickets
    assert (deal.deal, deal.keep, deal.returned) == (3, 2, "bottom")
    state = new_game(usa, 5, seed=8)
    assert all(len(offer) == 3 for offer in state.offers)


def test_usa_5_option_four_opening_tickets():
    """USA-5: the option deals 4 opening tickets; the minimum kept stays 2."""
    rs = Ruleset.build("usa", {"opening_tickets": 4})
    assert rs.params.opening_tickets.deal == 4
    assert rs.params.opening_tickets.keep == 2
    assert rs.params.ticket_draw.deal == 3
    state = new_game(rs, 5, seed=8)
    assert all(len(offer) == 4 for offer in state.offers)
    assert len(state.ticket_deck) == 30 - 20
    assert len(legal_actions(rs, state)) == 1 + 4 + 6
    offer = ids(rs, state.offers[0])
    assert_illegal(rs, state, KeepTickets(tickets=offer[:1]), "SETUP-5")
    deck = state.ticket_deck
    after = apply(rs, state, KeepTickets(tickets=offer[:2]))
    assert after.ticket_deck == (*deck, *state.offers[0][2:])
    assert after.players[0].tickets == state.offers[0][:2]


def test_usa_6_returned_opening_tickets_go_under_the_deck(usa):
    """USA-6: opening tickets not kept go to the bottom of the ticket deck, in order."""
    state = new_game(usa, 2, seed=12)
    deck = state.ticket_deck
    first, second = state.offers
    state = apply(usa, state, KeepTickets(tickets=ids(usa, first[1:])))
    assert state.ticket_deck == (*deck, first[0])
    state = apply(usa, state, KeepTickets(tickets=ids(usa, second[:1] + second[2:])))
    assert state.ticket_deck == (*deck, first[0], second[1])
    assert state.phase is Phase.TURN


def test_usa_6_returned_four_ticket_opening_keeps_offer_order():
    """USA-6: with the 4-ticket option, two returned tickets keep their offer order."""
    rs = Ruleset.build("usa", {"opening_tickets": 4})
    state = new_game(rs, 2, seed=12)
    deck = state.ticket_deck
    offer = state.offers[0]
    events = []
    state = apply(rs, state, KeepTickets(tickets=ids(rs, (offer[1], offer[3]))), events=events)
    assert state.ticket_deck == (*deck, offer[0], offer[2])
    kept = events_of(events, TicketsKept)[0]
    assert kept.returned == ids(rs, (offer[0], offer[2]))
    assert kept.returned_to == "bottom"


def test_ticket_5_opening_returns_removed_in_an_edition_that_says_so():
    """TICKET-5: an edition may take returned opening tickets out of the game."""
    rs = fixture_ruleset(opening_tickets={"deal": 3, "keep": 2, "returned": "removed"})
    state = new_game(rs, 2, seed=1)
    deck = state.ticket_deck
    state = apply(rs, state, KeepTickets(tickets=ids(rs, state.offers[0][:2])))
    assert state.ticket_deck == deck


# -- drawing tickets during play -----------------------------------------------------------


def test_ticket_1_draw_three_keep_at_least_one(fx):
    """TICKET-1: the top 3 tickets are drawn; the player keeps 1, 2 or 3 of them."""
    state = started(fx, 2, seed=6)
    top = state.ticket_deck[:3]
    after, drawn_ids = drawn(fx, state)
    assert after.pending_tickets == top
    assert after.ticket_deck == state.ticket_deck[3:]
    assert len(keep_options(fx, after)) == 7
    assert all(len(opt) >= 1 for opt in keep_options(fx, after))
    assert_illegal(fx, after, KeepTickets(tickets=()), "TICKET-1")
    for size in (1, 2, 3):
        done, _ = step(fx, after, KeepTickets(tickets=drawn_ids[:size]))
        assert done.players[0].tickets == state.players[0].tickets + top[:size]
        assert done.phase is Phase.TURN and done.current == 1


def test_ticket_1_bad_keep_choices(fx):
    """TICKET-1: unknown or repeated tickets are not a valid choice; keeping needs a draw."""
    state = started(fx, 2, seed=6)
    assert_illegal(fx, state, KeepTickets(tickets=(index_of(fx).ticket_ids[0],)), "TICKET-1")
    after, drawn_ids = drawn(fx, state)
    assert_illegal(fx, after, KeepTickets(tickets=(999,)), "TICKET-1")
    assert_illegal(fx, after, KeepTickets(tickets=(drawn_ids[0], drawn_ids[0])), "TICKET-1")


def test_ticket_2_only_drawn_tickets_can_be_returned(fx):
    """TICKET-2: a ticket held from before cannot be part of the choice (nor returned)."""
    state = started(fx, 2, seed=6)
    held = index_of(fx).ticket_ids[state.players[0].tickets[0]]
    after, drawn_ids = drawn(fx, state)
    assert_illegal(fx, after, KeepTickets(tickets=(held,)), "TICKET-2")
    assert_illegal(fx, after, KeepTickets(tickets=(drawn_ids[0], held)), "TICKET-2")
    in_deck = index_of(fx).ticket_ids[after.ticket_deck[0]]
    assert_illegal(fx, after, KeepTickets(tickets=(in_deck,)), "TICKET-2")
    done, _ = step(fx, after, KeepTickets(tickets=drawn_ids[:1]))
    assert set(state.players[0].tickets) <= set(done.players[0].tickets)


@pytest.mark.parametrize("left", [1, 2])
def test_ticket_3_short_ticket_deck(fx, left):
    """TICKET-3: with fewer than 3 tickets left the player draws them all, keeps >= 1."""
    state = started(fx, 2, seed=6)
    state = evolve(state, ticket_deck=state.ticket_deck[:left])
    after, drawn_ids = drawn(fx, state)
    assert len(drawn_ids) == left
    assert after.ticket_deck == ()
    assert len(keep_options(fx, after)) == 2**left - 1
    assert_illegal(fx, after, KeepTickets(tickets=()), "TICKET-1")
    done, _ = step(fx, after, KeepTickets(tickets=drawn_ids[:1]))
    assert done.ticket_deck == tuple(index_of(fx).ticket_index[t] for t in drawn_ids[1:])
    assert index_of(fx).ticket_ids[done.players[0].tickets[-1]] == drawn_ids[0]


def test_ticket_4_empty_ticket_deck(fx):
    """TICKET-4: with the ticket deck empty the ticket action is not available."""
    state = evolve(started(fx, 2, seed=6), ticket_deck=())
    assert DrawTickets() not in legal_actions(fx, state)
    assert DrawTickets() not in list(legal_actions(fx, state))
    assert_illegal(fx, state, DrawTickets(), "TICKET-4")


def test_ticket_5_usa_returned_tickets_under_deck_in_offer_order(fx, usa):
    """TICKET-5 / USA-6: tickets returned during play go under the deck in drawn order."""
    for rs in (fx, usa):
        state = started(rs, 2, seed=6)
        after, drawn_ids = drawn(rs, state)
        done, events = step(rs, after, KeepTickets(tickets=drawn_ids[1:2]))
        assert done.ticket_deck == (
            *after.ticket_deck,
            index_of(rs).ticket_index[drawn_ids[0]],
            index_of(rs).ticket_index[drawn_ids[2]],
        )
        kept = events_of(events, TicketsKept)[0]
        assert kept.kept == drawn_ids[1:2]
        assert kept.returned == (drawn_ids[0], drawn_ids[2])
        assert kept.returned_to == "bottom"


def test_ticket_5_returned_tickets_removed_where_the_edition_says_so():
    """TICKET-5: an edition may take tickets returned during play out of the game."""
    rs = fixture_ruleset(ticket_draw={"deal": 3, "keep": 1, "returned": "removed"})
    state = started(rs, 2, seed=6)
    after, drawn_ids = drawn(rs, state)
    done, events = step(rs, after, KeepTickets(tickets=drawn_ids[:1]))
    assert done.ticket_deck == after.ticket_deck
    assert events_of(events, TicketsKept)[0].returned_to == "removed"


def test_ticket_9_no_ticket_limit(fx):
    """TICKET-9: a player may hold any number of tickets and still draw more."""
    state = started(fx, 2, seed=6)
    count = len(state.players[0].tickets)
    while state.ticket_deck:
        state = evolve(state, current=0)
        after, drawn_ids = drawn(fx, state)
        state, _ = step(fx, after, KeepTickets(tickets=drawn_ids))
    assert len(state.players[0].tickets) == count + (16 - 6)
    assert len(state.players[0].tickets) == len(set(state.players[0].tickets))


# -- ticket scoring ------------------------------------------------------------------------

CHAIN_ROUTES = (
    ("A", "B", 1, "gray"),
    ("B", "C", 1, "gray"),
    ("C", "D", 1, "gray"),
    ("D", "E", 1, "gray"),
    ("E", "F", 1, "gray"),
    ("X", "Y", 1, "gray"),
)
CHAIN_TICKETS = (("A", "E", 9), ("E", "A", 4), ("A", "F", 11), ("A", "Y", 6), ("C", "F", 5))


@pytest.fixture(scope="module")
def chain():
    return fixture_ruleset(CHAIN_ROUTES, CHAIN_TICKETS)


def results(sheet, seat=0):
    return [(r.points, r.completed) for r in sheet.players[seat].tickets]


def test_ticket_6_completed_by_a_chain_in_any_direction(chain):
    """TICKET-6: the ticket's cities joined through any cities, in either direction."""
    sheet = score(chain, {"Red": (["D-E", "A-B", "C-D", "B-C"], ["A-E", "E-A"])})
    assert results(sheet) == [(9, True), (4, True)]


def test_ticket_6_other_players_routes_never_count(chain):
    """TICKET-6: a link owned by another player does not complete the ticket."""
    sheet = score(
        chain,
        {"Red": (["A-B", "C-D", "D-E"], ["A-E"]), "Blue": (["B-C"], ["C-F"])},
    )
    assert results(sheet, 0) == [(-9, False)]
    assert results(sheet, 1) == [(-5, False)]


def test_ticket_7_plus_when_done_minus_when_not(chain):
    """TICKET-7: each kept ticket scores its value if done and loses it if not."""
    sheet = score(chain, {"Red": (["A-B", "B-C", "C-D", "D-E"], ["A-E", "A-F", "A-Y"])})
    assert results(sheet) == [(9, True), (-11, False), (-6, False)]
    assert sheet.players[0].ticket_points == 9 - 11 - 6
    assert sheet.players[0].tickets_completed == 1
    assert all(r.points != 0 for r in sheet.players[0].tickets)


def test_ticket_7_no_routes_all_tickets_fail(chain):
    """TICKET-7: a player with tickets and no routes loses every ticket's value."""
    sheet = score(chain, {"Red": ([], ["A-E", "C-F"]), "Blue": (["X-Y"], [])})
    assert sheet.players[0].ticket_points == -14
    assert sheet.players[1].ticket_points == 0


def test_ticket_8_completion_shown_during_play_points_only_at_the_end(fx):
    """TICKET-8: keeping a ticket does not change the score track; the current
    completion can be shown during play and is counted only at final scoring."""
    game = Game.new(fx, players=2, seed=6)
    while game.state.phase is Phase.OPENING_TICKETS:
        game.apply(game.legal_actions()[0])
    assert [p.score for p in game.state.players] == [0, 0]
    target = ticket(fx, "A-D")
    state = with_player(game.state, 0, tickets=(target,), hand=cards("LLLLL"))
    game.state = state
    assert game.scores().players[0].tickets[0].completed is False
    game.apply(ClaimRoute(route=track_id(fx, "A-D"), cards=cards("LLLLL")))
    assert game.state.players[0].score == 10
    sheet = game.scores()
    assert sheet.players[0].tickets[0].completed is True
    assert sheet.players[0].ticket_points == 5
    assert game.state.players[0].score == 10
    assert not game.is_over


def test_ticket_8_keeping_tickets_does_not_score(fx):
    """TICKET-8: ticket points are never added to the score track during play."""
    state = started(fx, 2, seed=6)
    after, drawn_ids = drawn(fx, state)
    done, _ = step(fx, after, KeepTickets(tickets=drawn_ids))
    assert [p.score for p in done.players] == [0, 0]


def test_ticket_draw_is_a_whole_turn(fx):
    """TURN-1: drawing tickets is the turn's action; nothing else happens before keeping."""
    state = started(fx, 2, seed=6)
    after, _ = drawn(fx, state)
    legal = list(legal_actions(fx, after))
    assert legal and all(isinstance(a, KeepTickets) for a in legal)
    assert Pass() not in legal
    assert_illegal(fx, after, DrawTickets(), "TURN-1")
