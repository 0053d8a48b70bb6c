"""Exact dense similarity in numpy over the chunks a viewer may see in one project, kept in the service.

Cosine in Cypher costs about 10 µs per chunk in scope (350 ms for a 10,000-entry project), where numpy takes well
under a millisecond over the same vectors (docs/BENCHMARKS.md, issue 12). So for a one-project search without
a recurring date in the query (dates, people, places and an author phrase are tested on the kept view as the
Cypher statement tests them), the service keeps, per (viewer, project, model):

- a *view*: the (entry, chunk) pairs of the scope the viewer may see, chosen by `VISIBLE_CHUNKS`, a statement with
  the one visibility predicate inside it, and kept under the viewer's generations (`graph/generations.py`) as the
  analytics cache keeps its aggregates: any write the viewer may see moves them and the next search lists again,
  a write hidden from them changes nothing of theirs;
- a *pool*: the unit vectors of the chunks that viewer's views named, keyed by chunk id and a stamp of the vector
  (the chunk's text hash and how many times a vector was stored on it), so a new listing only fetches the vectors
  it has not got (`CHUNK_VECTORS`, the predicate again). A pool is its viewer's alone: what it holds, when it is
  compacted or dropped depends only on what that viewer may see and on which viewers arrive, never on hidden
  entries (`graph/viewer_lru.py`).

Scores are Neo4j's: `vector.similarity.cosine` is (1 + cos) / 2, and an entry scores as its best chunk, ties by
entry id, as `DENSE_EXACT` ranks them (tests/test_dense_matrix.py checks both on the real Neo4j). Witnesses and
several-project scopes go to Cypher, as do searches with the cache turned off (`MEMORA_DENSE_MATRIX_VIEWERS=0`).
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from graph import generations
from graph.db import Graph
from graph.settings import Settings
from graph.viewer_lru import ViewerLRU
from graph.visibility import CAN_SEE, Viewer
from queries.channels import ENTRY_SCOPE
from queries.fusion import Hit

# With each entry, what the query's own constraints test (QUERY_SCOPE in queries/channels.py): its dates, its
# author as `toLower` folds it, and the ids of what it mentions. They are only ever compared with the query's own.
VISIBLE_CHUNKS = f"""
MATCH (e:Entry) WHERE {ENTRY_SCOPE}
WITH e, COLLECT {{ MATCH (e)-[:MENTIONS]->(x) RETURN x.id }} AS mentions
MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
RETURN e.id AS entry_id, c.id AS chunk_id, coalesce(c.embedding_hash, '') AS hash,
       coalesce(c[$stores_key], 0) AS stores, e.occurred_start AS start, e.occurred_end AS end,
       toLower(e.author_id) AS author_key, mentions
ORDER BY entry_id, chunk_id
"""

CHUNK_VECTORS = f"""
UNWIND $ids AS id
MATCH (c:Chunk {{id: id}})-[:OF]->(e:Entry)
WHERE c[$prop] IS NOT NULL AND e.project_id IN $project_ids AND {CAN_SEE}
RETURN c.id AS chunk_id, coalesce(c.embedding_hash, '') AS hash, coalesce(c[$stores_key], 0) AS stores,
       c[$prop] AS vector
