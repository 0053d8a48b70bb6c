"""Counts over a search's scope that do not depend on the query's words or vector (BM25's N, the visible chunks
that decide between the exact scan and the vector index, the visible entries that decide whether a kept view is
listed behind the searches): for a one-project scope they are kept per viewer by graph/analytics_cache.py, keyed by
the viewer's generations and by the parameters the statement reads, so a write they may see recounts them, another
question over the same scope does not, and no search judges every entry of the project only to count it."""

from __future__ import annotations

from typing import Any

from graph import analytics_cache
from graph.db import Graph
from graph.plan_cache import rewritten
from graph.visibility import Viewer


def count(graph: Graph, viewer: Viewer, statement: str, params: dict[str, Any], column: str) -> int:
    """`statement`'s `column` value for `params` (the scope, `viewer`'s visibility parameters included); its one row
    is kept per viewer, so each of its columns is counted once."""
    read = sorted(rewritten(statement)[1])  # the parameters it reads, read once per statement

    def compute() -> dict[str, Any]:
        rows = graph.read(statement, {k: params.get(k) for k in read})
        return dict(rows[0]) if rows else {}

    projects = params.get("project_ids") or []
    if len(projects) != 1:
        return int(compute().get(column) or 0)
    scope = {k: params.get(k) for k in read if k not in ("viewer_id", "witness_period_id")}
    row = analytics_cache.cached(
        graph, viewer, projects[0], "scope_count", {"statement": statement, "scope": scope}, compute
    )
    return int(row.get(column) or 0)
