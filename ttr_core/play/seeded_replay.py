"""A position and the actions applied since, from which any later position and the
actions' events are rebuilt.

[`Game`][ttr_core.Game] plays on a simulator that records nothing and keeps a
[`Tape`][] of what it applied: the events of an action (for the log, or those ``apply``
returned) are made from it when first asked for, and a listing it handed out rebuilds
its state from it, only if asked for after the game moved on. Playing the same actions
from the same position again gives the same positions and events, as chance comes from
the generator the position holds.
"""

from __future__ import annotations

from ttr_core.model.actions import Action
from ttr_core.model.events import Event
from ttr_core.model.state import GameState
from ttr_core.play.simulator import Simulator
from ttr_core.ruleset.ruleset import Ruleset


class Tape:
    """The ``actions`` applied from ``start`` (a position of a game of ``rs`` between
    ``names``), in order, and the events of the first of them; the others' events are
    made when first asked for. It is only appended to.

    Without a ``start``, the actions begin at the deal of ``seed`` with ``start_player``
    to act first, dealt again when needed (the same seed deals the same game).
    """

    def __init__(
        self,
        rs: Ruleset,
        names: tuple[str, ...],
        start: GameState | None,
        *,
        seed: int = 0,
        start_player: int = 0,
    ) -> None:
        self.rs = rs
        self.names = names
        self.start = start
        self.seed = seed
        self.start_player = start_player
        self.actions: list[Action] = []
        self.events: list[tuple[Event, ...]] = []
        """The events of ``actions[:len(events)]``."""
        self.read = False
        """Whether events were asked for since the last action was appended."""
        self._sim: Simulator | None = None
        """The simulator that makes the events: at ``start`` with ``actions[:_played]``
        applied (made when first needed)."""
        self._played = 0

    def _at_start(self) -> Simulator:
        start = self.start
        if start is None:
            return Simulator.new(
                self.rs, self.names, seed=self.seed, start_player=self.start_player, record=False
            )
        return Simulator.from_state(self.rs, start, names=self.names, record=False)

    def position(self, applied: int) -> GameState:
        """The state after the first ``applied`` actions, rebuilt by playing them again."""
        sim = self._at_start()
        for action in self.actions[:applied]:
            sim.apply(action)
        return sim.snapshot()

    def events_of(self, i: int) -> tuple[Event, ...]:
        """The events of ``actions[i]``."""
        self.read = True
        events = self.events
        if i >= len(events):
            self._make(i + 1)
        return events[i]

    def all_events(self) -> list[tuple[Event, ...]]:
        """The events of every action, in order."""
        self.read = True
        if len(self.events) < len(self.actions):
            self._make(len(self.actions))
        return self.events

    def _make(self, upto: int) -> None:
        """Make the events of ``actions[:upto]`` (some of them are not made yet)."""
        sim = self._sim
        if sim is None:
            sim = self._sim = self._at_start()
        actions = self.actions
        events = self.events
        for action in actions[self._played : len(events)]:
            sim.apply(action)  # its events were made as it was applied: only catch up
        for action in actions[len(events) : upto]:
            caused: list[Event] = []
            sim.apply(action, events=caused)
            events.append(tuple(caused))
        self._played = upto
