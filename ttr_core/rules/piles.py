"""The piles of train cards: the deck, the discard pile and the face-up display.

Drawing takes the top card of the deck and reshuffles the discard pile into a new deck
when the deck runs out (DECK-2). Empty display slots are refilled from the deck, and a
display showing too many locomotives is flushed to the discard pile (FLUSH-2 to FLUSH-4).
Shuffles take their outcome from the table's generator or, when replaying a record
without a seed, from the recorded outcomes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from ttr_core.model import events as ev
from ttr_core.model import rng
from ttr_core.model.cards import LOCO, NUM_KINDS
from ttr_core.model.errors import IllegalActionError
from ttr_core.model.native import is_compiled
from ttr_core.rules.index import index_of
from ttr_core.rules.table import Table

if TYPE_CHECKING:
    from ttr_core.ruleset.ruleset import Ruleset


def shuffle(t: Table, pile: str, reason: str, items: Sequence[int]) -> tuple[int, ...]:
    """Shuffle ``items``; record the outcome as an event."""
    if t.chance is not None:
        order = t.chance.shuffle(pile, reason, items)
    else:
        if t.rng < 0:
            raise IllegalActionError(
                "DECK-1", "this game has no random generator and no recorded outcome"
            )
        out, t.rng = rng.shuffled(t.rng, items)
        order = tuple(out)
    if t.events is not None:
        t.events.append(ev.Shuffled(pile=pile, reason=reason, order=order))
    return order


def unseen_cards(
    rs: Ruleset, hand: Sequence[int], discard: Sequence[int], shown: Iterable[int]
) -> list[int]:
    """Nine counts of the train cards a seat cannot see: the edition's cards less its
    ``hand``, the ``discard`` pile (nine counts each) and the cards ``shown`` face up (the
    display, where -1 is an empty slot, and a tunnel's turned-over cards). They are in the
    deck and in the other players' hands. A count is negative only for cards no game can
    show."""
    ix = index_of(rs)
    unseen = list(ix.deck_counts)
    for k in range(NUM_KINDS):
        unseen[k] = unseen[k] - (hand[k] + discard[k])
    for c in shown:
        if c >= 0:
            unseen[c] = unseen[c] - 1
    return unseen


def available(t: Table) -> int:
    """Cards that can still be drawn: the deck plus the discard pile."""
    return len(t.deck) - t.deck_pos + sum(t.discard)


def can_draw(t: Table) -> bool:
    """Whether a card can be drawn from the deck (after a reshuffle if need be)."""
    if t.deck_pos < len(t.deck):
        return True
    return any(n for n in t.discard)


def draw(t: Table) -> int:
    """Take the top card of the deck, reshuffling the discard pile first if needed.

    Returns -1 if deck and discard pile are both empty.
    """
    if t.deck_pos >= len(t.deck):
        discard = t.discard
        if not any(discard):
            return -1
        items = [k for k in range(NUM_KINDS) for _ in range(discard[k])]
        t.deck = shuffle(t, "train", "reshuffle", items)
        t.deck_pos = 0
        t.discard = [0] * NUM_KINDS
    card = t.deck[t.deck_pos]
    t.deck_pos += 1
    return card


def to_discard(t: Table, cards: tuple[int, ...]) -> None:
    """Put nine counts of cards on the discard pile."""
    discard = t.discard
    for k in range(NUM_KINDS):
        n = cards[k]
        if n:
            discard[k] = discard[k] + n


def refill(t: Table) -> None:
    """Fill empty display slots and flush as the rules say; keep ``t.faceup`` current
    and mark ``t.shown`` out of date (every change of the display ends here)."""
    if _COMPILED:
        for card in t.display:  # compiled, the loop compares machine integers
            if card < 0:
                break
        else:
            return
    elif -1 not in t.display:
        return
    _refill(t)
    update_face_up(t)


def update_face_up(t: Table) -> None:
    """Set ``t.faceup``, the kinds of card on display in card order, and mark
    ``t.shown`` out of date (the next snapshot builds it)."""
    shown = 0
    for card in t.display:
        if card >= 0:
            shown |= 1 << card
    t.faceup = _KINDS[shown]
    t.shown = ()


_COMPILED: Final = is_compiled(__file__)

_KINDS: Final = tuple(
    tuple(k for k in range(NUM_KINDS) if shown >> k & 1) for shown in range(1 << NUM_KINDS)
)
"""The kinds of card in card order, by the set of kinds as bits (bit k for card k)."""


def _refill(t: Table) -> None:
    """Fill empty display slots; if any card was turned up, apply the flush (FLUSH-2).

    Flushes repeat while the new display again shows too many locomotives, at most
    ``flush_repeats`` times in a row (FLUSH-3), and only while deck or discard pile hold
    a card (FLUSH-4).
    """
    flush_at = t.flush_at
    repeats = 0
    display = t.display
    events = t.events
    while True:
        revealed = False
        for slot in range(len(display)):
            if display[slot] < 0:
                if t.deck_pos < len(t.deck):
                    new = t.deck[t.deck_pos]
                    t.deck_pos += 1
                else:
                    new = draw(t)
                    if new < 0:
                        break
                display[slot] = new
                revealed = True
                if events is not None:
                    events.append(ev.CardRevealed(slot=slot, card=new))
        if not revealed or flush_at < 0:
            return
        locos = 0
        for card in display:
            if card == LOCO:
                locos += 1
        if locos < flush_at:
            return
        if available(t) == 0:
            return
        if repeats >= t.flush_repeats:
            if events is not None:
                events.append(ev.LocomotivesRemain(locomotives=display.count(LOCO)))
            return
        repeats += 1
        flushed = tuple(c for c in display if c >= 0)
        for c in flushed:
            t.discard[c] = t.discard[c] + 1
        for slot in range(len(display)):
            display[slot] = -1
        if events is not None:
            events.append(ev.DisplayFlushed(cards=flushed))


def deal_hands(t: Table) -> None:
    """Deal every seat its starting hand from the deck, in seat order."""
    size = t.rs.params.starting_hand
    for seat in range(t.players):
        dealt = []
        base = seat * NUM_KINDS
        for _ in range(size):
            card = draw(t)
            t.hands[base + card] = t.hands[base + card] + 1
            dealt.append(card)
        if t.events is not None:
            t.events.append(ev.CardsDealt(player=seat, cards=tuple(dealt)))
