// graph.generations.ENTRY_LEVELS
UNWIND $ids AS id
MATCH (e:Entry {id: id})
RETURN e.project_id AS project_id, e.intimacy AS intimacy, e.author_id AS author_id, e.id AS entry_id,
       COLLECT { MATCH (e)-[:MENTIONS]->(x) RETURN DISTINCT x.id } AS entity_ids
