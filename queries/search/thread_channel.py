"""The thread channel: the visible turns just before and after the best dense hits in their conversation
(queries/search/channels.py: THREAD). Under the learned fusion it runs inside the ranker's facts statement
(queries/search/ranker.py: FACTS_AND_THREAD); under plain RRF on its own, beside the read of the keyword top hit's
text."""

from __future__ import annotations

import time
from typing import Any

from graph.db import Graph
from queries.search import channels as ch
from queries.search.fusion import Hit

SEEDS = 5


def thread_ask(
    results: dict[str, list[Hit]], wanted: tuple[str, ...], params: dict[str, Any], limit: int
) -> dict[str, Any] | None:
    """The channel's parameters (the turns around the best dense hits, in the scope `params`), or None when it does
    not run: no dense hit to start from, or a search of one channel only."""
    if not results.get("dense") or len(wanted) < 2:
        return None
    return {**params, "seeds": [h.id for h in results["dense"][:SEEDS]], "limit": limit}


def run_thread(graph: Graph, ask: dict[str, Any], latency: dict[str, float]) -> list[Hit]:
    t = time.perf_counter()
    hits, _ = ch.run_channel(graph, ch.THREAD, ask)
    latency["thread"] = round((time.perf_counter() - t) * 1000, 2)
    return hits


def with_thread(results: dict[str, list[Hit]], hits: list[Hit]) -> dict[str, list[Hit]]:
    """The channels with the thread's hits after those that seed it and before the graph channel's."""
    out = {c: h for c, h in results.items() if c != "graph"}
    out["thread"] = hits
    if "graph" in results:
        out["graph"] = results["graph"]
    return out
