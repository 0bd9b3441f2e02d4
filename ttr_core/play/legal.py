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

from collections.abc import Iterator, Sequence
from typing import overload

from ttr_core.model.actions import Action, Pass
from ttr_core.model.state import GameState
from ttr_core.play.functional import PositionCache, simulator_at
from ttr_core.play.simulator import Simulator
from ttr_core.ruleset.ruleset import Ruleset


class LegalActions(Sequence[Action]):
    """The legal actions of the player to decide in ``state``: ``len``, index, iterate, ``in``.

    Pass ``simulator``, a simulator at ``state`` (its ``snapshot()`` is ``state`` itself),
    to list from it; it is only read, and once it is elsewhere the listing goes on from a
    new simulator loaded from ``state``. Without one, the simulator comes from ``cache``
    (see [`PositionCache`][ttr_core.play.functional.PositionCache]).
    """

    def __init__(
        self,
        rs: Ruleset,
        state: GameState,
        *,
        simulator: Simulator | None = None,
        cache: PositionCache | None = None,
    ) -> None:
        self.rs = rs
        self.state = state
        sim = (
            simulator if simulator is not None else simulator_at(rs, state, copy=False, cache=cache)
        )
        self._sim = sim
        self._n = self._at.legal_count()

    @property
    def _at(self) -> Simulator:
        """The simulator at ``state``: the one given, or a new one once that is elsewhere."""
        sim = self._sim
        if sim.snapshot() is not self.state:
            sim = self._sim = Simulator.from_state(self.rs, self.state, record=False)
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

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("legal action index out of range")
        return self._at.legal_action(i)

    def __iter__(self) -> Iterator[Action]:
        for i in range(self._n):
            yield self._at.legal_action(i)

    def __contains__(self, action: object) -> bool:
        return self._at.is_legal(action)

    def __repr__(self) -> str:
        return f"<LegalActions: {self._n} actions>"


def legal_actions(rs: Ruleset, state: GameState) -> LegalActions:
    """The legal actions of the player to decide in ``state`` (empty once the game is over)."""
    return LegalActions(rs, state)
