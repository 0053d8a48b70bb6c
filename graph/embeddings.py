"""Embedding bookkeeping in the graph: which chunks still need a vector for a model, and which models are live.

A chunk has a vector for a model when its `emb_<slug>` property is set. The chunk's `embedding_status`
(pending | done | failed) describes the *active* model; a model being migrated to is tracked by its vector property
and an `attempts_<slug>` counter. `(:EmbeddingState {id: 'state'})` names the active model and, during a migration,
the target model; search reads it to query both indexes until the target is complete.

Several workers share the pending chunks through leases (`embed_lease_owner`, `embed_lease_until`): a chunk is
embedded by the one worker holding it, and a dead worker's chunks are taken by the others once its lease expires.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from neo4j import ManagedTransaction

from graph.db import Graph
from graph.generations import bump_levels, chunk_levels

# Leases. A worker claims a batch by writing its id and an expiry (server clock, epoch ms) on each chunk; another
# worker takes only chunks whose lease is absent or expired, and a vector or a failure is recorded only by the worker
# that still holds the chunk. Read committed isolation would let two claimers read the same free lease and both set
# it, so every claim and store first writes a marker (taking each chunk's write lock, held until commit) and only
# then, in a second statement of the same transaction, reads the lease: a second claimer waits for the first to
# commit and then sees its lease.
# Server-side limit of a claim or store transaction: a worker killed in the middle of one must not hold chunk locks
# (and block every other worker) until Neo4j notices the dead connection.
TX_TIMEOUT_SECONDS = 30.0

_FREE = "coalesce(c.embed_lease_until, 0) < timestamp()"
_PENDING = "c[$prop] IS NULL AND coalesce(c[$attempts_key], 0) < $max_attempts"
_CANDIDATES = """
MATCH (c:Chunk)
WHERE {status}c.id > $after AND {pending} AND {free} AND ($project_id IS NULL OR c.project_id = $project_id)
WITH c ORDER BY c.id LIMIT $limit
SET c.embed_claim = $owner
RETURN c.id AS id
"""
CLAIM_CANDIDATES = _CANDIDATES.format(status="", pending=_PENDING, free=_FREE)
# The active model's pending chunks are found through the embedding_status index, not by scanning every vector.
CLAIM_ACTIVE_CANDIDATES = _CANDIDATES.format(
    status="c.embedding_status IN ['pending', 'failed'] AND ", pending=_PENDING, free=_FREE
)

CLAIM_TAKE = f"""
UNWIND $ids AS id
MATCH (c:Chunk {{id: id}})
REMOVE c.embed_claim
WITH c WHERE {_PENDING} AND {_FREE}
SET c.embed_lease_owner = $owner, c.embed_lease_until = timestamp() + $lease_ms
RETURN c.id AS id, c.context AS context, c.text AS text, coalesce(c[$attempts_key], 0) AS attempts
ORDER BY id
"""

LOCK_CHUNKS = """
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
SET c.embed_claim = $owner
"""

# Counting stores per model in the store statement itself makes a double embedding visible (tests assert 1).
STORE_VECTORS_HELD = """
UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
REMOVE c.embed_claim
WITH c, row WHERE c.embed_lease_owner = $owner
SET c += row.props, c.embed_lease_owner = null, c.embed_lease_until = null,
    c[$stores_key] = coalesce(c[$stores_key], 0) + 1
WITH c, row
CALL db.create.setNodeVectorProperty(c, $prop, row.vector)
RETURN c.id AS id
"""

FAIL_HELD = """
UNWIND $rows AS row
MATCH (c:Chunk {id: row.id})
REMOVE c.embed_claim
WITH c, row WHERE c.embed_lease_owner = $owner
SET c += row.props, c.embed_lease_owner = null, c.embed_lease_until = null
RETURN c.id AS id
"""

RELEASE_HELD = """
UNWIND $ids AS id
MATCH (c:Chunk {id: id})
REMOVE c.embed_claim
WITH c WHERE c.embed_lease_owner = $owner
SET c.embed_lease_owner = null, c.embed_lease_until = null
RETURN c.id AS id
"""

# On shutdown: what this worker still holds (a label scan, once per process), released as above.
HELD_BY = "MATCH (c:Chunk) WHERE c.embed_lease_owner = $owner RETURN c.id AS id"

COUNTS = """
MATCH (c:Chunk)
RETURN count(c) AS total, count(c[$prop]) AS done,
       count(CASE WHEN c[$prop] IS NULL AND coalesce(c[$attempts_key], 0) >= $max_attempts THEN 1 END) AS failed,
       count(CASE WHEN c[$prop] IS NULL AND c.embed_lease_until >= timestamp() THEN 1 END) AS leased
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
    leased: int = 0  # pending chunks a worker holds right now

    @property
    def pending(self) -> int:
        return self.total - self.done - self.failed


def attempts_key(slug: str, active: bool) -> str:
    return "embedding_attempts" if active else f"attempts_{slug}"


def stores_key(slug: str) -> str:
    """How many times a vector of this model was stored on the chunk: 1, or the same chunk was embedded twice."""
    return f"stores_{slug}"


def get_state(graph: Graph) -> EmbeddingState | None:
    rows = graph.read(GET_STATE)
    if not rows:
        return None
    r = rows[0]
    return EmbeddingState(r["active"], r["active_slug"], r["target"], r["target_slug"], tuple(r["retired"] or ()))


