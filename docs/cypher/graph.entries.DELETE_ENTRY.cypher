// graph.entries.DELETE_ENTRY
MATCH (e:Entry {id: $id})

OPTIONAL MATCH (e)-[:MENTIONS|IN_PERIOD]->(target)<-[:VECTOR_OF]-(stale:EntityVector)
WHERE e.intimacy IN ['circle', 'public']
   OR (e.intimacy = 'intimate' AND (stale.audience IN ['inner', 'writer'] OR stale.user_id = e.author_id))
   OR (e.intimacy = 'private' AND stale.user_id = e.author_id)
SET target.vectors_signature = null
DETACH DELETE stale
WITH DISTINCT e

OPTIONAL MATCH (c:Chunk)-[:OF]->(e)
DETACH DELETE c, e
RETURN count(DISTINCT e) AS deleted
