"""Turns, the start player, the end of the game and passing (TURN, SETUP-8, END, PASS)."""

from __future__ import annotations

import random

import pytest
from attrs import evolve

from ttr_core import (
    ClaimRoute,
    DrawBlind,
    DrawTickets,
    KeepTickets,
    Pass,
    TakeFaceUp,
    legal_actions,
    new_game,
    score_game,
)
from ttr_core.model.actions import Action, BuildStation, PayTunnel, WithdrawTunnel
from ttr_core.model.cards import EMPTY
from ttr_core.model.events import FinalRoundStarted, GameEnded, Passed
from ttr_core.model.state import Phase
from ttr_core.play.functional import apply
from ttr_core.rules.index import index_of
from ttr_core.testing.scenarios import (
    arrange,
    assert_illegal,
    cards,
    claimed,
    events_of,
    keep_all_opening,
    started,
    step,
    track_id,
    with_player,
)


def play_turn(rs, state):
    """Play one whole turn for the current player: a blind draw of two cards."""
    seat = state.current
    state = apply(rs, state, DrawBlind())
    if state.phase is Phase.SECOND_CARD:
        state = apply(rs, state, DrawBlind())
    assert state.current != seat or state.is_over
    return state


def claim(rs, spec, pay):
    return ClaimRoute(route=track_id(rs, spec), cards=cards(pay))


# -- turns and the start player ------------------------------------------------------------


def test_turn_1_one_action_per_turn(fx):
    """TURN-1: a claim, a two-card draw and a ticket draw each make exactly one turn."""
    state = with_player(started(fx, 3, seed=2), 0, hand=cards("RRR"))
    after, _ = step(fx, state, claim(fx, "A-B", "RRR"))
    assert (after.current, after.turn) == (1, 1)
    after = play_turn(fx, after)
    assert (after.current, after.turn) == (2, 2)
    after = apply(fx, after, DrawTickets())
    assert after.turn == 2
    offered = tuple(index_of(fx).ticket_ids[t] for t in after.pending_tickets)
    after = apply(fx, after, KeepTickets(tickets=offered[:1]))
    assert (after.current, after.turn) == (0, 3)


def test_turn_1_actions_of_other_editions_are_rejected(usa):
    """TURN-1: only the edition's actions exist; tunnels and stations are not USA actions."""
    state = started(usa, 2, seed=2)
    assert_illegal(usa, state, BuildStation(city="Denver", cards=cards("R")), "STATION-1")
    assert_illegal(usa, state, PayTunnel(cards=cards("R")), "TUNNEL-6")
    assert_illegal(usa, state, WithdrawTunnel(), "TUNNEL-7")
    assert_illegal(usa, state, Action(), "TURN-1")


def test_turn_1_phase_errors(fx):
    """TURN-1: drawing cards, drawing tickets or claiming while choosing tickets is illegal."""
    state = with_player(started(fx, 2, seed=2), 0, hand=cards("RRR"))
    choosing = apply(fx, state, DrawTickets())
    for action in (DrawBlind(), TakeFaceUp(card=choosing.display[0]), claim(fx, "A-B", "RRR")):
        assert_illegal(fx, choosing, action, "TURN-1")
    assert_illegal(fx, choosing, Pass(), "PASS-1")


def test_turn_2_at_most_one_route_per_turn(fx):
    """TURN-2: after a claim the turn is over; no second claim or draw follows."""
    state = with_player(started(fx, 2, seed=2), 0, hand=cards("RRRLL"))
    after, _ = step(fx, state, claim(fx, "A-B", "RRR"))
    assert after.current == 1 and after.phase is Phase.TURN
    mid = apply(fx, state, DrawBlind())
    assert_illegal(fx, mid, claim(fx, "A-C", "LL"), "TURN-1")
    assert_illegal(fx, mid, DrawTickets(), "TURN-1")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_turn_3_clockwise_order(usa, players):
    """TURN-3: turns pass to the next seat, wrapping around the table."""
    start = players - 1
    state = started(usa, players, seed=3, start_player=start)
    seen = []
    for _ in range(2 * players):
        seen.append(state.current)
        state = play_turn(usa, state)
    assert seen == [(start + i) % players for i in range(2 * players)]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_setup_8_any_start_player(usa, players):
    """SETUP-8: any seat may start; opening choices and the first turn begin there."""
    for start in range(players):
        state = new_game(usa, players, seed=7, start_player=start)
        assert state.start_player == start
        assert state.phase is Phase.OPENING_TICKETS and state.current == start
        order = []
        while state.phase is Phase.OPENING_TICKETS:
            order.append(state.current)
            state = apply(usa, state, legal_actions(usa, state)[0])
        assert order == [(start + i) % players for i in range(players)]
        assert state.phase is Phase.TURN and state.current == start


