"""Setup of the cards, drawing train cards, the display flush and the deck (SETUP, DRAW,
FLUSH, DECK), checked on the USA ruleset with hand-made card piles."""

from __future__ import annotations

from collections import Counter

import pytest

from ttr_core import ClaimRoute, DrawBlind, TakeFaceUp, legal_actions, new_game
from ttr_core.model.cards import EMPTY, LOCO
from ttr_core.model.events import (
    BlindDrawn,
    CardRevealed,
    CardsDealt,
    DisplayFlushed,
    FaceUpTaken,
    Shuffled,
)
from ttr_core.model.state import Phase
from ttr_core.play.functional import apply
from ttr_core.rules.index import index_of
from ttr_core.testing.invariants import card_totals
from ttr_core.testing.scenarios import (
    BLUE,
    GREEN,
    ORANGE,
    RED,
    YELLOW,
    ScriptedChance,
    arrange,
    assert_illegal,
    card_list,
    cards,
    events_of,
    fixture_ruleset,
    started,
    step,
    track_id,
    with_player,
)

L = LOCO


@pytest.fixture
def turn(usa):
    """The first turn of a 2-player USA game (seat 0 to play)."""
    state = started(usa, 2, seed=11)
    assert state.phase is Phase.TURN and state.current == 0
    return state


def hand_delta(before, after, seat=0):
    return tuple(
        a - b for a, b in zip(after.players[seat].hand, before.players[seat].hand, strict=True)
    )


# -- setup ---------------------------------------------------------------------------------


def test_setup_1_deck_has_110_cards(usa):
    """SETUP-1: 8 colours x 12 cards plus 14 locomotives, all in play at the start."""
    assert len(index_of(usa).train_deck) == 110
    assert index_of(usa).deck_counts == (12,) * 8 + (14,)
    for players in range(2, 6):
        state = new_game(usa, players, seed=players)
        assert card_totals(state) == index_of(usa).deck_counts


def test_setup_2_player_supplies(usa):
    """SETUP-2: every player starts with the edition's trains and a score of 0."""
    state = new_game(usa, 5, seed=2)
    for p in state.players:
        assert p.trains == 45
        assert p.score == 0
        assert p.stations == 0
        assert p.tickets == ()


def test_setup_3_four_cards_each_from_the_shuffled_deck(usa):
    """SETUP-3: after the shuffle every player is dealt 4 train cards."""
    events = []
    state = new_game(usa, 3, seed=5, events=events)
    order = events_of(events, Shuffled)[0].order
    dealt = events_of(events, CardsDealt)
    assert [e.player for e in dealt] == [0, 1, 2]
    for seat, e in enumerate(dealt):
        assert len(e.cards) == 4
        assert sum(state.players[seat].hand) == 4
        assert Counter(e.cards) == Counter(order[4 * seat : 4 * seat + 4])
        assert Counter(e.cards) == Counter(
            {k: n for k, n in enumerate(state.players[seat].hand) if n}
        )


def test_setup_4_five_face_up_cards(usa):
    """SETUP-4: five cards from the deck form the display."""
    events = []
    state = new_game(usa, 2, seed=9, events=events)
    assert len(state.display) == 5
    assert -1 not in state.display
    assert len(events_of(events, CardRevealed)) >= 5


def test_setup_4_display_checked_for_flush_at_once(usa):
    """SETUP-4 / FLUSH-1: a first display with 3 locomotives is flushed before play."""
    top = card_list("RRRRBBBB" + "LLLRB" + "GGGGG")
    events = []
    state = new_game(usa, 2, chance=ScriptedChance(train=top), events=events)
    flushes = events_of(events, DisplayFlushed)
    assert len(flushes) == 1
    assert Counter(flushes[0].cards) == Counter(card_list("LLLRB"))
    assert state.display == tuple(card_list("GGGGG"))
    assert state.discard == cards("LLLRB")
    assert card_totals(state) == index_of(usa).deck_counts


# -- drawing -------------------------------------------------------------------------------


