// graph.entries.UPSERT_ENTRIES
UNWIND $rows AS row
MERGE (p:Project {id: row.project_id})
ON CREATE SET p.name = row.project_id, p.created_at = datetime(), p.hemisphere = 'north'
MERGE (e:Entry {id: row.id})
ON CREATE SET e.created_at = datetime()
WITH e, row

OPTIONAL MATCH (e)-[:MENTIONS|IN_PERIOD]->(target)<-[:VECTOR_OF]-(stale:EntityVector)
WHERE e.intimacy IN ['circle', 'public']
   OR (e.intimacy = 'intimate' AND (stale.audience IN ['inner', 'writer'] OR stale.user_id = e.author_id))
   OR (e.intimacy = 'private' AND stale.user_id = e.author_id)
SET target.vectors_signature = null
DETACH DELETE stale
WITH DISTINCT e, row

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
