// graph.export.ALL_DISMISSALS
MATCH (d:Dismissal) WHERE d.project_id = $project_id 
RETURN d.kind AS kind, d.name AS name, d.intimacy AS audience, d.author_id AS author,
       toString(d.created_at) AS created_at, d.entity_id AS entity
ORDER BY d.created_at, d.key, d.intimacy, coalesce(d.author_id, '')
