"""Seat tokens: made from `secrets`, stored only as SHA-256 hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def new_token() -> str:
    """A fresh, unguessable token for one seat of one game (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """The SHA-256 of ``token`` in hex: what the database keeps instead of the token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str, stored_hash: str) -> bool:
    """True when ``token`` hashes to ``stored_hash``, compared in constant time."""
    return hmac.compare_digest(token_hash(token), stored_hash)


def new_game_id() -> str:
    """A fresh, unguessable game id (96 random bits, URL-safe)."""
    return secrets.token_urlsafe(12)


def is_game_id(text: str) -> bool:
    """True when ``text`` could be a game id: URL-safe characters only, at most 64 of them.
    Anything else names no game, and is answered so without asking the database (which
    may refuse some characters, such as NUL, outright)."""
    return _GAME_ID.fullmatch(text) is not None
