"""Nordic Countries setup, tickets, double routes and the display, played through the
engine on the real map: NC-1, NC-4 to NC-8 and TICKET-4.

Games are driven with the public API (``new_game``, ``apply``, ``legal_actions``); card
piles and ticket decks are set with ``attrs.evolve`` where a test needs a given position.
Payments for ferries and Murmansk-Lieksa are tested with the engine, not here.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import Any

import pytest
from attrs import evolve

from ttr_core import Ruleset, SetupError
from ttr_core.model.actions import ClaimRoute, DrawBlind, DrawTickets, KeepTickets, TakeFaceUp
from ttr_core.model.cards import LOCO
from ttr_core.model.events import DisplayFlushed, Event, FaceUpTaken, TicketsDealt, TicketsKept
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply, new_game
from ttr_core.play.legal import legal_actions
from ttr_core.rules.index import index_of
from ttr_core.testing.invariants import card_totals
from ttr_core.testing.play import random_game_states
from ttr_core.testing.scenarios import (
    ScriptedChance,
    arrange,
    assert_illegal,
    card_list,
    cards,
    events_of,
    started,
    step,
    with_player,
)

R, Y, G, B, W = 0, 2, 3, 4, 7
L = LOCO
TICKETS = 46


@pytest.fixture(scope="module")
def nordic() -> Ruleset:
    return Ruleset.build("nordic")


def turn(rs: Ruleset, players: int = 2, seed: int = 7, **piles: Any) -> GameState:
    """Seat 0's first turn after every player kept all opening tickets, piles set as for
    ``arrange``."""
    return arrange(started(rs, players, seed=seed), **piles)


def real_track(rs: Ruleset, a: str, b: str, color: str) -> int:
    """Index of the real-map track of one colour between two cities."""
    (r,) = [
        r for r, t in enumerate(index_of(rs).routes) if set(t.cities) == {a, b} and t.color == color
    ]
    return r


def claim(rs: Ruleset, r: int, pay: str) -> ClaimRoute:
    return ClaimRoute(route=index_of(rs).route_ids[r], cards=cards(pay))


def ids(rs: Ruleset, tickets: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(index_of(rs).ticket_ids[t] for t in tickets)


# -- setup (NC-1, NC-4) ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3])
def test_nc_1_trains_cards_and_opening_deal(nordic: Ruleset, players: int) -> None:
    """NC-1 / NC-4: every player starts with 40 trains, no station, 4 train cards and an
    offer of 5 different tickets; the ticket deck holds the other 46 - 5n."""
    for seed in range(3):
        state = new_game(nordic, players, seed=seed, start_player=seed % players)
        assert state.phase is Phase.OPENING_TICKETS
        for p in state.players:
            assert (p.trains, p.stations, p.score, p.tickets) == (40, 0, 0, ())
            assert sum(p.hand) == 4
        assert [len(offer) for offer in state.offers] == [5] * players
        offered = [t for offer in state.offers for t in offer]
        assert len(set(offered)) == 5 * players
        assert len(state.ticket_deck) == TICKETS - 5 * players
        assert sorted([*offered, *state.ticket_deck]) == list(range(TICKETS))
        assert card_totals(state) == index_of(nordic).deck_counts


def test_nc_1_no_more_than_three_players(nordic: Ruleset) -> None:
    """NC-1: a game needs 2 or 3 players."""
    for players in (1, 4):
        with pytest.raises(SetupError, match="nordic is played by 2 to 3 players"):
            new_game(nordic, players, seed=1)


def test_nc_4_keep_at_least_two_of_five(nordic: Ruleset) -> None:
    """NC-4: 26 ways to keep 2, 3, 4 or all 5 opening tickets; 1 or 0 is too few."""
    state = new_game(nordic, 2, seed=1)
    offer = ids(nordic, state.offers[0])
    legal = list(legal_actions(nordic, state))
    assert len(legal) == 10 + 10 + 5 + 1
    assert all(isinstance(a, KeepTickets) for a in legal)
    assert Counter(len(a.tickets) for a in legal if isinstance(a, KeepTickets)) == {
        2: 10,
        3: 10,
        4: 5,
        5: 1,
    }
    for keep in combinations(offer, 2):
        assert KeepTickets(tickets=keep) in legal
    for keep in ((offer[0],), ()):
        assert_illegal(nordic, state, KeepTickets(tickets=keep), "SETUP-5")


# -- returned tickets leave the game (NC-5, TICKET-4) --------------------------------------


def keep_two_each(
    rs: Ruleset, state: GameState, events: list[Event] | None = None
) -> tuple[GameState, set[int]]:
    """Every player keeps the first and the last ticket of the offer; return the state of
    the first turn and the returned ticket indices."""
    returned: set[int] = set()
    while state.phase is Phase.OPENING_TICKETS:
        offer = state.offers[state.current]
        keep = (offer[0], offer[-1])
        returned |= set(offer) - set(keep)
        state = apply(rs, state, KeepTickets(tickets=ids(rs, keep)), events=events)
    return state, returned


@pytest.mark.parametrize("players", [2, 3])
def test_nc_5_returned_opening_tickets_leave_the_game(nordic: Ruleset, players: int) -> None:
    """NC-5: the 3 tickets each player returns from the opening deal are removed: the
    ticket deck does not grow and holds none of them."""
    state = new_game(nordic, players, seed=4)
    deck_before = state.ticket_deck
    events: list[Event] = []
    state, returned = keep_two_each(nordic, state, events)
    assert len(returned) == 3 * players
    assert state.ticket_deck == deck_before
    assert returned.isdisjoint(state.ticket_deck)
    kept = events_of(events, TicketsKept)
    assert [e.returned_to for e in kept] == ["removed"] * players
    assert [len(e.returned) for e in kept] == [3] * players
    assert state.phase is Phase.TURN


def test_nc_5_returned_drawn_tickets_leave_the_game(nordic: Ruleset) -> None:
    """NC-5: a ticket draw deals the top 3; the 2 not kept are removed, not put under the
    deck."""
    state = turn(nordic)
    top, rest = state.ticket_deck[:3], state.ticket_deck[3:]
    state, events = step(nordic, state, DrawTickets())
    assert events_of(events, TicketsDealt) == [TicketsDealt(player=0, tickets=ids(nordic, top))]
    assert state.phase is Phase.KEEP_TICKETS
    assert state.pending_tickets == top
    assert_illegal(nordic, state, KeepTickets(tickets=()), "TICKET-1")
    held = state.players[0].tickets
    state, events = step(nordic, state, KeepTickets(tickets=ids(nordic, top[1:2])))
    (kept,) = events_of(events, TicketsKept)
    assert (kept.kept, kept.returned) == (ids(nordic, top[1:2]), ids(nordic, (top[0], top[2])))
    assert kept.returned_to == "removed"
    assert state.ticket_deck == rest
    assert state.players[0].tickets == (*held, top[1])
    assert state.phase is Phase.TURN and state.current == 1


@pytest.mark.parametrize("players", [2, 3])
def test_nc_5_ticket_4_deck_runs_dry(nordic: Ruleset, players: int) -> None:
    """NC-5 / TICKET-4: drawing tickets at every turn and keeping one at a time, no
    returned ticket ever comes back; the deck shrinks by 3 per draw until it is used up,
    and then the ticket draw is neither listed nor allowed."""
    state, removed = keep_two_each(nordic, new_game(nordic, players, seed=8))
    assert removed.isdisjoint(state.ticket_deck)
    draws = 0
    while state.ticket_deck:
        assert DrawTickets() in legal_actions(nordic, state)
        size = len(state.ticket_deck)
        state = apply(nordic, state, DrawTickets())
        draws += 1
        dealt = state.pending_tickets
        assert len(dealt) == min(3, size)
        assert len(state.ticket_deck) == size - len(dealt)
        assert removed.isdisjoint(dealt)
        removed |= set(dealt[1:])
        state = apply(nordic, state, KeepTickets(tickets=ids(nordic, dealt[:1])))
        for p in state.players:
            assert removed.isdisjoint(p.tickets)
    start = TICKETS - 5 * players
    assert draws == (start + 2) // 3
    assert state.phase is Phase.TURN
    held = [t for p in state.players for t in p.tickets]
    assert len(held) == 2 * players + draws
    assert sorted([*held, *removed]) == list(range(TICKETS))
    assert DrawTickets() not in legal_actions(nordic, state)
    assert DrawTickets() not in list(legal_actions(nordic, state))
    assert_illegal(nordic, state, DrawTickets(), "TICKET-4")


@pytest.mark.parametrize("left", [2, 1])
def test_ticket_4_short_deck_deals_what_is_left(nordic: Ruleset, left: int) -> None:
    """TICKET-4: with fewer than 3 tickets left the draw deals those; one must be kept,
    and the deck is then empty."""
    state = turn(nordic)
    state = evolve(state, ticket_deck=state.ticket_deck[:left])
    top = state.ticket_deck
    state, _ = step(nordic, state, DrawTickets())
    assert state.pending_tickets == top
    keeps = [a for a in legal_actions(nordic, state) if isinstance(a, KeepTickets)]
    assert {len(a.tickets) for a in keeps} == set(range(1, left + 1))
    state, _ = step(nordic, state, KeepTickets(tickets=ids(nordic, top[:1])))
    assert state.ticket_deck == ()
    assert DrawTickets() not in legal_actions(nordic, state)


# -- double routes (NC-6) ----------------------------------------------------------------------


def boden_kiruna(rs: Ruleset) -> tuple[int, int]:
    return real_track(rs, "Boden", "Kiruna", "black"), real_track(rs, "Boden", "Kiruna", "orange")


def test_nc_6_two_players_first_claim_closes_the_double(nordic: Ruleset) -> None:
    """NC-6 / DOUBLE-2: with 2 players, claiming the black Boden-Kiruna track closes the
    orange one."""
    black, orange = boden_kiruna(nordic)
    state = with_player(turn(nordic, 2), 0, hand=cards("KKKOOO"))
    state, _ = step(nordic, state, claim(nordic, black, "KKK"))
    assert state.owners[black] == 0
    state = with_player(state, 1, hand=cards("OOO"))
    assert_illegal(nordic, state, claim(nordic, orange, "OOO"), "DOUBLE-2")


def test_nc_6_three_players_both_tracks_open(nordic: Ruleset) -> None:
    """NC-6 / DOUBLE-1: with 3 players another player takes the orange track; the owner
    of the black one never may."""
    black, orange = boden_kiruna(nordic)
    state = with_player(turn(nordic, 3), 0, hand=cards("KKKOOO"))
    state, _ = step(nordic, state, claim(nordic, black, "KKK"))
    again = with_player(evolve(state, current=0), 0, hand=cards("OOO"))
    assert_illegal(nordic, again, claim(nordic, orange, "OOO"), "DOUBLE-1")
    state = with_player(state, 1, hand=cards("OOO"))
    state, _ = step(nordic, state, claim(nordic, orange, "OOO"))
    assert (state.owners[black], state.owners[orange]) == (0, 1)
    assert (state.players[0].score, state.players[1].score) == (4, 4)


def kristiansand_stavanger(rs: Ruleset) -> tuple[int, int]:
    """The uneven pair: a green 2-space tunnel and an orange 3-space ferry with 1 symbol."""
    tunnel = real_track(rs, "Kristiansand", "Stavanger", "green")
    ferry = real_track(rs, "Kristiansand", "Stavanger", "orange")
    assert (index_of(rs).route_len[tunnel], index_of(rs).route_tunnel[tunnel]) == (2, True)
    assert (index_of(rs).route_len[ferry], index_of(rs).route_ferry[ferry]) == (3, 1)
    return tunnel, ferry


def claim_green_tunnel(rs: Ruleset, state: GameState, tunnel: int) -> GameState:
    """Seat 0 claims the green tunnel with G G; the reveal (R B W) costs nothing extra."""
    state = arrange(with_player(state, 0, hand=cards("GG")), deck=card_list("RBWRBW"))
    state, _ = step(rs, state, claim(rs, tunnel, "GG"))
    assert state.owners[tunnel] == 0
    assert state.phase is Phase.TURN and state.current == 1
    return state


def test_nc_6_uneven_double_closed_with_two_players(nordic: Ruleset) -> None:
    """NC-6 / DOUBLE-2: claiming the Kristiansand-Stavanger tunnel closes the ferry of
    the other length and type when 2 play."""
    tunnel, ferry = kristiansand_stavanger(nordic)
    state = claim_green_tunnel(nordic, turn(nordic, 2), tunnel)
    state = with_player(state, 1, hand=cards("OOOL"))
    assert_illegal(nordic, state, claim(nordic, ferry, "OOL"), "DOUBLE-2")
    assert not any(
        isinstance(a, ClaimRoute) and a.route == index_of(nordic).route_ids[ferry]
        for a in legal_actions(nordic, state)
    )


def test_nc_6_uneven_double_open_with_three_players(nordic: Ruleset) -> None:
    """NC-6: with 3 players the ferry stays open after the tunnel is claimed, and another
    player claims it."""
    tunnel, ferry = kristiansand_stavanger(nordic)
    state = claim_green_tunnel(nordic, turn(nordic, 3), tunnel)
    state = with_player(state, 1, hand=cards("OOOL"))
    state, _ = step(nordic, state, claim(nordic, ferry, "OOL"))
    assert (state.owners[tunnel], state.owners[ferry]) == (0, 1)
    assert state.players[1].score == 4
    assert state.players[1].trains == 40 - 3


# -- the display (NC-7, NC-8) ------------------------------------------------------------------


def test_nc_7_face_up_locomotive_does_not_end_the_draw(nordic: Ruleset) -> None:
    """NC-7: taking a face-up locomotive first leaves a second card to draw, and that may
    be the second face-up locomotive."""
    state = turn(nordic, display=[L, L, R, G, B], deck=[W, W, W, W])
    before = state.players[0].hand
    assert TakeFaceUp(card=L) in legal_actions(nordic, state)
    state, events = step(nordic, state, TakeFaceUp(card=L))
    assert events_of(events, FaceUpTaken) == [FaceUpTaken(player=0, slot=0, card=L)]
    assert state.phase is Phase.SECOND_CARD and state.current == 0
    assert state.display == (W, L, R, G, B)
    legal = list(legal_actions(nordic, state))
    assert TakeFaceUp(card=L) in legal and DrawBlind() in legal
    state, _ = step(nordic, state, TakeFaceUp(card=L))
    assert state.phase is Phase.TURN and state.current == 1
    gained = [a - b for a, b in zip(state.players[0].hand, before, strict=True)]
    assert gained == list(cards("LL"))


def test_nc_7_face_up_locomotive_as_the_second_card(nordic: Ruleset) -> None:
    """NC-7: a face-up locomotive may be the second card after a coloured one or a blind
    draw."""
    for first in (TakeFaceUp(card=R), DrawBlind()):
        state = turn(nordic, display=[R, L, G, B, Y], deck=[W, W, W, W])
        before = state.players[0].hand
        state, _ = step(nordic, state, first)
        assert state.phase is Phase.SECOND_CARD
        state, _ = step(nordic, state, TakeFaceUp(card=L))
        assert state.phase is Phase.TURN and state.current == 1
        gained = [a - b for a, b in zip(state.players[0].hand, before, strict=True)]
        assert gained[L] == 1 and sum(gained) == 2


def test_nc_8_no_flush_during_play(nordic: Ruleset) -> None:
    """NC-8: refills that show 3, then 4 locomotives flush nothing."""
    state = turn(nordic, display=[L, L, R, G, B], deck=[L, L, W, W])
    state, events = step(nordic, state, TakeFaceUp(card=R))
    assert state.display == (L, L, L, G, B)
    state, more = step(nordic, state, TakeFaceUp(card=G))
    assert state.display == (L, L, L, L, B)
    assert events_of([*events, *more], DisplayFlushed) == []
    assert state.discard == cards("")


def test_nc_8_no_flush_at_setup(nordic: Ruleset) -> None:
    """NC-8: a first display of 5 locomotives stays as it is."""
    top = card_list("RRRRBBBB" + "LLLLL")
    events: list[Event] = []
    state = new_game(nordic, 2, chance=ScriptedChance(train=top), events=events)
    assert state.display == (L, L, L, L, L)
    assert events_of(events, DisplayFlushed) == []
    assert state.discard == cards("")
    assert card_totals(state) == index_of(nordic).deck_counts


def test_nc_8_random_games_never_flush(nordic: Ruleset) -> None:
    """NC-8: whole random games never flush the display, although it shows 3 or more
    locomotives at times."""
    most = 0
    for seed in range(6):
        states, _, logs = random_game_states(nordic, 2 + seed % 2, seed, seed)
        assert all(not isinstance(e, DisplayFlushed) for log in logs for e in log)
        most = max(most, *(s.display.count(L) for s in states))
    assert most >= 3
