"""Seat tokens: random, kept only as hashes, compared in constant time."""

from __future__ import annotations

import hashlib

from ttr_core.server.tokens import matches, new_game_id, new_token, token_hash


def test_tokens_are_long_and_fresh() -> None:
    """Each token is new and carries at least 256 bits (43 URL-safe characters)."""
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50 and all(len(t) >= 43 for t in tokens)
    assert len({new_game_id() for _ in range(50)}) == 50


def test_hash_is_sha256_and_matches_only_its_token() -> None:
    """The stored hash is the token's SHA-256; another token does not match it."""
    token = new_token()
    stored = token_hash(token)
    assert stored == hashlib.sha256(token.encode()).hexdigest() and token not in stored
    assert matches(token, stored)
    assert not matches(new_token(), stored)
    assert not matches(token[:-1], stored)
