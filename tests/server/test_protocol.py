"""Reading what clients send: request bodies, WebSocket messages, the rate limiter."""

from __future__ import annotations

from typing import Any

import pytest

from ttr_core.model.actions import DrawBlind
from ttr_core.server.limits import RateLimiter
from ttr_core.server.protocol import (
    ActionMessage,
    IndexMessage,
    ProtocolError,
    parse_client_message,
    parse_create,
)


def test_create_body_is_read_with_defaults() -> None:
    """A body with edition and players only gets no seed and no options."""
    got = parse_create({"edition": "usa", "players": [{"name": "A"}, {"name": "B", "bot": "x"}]})
    assert got.seed is None and got.options == {}
    assert [(s.name, s.bot) for s in got.players] == [("A", None), ("B", "x")]


@pytest.mark.parametrize(
    ("body", "says"),
    [
        ([], "expected an object"),
        ({"edition": "usa"}, "missing field 'players'"),
        ({"edition": "usa", "players": [{"name": "A"}], "colour": 1}, "unknown field 'colour'"),
        ({"edition": "usa", "players": [{"name": "A", "seat": 0}]}, "unknown field 'seat'"),
        ({"edition": "usa", "players": [{"name": ""}]}, "players[0].name"),
        ({"edition": "usa", "players": [{"name": "A" * 41}]}, "longer than 40"),
        ({"edition": "usa", "players": []}, "non-empty list"),
        ({"edition": "usa", "players": [{"name": "A"}], "seed": "7"}, "$.seed"),
        ({"edition": "usa", "players": [{"name": "A"}], "seed": True}, "$.seed"),
        ({"edition": "usa", "players": [{"name": "A"}], "seed": -1}, "$.seed"),
        ({"edition": "usa", "players": [{"name": "A"}], "options": []}, "$.options"),
        ({"edition": 3, "players": [{"name": "A"}]}, "$.edition"),
    ],
)
def test_bad_create_bodies_are_refused(body: Any, says: str) -> None:
    """Every field is checked: unknown, missing and mistyped ones are named."""
    with pytest.raises(ProtocolError, match=None) as info:
        parse_create(body)
    assert says in str(info.value)


def test_client_messages_are_read() -> None:
    """An action in full and an index into the legal list are the two messages."""
    full = parse_client_message('{"type": "action", "action": {"tag": "draw_blind"}}')
    assert full == ActionMessage(action=DrawBlind())
    assert parse_client_message('{"type": "action", "index": 3}') == IndexMessage(index=3)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "malformed JSON"),
        ("[" * 100_000, "malformed JSON"),
        ("[1]", "expected an object"),
        ('{"type": "chat"}', "unknown message type"),
        ('{"type": "action", "index": 1, "extra": 2}', "unknown field 'extra'"),
        ('{"type": "action", "index": "1"}', "$.index"),
        ('{"type": "action"}', "missing field 'action'"),
        ('{"type": "action", "action": {"tag": "fly"}}', "$.action"),
    ],
)
def test_bad_client_messages_are_refused(text: str, says: str) -> None:
    """Malformed JSON, unknown types and fields, and bad actions raise ProtocolError."""
    with pytest.raises(ProtocolError) as info:
        parse_client_message(text)
    assert says in str(info.value)


def test_rate_limiter_allows_a_burst_then_the_rate() -> None:
    """A full bucket lets ``burst`` messages through at once, then refills at ``rate``."""
    limiter = RateLimiter(0.0, burst=3, rate=2.0)
    assert [limiter.allow(0.0) for _ in range(4)] == [True, True, True, False]
    assert limiter.allow(0.5) and not limiter.allow(0.5)