def test_draw_1_two_cards_one_at_a_time(usa, turn):
    """DRAW-1: a draw takes two cards; the second is chosen after the first is taken."""
    state = arrange(turn, deck=card_list("RBGYO"))
    mid, _ = step(usa, state, DrawBlind())
    assert mid.phase is Phase.SECOND_CARD and mid.current == 0
    assert hand_delta(state, mid) == cards("R")
    end, _ = step(usa, mid, DrawBlind())
    assert end.phase is Phase.TURN and end.current == 1
    assert hand_delta(state, end) == cards("RB")
    assert end.turn == state.turn + 1


@pytest.mark.parametrize("first", ["blind", "face_up"])
@pytest.mark.parametrize("second", ["blind", "face_up"])
def test_draw_2_blind_and_face_up_freely_mixed(usa, turn, first, second):
    """DRAW-2: each of the two cards comes from the deck or the display, in any mix."""
    state = arrange(turn, display=card_list("RGBYO"), deck=card_list("WWWWW"))
    actions = {"blind": DrawBlind(), "face_up": None}
    a1 = actions[first] or TakeFaceUp(card=RED)
    mid, _ = step(usa, state, a1)
    assert mid.phase is Phase.SECOND_CARD
    a2 = actions[second] or TakeFaceUp(card=GREEN)
    end, _ = step(usa, mid, a2)
    assert end.phase is Phase.TURN and end.current == 1
    assert sum(hand_delta(state, end)) == 2


def test_draw_2_only_cards_on_display_can_be_taken(usa, turn):
    """DRAW-2: a face-up card must be on display; an empty slot is not a card."""
    state = arrange(turn, display=(RED, GREEN, BLUE, YELLOW, -1), deck=card_list("WWWW"))
    assert_illegal(usa, state, TakeFaceUp(card=ORANGE), "DRAW-2")
    assert_illegal(usa, state, TakeFaceUp(card=-1), "DRAW-2")
    assert_illegal(usa, state, TakeFaceUp(card=9), "DRAW-2")
    mid, _ = step(usa, state, TakeFaceUp(card=RED))
    assert_illegal(usa, mid, TakeFaceUp(card=RED), "DRAW-2")


def test_draw_3_taken_face_up_card_replaced_before_second_pick(usa, turn):
    """DRAW-3: the slot of a taken face-up card is refilled before the second card."""
    state = arrange(turn, display=card_list("RGBYO"), deck=card_list("PWWWW"))
    mid, events = step(usa, state, TakeFaceUp(card=RED))
    assert mid.phase is Phase.SECOND_CARD
    assert mid.display == tuple(card_list("PGBYO"))
    assert events_of(events, FaceUpTaken) == [FaceUpTaken(player=0, slot=0, card=RED)]
    assert events_of(events, CardRevealed) == [CardRevealed(slot=0, card=5)]
    # The new card can be the second pick.
    assert TakeFaceUp(card=5) in legal_actions(usa, mid)
    end, _ = step(usa, mid, TakeFaceUp(card=5))
    assert hand_delta(state, end) == cards("RP")


def test_draw_4_face_up_locomotive_is_whole_draw(usa, turn):
    """DRAW-4: a face-up locomotive taken first ends the draw at once."""
    state = arrange(turn, display=card_list("LRGBY"), deck=card_list("OOOOO"))
    end, _ = step(usa, state, TakeFaceUp(card=L))
    assert end.phase is Phase.TURN
    assert end.current == 1
    assert hand_delta(state, end) == cards("L")
    assert end.display == tuple(card_list("ORGBY"))


def test_draw_5_face_up_locomotive_never_second_card(usa, turn):
    """DRAW-5: a face-up locomotive cannot be taken as the second card."""
    state = arrange(turn, display=card_list("LRGBY"), deck=card_list("OOOOO"))
    mid, _ = step(usa, state, TakeFaceUp(card=RED))
    assert L in mid.display
    assert_illegal(usa, mid, TakeFaceUp(card=L), "DRAW-5")
    listed = list(legal_actions(usa, mid))
    assert TakeFaceUp(card=L) not in listed
    assert set(listed) == {
        DrawBlind(),
        TakeFaceUp(card=GREEN),
        TakeFaceUp(card=BLUE),
        TakeFaceUp(card=YELLOW),
        TakeFaceUp(card=ORANGE),
    }


