"""The nearest-rank percentile the benchmarks report: the value at rank ⌊q·n⌋ of the sorted sample (the largest
value for q close to 1), so a p95 over 20 samples is the slowest one and never an interpolation between two."""

from __future__ import annotations

from collections.abc import Iterable


def nearest_rank(values: Iterable[float], q: float, *, scale: float = 1.0, digits: int = 1) -> float | None:
    """The q-th percentile of `values` times `scale`, rounded to `digits`; None for an empty sample."""
    ordered = sorted(values)
    if not ordered:
        return None
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * scale, digits)
