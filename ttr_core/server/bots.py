"""Bots in server seats: built as ``ttr simulate`` builds them, asked off the event loop.

Each bot gets its own copy of the ruleset, its seat's view and its seat's legal actions
(a [`SeatActions`][ttr_core.hidden.seat_actions.SeatActions]), never the game state. Its
``choose`` runs on a worker thread, so a slow bot (``mcts``) never holds up other games
or connections. A bot that thinks longer than its time limit (``BOT_SECONDS`` by default)
does not hold up its own game either: its seat plays the ``FALLBACK_BOT`` for that move.
"""

from __future__ import annotations

import asyncio
import logging
import math
from concurrent.futures import Executor
from typing import Any, Final

from ttr_core.bots.base import Bot
from ttr_core.bots.registry import make_bot
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model import rng
from ttr_core.model.actions import Action
from ttr_core.play.game import Game
from ttr_core.ruleset.ruleset import Ruleset

log = logging.getLogger("ttr.server")

BOT_SECONDS: Final = 10.0
"""The default time limit of one bot move, in seconds of thinking on a worker thread."""

FALLBACK_BOT: Final = "random"
"""The bot that plays a move for a seat whose bot overran its time limit."""

_FALLBACK_SEED_INDEX: Final = 1_000
"""Seat ``s``'s fallback bot is seeded from the game's seed and ``1000 + s``."""


def check_bot_seconds(seconds: float) -> float:
    """``seconds`` as a bot time limit: a finite number above zero.

    :raises ValueError: it is not.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise ValueError(f"the bot time limit must be a number of seconds, not {seconds!r}")
    if not math.isfinite(seconds) or seconds <= 0:
        raise ValueError(f"the bot time limit must be above 0 seconds, not {seconds!r}")
    return float(seconds)


class SeatBot:
    """The bot playing one seat, with its own ruleset copy, and its fallback."""

    def __init__(
        self,
        spec: str,
        ruleset: Ruleset,
        seat: int,
        game_seed: int,
        seconds: float = BOT_SECONDS,
    ) -> None:
        """Build bot ``spec`` for ``seat``, seeded as `play_out` seeds it from the game's seed;
        each of its moves may take ``seconds`` of thinking.

        :raises BotError: the spec is unknown or malformed.
        :raises ValueError: ``seconds`` is not a number above zero.
        """
        self.spec = spec
        self.seat = seat
        self.seconds = check_bot_seconds(seconds)
        self._rs = ruleset.private_copy()
        self._bot: Bot = make_bot(spec, self._rs, seat, rng.derive_seed(game_seed, seat + 1))
        # The fallback has a ruleset of its own: the bot may still be thinking on its copy.
        self._fallback_rs = ruleset.private_copy()
        self._fallback: Bot = make_bot(
            FALLBACK_BOT,
            self._fallback_rs,
            seat,
            rng.derive_seed(game_seed, _FALLBACK_SEED_INDEX + seat),
        )
        self._overrun: asyncio.Future[Action] | None = None
        """The call of a bot past its limit, until it returns; the bot is not asked meanwhile."""

    async def choose(self, game: Game, executor: Executor) -> Action:
        """The bot's action at ``game``'s position (its seat is to act), chosen on a worker.

        A bot that fails (raises, or returns something that is not one of its legal
        actions) is logged and its seat takes its first legal action, so the game goes on.
        A bot that has not answered ``seconds`` after it started thinking is logged and its
        seat plays the fallback bot's move instead; until that late call returns (its
        answer is dropped), the bot is not asked again and the fallback plays every move.
        """
        if self._overrun is not None and not self._overrun.done():
            log.warning(
                "bot %r in seat %d is still thinking past its limit: %s plays",
                self.spec,
                self.seat,
                FALLBACK_BOT,
            )
            return await self._fall_back(game)
        view = game.view(self.seat)
        legal = SeatActions(self._rs, game.state, self.seat)
        loop = asyncio.get_running_loop()
        started: asyncio.Future[None] = loop.create_future()

        def think() -> Action:
            loop.call_soon_threadsafe(_settle, started)
            return self._bot.choose(view, legal)

        call = loop.run_in_executor(executor, think)
        # The limit counts from the start of thinking: waiting for a free worker is not the
        # bot's fault, and every worker is free again within its own bot's limit.
        either: list[asyncio.Future[Any]] = [started, call]
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        done, _ = await asyncio.wait([call], timeout=self.seconds)
        if not done:
            log.warning(
                "bot %r in seat %d took longer than %g s: %s plays this move",
                self.spec,
                self.seat,
                self.seconds,
                FALLBACK_BOT,
            )
            self._overrun = call
            call.add_done_callback(_forget)
            return await self._fall_back(game)
        try:
            action = call.result()
        except Exception as exc:
            log.warning("bot %r in seat %d failed: %s: %s", self.spec, self.seat, type(exc), exc)
            return legal[0]
        if action not in legal:
            log.warning("bot %r in seat %d chose an illegal %r", self.spec, self.seat, action)
            return legal[0]
        return action

    async def _fall_back(self, game: Game) -> Action:
        """The fallback bot's move at ``game``'s position, chosen off the event loop."""
        view = game.view(self.seat)
        legal = SeatActions(self._fallback_rs, game.state, self.seat)
        action = await asyncio.to_thread(self._fallback.choose, view, legal)
        return action if action in legal else legal[0]


def _settle(started: asyncio.Future[None]) -> None:
    if not started.done():
        started.set_result(None)


def _forget(call: asyncio.Future[Action]) -> None:
    """Read a late call's outcome, so that its failure is logged and never left unread."""
    if not call.cancelled() and call.exception() is not None:
        log.warning("a bot's late call failed: %s", call.exception())
