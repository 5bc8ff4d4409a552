"""The intervals the benches print, 95% unless told: Wilson's for a share (k of n), and
the normal one's half-width for a mean."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def half_width(values: Sequence[float], z: float = 1.96) -> float:
    """The half-width of the interval of `values`' mean (two values or more)."""
    return z * statistics.stdev(values) / math.sqrt(len(values))


def mean_half(values: Sequence[float], z: float = 1.96) -> tuple[float, float]:
    """The mean of `values` and its interval's half-width: NaN for fewer than two values,
    where there is no interval (not a zero-width one)."""
    mean = statistics.fmean(values)
    return mean, half_width(values, z) if len(values) > 1 else math.nan


def signed_interval(values: Sequence[float]) -> str:
    """A paired difference's mean and its interval's bounds, to four places."""
    mean, half = mean_half(values)
    return f"{mean:+.4f} ({mean - half:+.4f} to {mean + half:+.4f})"


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The interval's bounds for `k` of `n` (shares, 0 to 1); (0, 1) where n is 0."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson_text(k: int, n: int) -> str:
    """`k` of `n` as a percentage with its 95% interval: " 12.5% (1/8; 95% CI 2.2–47.1%)"."""
    if n == 0:
        return "n/a (n=0)"
    low, high = wilson(k, n)
    return f"{100 * k / n:5.1f}% ({k}/{n}; 95% CI {100 * low:.1f}–{100 * high:.1f}%)"
