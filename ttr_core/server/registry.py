"""The server's games: created, found by id (loaded from the store once), resumed on start."""

from __future__ import annotations

import asyncio
import logging
import secrets
from concurrent.futures import Executor

from ttr_core.bots.registry import find_bot, installed_bots, parse_spec
from ttr_core.model.errors import BotError
from ttr_core.play.game import Game
from ttr_core.server.bots import BOT_SECONDS, check_bot_seconds
from ttr_core.server.games import LiveGame, replay_row
from ttr_core.server.protocol import CreateRequest
from ttr_core.server.storage import FINISHED, PLAYING, GameRow, SeatRow, Store, now
from ttr_core.server.tokens import is_game_id, new_game_id, new_token, token_hash

log = logging.getLogger("ttr.server")

DEFAULT_SEED_BITS = 62
"""A game created without a seed gets a random one of this many bits."""


class GameRegistry:
    """Every game of one server, over one store."""

    def __init__(self, store: Store, executor: Executor, bot_seconds: float = BOT_SECONDS) -> None:
        """The games kept in ``store``; bots think on ``executor``, each move for at most
        ``bot_seconds``.

        :raises ValueError: ``bot_seconds`` is not a number above zero.
        """
        self.store = store
        self._executor = executor
        self._bot_seconds = check_bot_seconds(bot_seconds)
        self._live: dict[str, LiveGame] = {}
        self._loading = asyncio.Lock()

    async def create(self, request: CreateRequest) -> tuple[LiveGame, dict[int, str]]:
        """Set up, store and start a new game; return it and the human seats' tokens.

        :raises TtrError: the edition, an option, the seats or a bot spec is refused
            (``UnknownEditionError``, ``OptionError``, ``SetupError``, ``BotError``; a bot
            must be an installed one, by name, since a ``module:Class`` path would let a
            client import any module on the server).
        """
        for seat in request.players:
            if seat.bot is not None:
                _check_bot(seat.bot)
        seed = request.seed if request.seed is not None else secrets.randbits(DEFAULT_SEED_BITS)
        names = [s.name for s in request.players]
        game = Game.new(request.edition, names, seed=seed, options=request.options)
        tokens = {i: new_token() for i, s in enumerate(request.players) if s.bot is None}
        row = GameRow(
            id=new_game_id(),
            edition=game.ruleset.id,
            options=dict(game.ruleset.options),
            seed=seed,
            start_player=game.state.start_player,
            created=now(),
            seats=tuple(
                SeatRow(
                    seat=i,
                    name=s.name,
                    bot=s.bot,
                    token_hash=token_hash(tokens[i]) if i in tokens else None,
                )
                for i, s in enumerate(request.players)
            ),
            status=FINISHED if game.is_over else PLAYING,
            current=game.current_player,
        )
        live = LiveGame(row, game, self.store, self._executor, self._bot_seconds)
        await asyncio.to_thread(self.store.create_game, row)
        self._live[row.id] = live
        live.start_bots()
        return live, tokens

    async def get(self, game_id: str) -> LiveGame | None:
        """The game with this id (replayed from the store the first time), or None."""
        live = self._live.get(game_id)
        if live is not None:
            return live
        if not is_game_id(game_id):
            return None
        async with self._loading:
            live = self._live.get(game_id)
            if live is not None:
                return live
            row = await asyncio.to_thread(self.store.game, game_id)
            if row is None:
                return None
            actions = await asyncio.to_thread(self.store.actions, game_id)
            game = replay_row(row, actions)
            live = LiveGame(row, game, self.store, self._executor, self._bot_seconds)
            self._live[game_id] = live
            return live

    async def rows(self) -> list[GameRow]:
        """Every stored game, oldest first."""
        return await asyncio.to_thread(self.store.games)

    async def resume(self) -> int:
        """Load every unfinished game and let its bots play on; return how many there are.

        A stored game that can no longer be replayed is logged and left out.
        """
        count = 0
        for row in await self.rows():
            if row.status != PLAYING:
                continue
            try:
                live = await self.get(row.id)
            except Exception as exc:
                log.error("game %s cannot be resumed: %s", row.id, exc)
                continue
            if live is not None:
                live.start_bots()
                count += 1
        return count

    async def stop(self) -> None:
        """Stop every game's bots."""
        for live in list(self._live.values()):
            await live.stop()


def _check_bot(spec: str) -> None:
    """Refuse a bot spec that is malformed or names no installed bot.

    :raises BotError: naming the installed bots.
    """
    name, _ = parse_spec(spec)
    known = installed_bots()
    if name not in known:
        raise BotError(
            f"unknown bot {name!r}; the server plays the installed bots: {', '.join(known)}"
        )
    find_bot(spec)
