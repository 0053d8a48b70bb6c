// graph.members.ENSURE_PROJECT
MERGE (p:Project {id: $project_id})
ON CREATE SET p.name = coalesce($name, $project_id), p.created_at = datetime(), p.hemisphere = 'north'
