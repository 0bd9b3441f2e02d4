"""Bots in server seats: built as ``ttr simulate`` builds them, asked off the event loop.

Each bot gets its own copy of the ruleset, its seat's view and its seat's legal actions
(a [`SeatActions`][ttr_core.hidden.seat_actions.SeatActions]), never the game state. Its
``choose`` runs on a worker thread, so a slow bot (``mcts``) never holds up other games
or connections.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor

from ttr_core.bots.base import Bot
from ttr_core.bots.registry import make_bot
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model import rng
from ttr_core.model.actions import Action
from ttr_core.play.game import Game
from ttr_core.ruleset.ruleset import Ruleset

log = logging.getLogger("ttr.server")


class SeatBot:
    """The bot playing one seat, with its own ruleset copy."""

    def __init__(self, spec: str, ruleset: Ruleset, seat: int, game_seed: int) -> None:
        """Build bot ``spec`` for ``seat``, seeded as `play_out` seeds it from the game's seed.

        :raises BotError: the spec is unknown or malformed.
        """
        self.spec = spec
        self.seat = seat
        self._rs = ruleset.private_copy()
        self._bot: Bot = make_bot(spec, self._rs, seat, rng.derive_seed(game_seed, seat + 1))

    async def choose(self, game: Game, executor: Executor) -> Action:
        """The bot's action at ``game``'s position (its seat is to act), chosen on a worker.

        A bot that fails (raises, or returns something that is not one of its legal
        actions) is logged and its seat takes its first legal action, so the game goes on.
        """
        view = game.view(self.seat)
        legal = SeatActions(self._rs, game.state, self.seat)
        loop = asyncio.get_running_loop()
        try:
            action = await loop.run_in_executor(executor, self._bot.choose, view, legal)
        except Exception as exc:
            log.warning("bot %r in seat %d failed: %s: %s", self.spec, self.seat, type(exc), exc)
            return legal[0]
        if action not in legal:
            log.warning("bot %r in seat %d chose an illegal %r", self.spec, self.seat, action)
            return legal[0]
        return action
