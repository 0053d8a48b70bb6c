// graph.members.PROJECTS_WITHOUT_OWNER
MATCH (p:Project) WHERE p.id IN $project_ids AND NOT EXISTS { MATCH (:User)-[:MEMBER_OF {role: 'owner'}]->(p) }
RETURN p.id AS project_id ORDER BY project_id
