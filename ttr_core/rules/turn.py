"""The turn: whose decision it is, the end of a turn, the final round and the end of the game.

A turn ends after its action (TURN-1); the player who ends a turn with two trains or
fewer starts the final round (END-1), which ends the game when that player's last turn
is over. A game where every player passed in a row ends in deadlock (PASS-2). Passing
is legal only when no other action is (PASS-1). Only the seat to act may act (TURN-4).
"""

from __future__ import annotations

from ttr_core.model import events as ev
from ttr_core.model.errors import IllegalActionError, SetupError, quote
from ttr_core.rules.table import (
    CHOOSE_CARDS,
    GAME_OVER,
    KEEP_TICKETS,
    OPENING_TICKETS,
    SECOND_CARD,
    TUNNEL,
    TURN,
    Table,
)

DECIDING = {
    OPENING_TICKETS: "choosing opening tickets",
    TURN: "taking a turn",
    SECOND_CARD: "drawing a second card",
    KEEP_TICKETS: "choosing drawn tickets",
    TUNNEL: "paying for a tunnel",
    CHOOSE_CARDS: "choosing the cards of a payment",
}
"""What the seat to act is doing, by phase (for the TURN-4 message)."""


def require_seat(seat: object, players: int) -> int:
    """``seat`` if it is a seat of a ``players``-player game: an ``int`` from 0 to
    ``players - 1`` (a ``bool`` is not a seat).

    :raises SetupError: any other value, of any type or size; the message quotes it short.
    """
    if type(seat) is not int or not 0 <= seat < players:
        raise SetupError(f"seat must be an integer from 0 to {players - 1}, not {quote(seat)}")
    return seat


def check_seat(t: Table, seat: object) -> None:
    """Refuse an action from ``seat`` unless it is the seat to act (rule TURN-4).

    Every decision, the opening ticket choices included, belongs to the current seat;
    once the game is over nobody acts, which is reported as END-2.

    :raises SetupError: ``seat`` is not an ``int`` seat of this game (``bool`` is refused).
    :raises IllegalActionError: ``seat`` is a seat of the game but not the one to act.
    """
    require_seat(seat, t.players)
    if seat != t.current and t.phase != GAME_OVER:
        raise IllegalActionError(
            "TURN-4", f"seat {seat} may not act: seat {t.current} is {DECIDING[t.phase]}"
        )


def end_turn(t: Table, *, passed: bool = False) -> None:
    """Close the current player's turn: final-round trigger, game end, next player."""
    p = t.current
    n = t.players
    events = t.events
    t.passes = t.passes + 1 if passed else 0
    over = ""
    if t.final_trigger < 0:
        trains = t.trains[p]
        if trains <= 2:
            t.final_trigger = p
            if events is not None:
                events.append(ev.FinalRoundStarted(player=p, trains=trains))
    elif t.final_trigger == p:
        over = "final_round"
    if not over and t.passes >= n:
        over = "deadlock"
    if over:
        if events is not None:
            events.append(ev.GameEnded(reason=over))
        t.phase = GAME_OVER
        t.ended_by = over
    else:
        t.phase = TURN
        t.current = p + 1 if p + 1 < n else 0
    if t.pending:
        t.pending = ()
    if t.tunnel is not None:
        t.tunnel = None
    if t.choice is not None:
        t.choice = None
    t.turn += 1


def pass_error(t: Table, others: int) -> tuple[str, str] | None:
    """Why passing is refused, given how many other actions are legal; None if it is not."""
    if t.phase != TURN:
        return "PASS-1", "only a whole turn can be passed"
    if others:
        return "PASS-1", "passing is allowed only when no other action is legal"
    return None


def pass_turn(t: Table) -> None:
    """Pass the turn (the caller has checked that nothing else is legal)."""
    if t.events is not None:
        t.events.append(ev.Passed(player=t.current))
    end_turn(t, passed=True)
