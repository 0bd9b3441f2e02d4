"""The Europe rules (EU-n, TUNNEL-n, FERRY-n, STATION-n) played through the engine, the
scoring, the views, ``ttr score`` and random games, on the real map and on letter boards."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from attrs import evolve
from test_europe_examples import (
    Holdings,
    Route,
    europe_fixture,
    europe_position,
    europe_score,
)

from ttr_core import Ruleset
from ttr_core.cli import main
from ttr_core.formats.position import parse_position, position_to_json
from ttr_core.model.actions import (
    BuildStation,
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    PayTunnel,
    TakeFaceUp,
    WithdrawTunnel,
)
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.events import FinalRoundStarted, TicketsKept, TunnelRevealed
from ttr_core.model.state import GameState, Phase
from ttr_core.play.functional import apply, new_game
from ttr_core.play.game import Game
from ttr_core.play.legal import legal_actions
from ttr_core.rules.index import index_of
from ttr_core.rules.payments import payment_error
from ttr_core.rules.scoring import position_of, score_game, score_position, scoresheet_json
from ttr_core.rules.stations import station_payment_error
from ttr_core.rules.views import redact, view_of
from ttr_core.testing.invariants import card_totals
from ttr_core.testing.play import play_random, random_game_states
from ttr_core.testing.scenarios import (
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

R, ORANGE, Y, G, B, P, K, W, L = range(9)


@pytest.fixture(scope="module")
def europe() -> Ruleset:
    return Ruleset.build("europe")


def real_track(rs: Ruleset, a: str, b: str, color: str | None = None) -> int:
    """Index of the real-map track between two cities (of a colour, for a double; the
    first of two interchangeable tracks)."""
    found = [
        r
        for r, t in enumerate(index_of(rs).routes)
        if set(t.cities) == {a, b} and (color is None or t.color == color)
    ]
    assert found and (len(found) == 1 or color is None), found
    return found[0]


def claim_of(rs: Ruleset, r: int, pay: str) -> ClaimRoute:
    return ClaimRoute(route=index_of(rs).route_ids[r], cards=cards(pay))


def turn(rs: Ruleset, players: int = 2, seed: int = 7, **piles: Any) -> GameState:
    """Seat 0's first turn after the opening, with piles set as for ``arrange``."""
    return arrange(started(rs, players, seed=seed), **piles)


def is_long(rs: Ruleset, t: int) -> bool:
    return index_of(rs).tickets[t].kind == "long"


# -- opening deal and ticket draws ----------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_eu_5_each_player_is_offered_one_long_and_three_regular(
    europe: Ruleset, players: int
) -> None:
    """EU-5: every player is offered exactly 1 long and 3 regular tickets, all different;
    the ticket deck holds only the regular tickets left; the other long tickets are gone."""
    for seed in range(4):
        state = new_game(europe, players, seed=seed, start_player=seed % players)
        offered = [t for offer in state.offers for t in offer]
        assert len(offered) == len(set(offered)) == 4 * players
        for offer in state.offers:
            assert len(offer) == 4
            assert sum(is_long(europe, t) for t in offer) == 1
        assert not any(is_long(europe, t) for t in state.ticket_deck)
        assert len(state.ticket_deck) == 40 - 3 * players
        assert set(state.ticket_deck).isdisjoint(offered)
        assert sorted([*state.ticket_deck, *offered]) == sorted(
            [*index_of(europe).regular_tickets, *(t for t in offered if is_long(europe, t))]
        )


def test_eu_6_keep_at_least_two_in_any_mix(europe: Ruleset) -> None:
    """EU-6: 11 ways to keep 2, 3 or 4 of the 4; long and regular mix freely; 1 is too few."""
    state = new_game(europe, 2, seed=1)
    offer = [index_of(europe).ticket_ids[t] for t in state.offers[0]]
    legal = list(legal_actions(europe, state))
    assert len(legal) == 1 + 4 + 6
    assert {len(a.tickets) for a in legal if isinstance(a, KeepTickets)} == {2, 3, 4}
    long_id, *regular = offer
    for keep in ((long_id, regular[0]), (regular[1], regular[2]), tuple(offer)):
        assert KeepTickets(tickets=keep) in legal
        apply(europe, state, KeepTickets(tickets=keep))
    for keep in ((long_id,), (regular[0],), ()):
        assert_illegal(europe, state, KeepTickets(tickets=keep), "SETUP-5")


def test_eu_7_returned_opening_tickets_leave_the_game(europe: Ruleset) -> None:
    """EU-7: opening tickets not kept, long or regular, are removed: they never come back
    into the ticket deck, even in a whole game of ticket draws."""
    events: list[Any] = []
    state = new_game(europe, 3, seed=11)
    returned: set[int] = set()
    while state.phase is Phase.OPENING_TICKETS:
        offer = state.offers[state.current]
        keep = (offer[0], offer[2]) if state.current != 1 else offer[1:3]
        returned |= set(offer) - set(keep)
        state = apply(
            europe,
            state,
            KeepTickets(tickets=tuple(index_of(europe).ticket_ids[t] for t in keep)),
            events=events,
        )
    assert len(returned) == 6
    assert any(is_long(europe, t) for t in returned)
    assert {e.returned_to for e in events_of(events, TicketsKept)} == {"removed"}
    assert returned.isdisjoint(state.ticket_deck)
    # Draw tickets whenever possible until the deck is exhausted.
    chooser = random.Random(5)
    while not state.is_over:
        legal = legal_actions(europe, state)
        if DrawTickets() in legal:
            action: Any = DrawTickets()
        else:
            action = legal[chooser.randrange(len(legal))]
        state = apply(europe, state, action)
        assert returned.isdisjoint(state.ticket_deck)
        assert returned.isdisjoint(state.pending_tickets)
        for p in state.players:
            assert returned.isdisjoint(p.tickets)
        if not state.ticket_deck:
            break
    assert not state.ticket_deck


