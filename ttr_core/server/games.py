"""Games being played on the server: the true game, its seats, its bots and its watchers.

A [`LiveGame`][] applies an action only under its lock, commits it to the store, and only
then tells its connections; a store that fails leaves the game as it was before the
action (rebuilt from what the store holds).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor

from attrs import evolve

from ttr_core.formats.serialize import action_from_json, action_to_json
from ttr_core.model.actions import Action
from ttr_core.model.errors import IllegalActionError
from ttr_core.play.game import Game
from ttr_core.server.bots import BOT_SECONDS, SeatBot
from ttr_core.server.limits import MAX_ACTIONS
from ttr_core.server.storage import FINISHED, PLAYING, GameRow, Store, StoreError
from ttr_core.server.tokens import matches
from ttr_core.server.views import final_scores

log = logging.getLogger("ttr.server")

Listener = Callable[[], Awaitable[None]]
"""What a connection registers to be told that its game changed."""

BOT_SAVE_RETRY_SECONDS = 1.0
"""How long a bot whose action could not be saved waits before it moves again; the wait
doubles after each failure in a row, up to ``BOT_SAVE_RETRY_MAX_SECONDS``."""

BOT_SAVE_RETRY_MAX_SECONDS = 60.0
"""The longest wait between two attempts of a bot whose actions cannot be saved."""


def replay_row(row: GameRow, actions: list[str]) -> Game:
    """The game a stored row and its actions describe, played again from the seed.

    :raises TtrError: the stored game cannot be set up or an action is illegal (a
        database edited by hand, or one written by other rules).
    """
    game = _new(row)
    for text in actions:
        game.apply(action_from_json(json.loads(text)), seat=game.current_player)
    return game


def _new(row: GameRow) -> Game:
    """The game of ``row`` as dealt, before any action."""
    return Game.new(
        row.edition,
        [s.name for s in row.seats],
        seed=row.seed,
        start_player=row.start_player,
        options=row.options,
    )


class LiveGame:
    """One game on the server: apply seats' actions, run its bots, tell its watchers."""

    def __init__(
        self,
        row: GameRow,
        game: Game,
        store: Store,
        executor: Executor,
        bot_seconds: float = BOT_SECONDS,
    ) -> None:
        """The game ``game`` stored as ``row``; its bots are built here, each move of one
        limited to ``bot_seconds`` of thinking."""
        self.row = row
        self.game = game
        self._store = store
        self._executor = executor
        self.listing = game.ruleset.private_copy()
        """A ruleset of the game's own for listing seats' legal actions."""
        self._lock = asyncio.Lock()
        self._listeners: set[Listener] = set()
        self._bots = {
            s.seat: SeatBot(s.bot, game.ruleset, s.seat, row.seed, bot_seconds)
            for s in row.seats
            if s.bot
        }
        self._bot_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        """The game's id."""
        return self.row.id

    def seat_of(self, token: str) -> int | None:
        """The human seat ``token`` belongs to, or None (every seat's hash is compared)."""
        found = None
        for s in self.row.seats:
            if s.token_hash is not None and matches(token, s.token_hash):
                found = s.seat
        return found

    def listen(self, listener: Listener) -> None:
        """Call ``listener`` after every change of the game."""
        self._listeners.add(listener)

    def unlisten(self, listener: Listener) -> None:
        """Stop calling ``listener``."""
        self._listeners.discard(listener)

    async def act(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s action, commit it, then tell every watcher.

        :raises IllegalActionError: the action is refused (out of turn: rule TURN-4); nothing
            changed.
        :raises StoreError: the action could not be committed; the game is as before it.
        :raises SetupError: ``seat`` is not a seat of the game; nothing changed.
        """
        async with self._lock:
            await self._commit(seat, action)
        await self._changed()

    async def _commit(self, seat: int, action: Action) -> None:
        game = self.game
        index = len(game.log)
        if index >= MAX_ACTIONS:
            raise IllegalActionError("SERVER", f"this game has reached {MAX_ACTIONS} actions")
        game.apply(action, seat=seat)
        over = game.is_over
        try:
            await asyncio.to_thread(
                self._store.append_action,
                self.id,
                index,
                json.dumps(action_to_json(action)),
                status=FINISHED if over else PLAYING,
                current=None if over else game.current_player,
                scores=final_scores(game) if over else None,
            )
        except BaseException:
            self.game = _undone(self.row, game)
            raise
        self.row = _advanced(self.row, game)

    async def _changed(self) -> None:
        await self._notify()
        self.start_bots()

    async def _notify(self) -> None:
        for listener in list(self._listeners):
            try:
                await listener()
            except Exception as exc:  # a connection gone away must not stop the others
                log.debug("a listener of game %s failed: %s", self.id, exc)

    def start_bots(self) -> None:
        """Let the bots play while one of them is to act (once; later calls do nothing)."""
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self.game.is_over or self.game.current_player not in self._bots:
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        wait = BOT_SAVE_RETRY_SECONDS
        while not self.game.is_over and self.game.current_player in self._bots:
            bot = self._bots[self.game.current_player]
            action = await bot.choose(self.game, self._executor)
            try:
                async with self._lock:
                    await self._commit(bot.seat, action)
            except StoreError as exc:
                # The game is as before the move; the bot moves again once the wait is over.
                log.error(
                    "game %s: a bot action could not be saved (%s); again in %g s",
                    self.id,
                    exc,
                    wait,
                )
                await asyncio.sleep(wait)
                wait = min(2 * wait, BOT_SAVE_RETRY_MAX_SECONDS)
                continue
            except Exception as exc:
                # The game waits, as it was before the move, until the server restarts.
                log.error("game %s: a bot action could not be committed: %s", self.id, exc)
                return
            wait = BOT_SAVE_RETRY_SECONDS
            await self._notify()

    async def stop(self) -> None:
        """Stop the bots (between two actions: nothing committed is lost)."""
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _undone(row: GameRow, game: Game) -> Game:
    """``game`` without its last action: played again from the seed, in memory."""
    earlier = _new(row)
    for entry in game.log[:-1]:
        earlier.apply(entry.action, seat=earlier.current_player)
    return earlier


def _advanced(row: GameRow, game: Game) -> GameRow:
    """``row`` with the status of ``game`` after its last action."""
    over = game.is_over
    return evolve(
        row,
        status=FINISHED if over else PLAYING,
        current=None if over else game.current_player,
        actions=len(game.log),
        scores=final_scores(game) if over else None,
    )
