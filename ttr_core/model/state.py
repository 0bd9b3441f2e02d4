"""The immutable game state.

Every field is a plain value (ints and tuples), so a state is cheap to build, hashable,
and equal states compare equal. ``apply`` returns a new state; the old one is never
changed. The growing log lives outside the state (see [`ttr_core.play.game`][ttr_core.play.game]).
"""

from __future__ import annotations

from enum import IntEnum

from attrs import frozen


class Phase(IntEnum):
    """What the current player has to decide."""

    OPENING_TICKETS = 0
    """Choose which of the opening tickets to keep."""
    TURN = 1
    """Choose the turn's action."""
    SECOND_CARD = 2
    """Draw the second train card of a draw action."""
    KEEP_TICKETS = 3
    """Choose which of the drawn tickets to keep."""
    TUNNEL = 4
    """Pay the tunnel's extra cards, or withdraw."""
    GAME_OVER = 5
    """The game has ended."""
    CHOOSE_CARDS = 6
    """Choose, one card at a time, the cards of a claim paid partly with card groups."""


@frozen(slots=False)
class PlayerState:
    """One player's private and public holdings (fields in a dictionary, as in GameState)."""

    hand: tuple[int, ...]
    """Nine card counts (eight colours, then locomotives)."""
    trains: int
    tickets: tuple[int, ...]
    """Indices of the kept tickets, in the order they were kept."""
    score: int
    """The score track: route points scored during play."""
    stations: int = 0
    """Stations still in the player's supply."""
    blocked: tuple[int, ...] = ()
    """Unclaimed track indices this player may not claim: parallels of their own tracks.

    Only used where both tracks of a double route are open (enough players); below
    that threshold the parallel is closed for everyone instead.
    """


@frozen
class TunnelAttempt:
    """A tunnel claim waiting for the player to pay the extra cards or withdraw."""

    route: int
    paid: tuple[int, ...]
    """The nine-count payment laid down (still in the player's hand)."""
    revealed: tuple[int, ...]
    """The cards turned over from the deck, in order."""
    extra: int
    """How many extra cards the reveal demands."""
    color: int
    """The card that the extra cards must match (a colour, or the locomotive)."""


@frozen
class CardChoice:
    """A claim paid partly with groups of any cards, whose cards are being chosen.

    The cards chosen so far stay in the player's hand until the last one is chosen and
    the claim completes.
    """

    route: int
    groups: int
    """How many groups of any cards the payment holds."""
    size: int
    """How many cards the payment holds in all."""
    chosen: tuple[int, ...]
    """Nine card counts: the cards chosen so far."""


@frozen(slots=False)
class GameState:
    """The complete state of one game.

    Its fields live in an instance dictionary rather than slots: the simulator builds one
    per decision on the functional path, and attrs sets dictionary fields about three
    times faster than frozen slots.
    """

    phase: Phase
    current: int
    """Seat of the player to decide."""
    players: tuple[PlayerState, ...]
    deck: tuple[int, ...]
    """The train deck as shuffled; cards from ``deck_pos`` on are still in it, top first."""
    deck_pos: int
    discard: tuple[int, ...]
    """Nine card counts of the discard pile."""
    display: tuple[int, ...]
    """The face-up cards by slot; -1 marks an empty slot."""
    ticket_deck: tuple[int, ...]
    """Ticket indices, top first."""
    pending_tickets: tuple[int, ...]
    """Tickets drawn in play and waiting for the current player's choice."""
    owners: tuple[int, ...]
    """Owner seat of every track, -1 if unclaimed."""
    free: tuple[tuple[int, ...], ...]
    """Per route class, the tracks that are unclaimed and not closed."""
    start_player: int
    final_trigger: int = -1
    """Seat of the player whose turn started the final round, or -1."""
    passes: int = 0
    """Consecutive turns passed."""
    turn: int = 0
    """Player turns completed (the opening ticket choice is not a turn)."""
    rng: int = -1
    """Generator state; -1 when chance outcomes come from a record instead."""
    tunnel: TunnelAttempt | None = None
    station_owners: tuple[int, ...] = ()
    """Per city, the seat owning a station there, or -1 (editions with stations)."""
    offers: tuple[tuple[int, ...], ...] = ()
    """Per seat, the opening tickets dealt and not yet chosen from (empty once chosen)."""
    ended_by: str = ""
    """Why the game ended: ``"final_round"`` or ``"deadlock"``; empty while running."""
    choice: CardChoice | None = None
    """The claim whose cards are being chosen (phase ``CHOOSE_CARDS``), or None."""

    @property
    def deck_size(self) -> int:
        """Cards left in the train deck."""
        return len(self.deck) - self.deck_pos

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase is Phase.GAME_OVER
