"""Which state of a project's names a re-linking job links to, so that a job an edit has overtaken writes nothing.

Re-linking (ingest/relink.py) rewrites entries from what it read: their stored records and the names declared at
the time. An entity edit committed between that read and the job's write would be undone by the write (a rename
reverted, a deleted person back). So every edit that changes what linking reads (declaring, renaming, deleting,
merging and unmerging an entity, forgetting one) first bumps its project's epoch, a `(:NamesEpoch {project_id})`
node, in its own transaction and before reading anything, which takes that node's write lock. A job reads the epoch
before anything else, and each of its write transactions first takes the same lock and checks the epoch is still
the one it read (`Hold`), else writes nothing and raises `Superseded`: the job starts over under the new names, so
what it had not re-linked yet is covered. The lock and the number live in the graph, so this holds across processes
and replicas (the CLI re-linking while the service edits). A pass that completes records the epoch it linked
(`relinked`); a project whose names moved past it (its job lost to a crash or a restart) is re-linked again when
the service starts (`behind`).
"""

from __future__ import annotations

from neo4j import ManagedTransaction

from graph.db import Graph

# The epoch lives on a node of its own, found by its own key: a writer waiting for its lock holds no lock on the
# project node's key, which a job's write takes (generation bumps) while holding the epoch (no deadlock).
# First statement of an edit's transaction: the lock orders it against jobs' writes and other edits. A project
# without entries has nothing to re-link: names declared before a diary is loaded leave nothing behind.
# The increment reads the property in the SET itself, so Cypher takes the write lock before it reads: two edits at
# once count two epochs, never one.
BUMP_NAMES_EPOCH = """
MERGE (n:NamesEpoch {project_id: $project_id})
ON CREATE SET n.epoch = 0, n.relinked = 0
SET n.epoch = n.epoch + 1
WITH n, EXISTS { MATCH (:Entry {project_id: $project_id}) } AS entries
SET n.relinked = CASE WHEN entries THEN n.relinked ELSE n.epoch END
RETURN n.epoch AS epoch
"""
NAMES_EPOCH = "MATCH (n:NamesEpoch {project_id: $project_id}) RETURN n.epoch AS epoch"
# First statement of a job's write: setting the value it has takes the write lock all the same (and a MERGE, so a
# project no edit has touched yet has a lock to take too).
HOLD_NAMES_EPOCH = """
MERGE (n:NamesEpoch {project_id: $project_id})
ON CREATE SET n.epoch = 0, n.relinked = 0
SET n.epoch = n.epoch
RETURN n.epoch AS epoch
"""
MARK_RELINKED = """
MATCH (n:NamesEpoch {project_id: $project_id})
WHERE n.epoch = $epoch
SET n.relinked = $epoch
"""
PROJECTS_BEHIND = """
MATCH (n:NamesEpoch) WHERE n.epoch > n.relinked
RETURN n.project_id AS id, n.epoch AS epoch ORDER BY id
"""


class Superseded(Exception):
    """A job's write found that an edit changed the project's names since the job read them: nothing was written."""


def bump(tx: ManagedTransaction, project_id: str) -> int:
    """Mark the project's names as changed by the transaction `tx` (run it first); returns the new epoch."""
    return int(tx.run(BUMP_NAMES_EPOCH, project_id=project_id).single(strict=True)["epoch"])


def current(graph: Graph, project_id: str) -> int:
    """The epoch a job reads before anything else (0 for a project no edit has touched)."""
    rows = graph.read(NAMES_EPOCH, {"project_id": project_id})
    return int(rows[0]["epoch"]) if rows else 0


class Hold:
    """Run first in each write transaction of a job that read the names at `epoch`: holds the project's lock to the
    commit, so no edit lands between the check and the write."""

    def __init__(self, project_id: str, epoch: int) -> None:
        self.project_id = project_id
        self.epoch = epoch

    def __call__(self, tx: ManagedTransaction) -> None:
        if int(tx.run(HOLD_NAMES_EPOCH, project_id=self.project_id).single(strict=True)["epoch"]) != self.epoch:
            raise Superseded(self.project_id)


def mark_relinked(graph: Graph, project_id: str, epoch: int) -> None:
    """A pass over every entry completed under the names of `epoch` (nothing, if an edit has moved them since)."""
    graph.write(MARK_RELINKED, {"project_id": project_id, "epoch": epoch})


def behind(graph: Graph) -> dict[str, int]:
    """Projects whose latest edit of names no completed pass has re-linked (its job still running, or lost), with
    their epochs."""
    return {str(r["id"]): int(r["epoch"]) for r in graph.read(PROJECTS_BEHIND)}
