"""A viewer's visible entries of one project, kept in the service: what the dense and structured channels rank.

Scanning every visible entry of a project in Cypher costs about 10 µs per chunk for cosine and tens of µs per entry
for the visibility predicate and the query's constraints (hundreds of milliseconds at 10,000 entries), where
numpy over the same data takes a millisecond. So for a member's one-project search, the service keeps, per (viewer,
project, model):

- a *view*: the entries of the scope the viewer may see, with their embedded chunks and what the query's own
  constraints test (dates, author, what they mention), chosen by `VISIBLE_CHUNKS`, a statement with the one
  visibility predicate inside it, and kept under the viewer's generations (`graph/generations.py`) as the analytics
  cache keeps its aggregates: any write the viewer may see moves them, a write hidden from them changes nothing of
  theirs. The next search then lists again only the entries that the generation steps since the view's listing
  name (`VISIBLE_AMONG`, the predicate again; an entry hidden or deleted since leaves) and splices them in
  (`_merge`); a step that does not say, one no longer kept, a role change or the backstop lists in full;
- a *pool*: the unit vectors of the chunks that viewer's views named, keyed by chunk id and a stamp of the vector
  (the chunk's text hash and how many times a vector was stored on it), so a new listing only fetches the vectors
  it has not got (`CHUNK_VECTORS`, the predicate again). A pool is its viewer's alone: what it holds, when it is
  compacted or dropped depends only on what that viewer may see and on which viewers arrive, never on hidden
  entries (`graph/viewer_lru.py`).

A view of more than `MEMORA_DENSE_MATRIX_BACKGROUND_ENTRIES` visible entries that must be listed in full is listed in
a background thread: until it is done that viewer's searches take the Cypher path (the stale view is never served),
instead of every one of them waiting seconds for the listing. Which way a search goes depends only on the viewer's
own generations, their steps, the clock and the view's size.

The query's own constraints (`q_from`, `q_to`, `q_entity_ids`, `q_author_keys`) are tested on the view as
`QUERY_SCOPE` tests them; a recurring date (`q_occ`), witnesses, several-project scopes and
`MEMORA_DENSE_MATRIX_VIEWERS=0` go to Cypher. tests/search/test_dense_matrix.py checks both channels against their
Cypher statements for every role on the real Neo4j.
"""

from __future__ import annotations

import bisect
import hashlib
import json
import logging
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
from queries.search.channels import ENTRY_SCOPE

# Every visible entry of the scope, in id order, with its chunks that have this model's vector (none yet: an empty
# list) and what the query's own constraints test: its dates as day numbers, its author as `toLower` folds it, and
# what it mentions (with the mention counts the structured channel ranks by). They are only ever compared with the
# query's own. One record holding every entry: the driver decoded a record per chunk slower than Neo4j ran the
# statement (docs/BENCHMARKS.md), and day numbers decode faster than dates.
_LISTED = """
WITH e ORDER BY e.id
RETURN collect([e.id,
                duration.inDays(date('0001-01-01'), e.occurred_start).days + 1,
                duration.inDays(date('0001-01-01'), e.occurred_end).days + 1,
                toLower(e.author_id),
                COLLECT { MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
                          RETURN [c.id, coalesce(c.embedding_hash, ''), coalesce(c[$stores_key], 0)] ORDER BY c.id },
                COLLECT { MATCH (e)-[m:MENTIONS]->(x) RETURN [x.id, coalesce(m.count, 0)] },
                [i IN range(0, size(coalesce(e.told_starts, [])) - 1) |
                 [duration.inDays(date('0001-01-01'), e.told_starts[i]).days + 1,
                  duration.inDays(date('0001-01-01'), e.told_ends[i]).days + 1]]]) AS entries
"""
VISIBLE_CHUNKS = f"MATCH (e:Entry) WHERE {ENTRY_SCOPE}{_LISTED}"
# The same for the entries `$among` names: those the generation steps since a view's listing changed. One of them
# now hidden from the viewer (or deleted, or out of scope) is not returned, and so leaves the view.
VISIBLE_AMONG = f"""
UNWIND $among AS among_id
MATCH (e:Entry {{id: among_id}}) WHERE {ENTRY_SCOPE}{_LISTED}"""

