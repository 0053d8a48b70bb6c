"""Entry and chunk persistence: batched UNWIND writes in one transaction, and visibility-checked reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from neo4j import ManagedTransaction
from neo4j.exceptions import ConstraintError, IncompleteCommit

from graph import forgetting
from graph.db import Graph
from graph.entity_vectors import DROP_AFFECTED_VARIANTS
from graph.generations import bump_levels_in, entry_levels
from graph.periods import PERIOD_NAME
from graph.summaries import mark_stale
from graph.visibility import CAN_SEE, Viewer, mention_seen, visibility_params

EXISTING = """
UNWIND $ids AS id
MATCH (e:Entry {id: id})
OPTIONAL MATCH (c:Chunk)-[:OF]->(e)
RETURN e.id AS id, e.project_id AS project_id, e.content_hash AS content_hash, e.thread_id AS thread_id,
       e.record_hash AS record_hash, e.file_hash AS file_hash, count(c) AS chunks,
       count(CASE WHEN c.embedding_status = 'done' AND c.embedding_model = $model THEN 1 END) AS embedded
"""

# A file line equal to what is stored: the file now agrees with the entry (no rewrite, only the fingerprints).
MARK_FILE_WRITTEN = """
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
SET e.file_hash = row.hash, e.record_hash = row.hash
"""

LINK_THREAD = """
UNWIND $rows AS row
MATCH (e:Entry {id: row.id})
MATCH (prev:Entry {id: row.prev_id})
MERGE (prev)-[:NEXT]->(e)
"""

ENTRY_THREAD = "MATCH (e:Entry {id: $id}) RETURN e.thread_id AS thread_id"

LOAD_RECORDS = """
UNWIND $ids AS id
MATCH (e:Entry {id: id})
RETURN e.id AS entry_id, e.project_id AS project_id, e.body AS text, e.author_id AS author, e.title AS title,
       e.occurred_on AS occurred_on, e.occurred_at AS occurred_at, coalesce(e.listed_persons, []) AS persons,
       coalesce(e.listed_places, []) AS places, coalesce(e.tags, []) AS tags, e.intimacy AS intimacy,
       e.kind AS kind, e.period_name AS period, e.metadata AS metadata
"""

# A stored vector for identical chunk content (`embedding_hash`: model, context, text), per `$rows` of
# {project_id, hash}. Whether a write reuses one shows in its answer ("done" rather than "pending") and in its time, so
# reuse is an observation of what is stored: it is confined to the chunk's own project, and, for a writer (an API
# caller, a witness), to entries they may see (VISIBLE_REUSABLE_VECTORS, the one privacy predicate). Trusted operator
# paths (CLI ingest, restore, relink) use REUSABLE_VECTORS: the same project, every entry of it.
_REUSABLE = """
UNWIND $rows AS row
MATCH (c:Chunk {{embedding_hash: row.hash}})-[:OF]->(e:Entry)
WHERE e.project_id = row.project_id AND c[$prop] IS NOT NULL{visible}
WITH row.project_id AS project_id, row.hash AS hash, head(collect(c)) AS c
RETURN project_id, hash, c[$prop] AS vector, c.sparse_tokens AS sparse_tokens, c.sparse_weights AS sparse_weights
"""
REUSABLE_VECTORS = _REUSABLE.format(visible="")
VISIBLE_REUSABLE_VECTORS = _REUSABLE.format(visible=f" AND {CAN_SEE}")

_ENTRY_PROJECT = """
UNWIND $rows AS row
MERGE (p:Project {id: row.project_id})
ON CREATE SET p.name = row.project_id, p.created_at = datetime(), p.hemisphere = 'north'
"""
# Everything after the entry node is bound: its properties, and what a rewrite replaces (links, chunks, author).
# First the entity vectors built for audiences that could see the entry as it was (graph/entity_vectors.py).
_ENTRY_BODY = (
    f"""
WITH e, row
{DROP_AFFECTED_VARIANTS}WITH DISTINCT e, row
"""
    + """
SET e += row.props, e.updated_at = datetime()
WITH e, row
OPTIONAL MATCH (e)-[old:MENTIONS|IN_PERIOD]->()
DELETE old
WITH DISTINCT e, row
OPTIONAL MATCH (:Entry)-[oldn:NEXT]->(e)
DELETE oldn
WITH DISTINCT e, row
OPTIONAL MATCH (oldc:Chunk)-[:OF]->(e)
DETACH DELETE oldc
WITH DISTINCT e, row
OPTIONAL MATCH (:User)-[w:WROTE]->(e)
DELETE w
WITH DISTINCT e, row
FOREACH (_ IN CASE WHEN row.props.author_id IS NULL THEN [] ELSE [1] END |
  MERGE (u:User {id: row.props.author_id})
  ON CREATE SET u.name = row.props.author_id, u.created_at = datetime()
  MERGE (u)-[:WROTE]->(e))
