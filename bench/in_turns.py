"""Two variants of one step timed in the same process, in turns: what an in-process A/B benchmark shares. Each
question is run with both, the order swapped every round, so drift of the machine falls on both alike; the figures
are p50 (the median) and p95 (`bench.percentiles.nearest_rank`) per variant, and the ratio of the two p50s."""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from bench.percentiles import nearest_rank

Q = TypeVar("Q")


def in_turns(
    run: Callable[[str, Q], object], modes: tuple[str, str], questions: Sequence[Q], rounds: int, warm: Sequence[Q]
) -> dict[str, list[float]]:
    """Milliseconds of `run(mode, q)` per mode over `rounds` rounds of `questions`, after one untimed turn of `warm`
    with both (every statement shape planned once)."""
    took: dict[str, list[float]] = {m: [] for m in modes}
    for q in warm:
        for mode in modes:
            run(mode, q)
    for r in range(rounds):
        for q in questions:
            for mode in modes if r % 2 == 0 else modes[::-1]:
                t = time.perf_counter()
                run(mode, q)
                took[mode].append((time.perf_counter() - t) * 1000)
    return took


def report(took: dict[str, list[float]], modes: tuple[str, str], out: Path | None) -> None:
    """Print each mode's searches, p50 and p95 and the ratio of the first mode's p50 to the second's; the same as
    JSON to `out` when given."""
    figures = {
        m: {
            "searches": float(len(took[m])),
            "p50_ms": round(statistics.median(took[m]), 1),
            "p95_ms": nearest_rank(took[m], 0.95),
        }
        for m in modes
    }
    first, second = modes
    ratio = round(statistics.median(took[first]) / statistics.median(took[second]), 3)
    for m, f in figures.items():
        print(f"{m}: {f['searches']:.0f} searches, p50 {f['p50_ms']} ms, p95 {f['p95_ms']} ms")
    print(f"{first} / {second}, p50: {ratio}")
    if out:
        out.write_text(json.dumps({**figures, "ratio_p50": ratio}, indent=1))
