// graph.members.UPDATE_PROJECT
MATCH (p:Project {id: $project_id})
SET p.name = coalesce($name, p.name), p.hemisphere = coalesce($hemisphere, p.hemisphere), p.updated_at = datetime()
RETURN p.id AS project_id, p.name AS name, p.hemisphere AS hemisphere
