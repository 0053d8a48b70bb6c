"""Embedding bookkeeping in the graph: which chunks still need a vector for a model, and which models are live.

A chunk has a vector for a model when its `emb_<slug>` property is set. The chunk's `embedding_status`
(pending | done | failed) describes the *active* model; a model being migrated to is tracked by its vector property
and an `attempts_<slug>` counter. `(:EmbeddingState {id: 'state'})` names the active model and, during a migration,
the target model; search reads it to query both indexes until the target is complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graph.db import Graph

PENDING_BATCH = """
MATCH (c:Chunk)
WHERE c.id > $after AND c[$prop] IS NULL AND coalesce(c[$attempts_key], 0) < $max_attempts
  AND ($project_id IS NULL OR c.project_id = $project_id)
RETURN c.id AS id, c.context AS context, c.text AS text, coalesce(c[$attempts_key], 0) AS attempts
ORDER BY c.id
LIMIT $limit
"""

# The active model's pending chunks are found through the embedding_status index, not by scanning every vector.
PENDING_ACTIVE_BATCH = """
MATCH (c:Chunk)
WHERE c.embedding_status IN ['pending', 'failed'] AND c.id > $after AND c[$prop] IS NULL
  AND coalesce(c[$attempts_key], 0) < $max_attempts AND ($project_id IS NULL OR c.project_id = $project_id)
RETURN c.id AS id, c.context AS context, c.text AS text, coalesce(c[$attempts_key], 0) AS attempts
ORDER BY c.id
LIMIT $limit
"""

STORE_VECTORS = """
UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
SET c += row.props
WITH c, row
CALL db.create.setNodeVectorProperty(c, $prop, row.vector)
"""

RECORD_FAILURES = """
UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
SET c += row.props
"""

COUNTS = """
MATCH (c:Chunk)
RETURN count(c) AS total, count(c[$prop]) AS done,
       count(CASE WHEN c[$prop] IS NULL AND coalesce(c[$attempts_key], 0) >= $max_attempts THEN 1 END) AS failed
"""

GET_STATE = """
MATCH (s:EmbeddingState {id: 'state'})
RETURN s.active AS active, s.active_slug AS active_slug, s.target AS target, s.target_slug AS target_slug,
       s.retired AS retired
"""

SET_STATE = """
MERGE (s:EmbeddingState {id: 'state'})
SET s.active = $active, s.active_slug = $active_slug, s.target = $target, s.target_slug = $target_slug,
    s.retired = $retired, s.updated_at = datetime()
"""

DROP_PROPERTY = """
MATCH (c:Chunk) WHERE c[$prop] IS NOT NULL
WITH c LIMIT $limit
SET c += $nulls
RETURN count(c) AS n
"""


@dataclass(frozen=True)
class EmbeddingState:
    active: str
    active_slug: str
    target: str | None = None
    target_slug: str | None = None
    retired: tuple[str, ...] = ()


@dataclass(frozen=True)
class ModelCounts:
    total: int
    done: int
    failed: int

    @property
    def pending(self) -> int:
        return self.total - self.done - self.failed


def attempts_key(slug: str, active: bool) -> str:
    return "embedding_attempts" if active else f"attempts_{slug}"


def get_state(graph: Graph) -> EmbeddingState | None:
    rows = graph.read(GET_STATE)
    if not rows:
        return None
    r = rows[0]
    return EmbeddingState(r["active"], r["active_slug"], r["target"], r["target_slug"], tuple(r["retired"] or ()))


def set_state(graph: Graph, state: EmbeddingState) -> None:
    graph.write(SET_STATE, {"active": state.active, "active_slug": state.active_slug, "target": state.target,
                            "target_slug": state.target_slug, "retired": list(state.retired)})


def pending_batch(graph: Graph, prop: str, key: str, max_attempts: int, after: str, limit: int,
                  project_id: str | None = None, active: bool = False) -> list[dict[str, Any]]:
    statement = PENDING_ACTIVE_BATCH if active else PENDING_BATCH
    return [dict(r) for r in graph.read(statement, {"prop": prop, "attempts_key": key,
                                                         "max_attempts": max_attempts, "after": after,
                                                         "limit": limit, "project_id": project_id})]


def store_vectors(graph: Graph, prop: str, rows: list[dict[str, Any]]) -> None:
    graph.write(STORE_VECTORS, {"prop": prop, "rows": rows})


def record_failures(graph: Graph, rows: list[dict[str, Any]]) -> None:
    graph.write(RECORD_FAILURES, {"rows": rows})


def counts(graph: Graph, prop: str, key: str, max_attempts: int) -> ModelCounts:
    r = graph.read(COUNTS, {"prop": prop, "attempts_key": key, "max_attempts": max_attempts})[0]
    return ModelCounts(int(r["total"]), int(r["done"]), int(r["failed"]))


def drop_vectors(graph: Graph, prop: str, key: str, batch: int = 5000) -> int:
    """Remove a retired model's vectors in batches (its index is dropped by the caller)."""
    removed = 0
    while True:
        n = int(graph.write(DROP_PROPERTY, {"prop": prop, "limit": batch, "nulls": {prop: None, key: None}})[0]["n"])
        removed += n
        if n < batch:
            return removed