def test_eu_8_draws_come_from_the_regular_pile(europe: Ruleset) -> None:
    """EU-8: a ticket draw deals the top 3 regular tickets; long ones are never drawn."""
    state = turn(europe)
    top = state.ticket_deck[:3]
    state, _ = step(europe, state, DrawTickets())
    assert state.phase is Phase.KEEP_TICKETS
    assert state.pending_tickets == top
    assert not any(is_long(europe, t) for t in top)
    for seed in range(3):
        states, _, _ = random_game_states(europe, 4, seed, seed)
        for s in states:
            assert not any(is_long(europe, t) for t in s.pending_tickets)
            assert not any(is_long(europe, t) for t in s.ticket_deck)


def test_eu_9_in_game_returns_go_under_the_deck(europe: Ruleset) -> None:
    """EU-9: tickets returned during play go to the bottom of the regular pile."""
    state, _ = step(europe, turn(europe), DrawTickets())
    a, b, c = state.pending_tickets
    rest = state.ticket_deck
    ids = index_of(europe).ticket_ids
    assert_illegal(europe, state, KeepTickets(tickets=()), "TICKET-1")
    state, events = step(europe, state, KeepTickets(tickets=(ids[b],)))
    assert state.ticket_deck == (*rest, a, c)
    assert events_of(events, TicketsKept)[0].returned_to == "bottom"
    assert b in state.players[0].tickets


# -- route points, cards, double routes, the station action -------------------------------


def test_eu_10_points_of_the_longest_tracks(europe: Ruleset) -> None:
    """EU-10 / TUNNEL-11: Petrograd-Stockholm (8) scores 21, Budapest-Kyiv (6) 15."""
    for (a, b), points in ((("Petrograd", "Stockholm"), 21), (("Budapest", "Kyiv"), 15)):
        r = real_track(europe, a, b)
        length = index_of(europe).route_len[r]
        state = turn(europe, deck=[W, W, W, W, W], discard=cards(""))
        state = with_player(state, 0, hand=cards(pink=length))
        state, _ = step(europe, state, claim_of(europe, r, "P" * length))
        assert state.owners[r] == 0
        assert state.players[0].score == points
        assert state.players[0].trains == 45 - length


def test_eu_11_face_up_locomotive_is_the_whole_draw(europe: Ruleset) -> None:
    """EU-11: taking a face-up locomotive ends the draw; it cannot be a second card."""
    state = turn(europe, display=[L, R, G, B, W])
    state, _ = step(europe, state, TakeFaceUp(card=L))
    assert state.phase is Phase.TURN and state.current == 1
    state = turn(europe, display=[R, L, G, B, W])
    state, _ = step(europe, state, TakeFaceUp(card=R))
    assert state.phase is Phase.SECOND_CARD
    assert_illegal(europe, state, TakeFaceUp(card=L), "DRAW-5")


@pytest.mark.parametrize("players", [2, 3])
def test_eu_12_first_claim_closes_the_double_route(europe: Ruleset, players: int) -> None:
    """EU-12: with 2 or 3 players, claiming one track of Bruxelles-Paris closes the other."""
    red, yellow = (real_track(europe, "Bruxelles", "Paris", c) for c in ("red", "yellow"))
    state = with_player(turn(europe, players), 0, hand=cards("RRYY"))
    state, _ = step(europe, state, claim_of(europe, red, "RR"))
    state = with_player(state, 1, hand=cards("YY"))
    assert_illegal(europe, state, claim_of(europe, yellow, "YY"), "DOUBLE-2")


@pytest.mark.parametrize("players", [4, 5])
def test_eu_12_both_tracks_from_four_players(europe: Ruleset, players: int) -> None:
    """EU-12 / DOUBLE-1: with 4 or 5 players another player may take the second track;
    the same player never may."""
    red, yellow = (real_track(europe, "Bruxelles", "Paris", c) for c in ("red", "yellow"))
    state = with_player(turn(europe, players), 0, hand=cards("RRYY"))
    state, _ = step(europe, state, claim_of(europe, red, "RR"))
    again = with_player(evolve(state, current=0), 0, hand=cards("YY"))
    assert_illegal(europe, again, claim_of(europe, yellow, "YY"), "DOUBLE-1")
    state = with_player(state, 1, hand=cards("YY"))
    state, _ = step(europe, state, claim_of(europe, yellow, "YY"))
    assert (state.owners[red], state.owners[yellow]) == (0, 1)


def test_eu_12_withdrawn_tunnel_leaves_the_double_open(europe: Ruleset) -> None:
    """EU-12 / TUNNEL-7: a withdrawn claim of Madrid-Pamplona closes nothing; a paid one
    closes the other track at 2 players."""
    black, white = (real_track(europe, "Madrid", "Pamplona", c) for c in ("black", "white"))
    state = with_player(turn(europe, deck=[K, K, R, R, R, R]), 0, hand=cards("KKK"))
    state, _ = step(europe, state, claim_of(europe, black, "KKK"))
    state, _ = step(europe, state, WithdrawTunnel())
    assert black in state.free[index_of(europe).class_of[black]]
    assert white in state.free[index_of(europe).class_of[white]]
    state = with_player(turn(europe, deck=[K, R, R, R]), 0, hand=cards("KKKKL"))
    state, _ = step(europe, state, claim_of(europe, black, "KKK"))
    state, _ = step(europe, state, PayTunnel(cards=cards("K")))
    assert state.owners[black] == 0
    assert white not in state.free[index_of(europe).class_of[white]]
    state = with_player(state, 1, hand=cards("WWW"))
    assert_illegal(europe, state, claim_of(europe, white, "WWW"), "DOUBLE-2")


