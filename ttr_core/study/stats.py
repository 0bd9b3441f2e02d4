"""The statistics of a balance report: proportions with confidence intervals, an exact
binomial test and summaries of distributions, written out so that nothing beyond the
standard library is needed and every figure is the same on every platform."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

from attrs import frozen

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""
SIGNIFICANCE = 0.05
"""The level below which a p-value counts as significant."""


@frozen
class Proportion:
    """``successes`` out of ``trials``, with its 95 % Wilson score interval."""

    successes: int
    trials: int
    rate: float
    low: float
    high: float


def proportion(successes: int, trials: int) -> Proportion:
    """The proportion ``successes / trials`` with its 95 % Wilson score interval.

    The Wilson interval keeps inside 0 to 1 and stays sensible for rates near 0 or 1 and
    for few trials, where the textbook normal interval does not. With no trials the rate
    is 0 and the interval the whole of 0 to 1.
    """
    if trials == 0:
        return Proportion(successes, trials, 0.0, 0.0, 1.0)
    rate = successes / trials
    z2 = Z95 * Z95
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = (Z95 / (1 + z2 / trials)) * math.sqrt(
        rate * (1 - rate) / trials + z2 / (4 * trials * trials)
    )
    return Proportion(successes, trials, rate, max(0.0, centre - half), min(1.0, centre + half))


def binomial_test(successes: int, trials: int, p: float) -> float:
    """The two-sided p-value of an exact binomial test of ``successes`` in ``trials``
    against the success probability ``p``.

    It adds the probabilities of every outcome no more likely than the one observed (with
    a small relative tolerance for rounding), the usual definition of the exact test.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be from 0 to {trials}, got {successes}")
    if trials == 0:
        return 1.0
    if p <= 0:
        return 1.0 if successes == 0 else 0.0
    if p >= 1:
        return 1.0 if successes == trials else 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    base = math.lgamma(trials + 1)

    def log_pmf(k: int) -> float:
        return (
            base
            - math.lgamma(k + 1)
            - math.lgamma(trials - k + 1)
            + k * log_p
            + (trials - k) * log_q
        )

    observed = log_pmf(successes)
    limit = observed + math.log1p(1e-7)
    total = math.fsum(math.exp(v) for k in range(trials + 1) if (v := log_pmf(k)) <= limit)
    return min(1.0, total)


@frozen
class Distribution:
    """A summary of numbers: their count, mean, standard deviation and quartiles."""

    count: int
    mean: float
    stdev: float
    min: float
    q1: float
    median: float
    q3: float
    max: float


def distribution(values: Sequence[float]) -> Distribution:
    """The summary of ``values`` (quartiles by linear interpolation between the values;
    all zero when there are none)."""
    if not values:
        return Distribution(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    ordered = sorted(values)
    if len(ordered) == 1:
        q1 = median = q3 = float(ordered[0])
    else:
        q1, median, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    return Distribution(
        count=len(ordered),
        mean=math.fsum(ordered) / len(ordered),
        stdev=statistics.stdev(ordered) if len(ordered) > 1 else 0.0,
        min=float(ordered[0]),
        q1=q1,
        median=median,
        q3=q3,
        max=float(ordered[-1]),
    )