"""

# The query's own constraints (queries/query_constraints.py), tested here on the kept view as QUERY_SCOPE tests
# them in Cypher; a recurring date (`q_occ`, "every August") is left to Cypher.
QUERY_CONSTRAINTS = ("q_from", "q_to", "q_entity_ids", "q_author_keys", "q_occ")
FETCH_BATCH = 2000
VIEWS_PER_POOL = 4
# A pool is rebuilt from its live view once stale rows (vectors no view names any more) outnumber live ones.
COMPACT_SLACK = 1024

Stamp = tuple[str, str, int]


@dataclass(frozen=True)
class _View:
    epoch: str
    listed_at: float
    entry_ids: list[str]
    starts: np.ndarray  # where each entry's chunks begin in `rows`
    rows: np.ndarray  # the pool row of every visible chunk, grouped by entry
    chunk_ids: list[str]
    matrix: np.ndarray  # the pool's matrix the rows index (a compaction makes a new one)
    start: np.ndarray  # per entry: the day (ordinal) its date starts and ends, NaN when undated
    end: np.ndarray
    author_keys: list[str | None]
    mentioned_by: dict[str, np.ndarray]  # entity id -> the entries (indexes) mentioning it


class _Pool:
    def __init__(self, dim: int) -> None:
        self.lock = threading.Lock()
        self.slots: dict[Stamp, int] = {}
        self.matrix = np.zeros((0, dim), dtype=np.float32)
        self.views: OrderedDict[str, _View] = OrderedDict()

    def add(self, rows: list[tuple[Stamp, list[float]]]) -> None:
        if not rows:
            return
        block = np.asarray([v for _, v in rows], dtype=np.float32)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        block = np.divide(block, norms, out=np.zeros_like(block), where=norms > 0)
        start = len(self.slots)
        self.matrix = np.concatenate([self.matrix, block]) if len(self.matrix) else block
        for i, (stamp, _) in enumerate(rows):
            self.slots[stamp] = start + i

    def compact(self, keep: list[Stamp]) -> None:
        rows = np.asarray([self.slots[s] for s in keep], dtype=np.int64)
        self.matrix = self.matrix[rows] if len(rows) else self.matrix[:0]
        self.slots = {s: i for i, s in enumerate(keep)}
        self.views.clear()


_pools = ViewerLRU()
# Listings run and vectors fetched by this process (tests and bench/scale.py read them).
counters = {"listings": 0, "vectors_fetched": 0}


def usable(settings: Settings, viewer: Viewer, params: dict[str, Any]) -> bool:
    """Whether this search can be scored here: one project, a member (not a witness), no recurring date."""
    if settings.dense_matrix_viewers <= 0 or viewer.is_witness or viewer.user_id is None:
        return False
    if len(params.get("project_ids") or []) != 1:
        return False
    return params.get("q_occ") is None


def dense(graph: Graph, settings: Settings, viewer: Viewer, params: dict[str, Any], stores_key: str,
          vector: list[float], limit: int) -> tuple[list[Hit], dict[str, str]] | None:
    """The top `limit` visible entries by their best chunk's cosine with `vector`, with that chunk; None when the
    viewer's vectors could not be listed consistently (a write landed meanwhile): the caller asks Cypher."""
    project = params["project_ids"][0]
    prop = params["prop"]
    gens = generations.read(graph, [project], viewer.user_id)
    if not gens or gens[0].get("role") is None:
        return None
    epoch = json.dumps(gens, sort_keys=True, default=str)
    scope = {k: v for k, v in params.items()
             if k not in ("vector", "limit", "model", "viewer_id", "witness_period_id", *QUERY_CONSTRAINTS)
             and not k.startswith("q_")}
    scope_key = hashlib.sha256(json.dumps(scope, sort_keys=True, default=str).encode()).hexdigest()
    part = (viewer.user_id, project, prop)
    _pools.max_viewers = settings.dense_matrix_viewers
    found, pool = _pools.get(part, "pool", float("inf"))
    if not found:
        pool = _Pool(len(vector))
        _pools.put(part, "pool", pool, 1)
    with pool.lock:
        view = pool.views.get(scope_key)
        if view is None or view.epoch != epoch or time.monotonic() - view.listed_at > settings.dense_matrix_seconds:
            view = _refresh(graph, pool, params, stores_key, scope_key, epoch)
            if view is None:
                return None
            if generations.read(graph, [project], viewer.user_id, fresh=True) != gens:
                pool.views.pop(scope_key, None)  # a write landed while listing: used once, not kept
        else:
            pool.views.move_to_end(scope_key)
    return _rank(view, vector, limit, _meeting(view, params))