def test_eu_13_station_is_a_turn_action(europe: Ruleset) -> None:
    """EU-13 / STATION-1: building a station is listed as a turn's action and ends the
    turn; it is not a second card's action."""
    state = with_player(turn(europe), 0, hand=cards("R"))
    legal = list(legal_actions(europe, state))
    stations = [a for a in legal if isinstance(a, BuildStation)]
    assert len(stations) == 47
    state, _ = step(europe, state, BuildStation(city="Wien", cards=cards("R")))
    assert state.phase is Phase.TURN and state.current == 1
    state = with_player(turn(europe, display=[W, W, W, W, W]), 0, hand=cards("RR"))
    state, _ = step(europe, state, TakeFaceUp(card=W))
    assert_illegal(europe, state, BuildStation(city="Wien", cards=cards("R")), "TURN-1")


# -- tunnels --------------------------------------------------------------------------------

TUNNEL_ROUTES: tuple[Route, ...] = (
    ("A", "B", 3, "green", "tunnel"),
    ("C", "D", 2, "gray", "tunnel"),
    ("A", "C", 4, "gray", "tunnel"),
    ("B", "D", 2, "red"),
)
TUNNEL_TICKETS = (("A", "D", 5), ("B", "C", 5), ("A", "B", 4), ("C", "D", 4), ("A", "C", 5))
TUNNEL_LONG = (("A", "D", 20), ("B", "C", 20), ("C", "A", 21))


@pytest.fixture(scope="module")
def tun() -> Ruleset:
    return europe_fixture(TUNNEL_ROUTES, TUNNEL_TICKETS, TUNNEL_LONG)


def tunnel_claim(
    rs: Ruleset, spec: str, hand: str, pay: str, deck: list[int], discard: str = ""
) -> tuple[GameState, list[Any]]:
    state = with_player(turn(rs, deck=deck, discard=cards(discard)), 0, hand=cards(hand))
    return step(rs, state, ClaimRoute(route=track_id(rs, spec), cards=cards(pay)))


def test_tunnel_2_the_laid_set_follows_the_claiming_rules(europe: Ruleset) -> None:
    """TUNNEL-2: the laid set must pay for the tunnel as an ordinary claim would."""
    r = real_track(europe, "München", "Venezia")
    assert index_of(europe).route_tunnel[r] and index_of(europe).routes[r].color == "blue"
    state = with_player(turn(europe), 0, hand=cards("RRBL"))
    assert_illegal(europe, state, claim_of(europe, r, "RR"), "CLAIM-2")
    assert_illegal(europe, state, claim_of(europe, r, "BB"), "CLAIM-1")
    assert_illegal(europe, state, claim_of(europe, r, "B"), "CLAIM-1")
    assert_illegal(europe, state, claim_of(europe, r, "RB"), "CLAIM-4")
    assert claim_of(europe, r, "BL") in legal_actions(europe, state)


def test_tunnel_3_three_cards_whatever_the_length(europe: Ruleset) -> None:
    """TUNNEL-3: 3 cards are turned over for a 2-space and for the 8-space tunnel."""
    for a, b in (("Sarajevo", "Sofia"), ("Petrograd", "Stockholm")):
        r = real_track(europe, a, b)
        n = index_of(europe).route_len[r]
        state = with_player(turn(europe, deck=[R, ORANGE, Y, W]), 0, hand=cards(black=n))
        state, events = step(europe, state, claim_of(europe, r, "K" * n))
        assert events_of(events, TunnelRevealed)[0].cards == (R, ORANGE, Y)
        assert state.deck[state.deck_pos :] == (W,)


@pytest.mark.parametrize(
    ("pay", "reveal", "extra"),
    [
        ("GGG", (R, B, W), 0),
        ("GGG", (G, R, R), 1),
        ("GGG", (L, R, R), 1),
        ("GGL", (G, L, G), 3),
        ("GLL", (L, L, L), 3),
        ("LLL", (G, G, G), 0),
        ("LLL", (L, G, L), 2),
    ],
)
def test_tunnel_4_and_5_matching_cards(
    tun: Ruleset, pay: str, reveal: tuple[int, ...], extra: int
) -> None:
    """TUNNEL-4 / TUNNEL-5: cards of the set's colour and locomotives match; after an
    all-locomotive set only locomotives do."""
    state, events = tunnel_claim(tun, "A-B", "GGGLLLLL", pay, [*reveal, W, W])
    shown = events_of(events, TunnelRevealed)[0]
    assert (shown.cards, shown.extra) == (reveal, extra)
    if extra:
        assert state.tunnel is not None and state.tunnel.extra == extra
        assert state.phase is Phase.TUNNEL
    else:
        assert state.owners[track(tun, "A-B")] == 0


def test_tunnel_4_gray_tunnel_matches_the_colour_laid(tun: Ruleset) -> None:
    """TUNNEL-4: on a gray tunnel the colour of the laid cards is the one that matches."""
    state, events = tunnel_claim(tun, "A-C", "BBBBL", "BBBL", [B, G, L, W])
    assert events_of(events, TunnelRevealed)[0].extra == 2
    assert state.tunnel is not None and state.tunnel.color == B


def pay_options(state: GameState) -> set[tuple[int, ...]]:
    """Every nine-count payment TUNNEL-6 allows, by brute force: exactly the extra
    cards, of the colour laid or locomotives, held besides the cards laid down."""
    t = state.tunnel
    assert t is not None
    hand = state.players[state.current].hand
    out = set()
    for combo in itertools.combinations_with_replacement(range(NUM_KINDS), t.extra):
        counts = tuple(combo.count(k) for k in range(NUM_KINDS))
        if any(counts[k] for k in range(NUM_KINDS) if k not in (t.color, LOCO)):
            continue
        if all(t.paid[k] + counts[k] <= hand[k] for k in range(NUM_KINDS)):
            out.add(counts)
    return out


