// graph.members.EVERY_MEMBERSHIP
MATCH (u:User)-[m:MEMBER_OF]->(p:Project)
RETURN u.id AS user_id, p.id AS project_id, m.role AS role
ORDER BY user_id, project_id
LIMIT $limit