def test_draw_5_after_blind_first_card_too(usa, turn):
    """DRAW-5: the restriction also holds when the first card was drawn blind."""
    state = arrange(turn, display=card_list("LRGBY"), deck=card_list("OOOOO"))
    mid, _ = step(usa, state, DrawBlind())
    assert_illegal(usa, mid, TakeFaceUp(card=L), "DRAW-5")


def test_draw_5_replacement_locomotive_cannot_be_second_card(usa, turn):
    """DRAW-5: a locomotive just revealed as the replacement is not available either."""
    state = arrange(turn, display=card_list("RGBYO"), deck=card_list("LWWWW"))
    mid, _ = step(usa, state, TakeFaceUp(card=RED))
    assert mid.display[0] == L
    assert_illegal(usa, mid, TakeFaceUp(card=L), "DRAW-5")
    assert TakeFaceUp(card=L) not in list(legal_actions(usa, mid))


def test_draw_6_blind_locomotive_is_ordinary(usa, turn):
    """DRAW-6: a locomotive from the deck counts as one card; a second card follows."""
    state = arrange(turn, display=card_list("RGBYO"), deck=card_list("LWWWW"))
    mid, events = step(usa, state, DrawBlind())
    assert events_of(events, BlindDrawn) == [BlindDrawn(player=0, card=L)]
    assert mid.phase is Phase.SECOND_CARD and mid.current == 0
    legal = list(legal_actions(usa, mid))
    assert DrawBlind() in legal and TakeFaceUp(card=RED) in legal
    end, _ = step(usa, mid, TakeFaceUp(card=RED))
    assert hand_delta(state, end) == cards("LR")


def test_draw_6_blind_locomotive_as_second_card(usa, turn):
    """DRAW-6: a blind locomotive is also an ordinary second card."""
    state = arrange(turn, display=card_list("RGBYO"), deck=card_list("WLWWW"))
    mid, _ = step(usa, state, DrawBlind())
    end, _ = step(usa, mid, DrawBlind())
    assert hand_delta(state, end) == cards("WL")
    assert end.current == 1


def test_draw_7_no_hand_limit(usa, turn):
    """DRAW-7: a player holding many cards may still draw."""
    state = with_player(turn, 0, hand=(12, 12, 12, 12, 12, 12, 12, 12, 10))
    state = arrange(state, deck=card_list("RRRR"), display=card_list("GGGGG"))
    assert DrawBlind() in legal_actions(usa, state)
    mid, _ = step(usa, state, DrawBlind())
    end, _ = step(usa, mid, TakeFaceUp(card=GREEN))
    assert sum(end.players[0].hand) == 108


# -- the display flush ---------------------------------------------------------------------


def test_flush_1_three_face_up_locomotives_flush(usa, turn):
    """FLUSH-1: three locomotives face up send the display to the discard pile."""
    state = arrange(turn, display=card_list("RLLGB"), deck=card_list("L" + "YYYYY"), discard=EMPTY)
    mid, events = step(usa, state, TakeFaceUp(card=RED))
    flushes = events_of(events, DisplayFlushed)
    assert len(flushes) == 1
    assert Counter(flushes[0].cards) == Counter(card_list("LLLGB"))
    assert mid.display == tuple(card_list("YYYYY"))
    assert mid.discard == cards("LLLGB")


def test_flush_1_four_locomotives_flush_too(usa):
    """FLUSH-1: three *or more* locomotives flush the display."""
    top = card_list("RRRRBBBB" + "LLLLR" + "GGGGG")
    state = new_game(usa, 2, chance=ScriptedChance(train=top))
    assert state.display == tuple(card_list("GGGGG"))


