// graph.export.MEMBERS
MATCH (u:User)-[m:MEMBER_OF]->(:Project {id: $project_id})
WHERE $own_author IS NULL OR u.id = $own_author
RETURN u.id AS user_id, m.role AS role ORDER BY u.id
