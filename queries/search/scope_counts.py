"""Counts over a search's scope that do not depend on the query's words or vector (BM25's N, the visible chunks
that decide between the exact scan and the vector index): for a one-project scope they are kept per viewer by
graph/analytics_cache.py, keyed by the viewer's generations, so a write they may see recounts them and no search
judges every entry of the project only to count it."""

from __future__ import annotations

from typing import Any

from graph import analytics_cache
from graph.db import Graph


def count(graph: Graph, statement: str, params: dict[str, Any], column: str) -> int:
    """`statement`'s single `column` value for `params` (the scope, visibility parameters included)."""

    def compute() -> int:
        rows = graph.read(statement, params)
        return int(rows[0][column] or 0) if rows else 0

    projects = params.get("project_ids") or []
    if len(projects) != 1:
        return compute()
    scope = {k: v for k, v in params.items() if k not in ("viewer_id", "witness_period_id")}
    return analytics_cache.cached(
        graph, params, projects[0], "scope_count", {"statement": statement, "scope": scope}, compute
    )
