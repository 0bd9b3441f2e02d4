"""Pearson's chi-square goodness-of-fit test, for the tests of sampled hidden states."""

from __future__ import annotations

import math
from collections.abc import Sequence


def upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x), for a > 0 and x >= 0.

    A power series below ``a + 1`` and a continued fraction (modified Lentz) above it,
    each taken until its terms no longer change the result in double precision.
    """
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    i = 1
    while True:
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        i += 1
        if abs(step - 1) < 1e-16 or i > 10_000:
            break
    return math.exp(log_front) * h


def chi_square_p(observed: Sequence[int], expected: Sequence[float]) -> float:
    """The p-value of Pearson's statistic for ``observed`` counts against ``expected``
    counts (cells expected to hold nothing must hold nothing, and are left out)."""
    stat = 0.0
    cells = 0
    for o, e in zip(observed, expected, strict=True):
        if e == 0:
            if o:
                return 0.0
            continue
        stat += (o - e) ** 2 / e
        cells += 1
    if cells < 2:
        return 1.0
    return upper_gamma((cells - 1) / 2, stat / 2)
