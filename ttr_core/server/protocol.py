"""The messages of the server protocol: reading and checking what clients send.

Every reader raises [`ProtocolError`][] with a message for the client when the input is
not exactly what the protocol allows (not JSON, an unknown or missing field, a wrong
type, too large); nothing has happened by then.
"""

from __future__ import annotations

import json
from typing import Any

from attrs import frozen

from ttr_core.formats.serialize import action_from_json
from ttr_core.model.actions import Action
from ttr_core.model.errors import JsonFormatError
from ttr_core.server.limits import MAX_NAME_CHARS, MAX_SPEC_CHARS


class ProtocolError(ValueError):
    """A client message or request body that the protocol does not allow."""


@frozen
class SeatRequest:
    """One seat of a new game: a player's name and, for a bot seat, its bot spec."""

    name: str
    bot: str | None


@frozen
class CreateRequest:
    """The body of ``POST /api/games``: edition, seats, and optionally seed and options."""

    edition: str
    players: tuple[SeatRequest, ...]
    seed: int | None
    options: dict[str, Any]


@frozen
class ActionMessage:
    """``{"type": "action", "action": ...}``: an action given in full."""

    action: Action


@frozen
class IndexMessage:
    """``{"type": "action", "index": k}``: the ``k``-th action of the last legal list sent."""

    index: int


ClientMessage = ActionMessage | IndexMessage


def parse_json(text: str | bytes) -> Any:
    """The JSON value of ``text``.

    :raises ProtocolError: it is not valid UTF-8 JSON, or nested too deeply.
    """
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ProtocolError(f"malformed JSON: {exc}") from None


def _object(raw: Any, where: str, required: set[str], optional: set[str]) -> dict[str, Any]:
    """``raw`` as an object with exactly the required keys and some of the optional ones."""
    if not isinstance(raw, dict):
        raise ProtocolError(f"{where}: expected an object, got {type(raw).__name__}")
    unknown = sorted(set(raw) - required - optional)
    if unknown:
        raise ProtocolError(f"{where}: unknown field {unknown[0]!r}")
    missing = sorted(required - set(raw))
    if missing:
        raise ProtocolError(f"{where}: missing field {missing[0]!r}")
    return raw


def _text(raw: Any, where: str, limit: int) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise ProtocolError(f"{where}: expected a non-empty string")
    if len(raw) > limit:
        raise ProtocolError(f"{where}: longer than {limit} characters")
    return raw


def parse_create(raw: Any) -> CreateRequest:
    """The new game a ``POST /api/games`` body describes.

    :raises ProtocolError: a field is unknown, missing or of the wrong type.
    """
    body = _object(raw, "$", {"edition", "players"}, {"seed", "options"})
    edition = _text(body["edition"], "$.edition", MAX_SPEC_CHARS)
    players = body["players"]
    if not isinstance(players, list) or not players:
        raise ProtocolError("$.players: expected a non-empty list")
    seats: list[SeatRequest] = []
    for i, entry in enumerate(players):
        where = f"$.players[{i}]"
        item = _object(entry, where, {"name"}, {"bot"})
        name = _text(item["name"], f"{where}.name", MAX_NAME_CHARS)
        bot = item.get("bot")
        if bot is not None:
            bot = _text(bot, f"{where}.bot", MAX_SPEC_CHARS)
        seats.append(SeatRequest(name=name, bot=bot))
    seed = body.get("seed")
    if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
        raise ProtocolError("$.seed: expected an integer from 0 to 2**63 - 1")
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise ProtocolError("$.options: expected an object")
    return CreateRequest(edition=edition, players=tuple(seats), seed=seed, options=options)


def parse_client_message(text: str) -> ClientMessage:
    """The message a client sent on its WebSocket.

    :raises ProtocolError: not JSON, not an object, of an unknown type, with unknown or
        missing fields, or an action that does not follow the action format.
    """
    raw = parse_json(text)
    if not isinstance(raw, dict):
        raise ProtocolError(f"$: expected an object, got {type(raw).__name__}")
    if raw.get("type") != "action":
        raise ProtocolError(f"$.type: unknown message type {raw.get('type')!r}")
    if "index" in raw:
        body = _object(raw, "$", {"type", "index"}, set())
        index = body["index"]
        if type(index) is not int:
            raise ProtocolError("$.index: expected an integer")
        return IndexMessage(index=index)
    body = _object(raw, "$", {"type", "action"}, set())
    try:
        return ActionMessage(action=action_from_json(body["action"]))
    except JsonFormatError as exc:
        raise ProtocolError(f"$.action: {exc}") from None