@pytest.mark.parametrize(
    ("hand", "pay", "reveal"),
    [
        ("GGGGGLLL", "GGG", (G, G, L)),
        ("GGGGLL", "GGL", (G, L, R)),
        ("GGGLLL", "GGG", (G, L, L)),
        ("GGGGG", "GGG", (G, B, B)),
        ("GGGRRR", "GGG", (G, G, B)),
        ("LLLLLLG", "LLL", (L, L, G)),
        ("LLLGGG", "LLL", (L, G, G)),
        ("GGLLLLLL", "GGL", (L, L, L)),
    ],
)
def test_tunnel_6_every_way_to_pay_is_listed_with_withdraw(
    tun: Ruleset, hand: str, pay: str, reveal: tuple[int, ...]
) -> None:
    """TUNNEL-6 / TUNNEL-7: the pending decision lists exactly every distinct way to pay
    the extra cards, then withdrawing, which is always offered; each one applies."""
    state, _ = tunnel_claim(tun, "A-B", hand, pay, [*reveal, W, W, W])
    assert state.phase is Phase.TUNNEL
    legal = list(legal_actions(tun, state))
    assert legal[-1] == WithdrawTunnel()
    payments = [a for a in legal if isinstance(a, PayTunnel)]
    assert len(legal) == len(payments) + 1
    assert len({a.cards for a in payments}) == len(payments)
    assert {a.cards for a in payments} == pay_options(state)
    for action in legal:
        after = apply(tun, state, action)
        assert after.phase is Phase.TURN and after.current == 1
        assert after.tunnel is None


def test_tunnel_6_extra_cards_must_fit_the_set(tun: Ruleset) -> None:
    """TUNNEL-6: the extra cards are of the set's colour or locomotives, exactly as many as
    demanded, and in hand besides the laid cards."""
    state, _ = tunnel_claim(tun, "A-B", "GGGGLRR", "GGG", [G, R, R, W])
    assert state.tunnel is not None and state.tunnel.extra == 1
    assert_illegal(tun, state, PayTunnel(cards=cards("R")), "TUNNEL-6")
    assert_illegal(tun, state, PayTunnel(cards=cards("GL")), "TUNNEL-6")
    assert_illegal(tun, state, PayTunnel(cards=cards("")), "TUNNEL-6")
    state, _ = tunnel_claim(tun, "A-B", "GGGRR", "GGG", [G, R, R, W])
    assert_illegal(tun, state, PayTunnel(cards=cards("G")), "TUNNEL-6")
    assert list(legal_actions(tun, state)) == [WithdrawTunnel()]


def test_tunnel_pending_decision_allows_nothing_else(tun: Ruleset) -> None:
    """TUNNEL-6 / TUNNEL-7: while the extra cost is pending, only paying or withdrawing is
    possible."""
    state, _ = tunnel_claim(tun, "A-B", "GGGGLRR", "GGG", [G, R, R, W])
    for action in (
        DrawBlind(),
        DrawTickets(),
        ClaimRoute(route=track_id(tun, "B-D"), cards=cards("RR")),
    ):
        assert_illegal(tun, state, action, "TURN-1")
    assert_illegal(tun, state, BuildStation(city="A", cards=cards("R")), "TURN-1")


def test_tunnel_7_withdrawing_returns_the_cards_and_ends_the_turn(tun: Ruleset) -> None:
    """TUNNEL-7 / TUNNEL-8: after withdrawing the hand is as before, no train is placed, the
    revealed cards are discarded, and the next player is to play."""
    state, _ = tunnel_claim(tun, "A-B", "GGGGLRR", "GGG", [G, R, R, W], discard="KK")
    before = state.players[0]
    state, _ = step(tun, state, WithdrawTunnel())
    assert state.players[0].hand == cards("GGGGLRR")
    assert state.players[0].trains == before.trains and state.players[0].score == 0
    assert state.owners[track(tun, "A-B")] == -1
    assert state.discard == cards("KKGRR")
    assert (state.phase, state.current, state.tunnel) == (Phase.TURN, 1, None)


def test_tunnel_7_others_cannot_tell_whether_the_player_could_pay(tun: Ruleset) -> None:
    """TUNNEL-7: with the same reveal, a player able to pay and one unable to pay look the
    same to the other player, before and after withdrawing."""
    able, events_able = tunnel_claim(tun, "A-B", "GGGLLRR", "GGG", [G, G, B, W])
    unable, events_unable = tunnel_claim(tun, "A-B", "GGGKKRR", "GGG", [G, G, B, W])
    assert PayTunnel(cards=cards("LL")) in legal_actions(tun, able)
    assert list(legal_actions(tun, unable)) == [WithdrawTunnel()]
    assert view_of(tun, able, 1) == view_of(tun, unable, 1)
    assert [redact(e, 1) for e in events_able] == [redact(e, 1) for e in events_unable]
    able_events: list[Any] = []
    unable_events: list[Any] = []
    able = apply(tun, able, WithdrawTunnel(), events=able_events)
    unable = apply(tun, unable, WithdrawTunnel(), events=unable_events)
    assert view_of(tun, able, 1) == view_of(tun, unable, 1)
    assert [redact(e, 1) for e in able_events] == [redact(e, 1) for e in unable_events]


def test_tunnel_views_show_the_reveal_not_the_hand(tun: Ruleset) -> None:
    """TUNNEL-3: while the tunnel is pending, every view shows the track, the laid set, the
    revealed cards and the extra cost; the other player sees only their own hand."""
    state, _ = tunnel_claim(tun, "A-B", "GGGLLRR", "GGG", [G, G, B, W])
    mine, other = view_of(tun, state, 0), view_of(tun, state, 1)
    for view in (mine, other):
        assert view.phase is Phase.TUNNEL and view.current == 0
        assert view.tunnel is not None
        assert view.tunnel.route == track_id(tun, "A-B")
        assert view.tunnel.paid == cards("GGG")
        assert view.tunnel.revealed == (G, G, B)
        assert view.tunnel.extra == 2
    assert mine.hand == cards("GGGLLRR")
    assert other.hand == state.players[1].hand
    assert other.players[0].hand_size == 7


def test_tunnel_9_two_cards_left_two_revealed(tun: Ruleset) -> None:
    """TUNNEL-9: with an empty deck and 2 cards in the discard pile, 2 are revealed."""
    state, events = tunnel_claim(tun, "A-B", "GGGGG", "GGG", [], discard="GR")
    shown = events_of(events, TunnelRevealed)[0]
    assert sorted(shown.cards) == [R, G]
    assert shown.extra == 1
    assert state.tunnel is not None and state.discard == cards("")


