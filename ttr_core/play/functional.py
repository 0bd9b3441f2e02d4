"""The functional API: set up a game and apply actions to immutable states.

``new_game`` and ``apply`` are pure: they return new frozen states and never change their inputs, so
a rejected action (an [`IllegalActionError`][ttr_core.model.errors.IllegalActionError]) loses
nothing. When an ``events`` list is passed, every change is appended to it as an event. Chance comes
from the generator state carried in the game state, or, when replaying a record without a seed, from
the recorded shuffle outcomes (a [`Chance`][] source).

Underneath, both run on the [`Simulator`][ttr_core.play.simulator.Simulator]: the state is loaded
onto a table, the action applied there in place, and the result returned as a snapshot.
The rules themselves live in [`ttr_core.rules`][ttr_core.rules], one module per mechanic.
"""

from __future__ import annotations

from ttr_core.model import events as ev
from ttr_core.model.actions import Action
from ttr_core.model.errors import SetupError, quote
from ttr_core.model.state import GameState
from ttr_core.play.simulator import Simulator
from ttr_core.rules import tunnels
from ttr_core.rules.payments import is_counts
from ttr_core.rules.table import Chance, Table
from ttr_core.ruleset.ruleset import Ruleset

__all__ = [
    "SHARED_CACHE",
    "Chance",
    "PositionCache",
    "apply",
    "new_game",
    "simulator_at",
    "tunnel_payment_error",
]


KEPT_POSITIONS = 8
"""How many recent states a [`PositionCache`][] keeps a simulator for, by default."""


class PositionCache:
    """The simulators of the last few states the functional API met, so that playing on
    from a state moves its simulator on instead of loading the state again.

    A game played forward leaves each state behind, so its simulator is moved on. Once a
    caller plays on from a state it had already played on from (a search, or a test that
    tries every action), the cache keeps each state's simulator and moves a copy on.

    It holds real states, so it belongs to whoever plays the game, never to a bot: the
    ruleset keeps none. Pass your own with ``cache=`` to keep it apart from other code in
    the process (a server, one per game); calls without one share [`SHARED_CACHE`][].
    A cache only saves time: every call gives the same result with any cache or none.
    """

    def __init__(self, size: int = KEPT_POSITIONS) -> None:
        """An empty cache for ``size`` states.

        :raises SetupError: ``size`` is not an ``int`` of at least 1.
        """
        if type(size) is not int or size < 1:
            raise SetupError(f"a position cache keeps at least 1 state, not {quote(size)}")
        self.size = size
        """How many states it keeps a simulator for; the oldest goes first."""
        self._kept: dict[int, tuple[Ruleset, GameState, Simulator]] = {}
        self._left: dict[int, GameState] = {}
        """The last states whose simulators were moved on, to notice a state played again."""
        self._copies = False
        """Whether a state is played on from more than once, so simulators are copied."""

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        """Forget every kept state and simulator."""
        self._kept.clear()
        self._left.clear()
        self._copies = False

    def _to_move_on(self, rs: Ruleset, state: GameState, action: object, seat: object) -> Simulator:
        """A simulator at ``state`` to apply ``action`` from ``seat`` on: the kept one,
        taken out, or, once states are played on from more than once, a copy of it (kept
        or loaded), made only once the action is known to apply.

        :raises IllegalActionError: (copying) the action does not apply; nothing changes.
        :raises SetupError: (copying) ``seat`` is not a seat of the game.
        """
        key = id(state)
        if not self._copies:
            found = self._get(rs, state, take=True)
            if found is not None:
                left = self._left
                left[key] = state
                if len(left) > self.size:
                    del left[next(iter(left))]
                return found
            self._copies = self._left.get(key) is state
            if not self._copies:
                return Simulator.from_state(rs, state, record=False)
        found = self._get(rs, state)
        if found is None:
            found = Simulator.from_state(rs, state, record=False)
            self._keep(rs, state, found)
        found._refuse(action, seat)
        return found.clone()

    def _get(self, rs: Ruleset, state: GameState, *, take: bool = False) -> Simulator | None:
        """The kept simulator at ``state`` of ``rs`` (removed from the cache if ``take``)."""
        kept = self._kept
        found = kept.pop(id(state), None) if take else kept.get(id(state))
        if found is not None and found[0] is rs and found[1] is state:
            return found[2]
        return None

    def _keep(self, rs: Ruleset, state: GameState, sim: Simulator) -> GameState:
        kept = self._kept
        kept[id(state)] = (rs, state, sim)
        if len(kept) > self.size:
            del kept[next(iter(kept))]
        return state


