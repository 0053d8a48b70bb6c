// graph.members.MEMBERS_OF
MATCH (u:User)-[m:MEMBER_OF]->(:Project {id: $project_id})
WITH u, collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles
RETURN u.id AS user_id, CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END AS role ORDER BY u.id
