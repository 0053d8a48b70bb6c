"""The dense channel's similarity step: exact cosine in Cypher over a small scope, the vector index above
`MEMORA_EXACT_SCAN_MAX_CHUNKS` visible chunks in scope, with an over-fetch sized so that its top hits match exact.

Both statements (queries/search/channels.py `DENSE_EXACT`, `DENSE_INDEX`) carry the scope and the visibility predicate,
so
only entries the viewer may see are ranked. Whether similarity is exact depends only on visible chunks in scope.
"""

from __future__ import annotations

import time
from typing import Any

from graph.db import Graph
from graph.embeddings import stores_key
from graph.schema import vector_index_name, vector_property
from graph.settings import Settings
from inference.embedders import CheckedEmbedder
from queries.search import channels as ch
from queries.search import dense_matrix, scope_counts, visible_view
from queries.search.fusion import Hit
from queries.search.scope import SearchScope


def _chunks(graph: Graph, statement: str, params: dict[str, Any]) -> int:
    return int(graph.read(statement, params)[0]["n"] or 0)


def dense(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    scope: SearchScope,
    vector: list[float],
    limit: int,
) -> tuple[list[Hit], dict[str, str]]:
    """Exact cosine over a small scope (and always for witnesses); the vector index with over-fetch otherwise.

    The index answers a global top-`fetch` over every project; the scope and visibility predicate then keep the
    viewer's own candidates, re-scored exactly. The first fetch is sized from the share of the index the visible
    scope makes up; it grows fourfold until `limit` visible entries came back and the INDEX_EXACT_TOP-th scores
    above what any unfetched chunk could (the cut plus the quantisation error seen), so those top hits are the
    exact ones (docs/BENCHMARKS.md, "Exact-scan threshold and the index path"). A question naming people, places or
    things gets one fetch: a common name fills it, a rare one is ranked exactly from its few mentions."""
    base, viewer = scope.params(), scope.viewer
    params = {
        **base,
        "vector": vector,
        "prop": vector_property(embedder.slug),
        "model": embedder.model_id,
        "limit": limit,
    }
    if visible_view.usable(settings, scope):
        found = dense_matrix.dense(graph, settings, scope, params["prop"], stores_key(embedder.slug), vector, limit)
        if found is not None:
            return found
    named = bool(scope.soft.entity_ids)
    exact = ch.DENSE_EXACT_MENTIONED if named else ch.DENSE_EXACT
    limit_exact = settings.exact_scan_max_chunks
    if viewer.is_witness or _chunks(graph, ch.PROJECT_CHUNKS, base) <= limit_exact:
        return ch.run_channel(graph, exact, params)
    one = ch.one_project(base)
    visible = scope_counts.count(graph, viewer, ch.scope_chunks(one), one, "n")
    if visible <= limit_exact:
        return ch.run_channel(graph, exact, params)
    indexed = _indexed_chunks(graph, params["prop"])
    fetch = first_fetch(limit * INDEX_MARGIN, visible, indexed)
    top = min(limit, INDEX_EXACT_TOP)
    while True:
        rows = graph.read(ch.DENSE_INDEX, {**params, "index": vector_index_name(embedder.slug), "fetch": fetch})
        hits = [Hit(r["id"], float(r["score"])) for r in rows]
        if len(hits) >= limit and hits[top - 1].score >= float(rows[0]["cut"]) + float(rows[0]["err"]):
            return hits, {r["id"]: r["chunk_id"] for r in rows}  # the top hits are certain
        if fetch >= indexed:
            indexed = _indexed_chunks(graph, params["prop"], fresh=True)
            if fetch >= indexed:  # the whole index was asked: every visible chunk was a candidate
                return hits, {r["id"]: r["chunk_id"] for r in rows}
        if fetch >= INDEX_MAX_FETCH or named:
            return ch.run_channel(graph, exact, params)
        fetch = min(fetch * 4, INDEX_MAX_FETCH)


# The top hits of the index path that must be exact ones (the target: dense top-10 against exact), visible
# candidates per hit the first fetch aims at, and the fetch bounds (measured: bench/crossover.py).
INDEX_EXACT_TOP = 10
INDEX_MARGIN = 2
INDEX_MIN_FETCH = 100
INDEX_MAX_FETCH = 20000


def first_fetch(want: int, visible: int, indexed: int) -> int:
    """Candidates to ask the index for so that about `want` of them fall in a scope of `visible` chunks out of
    `indexed` (with 25 % to spare): one round trip in the common case, however small a part of the index the
    scope is."""
    share = max(visible, 1) / max(indexed, visible, 1)
    return int(min(INDEX_MAX_FETCH, max(INDEX_MIN_FETCH, want * 1.25 / share)))


INDEXED_TTL_SECONDS = 60.0


def _indexed_chunks(graph: Graph, prop: str, fresh: bool = False) -> int:
    """How many chunks there are, at least as many as the model's index holds: bounds the over-fetch; read at most
    once a minute unless the caller is about to stop on it."""
    now = time.monotonic()
    counts = indexed_counts(graph)
    cached = counts.get(prop)
    if fresh or cached is None or now - cached[0] > INDEXED_TTL_SECONDS:
        cached = (now, int(graph.read(ch.INDEXED_CHUNKS, {"prop": prop})[0]["n"]))
        counts[prop] = cached
    return cached[1]


def indexed_counts(graph: Graph) -> dict[str, tuple[float, int]]:
    """When each model's index was last counted, and its count, on this database handle (graph/kept.py)."""
    return graph.kept.room("search.indexed_counts", dict[str, tuple[float, int]])