def test_flush_2_between_first_and_second_card(usa, turn):
    """FLUSH-2: a replacement that makes three locomotives flushes before the second pick,
    and the second card is taken from the new display."""
    state = arrange(turn, display=card_list("RLLGB"), deck=card_list("L" + "YYYYP" + "WW"))
    mid, events = step(usa, state, TakeFaceUp(card=RED))
    assert [type(e) for e in events][:4] == [
        FaceUpTaken,
        CardRevealed,
        DisplayFlushed,
        CardRevealed,
    ]
    assert mid.phase is Phase.SECOND_CARD and mid.current == 0
    assert mid.display == tuple(card_list("YYYYP"))
    end, _ = step(usa, mid, TakeFaceUp(card=5))
    assert hand_delta(state, end) == cards("RP")
    assert end.current == 1


def test_flush_2_after_slots_are_refilled_following_a_claim(fx):
    """FLUSH-2 / DECK-6: slots refilled after a claim are checked for the flush too."""
    state = started(fx, 2, seed=3)
    state = with_player(state, 0, hand=cards("LLL"))
    state = arrange(state, deck=(), discard=cards("GG"), display=(-1, -1, -1, RED, BLUE))
    chance = ScriptedChance(reshuffles=[card_list("LLL"), card_list("RB")])
    events = []
    after = apply(
        fx,
        state,
        ClaimRoute(route=track_id(fx, "A-B"), cards=cards("LLL")),
        events=events,
        chance=chance,
    )
    flushes = events_of(events, DisplayFlushed)
    assert len(flushes) == 1
    assert Counter(flushes[0].cards) == Counter(card_list("LLLRB"))
    assert after.display.count(L) < 3
    assert -1 not in after.display
    assert card_totals(after) == card_totals(state)


def test_flush_3_at_most_three_flushes_then_locomotives_stay(usa, turn):
    """FLUSH-3: after three flushes in a row the display keeps its locomotives."""
    deck = card_list("L" + "LLLGG" + "LLLGG" + "LLLGG" + "RRRR")
    state = arrange(turn, display=card_list("RLLGB"), deck=deck, discard=EMPTY)
    mid, events = step(usa, state, TakeFaceUp(card=RED))
    assert len(events_of(events, DisplayFlushed)) == 3
    assert mid.display == tuple(card_list("LLLGG"))
    assert mid.deck[mid.deck_pos :] == tuple(card_list("RRRR"))
    # The draw goes on; the remaining locomotives cannot be the second card.
    assert mid.phase is Phase.SECOND_CARD
    assert set(legal_actions(usa, mid)) == {DrawBlind(), TakeFaceUp(card=GREEN)}


def test_flush_3_cap_also_at_setup(usa):
    """FLUSH-3: the cap applies to the first display as well."""
    top = card_list("RRRRBBBB" + "LLLRB" + "LLLGG" + "LLLGG" + "LLGGL")
    events = []
    state = new_game(usa, 2, chance=ScriptedChance(train=top), events=events)
    assert len(events_of(events, DisplayFlushed)) == 3
    assert state.display.count(L) == 3


def test_flush_3_limit_restarts_after_a_card_is_taken(usa, turn):
    """FLUSH-3 / FLUSH-2: the limit counts flushes in a row; once a face-up card has been
    taken and replaced, the display is checked again and may flush."""
    deck = card_list("L" + "LLLGG" + "LLLGG" + "LLLGG" + "Y" + "YYYYY")
    state = arrange(turn, display=card_list("RLLGB"), deck=deck, discard=EMPTY)
    mid, _ = step(usa, state, TakeFaceUp(card=RED))
    assert mid.display == tuple(card_list("LLLGG"))
    end, events = step(usa, mid, TakeFaceUp(card=GREEN))
    assert len(events_of(events, DisplayFlushed)) == 1
    assert end.display == tuple(card_list("YYYYY"))
    assert hand_delta(state, end) == cards("RG")


