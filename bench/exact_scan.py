"""The cost of exact dense similarity, measured on one scope of chunks in the `bench/peers.py` run.

Four ways to the same top entries for one query vector:
- `cypher_exact`: today's `DENSE_EXACT` statement (queries/search/channels.py), what the search door runs below
  `MEMORA_EXACT_SCAN_MAX_CHUNKS` chunks in scope;
- `index_path`: the search door's vector-index path (`queries.search.dense.dense` with the threshold at 0: the HNSW
index
  with its over-fetch loop and the chunk counts that decide it);
- `numpy`: a matrix product over the same vectors already in memory (the floor);
- `cached_matrix` (a prototype, bench only): a per-scope vector matrix cached in the process and rebuilt when any
  search generation of its projects moves (graph/generations.py: every write that changes what a search returns
  bumps one), with visibility still decided by a Cypher predicate that returns the ids of the chunks the viewer may
  see; one statement per search reads both. `cached_visible` also keeps that id set (with the matrix it indexes),
  keyed by the generations the viewer depends on (`generations.read`), so a search without filters or query
  constraints needs only that read.

The search door's code is not changed: the prototype lives here.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from bench.percentiles import nearest_rank
from graph import generations
from graph.db import Graph
from graph.schema import vector_property
from graph.settings import Settings
from graph.visibility import Viewer
from inference.embedders import CheckedEmbedder
from queries.search import channels as ch
from queries.search.dense import dense as dense_step
from queries.search.request import SearchOptions
from queries.search.scope import SearchScope

LIMIT = SearchOptions().dense_candidates  # the dense channel's depth in a search

# The scope's chunks with their vectors, hidden ones included: the matrix is the service's, never a viewer's.
SCOPE_VECTORS = """
MATCH (c:Chunk) WHERE c.project_id IN $project_ids AND c[$prop] IS NOT NULL
MATCH (c)-[:OF]->(e:Entry)
RETURN c.id AS id, e.id AS entry_id, c[$prop] AS vector
ORDER BY c.id
"""

# Every generation of the scope's projects, summed: each bump adds one, so the sum moves on every write that can
# change a search of these projects, whoever may see it.
GENERATION_SUM = """
MATCH (p:Project) WHERE p.id IN $project_ids
RETURN sum(reduce(s = 0, k IN [k IN keys(p) WHERE k STARTS WITH 'search_generation'] | s + p[k])) AS generation
"""

VISIBLE_WITH_GENERATION = f"""
CALL () {{ {GENERATION_SUM} }}
CALL () {{
  MATCH (e:Entry) WHERE {ch.QUERY_SCOPE}
  MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
  RETURN collect(c.id) AS ids
}}
RETURN generation, ids
"""


@dataclass
class ScopeMatrix:
    generation: int
    ids: list[str]
    entry_ids: np.ndarray
    row_of: dict[str, int]
    matrix: np.ndarray


def load_matrix(graph: Graph, params: dict[str, Any], generation: int) -> ScopeMatrix:
    rows = graph.read(SCOPE_VECTORS, params)
    ids = [r["id"] for r in rows]
    matrix = np.asarray([r["vector"] for r in rows], dtype=np.float32).reshape(len(rows), -1)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix /= np.where(norms == 0, 1.0, norms)
    return ScopeMatrix(
        generation,
        ids,
        np.asarray([r["entry_id"] for r in rows], dtype=object),
        {c: i for i, c in enumerate(ids)},
        matrix,
    )


def top_entries(m: ScopeMatrix, vector: np.ndarray, rows: np.ndarray | None, limit: int) -> list[tuple[str, float]]:
    """Best chunk per entry, entries by similarity (ties by id, like `DENSE_EXACT`)."""
    sub = m.matrix if rows is None else m.matrix[rows]
    entry_ids = m.entry_ids if rows is None else m.entry_ids[rows]
    sims = sub @ vector
    order = np.argsort(-sims, kind="stable")
    best: dict[str, float] = {}
    for i in order:
        e = entry_ids[i]
        if e not in best:
            best[e] = float(sims[i])
            if len(best) >= limit * 2:  # enough to settle ties at the cut
                break
    return sorted(best.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]


class MatrixCache:
    """The prototype: one matrix per scope, rebuilt when its generation sum moves."""

    def __init__(self) -> None:
        self.matrices: dict[tuple[str, ...], ScopeMatrix] = {}
        self.visible: dict[tuple[Any, ...], tuple[ScopeMatrix, np.ndarray]] = {}
        self.rebuilds = 0

    def _matrix(self, graph: Graph, params: dict[str, Any], generation: int) -> ScopeMatrix:
        key = tuple(sorted(params["project_ids"]))
        m = self.matrices.get(key)
        if m is None or m.generation != generation:
            m = self.matrices[key] = load_matrix(graph, params, generation)
            self.rebuilds += 1
        return m

    def search(self, graph: Graph, params: dict[str, Any], vector: np.ndarray) -> list[tuple[str, float]]:
        """Visibility and filters by Cypher (the visible chunk ids), similarity by numpy: one statement."""
        row = graph.read(VISIBLE_WITH_GENERATION, params)[0]
        m = self._matrix(graph, params, int(row["generation"] or 0))
        rows = np.fromiter((m.row_of[c] for c in row["ids"] if c in m.row_of), dtype=np.int64)
        return top_entries(m, vector, rows, params["limit"])

    def search_cached_visible(
        self, graph: Graph, params: dict[str, Any], viewer: Viewer, vector: np.ndarray
    ) -> list[tuple[str, float]]:
        """No filters and no query constraints: the visible set is kept per the viewer's own generations."""
        gens = generations.read(graph, params["project_ids"], viewer.user_id)
        key = (viewer.user_id, tuple(tuple(sorted(g.items())) for g in gens))
        found = self.visible.get(key)
        if found is None:
            row = graph.read(VISIBLE_WITH_GENERATION, params)[0]
            m = self._matrix(graph, params, int(row["generation"] or 0))
            found = self.visible[key] = (
                m,
                np.fromiter((m.row_of[c] for c in row["ids"] if c in m.row_of), dtype=np.int64),
            )
        # The rows index the matrix they were taken from: a write hidden from this viewer may have rebuilt the
        # scope's matrix since, but it changed none of the rows this viewer may see.
        m, rows = found
        return top_entries(m, vector, rows, params["limit"])