def test_setup_8_start_player_out_of_range(usa):
    """SETUP-8: the start player must be one of the seats."""
    with pytest.raises(ValueError):
        new_game(usa, 3, seed=1, start_player=3)
    with pytest.raises(ValueError):
        new_game(usa, 3, seed=1, start_player=-1)


def test_usa_1_player_count(usa):
    """USA-1: 2 to 5 players, 45 trains each."""
    assert usa.params.players == (2, 5)
    assert usa.params.trains == 45
    for n in (1, 6):
        with pytest.raises(ValueError):
            new_game(usa, n, seed=1)


# -- end of the game -----------------------------------------------------------------------


def low(rs, players=3, trains=4, seat=0, hand="RRRRLL", seed=5):
    """A first-turn state where ``seat`` is to play with few trains."""
    state = evolve(started(rs, players, seed=seed), current=seat)
    return with_player(state, seat, trains=trains, hand=cards(hand))


@pytest.mark.parametrize(
    ("trains", "spec", "pay", "left"),
    [(4, "A-C", "LL", 2), (3, "D-E", "L", 2), (3, "A-B", "RRR", 0)],
)
def test_end_1_trigger_at_end_of_turn_with_two_or_fewer(fx, trains, spec, pay, left):
    """END-1: a turn ending with 2 trains or fewer starts the final round."""
    state = low(fx, trains=trains)
    after, events = step(fx, state, claim(fx, spec, pay))
    assert after.players[0].trains == left
    assert after.final_trigger == 0
    assert events_of(events, FinalRoundStarted) == [FinalRoundStarted(player=0, trains=left)]
    assert not after.is_over


def test_end_1_three_trains_do_not_trigger(fx):
    """END-1: ending a turn with 3 trains changes nothing."""
    state = low(fx, trains=5)
    after, events = step(fx, state, claim(fx, "A-C", "LL"))
    assert after.players[0].trains == 3
    assert after.final_trigger == -1
    assert events_of(events, FinalRoundStarted) == []


def test_end_1_checked_at_end_of_turn_not_start(fx):
    """END-1: a player who begins a turn with 2 trains triggers when that turn ends."""
    state = low(fx, trains=2)
    mid, events = step(fx, state, DrawBlind())
    assert mid.final_trigger == -1 and not events_of(events, FinalRoundStarted)
    end, events = step(fx, mid, DrawBlind())
    assert end.final_trigger == 0
    assert events_of(events, FinalRoundStarted) == [FinalRoundStarted(player=0, trains=2)]


def test_end_2_one_more_turn_each_including_trigger_player(fx):
    """END-2: after the trigger every player, the trigger player too, plays once more."""
    state = low(fx, players=3, trains=4, seat=1)
    state, _ = step(fx, state, claim(fx, "A-C", "LL"))
    assert state.final_trigger == 1
    played = []
    while not state.is_over:
        played.append(state.current)
        state = play_turn(fx, state)
    assert played == [2, 0, 1]
    assert state.ended_by == "final_round"
    assert len(legal_actions(fx, state)) == 0
    assert_illegal(fx, state, DrawBlind(), "END-2")
    assert_illegal(fx, state, Pass(), "END-2")


def test_end_2_game_ended_event(fx):
    """END-2: the game ends after the trigger player's last turn, with an event."""
    state = low(fx, players=2, trains=3, seat=0)
    state = apply(fx, state, claim(fx, "D-E", "L"))
    state = play_turn(fx, state)
    events = []
    state = apply(fx, state, DrawBlind(), events=events)
    state = apply(fx, state, DrawBlind(), events=events)
    assert events_of(events, GameEnded) == [GameEnded(reason="final_round")]
    assert state.phase is Phase.GAME_OVER


def test_end_3_trigger_fires_once(fx):
    """END-3: other players falling to 2 trains or fewer in the final round change nothing."""
    state = low(fx, players=3, trains=4, seat=0)
    state = apply(fx, state, claim(fx, "A-C", "LL"))
    state = with_player(state, 1, trains=2, hand=cards("L"))
    state, events = step(fx, state, claim(fx, "D-E", "L"))
    assert state.players[1].trains == 1
    assert state.final_trigger == 0
    assert events_of(events, FinalRoundStarted) == []
    state = play_turn(fx, state)
    state = play_turn(fx, state)
    assert state.is_over


def test_end_4_final_round_event(fx):
    """END-4: the engine emits an event when the final round starts."""
    state = low(fx, trains=4)
    _, events = step(fx, state, claim(fx, "A-C", "LL"))
    started_events = events_of(events, FinalRoundStarted)
    assert len(started_events) == 1
    assert (started_events[0].player, started_events[0].trains) == (0, 2)