SHARED_CACHE = PositionCache()
"""The cache of the functional API's calls that are given none; ``clear()`` empties it."""


def simulator_at(
    rs: Ruleset, state: GameState, *, copy: bool = True, cache: PositionCache | None = None
) -> Simulator:
    """A simulator (recording nothing) at ``state``.

    The cache (``cache``, or [`SHARED_CACHE`][]) keeps the simulators of the last few
    states met, so playing on from a state copies its simulator instead of loading the
    state again. With ``copy=False`` the kept simulator itself is returned: only read
    it, and know that ``apply`` from that state moves it on (its snapshot is no longer
    ``state``).
    """
    kept = SHARED_CACHE if cache is None else cache
    sim = kept._get(rs, state)
    if sim is None:
        sim = Simulator.from_state(rs, state, record=False)
        kept._keep(rs, state, sim)
    return sim.clone() if copy else sim


def new_game(
    rs: Ruleset,
    players: int,
    *,
    seed: int | None = None,
    start_player: int = 0,
    events: list[ev.Event] | None = None,
    chance: Chance | None = None,
    cache: PositionCache | None = None,
) -> GameState:
    """Set up a game: shuffle, deal 4 cards each, lay out the display, deal opening tickets.

    Pass ``seed`` for a seeded game, or ``chance`` to take the shuffles from a record,
    and ``cache`` to keep its simulator in that cache (see [`PositionCache`][]).

    :raises SetupError: the player count or start player is out of range, or neither
        ``seed`` nor ``chance`` was given.
    """
    sim = Simulator.new(
        rs,
        players,
        seed=seed,
        start_player=start_player,
        record=False,
        events=events,
        chance=chance,
    )
    return (SHARED_CACHE if cache is None else cache)._keep(rs, sim.snapshot(), sim)


def apply(
    rs: Ruleset,
    state: GameState,
    action: Action,
    *,
    events: list[ev.Event] | None = None,
    chance: Chance | None = None,
    seat: int | None = None,
    cache: PositionCache | None = None,
) -> GameState:
    """Return the state after the current player takes ``action``.

    Pass ``seat``, the seat the action comes from, to have it refused unless that seat is
    the one to act (rule TURN-4); without it the action is taken as the current player's.
    ``cache`` is the [`PositionCache`][] to play on from ([`SHARED_CACHE`][] if None).

    :raises IllegalActionError: the action is not legal here, or ``seat`` is not the seat
        to act; ``state`` is unchanged and no event was appended.
    :raises SetupError: ``seat`` is not a seat of this game (not an ``int``, or out of range).
    """
    # The simulator kept for ``state`` (or a copy, see PositionCache) moves on to the new
    # state; readers of it (a LegalActions) notice that its snapshot changed. A refused
    # action leaves it as it was, to be kept again.
    kept = SHARED_CACHE if cache is None else cache
    sim = kept._to_move_on(rs, state, action, seat)
    try:
        sim.apply(action, seat=seat, events=events, chance=chance)
    except BaseException:
        if not kept._copies:
            kept._keep(rs, state, sim)
        raise
    return kept._keep(rs, sim.snapshot(), sim)


def tunnel_payment_error(
    rs: Ruleset, state: GameState, cards: tuple[int, ...]
) -> tuple[str, str] | None:
    """Why ``cards`` cannot pay the pending tunnel's extra cost, as (rule, message); or None."""
    t = Table(rs, len(state.players))
    t.load(state)
    if is_counts(cards) and cards in tunnels.extra_payments(t):
        return None
    return tunnels.payment_error(t, cards)