def test_flush_4_no_flush_without_cards_to_replace(usa, turn):
    """FLUSH-4: with deck and discard pile empty after the refill, three locomotives stay."""
    state = arrange(turn, display=card_list("RLLGB"), deck=card_list("L"), discard=EMPTY)
    mid, events = step(usa, state, TakeFaceUp(card=RED))
    assert events_of(events, DisplayFlushed) == []
    assert mid.display == tuple(card_list("LLLGB"))
    assert mid.discard == EMPTY


def test_flush_4_slots_stay_empty_when_cards_run_out(usa, turn):
    """FLUSH-4: with nothing to refill from, empty slots stay empty and no flush happens,
    even with three locomotives showing."""
    state = arrange(turn, deck=(), discard=EMPTY, display=(RED, L, L, L, -1))
    end, events = step(usa, state, TakeFaceUp(card=RED))
    assert events_of(events, DisplayFlushed) == []
    assert end.display == (-1, L, L, L, -1)
    # Only face-up locomotives remain, so the draw ended with one card (DECK-4).
    assert end.current == 1


def test_flush_5_flushed_cards_reshuffled_at_once(usa, turn):
    """FLUSH-5: flushed cards are discarded before the refill, so a deck that runs out
    during the refill is rebuilt from them."""
    state = arrange(turn, display=card_list("RLLGB"), deck=card_list("LW"), discard=EMPTY)
    mid, events = step(usa, state, TakeFaceUp(card=RED))
    kinds = [type(e) for e in events]
    first_flush = kinds.index(DisplayFlushed)
    shuffles = [i for i, e in enumerate(events) if isinstance(e, Shuffled)]
    assert shuffles and shuffles[0] > first_flush
    reshuffle = events[shuffles[0]]
    assert reshuffle.reason == "reshuffle"
    assert Counter(reshuffle.order) == Counter(events[first_flush].cards)
    assert -1 not in mid.display


def test_flush_6_usa_flushes_an_edition_without_flush_does_not(usa):
    """FLUSH-6: the USA display flushes on 3 locomotives; an edition declaring no flush
    (as Nordic Countries does) keeps them."""
    assert index_of(usa).flush_at == 3
    no_flush = fixture_ruleset(display={"size": 5, "flush_locomotives": None, "flush_repeats": 3})
    state = started(no_flush, 2, seed=1)
    state = arrange(state, display=card_list("RLLGB"), deck=card_list("LYYYYY"))
    mid, events = step(no_flush, state, TakeFaceUp(card=RED))
    assert events_of(events, DisplayFlushed) == []
    assert mid.display == tuple(card_list("LLLGB"))


# -- the deck ------------------------------------------------------------------------------


def test_deck_1_reshuffle_discard_when_deck_empty(usa, turn):
    """DECK-1: a card needed from an empty deck comes from the shuffled discard pile."""
    state = arrange(turn, deck=(), discard=cards("RRRBB"))
    mid, events = step(usa, state, DrawBlind())
    shuffles = events_of(events, Shuffled)
    assert len(shuffles) == 1
    assert shuffles[0].pile == "train" and shuffles[0].reason == "reshuffle"
    assert Counter(shuffles[0].order) == Counter(card_list("RRRBB"))
    assert mid.discard == EMPTY
    assert mid.deck_size == 4
    drawn = events_of(events, BlindDrawn)[0].card
    assert drawn == shuffles[0].order[0]
    assert card_totals(mid) == card_totals(state)


def test_deck_2_spent_cards_go_to_discard(fx):
    """DECK-2: cards played for a claim and flushed cards go to the discard pile."""
    state = started(fx, 2, seed=3)
    state = with_player(state, 0, hand=cards("RRLB"))
    state = arrange(state, discard=EMPTY)
    after, _ = step(fx, state, ClaimRoute(route=track_id(fx, "A-B"), cards=cards("RRL")))
    assert after.discard == cards("RRL")


def test_deck_3_empty_deck_and_discard_no_blind_draw(usa, turn):
    """DECK-3: with deck and discard empty no card can be drawn blind; face-up cards can."""
    state = arrange(turn, deck=(), discard=EMPTY, display=card_list("RGBYO"))
    assert DrawBlind() not in legal_actions(usa, state)
    assert_illegal(usa, state, DrawBlind(), "DECK-3")
    mid, _ = step(usa, state, TakeFaceUp(card=RED))
    assert mid.phase is Phase.SECOND_CARD
    assert mid.display == tuple([-1, *card_list("GBYO")])
    assert_illegal(usa, mid, DrawBlind(), "DECK-3")