CHUNK_VECTORS = f"""
UNWIND $ids AS id
MATCH (c:Chunk {{id: id}})-[:OF]->(e:Entry)
WHERE c[$prop] IS NOT NULL AND e.project_id IN $project_ids AND {CAN_SEE}
RETURN c.id AS chunk_id, coalesce(c.embedding_hash, '') AS hash, coalesce(c[$stores_key], 0) AS stores,
       c[$prop] AS vector
"""

# What ENTRY_SCOPE reads: a view is listed once per distinct set of them (the query's own constraints are not).
SCOPE_KEYS = (
    "project_ids",
    "date_from",
    "date_to",
    "intimacy_levels",
    "author_ids",
    "kinds",
    "tags",
    "period_id",
    "person_ids",
    "place_ids",
    "prop",
)
FETCH_BATCH = 2000
VIEWS_PER_POOL = 4
# A pool is rebuilt from its live view once stale rows (vectors no view names any more) outnumber live ones.
COMPACT_SLACK = 1024
# Past this many entries changed since a view's listing, it is listed in full again rather than in part.
AMONG_MAX = 5000

Stamp = tuple[str, str, int]


@dataclass(frozen=True)
class View:
    epoch: str  # the generations it was listed under, as a key ("" once a write is known to have raced the listing)
    generations: list[dict[str, Any]]  # the same, as read before the listing
    listed_at: float  # when it was listed in full (a listing in part keeps it: the backstop counts from there)
    entry_ids: list[str]  # every visible entry of the scope
    start: np.ndarray  # per entry: the day (ordinal) its date starts and ends, NaN when undated
    end: np.ndarray
    author_keys: list[str | None]
    told: list[tuple[tuple[float, float], ...]]  # per entry: the intervals its text tells, as day numbers
    mentioned_by: dict[str, tuple[np.ndarray, np.ndarray]]  # entity id -> (entries mentioning it, mention counts)
    embedded: np.ndarray  # the entries (indexes) with at least one vector, in order
    embedded_ids: list[str]  # their ids
    starts: np.ndarray  # where each embedded entry's chunks begin in `rows`
    rows: np.ndarray  # the pool row of every visible chunk, grouped by entry
    chunk_ids: list[str]
    stamps: list[Stamp]  # (chunk id, text hash, stores) of every visible chunk: the pool keys of `rows`
    matrix: np.ndarray  # the pool's matrix the rows index (a compaction makes a new one)


