"""Bradley–Terry ratings on an Elo scale, with bootstrap confidence intervals over blocks.

The model: bot ``i`` beats bot ``j`` in a pairwise result with probability
``p_i / (p_i + p_j)``. The strengths ``p`` are fitted by maximum likelihood with the
minorize–maximize iteration (each step ``p_i = W_i / sum_j n_ij / (p_i + p_j)``, for
``W_i`` the results ``i`` won and ``n_ij`` the results between ``i`` and ``j``), finished
by Newton's method on the log-strengths, a tie counting one half for each side. A *prior*
of virtual ties is added to every pair of bots (one by default), so that a bot that never
wins or never loses still has a finite rating; its weight fades as results come in.

The scale is Elo's: ``elo_i = 400 * log10(p_i / p_anchor)``, the anchor bot at 0, so a bot
rated ``d`` above another wins a pairwise result with probability ``1 / (1 + 10**(-d/400))``
(100 points: 64%, 200 points: 76%).

The confidence intervals are percentile intervals of a bootstrap over blocks: blocks are
drawn with replacement (each block keeps all its seatings together, so the pairing of
games on one deal is kept) from a generator seeded with the arena's seed, and the ratings
fitted again on each draw, so the intervals are the same on every run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from attrs import frozen

from ttr_core.arena.games import Tally, empty_tally
from ttr_core.model import rng

PRIOR = 1.0
"""Virtual ties added to every pair of bots before fitting."""
BOOTSTRAP = 1000
"""Bootstrap draws for the confidence intervals unless told otherwise."""
CONFIDENCE = 0.95
"""The confidence level of the intervals."""
MM_TOLERANCE = 1e-6
"""The minorize–maximize steps stop when no log-strength moves more than this in a step."""
MAX_STEPS = 100_000
"""The minorize–maximize steps stop after this many in any case."""
TOLERANCE = 1e-13
"""Newton's steps, which finish the fit, stop when none moves a log-strength this much."""
NEWTON_STEPS = 50
"""Newton's steps stop after this many in any case (a few are enough)."""
ELO = 400.0 / math.log(10.0)
"""Elo points per unit of natural log-strength."""


class NoFiniteRatingsError(ValueError):
    """Without a prior, the results have no finite maximum-likelihood ratings: some group
    of bots never lost (or never won) a result against the others."""


@frozen
class Rating:
    """One bot's rating, with its bootstrap confidence interval."""

    bot: str
    elo: float
    """The rating, the anchor bot at 0."""
    low: float | None
    """The lower end of the confidence interval (None without a bootstrap)."""
    high: float | None
    """The upper end of the confidence interval (None without a bootstrap)."""


def fit(tally: Tally, *, anchor: int = 0, prior: float = PRIOR) -> list[float]:
    """The Elo ratings of the bots of ``tally``, bot ``anchor`` at 0.

    :raises NoFiniteRatingsError: ``prior`` is 0 and the results have no finite maximum.
    :raises ValueError: ``prior`` is negative or ``anchor`` is not a bot of the tally.
    """
    return _fit(tally, anchor, prior, None)


def _fit(tally: Tally, anchor: int, prior: float, start: list[float] | None) -> list[float]:
    k = len(tally)
    if not 0 <= anchor < k:
        raise ValueError(f"the anchor must be a bot from 0 to {k - 1}, not {anchor}")
    if not prior >= 0:
        raise ValueError(f"the prior must be at least 0, not {prior}")
    wins = [[tally[i][j] + (prior / 2 if i != j else 0.0) for j in range(k)] for i in range(k)]
    if prior == 0:
        _check_finite(wins)
    games = [[wins[i][j] + wins[j][i] for j in range(k)] for i in range(k)]
    won = [sum(row) for row in wins]
    strength = [math.exp(e / ELO) for e in start] if start else [1.0] * k
    for _ in range(MAX_STEPS):
        moved = 0.0
        for i in range(k):
            rest = sum(games[i][j] / (strength[i] + strength[j]) for j in range(k) if j != i)
            new = won[i] / rest
            moved = max(moved, abs(math.log(new / strength[i])))
            strength[i] = new
        scale = strength[anchor]
        strength = [s / scale for s in strength]
        if moved < MM_TOLERANCE:
            break
    theta = _newton([math.log(s) for s in strength], games, won, anchor)
    return [ELO * t for t in theta]


