"""Search generations, stored on the `Project` node and bumped by every write that can change what a search of that
project returns, so the search-result cache (`queries/search/result_cache.py`) can tell a stale answer without keeping
any
state of its own.

A write bumps only the generations of the viewers it can change anything for, so that whether a cached answer is
still served never tells a viewer that something hidden from them was written:
- `search_generation`: what every member (and a witness) may see: circle and public entries, members, witness
  grants, the hemisphere, entity edits and re-linking, circle and public declarations;
- `search_generation_inner`: intimate entries and declarations (read by owners and coauthors);
- `search_generation_u_<hash of the author>`: private and intimate entries and declarations, for their author.
An entry write counts both its old and its new level (a re-level from circle to private changes what members see).

The cache reads, in one statement per search, the generations the viewer depends on (all; inner for an owner or
coauthor; their own) with their role in each project, and puts them in its key. The counters live in the graph,
not in a process, so a write made by another process on the same Neo4j (a CLI ingest while `memora serve` runs, a
second server) invalidates this process's cached results on its very next search.

A bump runs in the write's transaction or right after it commits: a search that read the old generation before the
write may store pre-write results under the old key, but no search that starts after the bump reads that key again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from neo4j import ManagedTransaction

from graph.db import Graph
from graph.visibility import EDGE_ROLES, STRONGEST_ROLE

ALL = "search_generation"
INNER = "search_generation_inner"

# Each bump also leaves a step: which entries it changed (`entry_ids`) and which entities those entries mention before
# or after it (`entity_ids`); null when the write does not say, an empty list when it changed none. A kept view lists
# only those entries again (queries/search/visible_view.py), a kept lexicon only those entities
# (queries/search/kept_lexicons.py). Only
# the last STEPS_KEPT steps of a generation are kept; a view further behind lists everything.
STEPS_KEPT = 256
BUMP = f"""
UNWIND $rows AS row
MATCH (p:Project {{id: row.project_id}})
SET p[row.key] = coalesce(p[row.key], 0) + 1
WITH row, p[row.key] AS generation
CREATE (:GenerationStep {{project_id: row.project_id, key: row.key, generation: generation,
                         entry_ids: row.entry_ids, entity_ids: row.entity_ids}})
WITH row, generation
CALL (row, generation) {{
  MATCH (old:GenerationStep {{project_id: row.project_id, key: row.key}})
  WHERE old.generation <= generation - {STEPS_KEPT}
  DELETE old
}}
"""

# The steps of one generation after `$after` up to `$upto`, in order.
STEPS = """
MATCH (s:GenerationStep {project_id: $project_id, key: $key})
WHERE s.generation > $after AND s.generation <= $upto
RETURN s.generation AS generation, s.entry_ids AS entry_ids, s.entity_ids AS entity_ids
ORDER BY generation
"""

# One row per project asked for (a missing project reads generation 0 and no role). `incarnation`, the project's
# creation time, tells a project deleted and created again under the same id from the old one.
READ = f"""
UNWIND $project_ids AS pid
OPTIONAL MATCH (p:Project {{id: pid}})
OPTIONAL MATCH (:User {{id: $viewer_id}})-[m:MEMBER_OF]->(p)
WITH pid, p, {EDGE_ROLES} AS roles
WITH pid, p, {STRONGEST_ROLE} AS role
RETURN pid AS project_id, role, toString(p.created_at) AS incarnation,
       coalesce(p.search_generation, 0) AS generation,
       CASE WHEN role IN ['owner', 'coauthor'] THEN coalesce(p.search_generation_inner, 0) END AS inner,
       CASE WHEN $own_key IS NULL THEN null ELSE coalesce(p[$own_key], 0) END AS own
ORDER BY project_id
"""

# The level, author and mentioned entities of entries before (and after) a write changes or deletes them.
ENTRY_LEVELS = """
UNWIND $ids AS id
MATCH (e:Entry {id: id})
RETURN e.project_id AS project_id, e.intimacy AS intimacy, e.author_id AS author_id, e.id AS entry_id,
       COLLECT { MATCH (e)-[:MENTIONS]->(x) RETURN DISTINCT x.id } AS entity_ids
