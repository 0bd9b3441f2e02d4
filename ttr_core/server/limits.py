"""The server's documented limits: message sizes, the per-connection rate, game sizes,
and the rate of game creation per client address."""

from __future__ import annotations

import math
from typing import Final

MAX_BODY_BYTES: Final = 16 * 1024
"""The largest HTTP request body accepted (a new game's description), in bytes."""

MAX_MESSAGE_BYTES: Final = 8 * 1024
"""The largest WebSocket message accepted from a client, in bytes (UTF-8)."""

MAX_FRAME_BYTES: Final = 64 * 1024
"""The largest WebSocket frame the transport reads at all; larger ones close the socket."""

RATE_BURST: Final = 40
"""How many messages a connection may send at once before the rate limit applies."""

RATE_PER_SECOND: Final = 20.0
"""How many messages per second a connection may send in the long run."""

CREATE_BURST: Final = 20
"""How many games one client address may create at once before the creation rate applies."""

CREATE_RATE_PER_SECOND: Final = 1.0
"""How many games a second one client address may create in the long run (0: no limit)."""

MAX_TRACKED_CLIENTS: Final = 10_000
"""Client addresses whose creation rate is tracked at once; idle ones are forgotten first."""

MAX_BAD_MESSAGES: Final = 50
"""How many refused messages (malformed, unknown fields, illegal) close a connection."""

MAX_NAME_CHARS: Final = 40
"""The longest player name a new game takes."""

MAX_SPEC_CHARS: Final = 200
"""The longest bot spec a new game takes."""

MAX_ACTIONS: Final = 20_000
"""A game is refused further actions past this many (real games take a few hundred)."""


class RateLimiter:
    """A token bucket: `allow` is False once a connection sends faster than the limit."""

    def __init__(self, now: float, burst: int = RATE_BURST, rate: float = RATE_PER_SECOND):
        """A full bucket of ``burst`` tokens at time ``now`` (seconds), refilled at ``rate``."""
        self._burst = float(burst)
        self._rate = rate
        self._tokens = float(burst)
        self._at = now

    def allow(self, now: float) -> bool:
        """Take one token for a message arriving at ``now``; False when none is left."""
        self._tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def wait(self, now: float) -> float:
        """Seconds from ``now`` until the next token (0 when one is there)."""
        tokens = min(self._burst, self._tokens + (now - self._at) * self._rate)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self._rate

    def full(self, now: float) -> bool:
        """True when the bucket has refilled to its burst: a client that is idle again."""
        return self._tokens + (now - self._at) * self._rate >= self._burst


class ClientRateLimits:
    """A [`RateLimiter`][] per client address, for the creation of games over HTTP."""

    def __init__(self, rate: float, burst: int = CREATE_BURST) -> None:
        """``rate`` games a second per address after a burst of ``burst``; 0 means no limit.

        :raises ValueError: ``rate`` is negative or not finite, or ``burst`` is below 1.
        """
        if isinstance(rate, bool) or not isinstance(rate, int | float):
            raise ValueError(f"the creation rate must be a number of games a second: {rate!r}")
        if not math.isfinite(rate) or rate < 0:
            raise ValueError(f"the creation rate must be 0 (no limit) or above, not {rate!r}")
        if burst < 1:
            raise ValueError(f"the creation burst must be at least 1, not {burst!r}")
        self.rate = float(rate)
        self.burst = burst
        self._clients: dict[str, RateLimiter] = {}

    def __len__(self) -> int:
        """How many client addresses are tracked."""
        return len(self._clients)

    def retry_after(self, client: str, now: float) -> int | None:
        """Take a token for ``client``'s request at ``now``; None if it may go on, else
        the whole seconds (at least 1) after which it may try again."""
        if self.rate == 0:
            return None
        limiter = self._clients.get(client)
        if limiter is None:
            if len(self._clients) >= MAX_TRACKED_CLIENTS:
                self._forget_idle(now)
            limiter = self._clients[client] = RateLimiter(now, self.burst, self.rate)
        if limiter.allow(now):
            return None
        return max(1, math.ceil(limiter.wait(now)))

    def _forget_idle(self, now: float) -> None:
        """Drop the clients whose bucket is full again (they would start full anyway); if
        none is, drop the oldest half, so that the table stays bounded."""
        idle = [c for c, limiter in self._clients.items() if limiter.full(now)]
        if not idle:
            idle = list(self._clients)[: len(self._clients) // 2 + 1]
        for client in idle:
            del self._clients[client]
