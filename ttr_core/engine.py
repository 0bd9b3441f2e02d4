"""The functional API: set up a game and apply actions to immutable states.

``new_game`` and ``apply`` are pure: they return new frozen states and never change
their inputs, so a rejected action (an :class:`~ttr_core.errors.IllegalActionError`)
loses nothing. When an ``events`` list is passed, every change is appended to it as an
event. Chance comes from the generator state carried in the game state, or, when
replaying a record without a seed, from the recorded shuffle outcomes (a
:class:`Chance` source).

Underneath, both run on the :class:`~ttr_core.simulator.Simulator`: the state is loaded
onto a table, the action applied there in place, and the result returned as a snapshot.
The rules themselves live in :mod:`ttr_core.rules`, one module per mechanic.
"""

from __future__ import annotations

from ttr_core import events as ev
from ttr_core.actions import Action
from ttr_core.rules import tunnels
from ttr_core.rules.claims import is_counts
from ttr_core.rules.table import Chance
from ttr_core.ruleset import Ruleset
from ttr_core.simulator import Simulator, player_names
from ttr_core.state import GameState

__all__ = ["Chance", "apply", "new_game", "pending_for", "simulator_at", "tunnel_payment_error"]


_KEPT = 8
"""How many recent positions each ruleset keeps a simulator for."""


def simulator_at(rs: Ruleset, state: GameState, *, copy: bool = True) -> Simulator:
    """A simulator (recording nothing) at ``state``.

    Each ruleset keeps the simulators of the last few states the functional API met, so
    playing on from a state copies its simulator instead of loading the state again.
    With ``copy=False`` the kept simulator itself is returned: only read it, and know
    that ``apply`` from that state moves it on (its ``version`` changes).
    """
    kept = rs.positions
    found = kept.get(id(state))
    if found is not None and found[0] is state:
        sim: Simulator = found[1]
    else:
        sim = Simulator.from_state(rs, state, record=False)
        _keep(rs, state, sim)
    return sim.clone() if copy else sim


def _keep(rs: Ruleset, state: GameState, sim: Simulator) -> GameState:
    kept = rs.positions
    kept[id(state)] = (state, sim)
    if len(kept) > _KEPT:
        del kept[next(iter(kept))]
    return state


def new_game(
    rs: Ruleset,
    players: int,
    *,
    seed: int | None = None,
    start_player: int = 0,
    events: list[ev.Event] | None = None,
    chance: Chance | None = None,
) -> GameState:
    """Set up a game: shuffle, deal 4 cards each, lay out the display, deal opening tickets.

    Pass ``seed`` for a seeded game, or ``chance`` to take the shuffles from a record.

    :raises SetupError: the player count or start player is out of range, or neither
        ``seed`` nor ``chance`` was given.
    """
    sim = Simulator.deal(
        rs,
        player_names(players),
        seed=seed,
        start_player=start_player,
        record=False,
        chance=chance,
        events=events,
    )
    return _keep(rs, sim.snapshot(), sim)


def apply(
    rs: Ruleset,
    state: GameState,
    action: Action,
    *,
    events: list[ev.Event] | None = None,
    chance: Chance | None = None,
    seat: int | None = None,
) -> GameState:
    """Return the state after the current player takes ``action``.

    Pass ``seat``, the seat the action comes from, to have it refused unless that seat is
    the one to act (rule TURN-4); without it the action is taken as the current player's.

    :raises IllegalActionError: the action is not legal here, or ``seat`` is not the seat
        to act; ``state`` is unchanged and no event was appended.
    :raises SetupError: ``seat`` is not a seat of this game (not an ``int``, or out of range).
    """
    # The simulator kept for ``state`` moves on to the new state; readers of it (a
    # LegalActions) notice that its version changed. A refused action leaves it as it was.
    found = rs.positions.pop(id(state), None)
    if found is not None and found[0] is state:
        sim: Simulator = found[1]
    else:
        sim = Simulator.from_state(rs, state, record=False)
    sink: list[ev.Event] | None = [] if events is not None else None
    if sink is None and chance is None:
        try:
            sim.apply(action, seat=seat)
        except BaseException:
            _keep(rs, state, sim)
            raise
        return _keep(rs, sim.snapshot(), sim)
    sim.events = sink
    sim.chance = chance
    try:
        sim.apply(action, seat=seat)
    except BaseException:
        _keep(rs, state, sim)
        raise
    finally:
        sim.events = None
        sim.chance = None
    if events is not None and sink:
        events.extend(sink)
    return _keep(rs, sim.snapshot(), sim)


def pending_for(state: GameState, seat: int) -> tuple[int, ...]:
    """Ticket indices waiting for ``seat``'s choice (opening deals included)."""
    if state.phase is state.phase.OPENING_TICKETS:
        return state.offers[seat]
    if state.phase is state.phase.KEEP_TICKETS and state.current == seat:
        return state.pending_tickets
    return ()


def tunnel_payment_error(
    rs: Ruleset, state: GameState, cards: tuple[int, ...]
) -> tuple[str, str] | None:
    """Why ``cards`` cannot pay the pending tunnel's extra cost, as (rule, message); or None."""
    sim = simulator_at(rs, state, copy=False)
    if is_counts(cards) and cards in tunnels.extra_payments(sim):
        return None
    return tunnels.payment_error(sim, cards)