def _refresh(graph: Graph, pool: _Pool, params: dict[str, Any], stores_key: str, scope_key: str,
             epoch: str) -> _View | None:
    listed = graph.read(VISIBLE_CHUNKS, {**params, "stores_key": stores_key})
    counters["listings"] += 1
    stamps: list[Stamp] = [(r["chunk_id"], r["hash"], int(r["stores"])) for r in listed]
    missing = [s for s in stamps if s not in pool.slots]
    for i in range(0, len(missing), FETCH_BATCH):
        ids = [s[0] for s in missing[i:i + FETCH_BATCH]]
        rows = graph.read(CHUNK_VECTORS, {**params, "ids": ids, "stores_key": stores_key})
        counters["vectors_fetched"] += len(rows)
        pool.add([((r["chunk_id"], r["hash"], int(r["stores"])), list(r["vector"])) for r in rows
                  if (r["chunk_id"], r["hash"], int(r["stores"])) not in pool.slots])
    if any(s not in pool.slots for s in stamps):
        return None  # a vector changed (or its entry was hidden) between the two statements
    for key, kept in pool.views.items():  # the rows they index are the same in the grown matrix
        pool.views[key] = replace(kept, matrix=pool.matrix)
    if len(pool.slots) > 2 * len(stamps) + COMPACT_SLACK:
        pool.compact(stamps)
    entry_ids: list[str] = []
    starts: list[int] = []
    days: list[tuple[float, float]] = []
    author_keys: list[str | None] = []
    mentioned_by: dict[str, list[int]] = {}
    for i, r in enumerate(listed):
        if not entry_ids or entry_ids[-1] != r["entry_id"]:
            for x in dict.fromkeys(r["mentions"]):
                mentioned_by.setdefault(x, []).append(len(entry_ids))
            entry_ids.append(r["entry_id"])
            starts.append(i)
            days.append((_day(r["start"]), _day(r["end"])))
            author_keys.append(r["author_key"])
    span = np.asarray(days, dtype=np.float64).reshape(-1, 2)
    view = _View(epoch=epoch, listed_at=time.monotonic(), entry_ids=entry_ids,
                 starts=np.asarray(starts, dtype=np.int64),
                 rows=np.asarray([pool.slots[s] for s in stamps], dtype=np.int64),
                 chunk_ids=[s[0] for s in stamps], matrix=pool.matrix, start=span[:, 0], end=span[:, 1],
                 author_keys=author_keys,
                 mentioned_by={x: np.asarray(ix, dtype=np.int64) for x, ix in mentioned_by.items()})
    pool.views[scope_key] = view
    pool.views.move_to_end(scope_key)
    while len(pool.views) > VIEWS_PER_POOL:
        pool.views.popitem(last=False)
    return view


def _day(value: Any) -> float:
    """A date as its day number; NaN for none, so that every comparison with it fails as Cypher's null does."""
    if value is None:
        return float("nan")
    native = value.to_native() if hasattr(value, "to_native") else value
    return float(native.toordinal())


def _meeting(view: _View, params: dict[str, Any]) -> np.ndarray | None:
    """Which entries of the view meet the query's own constraints, tested as QUERY_SCOPE tests them (None: no
    constraint). An undated entry meets no date bound; an entry without author no author phrase."""
    n = len(view.entry_ids)
    mask: np.ndarray | None = None

    def both(m: np.ndarray) -> np.ndarray:
        return m if mask is None else mask & m

    if params.get("q_from") is not None:
        mask = both(view.end >= _day(params["q_from"]))
    if params.get("q_to") is not None:
        mask = both(view.start <= _day(params["q_to"]))
    if params.get("q_entity_ids"):
        named = np.zeros(n, dtype=bool)
        for x in params["q_entity_ids"]:
            if x in view.mentioned_by:
                named[view.mentioned_by[x]] = True
        mask = both(named)
    if params.get("q_author_keys"):
        keys = set(params["q_author_keys"])
        mask = both(np.fromiter((a is not None and a in keys for a in view.author_keys), dtype=bool, count=n))
    return mask


def _rank(view: _View, vector: list[float], limit: int,
          meeting: np.ndarray | None = None) -> tuple[list[Hit], dict[str, str]]:
    if not view.entry_ids or limit <= 0:
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
    best = np.maximum.reduceat(sims, view.starts)
    if meeting is not None:
        best = np.where(meeting, best, -np.inf)
    eligible = len(best) if meeting is None else int(meeting.sum())
    if eligible == 0:
        return [], {}
    take = min(eligible, limit * 2 + 8)
    top = np.argpartition(-best, take - 1)[:take] if take < len(best) else np.arange(len(best))
    # Ties past the cut: every entry scoring the same as the last one kept is a candidate for the id order.
    if take < len(best):
        floor = best[top].min()
        top = np.flatnonzero(best >= floor)
    if meeting is not None:
        top = top[meeting[top]]
    order = sorted(top.tolist(), key=lambda i: (-best[i], view.entry_ids[i]))[:limit]
    ends = np.append(view.starts[1:], len(view.rows))
    hits, chunks = [], {}
    for i in order:
        s, e = int(view.starts[i]), int(ends[i])
        hits.append(Hit(view.entry_ids[i], float(best[i])))
        chunks[view.entry_ids[i]] = view.chunk_ids[s + int(np.argmax(sims[s:e]))]
    return hits, chunks


def clear() -> None:
    _pools.clear()
