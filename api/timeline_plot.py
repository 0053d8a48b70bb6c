"""An entity's timeline as a picture (SVG for the API, PNG or SVG for the CLI), drawn with matplotlib.

matplotlib is the optional extra `plot` (`pip install memora-graph[plot]`): without it, `PlotUnavailable` says so and
the API answers 501. The picture depends only on the rows it is given (visible counts), and an SVG is byte-for-byte
reproducible (fixed hash salt, no date in its metadata), so a viewer's picture changes exactly when their numbers do.
"""

from __future__ import annotations

import threading
from io import BytesIO
from typing import Any

SVG = "image/svg+xml"
"""The media type of the SVG the API and the web's entity page answer with."""
_LOCK = threading.Lock()
"""matplotlib's text and font caches are shared by the process: one drawing at a time."""


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def _figure_class() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable("timeline pictures need matplotlib: pip install 'memora-graph[plot]'") from None
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "memora-timeline"  # element ids from a fixed salt: reproducible bytes
    from matplotlib.figure import Figure

    return Figure


def _series(rows: list[dict[str, Any]], resolution: str) -> tuple[list[str], list[int]]:
    """Every year or month from the first to the last row, empty ones at 0, so a gap shows as a gap."""
    if not rows:
        return [], []
    counts = {str(r["year"] if resolution == "year" else r["month"]): int(r["entries"]) for r in rows}
    if resolution == "year":
        labels = [str(y) for y in range(int(rows[0]["year"]), int(rows[-1]["year"]) + 1)]
    else:
        (y0, m0), (y1, m1) = (map(int, str(rows[i]["month"]).split("-")) for i in (0, -1))
        labels = [f"{i // 12:04d}-{i % 12 + 1:02d}" for i in range(y0 * 12 + m0 - 1, y1 * 12 + m1)]
    return labels, [counts.get(label, 0) for label in labels]


def draw_timeline(name: str, rows: list[dict[str, Any]], resolution: str, fmt: str = "svg") -> bytes:
    """Bars of visible entries per year or month (`rows` as `timeline` or `timeline_months` give them)."""
    figure_class = _figure_class()
    labels, counts = _series(rows, resolution)
    with _LOCK:
        fig = figure_class(figsize=(max(6.0, min(16.0, 0.25 * len(labels) + 3)), 3.2), dpi=100)
        ax = fig.subplots()
        ax.set_title(f"{name}: entries per {resolution}")
        if labels:
            ax.bar(range(len(labels)), counts, color="#4c72b0", width=0.8)
            step = max(1, len(labels) // 12)
            ax.set_xticks(
                range(0, len(labels), step),
                labels[::step],
                rotation=45 if resolution == "month" else 0,
                ha="right" if resolution == "month" else "center",
            )
            ax.set_ylabel("entries")
            ax.yaxis.get_major_locator().set_params(integer=True)
        else:
            ax.text(0.5, 0.5, "no dated entries", ha="center", va="center", transform=ax.transAxes)
            ax.set_xticks([])
            ax.set_yticks([])
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        fig.tight_layout()
        out = BytesIO()
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(out, format=fmt, metadata=metadata)
    return out.getvalue()
