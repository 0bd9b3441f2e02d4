"""Per-player views: what one seat may know. Bots receive views, never states.

A view shows the viewer's own hand, tickets and ticket offers, and everything public:
the display, pile sizes, the discard pile, claimed tracks, stations, scores, train and
card counts of every player. It hides opponents' hands and tickets, their ticket
offers, the deck order and the random generator. A game server sends a view as JSON with
[`ttr_core.formats.serialize.view_to_json`][ttr_core.formats.serialize.view_to_json].
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import evolve, frozen

from ttr_core.model import events as ev
from ttr_core.model.errors import SetupError, quote
from ttr_core.model.filled import filled
from ttr_core.model.state import CardChoice, GameState, Phase, PlayerState, TunnelAttempt
from ttr_core.rules.index import index_of
from ttr_core.rules.tickets import pending_for
from ttr_core.rules.turn import require_seat

if TYPE_CHECKING:
    from ttr_core.ruleset.ruleset import Ruleset


@frozen(slots=False)
class PublicPlayer:
    """What everyone knows about a player."""

    seat: int
    hand_size: int
    trains: int
    tickets: int
    """Number of kept tickets."""
    score: int
    stations: int
    """Stations still in supply."""


@frozen
class TunnelView:
    """A pending tunnel claim, all of it public."""

    route: int
    """Track id."""
    paid: tuple[int, ...]
    revealed: tuple[int, ...]
    extra: int


@frozen
class CardChoiceView:
    """A claim paid with groups of any cards whose cards are being chosen, all public."""

    route: int
    """Track id."""
    groups: int
    size: int
    """How many cards the payment will hold."""
    chosen: tuple[int, ...]
    """Nine counts of the cards laid down so far."""


@frozen(slots=False)
class PlayerView:
    """The game as seat ``seat`` sees it."""

    edition: str
    seat: int
    phase: Phase
    current: int
    hand: tuple[int, ...]
    """The viewer's nine card counts."""
    tickets: tuple[int, ...]
    """Ids of the viewer's kept tickets."""
    offered: tuple[int, ...]
    """Ids of tickets the viewer is choosing from (empty otherwise)."""
    display: tuple[int, ...]
    deck_size: int
    discard: tuple[int, ...]
    ticket_deck_size: int
    owners: tuple[int, ...]
    """Owner seat per track (in map order), -1 if unclaimed."""
    station_owners: tuple[int, ...]
    players: tuple[PublicPlayer, ...]
    final_trigger: int
    turn: int
    tunnel: TunnelView | None
    choice: CardChoiceView | None = None


def view_of(rs: Ruleset, state: GameState, seat: object) -> PlayerView:
    """What ``seat`` may see of ``state``.

    :raises SetupError: ``seat`` is not a seat of the game (not an ``int``, a ``bool``, or
        out of range).
    """
    viewer = require_seat(seat, len(state.players))
    players = tuple([public_player(i, p) for i, p in enumerate(state.players)])
    return view_with(rs, state, viewer, players)


def public_player(seat: int, player: PlayerState) -> PublicPlayer:
    """What everyone knows of ``player``, who sits in ``seat``."""
    hand_size = 0
    for n in player.hand:  # a loop: the compiled build would call sum() as a Python function
        hand_size += n
    return filled(
        PublicPlayer,
        {
            "seat": seat,
            "hand_size": hand_size,
            "trains": player.trains,
            "tickets": len(player.tickets),
            "score": player.score,
            "stations": player.stations,
        },
    )


def view_with(
    rs: Ruleset, state: GameState, seat: int, players: tuple[PublicPlayer, ...]
) -> PlayerView:
    """[`view_of`][] for a valid ``seat``, given `public_player` of every seat of ``state``
    (which a simulator keeps while a seat's holdings stay the same)."""
    me = state.players[seat]
    return view_from(
        rs,
        seat,
        state.phase,
        state.current,
        me,
        pending_for(state, seat),
        state.display,
        state.deck_size,
        state.discard,
        len(state.ticket_deck),
        state.owners,
        state.station_owners,
        players,
        state.final_trigger,
        state.turn,
        state.tunnel,
        state.choice,
    )


def view_from(
    rs: Ruleset,
    seat: int,
    phase: Phase,
    current: int,
    me: PlayerState,
    offered: tuple[int, ...],
    display: tuple[int, ...],
    deck_size: int,
    discard: tuple[int, ...],
    ticket_deck_size: int,
    owners: tuple[int, ...],
    station_owners: tuple[int, ...],
    players: tuple[PublicPlayer, ...],
    final_trigger: int,
    turn: int,
    tunnel: TunnelAttempt | None,
    choice: CardChoice | None,
) -> PlayerView:
    """The view of ``seat`` from the parts of a position it shows, as [`view_with`][]
    reads them from a state: ``me`` is the seat's `PlayerState` and ``offered`` its
    ticket offer (ticket indices); a simulator passes them from its table without
    building the state."""
    ix = index_of(rs)
    return filled(
        PlayerView,
        {
            "edition": rs.id,
            "seat": seat,
            "phase": phase,
            "current": current,
            "hand": me.hand,
            "tickets": tuple([ix.ticket_ids[i] for i in me.tickets]),
            "offered": tuple([ix.ticket_ids[i] for i in offered]),
            "display": display,
            "deck_size": deck_size,
            "discard": discard,
            "ticket_deck_size": ticket_deck_size,
            "owners": owners,
            "station_owners": station_owners,
            "players": players,
            "final_trigger": final_trigger,
            "turn": turn,
            "tunnel": None
            if tunnel is None
            else TunnelView(
                route=ix.route_ids[tunnel.route],
                paid=tunnel.paid,
                revealed=tunnel.revealed,
                extra=tunnel.extra,
            ),
            "choice": None
            if choice is None
            else CardChoiceView(
                route=ix.route_ids[choice.route],
                groups=choice.groups,
                size=choice.size,
                chosen=choice.chosen,
            ),
        },
    )


def redact(event: ev.Event, seat: object) -> ev.Event:
    """The event as ``seat`` may see it: secret parts of others' events are blanked.

    Shuffle outcomes are hidden from everyone; a hidden card reads -1, hidden tickets
    read as that many -1 entries. A ``seat`` of -1 (a spectator) sees no secret.

    :raises SetupError: ``seat`` is not an ``int`` of at least -1 (a ``bool`` is refused).
    """
    if type(seat) is not int or seat < -1:
        raise SetupError(f"seat must be an integer of at least -1 (a spectator), not {quote(seat)}")
    if isinstance(event, ev.Shuffled):
        return evolve(event, order=())
    if isinstance(event, ev.CardsDealt) and event.player != seat:
        return evolve(event, cards=(-1,) * len(event.cards))
    if isinstance(event, ev.BlindDrawn) and event.player != seat:
        return evolve(event, card=-1)
    if isinstance(event, ev.TicketsDealt) and event.player != seat:
        return evolve(event, tickets=(-1,) * len(event.tickets))
    if isinstance(event, ev.TicketsKept) and event.player != seat:
        return evolve(event, kept=(-1,) * len(event.kept), returned=(-1,) * len(event.returned))
    return event
