"""Drawing train cards: a face-up card or the top of the deck, one or two per turn.

A draw action takes two cards (DRAW-1): face up (DRAW-2) or blind from the deck. Where
the edition says so, a face-up locomotive is the whole draw and cannot be the second
card (DRAW-4, DRAW-5). The second card is skipped when none can be drawn (DECK-4); a
blind draw needs a card in the deck or the discard pile (DECK-3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from ttr_core.model import events as ev
from ttr_core.model.actions import Action, DrawBlind, TakeFaceUp
from ttr_core.model.cards import CARD_NAMES, LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError, quote
from ttr_core.rules import piles
from ttr_core.rules.payment_counts import gain_card
from ttr_core.rules.table import SECOND_CARD, TURN, Check, Table
from ttr_core.rules.turn import end_turn


def face_up_choices(t: Table) -> tuple[int, ...]:
    """The kinds of face-up card that may be taken now, in card order (listing)."""
    if t.phase == TURN:
        return t.faceup
    if t.phase == SECOND_CARD:
        faceup = t.faceup
        if t.loco_whole_draw and faceup and faceup[-1] == LOCO:
            return faceup[:-1]  # in card order, so a locomotive comes last
        return faceup
    return ()


def blind_ok(t: Table) -> bool:
    """Whether a blind draw is legal now (listing)."""
    return (t.phase == TURN or t.phase == SECOND_CARD) and piles.can_draw(t)


def face_up_error(t: Table, card: object) -> tuple[str, str]:
    """Why taking a face-up ``card`` is refused (it is not among ``face_up_choices``)."""
    if t.phase != TURN and t.phase != SECOND_CARD:
        return "TURN-1", "train cards can only be drawn as the turn's action"
    if type(card) is not int or not 0 <= card < NUM_KINDS:
        return "DRAW-2", f"there is no card kind {quote(card)}"
    if card not in t.display:
        return "DRAW-2", f"no face-up {CARD_NAMES[card]} card to take"
    return "DRAW-5", "a face-up locomotive cannot be taken as the second card"


def blind_error(t: Table) -> tuple[str, str]:
    """Why a blind draw is refused (``blind_ok`` is false)."""
    if t.phase != TURN and t.phase != SECOND_CARD:
        return "TURN-1", "train cards can only be drawn as the turn's action"
    return "DECK-3", "the deck and the discard pile are empty"


def take_face_up(t: Table, card: int) -> None:
    """Take the leftmost face-up ``card`` (listed), refill the display, go on or end."""
    display = t.display
    slot = 0
    while display[slot] != card:
        slot += 1
    display[slot] = -1
    if t.events is not None:
        t.events.append(ev.FaceUpTaken(player=t.current, slot=slot, card=card))
    piles.refill(t)
    gain_card(t, t.current, card)
    if card == LOCO and t.loco_whole_draw:
        end_turn(t)
    else:
        _second_card(t)


def draw_blind(t: Table) -> None:
    """Take the top card of the deck (listed), then go on or end the turn."""
    if t.deck_pos < len(t.deck):
        card = t.deck[t.deck_pos]
        t.deck_pos += 1
    else:
        card = piles.draw(t)
    if t.events is not None:
        t.events.append(ev.BlindDrawn(player=t.current, card=card))
    gain_card(t, t.current, card)
    _second_card(t)


def _second_card(t: Table) -> None:
    """After a card that lets the draw go on: wait for a second card if this was the
    first and one can be drawn (DECK-4), else end the turn."""
    if t.phase == TURN and (piles.can_draw(t) or _face_up_second(t)):
        t.phase = SECOND_CARD
    else:
        end_turn(t)


def _face_up_second(t: Table) -> bool:
    """Whether the display offers a card that may be taken second."""
    restricted = t.loco_whole_draw
    # A loop rather than any(): compiled, a generator is an object per call.
    for c in t.display:  # noqa: SIM110
        if c >= 0 and not (restricted and c == LOCO):
            return True
    return False


def check_face_up(t: Table, card: object) -> None:
    """Raise unless taking a face-up ``card`` is listed."""
    if type(card) is not int or card not in face_up_choices(t):
        raise IllegalActionError(*face_up_error(t, card))


def check_blind(t: Table) -> None:
    """Raise unless a blind draw is listed."""
    if not blind_ok(t):
        raise IllegalActionError(*blind_error(t))


def _face_up_checked(t: Table, action: Action) -> Callable[[], None]:
    assert isinstance(action, TakeFaceUp)
    card = action.card
    check_face_up(t, card)
    return lambda: take_face_up(t, card)


def _blind_checked(t: Table, action: Action) -> Callable[[], None]:
    check_blind(t)
    return lambda: draw_blind(t)


CHECKS: Final[Mapping[type[Action], Check]] = {
    TakeFaceUp: _face_up_checked,
    DrawBlind: _blind_checked,
}
"""The checks of drawing train cards, by action type (see [`Check`][ttr_core.rules.table.Check])."""
