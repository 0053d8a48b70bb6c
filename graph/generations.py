"""Search generations, stored on the `Project` node and bumped by every write that can change what a search of that
project returns, so the search-result cache (`queries/result_cache.py`) can tell a stale answer without keeping any
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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from neo4j import ManagedTransaction

from graph.db import Graph

ALL = "search_generation"
INNER = "search_generation_inner"

# Each bump also leaves a step: which entries it changed (`entry_ids`; null when the write does not say, an empty
# list when no entry's listed data changed), so a kept view can list only those again (queries/visible_view.py).
# Only the last STEPS_KEPT steps of a generation are kept; a view further behind lists everything.
STEPS_KEPT = 256
BUMP = f"""
UNWIND $rows AS row
MATCH (p:Project {{id: row.project_id}})
SET p[row.key] = coalesce(p[row.key], 0) + 1
WITH row, p[row.key] AS generation
CREATE (:GenerationStep {{project_id: row.project_id, key: row.key, generation: generation,
                         entry_ids: row.entry_ids}})
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
RETURN s.generation AS generation, s.entry_ids AS entry_ids
ORDER BY generation
"""

# One row per project asked for (a missing project reads generation 0 and no role).
READ = """
UNWIND $project_ids AS pid
OPTIONAL MATCH (p:Project {id: pid})
OPTIONAL MATCH (:User {id: $viewer_id})-[m:MEMBER_OF]->(p)
RETURN pid AS project_id, m.role AS role, coalesce(p.search_generation, 0) AS generation,
       CASE WHEN m.role IN ['owner', 'coauthor'] THEN coalesce(p.search_generation_inner, 0) END AS inner,
       CASE WHEN $own_key IS NULL THEN null ELSE coalesce(p[$own_key], 0) END AS own
ORDER BY project_id
"""

# The level and author of entries before a write changes or deletes them.
ENTRY_LEVELS = """
UNWIND $ids AS id
MATCH (e:Entry {id: id})
RETURN e.project_id AS project_id, e.intimacy AS intimacy, e.author_id AS author_id, e.id AS entry_id
"""
CHUNK_LEVELS = """
UNWIND $ids AS id
MATCH (:Chunk {id: id})-[:OF]->(e:Entry)
RETURN DISTINCT e.project_id AS project_id, e.intimacy AS intimacy, e.author_id AS author_id, e.id AS entry_id
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
    """One row per (project, generation) the levels move, with the entries they name: null as soon as one level
    names none (what changed is unknown), so a kept view then lists everything."""
    named: dict[tuple[str, str], set[str] | None] = {}
    for r in levels:
        if not r.get("project_id"):
            continue
        for k in keys_for(r.get("intimacy"), r.get("author_id")):
            slot = (r["project_id"], k)
            known = named.get(slot, set())
            named[slot] = None if known is None or not r.get("entry_id") else known | {r["entry_id"]}
    return [{"project_id": p, "key": k, "entry_ids": None if ids is None else sorted(ids)}
            for (p, k), ids in sorted(named.items())]


def bump(graph: Graph, project_ids: Iterable[str]) -> None:
    """Invalidate every viewer's cached results of these projects, in every process (what changed: unknown)."""
    rows = _rows({"project_id": p} for p in project_ids)
    if rows:
        graph.write(BUMP, {"rows": rows})


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


def bump_keys_in(tx: ManagedTransaction, project_id: str, keys: Iterable[str],
                 entry_ids: list[str] | None = None) -> None:
    """Bump these generations of one project (an entity-vector refresh knows the audiences it changed); `entry_ids`
    names the entries whose listed data changed (an empty list: none), None when unknown."""
    rows = [{"project_id": project_id, "key": k, "entry_ids": entry_ids} for k in sorted(set(keys))]
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


P = ParamSpec("P")
R = TypeVar("R")


def reading_once(fn: Callable[P, R]) -> Callable[P, R]:
    """`fn` run inside `read_once`."""
    @wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with read_once():
            return fn(*args, **kwargs)
    return run


def steps(graph: Graph, project_id: str, key: str, after: int, upto: int) -> list[list[str] | None] | None:
    """The entries each bump of `key` from `after` to `upto` named (None per step that did not say); None when a
    step is no longer kept."""
    rows = graph.read(STEPS, {"project_id": project_id, "key": key, "after": after, "upto": upto})
    if [r["generation"] for r in rows] != list(range(after + 1, upto + 1)):
        return None
    return [None if r["entry_ids"] is None else list(r["entry_ids"]) for r in rows]


def read(graph: Graph, project_ids: list[str], viewer_id: str | None, fresh: bool = False) -> list[dict[str, Any]]:
    """The generations of each project this viewer depends on, with their role, ordered by project id (inside
    `read_once`, as first read there unless `fresh`)."""
    wanted = sorted(set(project_ids))
    known = _snapshot.get()
    if known is not None and not fresh and all((p, viewer_id) in known for p in wanted):
        return [dict(known[(p, viewer_id)]) for p in wanted]
    rows = [dict(r) for r in graph.read(READ, {"project_ids": wanted, "viewer_id": viewer_id,
                                               "own_key": own_key(viewer_id) if viewer_id else None})]
    if known is not None and not fresh:
        known.update({(r["project_id"], viewer_id): dict(r) for r in rows})
    return rows
