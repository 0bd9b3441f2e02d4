"""A small, fully specified random generator, so a seed gives the same game everywhere.

The standard library's ``random.shuffle``, ``choice`` and ``randrange`` may change between
Python versions; this module does not use them. The generator is SplitMix64, whose state
is a plain integer that the immutable game state carries; [`below`][] draws uniform
integers by rejection sampling (no modulo bias). Shuffles use the standard library's
``random()``, the one output Python guarantees to keep across versions.
"""

from __future__ import annotations

import _random
from collections.abc import Sequence
from typing import Final, TypeVar, final

from ttr_core.model.native import i64, is_compiled

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_SPAN: Final = 1 << 64
_M32: Final = 0xFFFFFFFF
_SPAN32: Final = 1 << 32
_SIGN: Final = 1 << 63
_SMALL: Final = 1 << 30
"""``below_halves`` serves ``n`` below this."""
_HALVES: Final = is_compiled(__file__)
"""Whether this module is compiled, so that ``below`` is faster on 32-bit halves."""
_GAMMA_HI: Final = 0x9E3779B9
_GAMMA_LO: Final = 0x7F4A7C15
# The two multipliers of SplitMix64's mix, as 16-bit pieces of each 32-bit half.
_M1_HI0: Final = 0x476D
_M1_HI1: Final = 0xBF58
_M1_LO0: Final = 0xE5B9
_M1_LO1: Final = 0x1CE4
_M2_HI0: Final = 0x49BB
_M2_HI1: Final = 0x94D0
_M2_LO0: Final = 0x11EB
_M2_LO1: Final = 0x1331


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
    """Return ``(k, new_state)`` with ``k`` uniform in ``range(n)``.

    :raises ValueError: ``n`` is not from 1 to 2**64.
    """
    if _HALVES and 0 < n < _SMALL:
        return below_halves(state, n)
    return below_wide(state, n)


def below_halves(state: int, n: int) -> tuple[int, int]:
    """[`below`][] for ``n`` below 2**30, worked on 32-bit halves.

    No intermediate value exceeds 50 bits, so the compiled build works on 64-bit machine
    integers (``i64``, plain ``int`` when not compiled); plain Python is faster with
    [`below_wide`][]. Both give the same outputs (the tests compare them).
    """
    # The state as a signed 64-bit number (two's complement), read with one conversion
    # (at most one subtraction of a big integer) rather than a shift and a mask of it.
    k, whole = _draw_halves(state if state < _SIGN else state - _SPAN, n)
    return int(k), whole if whole >= 0 else int(whole) + _SPAN


def _draw_halves(whole: i64, n: i64) -> tuple[i64, i64]:
    """One draw below ``n`` (< 2**30) from the state ``whole``, given in its signed form
    (compiled) or as is: ``(k, new state)``, the new state signed from 2**63 on when
    compiled and as is in plain Python."""
    hi: i64 = (whole >> 32) & _M32
    lo: i64 = whole & _M32
    span_mod: i64 = _SPAN32 % n  # 2**32 % n
    rest: i64 = span_mod * span_mod % n  # 2**64 % n: outputs above 2**64 - 1 - rest are redrawn
    while True:
        lo += _GAMMA_LO
        hi = (hi + _GAMMA_HI + (lo >> 32)) & _M32
        lo &= _M32
        # z = state ^ (state >> 30)
        zhi: i64 = hi ^ (hi >> 30)
        zlo: i64 = lo ^ (((hi << 2) & _M32) | (lo >> 30))
        # z *= 0xBF58476D1CE4E5B9 (mod 2**64)
        p0: i64 = zlo * _M1_LO0
        p1: i64 = zlo * _M1_LO1
        t: i64 = p0 + ((p1 & 0xFFFF) << 16)
        whi: i64 = (t >> 32) + (p1 >> 16) + zlo * _M1_HI0 + ((zlo * _M1_HI1 & 0xFFFF) << 16)
        whi += zhi * _M1_LO0 + ((zhi * _M1_LO1 & 0xFFFF) << 16)
        zhi = whi & _M32
        zlo = t & _M32
        # z ^= z >> 27
        zlo ^= ((zhi << 5) & _M32) | (zlo >> 27)
        zhi ^= zhi >> 27
        # z *= 0x94D049BB133111EB (mod 2**64)
        p0 = zlo * _M2_LO0
        p1 = zlo * _M2_LO1
        t = p0 + ((p1 & 0xFFFF) << 16)
        whi = (t >> 32) + (p1 >> 16) + zlo * _M2_HI0 + ((zlo * _M2_HI1 & 0xFFFF) << 16)
        whi += zhi * _M2_LO0 + ((zhi * _M2_LO1 & 0xFFFF) << 16)
        zhi = whi & _M32
        zlo = t & _M32
        # value = z ^ (z >> 31)
        vlo: i64 = zlo ^ (((zhi << 1) & _M32) | (zlo >> 31))
        vhi: i64 = zhi ^ (zhi >> 31)
        if vhi != _M32 or _M32 - vlo >= rest:
            return ((vhi % n) * span_mod + vlo) % n, (hi << 32) | lo  # wraps from 2**63 on


