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

from graph.db import Graph
from graph.generations import bump_levels_in
from graph.visibility import CAN_SEE, CAN_SEE_DECLARATION, Viewer, visibility_params

# Read before the entry goes: what it links to.
LINKED = """
MATCH (e:Entry {id: $id})
RETURN COLLECT { MATCH (e)-[:MENTIONS]->(x) RETURN DISTINCT x.id } AS entities,
       COLLECT { MATCH (e)-[:IN_PERIOD]->(p:Period) RETURN DISTINCT p.id } AS periods
"""
# The same, for a batch of entries about to be rewritten (an edit may drop a name or leave a chapter).
LINKED_MANY = """
UNWIND $ids AS eid
MATCH (e:Entry {id: eid})
WITH collect(e) AS es
RETURN COLLECT { UNWIND es AS e MATCH (e)-[:MENTIONS]->(x) RETURN DISTINCT x.id } AS entities,
       COLLECT { UNWIND es AS e MATCH (e)-[:IN_PERIOD]->(p:Period) RETURN DISTINCT p.id } AS periods
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
WITH x, xid"""
    + _DROP_IF_UNSOURCED
    + "RETURN collect(DISTINCT xid) AS dropped"
)
DROP_UNSOURCED_IN_PROJECT = "MATCH (x:Person|Place|Thing {project_id: $project_id})" + _DROP_IF_UNSOURCED
# A generation step (graph/generations.py) names the entities a write changed, by id, and an id carries the slug of
# the name: once an entity is gone, the steps that name it say "unknown" instead (null), which makes a kept lexicon
# that reads them list its names again rather than miss the change.
SCRUB_STEPS = """
MATCH (s:GenerationStep {project_id: $project_id})
WHERE any(x IN s.entity_ids WHERE x IN $ids)
SET s.entity_ids = null
"""
# What a delete or a rewrite removed stays on disk until the store is rebuilt (graph/purge.py): the first such write
# after a purge marks one due, with its time, so `memora db purge --if-due` and `memora db status` know.
PURGE_DUE = "MERGE (m:PurgeDue {id: 'store'}) ON CREATE SET m.since = datetime()"
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


def linked_many(tx: ManagedTransaction, entry_ids: list[str]) -> dict[str, list[str]]:
    """What these entries link to before a rewrite, for `after_delete` once it is written: an edit that drops the
    last mention of a name or the last entry of a chapter leaves neither behind."""
    row = tx.run(LINKED_MANY, ids=entry_ids).single()
    if row is None:
        return {"entities": [], "periods": []}
    return {"entities": list(row["entities"]), "periods": list(row["periods"])}


def before_delete(tx: ManagedTransaction, entry_id: str) -> dict[str, list[str]]:
    """Summary variants and log records that carry the entry go first; returns what it links to, for `after_delete`."""
    links = linked(tx, entry_id)
    tx.run(DROP_FED_SUMMARIES, id=entry_id).consume()
    tx.run(DROP_LOGGED, id=entry_id).consume()
    return links


def drop_unsourced(tx: ManagedTransaction, entity_ids: list[str]) -> list[str]:
    """Those of these persons, places and things no entry mentions and no declaration names any more, with their
    vectors: an entity is known only through its sources (graph/entities.py). Returns the ids dropped, for
    `scrub_steps` once the write has bumped its generations."""
    if not entity_ids:
        return []
    return list(tx.run(DROP_UNSOURCED, ids=entity_ids).single(strict=True)["dropped"])


def scrub_steps(tx: ManagedTransaction, dropped: list[str]) -> None:
    """No generation step names an entity that is gone (the write's own step included, so call it after the bump)."""
    by_project: dict[str, list[str]] = {}
    for entity_id in dropped:
        by_project.setdefault(entity_id.rsplit("/", 2)[0], []).append(entity_id)
    for project_id, ids in sorted(by_project.items()):
        tx.run(SCRUB_STEPS, project_id=project_id, ids=ids).consume()


def after_delete(tx: ManagedTransaction, links: dict[str, list[str]]) -> list[str]:
    """Entities and chapters the entry alone held (or the entries before their rewrite); returns the entities
    dropped."""
    dropped = drop_unsourced(tx, links["entities"])
    if links["periods"]:
        tx.run(DROP_EMPTY_PERIODS, ids=links["periods"]).consume()
    return dropped


def mark_purge_due(tx: ManagedTransaction) -> None:
    """Removed text lingers on disk until the next purge: say one is due (a no-op while one already is)."""
    tx.run(PURGE_DUE).consume()