def test_tunnel_10_laid_cards_are_never_revealed(tun: Ruleset) -> None:
    """TUNNEL-10: the laid cards stay in the hand during a reveal from the reshuffled
    discard pile, so only the discarded cards can come up."""
    state, events = tunnel_claim(tun, "A-B", "GGGGG", "GGG", [], discard="GGR")
    shown = events_of(events, TunnelRevealed)[0]
    assert Counter(shown.cards) == Counter([G, G, R])
    assert state.players[0].hand == cards("GGGGG")
    assert list(legal_actions(tun, state)) == [PayTunnel(cards=cards("GG")), WithdrawTunnel()]


def test_tunnel_11_extra_cards_do_not_change_the_points(tun: Ruleset) -> None:
    """TUNNEL-11: a 4-space tunnel paid with 3 extra cards scores 7."""
    state, _ = tunnel_claim(tun, "A-C", "BBBBBBBL", "BBBB", [B, B, L, W])
    state, _ = step(tun, state, PayTunnel(cards=cards("BBL")))
    assert state.players[0].score == 7
    assert state.players[0].trains == 45 - 4


def test_tunnel_trains_are_placed_only_when_paid(tun: Ruleset) -> None:
    """TUNNEL-7 / END-1: trains leave the supply when the extra cost is paid, which may
    start the final round; a withdrawn claim places none and starts nothing."""
    state = with_player(turn(tun, deck=[G, R, R, W]), 0, hand=cards("GGGG"), trains=5)
    state, _ = step(tun, state, ClaimRoute(route=track_id(tun, "A-B"), cards=cards("GGG")))
    assert state.players[0].trains == 5
    withdrawn, _ = step(tun, state, WithdrawTunnel())
    assert withdrawn.players[0].trains == 5 and withdrawn.final_trigger == -1
    paid, events = step(tun, state, PayTunnel(cards=cards("G")))
    assert paid.players[0].trains == 2
    assert paid.final_trigger == 0
    assert events_of(events, FinalRoundStarted) == [FinalRoundStarted(player=0, trains=2)]


def test_europe_games_with_tunnels_save_and_replay(europe: Ruleset) -> None:
    """A Europe game with tunnel reveals, stations and removed tickets saves, loads and
    replays to the same state, pending tunnels included."""
    game = Game.new("europe", players=3, seed=12)
    chooser = random.Random(12)
    pending = 0
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[chooser.randrange(len(legal))])
        if game.state.phase is Phase.TUNNEL and pending < 3:
            pending += 1
            assert Game.load(game.save()).state == game.state
    assert pending > 0
    assert Game.load(game.save()).state == game.state
    assert Game.replay(game.record()).state == game.state


# -- ferries --------------------------------------------------------------------------------


def listed_payments(rs: Ruleset, state: GameState, r: int) -> set[tuple[int, ...]]:
    return {
        a.cards
        for a in legal_actions(rs, state)
        if isinstance(a, ClaimRoute) and a.route == index_of(rs).route_ids[r]
    }


def all_payments(rs: Ruleset, r: int, hand: tuple[int, ...]) -> set[tuple[int, ...]]:
    """Every payment from ``hand`` that the payment rule accepts (brute force)."""
    out = set()
    for combo in itertools.combinations_with_replacement(
        range(NUM_KINDS), index_of(rs).route_len[r]
    ):
        counts = tuple(combo.count(k) for k in range(NUM_KINDS))
        if all(counts[k] <= hand[k] for k in range(NUM_KINDS)) and (
            payment_error(rs, r, counts) is None
        ):
            out.add(counts)
    return out


@pytest.mark.parametrize(
    ("a", "b", "hand"),
    [
        ("Palermo", "Smyrna", "RRRRRBBBLLLL"),
        ("Palermo", "Smyrna", "RRRRRRRL"),
        ("Athina", "Brindisi", "RRRGGGLL"),
        ("Amsterdam", "London", "RRGLL"),
        ("Amsterdam", "London", "RRGL"),
        ("Constantinople", "Sevastopol", "YYYYLLLK"),
    ],
)
def test_ferry_2_and_3_listed_payments_are_exactly_the_valid_ones(
    europe: Ruleset, a: str, b: str, hand: str
) -> None:
    """FERRY-2 / FERRY-3 / FERRY-4: a ferry takes one locomotive per symbol and one colour
    (locomotives wild) for the other spaces; exactly those payments are listed."""
    r = real_track(europe, a, b)
    state = with_player(turn(europe), 0, hand=cards(hand))
    listed = listed_payments(europe, state, r)
    assert listed == all_payments(europe, r, cards(hand))
    for pay in listed:
        assert pay[LOCO] >= index_of(europe).route_ferry[r]
        assert sum(1 for k in range(LOCO) if pay[k]) <= 1


def test_ferry_4_amsterdam_london_takes_only_locomotives(europe: Ruleset) -> None:
    """FERRY-4: the all-symbol ferry Amsterdam-London is paid with 2 locomotives only."""
    r = real_track(europe, "Amsterdam", "London")
    state = with_player(turn(europe), 0, hand=cards("RRGLL"))
    assert listed_payments(europe, state, r) == {cards("LL")}
    assert_illegal(europe, state, claim_of(europe, r, "RL"), "FERRY-2")
    assert_illegal(europe, state, claim_of(europe, r, "RR"), "FERRY-2")


def test_ferry_2_dieppe_london(europe: Ruleset) -> None:
    """FERRY-2 / FERRY-3: Dieppe-London (2 spaces, 1 symbol): R L or L L, not R R or R B."""
    r = real_track(europe, "Dieppe", "London")
    state = with_player(turn(europe), 0, hand=cards("RRBLL"))
    assert listed_payments(europe, state, r) == {cards("LL"), cards("RL"), cards("BL")}
    assert_illegal(europe, state, claim_of(europe, r, "RR"), "FERRY-2")
    assert_illegal(europe, state, claim_of(europe, r, "RB"), "CLAIM-4")