"""
)
UPSERT_ENTRIES = _ENTRY_PROJECT + "MERGE (e:Entry {id: row.id})\nON CREATE SET e.created_at = datetime()" + _ENTRY_BODY
# A create never overwrites: the uniqueness constraint on the id makes the second of two concurrent creates fail.
CREATE_ENTRIES = _ENTRY_PROJECT + "CREATE (e:Entry {id: row.id, created_at: datetime()})" + _ENTRY_BODY

LINK_PERIODS = """
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry_id})
MATCH (p:Project {id: row.project_id})
MERGE (per:Period {id: row.period_id})
ON CREATE SET per.project_id = row.project_id, per.level = 'chapter', per.created_at = datetime(),
              per.automatic = CASE WHEN row.automatic THEN true END
MERGE (per)-[:PART_OF]->(p)
MERGE (e)-[:IN_PERIOD]->(per)
"""

_LINK_MENTIONS = """
UNWIND $rows AS row
MATCH (e:Entry {{id: row.entry_id}})
MERGE (n:{label} {{id: row.id}})
ON CREATE SET n.project_id = e.project_id, n.kind = '{kind}', n.name = row.name, n.aliases = [], n.aliases_text = '',
              n.created_at = datetime()
MERGE (e)-[m:MENTIONS]->(n)
SET m.count = row.count, m.name = row.name, m.witness_hidden = CASE WHEN row.witness_hidden THEN true END,
    m.witness_count = row.witness_count, m.told_starts = row.told_starts, m.told_ends = row.told_ends,
    m.introduced = row.introduced, m.addressed = row.addressed, m.author = CASE WHEN row.author THEN true END
"""
LINK_MENTIONS = {
    kind: _LINK_MENTIONS.format(label=label, kind=kind)
    for kind, label in (("person", "Person"), ("place", "Place"), ("thing", "Thing"))
}

CREATE_CHUNKS = """
UNWIND $rows AS row
MATCH (e:Entry {id: row.entry_id})
CREATE (c:Chunk {id: row.id, entry_id: row.entry_id, project_id: e.project_id, ord: row.ord, text: row.text,
                 context: row.context, embedding_hash: row.embedding_hash, embedding_model: row.model,
                 embedding_status: CASE WHEN row.vector IS NULL THEN 'pending' ELSE 'done' END,
                 embedding_error: row.error, sparse_tokens: row.sparse_tokens, sparse_weights: row.sparse_weights,
                 event_starts: row.event_starts, event_ends: row.event_ends, event_precisions: row.event_precisions,
                 event_weights: row.event_weights, created_at: datetime()})
CREATE (c)-[:OF]->(e)
WITH c, row WHERE row.vector IS NOT NULL
CALL db.create.setNodeVectorProperty(c, $prop, row.vector)
"""

DELETE_ENTRY = (
    f"""
MATCH (e:Entry {{id: $id}})
{DROP_AFFECTED_VARIANTS}WITH DISTINCT e
"""
    + """
OPTIONAL MATCH (c:Chunk)-[:OF]->(e)
DETACH DELETE c, e
RETURN count(DISTINCT e) AS deleted
"""
)


def entry_details(carry: str = "") -> str:
    """What a read of an entry `e` returns (its node, linked names, chapters, pending chunks), keeping the variables
    in `carry` (e.g. ", ord") bound through the aggregations."""
    return f"""