def test_end_5_only_trains_count(fx):
    """END-5: cards in hand play no part; 3 trains never trigger, 2 trains always do."""
    empty = low(fx, trains=3, hand="")
    after = play_turn(fx, empty)
    assert after.final_trigger == -1
    rich = low(fx, trains=2, hand="RRRRRRRRRRLLLLLLLL")
    after = play_turn(fx, rich)
    assert after.final_trigger == 0


# -- passing -------------------------------------------------------------------------------


def stuck(rs, players=2, seed=4):
    """A turn in which nothing can be done: no cards to draw, no tickets, hands that
    cannot pay for any open route (every length-1 track is claimed)."""
    state = started(rs, players, seed=seed)
    state = arrange(state, deck=(), discard=EMPTY, display=(-1,) * 5, ticket_deck=())
    short = {
        r: players - 1 for r in range(len(index_of(rs).routes)) if index_of(rs).route_len[r] == 1
    }
    state = claimed(rs, state, short)
    for seat in range(players):
        state = with_player(state, seat, hand=cards("P"))
    return state


def test_pass_1_only_when_nothing_else_is_legal(usa):
    """PASS-1: passing is listed and allowed only when no other action is legal."""
    state = stuck(usa)
    assert list(legal_actions(usa, state)) == [Pass()]
    nxt, events = step(usa, state, Pass())
    assert events_of(events, Passed) == [Passed(player=0)]
    assert nxt.current == 1 and nxt.passes == 1
    normal = started(usa, 2, seed=4)
    assert Pass() not in legal_actions(usa, normal)
    assert_illegal(usa, normal, Pass(), "PASS-1")
    # One face-up card is enough to forbid passing.
    one_card = arrange(state, display=(-1, -1, 2, -1, -1))
    assert_illegal(usa, one_card, Pass(), "PASS-1")
    # So is one affordable route.
    payer = with_player(state, 0, hand=cards("PP"))
    assert_illegal(usa, payer, Pass(), "PASS-1")


def test_pass_1_not_in_the_middle_of_a_turn(usa):
    """PASS-1: only a whole turn can be passed."""
    state = arrange(started(usa, 2, seed=4), deck=[0, 1, 2, 3])
    mid = apply(usa, state, DrawBlind())
    assert_illegal(usa, mid, Pass(), "PASS-1")


@pytest.mark.parametrize("players", [2, 3, 5])
def test_pass_2_full_round_of_passes_ends_the_game(usa, players):
    """PASS-2: one pass by every player in a row ends the game, scored normally."""
    state = stuck(usa, players)
    events = []
    for i in range(players):
        assert not state.is_over
        assert state.current == i
        state = apply(usa, state, Pass(), events=events)
    assert state.is_over
    assert state.ended_by == "deadlock"
    assert events_of(events, GameEnded) == [GameEnded(reason="deadlock")]
    sheet = score_game(usa, state)
    assert len(sheet.winners) >= 1
    assert sheet.players[players - 1].route_points == sum(
        index_of(usa).route_points[r]
        for r in range(len(index_of(usa).routes))
        if index_of(usa).route_len[r] == 1
    )


def test_pass_2_another_action_resets_the_count(usa):
    """PASS-2: the passes must follow each other; an action in between starts again."""
    state = stuck(usa, 3)
    state = apply(usa, state, Pass())
    state = apply(usa, state, Pass())
    assert state.passes == 2
    r = next(
        r
        for r in range(len(index_of(usa).routes))
        if index_of(usa).route_len[r] == 2 and index_of(usa).route_color[r] == 8
    )
    state = with_player(state, 2, hand=cards("PP"))
    state = apply(usa, state, ClaimRoute(route=index_of(usa).route_ids[r], cards=cards("PP")))
    assert state.passes == 0
    assert not state.is_over
    # The claim's cards refill the display, so the next player can draw again.
    assert Pass() not in legal_actions(usa, state)


def hoarder_choice(legal, chooser):
    """Prefer drawing cards, then tickets (keeping all), then claims; pass when forced."""
    if DrawBlind() in legal:
        return DrawBlind()
    face_up = [TakeFaceUp(card=c) for c in range(9) if TakeFaceUp(card=c) in legal]
    if face_up:
        return chooser.choice(face_up)
    if DrawTickets() in legal:
        return DrawTickets()
    # What is left is a ticket choice (largest first), claims, or a pass.
    if isinstance(legal[0], KeepTickets):
        return legal[0]
    return legal[chooser.randrange(len(legal))]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pass_3_hoarding_games_terminate(usa, players):
    """PASS-3: even players who hoard cards and claim only when forced reach an end."""
    for seed in range(3):
        chooser = random.Random(seed)
        state = keep_all_opening(usa, new_game(usa, players, seed=seed))
        decisions = 0
        while not state.is_over:
            legal = legal_actions(usa, state)
            assert len(legal) > 0
            state = apply(usa, state, hoarder_choice(legal, chooser))
            decisions += 1
            assert decisions < 20000
        assert state.ended_by in ("final_round", "deadlock")
