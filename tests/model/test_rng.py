"""The generator: ``below`` gives the same numbers on either of its two ways of working.

The compiled build draws with :func:`ttr_core.model.rng.below_halves` and pure Python with
:func:`ttr_core.model.rng.below_wide`; games are identical in both builds only if the two agree.
"""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_core.model import rng

STATES = st.one_of(
    st.integers(min_value=0, max_value=(1 << 64) - 1),
    st.sampled_from([0, 1, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1]),
)
BOUNDS = st.one_of(
    st.integers(min_value=1, max_value=400),
    st.integers(min_value=1, max_value=(1 << 30) - 1),
    st.sampled_from([1, 2, 3, (1 << 16) + 1, (1 << 29) + 7, (1 << 30) - 1]),
)


@given(state=STATES, n=BOUNDS)
def test_both_ways_of_drawing_agree(state: int, n: int) -> None:
    assert rng.below_halves(state, n) == rng.below_wide(state, n)


def test_both_ways_agree_along_long_chains() -> None:
    """Chains of draws, as a game makes them, stay in step (300,000 draws)."""
    pick = random.Random(20261201)
    for _ in range(300):
        wide = halves = pick.getrandbits(64)
        n = pick.choice([2, 5, 9, 37, 110, 1000, pick.randrange(1, 1 << 30)])
        for _ in range(1000):
            k1, wide = rng.below_wide(wide, n)
            k2, halves = rng.below_halves(halves, n)
            assert (k1, wide) == (k2, halves)
            assert 0 <= k1 < n


def test_below_uses_the_wide_way_for_large_bounds() -> None:
    n = (1 << 40) + 3
    assert rng.below(12345, n) == rng.below_wide(12345, n)


SEEDS = st.one_of(
    st.integers(min_value=-(1 << 70), max_value=1 << 70),
    st.sampled_from([0, -1, (1 << 62) - 1, 1 << 62, (1 << 63) - 1, 1 << 63, (1 << 64) - 1]),
)
WIDE_BOUNDS = st.one_of(BOUNDS, st.integers(min_value=1 << 30, max_value=1 << 64), st.just(1 << 64))


@given(seed=SEEDS, bounds=st.lists(WIDE_BOUNDS, min_size=1, max_size=40))
def test_a_stream_draws_what_a_chain_of_below_draws(seed: int, bounds: list[int]) -> None:
    stream = rng.Stream(seed)
    state = rng.seed_state(seed)
    assert stream.state == state
    for n in bounds:
        k, state = rng.below(state, n)
        assert stream.below(n) == k
        assert stream.state == state


def test_a_stream_goes_on_from_its_state_when_copied_or_pickled() -> None:
    stream = rng.Stream(20261208)
    for n in (5, 110, 3, 1 << 40, 7):
        stream.below(n)
    again = rng.Stream(stream.state)
    unpickled = pickle.loads(pickle.dumps(stream))
    assert repr(unpickled) == repr(stream) == f"Stream({stream.state})"
    draws = [stream.below(n) for n in range(1, 300)]
    assert [again.below(n) for n in range(1, 300)] == draws
    assert [unpickled.below(n) for n in range(1, 300)] == draws


@pytest.mark.parametrize("n", [0, -1, -(1 << 64), (1 << 64) + 1, 1 << 70])
def test_a_draw_out_of_a_64_bit_range_is_refused_and_moves_nothing(n: int) -> None:
    """A bound below 1 has no number to give, and one above 2**64 more than a 64-bit
    output covers (it used to divide by zero, give negative numbers or loop for ever)."""
    stream = rng.Stream(7)
    before = stream.state
    with pytest.raises(ValueError, match="from 1 to 2"):
        stream.below(n)
    assert stream.state == before
    with pytest.raises(ValueError, match="from 1 to 2"):
        rng.below(before, n)
