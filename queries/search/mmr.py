"""Maximal Marginal Relevance over the candidates' stored vectors: the option beside the word-overlap band
(queries/search/diversify.py), chosen by `MEMORA_DIVERSIFY=mmr` with `MEMORA_MMR_LAMBDA`.

Relevance is the candidate's place in the fused order (1 for the first, falling by 1/RELEVANCE_DEPTH a place), not
its fused score: learned and RRF scores live on different scales, positions do not; and a fixed step keeps lambda
meaning the same whether there are 6 candidates or 30. Each entry's vector is the mean of its chunks'
vectors under the active model; an entry with none is never counted as redundant.
"""

from __future__ import annotations

import numpy as np

from graph.db import Graph
from queries.search.fusion import Fused

RELEVANCE_DEPTH = 30

ENTRY_VECTORS = """
UNWIND $ids AS id
MATCH (c:Chunk)-[:OF]->(e:Entry {id: id})
WHERE c[$prop] IS NOT NULL
RETURN id, collect(c[$prop]) AS vectors
"""


def entry_vectors(graph: Graph, ids: list[str], prop: str) -> dict[str, np.ndarray]:
    """Unit-length mean chunk vector of each entry that has one."""
    out: dict[str, np.ndarray] = {}
    for row in graph.read(ENTRY_VECTORS, {"ids": ids, "prop": prop}):
        v = np.asarray(row["vectors"], dtype=float).mean(axis=0)
        norm = float(np.linalg.norm(v))
        if norm > 0:
            out[row["id"]] = v / norm
    return out


def mmr(candidates: list[Fused], vectors: dict[str, np.ndarray], lam: float) -> list[Fused]:
    """Greedy MMR: each pick maximises lam * relevance - (1 - lam) * its highest cosine to an earlier pick."""
    if not 0.0 <= lam <= 1.0:
        raise ValueError("MMR lambda must be between 0 and 1")
    n = len(candidates)
    relevance = [1.0 - i / max(n, RELEVANCE_DEPTH) for i in range(n)]
    left = list(range(n))
    chosen: list[int] = []
    picked_vectors: list[np.ndarray] = []
    while left:
        best, best_value = left[0], -np.inf
        for i in left:
            v = vectors.get(candidates[i].id)
            redundancy = max((float(v @ p) for p in picked_vectors), default=0.0) if v is not None else 0.0
            value = lam * relevance[i] - (1.0 - lam) * redundancy
            if value > best_value:
                best, best_value = i, value
        chosen.append(best)
        left.remove(best)
        v = vectors.get(candidates[best].id)
        if v is not None:
            picked_vectors.append(v)
    return [candidates[i] for i in chosen]
