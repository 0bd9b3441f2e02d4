"""The seatings of a block: every bot in every seat equally often, the counts documented,
and the games of a block on one deal."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ttr_core.arena.games import ArenaGame, ranks, tally_of
from ttr_core.arena.schedule import block_seed, blocks_for, seatings
from ttr_core.batch.runs import game_seed

sizes = st.tuples(st.integers(2, 6), st.integers(1, 5))


@given(sizes)
def test_every_bot_sits_in_every_seat_equally_often(size: tuple[int, int]) -> None:
    bots, players = size
    block = seatings(bots, players)
    for seat in range(players):
        counts = Counter(s[seat] for s in block)
        assert set(counts) == set(range(bots))
        assert len(set(counts.values())) == 1


@given(sizes)
def test_seatings_are_distinct_and_no_bot_has_two_seats_more_than_another(
    size: tuple[int, int],
) -> None:
    bots, players = size
    block = seatings(bots, players)
    assert len(set(block)) == len(block)
    for seating in block:
        assert len(seating) == players
        counts = Counter(seating)
        held = [counts.get(b, 0) for b in range(bots)]
        assert max(held) - min(held) <= 1


@given(sizes)
def test_the_number_of_seatings_is_as_documented(size: tuple[int, int]) -> None:
    """k == P: the P! permutations; k > P: each combination turned by every number of
    seats; k < P: the distinct cyclic seatings."""
    bots, players = size
    block = seatings(bots, players)
    if bots == players:
        assert len(block) == math.factorial(players)
    elif bots > players:
        assert len(block) == math.comb(bots, players) * players
    else:
        assert len(block) <= bots * players
        assert all(len(set(s)) == bots for s in block)  # every bot plays in every game


@given(st.tuples(st.integers(3, 7), st.integers(2, 5)).filter(lambda s: s[0] > s[1]))
def test_with_more_bots_than_seats_every_pair_meets_equally_often(size: tuple[int, int]) -> None:
    bots, players = size
    met = Counter(
        pair
        for seating in seatings(bots, players)
        for pair in itertools.combinations(sorted(seating), 2)
    )
    assert len(met) == math.comb(bots, 2)
    assert len(set(met.values())) == 1


def test_seven_bots_on_four_seats_take_140_games_a_deal() -> None:
    assert len(seatings(7, 4)) == 140


def test_small_cases_are_listed_in_order() -> None:
    assert seatings(2, 2) == ((0, 1), (1, 0))
    assert seatings(3, 2) == ((0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1))
    assert seatings(2, 4) == ((0, 1, 0, 1), (1, 0, 1, 0))
    assert len(seatings(3, 4)) == 12


def test_fewer_than_two_bots_or_no_seat_is_refused() -> None:
    with pytest.raises(ValueError, match="2 bots"):
        seatings(1, 2)
    with pytest.raises(ValueError, match="seat"):
        seatings(2, 0)


def test_block_seeds_are_the_game_seeds_of_a_run() -> None:
    """Block 0 is dealt from the arena's seed itself, block b as game b of simulate."""
    assert block_seed(17, 0) == 17
    assert [block_seed(17, b) for b in range(5)] == [game_seed(17, b) for b in range(5)]
    assert len({block_seed(17, b) for b in range(50)}) == 50


def test_games_round_up_to_whole_blocks() -> None:
    assert blocks_for(1, 6) == 1
    assert blocks_for(6, 6) == 1
    assert blocks_for(7, 6) == 2


def test_winners_rank_first_and_equal_scores_share_a_rank() -> None:
    """A winner by a tie-break outranks a seat with the same score."""
    assert ranks([100, 100, 80, 80], [True, False, False, False]) == (1, 2, 3, 3)
    assert ranks([90, 90, 50], [True, True, False]) == (1, 1, 3)


def test_pairs_of_seats_of_one_bot_are_not_compared() -> None:
    game = ArenaGame(
        block=0,
        seating=0,
        seed=1,
        bots=("a", "b", "a", "b"),
        scores=(100, 90, 80, 80),
        ranks=(1, 2, 3, 3),
        turns=50,
    )
    tally = tally_of(["a", "b"], [game])
    # a1 beats b2 and b4; a3 loses to b2, ties b4; a-a and b-b pairs are skipped.
    assert tally == [[0.0, 2.5], [1.5, 0.0]]
