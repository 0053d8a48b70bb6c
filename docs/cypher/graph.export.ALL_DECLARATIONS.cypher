// graph.export.ALL_DECLARATIONS
MATCH (d:Declaration)-[:DECLARES]->(n) WHERE d.project_id = $project_id 
RETURN n.id AS entity_id, n.kind AS kind, d.name AS name, d.aliases AS aliases, d.intimacy AS audience,
       d.author_id AS author, toString(d.created_at) AS created_at
ORDER BY d.created_at, n.id, d.intimacy, coalesce(d.author_id, '')
