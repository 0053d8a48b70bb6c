"""An entity's timeline as a picture for the CLI's `--plot` (PNG, or SVG for a file ending in .svg), drawn with
matplotlib; the API and the web draw their SVG without it (`api.actions.pictures`).

matplotlib is the optional extra `plot` (`pip install memora-graph[plot]`): without it, `PlotUnavailable` says so and
the CLI exits 3. The picture depends only on the rows it is given (visible counts), and an SVG is byte-for-byte
reproducible (fixed hash salt, no date in its metadata), so a viewer's picture changes exactly when their numbers do.
"""

from __future__ import annotations

import threading
from io import BytesIO
from typing import Any

from api.actions.pictures import series

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


def draw_timeline(name: str, rows: list[dict[str, Any]], resolution: str, fmt: str = "svg") -> bytes:
    """Bars of visible entries per year or month (`rows` as `timeline` or `timeline_months` give them)."""
    figure_class = _figure_class()
    labels, counts = series(rows, resolution)
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
