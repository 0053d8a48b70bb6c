"""A per-project search generation, stored on the `Project` node and bumped by every write that can change what a
search of that project returns (entries, chunks and vectors, links, entities and declarations, members, witness
grants, the project's hemisphere).

The search-result cache (`queries/result_cache.py`) reads the generations of the projects it covers, with the
viewer's role in each, in one cheap statement before it looks anything up, and puts them in the cache key. The counter
lives in the graph, not in a process, so a write made by another process on the same Neo4j (a CLI ingest while
`memora serve` runs, a second server) invalidates this process's cached results on its very next search.

A bump runs after the write it follows has committed (or in the same transaction): a search that read the old
generation before the write may store pre-write results under the old key, but no search that starts after the bump
can read that key again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from neo4j import ManagedTransaction

from graph.db import Graph

BUMP = """
UNWIND $project_ids AS pid
MATCH (p:Project {id: pid})
SET p.search_generation = coalesce(p.search_generation, 0) + 1
"""

# One row per project asked for (a missing project reads generation 0 and no role).
READ = """
UNWIND $project_ids AS pid
OPTIONAL MATCH (p:Project {id: pid})
OPTIONAL MATCH (:User {id: $viewer_id})-[m:MEMBER_OF]->(p)
RETURN pid AS project_id, coalesce(p.search_generation, 0) AS generation, m.role AS role
ORDER BY project_id
"""


def project_of(item_id: str) -> str:
    """The project of an entry or chunk id (`<project_id>/...`; project ids hold no '/')."""
    return item_id.split("/", 1)[0]


def _ids(project_ids: Iterable[str]) -> list[str]:
    return sorted({p for p in project_ids if p})


def bump(graph: Graph, project_ids: Iterable[str]) -> None:
    """Invalidate the cached search results of these projects, in every process."""
    ids = _ids(project_ids)
    if ids:
        graph.write(BUMP, {"project_ids": ids})


def bump_in(tx: ManagedTransaction, project_ids: Iterable[str]) -> None:
    """`bump` inside a write transaction: the new generation commits with the write."""
    ids = _ids(project_ids)
    if ids:
        tx.run(BUMP, project_ids=ids).consume()


def read(graph: Graph, project_ids: list[str], viewer_id: str | None) -> list[dict[str, Any]]:
    """Each project's generation and the viewer's role in it, ordered by project id."""
    return [dict(r) for r in graph.read(READ, {"project_ids": _ids(project_ids), "viewer_id": viewer_id})]
