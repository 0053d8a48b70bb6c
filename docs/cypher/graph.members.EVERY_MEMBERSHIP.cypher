// graph.members.EVERY_MEMBERSHIP
MATCH (u:User)-[m:MEMBER_OF]->(p:Project)
WITH u, p, collect(CASE WHEN m IS NOT NULL THEN coalesce(m.role, '') END) AS roles
RETURN u.id AS user_id, p.id AS project_id, CASE WHEN size(roles) = 0 THEN null WHEN 'owner' IN roles THEN 'owner'
WHEN 'coauthor' IN roles THEN 'coauthor' ELSE 'reader' END AS role
ORDER BY user_id, project_id
LIMIT $limit
