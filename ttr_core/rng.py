"""A small, fully specified random generator, so a seed gives the same game everywhere.

The standard library's ``random.shuffle``, ``choice`` and ``randrange`` may change between
Python versions; this module does not use them. The generator is SplitMix64, whose state
is a plain integer that the immutable game state carries; :func:`below` draws uniform
integers by rejection sampling (no modulo bias). Shuffles use the standard library's
``random()``, the one output Python guarantees to keep across versions.
"""

from __future__ import annotations

import random as _random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_SPAN = 1 << 64


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
    limit = _SPAN - _SPAN % n
    while True:
        state = (state + _GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
        if value < limit:
            return value % n, state


def shuffled(state: int, items: Sequence[T]) -> tuple[list[T], int]:
    """Return ``(a shuffled copy of items, new_state)``.

    Fisher-Yates from the top index down. One SplitMix64 output seeds the standard
    library's Mersenne Twister, whose ``random()`` is the one generator output Python
    guarantees to keep identical across versions; each index is ``int(random() * n)``.
    """
    seed, state = next_u64(state)
    uniform = _random.Random(seed).random
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = int(uniform() * (i + 1))
        out[i], out[j] = out[j], out[i]
    return out, state


def derive_seed(seed: int, index: int) -> int:
    """A well-mixed seed for the ``index``-th game of a run started with ``seed``."""
    value, _ = next_u64(seed_state(seed) ^ ((index * 0xD1B54A32D192ED03) & _MASK))
    return value >> 1
