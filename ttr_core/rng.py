"""A small, fully specified random generator, so a seed gives the same game everywhere.

The standard library's ``random.shuffle`` and ``random.choice`` may change between Python
versions; this module does not depend on them. The generator is SplitMix64 and the
shuffle is Fisher-Yates with rejection sampling (no modulo bias). Its state is a plain
integer, which the immutable game state carries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a seed (any integer; it is reduced to 64 bits)."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return ``(value, new_state)``: one 64-bit output of SplitMix64."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """Return ``(k, new_state)`` with ``k`` uniform in ``range(n)``; ``n`` must be positive."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % n, state


def shuffled(state: int, items: Sequence[T]) -> tuple[list[T], int]:
    """Return ``(a shuffled copy of items, new_state)``.

    Fisher-Yates from the top index down; each index is drawn by :func:`below` (the
    generator is inlined here because setting up a game shuffles 140 cards).
    """
    out = list(items)
    mask = _MASK
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + _GAMMA) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
            if z < limit:
                break
        j = z % n
        out[i], out[j] = out[j], out[i]
    return out, state


def derive_seed(seed: int, index: int) -> int:
    """A well-mixed seed for the ``index``-th game of a run started with ``seed``."""
    value, _ = next_u64(seed_state(seed) ^ ((index * 0xD1B54A32D192ED03) & _MASK))
    return value >> 1
