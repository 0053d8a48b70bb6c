// graph.entities.LIST_ENTITIES
MATCH (n:Person|Place|Thing) WHERE n.project_id IN $project_ids
RETURN n.id AS id, n.project_id AS project_id, n.kind AS kind, n.name AS name,
       COLLECT { MATCH (d:Declaration)-[:DECLARES]->(n) WITH d ORDER BY d.created_at, d.id
                 UNWIND d.aliases AS a RETURN a } AS aliases
ORDER BY n.id
