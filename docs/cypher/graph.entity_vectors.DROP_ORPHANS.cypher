// graph.entity_vectors.DROP_ORPHANS
MATCH (v:EntityVector {project_id: $project_id})
WHERE NOT EXISTS { MATCH (v)-[:VECTOR_OF]->() }
WITH v, v.audience AS audience, v.user_id AS user_id
DETACH DELETE v
RETURN DISTINCT audience, user_id
