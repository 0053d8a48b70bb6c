// graph.entity_vectors.DROP_AFFECTED_VARIANTS
OPTIONAL MATCH (e)-[:MENTIONS|IN_PERIOD]->(target)<-[:VECTOR_OF]-(stale:EntityVector)
WHERE e.intimacy IN ['circle', 'public']
   OR (e.intimacy = 'intimate' AND (stale.audience IN ['inner', 'writer'] OR stale.user_id = e.author_id))
   OR (e.intimacy = 'private' AND stale.user_id = e.author_id)
SET target.vectors_signature = null
DETACH DELETE stale
