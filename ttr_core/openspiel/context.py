"""What the states of one OpenSpiel game share: the ruleset, the encodings, a scratch simulator.

A [`Context`][] is made once per edition, options and player count and shared by every
state of that game (copies and unpickled states included), so a state itself holds only
its immutable position.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ttr_core.model.cards import NUM_KINDS
from ttr_core.model.state import GameState
from ttr_core.openspiel import draws
from ttr_core.play.simulator import Simulator
from ttr_core.rl.encoding import ActionEncoding
from ttr_core.rl.observation import ObservationEncoding
from ttr_core.ruleset.ruleset import Ruleset

TICKET_OUTCOMES = NUM_KINDS
"""Chance outcomes from 0 to 8 are the card kinds drawn; from 9 on, the ticket of index
``outcome - 9`` (in map order)."""


class Context:
    """The ruleset of a game with its player count, encodings and scratch simulator."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.ruleset = ruleset
        self.players = players
        self.actions = ActionEncoding(ruleset)
        """The players' action codes (`ttr_core.rl.ActionEncoding`)."""
        self.observations = ObservationEncoding(ruleset, players)
        """The observation vectors (`ttr_core.rl.ObservationEncoding`)."""
        self.chance_outcomes = TICKET_OUTCOMES + len(ruleset.map.tickets)
        """How many chance outcomes there are: 9 card kinds, then every ticket."""
        self.deal_need = draws.deal(ruleset, players, draws.Step(None))
        """The first draw of the deal (the same in every game)."""
        self._scratch: Simulator | None = None

    def scratch(self, state: GameState) -> Simulator:
        """The shared simulator that plays out steps (recording nothing), made at
        ``state`` the first time."""
        if self._scratch is None:
            self._scratch = Simulator.from_state(self.ruleset, state, record=False)
        return self._scratch

    def __deepcopy__(self, memo: object) -> Context:
        return self  # shared by every state of the game

    def __reduce__(self) -> tuple[Any, ...]:
        return context_for, (self.ruleset.id, _key(self.ruleset.options), self.players)


def _key(options: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(options.items()))


@functools.lru_cache(maxsize=64)
def context_for(edition: str, options: tuple[tuple[str, Any], ...], players: int) -> Context:
    """The shared context of a game (one per edition, options and player count)."""
    return Context(Ruleset.build(edition, dict(options)), players)
