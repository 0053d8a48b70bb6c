"""Deleting a whole project: every node that belongs to it (entries, chunks and their vectors, entities, declarations,
rejected names, merge records, chapters, summaries, entity vectors, witness grants, generation steps, its names
epoch), the retrieval-log records of searches over it, its memberships and the project node itself.

Nodes go in batches, one transaction each, so a project of any size fits the server's transaction memory; the
memberships and the project node go last, in one transaction that also sweeps anything written meanwhile. Until then
the owner is still the owner: a delete cut short (a lost connection, an outage) is finished by running it again. A
project id deleted and later created again starts a new incarnation: caches keyed by its generations
(graph/generations.py) read its creation time too, so nothing kept from the old project answers for the new one.
"""

from __future__ import annotations

from collections.abc import Callable

from neo4j import ManagedTransaction

from graph.db import Graph
from graph.forgetting import mark_purge_due
from graph.visibility import CAN_SEE, Viewer, visibility_params

BATCH = 2000
# Leaves first (nothing points to them), entries and chapters after what hangs off them.
LABELS = (
    "Chunk",
    "EntityVector",
    "Summary",
    "GenerationStep",
    "NamesEpoch",
    "Dismissal",
    "EntityMerge",
    "Declaration",
    "WitnessGrant",
    "Entry",
    "Person",
    "Place",
    "Thing",
    "Period",
)
DELETE_BATCH = {
    label: f"""
MATCH (n:{label} {{project_id: $project_id}})
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS deleted
"""
    for label in LABELS
}
DROP_LOGGED = """
MATCH (s:SearchLog) WHERE $project_id IN s.project_ids
WITH s LIMIT $batch
DELETE s
RETURN count(*) AS deleted
"""
DROP_PROJECT = """
MATCH (p:Project {id: $project_id})
OPTIONAL MATCH (u:User)-[m:MEMBER_OF]->(p)
WITH p, collect(m) AS memberships
FOREACH (m IN memberships | DELETE m)
DETACH DELETE p
RETURN size(memberships) AS members
"""

# What the caller of a delete is told: the entries they could see (the others' number is not theirs to learn).
VISIBLE_ENTRIES = f"MATCH (e:Entry {{project_id: $project_id}}) WHERE {CAN_SEE} RETURN count(e) AS n"


def visible_entries(graph: Graph, project_id: str, viewer: Viewer) -> int:
    return int(graph.read(VISIBLE_ENTRIES, {"project_id": project_id, **visibility_params(viewer)})[0]["n"])


def delete_project(graph: Graph, project_id: str, progress: Callable[[int], None] | None = None) -> dict[str, int]:
    """Delete the project and everything in it; returns how many of each kind of node went (`members`: the
    memberships). A project that does not exist answers all zeros."""
    removed: dict[str, int] = {}
    for label, statement in [*DELETE_BATCH.items(), ("SearchLog", DROP_LOGGED)]:
        total = 0
        while True:
            n = int(graph.write(statement, {"project_id": project_id, "batch": BATCH})[0]["deleted"])
            total += n
            if progress and n:
                progress(n)
            if n < BATCH:
                break
        removed[label] = total

    def last(tx: ManagedTransaction) -> dict[str, int]:
        swept = {
            label: int(tx.run(statement, project_id=project_id, batch=1_000_000).single(strict=True)[0])
            for label, statement in DELETE_BATCH.items()
        }
        row = tx.run(DROP_PROJECT, project_id=project_id).single()
        mark_purge_due(tx)
        return {**swept, "members": 0 if row is None else int(row["members"])}

    for key, n in graph.transact(last).items():
        removed[key] = removed.get(key, 0) + n
    return removed
