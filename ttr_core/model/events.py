"""Events: every change to a game is one. Each class has a stable ``tag``.

Chance outcomes are recorded in events (a shuffle's resulting order, each card drawn), so a saved
record replays without a random generator. Some events carry secrets (a player's cards or tickets, a
shuffle's order); [`ttr_core.rules.views.redact`][ttr_core.rules.views.redact] blanks them for the
players who may not see them.
"""

from __future__ import annotations

from typing import ClassVar

from attrs import field, frozen

from ttr_core.model.actions import Action

CARD = {"wire": "card"}
CARDS = {"wire": "cards"}
CARD_LIST = {"wire": "card_list"}


@frozen
class Event:
    """Base class of all events."""

    tag: ClassVar[str] = ""


@frozen
class GameStarted(Event):
    """A new game: seats and the start player."""

    tag: ClassVar[str] = "game_started"
    players: int
    start_player: int


@frozen
class Shuffled(Event):
    """A pile was shuffled; ``order`` is the outcome, top first (hidden from players).

    ``pile`` is ``"train"`` (card numbers, in JSON too) or ``"tickets"`` (ticket ids);
    ``reason`` is ``"setup"``, ``"setup_long"`` (the long-ticket pile of editions that deal
    long tickets) or ``"reshuffle"`` (the discard pile became the deck).
    """

    tag: ClassVar[str] = "shuffled"
    pile: str
    reason: str
    order: tuple[int, ...]


@frozen
class CardsDealt(Event):
    """A player was dealt opening train cards (private)."""

    tag: ClassVar[str] = "cards_dealt"
    player: int
    cards: tuple[int, ...] = field(metadata=CARD_LIST)


@frozen
class CardRevealed(Event):
    """A card from the deck was turned face up into a display slot."""

    tag: ClassVar[str] = "card_revealed"
    slot: int
    card: int = field(metadata=CARD)


@frozen
class DisplayFlushed(Event):
    """Too many face-up locomotives: the display went to the discard pile."""

    tag: ClassVar[str] = "display_flushed"
    cards: tuple[int, ...] = field(metadata=CARD_LIST)


@frozen
class LocomotivesRemain(Event):
    """The flush limit was reached: the locomotives stay face up (rule FLUSH-3)."""

    tag: ClassVar[str] = "locomotives_remain"
    locomotives: int


@frozen
class FaceUpTaken(Event):
    """A player took a face-up card."""

    tag: ClassVar[str] = "face_up_taken"
    player: int
    slot: int
    card: int = field(metadata=CARD)


@frozen
class BlindDrawn(Event):
    """A player drew the top card of the deck (the card is private)."""

    tag: ClassVar[str] = "blind_drawn"
    player: int
    card: int = field(metadata=CARD)


@frozen
class TicketsDealt(Event):
    """A player received tickets to choose from (private)."""

    tag: ClassVar[str] = "tickets_dealt"
    player: int
    tickets: tuple[int, ...]


@frozen
class TicketsKept(Event):
    """A player kept some tickets (private) and returned the rest (where: ``returned_to``)."""

    tag: ClassVar[str] = "tickets_kept"
    player: int
    kept: tuple[int, ...]
    returned: tuple[int, ...]
    returned_to: str


@frozen
class RouteClaimed(Event):
    """A player claimed a track with these cards and scored its points."""

    tag: ClassVar[str] = "route_claimed"
    player: int
    route: int
    cards: tuple[int, ...] = field(metadata=CARDS)
    points: int


@frozen
class GroupClaimStarted(Event):
    """A player began a claim paid partly with groups of any cards (cards chosen next)."""

    tag: ClassVar[str] = "group_claim_started"
    player: int
    route: int
    groups: int
    size: int
    """How many cards the payment will hold."""


@frozen
class CardChosen(Event):
    """A player laid down one more card of a payment being chosen."""

    tag: ClassVar[str] = "card_chosen"
    player: int
    card: int = field(metadata=CARD)


@frozen
class TunnelRevealed(Event):
    """A tunnel claim turned over cards; ``extra`` more cards are demanded."""

    tag: ClassVar[str] = "tunnel_revealed"
    player: int
    route: int
    cards: tuple[int, ...] = field(metadata=CARD_LIST)
    extra: int


@frozen
class TunnelWithdrawn(Event):
    """A player gave up a tunnel claim; the revealed cards were discarded."""

    tag: ClassVar[str] = "tunnel_withdrawn"
    player: int
    route: int


@frozen
class StationBuilt(Event):
    """A player built a station."""

    tag: ClassVar[str] = "station_built"
    player: int
    city: str
    cards: tuple[int, ...] = field(metadata=CARDS)


@frozen
class Passed(Event):
    """A player passed (nothing else was legal)."""

    tag: ClassVar[str] = "passed"
    player: int


@frozen
class FinalRoundStarted(Event):
    """A player ended a turn with few trains: everyone gets exactly one more turn."""

    tag: ClassVar[str] = "final_round_started"
    player: int
    trains: int


@frozen
class GameEnded(Event):
    """The game is over; ``reason`` is ``"final_round"`` or ``"deadlock"``."""

    tag: ClassVar[str] = "game_ended"
    reason: str


EVENT_TYPES: tuple[type[Event], ...] = (
    GameStarted,
    Shuffled,
    CardsDealt,
    CardRevealed,
    DisplayFlushed,
    LocomotivesRemain,
    FaceUpTaken,
    BlindDrawn,
    TicketsDealt,
    TicketsKept,
    RouteClaimed,
    GroupClaimStarted,
    CardChosen,
    TunnelRevealed,
    TunnelWithdrawn,
    StationBuilt,
    Passed,
    FinalRoundStarted,
    GameEnded,
)


@frozen
class LogEntry:
    """One applied action and the events it caused: an entry of a game's log."""

    action: Action
    events: tuple[Event, ...]