def below_wide(state: int, n: int) -> tuple[int, int]:
    """[`below`][] on whole 64-bit numbers, for any ``n`` from 1 to 2**64.

    :raises ValueError: ``n`` is out of that range (a 64-bit draw cannot cover more).
    """
    if not 0 < n <= _SPAN:
        raise ValueError(f"a draw below {n} is impossible: the bound must be from 1 to 2**64")
    limit = _SPAN - _SPAN % n
    while True:
        state = (state + _GAMMA) & _MASK
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        value = z ^ (z >> 31)
        if value < limit:
            return value % n, state


@final
class Stream:
    """A generator that keeps its own state: uniform draws for playouts and bots.

    ``Stream(seed).below(n)`` gives the numbers that a chain of [`below`][] calls from
    ``seed_state(seed)`` gives, and ``state`` is the state that chain would hold, so
    ``Stream(stream.state)`` goes on where ``stream`` is. It returns no tuple and,
    compiled, keeps the state as a machine integer: a draw costs a fraction of a call to
    [`below`][], which matters to code that draws at every decision.
    """

    _state: i64
    """The state: compiled, in its signed form (two's complement), a machine integer;
    in plain Python as is, which the wide way of drawing takes."""

    def __init__(self, seed: int) -> None:
        """The stream at ``seed_state(seed)``: any integer seed, reduced to 64 bits."""
        state = seed & _MASK
        self._state = state - _SPAN if _HALVES and state >= _SIGN else state

    @property
    def state(self) -> int:
        """The generator state (from 0 to 2**64 - 1), as [`below`][] takes and returns it."""
        whole = self._state
        return whole if whole >= 0 else int(whole) + _SPAN

    def below(self, n: int) -> int:
        """A number uniform in ``range(n)``, the next of the stream.

        :raises ValueError: ``n`` is not from 1 to 2**64; the stream does not move.
        """
        if not _HALVES:
            k, self._state = below_wide(self._state, n)
            return k
        if 0 < n < _SMALL:
            k, whole = _draw_halves(self._state, n)
            self._state = whole
            return int(k)
        k, state = below_wide(self.state, n)
        self._state = state - _SPAN if state >= _SIGN else state
        return k

    def __reduce__(self) -> tuple[type[Stream], tuple[int]]:
        return Stream, (self.state,)

    def __repr__(self) -> str:
        return f"Stream({self.state})"


def shuffled(state: int, items: Sequence[T]) -> tuple[list[T], int]:
    """Return ``(a shuffled copy of items, new_state)``.

    Fisher-Yates from the top index down. One SplitMix64 output seeds the standard
    library's Mersenne Twister, whose ``random()`` is the one generator output Python
    guarantees to keep identical across versions; each index is ``int(random() * n)``.
    The twister is ``_random.Random``, the C class that ``random.Random`` extends: seeded
    with an ``int`` both give the same outputs, and the C class skips the Python-level
    ``__init__`` and ``seed`` of the subclass, which cost more than a deck's swaps.
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