# A short-lived copy of the state node, kept on the database handle (graph/kept.py), which every search reads once
# per request (to know whether a model migration is under way). A `set_state` anywhere in this process is seen at
# once by every handle (it moves `_changes`); another process (`memora embeddings` while `memora serve` runs) within
# `MEMORA_STATE_CACHE_SECONDS` (default 2 s). Until then a search keeps querying the model it knew, whose index still
# exists: a switch retires the old index later.
_changes = itertools.count()
_changed = 0


@dataclass
class _StateCopy:
    lock: threading.Lock = field(default_factory=threading.Lock)
    copy: tuple[float, int, EmbeddingState | None] | None = None


def recent_state(graph: Graph, max_age: float) -> EmbeddingState | None:
    """The embedding state as read at most `max_age` seconds ago (0 reads it now)."""
    kept = graph.kept.room("embeddings.state", _StateCopy)
    now, changed = time.monotonic(), _changed
    with kept.lock:
        copy = kept.copy
    if copy is not None and now - copy[0] < max_age and copy[1] == changed:
        return copy[2]
    state = get_state(graph)
    with kept.lock:
        kept.copy = (now, changed, state)
    return state


def forget() -> None:
    """Every handle's copy is stale (this process just changed the state)."""
    global _changed
    _changed = next(_changes) + 1


def set_state(graph: Graph, state: EmbeddingState) -> None:
    graph.write(
        SET_STATE,
        {
            "active": state.active,
            "active_slug": state.active_slug,
            "target": state.target,
            "target_slug": state.target_slug,
            "retired": list(state.retired),
        },
    )
    forget()


def claim_batch(
    graph: Graph,
    prop: str,
    key: str,
    max_attempts: int,
    after: str,
    limit: int,
    *,
    owner: str,
    lease_ms: int,
    project_id: str | None = None,
    active: bool = False,
) -> tuple[str | None, list[dict[str, Any]]]:
    """Lease up to `limit` pending chunks after `after` (by id) to `owner` for `lease_ms`, in one transaction.

    Returns the last candidate id looked at (the next cursor; None when nothing is pending past `after`) and the
    chunks this call now holds, which may be fewer than the candidates when another worker claimed some first.
    """
    statement = CLAIM_ACTIVE_CANDIDATES if active else CLAIM_CANDIDATES
    params: dict[str, Any] = {
        "prop": prop,
        "attempts_key": key,
        "max_attempts": max_attempts,
        "after": after,
        "limit": limit,
        "project_id": project_id,
        "owner": owner,
        "lease_ms": lease_ms,
    }

    def work(tx: ManagedTransaction) -> tuple[str | None, list[dict[str, Any]]]:
        ids = [r["id"] for r in tx.run(statement, params)]  # locked, not yet checked
        if not ids:
            return None, []
        return ids[-1], [dict(r) for r in tx.run(CLAIM_TAKE, {**params, "ids": ids})]

    return graph.transact(work, timeout=TX_TIMEOUT_SECONDS)


def _held(graph: Graph, statement: str, ids: list[str], params: dict[str, Any]) -> list[str]:
    """Run `statement` on the chunks of `ids` still leased to `params['owner']`, their locks taken first."""

    def work(tx: ManagedTransaction) -> list[str]:
        tx.run(LOCK_CHUNKS, {"ids": ids, "owner": params["owner"]}).consume()
        return [r["id"] for r in tx.run(statement, params)]

    return graph.transact(work, timeout=TX_TIMEOUT_SECONDS)


def store_vectors(graph: Graph, prop: str, slug: str, rows: list[dict[str, Any]], owner: str) -> list[str]:
    """Store the vectors of the chunks `owner` still holds, clearing their lease; returns the ids stored.

    A chunk whose lease expired and was taken by another worker (or released) is left to that worker."""
    stored = _held(
        graph,
        STORE_VECTORS_HELD,
        [r["id"] for r in rows],
        {"prop": prop, "rows": rows, "owner": owner, "stores_key": stores_key(slug)},
    )
    bump_levels(graph, chunk_levels(graph, stored))  # a new vector can change dense results
    return stored


def record_failures(graph: Graph, rows: list[dict[str, Any]], owner: str) -> list[str]:
    """Count a failed attempt on the chunks `owner` still holds and clear their lease."""
    return _held(graph, FAIL_HELD, [r["id"] for r in rows], {"rows": rows, "owner": owner})


def release(graph: Graph, owner: str, ids: list[str] | None = None) -> int:
    """Give back `owner`'s leases (on `ids`, or all of them) so other workers take the chunks at once."""
    if ids is None:
        ids = [r["id"] for r in graph.read(HELD_BY, {"owner": owner})]
    return len(_held(graph, RELEASE_HELD, ids, {"ids": ids, "owner": owner})) if ids else 0


def counts(graph: Graph, prop: str, key: str, max_attempts: int) -> ModelCounts:
    r = graph.read(COUNTS, {"prop": prop, "attempts_key": key, "max_attempts": max_attempts})[0]
    return ModelCounts(int(r["total"]), int(r["done"]), int(r["failed"]), int(r["leased"]))


def drop_vectors(graph: Graph, prop: str, key: str, batch: int = 5000, also: tuple[str, ...] = ()) -> int:
    """Remove a retired model's vectors (and its `also` bookkeeping) in batches; the caller drops its index."""
    removed = 0
    nulls = dict.fromkeys((prop, key, *also))
    while True:
        n = int(graph.write(DROP_PROPERTY, {"prop": prop, "limit": batch, "nulls": nulls})[0]["n"])
        removed += n
        if n < batch:
            return removed