def test_deck_4_no_legal_second_card_ends_draw(usa, turn):
    """DECK-4: when no second card can be taken, the draw ends with one card."""
    state = arrange(turn, deck=(), discard=EMPTY, display=(RED, L, L, -1, -1))
    end, _ = step(usa, state, TakeFaceUp(card=RED))
    assert end.phase is Phase.TURN and end.current == 1
    assert hand_delta(state, end) == cards("R")


def test_deck_4_empty_display_after_first_card(usa, turn):
    """DECK-4: the last face-up card taken from an empty deck ends the draw."""
    state = arrange(turn, deck=(), discard=EMPTY, display=(-1, -1, GREEN, -1, -1))
    end, _ = step(usa, state, TakeFaceUp(card=GREEN))
    assert end.phase is Phase.TURN and end.current == 1


def test_deck_4_last_blind_card_and_only_locomotives_face_up(usa, turn):
    """DECK-4: a blind first card that empties the deck ends the draw when the display
    shows only locomotives."""
    state = arrange(turn, deck=card_list("W"), discard=EMPTY, display=(L, L, -1, -1, -1))
    end, _ = step(usa, state, DrawBlind())
    assert end.phase is Phase.TURN and end.current == 1
    assert hand_delta(state, end) == cards("W")


def test_deck_4_second_card_still_possible_from_display(usa, turn):
    """DECK-4: the draw continues while a non-locomotive face-up card remains."""
    state = arrange(turn, deck=(), discard=EMPTY, display=(RED, L, GREEN, -1, -1))
    mid, _ = step(usa, state, TakeFaceUp(card=RED))
    assert mid.phase is Phase.SECOND_CARD
    assert list(legal_actions(usa, mid)) == [TakeFaceUp(card=GREEN)]


def test_deck_5_last_blind_card_then_face_up(usa, turn):
    """DECK-5: the last card of deck and discard can be drawn blind, then a face-up card."""
    state = arrange(turn, deck=card_list("W"), discard=EMPTY, display=card_list("RLGBY"))
    mid, _ = step(usa, state, DrawBlind())
    assert mid.phase is Phase.SECOND_CARD
    legal = list(legal_actions(usa, mid))
    assert DrawBlind() not in legal
    assert TakeFaceUp(card=L) not in legal
    assert set(legal) == {TakeFaceUp(card=c) for c in (RED, GREEN, BLUE, YELLOW)}
    end, _ = step(usa, mid, TakeFaceUp(card=BLUE))
    assert hand_delta(state, end) == cards("WB")


def test_deck_5_last_card_is_in_the_discard_pile(usa, turn):
    """DECK-5: the last card may sit in the discard pile; it is reshuffled and drawn."""
    state = arrange(turn, deck=(), discard=cards("W"), display=card_list("LLGBY"))
    mid, _ = step(usa, state, DrawBlind())
    assert hand_delta(state, mid) == cards("W")
    assert set(legal_actions(usa, mid)) == {TakeFaceUp(card=c) for c in (GREEN, BLUE, YELLOW)}


def test_deck_6_empty_slots_refilled_after_claim(fx):
    """DECK-6: empty slots are refilled once a claim puts cards in the discard pile."""
    state = started(fx, 2, seed=3)
    state = with_player(state, 0, hand=cards("RRR"))
    state = arrange(state, deck=(), discard=EMPTY, display=(-1, -1, GREEN, -1, BLUE))
    after, events = step(fx, state, ClaimRoute(route=track_id(fx, "A-B"), cards=cards("RRR")))
    assert events_of(events, Shuffled)
    assert after.display.count(-1) == 0
    assert Counter(after.display) == Counter((RED, RED, RED, GREEN, BLUE))
    assert after.discard == EMPTY
