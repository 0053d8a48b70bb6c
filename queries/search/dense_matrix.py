"""Exact dense similarity in numpy over the chunks a viewer may see in one project (queries/search/visible_view.py).

Scores are Neo4j's: `vector.similarity.cosine` is (1 + cos) / 2, and an entry scores as its best chunk, ties by
entry id, as `DENSE_EXACT` ranks them (tests/search/test_dense_matrix.py checks both on the real Neo4j).
"""

from __future__ import annotations

import numpy as np

from graph.db import Graph
from graph.settings import Settings
from queries.search import view_filter, visible_view
from queries.search.fusion import Hit
from queries.search.scope import SearchScope


def dense(
    graph: Graph,
    settings: Settings,
    scope: SearchScope,
    prop: str,
    stores_key: str,
    vector: list[float],
    limit: int,
) -> tuple[list[Hit], dict[str, str]] | None:
    """The top `limit` visible entries meeting the query's constraints by their best chunk's cosine with `vector`,
    with that chunk; None when the view could not be had (the caller asks Cypher). `prop` names the view's vectors."""
    params = {**scope.params(), "prop": prop}
    view = visible_view.view_for(graph, settings, scope.viewer, params, stores_key, len(vector))
    if view is None:
        return None
    return _rank(view, vector, limit, view_filter.meeting(view, scope.soft))


def _rank(
    view: visible_view.View, vector: list[float], limit: int, meeting: np.ndarray | None = None
) -> tuple[list[Hit], dict[str, str]]:
    if not len(view.embedded) or limit <= 0:
        return [], {}
    q = np.asarray(vector, dtype=np.float32)
    norm = float(np.linalg.norm(q))
    if norm == 0:
        return [], {}
    q = q / norm
    # Scoring the whole pool and picking the view's rows beats copying those rows out first, unless the pool holds
    # many rows the view does not name (another scope's, or stale ones awaiting compaction).
    cos = (view.matrix @ q)[view.rows] if 2 * len(view.rows) >= len(view.matrix) else view.matrix[view.rows] @ q
    sims = (1.0 + cos.astype(np.float64)) / 2.0
    best = np.maximum.reduceat(sims, view.starts)  # per embedded entry
    ids = view.embedded_ids
    allowed = None if meeting is None else meeting[view.embedded]
    if allowed is not None:
        best = np.where(allowed, best, -np.inf)
    eligible = len(best) if allowed is None else int(allowed.sum())
    if eligible == 0:
        return [], {}
    take = min(eligible, limit * 2 + 8)
    top = np.argpartition(-best, take - 1)[:take] if take < len(best) else np.arange(len(best))
    # Ties past the cut: every entry scoring the same as the last one kept is a candidate for the id order.
    if take < len(best):
        floor = best[top].min()
        top = np.flatnonzero(best >= floor)
    if allowed is not None:
        top = top[allowed[top]]
    order = sorted(top.tolist(), key=lambda i: (-best[i], ids[i]))[:limit]
    ends = np.append(view.starts[1:], len(view.rows))
    hits, chunks = [], {}
    for i in order:
        s, e = int(view.starts[i]), int(ends[i])
        hits.append(Hit(ids[i], float(best[i])))
        chunks[ids[i]] = view.chunk_ids[s + int(np.argmax(sims[s:e]))]
    return hits, chunks
