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
  (queries/search/view_build.py); a step that does not say, one no longer kept, a role change or the backstop lists
  in full (a large view after a role change: from the old one, by the ids it may see now, `_relist_behind`);
- a *pool*: the unit vectors of the chunks that viewer's views named, keyed by chunk id and a stamp of the vector
  (the chunk's text hash and how many times a vector was stored on it), so a new listing only fetches the vectors
  it has not got (`view_build.CHUNK_VECTORS`, the predicate again). A pool is its viewer's alone: what it holds,
  when it is compacted or dropped depends only on what that viewer may see and on which viewers arrive, never on
  hidden entries (`graph/viewer_lru.py`).

A view of more than `MEMORA_DENSE_MATRIX_BACKGROUND_ENTRIES` visible entries that must be listed in full (the first
listing of a scope, a new member's included, counted by `SCOPE_CHUNKS_IN_PROJECT`) is listed in a background thread:
until it is done that viewer's searches take the Cypher path (the stale view is never served), instead of every one
of them waiting seconds for the listing. Which way a search goes depends only on the viewer's own generations, their
steps, the clock and how many entries they may see.

The query's own constraints (`q_from`, `q_to`, `q_entity_ids`, `q_author_keys`) are tested on the view as
`QUERY_SCOPE` tests them; a recurring date (`q_occ`), witnesses, several-project scopes and
`MEMORA_DENSE_MATRIX_VIEWERS=0` go to Cypher. tests/search/test_dense_matrix.py checks both channels against their
Cypher statements for every role on the real Neo4j.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any

from graph import generations
from graph.db import Graph
from graph.settings import Settings
from graph.viewer_lru import ViewerLRU
from graph.visibility import VIEWER_IN_PROJECT, Viewer
from queries.search import scope_counts, view_build, view_filter
from queries.search.channels import ENTRY_SCOPE_IN_PROJECT, one_project, scope_chunks
from queries.search.fusion import Hit
from queries.search.scope import SearchScope
from queries.search.view_build import Pool, Under, View, ViewScope, counters, listed_under

__all__ = [
    "VISIBLE_AMONG",
    "VISIBLE_CHUNKS",
    "View",
    "listings_after",
    "clear",
    "counters",
    "current",
    "thread_neighbours",
    "usable",
    "view_for",
]

# Every visible entry of the scope, in id order, with its chunks that have this model's vector (none yet: an empty
# list) and what the query's own constraints test: its dates as day numbers, its author as `toLower` folds it, and
# what it mentions (with the mention counts the structured channel ranks by), and its conversation and place in it
# (the thread channel's neighbours). They are only ever compared with the query's own. A record per block of
# LISTED_BLOCK entries: the driver decoded a record per chunk slower than Neo4j ran the statement
# (docs/BENCHMARKS.md), and one record of 100,000 entries held the interpreter for a second while it was decoded,
# stalling the searches a listing behind them was meant to spare. Day numbers decode faster than dates.
_LISTED = """
WITH e ORDER BY e.id
WITH collect([e.id,
                duration.inDays(date('0001-01-01'), e.occurred_start).days + 1,
                duration.inDays(date('0001-01-01'), e.occurred_end).days + 1,
                toLower(e.author_id),
                COLLECT { MATCH (c:Chunk)-[:OF]->(e) WHERE c[$prop] IS NOT NULL
                          RETURN [c.id, coalesce(c.embedding_hash, ''), coalesce(c[$stores_key], 0)] ORDER BY c.id },
                COLLECT { MATCH (e)-[m:MENTIONS]->(x) RETURN [x.id, coalesce(m.count, 0)] },
                [i IN range(0, size(coalesce(e.told_starts, [])) - 1) |
                 [duration.inDays(date('0001-01-01'), e.told_starts[i]).days + 1,
                  duration.inDays(date('0001-01-01'), e.told_ends[i]).days + 1]],
                e.thread_id, e.thread_pos]) AS listed
UNWIND range(0, size(listed) - 1, $block) AS at
RETURN listed[at..at + $block] AS entries ORDER BY at
"""
# A view is of one project (`usable`): the statements resolve the viewer once (graph/visibility.py).
VISIBLE_CHUNKS = f"""{VIEWER_IN_PROJECT}
MATCH (e:Entry) WHERE {ENTRY_SCOPE_IN_PROJECT}{_LISTED}"""
# The same for the entries `$among` names: those the generation steps since a view's listing changed. One of them
# now hidden from the viewer (or deleted, or out of scope) is not returned, and so leaves the view.
VISIBLE_AMONG = f"""{VIEWER_IN_PROJECT}
UNWIND $among AS among_id
MATCH (e:Entry {{id: among_id}}) WHERE {ENTRY_SCOPE_IN_PROJECT}{_LISTED}"""

# The ids alone, in records of LISTED_BLOCK: what a viewer may see after their role changed.
VISIBLE_IDS = f"""{VIEWER_IN_PROJECT}
MATCH (e:Entry) WHERE {ENTRY_SCOPE_IN_PROJECT}
WITH collect(e.id) AS listed
UNWIND range(0, size(listed) - 1, $block) AS at
RETURN listed[at..at + $block] AS ids ORDER BY at
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
LISTED_BLOCK = 2000
# How often a search waiting for the pool's lock looks whether a listing behind the searches took it.
LOCK_POLL_SECONDS = 0.02
# Past this many entries changed since a view's listing, it is listed in full again rather than in part.
AMONG_MAX = 5000

log = logging.getLogger(__name__)


def usable(settings: Settings, scope: SearchScope) -> bool:
    """Whether this search can be served from a view: one project, a member (not a witness), no recurring date."""
    viewer = scope.viewer
    if settings.dense_matrix_viewers <= 0 or viewer.is_witness or viewer.user_id is None:
        return False
    return scope.one_project is not None and not scope.soft.occurrences


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
    under = listed_under(gens)
    scope_key = _scope_key(params)
    part = (user_id, project, params["prop"])
    pools = _pools(graph)
    pools.max_viewers = settings.dense_matrix_viewers
    found, pool = pools.get(part, "pool", float("inf"))
    if not found:
        pool = Pool(dim)
        pools.put(part, "pool", pool, 1)
    where = ViewScope(graph, pool, one_project(params), stores_key, scope_key, user_id)
    while not pool.lock.acquire(timeout=LOCK_POLL_SECONDS):
        if pool.relisting:
            return None  # a background listing holds the pool, or is about to: Cypher answers meanwhile
    try:
        view = pool.views.get(scope_key)
        if view is None:
            if _visible_entries(where) > settings.dense_matrix_background_entries:
                _behind(where, None)
                return None
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
            _behind(where, None if expired or view.generations[0].get("role") == gens[0].get("role") else view)
            return None
        return _list(where, under)
    finally:
        pool.lock.release()


def thread_neighbours(
    graph: Graph, settings: Settings, scope: SearchScope, prop: str, seeds: list[str], limit: int
) -> list[Hit] | None:
    """The thread channel's hits as `THREAD` finds them (the turns just before and after each seed in its
    conversation, meeting the scope and the query's own constraints), from the view the search just ranked from;
    None when no such view is kept (current under the viewer's generations; never listed for this): the caller asks
    Cypher."""
    view = current(graph, settings, scope, prop)
    if view is None:
        return None
    meets = view_filter.meeting(view, scope.soft)
    rank: dict[str, int] = {}
    for i, seed in enumerate(seeds):
        if (placed := view.place(seed)) is None:
            continue
        turns, here = placed
        after = (t for t in turns[here + 1 :] if meets is None or meets[t[2]])
        before = (t for t in reversed(turns[:here]) if meets is None or meets[t[2]])
        for t in (next(after, None), next(before, None)):
            if t is not None and t[1] not in seeds:
                rank[t[1]] = min(rank.get(t[1], i), i)
    return [Hit(x, 1.0 / (1 + r)) for x, r in sorted(rank.items(), key=lambda xr: (xr[1], xr[0]))[:limit]]


def current(graph: Graph, settings: Settings, scope: SearchScope, prop: str) -> View | None:
    """The scope's kept view if it is current (its generations, the backstop), without listing or waiting."""
    viewer = scope.viewer
    if not usable(settings, scope) or viewer.user_id is None:
        return None
    params = {**scope.params(), "prop": prop}
    gens = generations.read(graph, [params["project_ids"][0]], viewer.user_id)
    if not gens or gens[0].get("role") is None:
        return None
    found, pool = _pools(graph).get((viewer.user_id, params["project_ids"][0], prop), "pool", float("inf"))
    if not found or not pool.lock.acquire(blocking=False):
        return None
    try:
        view = pool.views.get(_scope_key(params))
    finally:
        pool.lock.release()
    fresh = view is not None and time.monotonic() - view.listed_at <= settings.dense_matrix_seconds
    if view is None or not fresh or view.epoch != listed_under(gens).epoch:
        return None
    return view


def _visible_entries(where: ViewScope) -> int:
    """How many entries of the scope the viewer may see (kept under their generations): whether a first listing,
    a new member's or another scope's, runs behind the searches."""
    viewer = Viewer(user_id=where.user_id)
    return scope_counts.count(where.graph, viewer, scope_chunks(where.params), where.params, "visible")


def _behind(where: ViewScope, before_role_change: View | None) -> None:
    """List the view on a thread of its own (the caller holds the pool's lock), unless one is already at it: the
    search asking takes the Cypher path. In full, or from the view listed under the viewer's previous role
    (`_relist_behind`). Inside a search (`listings_after`) the thread starts when that search has answered, so the
    listing does not compete with it for the cores."""
    if where.scope_key not in where.pool.relisting:
        where.pool.relisting.add(where.scope_key)
        thread = threading.Thread(
            target=_relist_behind,
            daemon=True,
            name="memora-view-relist",
            args=(replace(where, params=dict(where.params)), before_role_change),
        )
        waiting = _waiting.get()
        if waiting is None:
            thread.start()
        else:
            waiting.append(thread)


# The listings a search asked for, started when it returns (`listings_after`).
_waiting: ContextVar[list[threading.Thread] | None] = ContextVar("memora_view_listings", default=None)


@contextmanager
def listings_after() -> Iterator[None]:
    """The listings behind the searches asked for inside the block start when it ends (or raises): at 100,000
    entries one starting inside the newcomer's first search doubled it (docs/BENCHMARKS.md, "During a membership
    change")."""
    token = _waiting.set([])
    try:
        yield
    finally:
        waiting = _waiting.get() or []
        _waiting.reset(token)
        for thread in waiting:
            thread.start()


def _list(where: ViewScope, under: Under, base: View | None = None, changed: set[str] | None = None) -> View | None:
    """List the view under `under` (the caller holds the pool's lock): in full, or from `base` with the `changed`
    entries listed again. Kept only if no write moved the generations meanwhile."""
    graph, params = where.graph, {**where.params, "stores_key": where.stores_key, "block": LISTED_BLOCK}
    if base is not None and changed is not None:
        if not changed:  # the steps changed nothing it lists (entity vectors)
            kept = where.pool.views[where.scope_key] = replace(base, epoch=under.epoch, generations=under.generations)
            return kept
        found = graph.read(VISIBLE_AMONG, {**params, "among": sorted(changed)})
        counters["listings_in_part"] += 1
        view = view_build.merge(where, under, base, changed, [x for r in found for x in r["entries"]])
    else:
        found = graph.read(VISIBLE_CHUNKS, params)
        counters["listings"] += 1
        view = view_build.build(where, under, [x for r in found for x in r["entries"]])
    if (
        view is not None
        and generations.read(graph, params["project_ids"], where.user_id, fresh=True) != under.generations
    ):
        # A write landed while listing: never served again; the next search lists what changed since then.
        where.pool.views[where.scope_key] = replace(view, epoch="")
    return view


def _relist_behind(where: ViewScope, before_role_change: View | None = None) -> None:
    """List a large view again off the request path: its searches take the Cypher path until it is done (~3.6 s in
    full at 100,000 entries, which every search of the viewer would wait for). The stale view is never served.

    After a role change most of the view stays: the ids the viewer may see now are listed, and only the entries the
    change let in, those it took out and those the steps of the generations both roles read name are listed again
    into the old view (`VISIBLE_AMONG`, the predicate under the new role), which is the view a full listing makes
    (tests/search/test_dense_matrix.py)."""
    with where.pool.lock:
        try:
            gens = generations.read(where.graph, where.params["project_ids"], where.user_id, fresh=True)
            if not gens or gens[0].get("role") is None:
                return
            under = listed_under(gens)
            # The old view as the pool keeps it now (a fetch for another scope gave it a grown matrix); gone when the
            # pool was compacted meanwhile (its rows renumbered): then in full.
            now_kept, before = where.pool.views.get(where.scope_key), before_role_change
            same = now_kept is not None and before is not None and now_kept.entry_ids is before.entry_ids
            base = now_kept if same else None
            named = (
                None
                if base is None
                else generations.changed_since(
                    where.graph, where.user_id, base.generations[0], gens[0], "entry_ids", AMONG_MAX, across_roles=True
                )
            )
            if base is None or named is None:
                _list(where, under)
                return
            found = where.graph.read(VISIBLE_IDS, {**where.params, "block": LISTED_BLOCK})
            now = {x for r in found for x in r["ids"]}
            kept = set(base.entry_ids)
            _list(where, under, base, (now - kept) | (kept - now) | (named & now))
        except Exception:
            log.exception("listing a kept view again in the background failed; the next search tries again")
        finally:
            where.pool.relisting.discard(where.scope_key)


def _scope_key(params: dict[str, Any]) -> str:
    scope = {k: params.get(k) for k in SCOPE_KEYS}
    return hashlib.sha256(json.dumps(scope, sort_keys=True, default=str).encode()).hexdigest()


def _pools(graph: Graph) -> ViewerLRU:
    """The viewers' views kept on this database handle (graph/kept.py)."""
    return graph.kept.room("search.views", ViewerLRU)


def clear(graph: Graph) -> None:
    _pools(graph).clear()
