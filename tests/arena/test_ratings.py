"""Bradley–Terry ratings: hand-computed maximum-likelihood cases, the prior, the anchor,
and a fit that recovers known strengths within its bootstrap intervals."""

from __future__ import annotations

import math
import random

import pytest

from ttr_core.arena.games import Tally
from ttr_core.arena.ratings import NoFiniteRatingsError, fit, quantile, rate

ELO_OF_2 = 400 * math.log10(2)


def test_two_bots_rate_at_the_log_odds_of_their_results() -> None:
    """A beats B 2 times out of 3: the MLE of p_A / p_B is 2, so B is 400 log10 2 below."""
    elo = fit([[0, 2], [1, 0]], prior=0)
    assert elo[0] == 0
    assert elo[1] == pytest.approx(-ELO_OF_2, abs=1e-9)


def test_three_bots_whose_results_match_strengths_1_2_4_exactly() -> None:
    """Each pair's results equal n_ij p_i / (p_i + p_j) for p = 1, 2, 4, which solves the
    likelihood equations, so the MLE is exactly those strengths."""
    tally: Tally = [
        [0, 1, 1],  # A (1): 1 of 3 against B, 1 of 5 against C
        [2, 0, 1],  # B (2): 2 of 3 against A, 1 of 3 against C
        [4, 2, 0],  # C (4): 4 of 5 against A, 2 of 3 against B
    ]
    elo = fit(tally, prior=0)
    assert elo == pytest.approx([0, ELO_OF_2, 2 * ELO_OF_2], abs=1e-9)


def test_a_tie_counts_one_half_for_each_side() -> None:
    """One win and one tie against no loss: 1.5 to 0.5, odds 3."""
    elo = fit([[0, 1.5], [0.5, 0]], prior=0)
    assert elo[1] == pytest.approx(-400 * math.log10(3), abs=1e-9)


def test_the_prior_is_one_virtual_tie_per_pair() -> None:
    """4 wins to none with one virtual tie is 4.5 to 0.5: odds 9, and finite."""
    elo = fit([[0, 4], [0, 0]])
    assert elo[1] == pytest.approx(-400 * math.log10(9), abs=1e-9)


def test_results_without_a_finite_maximum_are_refused_without_a_prior() -> None:
    with pytest.raises(NoFiniteRatingsError):
        fit([[0, 3], [0, 0]], prior=0)
    with pytest.raises(NoFiniteRatingsError):  # C never plays A or B
        fit([[0, 1, 0], [1, 0, 0], [0, 0, 0]], prior=0)


def test_the_anchor_shifts_every_rating_by_the_same_amount() -> None:
    tally: Tally = [[0, 3, 5], [2, 0, 4], [1, 2, 0]]
    first = fit(tally, anchor=0)
    last = fit(tally, anchor=2)
    assert last[2] == 0
    assert [a - b for a, b in zip(first, last, strict=True)] == pytest.approx(
        [first[0] - last[0]] * 3, abs=1e-9
    )


def test_bad_anchor_prior_draws_and_confidence_are_refused() -> None:
    tally: Tally = [[0, 1], [1, 0]]
    with pytest.raises(ValueError, match="anchor"):
        fit(tally, anchor=2)
    with pytest.raises(ValueError, match="prior"):
        fit(tally, prior=-1)
    with pytest.raises(ValueError, match="draws"):
        rate(["a", "b"], [tally], draws=-1)
    with pytest.raises(ValueError, match="confidence"):
        rate(["a", "b"], [tally], confidence=1)


def test_quantile_interpolates_between_order_statistics() -> None:
    assert quantile([3.0, 1.0, 2.0, 4.0], 0.5) == 2.5
    assert quantile([5.0], 0.9) == 5.0
    assert quantile([0.0, 10.0], 0.25) == 2.5


def simulated_blocks(elo: list[float], blocks: int, per_pair: int, seed: int) -> list[Tally]:
    """Blocks of results drawn from the BT model with these Elo ratings."""
    draw = random.Random(seed)
    out = []
    k = len(elo)
    for _ in range(blocks):
        tally: Tally = [[0.0] * k for _ in range(k)]
        for i in range(k):
            for j in range(i + 1, k):
                p = 1 / (1 + 10 ** ((elo[j] - elo[i]) / 400))
                for _ in range(per_pair):
                    if draw.random() < p:
                        tally[i][j] += 1
                    else:
                        tally[j][i] += 1
        out.append(tally)
    return out


@pytest.mark.slow
def test_known_strengths_are_recovered_within_the_intervals() -> None:
    """Results drawn from ratings 0, 100, 250, 400: each true rating lies in its 95%
    interval, the fit is close, and the intervals are narrow enough to tell them apart."""
    true = [0.0, 100.0, 250.0, 400.0]
    blocks = simulated_blocks(true, blocks=150, per_pair=6, seed=7)
    ratings = rate(["a", "b", "c", "d"], blocks, seed=3, draws=300)
    for r, t in zip(ratings, true, strict=True):
        assert r.low is not None and r.high is not None
        assert r.low <= t <= r.high, (r, t)
        assert abs(r.elo - t) < 40
    for r in ratings[1:]:
        assert r.low is not None and r.high is not None
        assert r.high - r.low < 100
    assert ratings[0].elo == ratings[0].low == ratings[0].high == 0


def test_the_bootstrap_is_seeded() -> None:
    """The same seed gives the same intervals; another seed other intervals."""
    blocks = simulated_blocks([0.0, 150.0], blocks=30, per_pair=4, seed=1)
    once = rate(["a", "b"], blocks, seed=5, draws=100)
    assert rate(["a", "b"], blocks, seed=5, draws=100) == once
    assert rate(["a", "b"], blocks, seed=6, draws=100) != once
    plain = rate(["a", "b"], blocks, draws=0)
    assert plain[1].elo == once[1].elo and plain[1].low is None and plain[1].high is None