# Forgetting a person, place or thing (ingest/forget.py). The entries of the project the caller may see that name it,
# by a mention or by the words of one of its names (`ft_terms`, the folded words of the entry's texts, in the shape
# `term_string` gives), and whether the caller may edit each: the owner every entry they see, a coauthor their own.
NAMING_ENTRIES = f"""
MATCH (e:Entry {{project_id: $project_id}})
WHERE {CAN_SEE}
  AND (EXISTS {{ MATCH (e)-[:MENTIONS]->(x) WHERE x.id = $entity_id }}
       OR e.ft_terms IS NULL OR any(t IN $terms WHERE e.ft_terms CONTAINS t))
RETURN e.id AS id, ($owner OR e.author_id = $viewer_id) AS editable
ORDER BY id
"""
DROP_FED_SUMMARIES_OF = "UNWIND $ids AS eid MATCH (s:Summary)-[:FED_BY]->(:Entry {id: eid}) DETACH DELETE s"
# What else holds the names, as far as the caller may see: their rejections of the name as a candidate and of names
# messages gave the entity, the declarations a merge into the entity detached (kept for an unmerge), the caller's
# own merge records, and the members' links to the person (graph/member_people.py: a declaration every member sees).
DROP_NAME_RECORDS = f"""
CALL {{
  MATCH (d:Dismissal {{project_id: $project_id, kind: $kind}})
  WHERE d.key IN $keys AND {CAN_SEE_DECLARATION}
  DETACH DELETE d
}}
CALL {{
  MATCH (d:Dismissal {{project_id: $project_id, kind: 'called', entity_id: $entity_id}})
  WHERE {CAN_SEE_DECLARATION}
  DETACH DELETE d
}}
CALL {{
  MATCH (d:Declaration {{project_id: $project_id}})
  WHERE d.merged_into = $entity_id AND {CAN_SEE_DECLARATION}
  DETACH DELETE d
}}
CALL {{
  MATCH (g:EntityMerge {{project_id: $project_id, author_id: $viewer_id}})
  WHERE g.into_id = $entity_id OR g.from_id = $entity_id OR g.from_key IN $keys
  DETACH DELETE g
}}
CALL {{
  MATCH (:User)-[l:IS_PERSON]->(:Person {{id: $entity_id}})
  DELETE l
}}
"""


def naming_entries(
    graph: Graph, project_id: str, entity_id: str, terms: list[str], viewer: Viewer, owner: bool
) -> list[tuple[str, bool]]:
    """(entry id, whether the caller may edit it) for the visible entries that may name the entity."""
    rows = graph.read(
        NAMING_ENTRIES,
        {"project_id": project_id, "entity_id": entity_id, "terms": terms, "owner": owner, **visibility_params(viewer)},
    )
    return [(r["id"], bool(r["editable"])) for r in rows]


def drop_fed_summaries(graph: Graph, entry_ids: list[str]) -> None:
    """Summary variants built from these entries' old text (built again from the new one at the next read)."""
    if entry_ids:
        graph.write(DROP_FED_SUMMARIES_OF, {"ids": entry_ids})


def drop_name_records(
    graph: Graph, project_id: str, kind: str, entity_id: str, keys: list[str], viewer: Viewer
) -> None:
    graph.write(
        DROP_NAME_RECORDS,
        {"project_id": project_id, "kind": kind, "entity_id": entity_id, "keys": keys, **visibility_params(viewer)},
    )
    graph.transact(mark_purge_due)


# A member leaving with their entries (ingest/departure.py): the entries they wrote, and the names they declared or
# rejected and the merges they made, all of which are theirs alone.
AUTHORED_ENTRIES = """
MATCH (e:Entry {project_id: $project_id}) WHERE e.author_id = $user_id
RETURN e.id AS id ORDER BY id
"""
AUTHORED_NAME_RECORDS = """
MATCH (d:Declaration|Dismissal|EntityMerge {project_id: $project_id}) WHERE d.author_id = $user_id
RETURN labels(d)[0] AS label, d.intimacy AS intimacy, COLLECT { MATCH (d)-[:DECLARES]->(x) RETURN x.id } AS entities
"""
DROP_AUTHORED_NAME_RECORDS = """
MATCH (d:Declaration|Dismissal|EntityMerge {project_id: $project_id}) WHERE d.author_id = $user_id
DETACH DELETE d
"""


def authored_entries(graph: Graph, project_id: str, user_id: str) -> list[str]:
    return [r["id"] for r in graph.read(AUTHORED_ENTRIES, {"project_id": project_id, "user_id": user_id})]


def drop_authored_names(graph: Graph, project_id: str, user_id: str) -> int:
    """Delete the declarations, rejections and merge records `user_id` made in the project, and the entities only
    their declarations named; returns how many declarations went."""
    params = {"project_id": project_id, "user_id": user_id}

    def work(tx: ManagedTransaction) -> int:
        rows = [dict(r) for r in tx.run(AUTHORED_NAME_RECORDS, params)]
        tx.run(DROP_AUTHORED_NAME_RECORDS, params).consume()
        dropped = drop_unsourced(tx, list({x for r in rows for x in r["entities"]}))
        bump_levels_in(tx, [{"project_id": project_id, "intimacy": r["intimacy"], "author_id": user_id} for r in rows])
        scrub_steps(tx, dropped)
        mark_purge_due(tx)
        return sum(1 for r in rows if r["label"] == "Declaration")

    return graph.transact(work)
