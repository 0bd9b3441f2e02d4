"""Stopping an arena early: a sequential probability ratio test between two bots.

The test compares the first two bots of the arena, the *candidate* and the *baseline*.
Its hypotheses are about the candidate's Elo advantage ``d`` over the baseline (the scale
of [`ttr_core.arena.ratings`][ttr_core.arena.ratings]): H0 ``d = elo0`` against H1
``d = elo1``, with error rates ``alpha`` (accepting H1 when H0 holds) and ``beta``
(accepting H0 when H1 holds).

It is checked after each whole block, never inside one, on the candidate's score in each
block: ``x_b``, the pairwise results between the two bots in block ``b`` that the
candidate won, a tie counting one half, over the results between them in the block.
Blocks, not single results, are the units, because the games of a block share a deal and
their results are not independent. With ``n`` blocks, the mean ``m`` and the sample
variance ``v`` (over ``n - 1``) of their scores, and the expected scores ``s0`` and ``s1``
of an advantage of ``elo0`` and ``elo1``, the log-likelihood ratio is the normal
approximation

    LLR = n * (s1 - s0) * (2 * m - s0 - s1) / (2 * v)

and the test stops with H1 when ``LLR >= log((1 - beta) / alpha)`` and with H0 when
``LLR <= log(beta / (1 - alpha))``. The variance is taken as at least
[`MIN_VARIANCE`][], so that blocks that all end alike do not divide by zero, and nothing
is decided before [`MIN_BLOCKS`][] blocks, since a variance from fewer is too unsure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from attrs import frozen

from ttr_core.arena.games import Tally

MIN_VARIANCE = 1e-3
"""The least variance of the block scores the test uses."""
MIN_BLOCKS = 5
"""Blocks needed before the test decides anything."""

Decision = Literal["H0", "H1", "undecided"]


@frozen
class Sprt:
    """The settings of a test: the two hypotheses in Elo and the two error rates."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __attrs_post_init__(self) -> None:
        """Check the settings.

        :raises ValueError: ``elo0`` is not below ``elo1``, or an error rate is not
            between 0 and 0.5.
        """
        if not (math.isfinite(self.elo0) and math.isfinite(self.elo1) and self.elo0 < self.elo1):
            raise ValueError(f"elo0 must be below elo1, got {self.elo0:g} and {self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5, not {value:g}")

    @property
    def lower(self) -> float:
        """The bound at or below which the test accepts H0."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The bound at or above which the test accepts H1."""
        return math.log((1 - self.beta) / self.alpha)


@frozen
class SprtState:
    """Where a test stands after some blocks."""

    blocks: int
    """The blocks the test has seen."""
    llr: float
    """The log-likelihood ratio after them (0 before [`MIN_BLOCKS`][] blocks)."""
    decision: Decision


def expected_score(elo: float) -> float:
    """The expected score of a bot ``elo`` points above its opponent."""
    return 1 / (1 + 10 ** (-elo / 400))


def block_score(tally: Tally, candidate: int = 0, baseline: int = 1) -> float | None:
    """The candidate's score against the baseline in one block (None if they never met)."""
    won = tally[candidate][baseline]
    met = won + tally[baseline][candidate]
    return won / met if met else None


def llr(test: Sprt, scores: Sequence[float]) -> float:
    """The log-likelihood ratio of H1 against H0 after blocks with these scores."""
    n = len(scores)
    if n < MIN_BLOCKS:
        return 0.0
    mean = sum(scores) / n
    variance = max(sum((x - mean) ** 2 for x in scores) / (n - 1), MIN_VARIANCE)
    s0, s1 = expected_score(test.elo0), expected_score(test.elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def state(test: Sprt, scores: Sequence[float]) -> SprtState:
    """The state of ``test`` after blocks with these candidate scores."""
    value = llr(test, scores)
    decision: Decision = "undecided"
    if len(scores) >= MIN_BLOCKS:
        if value >= test.upper:
            decision = "H1"
        elif value <= test.lower:
            decision = "H0"
    return SprtState(blocks=len(scores), llr=value, decision=decision)
