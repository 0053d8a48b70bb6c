// graph.members.PROJECT_HEMISPHERES
MATCH (p:Project) WHERE p.id IN $ids RETURN p.hemisphere AS h
