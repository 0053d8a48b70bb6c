// graph.export.PROJECT
MATCH (p:Project {id: $project_id})
RETURN p.id AS project_id, p.name AS name, coalesce(p.hemisphere, 'north') AS hemisphere
