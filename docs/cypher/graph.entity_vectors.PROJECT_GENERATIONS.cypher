// graph.entity_vectors.PROJECT_GENERATIONS
MATCH (p:Project) WHERE $project_id IS NULL OR p.id = $project_id
RETURN p.id AS id, [k IN keys(p) WHERE k STARTS WITH 'search_generation' | k + '=' + toString(p[k])] AS generations
ORDER BY id
