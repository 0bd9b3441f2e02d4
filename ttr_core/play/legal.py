"""The legal actions of a state, as a lazy sequence.

``LegalActions`` counts and indexes the legal actions without building them (like
python-chess's ``LegalMoveGenerator``); an action object is made only when it is asked
for. It is complete and sound: every action the rules allow is listed exactly once
(payments are distinct multisets of cards) and every listed action applies without
error. It is a view of a [`Simulator`][ttr_core.play.simulator.Simulator] at the state; the rules
that decide what is listed live in [`ttr_core.rules`][ttr_core.rules], one module per mechanic.

Listing order (stable): face-up cards by card number, the blind draw, drawing tickets,
claims (by route colour, gray last, then by length; tracks in map order; payments with
all locomotives first, then each colour with the most coloured cards first), claims paid
with groups of any cards (group classes, tracks, then the number of groups), stations
(cities in map order, then payments), pass. Ticket choices list the largest first;
tunnel payments the fewest locomotives first, then withdrawing. While a payment with
groups is being chosen, the cards that may come next, in card order.
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from typing import SupportsIndex, cast, overload

from ttr_core.model.actions import Action, Pass
from ttr_core.model.errors import SetupError
from ttr_core.model.native import SequenceBase
from ttr_core.model.state import GameState
from ttr_core.play.functional import PositionCache, simulator_at
from ttr_core.play.seeded_replay import Tape
from ttr_core.play.simulator import Simulator
from ttr_core.ruleset.ruleset import Ruleset


class LegalActions(SequenceBase[Action]):
    """The legal actions of the player to decide in ``state``: ``len``, index, iterate, ``in``.

    Pass ``simulator``, a simulator at ``state`` (its ``snapshot()`` is ``state`` itself),
    to list from it; it is only read, and once it is elsewhere the listing goes on from a
    new simulator loaded from ``state``. Without one, the simulator comes from ``cache``
    (see [`PositionCache`][ttr_core.play.functional.PositionCache]).

    With a simulator, ``state`` may be None: the listing is then of the simulator's
    current position, and its state is built only when asked for: from the simulator
    while it is still there, else by playing again the actions of ``tape``, a
    `Tape` (in `ttr_core.play.seeded_replay`) that ends at that position. That is for
    the owner of the simulator (as `ttr_core.Game` is); a listing without a tape whose
    simulator moved on raises ``SetupError`` instead of listing another position.
    """

    def __init__(
        self,
        rs: Ruleset,
        state: GameState | None,
        *,
        simulator: Simulator | None = None,
        cache: PositionCache | None = None,
        tape: Tape | None = None,
    ) -> None:
        """A listing of ``state`` (see the class).

        :raises SetupError: ``state`` is None and no ``simulator`` is given.
        """
        self.rs = rs
        if simulator is not None:
            sim = simulator
        elif state is not None:
            sim = simulator_at(rs, state, copy=False, cache=cache)
        else:
            raise SetupError("a listing without a state needs the simulator at its position")
        self._state = state
        self._sim = sim
        self._table = sim._table
        """The simulator's table: its version tells whether the simulator moved on."""
        self._version = self._table.version
        """The simulator's version at ``state``: once it differs, the simulator is elsewhere."""
        self._tape = tape
        self._taped = 0 if tape is None else len(tape.actions)
        """How many of the tape's actions lead to ``state``."""
        self._n = sim.legal_count()

    @property
    def state(self) -> GameState:
        """The position listed.

        :raises SetupError: it was listed without a state nor a tape, and its simulator
            moved on (see the class).
        """
        state = self._state
        if state is None:
            tape = self._tape
            if self._table.version == self._version:
                state = self._sim.snapshot()
            elif tape is not None:
                state = tape.position(self._taped)
            else:
                raise SetupError(
                    "this listing's simulator moved on before the listed state was kept"
                )
            self._state = state
            self._tape = None
        return state

    @property
    def _at(self) -> Simulator:
        """The simulator at ``state``: the one given, or a new one once that is elsewhere."""
        sim = self._sim
        if self._table.version != self._version:
            sim = Simulator.from_state(self.rs, self.state, record=False)
            sim.legal_count()  # counted, so that its listing is current
            self._sim = sim
            self._table = sim._table
            self._version = self._table.version
        return sim

    def __len__(self) -> int:
        return self._n

    def count(self, value: object = None) -> int:
        """With no argument, the number of legal actions; with one, 1 if it is legal else 0."""
        if value is None:
            return self._n
        return 1 if value in self else 0

    def count_without_pass(self) -> int:
        """How many legal actions there are besides passing."""
        return self._n - 1 if self._n == 1 and isinstance(self[0], Pass) else self._n

    def __bool__(self) -> bool:
        return self._n > 0

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: object) -> Action | Sequence[Action]:
        # ``i`` is typed ``object`` so that the compiled build, too, takes any integer
        # (an object with ``__index__``) and gives Python's own TypeError for the rest.
        if type(i) is int:  # first, and by exact type: the common case, and a cheap test
            n = self._n
            k = i + n if i < 0 else i
            if not 0 <= k < n:
                raise IndexError("legal action index out of range")
            sim = self._sim if self._table.version == self._version else self._at
            return sim._listed_action(k)
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        return self[operator.index(cast(SupportsIndex, i))]

    def __iter__(self) -> Iterator[Action]:
        for i in range(self._n):
            yield self._at._listed_action(i)

    def __reversed__(self) -> Iterator[Action]:
        for i in range(self._n - 1, -1, -1):
            yield self._at._listed_action(i)

    def __contains__(self, action: object) -> bool:
        return self._at.is_legal(action)

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The position of ``value`` among the legal actions (from ``start`` up to
        ``stop``), as ``Sequence.index``.

        :raises ValueError: ``value`` is not listed there.
        """
        for i in range(*slice(start, stop).indices(self._n)):
            if self._at._listed_action(i) == value:
                return i
        raise ValueError(f"{value!r} is not a legal action here")

    def __repr__(self) -> str:
        return f"<LegalActions: {self._n} actions>"


Sequence.register(LegalActions)  # a Sequence by registration: see SequenceBase


def legal_actions(rs: Ruleset, state: GameState) -> LegalActions:
    """The legal actions of the player to decide in ``state`` (empty once the game is over)."""
    return LegalActions(rs, state)
