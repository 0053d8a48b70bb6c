"""What a deleted entry leaves behind, removed in the transaction that deletes it.

An entry is derived into more than its node and chunks: the entities it alone named (their names, their vectors), the
chapter it alone filled, the summary variants built from its text, and the retrieval-log records that list it among
their results. Left in place, each would keep a trace of the entry in the database: a name nobody wrote any more, a
summary line quoting it until someone reads the chapter again, an id in a log. Each is removed only when nothing else
holds it (another entry's mention, a declaration, a witness link, a sub-chapter), so what remains is exactly what
the remaining entries and declarations give, and no viewer observes the sweep: a source-less entity or an empty
chapter is already invisible to everyone, and the summary variants removed are those built for audiences that could
see the entry (they are built again, without it, when next read).
"""

from __future__ import annotations

from neo4j import ManagedTransaction

# Read before the entry goes: what it links to.
LINKED = """
MATCH (e:Entry {id: $id})
RETURN COLLECT { MATCH (e)-[:MENTIONS]->(x) RETURN DISTINCT x.id } AS entities,
       COLLECT { MATCH (e)-[:IN_PERIOD]->(p:Period) RETURN DISTINCT p.id } AS periods
"""
DROP_FED_SUMMARIES = "MATCH (s:Summary)-[:FED_BY]->(:Entry {id: $id}) DETACH DELETE s"
DROP_LOGGED = "MATCH (s:SearchLog) WHERE $id IN s.result_ids DELETE s"
# An entity is known only through its sources (graph/entities.py): with none left, it and its vectors go.
_DROP_IF_UNSOURCED = """
WHERE NOT EXISTS { MATCH (:Entry)-[:MENTIONS]->(x) } AND NOT EXISTS { MATCH (:Declaration)-[:DECLARES]->(x) }
OPTIONAL MATCH (v:EntityVector)-[:VECTOR_OF]->(x)
DETACH DELETE v, x
"""
DROP_UNSOURCED = (
    """
UNWIND $ids AS xid
CALL {
  WITH xid MATCH (x:Person {id: xid}) RETURN x
  UNION
  WITH xid MATCH (x:Place {id: xid}) RETURN x
  UNION
  WITH xid MATCH (x:Thing {id: xid}) RETURN x
}
WITH x"""
    + _DROP_IF_UNSOURCED
)
DROP_UNSOURCED_IN_PROJECT = "MATCH (x:Person|Place|Thing {project_id: $project_id})" + _DROP_IF_UNSOURCED
DROP_EMPTY_PERIODS = """
UNWIND $ids AS pid
MATCH (p:Period {id: pid})
WHERE NOT EXISTS { MATCH (:Entry)-[:IN_PERIOD]->(p) } AND NOT EXISTS { MATCH (:WitnessGrant)-[:FOR]->(p) }
  AND NOT EXISTS { MATCH (:Period)-[:PART_OF]->(p) }
OPTIONAL MATCH (v:EntityVector)-[:VECTOR_OF]->(p)
OPTIONAL MATCH (s:Summary)-[:SUMMARISES]->(p)
DETACH DELETE v, s, p
RETURN count(DISTINCT p) AS dropped
"""


def linked(tx: ManagedTransaction, entry_id: str) -> dict[str, list[str]]:
    """The entity and chapter ids the entry links to, read before it is deleted."""
    row = tx.run(LINKED, id=entry_id).single()
    if row is None:
        return {"entities": [], "periods": []}
    return {"entities": list(row["entities"]), "periods": list(row["periods"])}


def before_delete(tx: ManagedTransaction, entry_id: str) -> dict[str, list[str]]:
    """Summary variants and log records that carry the entry go first; returns what it links to, for `after_delete`."""
    links = linked(tx, entry_id)
    tx.run(DROP_FED_SUMMARIES, id=entry_id).consume()
    tx.run(DROP_LOGGED, id=entry_id).consume()
    return links


def drop_unsourced(tx: ManagedTransaction, entity_ids: list[str]) -> None:
    """Those of these persons, places and things no entry mentions and no declaration names any more, with their
    vectors: an entity is known only through its sources (graph/entities.py)."""
    if entity_ids:
        tx.run(DROP_UNSOURCED, ids=entity_ids).consume()


def after_delete(tx: ManagedTransaction, links: dict[str, list[str]]) -> None:
    """Entities and chapters the entry alone held."""
    drop_unsourced(tx, links["entities"])
    if links["periods"]:
        tx.run(DROP_EMPTY_PERIODS, ids=links["periods"]).consume()