class _Pool:
    def __init__(self, dim: int) -> None:
        self.lock = threading.Lock()
        self.slots: dict[Stamp, int] = {}
        self._buffer = np.zeros((0, dim), dtype=np.float32)
        self.matrix = self._buffer  # the filled rows of the buffer; views keep the one they were built with
        self.views: OrderedDict[str, View] = OrderedDict()
        self.relisting: set[str] = set()  # scopes a background thread is listing again

    def add(self, rows: list[tuple[Stamp, list[float]]]) -> None:
        """Append unit vectors. The buffer grows by a quarter at a time, so a write's one new vector is not a copy
        of the whole pool (157 MB at 100,000 chunks); rows past a view's matrix are never read through it."""
        if not rows:
            return
        block = np.asarray([v for _, v in rows], dtype=np.float32)
        norms = np.linalg.norm(block, axis=1, keepdims=True)
        block = np.divide(block, norms, out=np.zeros_like(block), where=norms > 0)
        start = len(self.slots)
        if start + len(block) > len(self._buffer) or self._buffer.shape[1] != block.shape[1]:
            size = max(len(self._buffer) + len(self._buffer) // 4, start + len(block))
            grown = np.zeros((size, block.shape[1]), dtype=np.float32)
            if start:
                grown[:start] = self.matrix
            self._buffer = grown
        self._buffer[start : start + len(block)] = block
        self.matrix = self._buffer[: start + len(block)]
        for i, (stamp, _) in enumerate(rows):
            self.slots[stamp] = start + i

    def compact(self, keep: list[Stamp]) -> None:
        rows = np.asarray([self.slots[s] for s in keep], dtype=np.int64)
        self._buffer = self.matrix[rows] if len(rows) else self.matrix[:0]
        self.matrix = self._buffer
        self.slots = {s: i for i, s in enumerate(keep)}
        self.views.clear()


@dataclass(frozen=True)
class _Scope:
    """One viewer's scope as a listing reads it (`graph`, `params`, `stores_key`) and keeps its view (in `pool`,
    under `scope_key`)."""

    graph: Graph
    pool: _Pool
    params: dict[str, Any]
    stores_key: str
    scope_key: str
    user_id: str


@dataclass(frozen=True)
class _Under:
    """The viewer's generations a listing is made under, and the key they make (`View.epoch`)."""

    generations: list[dict[str, Any]]
    epoch: str


def _under(gens: list[dict[str, Any]]) -> _Under:
    return _Under(gens, json.dumps(gens, sort_keys=True, default=str))


log = logging.getLogger(__name__)
# Listings run and vectors fetched by this process (tests and bench/scale.py read them).
counters = {"listings": 0, "listings_in_part": 0, "vectors_fetched": 0}


def usable(settings: Settings, viewer: Viewer, params: dict[str, Any]) -> bool:
    """Whether this search can be served from a view: one project, a member (not a witness), no recurring date."""
    if settings.dense_matrix_viewers <= 0 or viewer.is_witness or viewer.user_id is None:
        return False
    if len(params.get("project_ids") or []) != 1:
        return False
    return params.get("q_occ") is None


def view_for(
    graph: Graph, settings: Settings, viewer: Viewer, params: dict[str, Any], stores_key: str, dim: int
) -> View | None:
    """The viewer's view of the scope `params` names, listed again when their generations moved; None when it could
    not be listed consistently (a write landed meanwhile) or the viewer is no member: the caller asks Cypher. `dim`
    only shapes a new pool's empty matrix (0 when unknown: the first vectors fetched decide it)."""
    project, user_id = params["project_ids"][0], viewer.user_id
    if user_id is None:
        return None
    gens = generations.read(graph, [project], user_id)
    if not gens or gens[0].get("role") is None:
        return None
    under = _under(gens)
    scope = {k: params.get(k) for k in SCOPE_KEYS}
    scope_key = hashlib.sha256(json.dumps(scope, sort_keys=True, default=str).encode()).hexdigest()
    part = (user_id, project, params["prop"])
    pools = _pools(graph)
    pools.max_viewers = settings.dense_matrix_viewers
    found, pool = pools.get(part, "pool", float("inf"))
    if not found:
        pool = _Pool(dim)
        pools.put(part, "pool", pool, 1)
    where = _Scope(graph, pool, params, stores_key, scope_key, user_id)
    if not pool.lock.acquire(blocking=False):
        if pool.relisting:
            return None  # a background relisting holds the pool: Cypher answers meanwhile
        pool.lock.acquire()
    try:
        view = pool.views.get(scope_key)
        if view is None:
            return _list(where, under)
        expired = time.monotonic() - view.listed_at > settings.dense_matrix_seconds  # the backstop: list in full
        if not expired and view.epoch == under.epoch:
            pool.views.move_to_end(scope_key)
            return view
        changed = (
            None
            if expired
            else generations.changed_since(graph, user_id, view.generations[0], gens[0], "entry_ids", AMONG_MAX)
        )
        if changed is not None:
            return _list(where, under, view, changed)
        if len(view.entry_ids) > settings.dense_matrix_background_entries:
            if scope_key not in pool.relisting:
                pool.relisting.add(scope_key)
                threading.Thread(
                    target=_relist_behind,
                    daemon=True,
                    name="memora-view-relist",
                    args=(replace(where, params=dict(params)),),
                ).start()
            return None
        return _list(where, under)
    finally:
        pool.lock.release()


def _list(where: _Scope, under: _Under, base: View | None = None, changed: set[str] | None = None) -> View | None:
    """List the view under `under` (the caller holds the pool's lock): in full, or from `base` with the `changed`
    entries listed again. Kept only if no write moved the generations meanwhile."""
    graph, params = where.graph, {**where.params, "stores_key": where.stores_key}
    if base is not None and changed is not None:
        if not changed:  # the steps changed nothing it lists (entity vectors)
            kept = where.pool.views[where.scope_key] = replace(base, epoch=under.epoch, generations=under.generations)
            return kept
        found = graph.read(VISIBLE_AMONG, {**params, "among": sorted(changed)})
        counters["listings_in_part"] += 1
        view = _merge(where, under, base, changed, found[0]["entries"] if found else [])
    else:
        found = graph.read(VISIBLE_CHUNKS, params)
        counters["listings"] += 1
        view = _build(where, under, found[0]["entries"] if found else [])
    if (
        view is not None
        and generations.read(graph, params["project_ids"], where.user_id, fresh=True) != under.generations
    ):
        # A write landed while listing: never served again; the next search lists what changed since then.
        where.pool.views[where.scope_key] = replace(view, epoch="")
    return view


def _relist_behind(where: _Scope) -> None:
    """List a large view again in full off the request path: its searches take the Cypher path until it is done
    (~3.6 s at 100,000 entries, which every search of the viewer would wait for). The stale view is never
    served."""
    with where.pool.lock:
        try:
            gens = generations.read(where.graph, where.params["project_ids"], where.user_id, fresh=True)
            if gens and gens[0].get("role") is not None:
                _list(where, _under(gens))
        except Exception:
            log.exception("listing a kept view again in the background failed; the next search tries again")
        finally:
            where.pool.relisting.discard(where.scope_key)


def _fetch(where: _Scope, stamps: list[Stamp]) -> bool:
    """Fetch the vectors of `stamps` the pool lacks; False when one changed (or its entry was hidden) between the
    listing and the fetch."""
    pool = where.pool
    missing = [s for s in stamps if s not in pool.slots]
    for i in range(0, len(missing), FETCH_BATCH):
        ids = [s[0] for s in missing[i : i + FETCH_BATCH]]
        rows = where.graph.read(CHUNK_VECTORS, {**where.params, "ids": ids, "stores_key": where.stores_key})
        counters["vectors_fetched"] += len(rows)
        pool.add(
            [
                ((r["chunk_id"], r["hash"], int(r["stores"])), list(r["vector"]))
                for r in rows
                if (r["chunk_id"], r["hash"], int(r["stores"])) not in pool.slots
            ]
        )
    if any(s not in pool.slots for s in missing):
        return False
    for key, kept in pool.views.items():  # the rows they index are the same in the grown matrix
        pool.views[key] = replace(kept, matrix=pool.matrix)
    return True


def _keep(pool: _Pool, scope_key: str, view: View) -> View:
    """Keep `view` in its pool, first compacting the pool when most of its rows are stale (then the rows are
    renumbered, and the pool's other views dropped)."""
    if len(pool.slots) > 2 * len(view.stamps) + COMPACT_SLACK:
        pool.compact(view.stamps)
        view = replace(view, rows=np.asarray([pool.slots[s] for s in view.stamps], dtype=np.int64), matrix=pool.matrix)
    pool.views[scope_key] = view
    pool.views.move_to_end(scope_key)
    while len(pool.views) > VIEWS_PER_POOL:
        pool.views.popitem(last=False)
    return view


def _told(spans: list[list[int]]) -> tuple[tuple[float, float], ...]:
    return tuple((float(s), float(e)) for s, e in spans)


def _build(where: _Scope, under: _Under, listed: list[list[Any]]) -> View | None:
    """The view of every listed entry (VISIBLE_CHUNKS' records, in id order); None when a vector could not be
    fetched as listed."""
    stamps: list[Stamp] = [(c[0], c[1], int(c[2])) for r in listed for c in r[4]]
    if not _fetch(where, stamps):
        return None
    pool = where.pool
    entry_ids = [r[0] for r in listed]
    mentioned: dict[str, dict[int, int]] = {}
    embedded: list[int] = []
    starts: list[int] = []
    row = 0
    for i, r in enumerate(listed):
        for x, count in r[5]:
            counts = mentioned.setdefault(x, {})
            counts[i] = counts.get(i, 0) + int(count)
        if r[4]:
            embedded.append(i)
            starts.append(row)
            row += len(r[4])
    span = np.asarray([(r[1], r[2]) for r in listed], dtype=np.float64).reshape(-1, 2)  # None is NaN
    return _keep(
        pool,
        where.scope_key,
        View(
            epoch=under.epoch,
            generations=under.generations,
            listed_at=time.monotonic(),
            entry_ids=entry_ids,
            start=span[:, 0],
            end=span[:, 1],
            author_keys=[r[3] for r in listed],
            told=[_told(r[6]) for r in listed],
            mentioned_by={
                x: (
                    np.fromiter(c.keys(), dtype=np.int64, count=len(c)),
                    np.fromiter(c.values(), dtype=np.int64, count=len(c)),
                )
                for x, c in mentioned.items()
            },
            embedded=np.asarray(embedded, dtype=np.int64),
            embedded_ids=[entry_ids[i] for i in embedded],
            starts=np.asarray(starts, dtype=np.int64),
            rows=np.asarray([pool.slots[s] for s in stamps], dtype=np.int64),
            chunk_ids=[s[0] for s in stamps],
            stamps=stamps,
            matrix=pool.matrix,
        ),
    )


def _merge(where: _Scope, under: _Under, base: View, changed: set[str], listed: list[list[Any]]) -> View | None:
    """`base` with the `changed` entries replaced by what was listed of them again (`listed`, in id order; one
    not listed is hidden, deleted or out of scope now and leaves). The same view `_build` makes of a full listing
    (tests/search/test_dense_matrix.py compares them), spliced in numpy instead of rebuilt entry by entry."""
    new_stamps: list[Stamp] = [(c[0], c[1], int(c[2])) for r in listed for c in r[4]]
    if not _fetch(where, new_stamps):
        return None
    pool = where.pool
    old_ids, n, m = base.entry_ids, len(base.entry_ids), len(listed)
    # Found by id, not by bisection: Neo4j may order ids outside the BMP otherwise than Python, and an entry hidden
    # now must leave the view whatever its id. Only where a listed entry is placed follows Python's order, which
    # no ranking depends on (every tie is broken by id explicitly).
    index = {x: i for i, x in enumerate(old_ids)}
    removed = sorted(i for x in changed if (i := index.get(x)) is not None)
    kept = np.delete(np.arange(n, dtype=np.int64), removed)
    # Where each listed entry goes among the kept ones: before the kept entries whose ids are larger.
    places = [(b := bisect.bisect_left(old_ids, r[0])) - bisect.bisect_left(removed, b) for r in listed]
    order = np.insert(kept, np.asarray(places, dtype=np.int64), -np.arange(1, m + 1, dtype=np.int64))
    old = order >= 0
    old_at, new_at = order[old], -order[~old] - 1
    new_ids = [r[0] for r in listed]
    new_authors = [r[3] for r in listed]
    entry_ids = [old_ids[k] if k >= 0 else new_ids[-k - 1] for k in order.tolist()]
    author_keys = [base.author_keys[k] if k >= 0 else new_authors[-k - 1] for k in order.tolist()]
    new_told = [_told(r[6]) for r in listed]
    told = [base.told[k] if k >= 0 else new_told[-k - 1] for k in order.tolist()]
    span = np.asarray([(r[1], r[2]) for r in listed], dtype=np.float64).reshape(-1, 2)
    start, end = np.empty(len(order)), np.empty(len(order))
    start[old], end[old] = base.start[old_at], base.end[old_at]
    start[~old], end[~old] = span[new_at, 0], span[new_at, 1]
    # Chunks: each entry's run of rows, taken from the old rows or from the new ones appended after them.
    first, count = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    first[base.embedded] = base.starts
    count[base.embedded] = np.diff(np.append(base.starts, len(base.rows)))
    new_count = np.asarray([len(r[4]) for r in listed], dtype=np.int64)
    new_first = len(base.rows) + np.cumsum(new_count) - new_count
    runs_first, runs = np.empty(len(order), dtype=np.int64), np.empty(len(order), dtype=np.int64)
    runs_first[old], runs[old] = first[old_at], count[old_at]
    runs_first[~old], runs[~old] = new_first[new_at], new_count[new_at]
    offsets = np.cumsum(runs) - runs
    pick = np.repeat(runs_first - offsets, runs) + np.arange(int(runs.sum()), dtype=np.int64)
    all_rows = np.concatenate([base.rows, np.asarray([pool.slots[s] for s in new_stamps], dtype=np.int64)])
    all_stamps = base.stamps + new_stamps
    stamps = [all_stamps[i] for i in pick.tolist()]
    embedded = np.flatnonzero(runs > 0)
    # Mentions: the kept entries' renumbered, the listed entries' added, each entity's entries in order.
    renumber = np.full(n, -1, dtype=np.int64)
    renumber[old_at] = np.flatnonzero(old)
    mentioned: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for x, (at, counts) in base.mentioned_by.items():
        moved = renumber[at]
        still = moved >= 0
        if still.all():
            mentioned[x] = (moved, counts)
        elif still.any():
            mentioned[x] = (moved[still], counts[still])
    position = np.flatnonzero(~old)[np.argsort(new_at)] if m else np.zeros(0, dtype=np.int64)
    added: dict[str, dict[int, int]] = {}
    for j, r in enumerate(listed):
        for x, c in r[5]:
            slot = added.setdefault(x, {})
            slot[int(position[j])] = slot.get(int(position[j]), 0) + int(c)
    for x, more in added.items():
        at = np.fromiter(more.keys(), dtype=np.int64, count=len(more))
        counts = np.fromiter(more.values(), dtype=np.int64, count=len(more))
        if x in mentioned:
            at, counts = np.concatenate([mentioned[x][0], at]), np.concatenate([mentioned[x][1], counts])
        by = np.argsort(at, kind="stable")
        mentioned[x] = (at[by], counts[by])
    return _keep(
        pool,
        where.scope_key,
        View(
            epoch=under.epoch,
            generations=under.generations,
            listed_at=base.listed_at,
            entry_ids=entry_ids,
            start=start,
            end=end,
            author_keys=author_keys,
            told=told,
            mentioned_by=mentioned,
            embedded=embedded,
            embedded_ids=[entry_ids[i] for i in embedded.tolist()],
            starts=offsets[embedded],
            rows=all_rows[pick],
            chunk_ids=[s[0] for s in stamps],
            stamps=stamps,
            matrix=pool.matrix,
        ),
    )


def _pools(graph: Graph) -> ViewerLRU:
    """The viewers' views kept on this database handle (graph/kept.py)."""
    return graph.kept.room("search.views", ViewerLRU)


def clear(graph: Graph) -> None:
    _pools(graph).clear()
