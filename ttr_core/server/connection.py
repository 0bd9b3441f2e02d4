"""One WebSocket client of one game: a seat's holder or a spectator.

It is sent a state message on connect and after every change of its game, and its
messages are checked against the documented limits before they are read.
"""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.websockets import WebSocket, WebSocketDisconnect

from ttr_core.formats.serialize import action_to_json
from ttr_core.hidden.seat_actions import SeatActions
from ttr_core.model.actions import Action
from ttr_core.model.errors import TtrError
from ttr_core.server.games import LiveGame
from ttr_core.server.limits import MAX_BAD_MESSAGES, MAX_MESSAGE_BYTES, RateLimiter
from ttr_core.server.protocol import (
    ActionMessage,
    ProtocolError,
    parse_client_message,
)
from ttr_core.server.storage import StoreError
from ttr_core.server.views import SPECTATOR, events_since, seat_view, table_extras

log = logging.getLogger("ttr.server")

CLOSE_POLICY = 1008
"""The WebSocket close code for a bad token, a flood or too many refused messages."""

CLOSE_TOO_BIG = 1009
"""The close code for a message over the size limit."""

CLOSE_ERROR = 1011
"""The close code for a failure of the server itself."""


class Connection:
    """A client of ``live`` watching from ``seat`` (a seat, or ``SPECTATOR``)."""

    def __init__(self, ws: WebSocket, live: LiveGame, seat: int) -> None:
        self.ws = ws
        self.live = live
        self.seat = seat
        self._sent = len(live.game.log)
        self._legal: list[Action] = []
        self._send = asyncio.Lock()
        self._limiter = RateLimiter(time.monotonic())
        self._bad = 0

    async def push(self) -> None:
        """Send the seat's view, its legal actions (if it is to act) and the new events."""
        async with self._send:
            game = self.live.game
            seat = self.seat
            to_act = seat != SPECTATOR and seat == game.current_player and not game.is_over
            self._legal = list(SeatActions(self.live.listing, game.state, seat)) if to_act else []
            message = {
                "type": "state",
                "view": seat_view(game, seat),
                "legal": [action_to_json(a) for a in self._legal],
                "events": events_since(game, self._sent, seat),
                **table_extras(game, seat),
            }
            self._sent = len(game.log)
            await self.ws.send_json(message)

    async def error(self, message: str) -> None:
        """Send ``{"type": "error", "message": ...}``."""
        async with self._send:
            await self.ws.send_json({"type": "error", "message": message})

    async def serve(self) -> None:
        """Read the client's messages until it goes away or is closed for abuse."""
        while True:
            try:
                message = await self.ws.receive()
            except WebSocketDisconnect:
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if text is None:
                text = _decoded(message.get("bytes"))
            if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
                await self._close(f"message larger than {MAX_MESSAGE_BYTES} bytes", CLOSE_TOO_BIG)
                return
            if not self._limiter.allow(time.monotonic()):
                await self._close("too many messages: the rate limit was exceeded", CLOSE_POLICY)
                return
            refused = await self._handle(text)
            if refused is not None:
                self._bad += 1
                if self._bad >= MAX_BAD_MESSAGES:
                    await self._close(f"{refused}; too many refused messages", CLOSE_POLICY)
                    return
                await self.error(refused)

    async def _handle(self, text: str) -> str | None:
        """Carry out one message; the reason it was refused, or None."""
        try:
            parsed = parse_client_message(text)
        except ProtocolError as exc:
            return str(exc)
        if self.seat == SPECTATOR:
            return "a spectator cannot act: connect with a seat's token"
        if isinstance(parsed, ActionMessage):
            action = parsed.action
        elif not 0 <= parsed.index < len(self._legal):
            return f"index {parsed.index} is not in the last legal list ({len(self._legal)})"
        else:
            action = self._legal[parsed.index]
        try:
            await self.live.act(self.seat, action)
        except TtrError as exc:
            return str(exc)
        except StoreError as exc:
            log.error("game %s: %s", self.live.id, exc)
            return "the action could not be saved; nothing changed"
        return None

    async def _close(self, reason: str, code: int) -> None:
        await self.error(reason)
        await self.ws.close(code=code, reason=reason[:120])


def _decoded(data: bytes | None) -> str:
    """A binary message as text (it is read like a text one); undecodable bytes stay
    visible as replacement characters, so the JSON reader refuses them."""
    return (data or b"").decode("utf-8", "replace")