OPTIONAL MATCH (e)-[xm:MENTIONS]->(x) WHERE {mention_seen("xm")}
WITH e{carry}, collect(DISTINCT {{kind: x.kind, name: xm.name}}) AS xs
OPTIONAL MATCH (e)-[:IN_PERIOD]->(per:Period)
WITH e{carry}, xs, collect(DISTINCT per) AS pers
RETURN e {{.*}} AS entry,
       [x IN xs WHERE x.kind = 'person' | x.name] AS persons,
       [x IN xs WHERE x.kind = 'place' | x.name] AS places,
       [x IN xs WHERE x.kind = 'thing' | x.name] AS things,
       [p IN pers | {{id: p.id, name: {PERIOD_NAME}}}] AS periods,
       COUNT {{ MATCH (c:Chunk)-[:OF]->(e) WHERE c.embedding_status <> 'done' }} AS pending"""


GET_ENTRY = f"""
MATCH (e:Entry {{id: $id}})
WHERE {CAN_SEE}
{entry_details()}
"""


class EntryExists(Exception):
    """A create named an id that is already taken (in the caller's own project: ids carry their project)."""


def write_batch(
    graph: Graph,
    entries: list[dict[str, Any]],
    periods: list[dict[str, Any]],
    mentions: dict[str, list[dict[str, Any]]],
    chunks: list[dict[str, Any]],
    prop: str,
    create: bool = False,
    guard: Callable[[ManagedTransaction], object] | None = None,
) -> None:
    """Everything about a batch of entries in one transaction: all of it lands or none of it does. With `create`,
    an id that exists (or is created concurrently) fails the whole batch with EntryExists. `guard` runs first in the
    transaction (graph/relink_epochs.py: a re-linking job's check that its names are still current, or an edit's
    bump of them); what it raises ends the transaction with nothing written."""

    attempts: list[int] = []

    def work(tx: ManagedTransaction) -> None:
        attempts.append(1)
        if guard is not None:
            guard(tx)
        ids = [e["id"] for e in entries]
        mark_stale(tx, ids)  # the summaries the entries fed (old state) ...
        before = entry_levels(tx, ids)
        links = None if create else forgetting.linked_many(tx, ids)
        tx.run(CREATE_ENTRIES if create else UPSERT_ENTRIES, rows=entries).consume()
        if periods:
            tx.run(LINK_PERIODS, rows=periods).consume()
        for kind, rows in mentions.items():
            if rows:
                tx.run(LINK_MENTIONS[kind], rows=rows).consume()
        if chunks:
            tx.run(CREATE_CHUNKS, rows=chunks, prop=prop).consume()
        threaded = [{"id": e["id"], "prev_id": e["props"]["prev_id"]} for e in entries if e["props"].get("prev_id")]
        if threaded:
            tx.run(LINK_THREAD, rows=threaded).consume()
        dropped = [] if links is None else forgetting.after_delete(tx, links)  # what only the old versions held
        if before:  # an old version's text stays on disk until the next purge
            forgetting.mark_purge_due(tx)
        mark_stale(tx, ids)  # ... and the ones they belong to now (new level, period, author)
        # cached search results of whoever may see these entries, at their old or new level, are stale
        bump_levels_in(tx, before + entry_levels(tx, ids))
        forgetting.scrub_steps(tx, dropped)

    try:
        graph.transact(work)
    except ConstraintError as exc:
        if create and len(attempts) > 1:
            # A retry after Neo4j went away may meet the entry an earlier attempt's lost commit created.
            raise IncompleteCommit("the entry exists after a retried commit; it may be this write's") from exc
        if create:
            raise EntryExists(str(exc)) from exc
        raise


def entry_thread(graph: Graph, entry_id: str) -> str | None:
    rows = graph.read(ENTRY_THREAD, {"id": entry_id})
    return rows[0]["thread_id"] if rows else None


def load_records(graph: Graph, ids: list[str]) -> list[dict[str, Any]]:
    """Stored entries as ingest records (what was written, not what was derived)."""
    return [dict(r) for r in graph.read(LOAD_RECORDS, {"ids": ids})]


def get_visible_entry(graph: Graph, viewer: Viewer, entry_id: str) -> dict[str, Any] | None:
    """The entry if the viewer may see it; None both when it is hidden and when it does not exist."""
    rows = graph.read(GET_ENTRY, {"id": entry_id, **visibility_params(viewer)})
    return dict(rows[0]) if rows else None


def delete_entry(graph: Graph, entry_id: str) -> bool:
    """Delete an entry and chunks, and what it alone left behind (graph/forgetting.py); the summaries it fed are
    removed or marked stale, and the cached results of whoever could see it invalidated, in the same transaction."""

    def work(tx: ManagedTransaction) -> bool:
        mark_stale(tx, [entry_id])
        before = entry_levels(tx, [entry_id])
        links = forgetting.before_delete(tx, entry_id)
        deleted = bool(tx.run(DELETE_ENTRY, id=entry_id).single(strict=True)["deleted"])
        if deleted:
            dropped = forgetting.after_delete(tx, links)
            forgetting.mark_purge_due(tx)
            bump_levels_in(tx, before)
            forgetting.scrub_steps(tx, dropped)
        return deleted

    return graph.transact(work)