def _timed(fn: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn(*args)
    return (time.perf_counter() - t) * 1000, out


def scope_params(embedder: CheckedEmbedder, viewer: Viewer, project_ids: list[str]) -> dict[str, Any]:
    """The dense channel's parameters for a search without filters or query constraints (as the door builds them),
    the query vector excepted."""
    return {
        **SearchScope(viewer, tuple(project_ids)).params(),
        "prop": vector_property(embedder.slug),
        "model": embedder.model_id,
        "limit": LIMIT,
    }


def measure(
    graph: Graph,
    embedder: CheckedEmbedder,
    settings: Settings,
    viewer: Viewer,
    project_ids: list[str],
    questions: list[str],
    index_path: bool = True,
) -> dict[str, Any]:
    """Per-query p50/p95 of each way, over `questions` (embedded beforehand: only similarity is timed), and the
    recall@10 of each against the exact Cypher answer. `index_path=False` skips the vector index (slow for a small
    project in a large database: its over-fetch grows to the whole index)."""
    params = scope_params(embedder, viewer, project_ids)
    scope = SearchScope(viewer, tuple(project_ids))
    vectors = [np.asarray(embedder.embed_query(q), dtype=np.float32) for q in questions]
    chunks = int(graph.read(ch.PROJECT_CHUNKS, params)[0]["n"])
    index_settings = settings.model_copy(update={"exact_scan_max_chunks": 0})
    t = time.perf_counter()
    matrix = load_matrix(graph, params, 0)
    load_ms = (time.perf_counter() - t) * 1000
    cache = MatrixCache()
    times: dict[str, list[float]] = {
        k: [] for k in ("cypher_exact", "index_path", "numpy", "cached_matrix", "cached_visible")
    }
    recall: dict[str, list[float]] = {k: [] for k in times if k != "cypher_exact"}
    if vectors:  # warm-up, untimed: statement plans, and the cached ways' first build (timed as the load above)
        warm = {**params, "vector": [float(x) for x in vectors[0]]}
        ch.run_channel(graph, ch.DENSE_EXACT, warm)
        if index_path:
            dense_step(graph, embedder, index_settings, scope, warm["vector"], LIMIT)
        cache.search_cached_visible(graph, warm, viewer, vectors[0])
    for v in vectors:
        qparams = {**params, "vector": [float(x) for x in v]}
        ms, (exact_hits, _) = _timed(ch.run_channel, graph, ch.DENSE_EXACT, qparams)
        times["cypher_exact"].append(ms)
        truth = {h.id for h in exact_hits[:10]}
        answers: dict[str, list[str]] = {}
        if index_path:
            ms, (hits, _) = _timed(dense_step, graph, embedder, index_settings, scope, qparams["vector"], LIMIT)
            times["index_path"].append(ms)
            answers["index_path"] = [h.id for h in hits]
        for name, fn, args in (
            ("numpy", top_entries, (matrix, v, None, LIMIT)),
            ("cached_matrix", cache.search, (graph, qparams, v)),
            ("cached_visible", cache.search_cached_visible, (graph, qparams, viewer, v)),
        ):
            ms, found = _timed(fn, *args)
            times[name].append(ms)
            answers[name] = [e for e, _ in found]
        for name, ranked in answers.items():
            recall[name].append(len(truth & set(ranked[:10])) / max(1, len(truth)))
    out: dict[str, Any] = {
        "project_ids": project_ids,
        "chunks": chunks,
        "queries": len(vectors),
        "matrix_load_ms": round(load_ms, 1),
        "matrix_rebuilds": cache.rebuilds,
    }
    for name, values in times.items():
        if values:
            out[name] = {
                "p50_ms": nearest_rank(values, 0.5, digits=3),
                "p95_ms": nearest_rank(values, 0.95, digits=3),
                "us_per_chunk_p50": round(statistics.median(values) * 1000 / max(1, chunks), 2),
            }
            if name in recall:
                out[name]["recall@10_vs_exact"] = round(statistics.fmean(recall[name]), 4)
    return out


def table(results: list[dict[str, Any]]) -> str:
    """One markdown row per scope and way."""
    lines = [
        "| scope | chunks | way | p50 ms | p95 ms | µs/chunk (p50) | top-10 recall vs exact |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        scope = r["label"]
        for name in ("cypher_exact", "index_path", "numpy", "cached_matrix", "cached_visible"):
            f = r.get(name)
            if f:
                rec = f.get("recall@10_vs_exact")
                lines.append(
                    f"| {scope} | {r['chunks']} | {name} | {f['p50_ms']:.2f} | {f['p95_ms']:.2f} | "
                    f"{f['us_per_chunk_p50']:.2f} | {'1 (is exact)' if rec is None else f'{rec:.3f}'} |"
                )
        lines.append(
            f"| {scope} | {r['chunks']} | matrix load (once per generation) | {r['matrix_load_ms']:.1f} | | | |"
        )
    return "\n".join(lines)