# -- stations in play -----------------------------------------------------------------------


def test_station_1_any_city_even_unreached(europe: Ruleset) -> None:
    """STATION-1: a station can go on any city free of stations, reached or not."""
    state = with_player(turn(europe), 0, hand=cards("R"))
    assert state.owners.count(0) == 0
    state, _ = step(europe, state, BuildStation(city="Edinburgh", cards=cards("R")))
    assert state.station_owners[index_of(europe).city_index["Edinburgh"]] == 0
    assert state.players[0].stations == 2
    assert state.players[0].hand == cards("")
    assert state.discard[R] >= 1


def test_station_2_one_station_per_city(europe: Ruleset) -> None:
    """STATION-2: a city with anyone's station takes no other; it is not listed."""
    state = with_player(turn(europe), 0, hand=cards("R"))
    state, _ = step(europe, state, BuildStation(city="Wien", cards=cards("R")))
    state = with_player(state, 1, hand=cards("BB"))
    assert_illegal(europe, state, BuildStation(city="Wien", cards=cards("B")), "STATION-2")
    cities = {a.city for a in legal_actions(europe, state) if isinstance(a, BuildStation)}
    assert "Wien" not in cities and len(cities) == 46
    mine = with_player(evolve(state, current=0), 0, hand=cards("RR"))
    assert_illegal(europe, mine, BuildStation(city="Wien", cards=cards("RR")), "STATION-2")


def test_station_3_at_most_three(europe: Ruleset) -> None:
    """STATION-3: after 3 stations no more are built or listed."""
    state = with_player(turn(europe), 0, hand=cards("LLLLLL"), stations=0)
    assert not any(isinstance(a, BuildStation) for a in legal_actions(europe, state))
    assert_illegal(europe, state, BuildStation(city="Wien", cards=cards("L")), "STATION-3")


