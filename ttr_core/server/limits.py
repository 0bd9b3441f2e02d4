"""The server's documented limits: message sizes, the per-connection rate, game sizes."""

from __future__ import annotations

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
