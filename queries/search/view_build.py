"""What a kept view is (`View`), the per-viewer pool of unit vectors its rows index (`Pool`), and how a view is built
from a listing (`build`) or spliced from an older one and the entries listed again (`merge`): the data side of
queries/search/visible_view.py, which decides when to list. Vectors are fetched with the visibility predicate inside
(`CHUNK_VECTORS`), only those the pool lacks."""

from __future__ import annotations

import bisect
import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from graph.db import Graph
from graph.visibility import CAN_SEE_IN_PROJECT, VIEWER_IN_PROJECT

CHUNK_VECTORS = f"""{VIEWER_IN_PROJECT}
UNWIND $ids AS id
MATCH (c:Chunk {{id: id}})-[:OF]->(e:Entry)
WHERE c[$prop] IS NOT NULL AND e.project_id IN $project_ids AND {CAN_SEE_IN_PROJECT}
RETURN c.id AS chunk_id, coalesce(c.embedding_hash, '') AS hash, coalesce(c[$stores_key], 0) AS stores,
       c[$prop] AS vector
"""

FETCH_BATCH = 2000
VIEWS_PER_POOL = 4
# A pool is rebuilt from its live view once stale rows (vectors no view names any more) outnumber live ones.
COMPACT_SLACK = 1024

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
    thread_of: list[str | None]  # per entry: its conversation (thread id), if it is a turn of one
    turn_of: list[int]  # per entry: its place in that conversation
    embedded: np.ndarray  # the entries (indexes) with at least one vector, in order
    embedded_ids: list[str]  # their ids
    starts: np.ndarray  # where each embedded entry's chunks begin in `rows`
    rows: np.ndarray  # the pool row of every visible chunk, grouped by entry
    chunk_ids: list[str]
    stamps: list[Stamp]  # (chunk id, text hash, stores) of every visible chunk: the pool keys of `rows`
    matrix: np.ndarray  # the pool's matrix the rows index (a compaction makes a new one)

    @cached_property
    def index_of(self) -> dict[str, int]:
        return {x: i for i, x in enumerate(self.entry_ids)}

    @cached_property
    def turns(self) -> dict[str, list[tuple[int, str, int]]]:
        """Each conversation's turns in the view, in `THREAD`'s order: (place, entry id, entry index)."""
        out: dict[str, list[tuple[int, str, int]]] = {}
        for i, thread in enumerate(self.thread_of):
            if thread is not None:
                out.setdefault(thread, []).append((self.turn_of[i], self.entry_ids[i], i))
        for turns in out.values():
            turns.sort()
        return out

    def place(self, entry_id: str) -> tuple[list[tuple[int, str, int]], int] | None:
        """The turns of the entry's conversation in the view (`turns`) and the entry's index among them; None when the
        entry is not in the view or is no turn of a conversation."""
        k = self.index_of.get(entry_id)
        thread = self.thread_of[k] if k is not None else None
        if k is None or thread is None:
            return None
        turns = self.turns[thread]
        return turns, bisect.bisect_left(turns, (self.turn_of[k], entry_id))


class Pool:
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
class ViewScope:
    """One viewer's scope as a listing reads it (`graph`, `params`, `stores_key`) and keeps its view (in `pool`,
    under `scope_key`)."""

    graph: Graph
    pool: Pool
    params: dict[str, Any]
    stores_key: str
    scope_key: str
    user_id: str


@dataclass(frozen=True)
class Under:
    """The viewer's generations a listing is made under, and the key they make (`View.epoch`)."""

    generations: list[dict[str, Any]]
    epoch: str


def listed_under(gens: list[dict[str, Any]]) -> Under:
    return Under(gens, json.dumps(gens, sort_keys=True, default=str))


# Listings run and vectors fetched by this process (tests and bench/scale.py read them).
counters = {"listings": 0, "listings_in_part": 0, "vectors_fetched": 0}


def _fetch(where: ViewScope, stamps: list[Stamp]) -> bool:
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


def _keep(pool: Pool, scope_key: str, view: View) -> View:
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


def build(where: ViewScope, under: Under, listed: list[list[Any]]) -> View | None:
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
            thread_of=[r[7] for r in listed],
            turn_of=[int(r[8] or 0) for r in listed],
            embedded=np.asarray(embedded, dtype=np.int64),
            embedded_ids=[entry_ids[i] for i in embedded],
            starts=np.asarray(starts, dtype=np.int64),
            rows=np.asarray([pool.slots[s] for s in stamps], dtype=np.int64),
            chunk_ids=[s[0] for s in stamps],
            stamps=stamps,
            matrix=pool.matrix,
        ),
    )


def merge(where: ViewScope, under: Under, base: View, changed: set[str], listed: list[list[Any]]) -> View | None:
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
    index = base.index_of
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
            thread_of=[base.thread_of[k] if k >= 0 else listed[-k - 1][7] for k in order.tolist()],
            turn_of=[base.turn_of[k] if k >= 0 else int(listed[-k - 1][8] or 0) for k in order.tolist()],
            embedded=embedded,
            embedded_ids=[entry_ids[i] for i in embedded.tolist()],
            starts=offsets[embedded],
            rows=all_rows[pick],
            chunk_ids=[s[0] for s in stamps],
            stamps=stamps,
            matrix=pool.matrix,
        ),
    )