@pytest.mark.parametrize(("built", "hand"), [(0, "RBL"), (1, "RRBLL"), (2, "RRRBBLL"), (2, "RB")])
def test_station_4_and_5_listed_payments(europe: Ruleset, built: int, hand: str) -> None:
    """STATION-4 / STATION-5: the listed station payments are exactly those of the cost
    (1, 2 or 3 cards of one colour, locomotives wild) that the hand allows, per free city."""
    state = with_player(turn(europe), 0, hand=cards(hand), stations=3 - built)
    cost = (1, 2, 3)[built]
    valid = set()
    for combo in itertools.combinations_with_replacement(range(NUM_KINDS), cost):
        counts = tuple(combo.count(k) for k in range(NUM_KINDS))
        if all(counts[k] <= cards(hand)[k] for k in range(NUM_KINDS)) and (
            station_payment_error(cost, counts) is None
        ):
            valid.add(counts)
    listed = [a for a in legal_actions(europe, state) if isinstance(a, BuildStation)]
    assert len(listed) == 47 * len(valid)
    assert {a.cards for a in listed} == valid
    for action in listed[:: max(1, len(listed) // 7)]:
        after = apply(europe, state, action)
        assert after.players[0].stations == 2 - built


def test_station_costs_in_an_edition_without_stations() -> None:
    """STATION-1: an edition without stations refuses a station."""
    usa = Ruleset.build("usa")
    state = with_player(started(usa, 2, seed=1), 0, hand=cards("RRR"))
    assert_illegal(usa, state, BuildStation(city="Denver", cards=cards("R")), "STATION-1")


# -- stations at the end --------------------------------------------------------------------

STATION_ROUTES: tuple[Route, ...] = (
    ("A", "B", 4, "gray"),
    ("B", "C", 2, "gray"),
    ("C", "D", 6, "gray"),
    ("B", "E", 3, "gray"),
    ("E", "F", 1, "gray"),
    ("M", "N", 2, "gray"),
)
STATION_TICKETS = (("A", "D", 11), ("D", "A", 11), ("A", "C", 6), ("E", "A", 5), ("F", "M", 4))


@pytest.fixture(scope="module")
def st() -> Ruleset:
    return europe_fixture(STATION_ROUTES, STATION_TICKETS)


def test_station_6_one_route_per_station(st: Ruleset) -> None:
    """STATION-6: a station borrows a single route even when two would serve more tickets."""
    sheet = europe_score(
        st,
        {
            "Red": (["A-B"], ["A-C", "E-A"], ["B"]),
            "Blue": (["B-C", "B-E"], [], []),
        },
    )
    red = sheet.players[0]
    assert len(red.stations) == 1
    assert red.tickets_completed == 1
    assert [s.route for s in red.stations] == [track(st, "B-C")]
    assert red.ticket_points == 6 - 5


def test_station_7_borrowed_route_serves_both_directions(st: Ruleset) -> None:
    """STATION-7: the borrowed route serves every ticket of the owner, either way round."""
    sheet = europe_score(
        st,
        {"Red": (["A-B", "C-D"], ["A-D", "D-A", "A-C"], ["C"]), "Blue": (["B-C"], [], [])},
    )
    red = sheet.players[0]
    assert [t.completed for t in red.tickets] == [True, True, True]
    assert red.ticket_points == 11 + 11 + 6


def test_station_8_nothing_to_borrow(st: Ruleset) -> None:
    """STATION-8: unclaimed routes are never borrowed; a station with nothing to borrow
    serves nothing and still counts as built."""
    sheet = europe_score(
        st,
        {"Red": (["A-B"], ["A-C"], ["B", "M"]), "Blue": (["E-F"], [], [])},
    )
    red = sheet.players[0]
    assert [s.route for s in red.stations] == [None, None]
    assert red.ticket_points == -6
    assert red.stations_built == 2
    assert red.bonuses["unbuilt_stations"] == 4


def test_station_9_routes_can_be_borrowed_twice(st: Ruleset) -> None:
    """STATION-9: two stations of one player, and stations of two players, may borrow the
    same route."""
    sheet = europe_score(
        st,
        {
            "Red": (["A-B"], ["A-C"], ["B", "C"]),
            "Blue": (["B-C"], [], []),
            "Green": (["C-D"], ["A-D"], ["A"]),
        },
    )
    red, _, green = sheet.players
    assert [s.route for s in red.stations] == [track(st, "B-C")] * 2
    assert red.tickets[0].completed
    # Green's station at A borrows A-B (Red's), but B-C is Blue's: A-D is not done.
    assert [s.route for s in green.stations] == [track(st, "A-B")]
    assert not green.tickets[0].completed
    sheet = europe_score(
        st,
        {
            "Red": (["A-B"], ["A-C"], ["C"]),
            "Blue": (["B-C"], [], []),
            "Green": (["B-E"], ["E-A"], ["A"]),
        },
    )
    red, _, green = sheet.players
    assert red.tickets[0].completed and green.tickets[0].completed
    assert [s.route for s in green.stations] == [track(st, "A-B")]


def test_station_10_borrowed_routes_do_not_link_the_path(st: Ruleset) -> None:
    """STATION-10: A-B and C-D joined by a borrowed B-C give a path of 6, not 12."""
    sheet = europe_score(
        st, {"Red": (["A-B", "C-D"], ["A-D"], ["B"]), "Blue": (["B-C", "M-N"], [], [])}
    )
    red, blue = sheet.players
    assert red.tickets[0].completed
    assert red.longest_path == 6
    assert red.bonuses["european_express"] == 10
    assert blue.longest_path == 2


def test_station_11_four_points_per_unbuilt_station(st: Ruleset) -> None:
    """STATION-11: 12, 8, 4 and 0 points for 0 to 3 stations built."""
    for built in range(4):
        stations = ["A", "B", "C"][:built]
        sheet = europe_score(st, {"Red": (["M-N"], [], stations)})
        assert sheet.players[0].bonuses["unbuilt_stations"] == 4 * (3 - built)


def test_stations_of_a_finished_game_are_scored(europe: Ruleset) -> None:
    """STATION-6 / STATION-11: a random game's stations are assigned to opponents' routes
    at their cities and unbuilt ones are paid for."""
    state, _ = play_random(europe, 3, seed=2, choice_seed=2)
    sheet = score_game(europe, state)
    for seat, ps in enumerate(sheet.players):
        built = [c for c, o in enumerate(state.station_owners) if o == seat]
        assert ps.stations_built == len(built) == 3 - state.players[seat].stations
        assert ps.bonuses["unbuilt_stations"] == 4 * (3 - len(built))
        for use in ps.stations:
            if use.route is not None:
                assert use.route in index_of(europe).city_routes[use.city]
                assert state.owners[use.route] not in (-1, seat)


# -- scoring positions: library and ttr score ----------------------------------------------


def run_ttr(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write_position(tmp_path: Path, value: Any) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return str(path)


LONDON_POSITION: dict[str, Any] = {
    "edition": "europa",
    "players": [
        {
            "name": "Red",
            "routes": [
                {"a": "Edinburgh", "b": "London", "color": "orange"},
                {"a": "Paris", "b": "Dieppe"},
            ],
            "tickets": [{"a": "Paris", "b": "Edinburgh"}, {"a": "København", "b": "Frankfurt"}],
            "stations": ["London", "Kyïv"],
        },
        {
            "name": "Yellow",
            "routes": [
                {"a": "Dieppe", "b": "London"},
                {"a": "Brest", "b": "Pamplona"},
                {"a": "Pamplona", "b": "Marseille"},
            ],
            "tickets": [],
        },
    ],
}


def test_score_cli_europe_position_with_stations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """EX-E2 on the real map through ``ttr score``: Red's station at London borrows
    Yellow's Dieppe-London and completes Edinburgh-Paris, but Red's path stays 4; the
    station at Kyïv (a ticket-card spelling) has nothing to borrow."""
    code, out, err = run_ttr(capsys, "score", write_position(tmp_path, LONDON_POSITION))
    assert (code, err) == (0, "")
    sheet = json.loads(out)
    assert sheet["edition"] == "europe"
    red, yellow = sheet["players"]
    assert red["stations"] == [
        {
            "city": "London",
            "route": {"a": "Dieppe", "b": "London", "color": "gray", "length": 2},
        },
        {"city": "Kyiv", "route": None},
    ]
    assert [(t["points"], t["completed"]) for t in red["tickets"]] == [(7, True), (-5, False)]
    assert red["tickets"][1]["a"] == "Frankfurt" and red["tickets"][1]["b"] == "Kobenhavn"
    assert red["route_points"] == 7 + 1
    assert red["longest_path"] == 4
    assert red["bonuses"] == {"european_express": 0, "unbuilt_stations": 4}
    assert red["total"] == 8 + 2 + 4
    assert yellow["longest_path"] == 8
    assert yellow["bonuses"] == {"european_express": 10, "unbuilt_stations": 12}
    assert yellow["total"] == 2 + 7 + 7 + 10 + 12
    assert sheet["winners"] == ["Yellow"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {1: {"stations": ["London"]}},
            "players[1].stations[0]: London already has a station (players[0].stations[0])",
        ),
        (
            {1: {"stations": ["Wien", "Roma", "Riga", "Sofia"]}},
            "players[1].stations: Yellow lists 4 stations, but a player has only 3",
        ),
        ({1: {"stations": ["Londres"]}}, "players[1].stations[0]: unknown city 'Londres'"),
        ({0: {"stations": ["London", "Kyiv", "Kyïv"]}}, "players[0].stations[2]: Kyiv already"),
    ],
)
def test_score_cli_refuses_impossible_stations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, change: dict[int, Any], message: str
) -> None:
    """STATION-2 / STATION-3: two stations in a city or more than 3 for a player are
    impossible positions: one error line, status 1."""
    position = json.loads(json.dumps(LONDON_POSITION))
    for seat, items in change.items():
        position["players"][seat].update(items)
    code, out, err = run_ttr(capsys, "score", write_position(tmp_path, position))
    assert code == 1 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("ttr: error: ")
    assert message in err


