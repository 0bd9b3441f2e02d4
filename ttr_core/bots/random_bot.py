"""The random bot: every legal action equally likely. A baseline, and a fuzzer of the rules."""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.bots.base import BaseBot
from ttr_core.model.actions import Action
from ttr_core.rules.views import PlayerView


class RandomBot(BaseBot):
    """Picks uniformly among the listed legal actions (one index of the lazy sequence)."""

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        """A uniformly random legal action."""
        return legal[self.below(len(legal))]

    def choose_index(self, count: int) -> int | None:
        """The same choice from the number of legal actions alone (see
        [`CountingBot`][ttr_core.bots.base.CountingBot]): the runner applies it without a
        view or an action object. None in a subclass that chooses otherwise."""
        if type(self).choose is not RandomBot.choose:
            return None
        return self.below(count)