def _newton(theta: list[float], games: Tally, won: list[float], anchor: int) -> list[float]:
    """Newton steps on the log-strengths from a point near the maximum, the anchor held
    at 0, until a step moves less than [`TOLERANCE`][] (the likelihood is concave)."""
    k = len(theta)
    free = [i for i in range(k) if i != anchor]
    for _ in range(NEWTON_STEPS):
        p = [math.exp(t) for t in theta]
        grad = [0.0] * k
        curve = [[0.0] * k for _ in range(k)]
        for i in range(k):
            grad[i] = won[i]
            for j in range(k):
                if j == i or not games[i][j]:
                    continue
                share = p[i] / (p[i] + p[j])
                grad[i] -= games[i][j] * share
                weight = games[i][j] * share * (1 - share)
                curve[i][i] += weight
                curve[i][j] -= weight
        step = _solve([[curve[i][j] for j in free] for i in free], [grad[i] for i in free])
        for i, d in zip(free, step, strict=True):
            theta[i] += d
        if max((abs(d) for d in step), default=0.0) < TOLERANCE:
            break
    return theta


def _solve(matrix: list[list[float]], rhs: list[float]) -> list[float]:
    """The solution of ``matrix @ x = rhs`` by Gaussian elimination with pivoting."""
    n = len(rhs)
    a = [[*row, rhs[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(col + 1, n):
            factor = a[r][col] / a[col][col]
            for c in range(col, n + 1):
                a[r][c] -= factor * a[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (a[r][n] - sum(a[r][c] * x[c] for c in range(r + 1, n))) / a[r][r]
    return x


def _check_finite(wins: Tally) -> None:
    """Finite ratings exist exactly when every bot can reach every other through wins."""
    k = len(wins)
    for source in range(k):
        seen = {source}
        todo = [source]
        while todo:
            i = todo.pop()
            for j in range(k):
                if j not in seen and wins[i][j] > 0:
                    seen.add(j)
                    todo.append(j)
        if len(seen) < k:
            raise NoFiniteRatingsError(
                "the results have no finite ratings without a prior: some bots never "
                "lost, or never won, against the others"
            )


def rate(
    bots: Sequence[str],
    blocks: Sequence[Tally],
    *,
    anchor: int = 0,
    seed: int = 0,
    draws: int = BOOTSTRAP,
    prior: float = PRIOR,
    confidence: float = CONFIDENCE,
) -> tuple[Rating, ...]:
    """The ratings of ``bots`` from the tallies of ``blocks``, with confidence intervals
    from ``draws`` bootstrap draws of the blocks seeded by ``seed`` (none for 0 draws or
    no block).

    :raises NoFiniteRatingsError: as [`fit`][].
    :raises ValueError: ``draws`` is negative, ``confidence`` is not between 0 and 1, or
        as [`fit`][].
    """
    if draws < 0:
        raise ValueError(f"the bootstrap draws cannot be negative, got {draws}")
    if not 0 < confidence < 1:
        raise ValueError(f"the confidence must be between 0 and 1, not {confidence}")
    k = len(bots)
    elo = _fit(_sum(k, blocks), anchor, prior, None)
    if draws == 0 or not blocks:
        return tuple(
            Rating(bot=b, elo=e, low=None, high=None) for b, e in zip(bots, elo, strict=True)
        )
    samples: list[list[float]] = [[] for _ in range(k)]
    state = rng.seed_state(seed)
    for _ in range(draws):
        chosen = []
        for _ in blocks:
            pick, state = rng.below(state, len(blocks))
            chosen.append(blocks[pick])
        for i, e in enumerate(_fit(_sum(k, chosen), anchor, prior, elo)):
            samples[i].append(e)
    tail = (1 - confidence) / 2
    return tuple(
        Rating(bot=b, elo=e, low=quantile(s, tail), high=quantile(s, 1 - tail))
        for b, e, s in zip(bots, elo, samples, strict=True)
    )


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values``, interpolated linearly between order statistics."""
    ordered = sorted(values)
    at = q * (len(ordered) - 1)
    lo = math.floor(at)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (at - lo)


def _sum(bots: int, blocks: Sequence[Tally]) -> Tally:
    total = empty_tally(bots)
    for block in blocks:
        for i in range(bots):
            row, out = block[i], total[i]
            for j in range(bots):
                out[j] += row[j]
    return total