def test_score_cli_refuses_stations_without_stations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """STATION-1: stations in an edition without them are an impossible position."""
    position = {
        "edition": "usa",
        "players": [{"name": "Ann", "routes": [], "tickets": [], "stations": ["Denver"]}],
    }
    code, out, err = run_ttr(capsys, "score", write_position(tmp_path, position))
    assert code == 1 and out == ""
    assert "players[0].stations: usa has no stations" in err


def test_score_cli_refuses_both_tracks_at_three_players(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """EU-12: at 3 players the two tracks of Bruxelles-Paris cannot both be in use."""
    position = json.loads(json.dumps(LONDON_POSITION))
    position["players"][0]["routes"].append({"a": "Bruxelles", "b": "Paris", "color": "red"})
    position["players"][1]["routes"].append({"a": "Bruxelles", "b": "Paris", "color": "yellow"})
    position["players"].append({"name": "Green", "routes": [], "tickets": []})
    code, _, err = run_ttr(capsys, "score", write_position(tmp_path, position))
    assert code == 1
    assert "DOUBLE-2" in err


def test_positions_match_the_library_scoring(st: Ruleset) -> None:
    """The position contract reads station names (and aliases) into the same positions the
    library scores."""
    players: dict[str, Holdings] = {
        "Red": (["A-B", "C-D"], ["A-D"], ["B"]),
        "Blue": (["B-C"], [], []),
    }
    position = europe_position(st, players)
    raw = position_to_json(st, position)
    assert raw["players"][0]["stations"] == ["B"]
    assert parse_position(st, raw) == position


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (5, 4)])
def test_finished_europe_games_rescore_identically(
    europe: Ruleset, players: int, seed: int
) -> None:
    """A finished game written as a position and read back scores the same. (Of two
    interchangeable tracks, such as the two Dieppe-London ferries, either may be read
    back; the score sheet names tracks by cities, colour and length.)"""
    state, _ = play_random(europe, players, seed=seed, choice_seed=seed)
    names = [f"Player {i + 1}" for i in range(players)]
    raw = json.loads(json.dumps(position_to_json(europe, position_of(europe, state, names))))
    assert raw["edition"] == "europe"
    assert all(
        len(p["stations"]) == 3 - q.stations
        for p, q in zip(raw["players"], state.players, strict=True)
    )
    rescored = score_position(europe, parse_position(europe, raw))
    assert scoresheet_json(europe, rescored) == scoresheet_json(europe, score_game(europe, state))


# -- random play ----------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "seeds"), [(2, range(6)), (5, range(4))])
def test_random_games_end_and_conserve_cards(europe: Ruleset, players: int, seeds: range) -> None:
    """Random Europe games end; at every step the 110 train cards are in hands, deck,
    discard pile, display or a pending reveal; stations and tickets stay consistent."""
    tunnels = 0

    def visit(state: GameState, legal: Any) -> None:
        nonlocal tunnels
        assert sum(card_totals(state)) == 110
        assert card_totals(state) == index_of(europe).deck_counts
        built = Counter(o for o in state.station_owners if o >= 0)
        for seat, p in enumerate(state.players):
            assert built[seat] + p.stations == 3
            assert (
                p.trains
                + sum(
                    index_of(europe).route_len[r] for r, o in enumerate(state.owners) if o == seat
                )
                == 45
            )
        if state.phase is Phase.TUNNEL:
            tunnels += 1
            assert list(legal)[-1] == WithdrawTunnel()
            payments = {a.cards for a in legal if isinstance(a, PayTunnel)}
            assert len(payments) == len(legal) - 1
            assert payments == pay_options(state)
        held = [t for p in state.players for t in p.tickets]
        pool = [*held, *state.ticket_deck, *state.pending_tickets]
        pool += [t for offer in state.offers for t in offer]
        assert len(pool) == len(set(pool))

    for seed in seeds:
        state, _ = play_random(europe, players, seed, seed + 100, visit=visit)
        assert state.is_over
        visit(state, ())
        for r, owner in enumerate(state.owners):
            twin = index_of(europe).route_twin[r]
            if owner >= 0 and twin >= 0:
                assert state.owners[twin] != owner
                if players < 4:
                    assert state.owners[twin] == -1
    assert tunnels > 0


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 32), (5, 33)])
def test_random_games_tunnel_reveals_follow_the_rules(
    europe: Ruleset, players: int, seed: int
) -> None:
    """TUNNEL-3 / TUNNEL-4 / TUNNEL-5 / TUNNEL-9 / TUNNEL-10: in random games every tunnel
    claim reveals min(3, deck + discard) cards, all from those piles (never the laid
    cards), and demands one extra card per match."""
    states, actions, logs = random_game_states(europe, players, seed, seed)
    claims = 0
    for before, action, events, after in zip(
        states[:-1], actions, logs[1:], states[1:], strict=True
    ):
        if not isinstance(action, ClaimRoute):
            continue
        r = index_of(europe).route_index[action.route]
        if not index_of(europe).route_tunnel[r]:
            continue
        claims += 1
        (shown,) = events_of(events, TunnelRevealed)
        assert len(shown.cards) == min(3, before.deck_size + sum(before.discard))
        piles = Counter(before.deck[before.deck_pos :])
        piles.update({k: n for k, n in enumerate(before.discard) if n})
        assert not Counter(shown.cards) - piles
        colors = [k for k in range(LOCO) if action.cards[k]]
        match = {colors[0], LOCO} if colors else {LOCO}
        assert shown.extra == sum(1 for c in shown.cards if c in match)
        if shown.extra:
            assert after.phase is Phase.TUNNEL and after.tunnel is not None
            assert after.players == before.players
        else:
            assert after.owners[r] == before.current
    assert claims > 0
