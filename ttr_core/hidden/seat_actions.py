"""The legal actions of one seat, listed from what that seat may know: what bots are given.

A seat's legal actions depend only on what it may see (its hand and tickets, the board,
the display, the sizes of the piles), so they can be listed without the hidden parts of
the position. [`SeatActions`][] does that: it is a lazy sequence like
[`LegalActions`][ttr_core.play.legal.LegalActions], but the simulator it lists from holds a redacted
copy of the position, in which the other players hold no cards, tickets or offers, both
decks hold placeholders (-1) and there is no random generator. Nothing reachable from it
tells the seat more than its view does.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from typing import overload

from ttr_core.hidden.determinize import known_state
from ttr_core.model.actions import Action, Pass
from ttr_core.model.cards import NUM_KINDS
from ttr_core.model.state import GameState, PlayerState
from ttr_core.play.simulator import Simulator
from ttr_core.rules.views import PlayerView
from ttr_core.ruleset.ruleset import Ruleset

_NO_CARDS = (0,) * NUM_KINDS


def redacted(state: GameState, seat: int) -> GameState:
    """``state`` with everything ``seat`` may not know emptied: the other players' hands,
    tickets and opening offers, tickets drawn by another seat, the order of both decks
    (placeholders of the same sizes) and the generator.

    Not a position a game can reach, but one where ``seat``, when it is to act, has the
    legal actions of ``state``.
    """
    players = tuple(
        p if i == seat else PlayerState(_NO_CARDS, p.trains, (), p.score, p.stations, p.blocked)
        for i, p in enumerate(state.players)
    )
    return GameState(
        phase=state.phase,
        current=state.current,
        players=players,
        deck=(-1,) * state.deck_size,
        deck_pos=0,
        discard=state.discard,
        display=state.display,
        ticket_deck=(-1,) * len(state.ticket_deck),
        pending_tickets=state.pending_tickets if state.current == seat else (),
        owners=state.owners,
        free=state.free,
        start_player=state.start_player,
        final_trigger=state.final_trigger,
        passes=state.passes,
        turn=state.turn,
        rng=-1,
        tunnel=state.tunnel,
        station_owners=state.station_owners,
        offers=tuple(o if i == seat else () for i, o in enumerate(state.offers)),
        ended_by=state.ended_by,
        choice=state.choice,
    )


class SeatActions(Sequence[Action]):
    """The legal actions of ``seat`` in ``state``: ``len``, index, iterate, ``in``.

    Empty unless ``seat`` is the one to act. The state itself is not kept: the listing
    comes from a simulator at [`redacted`][] ``(state, seat)``, so the sequence can be
    handed to a bot. [`from_view`][] lists from a view alone.

    ``simulator`` may pass a simulator of the same ruleset and player count to list from
    (it is loaded with the redacted state), which saves building one per decision. Give
    each seat its own: a seat that kept an earlier sequence can read whatever its
    simulator was loaded with last. A sequence whose simulator was loaded again since
    goes on listing from a new one.
    """

    def __init__(
        self, rs: Ruleset, state: GameState, seat: int, *, simulator: Simulator | None = None
    ) -> None:
        self._rs = rs
        self._state: GameState | None = None
        self._sim: Simulator | None = None
        self._n = 0
        if seat == state.current and not state.is_over:
            self._list(redacted(state, seat), simulator)

    @classmethod
    def _listed_on(cls, rs: Ruleset, listing: Simulator | None) -> SeatActions:
        """The legal actions at ``listing``, a simulator at a redacted position that only
        a [`SeatLister`][] changes (and which detaches the sequence first); none if None."""
        self = cls.__new__(cls)
        self._rs = rs
        self._state = None
        self._sim = listing
        self._n = 0 if listing is None else listing.legal_count()
        return self

    def _detach(self) -> None:
        """Go on listing from a copy of the simulator, which is about to move on."""
        if self._sim is not None:
            self._sim = self._sim.clone()

    @classmethod
    def from_view(cls, rs: Ruleset, view: PlayerView) -> SeatActions:
        """The legal actions of the viewer, from its view alone (empty unless it is to act).

        :raises ViewError: no position of ``rs``'s game shows the view (see
            [`validate_view`][ttr_core.hidden.view_check.validate_view]); the message gives the
            field's path.
        """
        state = known_state(rs, view)
        seat = view.seat if view.seat == view.current else -1
        return cls(rs, state, seat)

    def _list(self, state: GameState, simulator: Simulator | None) -> None:
        if simulator is None:
            simulator = Simulator.from_state(self._rs, state, record=False)
        else:
            simulator.load(state)
        self._state = state
        self._sim = simulator
        self._n = simulator.legal_count()

    @property
    def _at(self) -> Simulator | None:
        """The simulator at the redacted state (a new one if the one given moved on)."""
        sim = self._sim
        if sim is not None and self._state is not None and sim.snapshot() is not self._state:
            self._list(self._state, None)
            sim = self._sim
        return sim

    def __len__(self) -> int:
        return self._n

    def __bool__(self) -> bool:
        return self._n > 0

    def count_without_pass(self) -> int:
        """How many legal actions there are besides passing."""
        sim = self._at
        if sim is None or (self._n == 1 and isinstance(sim.legal_action(0), Pass)):
            return 0
        return self._n

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        sim = self._at
        if sim is None or not 0 <= i < self._n:
            raise IndexError("legal action index out of range")
        return sim.legal_action(i)

    def __iter__(self) -> Iterator[Action]:
        for i in range(self._n):
            yield self[i]

    def __contains__(self, action: object) -> bool:
        sim = self._at
        return sim is not None and sim.is_legal(action)

    def __repr__(self) -> str:
        return f"<SeatActions: {self._n} actions>"


class SeatLister:
    """Lists one seat's legal actions at each of its decisions, game after game: what
    [`SeatActions`][] lists, without building a state or loading one per decision.

    It keeps a simulator of its own at what the seat may know of the game's position,
    brought up to date from the game at each decision. The first decision of a game loads
    it with the [`redacted`][] state; later ones copy only what the seat may know and
    count the seat's hand again only when it changed. A sequence handed out earlier is
    moved to a copy of that simulator before it changes, so it keeps listing what it
    listed (which costs a copy only while something still holds it).
    """

    def __init__(self, rs: Ruleset, players: int) -> None:
        """A lister for ``players``-seat games of ``rs`` (the seat's own ruleset)."""
        self._rs = rs
        self._sim = Simulator(rs, [f"Player {s + 1}" for s in range(players)], record=False)
        self._seat = -1
        self._at = -1
        """The listing simulator's change number after the last update (-1: none yet)."""
        self._last: weakref.ref[SeatActions] | None = None
        self._fits: Ruleset | None = None
        """The last game ruleset found to have the lister's rules."""

    def actions(self, game: Simulator, seat: int) -> SeatActions:
        """The legal actions of ``seat`` at ``game``'s position (empty unless it is to act).

        :raises ValueError: ``game`` has another number of seats than the lister, or
            another map or options than its ruleset.
        """
        sim = self._sim
        if len(game.names) != len(sim.names):
            raise ValueError(
                f"this lister lists {len(sim.names)}-seat games, not {len(game.names)}-seat ones"
            )
        rs = game.ruleset
        if rs is not self._fits:
            if rs.map_hash != self._rs.map_hash or rs.options != self._rs.options:
                raise ValueError(f"this lister lists games of {self._rs!r}, not of {rs!r}")
            self._fits = rs
        if seat != game.current_player or game.is_over:
            return SeatActions._listed_on(self._rs, None)
        last = self._last() if self._last is not None else None
        if last is not None:
            last._detach()
        if seat == self._seat and sim._changes() == self._at:
            game._seat_view_into(sim, seat)
        else:
            sim.load(redacted(game.snapshot(), seat))
            self._seat = seat
        self._at = sim._changes()
        listed = SeatActions._listed_on(self._rs, sim)
        self._last = weakref.ref(listed)
        return listed