"""
# A stored vector changes no mention.
CHUNK_LEVELS = """
UNWIND $ids AS id
MATCH (:Chunk {id: id})-[:OF]->(e:Entry)
RETURN DISTINCT e.project_id AS project_id, e.intimacy AS intimacy, e.author_id AS author_id, e.id AS entry_id,
       [] AS entity_ids
"""


def own_key(user_id: str) -> str:
    return "search_generation_u_" + hashlib.sha256(user_id.encode()).hexdigest()[:24]


def keys_for(intimacy: str | None, author_id: str | None) -> list[str]:
    """The generations a write at this level by this author changes."""
    if intimacy == "private":
        return [own_key(author_id)] if author_id else []
    if intimacy == "intimate":
        return [INNER, *([own_key(author_id)] if author_id else [])]
    return [ALL]


def _rows(levels: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (project, generation) the levels move, with the entries and entities they name: null as soon as
    one level does not name them (what changed is unknown), so kept views and lexicons then list everything."""
    named: dict[tuple[str, str], tuple[set[str] | None, set[str] | None]] = {}
    for r in levels:
        if not r.get("project_id"):
            continue
        for k in keys_for(r.get("intimacy"), r.get("author_id")):
            slot = (r["project_id"], k)
            entries, entities = named.get(slot, (set(), set()))
            named[slot] = (
                None if entries is None or not r.get("entry_id") else entries | {r["entry_id"]},
                None if entities is None or r.get("entity_ids") is None else entities | set(r["entity_ids"]),
            )
    return [
        {
            "project_id": p,
            "key": k,
            "entry_ids": None if entries is None else sorted(entries),
            "entity_ids": None if entities is None else sorted(entities),
        }
        for (p, k), (entries, entities) in sorted(named.items())
    ]


def bump(graph: Graph, project_ids: Iterable[str]) -> None:
    """Invalidate every viewer's cached results of these projects, in every process (what changed: unknown)."""
    rows = _rows({"project_id": p} for p in project_ids)
    if rows:
        graph.write(BUMP, {"rows": rows})


def bump_members_in(tx: ManagedTransaction, project_id: str) -> None:
    """Invalidate every viewer's cached results of a project after a membership or project change (a member added,
    removed or given another role; the name or hemisphere), naming no entry and no entity: what a member may see
    depends on their own role alone (graph/visibility.py), so the others keep their kept views and lexicons, and the
    one whose role changed has theirs listed again (`changed_since`: the role is part of what it was listed under;
    a large view from the old one, `across_roles`)."""
    bump_keys_in(tx, project_id, [ALL], entry_ids=[], entity_ids=[])


def bump_members(graph: Graph, project_id: str) -> None:
    """`bump_members_in` in a transaction of its own."""
    graph.transact(lambda tx: bump_members_in(tx, project_id))


def bump_levels(graph: Graph, levels: Iterable[dict[str, Any]]) -> None:
    """Invalidate the cached results of the viewers who may see entries of these levels
    (`{project_id, intimacy, author_id}` each, with the `entry_id` changed when the write knows it)."""
    rows = _rows(levels)
    if rows:
        graph.write(BUMP, {"rows": rows})


def bump_levels_in(tx: ManagedTransaction, levels: Iterable[dict[str, Any]]) -> None:
    """`bump_levels` inside a write transaction: the new generations commit with the write."""
    rows = _rows(levels)
    if rows:
        tx.run(BUMP, rows=rows).consume()


def bump_keys_in(
    tx: ManagedTransaction,
    project_id: str,
    keys: Iterable[str],
    entry_ids: list[str] | None = None,
    entity_ids: list[str] | None = None,
) -> None:
    """Bump these generations of one project (an entity-vector refresh knows the audiences it changed); `entry_ids`
    and `entity_ids` name what changed (an empty list: nothing), None when unknown."""
    rows = [
        {"project_id": project_id, "key": k, "entry_ids": entry_ids, "entity_ids": entity_ids}
        for k in sorted(set(keys))
    ]
    if rows:
        tx.run(BUMP, rows=rows).consume()


