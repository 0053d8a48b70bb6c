// graph.export.ALL_ENTITIES
MATCH (n:Person|Place|Thing) WHERE n.project_id = $project_id
RETURN n.id AS id, n.kind AS kind, n.name AS name ORDER BY n.id
