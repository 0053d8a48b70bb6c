// graph.generations.CHUNK_LEVELS
UNWIND $ids AS id
MATCH (:Chunk {id: id})-[:OF]->(e:Entry)
RETURN DISTINCT e.project_id AS project_id, e.intimacy AS intimacy, e.author_id AS author_id, e.id AS entry_id,
       [] AS entity_ids
