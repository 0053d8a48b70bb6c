// graph.export.MEMBERS
MATCH (u:User)-[m:MEMBER_OF]->(:Project {id: $project_id})
RETURN u.id AS user_id, m.role AS role ORDER BY u.id