def entry_levels(graph: Graph | ManagedTransaction, entry_ids: list[str]) -> list[dict[str, Any]]:
    if isinstance(graph, Graph):
        return [dict(r) for r in graph.read(ENTRY_LEVELS, {"ids": entry_ids})]
    return [dict(r) for r in graph.run(ENTRY_LEVELS, ids=entry_ids)]


def chunk_levels(graph: Graph, chunk_ids: list[str]) -> list[dict[str, Any]]:
    return [dict(r) for r in graph.read(CHUNK_LEVELS, {"ids": chunk_ids})] if chunk_ids else []


# Rows read inside `read_once`, by (project, viewer): one request's lookups share one snapshot.
_snapshot: ContextVar[dict[tuple[str, str | None], dict[str, Any]] | None] = ContextVar("generations", default=None)


@contextmanager
def read_once() -> Iterator[None]:
    """Within this block, `read` asks Neo4j once per project and viewer: a search answering an entity question
    looks its cache keys up five or six times, and each read is a round trip."""
    token = _snapshot.set({})
    try:
        yield
    finally:
        _snapshot.reset(token)


def changed_since(
    graph: Graph,
    user_id: str,
    before: dict[str, Any],
    now: dict[str, Any],
    field: str,
    limit: int,
    across_roles: bool = False,
) -> set[str] | None:
    """What the steps between two reads of a viewer's generations of one project (`read` rows) name in `field`
    (`entry_ids` or `entity_ids`), read only for the generations this viewer depends on, so what they name is what
    the viewer may have seen or may see now; None when everything must be listed again: their role changed, a step
    did not say, is no longer kept, or more than `limit` are named.

    `across_roles`: their role may have changed (a member both times). Then the intimate generation counts only when
    both roles read it: an entry seen through it under one role only is one the role change itself let in or out,
    which the caller finds by listing what the viewer may see now; every other entry they may see under both roles
    changes under a generation both roles read."""
    keys = ("project_id", "incarnation") if across_roles else ("role", "project_id", "incarnation")
    if any(before.get(k) != now.get(k) for k in keys) or before.get("role") is None or now.get("role") is None:
        return None
    changed: set[str] = set()
    for column, key in (("generation", ALL), ("inner", INNER), ("own", own_key(user_id))):
        a, b = before.get(column), now.get(column)
        if a == b or (across_roles and column == "inner" and (a is None or b is None)):
            continue
        if a is None or b is None or int(b) < int(a):
            return None
        rows = graph.read(STEPS, {"project_id": now["project_id"], "key": key, "after": int(a), "upto": int(b)})
        if [r["generation"] for r in rows] != list(range(int(a) + 1, int(b) + 1)) or any(
            r[field] is None for r in rows
        ):
            return None
        changed.update(x for r in rows for x in r[field])
        if len(changed) > limit:
            return None
    return changed


def read(graph: Graph, project_ids: list[str], viewer_id: str | None, fresh: bool = False) -> list[dict[str, Any]]:
    """The generations of each project this viewer depends on, with their role, ordered by project id (inside
    `read_once`, as first read there unless `fresh`)."""
    wanted = sorted(set(project_ids))
    known = _snapshot.get()
    if known is not None and not fresh and all((p, viewer_id) in known for p in wanted):
        return [dict(known[(p, viewer_id)]) for p in wanted]
    rows = [
        dict(r)
        for r in graph.read(
            READ, {"project_ids": wanted, "viewer_id": viewer_id, "own_key": own_key(viewer_id) if viewer_id else None}
        )
    ]
    if known is not None and not fresh:
        known.update({(r["project_id"], viewer_id): dict(r) for r in rows})
    return rows
