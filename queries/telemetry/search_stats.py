"""`memora stats`: what the retrieval log says about searches, in aggregate only (no query, user or entry named).

- latency p50/p95 per stage, over searches the cache did not answer (a hit's only stage is `cache`, reported apart);
- each channel's share of the top-10 results: of all results in a top 10, the share each channel helped find (a result
  found by two channels counts for both, so shares can sum past 1);
- click-through by position: clicks at position p over logged searches that showed at least p results.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from graph.db import Graph

READ_LOG = """
MATCH (s:SearchLog)
WHERE s.at >= datetime() - duration({days: $days}) AND ($project_id IS NULL OR $project_id IN s.project_ids)
RETURN s.latency AS latency, s.cached AS cached, s.result_channels AS channels, s.clicks AS clicks,
       s.rerank AS rerank, s.candidates AS candidates
"""
TOP = 10


@dataclass
class SearchStats:
    searches: int = 0
    cache_hits: int = 0
    latency_ms: dict[str, dict[str, float]] = field(default_factory=dict)
    channel_share_top10: dict[str, float] = field(default_factory=dict)
    mean_candidates: dict[str, float] = field(default_factory=dict)
    rerank: dict[str, int] = field(default_factory=dict)
    click_through: dict[int, dict[str, float]] = field(default_factory=dict)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def compute(rows: list[dict[str, Any]]) -> SearchStats:
    out = SearchStats(searches=len(rows))
    stages: dict[str, list[float]] = defaultdict(list)
    shares: Counter[str] = Counter()
    candidates: dict[str, list[int]] = defaultdict(list)
    shown: Counter[int] = Counter()
    clicked: Counter[int] = Counter()
    results_top = 0
    for row in rows:
        out.rerank[row["rerank"] or "none"] = out.rerank.get(row["rerank"] or "none", 0) + 1
        if row["cached"]:
            out.cache_hits += 1
        latency = json.loads(row["latency"] or "{}")
        for stage, ms in latency.items():
            if not row["cached"] or stage == "cache":
                stages[stage].append(float(ms))
        for channel, n in json.loads(row["candidates"] or "{}").items():
            candidates[channel].append(int(n))
        top = list(row["channels"] or [])[:TOP]
        results_top += len(top)
        for found_by in top:
            shares.update(c for c in found_by.split(",") if c)
        for p in range(1, len(row["channels"] or []) + 1):
            shown[p] += 1
        clicked.update(int(p) for p in row["clicks"] or [])
    out.latency_ms = {
        s: {"p50": percentile(v, 50), "p95": percentile(v, 95), "n": len(v)} for s, v in sorted(stages.items())
    }
    out.channel_share_top10 = {c: round(n / results_top, 4) for c, n in sorted(shares.items())} if results_top else {}
    out.mean_candidates = {c: round(sum(v) / len(v), 1) for c, v in sorted(candidates.items())}
    out.click_through = {
        p: {"shown": shown[p], "clicks": clicked[p], "rate": round(clicked[p] / shown[p], 4)}
        for p in sorted(shown)
        if p <= TOP
    }
    return out


def search_stats(graph: Graph, days: int = 30, project_id: str | None = None) -> SearchStats:
    return compute([dict(r) for r in graph.read(READ_LOG, {"days": days, "project_id": project_id})])
