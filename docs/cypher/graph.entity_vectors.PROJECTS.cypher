// graph.entity_vectors.PROJECTS
MATCH (p:Project) RETURN p.id AS id ORDER BY id
