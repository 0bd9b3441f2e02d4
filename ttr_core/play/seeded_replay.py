"""A seeded deal and the actions played since, from which any earlier position is rebuilt.

[`Game`][ttr_core.Game] keeps one so that it need not build a frozen state at every
decision: a listing it handed out rebuilds its state from here, only if it is ever asked
for after the game moved on.
"""

from __future__ import annotations

from ttr_core.model.actions import Action
from ttr_core.model.state import GameState
from ttr_core.play.simulator import Simulator
from ttr_core.ruleset.ruleset import Ruleset


class SeededReplay:
    """A game dealt from ``seed`` and the ``actions`` applied since, in order (appended to
    as the game goes on; never changed otherwise)."""

    def __init__(
        self,
        rs: Ruleset,
        names: tuple[str, ...],
        seed: int,
        start_player: int,
        actions: list[Action],
    ) -> None:
        self.rs = rs
        self.names = names
        self.seed = seed
        self.start_player = start_player
        self.actions = actions

    def position(self, applied: int) -> GameState:
        """The state after the first ``applied`` actions, rebuilt by playing them again."""
        sim = Simulator.new(
            self.rs, self.names, seed=self.seed, start_player=self.start_player, record=False
        )
        for action in self.actions[:applied]:
            sim.apply(action)
        return sim.snapshot()
